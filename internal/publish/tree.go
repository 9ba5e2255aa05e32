package publish

import (
	"crypto/md5"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"

	buildmanifest "logoindex/generator/manifest"
	"logoindex/internal/headers"
)

// maxFileSize bounds what one file of the tree may hold: the build's
// largest outputs are far smaller, and every file is kept in memory so
// what is hashed is what is uploaded.
const maxFileSize = 64 << 20

// file is one file of the tree, as it will be uploaded.
type file struct {
	key                       string
	data                      []byte
	md5                       [md5.Size]byte
	contentType, cacheControl string
}

// readTree reads every file to upload, with its headers, and the build
// manifest. It reports every problem of the tree at once. Hidden files
// (the manifest among them) are skipped, as hosts that deploy folders skip
// them, unless the manifest lists them among the files of the source's
// _static/ folder (.well-known/); so are _headers and _redirects, which
// only Netlify and Cloudflare Pages read. Without force, a tree without a valid manifest is
// refused.
func readTree(tree fs.FS, force bool) (map[string]*file, buildmanifest.Manifest, error) {
	var problems []string
	manifest, err := buildmanifest.Read(tree)
	switch {
	case err == nil:
	case force:
		manifest = buildmanifest.Manifest{}
	case errors.Is(err, fs.ErrNotExist):
		problems = append(problems, fmt.Sprintf("%s: missing, so the tree was not written by logoindex build (or by a version before it); build it again (make build BASE_URL=https://logos.example.com)", buildmanifest.File))
	default:
		problems = append(problems, fmt.Sprintf("%s: %v; build the tree again", buildmanifest.File, err))
	}

	static := map[string]bool{}
	for _, name := range manifest.Static {
		static[name] = true
	}
	files := map[string]*file{}
	err = fs.WalkDir(tree, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", name, err))
			return nil
		}
		if hidden(name) && !static[name] {
			if d.IsDir() && !slices.ContainsFunc(manifest.Static, func(s string) bool { return strings.HasPrefix(s, name+"/") }) {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || name == "_headers" || name == "_redirects" {
			return nil
		}
		if name == ReleasesKey {
			problems = append(problems, fmt.Sprintf("%s: the list of releases, which only logoindex release writes into the bucket; remove it from the tree", name))
			return nil
		}
		if !d.Type().IsRegular() {
			problems = append(problems, fmt.Sprintf("%s: not a regular file (%s); publish uploads files only, so replace it with the file or remove it", name, d.Type()))
			return nil
		}
		ctype, cache := headers.Site.Object(name)
		if static[name] {
			ctype, cache = headers.Site.StaticObject(name)
		}
		if ctype == "" {
			problems = append(problems, fmt.Sprintf("%s: no header rule covers it, so it is not a file logoindex build writes; remove it, or build the tree again", name))
			return nil
		}
		data, err := readFile(tree, name)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", name, err))
			return nil
		}
		files[name] = &file{key: name, data: data, md5: md5.Sum(data), contentType: ctype, cacheControl: cache}
		return nil
	})
	if err != nil {
		problems = append(problems, err.Error())
	}
	if len(files) == 0 && len(problems) == 0 {
		problems = append(problems, "the tree holds no files to publish; build it first (make build BASE_URL=https://logos.example.com)")
	}
	if len(problems) > 0 {
		slices.Sort(problems)
		return nil, buildmanifest.Manifest{}, &TreeError{Problems: problems}
	}
	return files, manifest, nil
}

func readFile(tree fs.FS, name string) ([]byte, error) {
	f, err := tree.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("larger than %d MiB, more than a build writes; remove it", maxFileSize>>20)
	}
	return data, nil
}

// stepOf is the step a file is uploaded in: after every file it names
// (TestStepsFollowReferences reads the references of a built tree). SVGs
// and hashed assets name nothing. A logo's JSON, page and registry item
// name each other and its SVGs, and only the indexes name them, so they
// go together, in the step before the indexes.
func stepOf(key string) Step {
	switch {
	case key == "api/logos.json", key == "r/registry.json", key == "index.html",
		strings.HasPrefix(key, "sitemap") && path.Ext(key) == ".xml": // a sitemap names every page
		return StepIndexes
	case path.Ext(key) == ".svg", strings.HasPrefix(key, "assets/"):
		return StepLeaves
	}
	return StepPages
}

// hidden reports whether a name of the tree is hidden, or in a hidden
// folder.
func hidden(name string) bool {
	return name != "." && (strings.HasPrefix(name, ".") || strings.Contains(name, "/."))
}
