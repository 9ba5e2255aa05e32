// Package ignore reads source-logos/.logoindexignore: the files of the
// source folder that the build never reads nor publishes, such as the ones
// editors and macOS leave beside the sources (.DS_Store, vim's swap files,
// Emacs' lock links). The loader and the preview's watcher both ask one
// Matcher, so a file the build skips never triggers a rebuild either.
//
// The file holds one doublestar pattern a line, as .gitignore does:
//
//   - Blank lines are skipped; a line whose first character other than
//     spaces is # is a comment. Spaces and tabs around a pattern are
//     dropped (write "\ " for a trailing space).
//   - Patterns match slash-separated paths relative to the source folder
//     ("github/.icon.svg.swp"), case-sensitively.
//   - A pattern without a slash, or with one only at its end, matches at
//     any depth ("*.orig" is "**/*.orig"). One with a slash at its start
//     or in the middle matches from the source folder ("/notes.txt",
//     "github/draft.svg").
//   - A trailing slash matches folders only ("drafts/").
//   - A matched folder is skipped whole: nothing under it is read.
//   - Wildcards are doublestar's: * and ? within a name, ** for any number
//     of folders, [abc], [a-z] and [!abc] classes, {a,b} alternatives, and
//     \ to escape one character.
//   - Negation (a leading !) is refused: the defaults always apply, and a
//     logo folder holds only known names, so there is nothing to take back.
//
// The Defaults apply whether or not the file exists.
package ignore

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"logoindex/generator/problem"
)

// FileName is the name of the ignore file at the top of the source folder.
const FileName = ".logoindexignore"

// MaxSize bounds the ignore file: a few lines are all it needs.
const MaxSize = 64 << 10

// Defaults are the patterns that always apply: macOS Finder's .DS_Store,
// vim's swap files (.icon.svg.swp, .swo, ...), Emacs' lock links
// (.#logo.yaml) and the backups of Emacs and others (logo.yaml~).
var Defaults = []string{"**/.DS_Store", "**/.*.sw?", "**/.#*", "**/*~"}

// Pattern is one pattern of the matcher, with where it comes from.
type Pattern struct {
	Text string // as written in the file, or the default
	Path string // display path of the ignore file; "" for a default
	Line int    // 1-based line in the file; 0 for a default

	glob    string // the doublestar pattern matched against the path
	dirOnly bool
}

// String names the pattern for a message: `default pattern "**/.DS_Store"`
// or `.logoindexignore:3 pattern "*.orig"`.
func (p *Pattern) String() string {
	if p.Path == "" {
		return fmt.Sprintf("default pattern %q", p.Text)
	}
	return fmt.Sprintf("%s:%d pattern %q", p.Path, p.Line, p.Text)
}

// Matcher tells which paths of the source folder are ignored. The zero
// value and nil ignore nothing; New gives the defaults.
type Matcher struct {
	patterns []*Pattern
}

// New returns a matcher of the defaults.
func New() *Matcher {
	m := &Matcher{}
	for _, d := range Defaults {
		m.patterns = append(m.patterns, &Pattern{Text: d, glob: d})
	}
	return m
}

// Key returns a string that is the same for two matchers when they ignore
// the same paths: their patterns, in order.
func (m *Matcher) Key() string {
	if m == nil {
		return ""
	}
	var b strings.Builder
	for _, p := range m.patterns {
		fmt.Fprintf(&b, "%q %t\n", p.glob, p.dirOnly)
	}
	return b.String()
}

// Match reports the first pattern that ignores name, a slash-separated
// path relative to the source folder; isDir tells whether it is a folder.
// It returns nil when name is not ignored. Callers walk from the top and
// skip an ignored folder whole, so Match looks at name alone, not at its
// parents.
func (m *Matcher) Match(name string, isDir bool) *Pattern {
	if m == nil {
		return nil
	}
	for _, p := range m.patterns {
		if p.dirOnly && !isDir {
			continue
		}
		if doublestar.MatchUnvalidated(p.glob, name) {
			return p
		}
	}
	return nil
}

// Parse reads the content of an ignore file, displayed as file in
// problems, and returns the defaults and every valid pattern. Each
// invalid line is an error at its line and column; the others still apply.
func Parse(file string, data []byte) (*Matcher, problem.List) {
	m := New()
	var probs problem.List
	for i, line := range strings.Split(string(data), "\n") {
		n := i + 1
		line = strings.TrimSuffix(line, "\r")
		text, col := trim(line)
		if text == "" || text[0] == '#' {
			continue
		}
		p, at, msg := compile(text)
		if msg != "" {
			probs.Errorf(problem.IgnorePatternInvalid, file, n, col+at, "pattern %q %s", text, msg)
			continue
		}
		p.Path, p.Line = file, n
		m.patterns = append(m.patterns, p)
	}
	return m, probs
}

// trim drops the spaces and tabs around a pattern, keeping a trailing one
// escaped with a backslash, and returns the 1-based column it starts at.
func trim(line string) (string, int) {
	start := len(line) - len(strings.TrimLeft(line, " \t"))
	end := len(line)
	for end > start && (line[end-1] == ' ' || line[end-1] == '\t') && !escaped(line[start:end-1]) {
		end--
	}
	return line[start:end], start + 1
}

