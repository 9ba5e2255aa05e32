// Package source reads a folder of logo sources: categories.yaml, the
// ignore patterns, and one folder a logo holding logo.yaml and the SVG of
// each variant. It reports every structural problem (unexpected files,
// bad slugs, links, special and oversized files) and the problems of
// logo.yaml and categories.yaml, each at its file, line and column, and
// hands the build plain data.
package source

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"logoindex/generator/internal/sysfs"

	"logoindex/generator/ignore"
	"logoindex/generator/problem"
)

// Variants are the variant names of the spec, in the order they are shown
// and written.
var Variants = []string{"icon", "icon-mono", "icon-dark", "wordmark", "wordmark-dark"}

// Size limits on input files. They bound the memory and time of a build
// whatever a pull request contains.
const (
	MaxSVGSize        = 512 << 10
	MaxLogoYAMLSize   = 64 << 10
	MaxCategoriesSize = 1 << 20
	MaxSlugLen        = 64
	// LargeSVGSize is where an SVG gets a warning: it is above the largest
	// artwork of the public icon packages, and most logos are far smaller.
	LargeSVGSize = 256 << 10
)

// File is one input file as read, before any check.
type File struct {
	Path string // display path: Options.Dir joined with the file's name in the FS
	Data []byte
	// Stat is the file's, taken on the open file before it was read; its
	// Ino is 0 when the file system gave none.
	Stat sysfs.Stat
}

// Logo is the raw content of one logo folder.
type Logo struct {
	Slug     string
	Dir      string // display path of the folder
	Meta     *File  // logo.yaml; nil when missing or unreadable
	Variants map[string]*File

	// Entries are the folder's listing, which it was read by.
	Entries []fs.DirEntry
}

// Reader reads a source folder, as a build does: the files .logoindexignore
// and the default patterns ignore are skipped unread, no symbolic link is
// followed and nothing but a regular file is opened.
type Reader struct {
	fsys          fs.FS
	dir           string // display path
	ignore        *ignore.Matcher
	reportIgnored bool
	files         *sysfs.Dir // the folder, where files are read and stat'ed
	patterns      []string   // Options.Logos
}

// Options configures a Reader. The zero value reads every logo and names
// files by their paths in the file system.
type Options struct {
	// Dir is how the user named the source folder; it prefixes the paths
	// in problems ("source-logos/github/logo.yaml").
	Dir string
	// ReportIgnored reports each file an ignore pattern skips, as a
	// warning (check -strict).
	ReportIgnored bool
	// Logos selects logos by doublestar patterns on slugs; none selects
	// every logo.
	Logos []string
}

// New returns a Reader of the source folder fsys.
func New(fsys fs.FS, opts Options) *Reader {
	return &Reader{fsys: fsys, dir: opts.Dir, ignore: ignore.New(), reportIgnored: opts.ReportIgnored, patterns: opts.Logos, files: sysfs.OpenFS(fsys)}
}

// Close releases the folder's descriptor.
func (s *Reader) Close() { s.files.Close() }

// IgnoreKey identifies the ignore patterns in force, on which what a build
// reads depends.
func (s *Reader) IgnoreKey() string { return s.ignore.Key() }

// ReadFile reads the file name, at most limit bytes, as a build reads a
// source.
func (s *Reader) ReadFile(name string, limit int64) ([]byte, error) {
	data, _, err := s.files.ReadFile(name, limit)
	return data, err
}

// Selected reports whether the logo slug is checked in full: the patterns
// select it, or there are none.
func (s *Reader) Selected(slug string) bool {
	if len(s.patterns) == 0 {
		return true
	}
	for _, p := range s.patterns {
		if doublestar.MatchUnvalidated(p, slug) {
			return true
		}
	}
	return false
}

// checkPatterns reports the patterns of Options.Logos that are invalid or
// select no logo: a typo should not pass for a clean check.
func (s *Reader) checkPatterns(slugs []string, probs *problem.List) {
	for _, p := range s.patterns {
		if msg := CheckLogoPattern(p); msg != "" {
			probs.Errorf(problem.PatternUnmatched, DisplayPath(s.dir, "."), 0, 0, "%s", msg)
			continue
		}
		if !slices.ContainsFunc(slugs, func(slug string) bool { return doublestar.MatchUnvalidated(p, slug) }) {
			probs.Errorf(problem.PatternUnmatched, DisplayPath(s.dir, "."), 0, 0, "logo pattern %q selects no logo; patterns match folder names (slugs), such as git* for github and gitlab", p)
		}
	}
}

