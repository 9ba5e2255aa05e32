package generator

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"

	"logoindex/generator/problem"
	"logoindex/generator/svg"
	"logoindex/internal/par"
)

// VariantFile is one checked variant of a logo.
type VariantFile struct {
	Variant string    // "icon", "icon-mono", ...
	Path    string    // display path of the source file
	Source  []byte    // the source as read
	Info    *svg.Info // what the checker learned
	Meta    FileMeta  // provenance, with the logo's defaults filled in

	// Optimised is the file as written to dist/, and JSX the same file as
	// JSX for the registry; the optimise stage sets both.
	Optimised []byte
	JSX       *svg.JSX

	doc *svg.Document // the parsed source, until the optimise stage
}

// Logo is a checked logo, ready to optimise and render.
type Logo struct {
	Slug       string
	Name       string
	Hex        string
	Categories []string
	Aliases    []string
	Guidelines string
	Component  string
	// ComponentAt is where logo.yaml sets component:; zero when Component
	// is the default.
	ComponentAt Pos
	Install     string         // as written in logo.yaml; "" means the build's template
	Variants    []*VariantFile // in the order of Variants
	MetaPath    string         // display path of logo.yaml
}

// Variant returns the named variant, or nil when the logo lacks it.
func (l *Logo) Variant(name string) *VariantFile {
	for _, v := range l.Variants {
		if v.Variant == name {
			return v
		}
	}
	return nil
}

// CategoryCount is a category with the number of logos in it.
type CategoryCount struct {
	Category
	Count int
}

// Collection is the whole checked input of a build.
type Collection struct {
	Categories []CategoryCount // sorted by slug
	Logos      []*Logo         // sorted by slug
}

// Validate checks every logo of src against the rules and the categories
// and optimises the variants of each valid logo, in parallel on
// opts.Workers goroutines. Problems of all logos come back together,
// sorted.
func Validate(ctx context.Context, src *Source, opts Options) (*Collection, ProblemList) {
	var probs ProblemList
	cs := newCategorySet(src.Categories)
	probs = append(probs, cs.probs...)

	logos := make([]*Logo, len(src.Logos))
	perLogo := make([]ProblemList, len(src.Logos))
	par.For(ctx, len(src.Logos), opts.Workers, func(i int) {
		logos[i], perLogo[i] = checkLogo(src.Logos[i], cs)
	})
	for _, p := range perLogo {
		probs = append(probs, p...)
	}

	col := &Collection{}
	var sums []*logoSummary
	for _, l := range logos {
		if l != nil {
			col.Logos = append(col.Logos, l)
			sums = append(sums, summarize(l))
		}
	}
	col.Categories, _ = cs.counts(memSummaries(sums)) // in memory: no error
	// A template that cannot be read or run fails Render with its own
	// error; until then there are no template names to avoid.
	used, suffixes, _ := templateNames(opts.Render.Templates)
	probs = append(probs, checkComponents(withOthers(sums, src.Others), used, suffixes)...)
	probs.Sort()
	return col, probs
}

// categorySet is the categories of a build, as categories.yaml gives them.
type categorySet struct {
	list  []Category
	known map[string]bool
	have  bool // categories.yaml was read; without it no category is checked
	probs ProblemList
}

func newCategorySet(f *SourceFile) *categorySet {
	cs := &categorySet{known: map[string]bool{}, have: f != nil}
	if f != nil {
		cs.list, cs.probs = ParseCategories(f)
	}
	for _, c := range cs.list {
		cs.known[c.Slug] = true
	}
	return cs
}

// counts lists the categories with the number of logos in each.
func (cs *categorySet) counts(logos *summaryList) ([]CategoryCount, error) {
	n := map[string]int{}
	err := logos.each(func(l *logoSummary) error {
		for _, c := range l.Categories {
			if _, ok := n[c]; !ok {
				c = strings.Clone(c) // not a spilled summary's buffer
			}
			n[c]++
		}
		return nil
	})
	var out []CategoryCount
	for _, c := range cs.list {
		out = append(out, CategoryCount{Category: c, Count: n[c.Slug]})
	}
	return out, err
}

