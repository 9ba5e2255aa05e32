package source

import (
	"io/fs"
	"strings"
	"unicode/utf8"

	"logoindex/generator/problem"
)

// StaticDir is the folder of the source tree whose files are copied, as
// they are, to the root of the output: the files a host needs beside the
// index (CNAME, robots.txt, .well-known/). Its name cannot be a slug.
const StaticDir = "_static"

// Limits on the static files, which bound what a pull request can add.
const (
	MaxStaticSize  = 10 << 20
	MaxStaticTotal = 50 << 20
	MaxStaticFiles = 1000
	maxStaticDepth = 8
)

// reservedStatic are the names at the top of the output that the build
// and publish keep for themselves: the folders the build writes whole,
// the releases' v/, and the state publish keeps in a bucket
// (.logoindex-*). A static file there would overwrite a pinned release
// or publish's lease, or take the headers of the build's own files.
var reservedStatic = map[string]string{
	"api":    "the build writes api/ whole",
	"assets": "the build writes assets/ whole, cached for ever",
	"logos":  "the build writes logos/ whole",
	"r":      "the build writes the registry, r/, whole",
	"v":      "v/ holds the pinned releases, which never change",
}

// topFiles are the files the build writes at the top of the output. A
// file of StaticDir with one of these names is a clash the checks across
// logos report; a folder would stop the build from writing the file.
var topFiles = map[string]bool{
	"index.html": true, "404.html": true, "favicon.svg": true, "sitemap.xml": true,
	"_headers": true, "_redirects": true,
}

// staticNameRefusal says why a file or folder (isDir) of StaticDir, depth
// folders down, may not have the name name, with the problem's code, or
// returns "".
func staticNameRefusal(name string, depth int, isDir bool) (problem.Code, string) {
	switch {
	case !utf8.ValidString(name) || strings.IndexFunc(name, unsafeNameRune) >= 0:
		return problem.FileUnexpected, "has a control, invisible or direction character in its name, which would reach terminals, logs and URLs as it is; rename it"
	case depth > 0:
		return "", ""
	case reservedStatic[name] != "":
		return problem.StaticCollision, reservedStatic[name] + "; put the host's files beside it, at the top of " + StaticDir + " or in a folder of their own"
	case strings.HasPrefix(name, ".logoindex"):
		return problem.StaticCollision, "names the state that build and publish keep (.logoindex-*); rename it"
	case isDir && topFiles[name]:
		return problem.StaticCollision, "is a folder where the build writes the file " + name + "; rename it"
	}
	return "", ""
}

// StaticAllowed reports whether a file of StaticDir may have the path
// name (slash-separated, relative to StaticDir): whether the host's file a
// build finds at name in its output has a place in the source.
func StaticAllowed(name string) bool {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		if _, why := staticNameRefusal(p, i, i < len(parts)-1); why != "" {
			return false
		}
	}
	return true
}

// unsafeNameRune reports whether r may not be in a static file's name:
// C0 and C1 controls, DEL, and the characters that reorder or hide text.
func unsafeNameRune(r rune) bool {
	return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 ||
		r >= 0x200b && r <= 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0xfeff
}

// Static reads the files of StaticDir, by their paths under it. Links,
// special files and ignored files are not read, as in a logo folder.
func (s *Reader) Static(probs *problem.List) []*File {
	var files []*File
	total := int64(0)
	s.staticDir(StaticDir, 0, &files, &total, probs)
	return files
}

// staticDir reads the folder dir of StaticDir, depth folders down.
// total counts the bytes read, which stop at MaxStaticTotal.
func (s *Reader) staticDir(dir string, depth int, files *[]*File, total *int64, probs *problem.List) {
	entries, err := s.files.ReadDir(dir)
	if err != nil {
		probs.Errorf(problem.FileUnreadable, DisplayPath(s.dir, dir), 0, 0, "cannot read the folder: %s", describeFSError(err))
		return
	}
	for _, e := range entries {
		if *total > MaxStaticTotal {
			return // reported once, where it passed
		}
		rel := dir + "/" + e.Name()
		if s.ignored(rel, e, probs) {
			continue
		}
		if code, why := staticNameRefusal(e.Name(), depth, e.IsDir()); why != "" {
			probs.Errorf(code, DisplayPath(s.dir, rel), 0, 0, "%s", why)
			continue
		}
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			probs.Errorf(problem.FileSymlink, DisplayPath(s.dir, rel), 0, 0, "is a symbolic link; links are never followed: replace it with the real folder or file")
		case e.IsDir() && depth+1 >= maxStaticDepth:
			probs.Errorf(problem.FileUnexpected, DisplayPath(s.dir, rel), 0, 0, "is %d folders deep in %s; at most %d are copied", depth+2, StaticDir, maxStaticDepth)
		case e.IsDir():
			s.staticDir(rel, depth+1, files, total, probs)
		case !e.Type().IsRegular():
			probs.Errorf(problem.FileNotRegular, DisplayPath(s.dir, rel), 0, 0, "%s", notRegular(e.Type()))
		case len(*files) == MaxStaticFiles:
			probs.Errorf(problem.ListSize, DisplayPath(s.dir, rel), 0, 0, "%s holds more than %d files; a site needs a few beside the index", StaticDir, MaxStaticFiles)
			return
		default:
			f := s.readFile(rel, MaxStaticSize, probs)
			if f == nil {
				continue
			}
			if *total += int64(len(f.Data)); *total > MaxStaticTotal {
				probs.Errorf(problem.ListSize, DisplayPath(s.dir, rel), 0, 0, "takes %s past %s in all; keep large downloads elsewhere", StaticDir, formatSize(MaxStaticTotal))
				return
			}
			*files = append(*files, f)
		}
	}
}