// CheckLogoPattern returns what is wrong with a pattern of Options.Logos,
// or "".
func CheckLogoPattern(p string) string {
	if !doublestar.ValidatePattern(p) || strings.Contains(p, "/") {
		return fmt.Sprintf("logo pattern %q is not a doublestar pattern on slugs: use *, ?, [a-z] and {a,b} on folder names, as in 'git*', without /", p)
	}
	return ""
}

// Meta reads only the logo.yaml of a logo that is not selected, for the
// rules across logos. Its problems are left to a check of that logo.
func (s *Reader) Meta(slug string) *Logo {
	l := &Logo{Slug: slug, Dir: DisplayPath(s.dir, slug)}
	rel := path.Join(slug, "logo.yaml")
	if info, err := fs.Lstat(s.fsys, rel); err == nil && info.Mode().IsRegular() {
		var ignored problem.List
		l.Meta = s.readFile(rel, MaxLogoYAMLSize, &ignored)
	}
	return l
}

// ignored tells whether the entry rel is ignored, and reports it: as an
// error when it has the name of a source file (a pattern that hides
// icon.svg is a mistake, not junk), and as a warning when asked.
func (s *Reader) ignored(rel string, e fs.DirEntry, probs *problem.List) bool {
	p := s.ignore.Match(rel, e.IsDir())
	switch {
	case p == nil:
		return false
	case isSourceName(rel):
		probs.Errorf(problem.IgnorePatternInvalid, DisplayPath(s.dir, rel), 0, 0, "is a source file, but %s ignores it; change the pattern so that it leaves %s alone", p, path.Base(rel))
	case e.IsDir() && isSlug(rel) && s.holdsLogo(rel):
		// A logo that goes away must say so (removed.yaml), not vanish.
		probs.Errorf(problem.IgnorePatternInvalid, DisplayPath(s.dir, rel), 0, 0, "is a logo folder, but %s ignores it, which would drop the logo without a word; change the pattern, or remove the folder and list the logo in %s", p, RemovedFile)
	case s.reportIgnored:
		probs.Warnf(problem.FileIgnored, DisplayPath(s.dir, rel), 0, 0, "ignored by %s; remove it from the repository", p)
	}
	return true
}

// holdsLogo reports whether the folder dir holds a logo.yaml, which makes
// it a logo folder rather than one of drafts.
func (s *Reader) holdsLogo(dir string) bool {
	_, err := s.files.Lstat(dir + "/logo.yaml")
	return err == nil
}

// isSourceName reports whether rel, relative to the source folder, names a
// file the build reads: categories.yaml, or a logo's logo.yaml or variant.
func isSourceName(rel string) bool {
	dir, name := path.Split(rel)
	if dir == "" {
		return name == "categories.yaml" || name == RemovedFile
	}
	return strings.Count(rel, "/") == 1 && (name == "logo.yaml" || variantOfFile(name) != "")
}

// Top is the top of a source folder.
type Top struct {
	Categories *File    // categories.yaml; nil when missing or unreadable
	Removed    *File    // removed.yaml; nil when there is none
	Static     bool     // there is a StaticDir to copy
	Slugs      []string // the logo folders, sorted
}

// Scan reads the top of the source folder: .logoindexignore,
// categories.yaml, removed.yaml and the slugs of the logo folders, with
// the problems of the folder itself.
func (s *Reader) Scan(ctx context.Context) (*Top, problem.List) {
	var probs problem.List
	top := &Top{}
	entries, err := s.files.ReadDir(".")
	if err != nil {
		probs.Errorf(problem.FileUnreadable, DisplayPath(s.dir, "."), 0, 0, "cannot read the source folder: %s", describeFSError(err))
		return top, probs
	}
	m, p := ignore.Load(s.fsys, s.dir)
	s.ignore = m
	probs = append(probs, p...)
	names := map[string]bool{}
	for _, e := range entries {
		names[e.Name()] = true
	}
	for _, e := range entries {
		if ctx.Err() != nil {
			break
		}
		if name := e.Name(); name != ignore.FileName && !s.ignored(name, e, &probs) {
			s.topEntry(e, names, top, &probs)
		}
	}
	if top.Categories == nil && !hasProblemAt(probs, DisplayPath(s.dir, "categories.yaml")) {
		probs.Errorf(problem.FileMissing, DisplayPath(s.dir, "categories.yaml"), 0, 0, "missing; create it with the list of categories (- {slug: devtools, name: Developer tools})")
	}
	slices.Sort(top.Slugs)
	s.checkPatterns(top.Slugs, &probs)
	return top, probs
}

