package generator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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

// checkProblems asserts the contract every rejection keeps: a path and a
// message a user can act on.
func checkProblems(t *testing.T, probs ProblemList, path string) {
	t.Helper()
	for _, p := range probs {
		if p.Path != path || p.Msg == "" || p.Line < 0 || p.Col < 0 {
			t.Fatalf("problem without a path or message: %#v", p)
		}
	}
}

func FuzzParseMeta(f *testing.F) {
	f.Add([]byte(goodMeta))
	f.Add([]byte("hex: #123456\n"))
	f.Add([]byte("a: &a [x]\nb: [*a, *a]\n"))
	f.Add([]byte("name: x\n---\nname: y\n"))
	addSeeds(f, "../source-logos/*/logo.yaml")
	addSeeds(f, "testdata/golden/src/*/logo.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		m, probs := ParseMeta(&SourceFile{Path: "l.yaml", Data: data})
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
	f.Add([]byte(testCategories))
	addSeeds(f, "../source-logos/categories.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		cats, probs := ParseCategories(&SourceFile{Path: "c.yaml", Data: data})
		checkProblems(t, probs, "c.yaml")
		for _, c := range cats {
			if CheckSlug(c.Slug) != "" || c.Name == "" {
				t.Fatalf("accepted invalid category %+v", c)
			}
		}
	})
}

func svgSeeds(f *testing.F) {
	f.Add([]byte(testIcon))
	f.Add([]byte(svgDoc(`<style>a{fill:url(#x)}</style><text xml:space="preserve">a b</text>`)))
	f.Add([]byte(`<x:svg xmlns:x="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>`))
	addSeeds(f, "../source-logos/*/*.svg")
	addSeeds(f, "testdata/golden/src/*/*.svg")
}

func FuzzCheckSVG(f *testing.F) {
	svgSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, mono := range []bool{false, true} {
			_, probs := CheckSVG("x.svg", data, SVGRules{Mono: mono})
			checkProblems(t, probs, "x.svg")
		}
	})
}

// FuzzOptimise is the property the build relies on: whatever the checker
// accepts, the optimiser turns into a file that passes the same checks (or
// reports an error naming the file), and never into an empty one.
func FuzzOptimise(f *testing.F) {
	svgSeeds(f)
	o := NewOptimiser()
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, variant := range []string{"icon", "icon-mono"} {
			rules := SVGRules{Mono: variant == "icon-mono"}
			info, probs := CheckSVG("x.svg", data, rules)
			if len(probs.Errors()) > 0 {
				continue
			}
			out, probs := o.Optimise(&VariantFile{Variant: variant, Path: "x.svg", Source: data, Info: info}, "Fuzz <&>")
			checkProblems(t, probs, "x.svg")
			if len(probs.Errors()) > 0 {
				if !strings.Contains(probs.Error(), "bug in logoindex") {
					t.Fatalf("unexpected optimiser problem: %v", probs)
				}
				continue
			}
			if _, p := CheckSVG("x.svg", out, rules); len(p.Errors()) > 0 || len(out) == 0 {
				t.Fatalf("optimised output fails the checks: %v\ninput:  %q\noutput: %q", p, data, out)
			}
		}
	})
}