// checkLogo checks and optimises one logo: the validate and optimise
// stages of a single logo, as both Validate and BuildTree run them. It
// returns a nil Logo when anything is wrong, with every problem found.
func checkLogo(ls *LogoSource, cs *categorySet) (*Logo, ProblemList) {
	// The variants often draw the same paths: each is checked and rounded
	// once (svg.Memo).
	memo := new(svg.Memo)
	defer memo.Release()
	l, probs := validateLogo(ls, cs.known, cs.have, memo)
	if l == nil {
		return nil, probs
	}
	probs = append(probs, optimise(l, memo)...)
	if len(probs.Errors()) > 0 {
		return nil, probs
	}
	return l, probs
}

// validateLogo checks one logo folder, with the checks of its paths
// remembered in memo. It returns a nil Logo when anything is wrong, with
// every problem found.
func validateLogo(ls *LogoSource, knownCats map[string]bool, haveCats bool, memo *svg.Memo) (*Logo, ProblemList) {
	var probs ProblemList
	if ls.Meta == nil {
		// Load has reported it; the SVGs are still worth checking.
		for _, name := range Variants {
			if f := ls.Variants[name]; f != nil {
				_, _, p := checkVariant(name, f, memo)
				probs = append(probs, p...)
			}
		}
		return nil, probs
	}
	m, p := ParseMeta(ls.Meta)
	probs = append(probs, p...)
	metaPath := ls.Meta.Path
	at := func(key string) (int, int) { pos := m.Pos[key]; return pos.Line, pos.Col }

	if haveCats {
		for i, c := range m.Categories {
			if !knownCats[c] {
				line, col := at(fmt.Sprintf("categories[%d]", i))
				if near := SuggestCategory(c, slices.Sorted(maps.Keys(knownCats))); near != "" {
					probs.Errorf(problem.CategoryUnknown, metaPath, line, col, "unknown category %q; did you mean %q? Use a slug from categories.yaml or add the category there", c, near)
				} else {
					probs.Errorf(problem.CategoryUnknown, metaPath, line, col, "unknown category %q; use a slug from categories.yaml or add the category there", c)
				}
			}
		}
	}
	overrides := fileOverrides(m, ls, &probs)

	logo := &Logo{
		Slug:       ls.Slug,
		Name:       m.Name,
		Hex:        m.Hex,
		Categories: m.Categories,
		Aliases:    m.Aliases,
		Guidelines: m.Guidelines,
		Component:  m.Component,
		Install:    m.Install,
		MetaPath:   metaPath,
	}
	if logo.Component == "" && m.Name != "" {
		logo.Component = DefaultComponent(m.Name, ls.Slug)
	} else if logo.Component != "" {
		logo.ComponentAt = m.Pos["component"]
	}
	for _, name := range Variants {
		f := ls.Variants[name]
		if f == nil {
			continue
		}
		doc, info, p := checkVariant(name, f, memo)
		probs = append(probs, p...)
		fm := FileMeta{Source: m.Source, License: m.License, LicenseURL: m.LicenseURL}
		if o, ok := overrides[name]; ok {
			if o.Source != "" {
				fm.Source = o.Source
			}
			if o.License != "" {
				// A licence override brings its own URL (or none): the
				// default's URL describes another licence.
				fm.License, fm.LicenseURL = o.License, o.LicenseURL
			} else if o.LicenseURL != "" {
				fm.LicenseURL = o.LicenseURL
			}
		}
		logo.Variants = append(logo.Variants, &VariantFile{Variant: name, Path: f.Path, Source: f.Data, Info: info, Meta: fm, doc: doc})
	}
	probs = append(probs, darkReadability(logo, m)...)
	if len(probs.Errors()) > 0 {
		return nil, probs
	}
	return logo, probs
}

