package generator

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
)

// ManifestFile is the build manifest at the root of every output tree: it
// records what the tree was built for, so that `logoindex publish` can
// refuse a tree built for another address. Its name starts with a dot:
// hosts that deploy a folder (Netlify, Cloudflare Pages, GitHub Pages) and
// `logoindex serve` skip hidden files, publish does not upload it, and no
// logo slug or other output can take the name.
const ManifestFile = ".logoindex-build.json"

// manifestFormat is the version of ManifestFile's layout.
const manifestFormat = 1

// BuildManifest is the content of ManifestFile.
type BuildManifest struct {
	Format    int    `json:"format"`
	Generator string `json:"generator"` // always "logoindex"
	// BaseURL is RenderOptions.BaseURL: the URL every link in the tree
	// starts with; empty for root-relative links.
	BaseURL string `json:"base_url"`
	// Logos are the patterns of a partial build (build 'git*'): the tree
	// holds only the logos they select, so publish refuses it. Absent
	// from a full build.
	Logos []string `json:"logos,omitempty"`
}

func manifestFile(base string, logos []string) (OutFile, error) {
	b, err := marshal(BuildManifest{Format: manifestFormat, Generator: "logoindex", BaseURL: base, Logos: logos})
	if err != nil {
		return OutFile{}, err
	}
	return OutFile{Name: ManifestFile, Data: append(b, '\n')}, nil
}

// maxManifestSize bounds the read: a manifest is a few dozen bytes.
const maxManifestSize = 64 << 10

// ReadManifest reads the build manifest of a tree. A tree without one was
// not written by logoindex build (or by a version before manifests); the
// error then matches fs.ErrNotExist.
func ReadManifest(tree fs.FS) (BuildManifest, error) {
	f, err := tree.Open(ManifestFile)
	if err != nil {
		return BuildManifest{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxManifestSize+1))
	if err != nil {
		return BuildManifest{}, err
	}
	return parseManifest(data)
}

func parseManifest(data []byte) (BuildManifest, error) {
	if len(data) > maxManifestSize {
		return BuildManifest{}, errors.New("larger than a build manifest can be")
	}
	var m BuildManifest
	if err := json.Unmarshal(data, &m); err != nil {
		return BuildManifest{}, fmt.Errorf("not a build manifest: %w", err)
	}
	if m.Generator != "logoindex" || m.Format != manifestFormat {
		return BuildManifest{}, fmt.Errorf("not a build manifest of this version of logoindex (generator %q, format %d)", m.Generator, m.Format)
	}
	return m, nil
}
