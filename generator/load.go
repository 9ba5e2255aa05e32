package generator

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

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
	// LargeSVGSize is where an SVG gets a warning: the largest artwork of
	// the public packages is 342 KB, and most logos are under 10 KB.
	LargeSVGSize = 256 << 10
)

// SourceFile is one input file as read, before any check.
type SourceFile struct {
	Path string // display path: Options.Dir joined with the file's name in the FS
	Data []byte
	// stat is the file's, taken on the open file before it was read;
	// its ino is 0 when the file system gave none.
	stat fileStat
}

// LogoSource is the raw content of one logo folder.
type LogoSource struct {
	Slug     string
	Dir      string      // display path of the folder
	Meta     *SourceFile // logo.yaml; nil when missing or unreadable
	Variants map[string]*SourceFile
}

// Source is everything a build reads, before validation.
type Source struct {
	Categories *SourceFile // nil when missing or unreadable
	Logos      []*LogoSource
	// Others are the logos Options.Logos leaves out, with only their
	// logo.yaml (Meta) read: the rules across logos, such as unique
	// component names, still see the whole collection.
	Others []*LogoSource
}

// Load reads the source tree from fsys: categories.yaml and one folder per
// logo. opts.Dir is the name the user gave the tree; it prefixes every path
// in problems. Load reports every structural problem it finds (unexpected
// files, bad slugs, links, oversized files) and never follows a symbolic
// link. It skips, unread, the files .logoindexignore and the default
// patterns ignore (package ignore), noting each as a warning when
// opts.ReportIgnored is set.
// When ctx is done it stops reading and returns what it has.
func Load(ctx context.Context, fsys fs.FS, opts Options) (*Source, ProblemList) {
	s := newSourceDir(fsys, opts)
	src := &Source{}
	cats, slugs, probs := s.scan(ctx)
	src.Categories = cats
	for _, slug := range slugs {
		if ctx.Err() != nil {
			break
		}
		if s.selected(slug) {
			src.Logos = append(src.Logos, s.logo(slug, &probs))
		} else {
			src.Others = append(src.Others, s.meta(slug))
		}
	}
	return src, probs
}

// sourceDir is the source folder as a build reads it: Load and BuildTree
// share it, so both skip the same files.
type sourceDir struct {
	fsys          fs.FS
	dir           string // display path
	ignore        *ignore.Matcher
	reportIgnored bool
	stats         *statRoot // for the cache's stats of sources
	patterns      []string  // Options.Logos
}

func newSourceDir(fsys fs.FS, opts Options) *sourceDir {
	return &sourceDir{fsys: fsys, dir: opts.Dir, ignore: ignore.New(), reportIgnored: opts.ReportIgnored, patterns: opts.Logos, stats: &statRoot{fsys: fsys}}
}