// topEntry reads one entry of the source folder into top; names are every
// entry's name.
func (s *Reader) topEntry(e fs.DirEntry, names map[string]bool, top *Top, probs *problem.List) {
	name, display := e.Name(), DisplayPath(s.dir, e.Name())
	switch {
	case e.Type()&fs.ModeSymlink != 0:
		probs.Errorf(problem.FileSymlink, display, 0, 0, "is a symbolic link; links are never followed: replace it with the real folder or file")
	case !e.IsDir() && !e.Type().IsRegular():
		probs.Errorf(problem.FileNotRegular, display, 0, 0, "%s", notRegular(e.Type()))
	case (name == "categories.yaml" || name == RemovedFile) && e.IsDir():
		probs.Errorf(problem.FileNotRegular, display, 0, 0, "is a folder; %s must be a file", name)
	case name == "categories.yaml":
		top.Categories = s.readFile(name, MaxCategoriesSize, probs)
	case name == RemovedFile:
		top.Removed = s.readFile(name, MaxRemovedSize, probs)
	case name == StaticDir && e.IsDir():
		top.Static = true
	case !e.IsDir():
		probs.Errorf(problem.FileUnexpected, display, 0, 0, "unexpected file; the source folder holds only categories.yaml, %s, %s, %s/ and one folder per logo", RemovedFile, ignore.FileName, StaticDir)
	default:
		if msg := CheckSlug(name); msg != "" {
			code := problem.SlugInvalid
			if lower := strings.ToLower(name); lower != name && names[lower] {
				// Two folders a case-insensitive file system (macOS,
				// Windows) cannot hold side by side.
				code, msg = problem.SlugCollision, fmt.Sprintf("folder name differs from %q only in case; slugs are lower case: merge the two folders", lower)
			}
			probs.Errorf(code, display, 0, 0, "%s", msg)
			return
		}
		top.Slugs = append(top.Slugs, name)
	}
}

// Logo reads one logo folder, with the problems of its files.
func (s *Reader) Logo(slug string, probs *problem.List) *Logo {
	var entries []fs.DirEntry
	dir := s.dir
	l := &Logo{Slug: slug, Dir: DisplayPath(dir, slug), Variants: map[string]*File{}}
	entries, err := s.files.ReadDir(slug)
	if err != nil {
		probs.Errorf(problem.FileUnreadable, l.Dir, 0, 0, "cannot read the logo folder: %s", describeFSError(err))
		return l
	}
	l.Entries = entries
	for _, e := range entries {
		name := e.Name()
		rel := path.Join(slug, name)
		if s.ignored(rel, e, probs) {
			continue
		}
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			probs.Errorf(problem.FileSymlink, DisplayPath(dir, rel), 0, 0, "is a symbolic link; links are never followed: replace it with the real file")
		case !e.IsDir() && !e.Type().IsRegular():
			probs.Errorf(problem.FileNotRegular, DisplayPath(dir, rel), 0, 0, "%s", notRegular(e.Type()))
		case e.IsDir():
			if name == "logo.yaml" || variantOfFile(name) != "" {
				probs.Errorf(problem.FileNotRegular, DisplayPath(dir, rel), 0, 0, "is a folder; %s must be a file", name)
			} else {
				probs.Errorf(problem.FileUnexpected, DisplayPath(dir, rel), 0, 0, "unexpected folder; %s", allowedFilesHint)
			}
		case name == "logo.yaml":
			l.Meta = s.readFile(rel, MaxLogoYAMLSize, probs)
		case variantOfFile(name) != "":
			if f := s.readFile(rel, MaxSVGSize, probs); f != nil {
				l.Variants[variantOfFile(name)] = f
				if len(f.Data) > LargeSVGSize {
					probs.Warnf(problem.SVGLarge, f.Path, 0, 0, "is %s, over %s; a logo rarely needs that much: it may want re-exporting with simpler paths and no embedded images or fonts", formatSize(int64(len(f.Data))), formatSize(LargeSVGSize))
				}
			}
		default:
			msg := "unexpected file; " + allowedFilesHint
			if s := suggestFileName(name); s != "" {
				msg = fmt.Sprintf("unexpected file; did you mean %s? %s", s, allowedFilesHint)
			}
			probs.Errorf(problem.FileUnexpected, DisplayPath(dir, rel), 0, 0, "%s", msg)
		}
	}
	if l.Meta == nil && !hasProblemAt(*probs, DisplayPath(dir, path.Join(slug, "logo.yaml"))) {
		probs.Errorf(problem.FileMissing, DisplayPath(dir, path.Join(slug, "logo.yaml")), 0, 0, "missing; every logo folder needs a logo.yaml (run: logoindex new %s -name ... -hex ... -category ...)", slug)
	}
	if l.Variants["icon"] == nil && !hasProblemAt(*probs, DisplayPath(dir, path.Join(slug, "icon.svg"))) {
		probs.Errorf(problem.FileMissing, DisplayPath(dir, path.Join(slug, "icon.svg")), 0, 0, "missing; every logo needs icon.svg")
	}
	return l
}