// escaped reports whether s ends with an odd number of backslashes, which
// escape the character after s.
func escaped(s string) bool {
	n := len(s) - len(strings.TrimRight(s, `\`))
	return n%2 == 1
}

// compile turns a line into a pattern, or returns the byte offset in text
// and the reason it is invalid.
func compile(text string) (p *Pattern, at int, msg string) {
	if text[0] == '!' {
		return nil, 0, "starts with !, but negation is not supported: the defaults always apply and a logo folder holds only known names; remove the line"
	}
	p = &Pattern{Text: text}
	body, offset := text, 0
	if strings.HasSuffix(body, "/") && !escaped(body[:len(body)-1]) {
		p.dirOnly = true
		body = body[:len(body)-1]
	}
	anchored := strings.HasPrefix(body, "/")
	if anchored {
		body, offset = body[1:], 1
	}
	if body == "" || strings.Trim(body, "/") == "" {
		return nil, 0, "matches no file; write a name or a wildcard, for example *.orig"
	}
	if i := strings.Index(body, "//"); i >= 0 {
		return nil, offset + i, "has an empty folder name (//); write a single slash"
	}
	if i, why := invalid(body); why != "" {
		return nil, offset + i, why
	}
	p.glob = body
	if !anchored && !strings.Contains(body, "/") {
		p.glob = "**/" + body
	}
	// invalid mirrors doublestar's rules; this is the safety net. Match is
	// asked too: it refuses some patterns ValidatePattern lets through
	// (a { inside a negated class, "[!0b0{]", found by FuzzParse).
	if _, err := doublestar.Match(p.glob, "a/b"); err != nil || !doublestar.ValidatePattern(p.glob) {
		return nil, offset, "is not a valid doublestar pattern"
	}
	return p, 0, ""
}

// MaxAlternatives bounds what a pattern's {…} groups multiply into: the
// matcher tries the alternatives of each group in turn, so twenty groups
// of two would each double the work of every file's match.
const MaxAlternatives = 64

// invalid finds what doublestar.ValidatePattern refuses in s, with its
// byte offset, so the problem can point at the column: doublestar says
// only whether a pattern is valid.
func invalid(s string) (int, string) {
	var alts []int   // offsets of the open {
	var commas []int // the commas of each open {
	product := 1     // the alternatives the closed groups multiply into
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i+1 == len(s) {
				return i, "ends with a backslash, which escapes nothing; remove it or write \\\\ for a backslash"
			}
			i++
		case '[':
			open := i
			i++
			if i < len(s) && (s[i] == '^' || s[i] == '!') {
				i++
			}
			if i < len(s) && s[i] == ']' {
				return open, "has an empty character class []; list characters in it, as in [ab]"
			}
			for ; i < len(s) && s[i] != ']'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
			if i >= len(s) {
				return open, "has a [ without its closing ]; close the class, or write \\[ for a bracket"
			}
		case '{':
			alts, commas = append(alts, i), append(commas, 0)
		case ',':
			if len(commas) > 0 {
				commas[len(commas)-1]++
			}
		case '}':
			if len(alts) == 0 {
				return i, "has a } without its opening {; remove it, or write \\} for a brace"
			}
			if product *= commas[len(commas)-1] + 1; product > MaxAlternatives {
				return alts[len(alts)-1], fmt.Sprintf("has {…} groups that multiply into more than %d alternatives, which could take minutes to match against every file; split it into several lines", MaxAlternatives)
			}
			alts, commas = alts[:len(alts)-1], commas[:len(commas)-1]
		}
	}
	if len(alts) > 0 {
		return alts[len(alts)-1], "has a { without its closing }; close the alternatives, as in {a,b}, or write \\{ for a brace"
	}
	return 0, ""
}

// Load reads FileName at the top of fsys, which the user calls dir, and
// returns its matcher (the defaults when there is no file) and its
// problems. The file must be a regular file of at most MaxSize bytes; a
// link is never followed.
func Load(fsys fs.FS, dir string) (*Matcher, problem.List) {
	display := path.Join(dir, FileName)
	var probs problem.List
	info, err := fs.Lstat(fsys, FileName)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return New(), nil
	case err != nil:
		probs.Errorf(problem.FileUnreadable, display, 0, 0, "cannot read: %v", pathless(err))
		return New(), probs
	case info.Mode()&fs.ModeSymlink != 0:
		probs.Errorf(problem.FileSymlink, display, 0, 0, "is a symbolic link; links are never followed: replace it with the real file")
		return New(), probs
	case !info.Mode().IsRegular():
		probs.Errorf(problem.FileNotRegular, display, 0, 0, "is not a regular file; it was not opened: replace it with a text file of patterns")
		return New(), probs
	case info.Size() > MaxSize:
		probs.Errorf(problem.FileTooLarge, display, 0, 0, "is %d bytes; the limit is %d KiB", info.Size(), MaxSize>>10)
		return New(), probs
	}
	data, err := fs.ReadFile(fsys, FileName)
	if err != nil {
		probs.Errorf(problem.FileUnreadable, display, 0, 0, "cannot read: %v", pathless(err))
		return New(), probs
	}
	if len(data) > MaxSize {
		probs.Errorf(problem.FileTooLarge, display, 0, 0, "is larger than the limit of %d KiB", MaxSize>>10)
		return New(), probs
	}
	return Parse(display, data)
}

// pathless drops the path of a *fs.PathError, which the problem names.
func pathless(err error) error {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Err
	}
	return err
}