// fileOverrides maps each variant the logo has to the files: entry that
// describes it. A key may be a variant glob (wordmark* for wordmark and
// wordmark-dark); a key that describes none of the logo's files, and a
// variant two keys describe, are errors at the key.
func fileOverrides(m *Meta, ls *LogoSource, probs *ProblemList) map[string]FileMeta {
	var have []string
	for _, v := range Variants {
		if ls.Variants[v] != nil {
			have = append(have, v)
		}
	}
	// In the order of the file, so that the later of two keys is told.
	keys := slices.SortedFunc(maps.Keys(m.Files), func(a, b string) int {
		pa, pb := m.Pos["files."+a], m.Pos["files."+b]
		return cmp.Or(cmp.Compare(pa.Line, pb.Line), cmp.Compare(pa.Col, pb.Col))
	})
	out := map[string]FileMeta{}
	by := map[string]string{} // variant -> the key that describes it
	for _, key := range keys {
		pos := m.Pos["files."+key]
		matched := variantsMatching(key, have)
		switch {
		case len(matched) > 0:
		case isVariantGlob(key):
			probs.Errorf(problem.FilesUnused, ls.Meta.Path, pos.Line, pos.Col, "files.%s matches none of this logo's files (it has %s); add the file or remove the entry", key, svgList(have))
		default:
			probs.Errorf(problem.FilesUnused, ls.Meta.Path, pos.Line, pos.Col, "files.%s describes %s.svg, which this logo does not have; add the file or remove the entry", key, key)
		}
		for _, v := range matched {
			if first, ok := by[v]; ok {
				probs.Errorf(problem.ValueDuplicate, ls.Meta.Path, pos.Line, pos.Col, "files.%s and files.%s both describe %s.svg; keep one entry for each file", first, key, v)
				continue
			}
			by[v] = key
			out[v] = m.Files[key]
		}
	}
	return out
}

func svgList(variants []string) string {
	names := make([]string, len(variants))
	for i, v := range variants {
		names[i] = v + ".svg"
	}
	return strings.Join(names, ", ")
}

// darkReadability warns about logos that vanish on a dark page and have no
// dark variant, and about an icon that never paints its brand colour.
func darkReadability(l *Logo, m *Meta) ProblemList {
	var probs ProblemList
	if hex, ok := svg.ParseColour(l.Hex); ok && l.Variant("icon-dark") == nil {
		if r := Contrast(hex, DarkBackground); r < MinDarkContrast {
			pos := m.Pos["hex"]
			probs.Warnf(problem.ContrastLow, l.MetaPath, pos.Line, pos.Col, "brand colour %s has a contrast ratio of %.2f:1 against a dark page (#0D1117), below %.0f:1; add icon-dark.svg, a variant that reads on dark backgrounds", l.Hex, r, MinDarkContrast)
		}
	}
	if w := l.Variant("wordmark"); w != nil && w.Info != nil && l.Variant("wordmark-dark") == nil {
		for _, p := range w.Info.Paints {
			if r := Contrast(p.Colour, DarkBackground); r < MinDarkContrast {
				probs.Warnf(problem.ContrastLow, w.Path, p.Pos.Line, p.Pos.Col, "wordmark paints %s, contrast %.2f:1 against a dark page (#0D1117), below %.0f:1; add wordmark-dark.svg, a variant that reads on dark backgrounds", p.Value, r, MinDarkContrast)
				break
			}
		}
	}
	if icon := l.Variant("icon"); icon != nil && icon.Info != nil && l.Hex != "" && len(icon.Info.Paints) > 0 {
		hex, _ := svg.ParseColour(l.Hex)
		found := false
		for _, p := range icon.Info.Paints {
			if p.Colour == hex {
				found = true
				break
			}
		}
		if !found {
			pos := m.Pos["hex"]
			probs.Warnf(problem.HexUnused, l.MetaPath, pos.Line, pos.Col, "icon.svg never paints the brand colour %s (it paints %s); check hex or the artwork", l.Hex, paintList(icon.Info.Paints))
		}
	}
	return probs
}

func paintList(ps []svg.PaintUse) string {
	var seen []string
	for _, p := range ps {
		v := fmt.Sprintf("#%02X%02X%02X", p.Colour.R, p.Colour.G, p.Colour.B)
		if !slices.Contains(seen, v) {
			seen = append(seen, v)
		}
		if len(seen) == 4 {
			break
		}
	}
	return strings.Join(seen, ", ")
}