const allowedFilesHint = "a logo folder holds only logo.yaml, icon.svg, icon-mono.svg, icon-dark.svg, wordmark.svg and wordmark-dark.svg"

func variantOfFile(name string) string {
	v, ok := strings.CutSuffix(name, ".svg")
	if ok && slices.Contains(Variants, v) {
		return v
	}
	return ""
}

// suggestFileName maps near-misses such as Icon.svg, icon_dark.svg or
// logo.yml to the name that was meant.
func suggestFileName(name string) string {
	n := strings.ToLower(name)
	n = strings.ReplaceAll(n, "_", "-")
	n = strings.ReplaceAll(n, " ", "-")
	if n == "logo.yml" || n == "logo.yaml" {
		return "logo.yaml"
	}
	if v, ok := strings.CutSuffix(n, ".svg"); ok {
		v = strings.ReplaceAll(v, "monochrome", "mono")
		if slices.Contains(Variants, v) {
			return v + ".svg"
		}
	}
	return ""
}

// CheckSlug returns what is wrong with a folder name as a slug, or "".
func CheckSlug(name string) string {
	switch {
	case len(name) > MaxSlugLen:
		return fmt.Sprintf("folder name is %d characters; a slug has at most %d", len(name), MaxSlugLen)
	case isSlug(name):
		return ""
	}
	for _, r := range name {
		if r >= 0x80 {
			return fmt.Sprintf("folder name has the non-ASCII character %q (U+%04X); slugs use only a-z, 0-9 and hyphens, and look-alike letters are refused", r, r)
		}
	}
	want := suggestSlug(name)
	if want != "" && want != name {
		return fmt.Sprintf("folder name is not a valid slug (lower-case letters, digits and single hyphens: ^[a-z0-9]+(-[a-z0-9]+)*$); rename it, for example to %q", want)
	}
	return "folder name is not a valid slug (lower-case letters, digits and single hyphens: ^[a-z0-9]+(-[a-z0-9]+)*$); rename it"
}

// isSlug reports whether name is a slug, ^[a-z0-9]+(-[a-z0-9]+)*$,
// without the regexp (TestIsSlug holds the two equal): every
// build checks every folder name, and a no-op build every name in its
// cache, so the regexp's cost would add up.
func isSlug(name string) bool {
	if name == "" || name[0] == '-' || name[len(name)-1] == '-' {
		return false
	}
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case c == '-' && name[i-1] != '-':
		default:
			return false
		}
	}
	return true
}

func suggestSlug(name string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			hyphen = false
			b.WriteRune(r)
		} else {
			hyphen = true
		}
	}
	s := b.String()
	if len(s) > MaxSlugLen {
		s = strings.TrimRight(s[:MaxSlugLen], "-")
	}
	return s
}

