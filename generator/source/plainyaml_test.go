package source

import (
	"bytes"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"

	"logoindex/generator/problem"
)

// yamlTree is the part of a yaml.Node the metadata reader uses.
type yamlTree struct {
	Kind         yaml.Kind
	Tag, Value   string
	Style        yaml.Style
	Line, Column int
	LineComment  string
	Content      []yamlTree
}

func treeOf(n *yaml.Node) yamlTree {
	t := yamlTree{Kind: n.Kind, Tag: n.Tag, Value: n.Value, Style: n.Style, Line: n.Line, Column: n.Column, LineComment: n.LineComment}
	for _, c := range n.Content {
		t.Content = append(t.Content, treeOf(c))
	}
	return t
}

// yamlV3Root is what parseYAMLRoot makes of data without the fast path:
// the root mapping of its one document, or nil.
func yamlV3Root(data []byte) *yaml.Node {
	var probs problem.List
	root := decodeYAMLRoot("l.yaml", data, yaml.MappingNode, "a mapping", &probs)
	if len(probs) > 0 {
		return nil
	}
	return root
}

func TestPlainMapping(t *testing.T) {
	for _, tc := range []struct {
		in   string
		fast bool
	}{
		{"name: \"GitHub\"\nhex: \"#181717\"\ncategories: [\"brands\"]\nsource: \"https://github.com/logos\"\nlicense: CC0-1.0\n", true},
		{"# a comment\n\nname: Visual  Studio Code  \ncategories: [os, devtools ,\"x y\"]\nsource: https://a.example/b#c\n  # indented comment\n", true},
		{"categories: []\nname: x", true},
		{"name: true\n", false},         // a bool
		{"name: 2024\n", false},         // an int
		{"name:\n", false},              // null
		{"name: a # c\n", false},        // a line comment
		{"name: a: b\n", false},         // an error in YAML
		{"name: a\n  b\n", false},       // a continued scalar
		{"name: \"a\\tb\"\n", false},    // an escape
		{"name: x\r\n", false},          // CR
		{"name: Citro\u00ebn\n", false}, // not ASCII
		{"categories: [a,]\n", false},   // a trailing comma
		{"categories: [a\n", false},     // a list over lines
		{"files:\n  icon:\n    license: MIT\n", false},
		{"via: {name: \"simple-icons\", version: \"16.37.0\", url: \"https://x.example/a\"}\n", true},
		{"via: {  name: simple-icons ,version:  \"1\"  }\nname: x\n", true},
		{"via: {}\n", true},
		{"via: {name: x,}\n", false},                // a trailing comma
		{"via: {name: x\n", false},                  // a mapping over lines
		{"via: {name:x}\n", false},                  // no space after the colon
		{"via: {name: 16.37.0}\n", false},           // a plain value that starts with a digit
		{"via: {name: https://x.example}\n", false}, // a colon in a plain value
		{"via: {null: x}\n", false},                 // a key that is not a string
		{"via: {name: x, url: {a: b}}\n", false},    // nested
		{"via: {\"name\": x}\n", false},             // a quoted key
		{"via: {name: [x]}\n", false},               // a list in a mapping
		{"---\nname: x\n", false},
		{"# only a comment\n", false},
		{"Name: x\n", false}, // keys are lower case
	} {
		root, ok := plainMapping([]byte(tc.in))
		if ok != tc.fast {
			t.Errorf("plainMapping(%q) ok = %v, want %v", tc.in, ok, tc.fast)
			continue
		}
		if !ok {
			continue
		}
		want := yamlV3Root([]byte(tc.in))
		if want == nil {
			t.Errorf("yaml.v3 refuses %q, which plainMapping accepts", tc.in)
			continue
		}
		if d := cmp.Diff(treeOf(want), treeOf(root)); d != "" {
			t.Errorf("plainMapping(%q) differs from yaml.v3 (-yaml.v3 +fast):\n%s", tc.in, d)
		}
	}
}

// FuzzPlainMapping is the differential check of the fast path: on every
// input it accepts, yaml.v3 must build the same tree.
func FuzzPlainMapping(f *testing.F) {
	f.Add([]byte(goodMeta))
	f.Add([]byte("name: a b\ncategories: [x, \"y\"]\nhex: \"#000000\"\n"))
	addSeeds(f, "../../source-logos/*/logo.yaml")
	addSeeds(f, "../testdata/golden/src/*/logo.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		root, ok := plainMapping(data)
		if !ok {
			return
		}
		want := yamlV3Root(data)
		if want == nil {
			t.Fatalf("yaml.v3 refuses %q, which plainMapping accepts", data)
		}
		if d := cmp.Diff(treeOf(want), treeOf(root)); d != "" {
			t.Fatalf("plainMapping(%q) differs from yaml.v3 (-yaml.v3 +fast):\n%s", data, d)
		}
	})
}