// DefaultComponent is the component name of a logo that sets none. It is
// the display name in PascalCase when that spells the slug, ignoring case
// and hyphens ("GitHub" for github gives GitHubIcon, "Next.js" for nextjs
// NextJsIcon), and otherwise the slug in PascalCase ("C++" for cplusplus
// gives CplusplusIcon, "Backstage" for backstage-casting
// BackstageCastingIcon); then "Icon" is appended. Slugs are unique, so two
// defaults differ unless two slugs differ only in hyphens. A name that
// would start with a digit gets "Logo" in front ("1Password" gives
// Logo1PasswordIcon).
func DefaultComponent(name, slug string) string {
	p := pascal(name)
	if !strings.EqualFold(p, strings.ReplaceAll(slug, "-", "")) {
		p = pascal(slug)
	}
	if p == "" || p[0] < 'A' || p[0] > 'Z' {
		p = "Logo" + p
	}
	return p + "Icon"
}

// checkComponents reports logos whose component would declare a name that
// another logo's component also declares, or that the component template
// uses (used). A component C declares C+x for every x of suffixes (C,
// CProps, CVariant with the shipped template). The first logo in slug
// order keeps a name; the others are told of one that is free.
func checkComponents(logos []*logoSummary, used map[string]bool, suffixes []string) ProblemList {
	suffixes = orNoSuffix(suffixes)
	// declared holds the names any logo declares, for suggestions: made
	// at the first clash, since most builds have none (it was half of this
	// check's 8 ms in a no-op build of 3,470 logos).
	var declared map[string]bool
	free := func(c string) bool {
		for _, x := range suffixes {
			if used[c+x] || declared[c+x] {
				return false
			}
		}
		return true
	}
	var probs ProblemList
	owner := make(map[string]*logoSummary, len(logos)*len(suffixes))
	for _, l := range logos {
		if l.Component == "" {
			continue
		}
		clash, selected := "", !l.unselected
		for _, x := range suffixes {
			n, whose := l.Component+x, ""
			if used[n] {
				whose = "a name the component template uses"
			} else if o := owner[n]; o != nil {
				whose = "also " + o.Slug + "'s"
				selected = selected || !o.unselected
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
		if l.ComponentAt == (Pos{}) {
			what = "default component name"
		}
		probs.Errorf(problem.ComponentDuplicate, l.MetaPath, l.ComponentAt.Line, l.ComponentAt.Col, "%s %s; set component: to a unique name, for example %s", what, clash, suggestion)
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

// withOthers adds to the summaries of the checked logos the component
// names of the logos a selection left out, in slug order, as
// checkComponents wants them.
func withOthers(sums []*logoSummary, others []*LogoSource) []*logoSummary {
	return withSummaries(sums, otherSummaries(others))
}

// withSummaries is sums and more, in slug order.
func withSummaries(sums, more []*logoSummary) []*logoSummary {
	if len(more) == 0 {
		return sums
	}
	all := append(slices.Clone(sums), more...)
	slices.SortFunc(all, func(a, b *logoSummary) int { return strings.Compare(a.Slug, b.Slug) })
	return all
}

// otherSummaries are the summaries of the logos a selection left out
// that have one (otherSummary).
func otherSummaries(others []*LogoSource) []*logoSummary {
	var sums []*logoSummary
	for _, o := range others {
		if s := otherSummary(o); s != nil {
			sums = append(sums, s)
		}
	}
	return sums
}

// otherSummary is the summary of a logo a selection left out, as far as
// checkComponents needs one: its component name, or nil when it has no
// logo.yaml.
func otherSummary(o *LogoSource) *logoSummary {
	if o.Meta == nil {
		return nil
	}
	m, _ := ParseMeta(o.Meta)
	s := &logoSummary{Slug: o.Slug, Component: m.Component, MetaPath: o.Meta.Path, unselected: true}
	if s.Component != "" {
		s.ComponentAt = m.Pos["component"]
	} else if m.Name != "" {
		s.Component = DefaultComponent(m.Name, o.Slug)
	}
	return s
}

// pascal joins the ASCII letter-and-digit words of s, each starting with an
// upper-case letter, keeping the inner capitals the brand uses.
func pascal(s string) string {
	var b strings.Builder
	upper := true
	for _, r := range s {
		switch {
		case r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if upper {
				r = unicode.ToUpper(r)
			}
			b.WriteRune(r)
			upper = false
		default:
			upper = true
		}
	}
	return b.String()
}