// notRegular says why a directory entry that is neither a folder, a link
// nor a regular file is refused. Such a file is never opened: opening a
// named pipe waits for a writer for ever, and a device can be endless.
func notRegular(t fs.FileMode) string {
	what := "a special file"
	switch {
	case t&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO)"
	case t&fs.ModeSocket != 0:
		what = "a socket"
	case t&fs.ModeDevice != 0:
		what = "a device"
	}
	return "is " + what + ", not a regular file; it was not opened: replace it with a regular file"
}

// readFile reads name, refusing a file over limit before reading it
// whole. The caller has checked from its directory entry that it is a
// regular file; a file put there meanwhile is refused all the same.
func (s *Reader) readFile(name string, limit int64, probs *problem.List) *File {
	p := DisplayPath(s.dir, name)
	data, st, err := s.files.ReadFile(name, limit)
	var large *sysfs.TooLargeError
	switch {
	case errors.As(err, &large) && large.Size >= 0:
		probs.Errorf(problem.FileTooLarge, p, 0, 0, "is %s; the limit is %s", formatSize(large.Size), formatSize(limit))
	case errors.As(err, &large):
		probs.Errorf(problem.FileTooLarge, p, 0, 0, "is larger than the limit of %s", formatSize(limit))
	case errors.Is(err, sysfs.ErrNotRegular):
		probs.Errorf(problem.FileNotRegular, p, 0, 0, "is not a regular file")
	case err != nil:
		probs.Errorf(problem.FileUnreadable, p, 0, 0, "cannot read: %s", describeFSError(err))
	default:
		return &File{Path: p, Data: data, Stat: st}
	}
	return nil
}

// FolderStat takes the stat of the logo folder slug, which must be a
// folder on a file system that gives inodes.
func (s *Reader) FolderStat(slug string) (sysfs.Stat, bool) {
	st, err := s.files.Lstat(slug)
	return st, err == nil && st.Ino != 0 && st.Mode.IsDir()
}

// FileStat takes the stat of name in the logo folder slug, which must be
// a regular file on a file system that gives inodes. Both are single
// names: a listing's, or the build log's, which holds no other.
func (s *Reader) FileStat(slug, name string) (sysfs.Stat, bool) {
	st, err := s.files.Lstat(slug + "/" + name)
	return st, err == nil && st.Ino != 0 && st.Mode.IsRegular()
}

// InputNames gives the names of the files a build reads in the logo
// folder slug, sorted, from its listing entries (listed when nil). It
// reports false when the folder holds anything else than regular files
// and ignored files to skip silently: only a full check reports on those.
func (s *Reader) InputNames(slug string, entries []fs.DirEntry) ([]string, bool) {
	if entries == nil {
		var err error
		if entries, err = s.files.ReadDir(slug); err != nil {
			return nil, false
		}
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		rel := slug + "/" + e.Name()
		if s.ignore.Match(rel, e.IsDir()) != nil {
			if s.reportIgnored || isSourceName(rel) {
				return nil, false
			}
			continue
		}
		if !e.Type().IsRegular() {
			return nil, false
		}
		names = append(names, e.Name())
	}
	return names, true
}

// describeFSError drops the path from a *fs.PathError, which the problem
// already names.
func describeFSError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	switch {
	case errors.Is(err, fs.ErrPermission):
		return "permission denied; make it readable"
	case errors.Is(err, fs.ErrNotExist):
		return "does not exist"
	}
	return err.Error()
}

// formatSize prints limits in round units and other sizes in bytes, so a
// file one byte over a limit never reads as equal to it.
func formatSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// RelPath turns p, DisplayPath(dir, name), back into name.
func RelPath(dir, p string) (string, bool) {
	d := path.Clean(dir)
	switch {
	case dir == "" || d == ".":
		return p, true
	case p == d:
		return ".", true
	case d == "/" && strings.HasPrefix(p, "/"):
		return p[1:], true
	case strings.HasPrefix(p, d+"/"):
		return p[len(d)+1:], true
	}
	return "", false
}

// DisplayPath is the path of name, relative to the source folder, as
// problems show it: under dir, how the user named the folder.
func DisplayPath(dir, name string) string {
	if dir == "" {
		return name
	}
	return path.Join(dir, name)
}

func hasProblemAt(l problem.List, p string) bool {
	for _, pr := range l {
		if pr.Path == p {
			return true
		}
	}
	return false
}