// TestPlainMappingGrammar feeds both readers lines built from the pieces of
// the plain form and the characters YAML gives a meaning, which reach the
// corners (a "#" after a space, a ":" at the end, an indicator first) far
// more often than a byte mutator does.
func TestPlainMappingGrammar(t *testing.T) {
	if testing.Short() {
		t.Skip("200,000 inputs take two seconds; FuzzPlainMapping's seeds check the fast path in short mode")
	}
	pieces := []string{
		"name", "hex", "categories", "source", "files", "true", "Null", "yes", "on", "<<",
		": ", ":", " ", "  ", "#", " #", "\"", "\"x\"", "[", "]", ", ", ",", "\\", "'", "-", "- ",
		"?", "!", "&", "*", "%", "@", "`", "|", ">", "{", "}", "\n", "\n  ", "\n#", "\t", "---", "...",
		"a", "B", "z9", "1", "0x1F", ".5", "2024-01-01", "~", "https://a.example/b?c=d&e#f", "CC0-1.0",
		"MIT OR Apache-2.0", "(", ")", ";", "=", "+", "$", "/", "_", "version: ", "url: ", "name: \"n\", ",
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	accepted := 0
	for range 200_000 {
		var b strings.Builder
		for range 1 + rnd.IntN(4) {
			b.WriteString([]string{"name: ", "categories: [", "source: ", "license: \"", "aliases: ", "via: {", "via: {name: "}[rnd.IntN(7)])
			for range rnd.IntN(6) {
				b.WriteString(pieces[rnd.IntN(len(pieces))])
			}
			if rnd.IntN(3) > 0 {
				b.WriteString([]string{"x", "]", "\"", "a, b]", "\"y\"]", "}", "x}", "\"y\"}", ", url: \"u\"}"}[rnd.IntN(9)])
			}
			b.WriteString("\n")
		}
		data := []byte(b.String())
		root, ok := plainMapping(data)
		if !ok {
			continue
		}
		accepted++
		want := yamlV3Root(data)
		if want == nil {
			t.Fatalf("yaml.v3 refuses %q, which plainMapping accepts", data)
		}
		if d := cmp.Diff(treeOf(want), treeOf(root)); d != "" {
			t.Fatalf("plainMapping(%q) differs from yaml.v3 (-yaml.v3 +fast):\n%s", data, d)
		}
	}
	if accepted < 1000 {
		t.Fatalf("only %d of the inputs took the fast path: the test checks too little", accepted)
	}
	t.Logf("%d inputs took the fast path", accepted)
}

// TestPlainMappingMeta holds ParseMeta to the same Meta and problems with
// and without the fast path, on every logo.yaml of the repository (the
// collection, the golden and the hostile cases) and of the converted
// corpora of `make corpus` when they are there, most of which take the
// fast path.
func TestPlainMappingMeta(t *testing.T) {
	var paths []string
	for _, pattern := range []string{
		"../../source-logos/*/logo.yaml",
		"../testdata/*/src/*/logo.yaml",
		"../testdata/bad/*/src/*/logo.yaml",
		filepath.Join(os.Getenv("HOME"), ".cache/logoindex-bench/corpus/*/source-logos/*/logo.yaml"),
	} {
		more, _ := filepath.Glob(pattern)
		paths = append(paths, more...)
	}
	fast := 0
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue // a corpus tree being rewritten by make corpus
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := plainMapping(data); ok {
			fast++
		}
		// A comment line with a tab is outside the plain form, and
		// changes nothing else.
		slow := append(bytes.Clone(data), "\n#\t\n"...)
		if _, ok := plainMapping(slow); ok {
			t.Fatalf("%s: the fast path took a file with a tab", p)
		}
		m, probs := ParseMeta(&File{Path: p, Data: data})
		wantM, wantProbs := ParseMeta(&File{Path: p, Data: slow})
		if d := cmp.Diff(wantM, m); d != "" {
			t.Errorf("%s: Meta differs from yaml.v3's (-yaml.v3 +fast):\n%s", p, d)
		}
		if d := cmp.Diff(wantProbs, probs); d != "" {
			t.Errorf("%s: problems differ from yaml.v3's (-yaml.v3 +fast):\n%s", p, d)
		}
	}
	if fast < 20 {
		t.Fatalf("%d of %d files took the fast path: the test checks too little", fast, len(paths))
	}
	t.Logf("%d files, %d of them plain", len(paths), fast)
}
