package check_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator/check"
	"logoindex/generator/problem"
	"logoindex/generator/source"
)

// declarations gives ds, as a build gives its logos' declarations.
func declarations(ds []*check.Declaration) check.Declarations {
	return func(yield func(*check.Declaration) error) error {
		for _, d := range ds {
			if err := yield(d); err != nil {
				return err
			}
		}
		return nil
	}
}

func decl(slug, component string) *check.Declaration {
	return &check.Declaration{Slug: slug, Component: component, Path: slug + "/logo.yaml"}
}

// TestComponents: the rule of unique component names reports every clash
// (a name two logos declare, with or without a suffix, a name the
// template uses, a selected logo's name that a logo a selection left out
// declares too) at the logo that came second, with a free name to take,
// and nothing for a collection without one. Its first pass, over hashes
// of the names, must let none of these through, in a collection large
// enough to take it two passes too.
func TestComponents(t *testing.T) {
	used := map[string]bool{"Icon": true, "IconProps": true}
	suffixes := []string{"", "Props"}
	other := func(slug, component string) *source.Logo {
		return &source.Logo{Slug: slug, Meta: &source.File{Path: slug + "/logo.yaml", Data: []byte("name: " + slug + "\ncomponent: " + component + "\n")}}
	}
	const tail = "; set component: to a unique name, for example "
	for _, c := range []struct {
		name   string
		decls  []*check.Declaration
		others []*source.Logo
		want   []string
	}{
		{"distinct", []*check.Declaration{decl("acme", "AcmeIcon"), decl("beta", "BetaIcon"), decl("none", "")}, nil, nil},
		{"same name", []*check.Declaration{decl("acme", "AcmeIcon"), decl("beta", "AcmeIcon")}, nil,
			[]string{"[component-duplicate] beta/logo.yaml: default component name AcmeIcon is also acme's" + tail + "BetaIcon"}},
		{"same name, set in logo.yaml", []*check.Declaration{decl("acme", "AcmeIcon"), {Slug: "beta", Component: "AcmeIcon", Path: "beta/logo.yaml", At: problem.Pos{Line: 6, Col: 12}}}, nil,
			[]string{"[component-duplicate] beta/logo.yaml:6:12: component name AcmeIcon is also acme's" + tail + "BetaIcon"}},
		{"a suffixed name", []*check.Declaration{decl("acme", "AcmeIcon"), decl("beta", "AcmeIconProps")}, nil,
			[]string{"[component-duplicate] beta/logo.yaml: default component name AcmeIconProps is also acme's" + tail + "BetaIcon"}},
		{"a name whose suffixed one is taken", []*check.Declaration{decl("acme", "AcmeIconProps"), decl("beta", "AcmeIcon")}, nil,
			[]string{"[component-duplicate] beta/logo.yaml: default component name AcmeIcon declares AcmeIconProps, which is also acme's" + tail + "BetaIcon"}},
		{"the template's", []*check.Declaration{decl("acme", "Icon")}, nil,
			[]string{"[component-duplicate] acme/logo.yaml: default component name Icon is a name the component template uses" + tail + "AcmeIcon"}},
		{"a suffixed name of the template's", []*check.Declaration{decl("acme", "IconProps")}, nil,
			[]string{"[component-duplicate] acme/logo.yaml: default component name IconProps is a name the component template uses" + tail + "AcmeIcon"}},
		{"a logo left out", []*check.Declaration{decl("acme", "AcmeIcon")}, []*source.Logo{other("zeta", "AcmeIcon")},
			[]string{"[component-duplicate] zeta/logo.yaml:2:12: component name AcmeIcon is also acme's" + tail + "ZetaIcon"}},
		{"a logo left out, no clash", []*check.Declaration{decl("beta", "BetaIcon")}, []*source.Logo{other("zeta", "AcmeIcon")}, nil},
		{"two logos left out: theirs to fix", []*check.Declaration{decl("beta", "BetaIcon")}, []*source.Logo{other("yotta", "AcmeIcon"), other("zeta", "AcmeIcon")}, nil},
		{"a logo left out without logo.yaml", []*check.Declaration{decl("beta", "BetaIcon")}, []*source.Logo{{Slug: "zeta"}}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			probs, err := check.Components(len(c.decls), check.Others(declarations(c.decls), c.others), used, suffixes)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, problemStrings(probs)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
	// Enough names for two passes over the hashes (1<<17 a pass), with a
	// clash or not.
	var many []*check.Declaration
	for i := range 1<<17/len(suffixes) + 1000 {
		many = append(many, decl(fmt.Sprint("l", i), fmt.Sprint("L", i, "Icon")))
	}
	for _, c := range []struct {
		name string
		last *check.Declaration
		want []string
	}{
		{"many, distinct", decl("z", "ZIcon"), nil},
		{"many, a name twice", decl("z", "L77Icon"), []string{"[component-duplicate] z/logo.yaml: default component name L77Icon is also l77's" + tail + "ZIcon"}},
		{"many, a suffixed name", decl("z", "L12345IconProps"), []string{"[component-duplicate] z/logo.yaml: default component name L12345IconProps is also l12345's" + tail + "ZIcon"}},
	} {
		ds := append(many[:len(many):len(many)], c.last)
		probs, err := check.Components(len(ds), declarations(ds), used, suffixes)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(c.want, problemStrings(probs)); diff != "" {
			t.Errorf("%s: problems (-want +got):\n%s", c.name, diff)
		}
	}
}
