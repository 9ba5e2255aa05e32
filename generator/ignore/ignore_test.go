package ignore

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/google/go-cmp/cmp"

	"logoindex/generator/problem"
)

// match lists, for each path, the pattern that ignores it ("" when none).
func match(m *Matcher, paths []string) map[string]string {
	got := map[string]string{}
	for _, p := range paths {
		isDir := strings.HasSuffix(p, "/")
		if pat := m.Match(strings.TrimSuffix(p, "/"), isDir); pat != nil {
			got[p] = pat.String()
		} else {
			got[p] = ""
		}
	}
	return got
}

func TestMatch(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		paths []string // a trailing slash marks a folder
		want  map[string]string
	}{{
		name: "defaults",
		paths: []string{
			".DS_Store", "github/.DS_Store", "github/.icon.svg.swp", "github/.logo.yaml.swo",
			"github/.#logo.yaml", "github/logo.yaml~", ".#categories.yaml",
			"github/icon.svg", "github/logo.yaml", "categories.yaml", "github/", "github/icon.swp",
		},
		want: map[string]string{
			".DS_Store":             `default pattern "**/.DS_Store"`,
			"github/.DS_Store":      `default pattern "**/.DS_Store"`,
			"github/.icon.svg.swp":  `default pattern "**/.*.sw?"`,
			"github/.logo.yaml.swo": `default pattern "**/.*.sw?"`,
			"github/.#logo.yaml":    `default pattern "**/.#*"`,
			"github/logo.yaml~":     `default pattern "**/*~"`,
			".#categories.yaml":     `default pattern "**/.#*"`,
			"github/icon.svg":       "", "github/logo.yaml": "", "categories.yaml": "", "github/": "", "github/icon.swp": "",
		},
	}, {
		name:  "a name without a slash matches at any depth",
		file:  "# comment\n\n  *.orig  \nThumbs.db\n",
		paths: []string{"github/icon.svg.orig", "x.orig", "Thumbs.db", "github/Thumbs.db", "github/thumbs.db"},
		want: map[string]string{
			"github/icon.svg.orig": `.logoindexignore:3 pattern "*.orig"`,
			"x.orig":               `.logoindexignore:3 pattern "*.orig"`,
			"Thumbs.db":            `.logoindexignore:4 pattern "Thumbs.db"`,
			"github/Thumbs.db":     `.logoindexignore:4 pattern "Thumbs.db"`,
			"github/thumbs.db":     "",
		},
	}, {
		name:  "a leading or middle slash anchors at the source folder",
		file:  "/notes.txt\ngithub/draft.svg\n",
		paths: []string{"notes.txt", "github/notes.txt", "github/draft.svg", "gitlab/draft.svg"},
		want: map[string]string{
			"notes.txt":        `.logoindexignore:1 pattern "/notes.txt"`,
			"github/notes.txt": "",
			"github/draft.svg": `.logoindexignore:2 pattern "github/draft.svg"`,
			"gitlab/draft.svg": "",
		},
	}, {
		name:  "a trailing slash matches folders only",
		file:  "drafts/\n",
		paths: []string{"drafts/", "github/drafts/", "drafts"},
		want: map[string]string{
			"drafts/":        `.logoindexignore:1 pattern "drafts/"`,
			"github/drafts/": `.logoindexignore:1 pattern "drafts/"`,
			"drafts":         "",
		},
	}, {
		name:  "doublestar wildcards, alternatives and escapes",
		file:  "**/*.{ai,eps}\nsrc/**/x\n\\#keep\nwip-[0-9]/\ntrail\\ \n",
		paths: []string{"github/art.ai", "a/b/art.eps", "src/x", "src/a/b/x", "#keep", "wip-1/", "wip-a/", "trail ", "trail"},
		want: map[string]string{
			"github/art.ai": `.logoindexignore:1 pattern "**/*.{ai,eps}"`,
			"a/b/art.eps":   `.logoindexignore:1 pattern "**/*.{ai,eps}"`,
			"src/x":         `.logoindexignore:2 pattern "src/**/x"`,
			"src/a/b/x":     `.logoindexignore:2 pattern "src/**/x"`,
			"#keep":         `.logoindexignore:3 pattern "\\#keep"`,
			"wip-1/":        `.logoindexignore:4 pattern "wip-[0-9]/"`,
			"wip-a/":        "",
			"trail ":        `.logoindexignore:5 pattern "trail\\ "`,
			"trail":         "",
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, probs := Parse(FileName, []byte(tt.file))
			if len(probs) > 0 {
				t.Fatalf("Parse: %v", probs)
			}
			if diff := cmp.Diff(tt.want, match(m, tt.paths)); diff != "" {
				t.Errorf("matches (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMatchNil(t *testing.T) {
	var m *Matcher
	if p := m.Match(".DS_Store", false); p != nil {
		t.Errorf("nil matcher matched %v", p)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		file string
		want []string
	}{
		{"!keep.svg\n", []string{`x:1:1: pattern "!keep.svg" starts with !, but negation is not supported: the defaults always apply and a logo folder holds only known names; remove the line`}},
		{"ok\n  icon[.svg\n", []string{`x:2:7: pattern "icon[.svg" has a [ without its closing ]; close the class, or write \[ for a bracket`}},
		{"a[]b\n", []string{`x:1:2: pattern "a[]b" has an empty character class []; list characters in it, as in [ab]`}},
		{"{a,b\n", []string{`x:1:1: pattern "{a,b" has a { without its closing }; close the alternatives, as in {a,b}, or write \{ for a brace`}},
		{"/a}\n", []string{`x:1:3: pattern "/a}" has a } without its opening {; remove it, or write \} for a brace`}},
		{"{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}*.orig\n{a,b,c,d,e,f,g,h}{1,2,3,4,5,6,7,8}\n", nil},
		{"x{a,aa}{a,aa}{a,aa}{a,aa}{a,aa}{a,aa}{a,aa}b\n", []string{`x:1:38: pattern "x{a,aa}{a,aa}{a,aa}{a,aa}{a,aa}{a,aa}{a,aa}b" has {…} groups that multiply into more than 64 alternatives, which could take minutes to match against every file; split it into several lines`}},
		{"ab\\\n", []string{`x:1:3: pattern "ab\\" ends with a backslash, which escapes nothing; remove it or write \\ for a backslash`}},
		{"/\n", []string{`x:1:1: pattern "/" matches no file; write a name or a wildcard, for example *.orig`}},
		{"a//b\n", []string{`x:1:2: pattern "a//b" has an empty folder name (//); write a single slash`}},
		// Every bad line is reported, each at its own place.
		{"[\n*.orig\n}\r\n", []string{
			`x:1:1: pattern "[" has a [ without its closing ]; close the class, or write \[ for a bracket`,
			`x:3:1: pattern "}" has a } without its opening {; remove it, or write \} for a brace`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			m, probs := Parse("x", []byte(tt.file))
			if diff := cmp.Diff(tt.want, lines(probs)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			if m.Match(".DS_Store", false) == nil {
				t.Error("the defaults do not apply after an error")
			}
		})
	}
}

func lines(probs problem.List) []string {
	var out []string
	for _, p := range probs {
		out = append(out, p.Error())
	}
	return out
}

func TestLoad(t *testing.T) {
	tests := []struct {
		name string
		fsys fstest.MapFS
		want []string
		ign  string // a path the result must ignore
	}{
		{"no file: the defaults", fstest.MapFS{}, nil, "a/.DS_Store"},
		{"a file", fstest.MapFS{FileName: {Data: []byte("*.orig\n")}}, nil, "a/b.orig"},
		{"a link", fstest.MapFS{FileName: {Data: []byte("x"), Mode: fs.ModeSymlink}}, []string{"src/.logoindexignore: is a symbolic link; links are never followed: replace it with the real file"}, ".DS_Store"},
		{"a folder", fstest.MapFS{FileName + "/x": {}}, []string{"src/.logoindexignore: is not a regular file; it was not opened: replace it with a text file of patterns"}, ".DS_Store"},
		{"too large", fstest.MapFS{FileName: {Data: make([]byte, MaxSize+1)}}, []string{"src/.logoindexignore: is 65537 bytes; the limit is 64 KiB"}, ".DS_Store"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, probs := Load(tt.fsys, "src")
			if diff := cmp.Diff(tt.want, lines(probs)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			if m.Match(tt.ign, false) == nil {
				t.Errorf("%s is not ignored", tt.ign)
			}
		})
	}
}

// FuzzParse checks that Parse never panics, that every problem points into
// the file, and that every pattern it keeps is one doublestar accepts.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"*.orig\n", "# c\n\n/a/b/\n", "[\n", "{a,{b}}\n", "a\\ \n", "!x", "[!]]", "\\", "a[\\]]b"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, probs := Parse("x", data)
		lines := strings.Split(string(data), "\n")
		for _, p := range probs {
			if p.Line < 1 || p.Line > len(lines) || p.Col < 1 || p.Col > len(lines[p.Line-1]) {
				t.Errorf("problem outside the file: %v", p)
			}
		}
		for _, p := range m.patterns {
			if _, err := doublestar.Match(p.glob, "a/b"); err != nil {
				t.Errorf("kept invalid pattern %q (glob %q): %v", p.Text, p.glob, err)
			}
		}
	})
}
