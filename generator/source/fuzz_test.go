package source

import (
	"os"
	"path/filepath"
	"testing"

	"logoindex/generator/problem"
	"logoindex/internal/testtree"
)

// addSeeds adds every file matching pattern as a seed.
func addSeeds(f *testing.F, pattern string) {
	paths, _ := filepath.Glob(pattern)
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
}

// checkProblems asserts the contract every rejection keeps: a path, a code
// and a message a user can act on.
func checkProblems(t *testing.T, probs problem.List, path string) {
	t.Helper()
	for _, p := range probs {
		if p.Path != path || p.Msg == "" || p.Code == "" || p.Line < 0 || p.Col < 0 {
			t.Fatalf("problem without a path, code or message: %#v", p)
		}
	}
}

func FuzzParseMeta(f *testing.F) {
	f.Add([]byte(goodMeta))
	f.Add([]byte("hex: #123456\n"))
	f.Add([]byte("a: &a [x]\nb: [*a, *a]\n"))
	f.Add([]byte("name: x\n---\nname: y\n"))
	addSeeds(f, "../../source-logos/*/logo.yaml")
	addSeeds(f, "../testdata/golden/src/*/logo.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		m, probs := ParseMeta(&File{Path: "l.yaml", Data: data})
		checkProblems(t, probs, "l.yaml")
		if len(probs) == 0 {
			// Accepted metadata satisfies the rules it was checked against.
			if m.Name == "" || !hexRE.MatchString(m.Hex) || len(m.Categories) == 0 || checkURL(m.Source) != "" {
				t.Fatalf("accepted invalid metadata: %+v", m)
			}
		}
	})
}

func FuzzParseCategories(f *testing.F) {
	f.Add([]byte(testtree.Categories))
	addSeeds(f, "../../source-logos/categories.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		cats, probs := ParseCategories(&File{Path: "c.yaml", Data: data})
		checkProblems(t, probs, "c.yaml")
		for _, c := range cats {
			if CheckSlug(c.Slug) != "" || c.Name == "" {
				t.Fatalf("accepted invalid category %+v", c)
			}
		}
	})
}