// selected reports whether the logo slug is checked in full: the patterns
// select it, or there are none.
func (s *sourceDir) selected(slug string) bool {
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
func (s *sourceDir) checkPatterns(slugs []string, probs *ProblemList) {
	for _, p := range s.patterns {
		if msg := CheckLogoPattern(p); msg != "" {
			probs.Errorf(problem.PatternUnmatched, displayPath(s.dir, "."), 0, 0, "%s", msg)
			continue
		}
		if !slices.ContainsFunc(slugs, func(slug string) bool { return doublestar.MatchUnvalidated(p, slug) }) {
			probs.Errorf(problem.PatternUnmatched, displayPath(s.dir, "."), 0, 0, "logo pattern %q selects no logo; patterns match folder names (slugs), such as git* for github and gitlab", p)
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

// meta reads only the logo.yaml of a logo that is not selected, for the
// rules across logos. Its problems are left to a check of that logo.
func (s *sourceDir) meta(slug string) *LogoSource {
	l := &LogoSource{Slug: slug, Dir: displayPath(s.dir, slug)}
	rel := path.Join(slug, "logo.yaml")
	if info, err := fs.Lstat(s.fsys, rel); err == nil && info.Mode().IsRegular() {
		var ignored ProblemList
		l.Meta = readFile(s.fsys, s.stats, s.dir, rel, MaxLogoYAMLSize, &ignored)
	}
	return l
}

// ignored tells whether the entry rel is ignored, and reports it: as an
// error when it has the name of a source file (a pattern that hides
// icon.svg is a mistake, not junk), and as a warning when asked.
func (s *sourceDir) ignored(rel string, e fs.DirEntry, probs *ProblemList) bool {
	p := s.ignore.Match(rel, e.IsDir())
	switch {
	case p == nil:
		return false
	case isSourceName(rel):
		probs.Errorf(problem.IgnorePatternInvalid, displayPath(s.dir, rel), 0, 0, "is a source file, but %s ignores it; change the pattern so that it leaves %s alone", p, path.Base(rel))
	case s.reportIgnored:
		probs.Warnf(problem.FileIgnored, displayPath(s.dir, rel), 0, 0, "ignored by %s; remove it from the repository", p)
	}
	return true
}

// isSourceName reports whether rel, relative to the source folder, names a
// file the build reads: categories.yaml, or a logo's logo.yaml or variant.
func isSourceName(rel string) bool {
	dir, name := path.Split(rel)
	if dir == "" {
		return name == "categories.yaml"
	}
	return strings.Count(rel, "/") == 1 && (name == "logo.yaml" || variantOfFile(name) != "")
}

// scan reads the top of the source folder: .logoindexignore,
// categories.yaml and the slugs of the logo folders, sorted, with the
// problems of the folder itself.
func (s *sourceDir) scan(ctx context.Context) (*SourceFile, []string, ProblemList) {
	var probs ProblemList
	dir, fsys := s.dir, s.fsys
	display := func(name string) string { return displayPath(dir, name) }

	entries, err := s.stats.readDir(".")
	if err != nil {
		probs.Errorf(problem.FileUnreadable, displayPath(dir, "."), 0, 0, "cannot read the source folder: %s", describeFSError(err))
		return nil, nil, probs
	}
	m, p := ignore.Load(fsys, dir)
	s.ignore = m
	probs = append(probs, p...)

	var cats *SourceFile
	var slugs []string
	names := map[string]bool{}
	for _, e := range entries {
		names[e.Name()] = true
	}
	for _, e := range entries {
		if ctx.Err() != nil {
			break
		}
		name := e.Name()
		if name == ignore.FileName || s.ignored(name, e, &probs) {
			continue
		}
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			probs.Errorf(problem.FileSymlink, display(name), 0, 0, "is a symbolic link; links are never followed: replace it with the real folder or file")
		case !e.IsDir() && !e.Type().IsRegular():
			probs.Errorf(problem.FileNotRegular, display(name), 0, 0, "%s", notRegular(e.Type()))
		case name == "categories.yaml":
			if e.IsDir() {
				probs.Errorf(problem.FileNotRegular, display(name), 0, 0, "is a folder; categories.yaml must be a file")
				continue
			}
			cats = readFile(fsys, s.stats, dir, name, MaxCategoriesSize, &probs)
		case !e.IsDir():
			probs.Errorf(problem.FileUnexpected, display(name), 0, 0, "unexpected file; the source folder holds only categories.yaml, %s and one folder per logo", ignore.FileName)
		default:
			if msg := CheckSlug(name); msg != "" {
				code := problem.SlugInvalid
				if lower := strings.ToLower(name); lower != name && names[lower] {
					// Two folders a case-insensitive file system (macOS,
					// Windows) cannot hold side by side.
					code, msg = problem.SlugCollision, fmt.Sprintf("folder name differs from %q only in case; slugs are lower case: merge the two folders", lower)
				}
				probs.Errorf(code, display(name), 0, 0, "%s", msg)
				continue
			}
			slugs = append(slugs, name)
		}
	}
	if cats == nil && !hasProblemAt(probs, display("categories.yaml")) {
		probs.Errorf(problem.FileMissing, display("categories.yaml"), 0, 0, "missing; create it with the list of categories (- {slug: devtools, name: Developer tools})")
	}
	slices.Sort(slugs)
	s.checkPatterns(slugs, &probs)
	return cats, slugs, probs
}

// logo reads one logo folder.
func (s *sourceDir) logo(slug string, probs *ProblemList) *LogoSource {
	return s.logoListed(slug, nil, probs)
}

// logoListed reads one logo folder whose entries were listed already (by
// statInputs, for the cache), or lists it when entries is nil.
func (s *sourceDir) logoListed(slug string, entries []fs.DirEntry, probs *ProblemList) *LogoSource {
	dir, fsys := s.dir, s.fsys
	l := &LogoSource{Slug: slug, Dir: displayPath(dir, slug), Variants: map[string]*SourceFile{}}
	if entries == nil {
		var err error
		if entries, err = fs.ReadDir(fsys, slug); err != nil {
			probs.Errorf(problem.FileUnreadable, l.Dir, 0, 0, "cannot read the logo folder: %s", describeFSError(err))
			return l
		}
	}
	for _, e := range entries {
		name := e.Name()
		rel := path.Join(slug, name)
		if s.ignored(rel, e, probs) {
			continue
		}
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			probs.Errorf(problem.FileSymlink, displayPath(dir, rel), 0, 0, "is a symbolic link; links are never followed: replace it with the real file")
		case !e.IsDir() && !e.Type().IsRegular():
			probs.Errorf(problem.FileNotRegular, displayPath(dir, rel), 0, 0, "%s", notRegular(e.Type()))
		case e.IsDir():
			if name == "logo.yaml" || variantOfFile(name) != "" {
				probs.Errorf(problem.FileNotRegular, displayPath(dir, rel), 0, 0, "is a folder; %s must be a file", name)
			} else {
				probs.Errorf(problem.FileUnexpected, displayPath(dir, rel), 0, 0, "unexpected folder; %s", allowedFilesHint)
			}
		case name == "logo.yaml":
			l.Meta = readFile(fsys, s.stats, dir, rel, MaxLogoYAMLSize, probs)
		case variantOfFile(name) != "":
			if f := readFile(fsys, s.stats, dir, rel, MaxSVGSize, probs); f != nil {
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
			probs.Errorf(problem.FileUnexpected, displayPath(dir, rel), 0, 0, "%s", msg)
		}
	}
	if l.Meta == nil && !hasProblemAt(*probs, displayPath(dir, path.Join(slug, "logo.yaml"))) {
		probs.Errorf(problem.FileMissing, displayPath(dir, path.Join(slug, "logo.yaml")), 0, 0, "missing; every logo folder needs a logo.yaml (run: logoindex new %s -name ... -hex ... -category ...)", slug)
	}
	if l.Variants["icon"] == nil && !hasProblemAt(*probs, displayPath(dir, path.Join(slug, "icon.svg"))) {
		probs.Errorf(problem.FileMissing, displayPath(dir, path.Join(slug, "icon.svg")), 0, 0, "missing; every logo needs icon.svg")
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
// cache, 1 µs each by regexp.
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

// readFile reads name, refusing files over limit before reading them whole.
// Load has checked from its directory entry that it is a regular file.
// at, when it has a descriptor of fsys's folder, reads by readAt.
func readFile(fsys fs.FS, at *statRoot, dir, name string, limit int64, probs *ProblemList) *SourceFile {
	p := displayPath(dir, name)
	data, st, err := readSource(fsys, at, name, limit)
	var large *tooLargeError
	switch {
	case errors.As(err, &large) && large.size >= 0:
		probs.Errorf(problem.FileTooLarge, p, 0, 0, "is %s; the limit is %s", formatSize(large.size), formatSize(limit))
	case errors.As(err, &large):
		probs.Errorf(problem.FileTooLarge, p, 0, 0, "is larger than the limit of %s", formatSize(limit))
	case errors.Is(err, errNotRegular):
		probs.Errorf(problem.FileNotRegular, p, 0, 0, "is not a regular file")
	case err != nil:
		probs.Errorf(problem.FileUnreadable, p, 0, 0, "cannot read: %s", describeFSError(err))
	default:
		return &SourceFile{Path: p, Data: data, stat: st}
	}
	return nil
}

// errNotRegular is readSource's error for a file that is not a regular
// file.
var errNotRegular = errors.New("not a regular file")

// tooLargeError is readSource's error for a file over its limit: its size,
// or -1 when it grew past the limit as it was read.
type tooLargeError struct{ size int64 }

func (e *tooLargeError) Error() string { return "over the limit" }

// readSource reads name, and gives the stat of the open file taken before
// the read (no inode when fsys gives no stat): by readAt where it can,
// else through fsys.
func readSource(fsys fs.FS, at *statRoot, name string, limit int64) ([]byte, fileStat, error) {
	if at != nil && at.dir != nil {
		if data, st, err := readAt(at.fd, name, limit); !errors.Is(err, errors.ErrUnsupported) {
			return data, st, err
		}
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, fileStat{}, err
	}
	defer f.Close()
	size := int64(-1)
	var st fileStat
	if info, err := f.Stat(); err == nil {
		size, st = info.Size(), statOfInfo(info)
		if !info.Mode().IsRegular() {
			return nil, fileStat{}, errNotRegular
		}
		if info.Size() > limit {
			return nil, fileStat{}, &tooLargeError{size: info.Size()}
		}
	}
	data, err := readToEnd(f, size, limit)
	if err != nil {
		return nil, fileStat{}, err
	}
	if int64(len(data)) > limit {
		return nil, fileStat{}, &tooLargeError{size: -1}
	}
	return data, st, nil
}

// readToEnd reads r, a regular file of size bytes by its stat (-1 when
// unknown), to its end, or to one byte past limit: the stat can be wrong,
// or the file grow, and the reader must stay bounded anyway. The buffer
// starts one byte past the size, so that a file of the size its stat
// gave is read into one allocation; when the first read gives exactly
// that size, short of the buffer, that is taken for the end, and the read
// more that would say so (11,541 of them in a clean build of
// simple-icons) is not made. Any other short read (a file system may stop
// one anywhere) is read on. A file written meanwhile may be read torn, as
// by any reader racing a writer; its stat, taken before, has the next
// build read it again.
func readToEnd(r io.Reader, size, limit int64) ([]byte, error) {
	r = io.LimitReader(r, limit+1)
	b := make([]byte, 0, max(min(size, limit)+1, 512))
	for {
		first := len(b) == 0
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF || first && n > 0 && int64(n) == size && n < cap(b) {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
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

func displayPath(dir, name string) string {
	if dir == "" {
		return name
	}
	return path.Join(dir, name)
}

func hasProblemAt(l ProblemList, p string) bool {
	for _, pr := range l {
		if pr.Path == p {
			return true
		}
	}
	return false
}
