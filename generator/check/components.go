package check

import (
	"errors"
	"fmt"
	"hash/maphash"
	"slices"
	"strings"

	"logoindex/generator/internal/dupes"
	"logoindex/generator/problem"
	"logoindex/generator/source"
)

// Declaration is a logo's component name, as the rule of unique component
// names reads it.
type Declaration struct {
	Slug      string
	Component string
	// At is where logo.yaml sets component:; zero when Component is the
	// default.
	At   problem.Pos
	Path string // display path of logo.yaml
	// Unselected marks a logo that a selection of logos left out: a clash
	// between two of them is theirs to fix.
	Unselected bool
}

// Declarations gives, in slug order, the declarations of a build's logos.
type Declarations func(yield func(*Declaration) error) error

// Components reports logos whose component would declare a name another
// logo's also declares, or that the component template uses (used). A
// component C declares C+x for every x of suffixes (C, CProps, CVariant
// with the shipped template). The first logo in slug order keeps a name;
// the others are told of one that is free. The names are hashed first:
// most builds have no clash, and then need no map of every name, nor
// every declaration at once. n is about how many declarations there are.
func Components(n int, decls Declarations, used map[string]bool, suffixes []string) (problem.List, error) {
	suspect, err := mayShareComponent(n, decls, used, suffixes)
	if err != nil || !suspect {
		return nil, err
	}
	var all []*Declaration
	err = decls(func(d *Declaration) error {
		c := *d
		all = append(all, &c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return checkComponents(all, used, suffixes), nil
}

// Others are the declarations of the logos a selection left out, as far
// as their logo.yaml reads, merged with decls in slug order.
func Others(decls Declarations, others []*source.Logo) Declarations {
	var more []*Declaration
	for _, o := range others {
		if d := otherDeclaration(o); d != nil {
			more = append(more, d)
		}
	}
	if len(more) == 0 {
		return decls
	}
	return func(yield func(*Declaration) error) error {
		i := 0
		err := decls(func(d *Declaration) error {
			for ; i < len(more) && more[i].Slug < d.Slug; i++ {
				if err := yield(more[i]); err != nil {
					return err
				}
			}
			return yield(d)
		})
		for ; err == nil && i < len(more); i++ {
			err = yield(more[i])
		}
		return err
	}
}

// otherDeclaration is the declaration of a logo a selection left out, or
// nil when it has no logo.yaml.
func otherDeclaration(o *source.Logo) *Declaration {
	if o.Meta == nil {
		return nil
	}
	m, _ := source.ParseMeta(o.Meta)
	d := &Declaration{Slug: o.Slug, Component: m.Component, Path: o.Meta.Path, Unselected: true}
	if d.Component != "" {
		d.At = m.Pos["component"]
	} else if m.Name != "" {
		d.Component = DefaultComponent(m.Name, o.Slug)
	}
	return d
}

// checkComponents is Components on every declaration at once.
func checkComponents(logos []*Declaration, used map[string]bool, suffixes []string) problem.List {
	suffixes = orNoSuffix(suffixes)
	// declared holds the names any logo declares, for suggestions: made
	// at the first clash, since most builds have none and making it would
	// be much of this check's time in a no-op build.
	var declared map[string]bool
	free := func(c string) bool {
		for _, x := range suffixes {
			if used[c+x] || declared[c+x] {
				return false
			}
		}
		return true
	}
	var probs problem.List
	owner := make(map[string]*Declaration, len(logos)*len(suffixes))
	for _, l := range logos {
		if l.Component == "" {
			continue
		}
		clash, selected := "", !l.Unselected
		for _, x := range suffixes {
			n, whose := l.Component+x, ""
			if used[n] {
				whose = "a name the component template uses"
			} else if o := owner[n]; o != nil {
				whose = "also " + o.Slug + "'s"
				selected = selected || !o.Unselected
			} else {
				continue
			}
			clash = l.Component + " is " + whose
			if x != "" {
				clash = fmt.Sprintf("%s declares %s, which is %s", l.Component, n, whose)
			}
			break
		}
		if clash == "" {
			for _, x := range suffixes {
				owner[l.Component+x] = l
			}
			continue
		}
		if !selected {
			continue // between logos a selection left out: theirs to fix
		}
		if declared == nil {
			declared = make(map[string]bool, len(logos)*len(suffixes))
			for _, o := range logos {
				for _, x := range suffixes {
					declared[o.Component+x] = true
				}
			}
		}
		base := strings.TrimSuffix(DefaultComponent("", l.Slug), "Icon")
		suggestion := base + "Icon"
		for n := 2; !free(suggestion); n++ {
			suggestion = fmt.Sprintf("%s%dIcon", base, n)
		}
		for _, x := range suffixes {
			declared[suggestion+x] = true
		}
		what := "component name"
		if l.At == (problem.Pos{}) {
			what = "default component name"
		}
		probs.Errorf(problem.ComponentDuplicate, l.Path, l.At.Line, l.At.Col, "%s %s; set component: to a unique name, for example %s", what, clash, suggestion)
	}
	return probs
}

// orNoSuffix is suffixes, or the empty suffix when there are none: the
// component's name alone is declared then.
func orNoSuffix(suffixes []string) []string {
	if len(suffixes) == 0 {
		return []string{""}
	}
	return suffixes
}

// mayShareComponent reports whether checkComponents could find a
// problem: a name some logo's component declares is one the component
// template uses, or the 64-bit hashes of two declared names are equal
// (two names that are one, or by chance; false is certain). others are
// the declarations of the logos a selection left out.
func mayShareComponent(n int, decls Declarations, used map[string]bool, suffixes []string) (bool, error) {
	suffixes = orNoSuffix(suffixes)
	seed := maphash.MakeSeed()
	n *= len(suffixes)
	// A sorted list of the hashes of a share of the names in each pass,
	// as mayClash: a set of them all would be the most memory a clean
	// build of a large collection holds.
	return dupes.Passes(n, func(mine func(uint64) bool, size int) (bool, error) {
		seen := make([]uint64, 0, size)
		var name []byte // a declared name, reused
		visit := func(l *Declaration) error {
			if l.Component == "" {
				return nil
			}
			for _, x := range suffixes {
				name = append(append(name[:0], l.Component...), x...)
				if used[string(name)] {
					return errStop
				}
				if k := maphash.Bytes(seed, name); mine(k) {
					seen = append(seen, k)
				}
			}
			return nil
		}
		err := decls(visit)
		if err == errStop {
			return true, nil
		}
		slices.Sort(seen)
		for i := 1; i < len(seen); i++ {
			if seen[i] == seen[i-1] {
				return true, err
			}
		}
		return false, err
	})
}

// errStop ends a pass early, as no error.
var errStop = errors.New("stop")
