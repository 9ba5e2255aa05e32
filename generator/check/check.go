// Package check holds the rules of a logo: its logo.yaml against the
// categories, each variant's SVG (through package svg), the readability
// of its colours on a dark page, and the component names across logos. A
// logo that passes is optimised, ready to render.
package check

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"

	"logoindex/generator/problem"
	"logoindex/generator/source"
	"logoindex/generator/svg"
)

// Variant is one checked and optimised variant of a logo.
type Variant struct {
	Name   string          // "icon", "icon-mono", ...
	Path   string          // display path of the source file
	Source []byte          // the source as read
	Info   *svg.Info       // what the checker learned
	Meta   source.FileMeta // provenance, with the logo's defaults filled in

	// Optimised is the file as written to dist/, and JSX the same file as
	// JSX for the registry; the optimise stage sets both.
	Optimised []byte
	JSX       *svg.JSX

	doc *svg.Document // the parsed source, until the optimise stage
}

// Logo is a checked logo, its variants optimised, ready to render.
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
	ComponentAt problem.Pos
	Install     string     // as written in logo.yaml; "" means the build's template
	Variants    []*Variant // in the order of Variants
	MetaPath    string     // display path of logo.yaml
}

// Variant returns the named variant, or nil when the logo lacks it.
func (l *Logo) Variant(name string) *Variant {
	for _, v := range l.Variants {
		if v.Name == name {
			return v
		}
	}
	return nil
}

// Categories are the categories of a build, as categories.yaml gives them.
type Categories struct {
	List  []source.Category
	known map[string]bool
	Names map[string]string // slug -> name, for the logo pages
	have  bool              // categories.yaml was read; without it no category is checked
	// Problems are those of categories.yaml.
	Problems problem.List
}

// NewCategories reads categories.yaml, f; nil when it is missing.
func NewCategories(f *source.File) *Categories {
	cs := &Categories{known: map[string]bool{}, Names: map[string]string{}, have: f != nil}
	if f != nil {
		cs.List, cs.Problems = source.ParseCategories(f)
	}
	for _, c := range cs.List {
		cs.known[c.Slug] = true
		cs.Names[c.Slug] = c.Name
	}
	return cs
}

// Check checks a logo and optimises its variants. It returns a nil Logo
// when anything is wrong, with every problem found.
func Check(ls *source.Logo, cs *Categories) (*Logo, problem.List) {
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
func validateLogo(ls *source.Logo, knownCats map[string]bool, haveCats bool, memo *svg.Memo) (*Logo, problem.List) {
	var probs problem.List
	if ls.Meta == nil {
		// Load has reported it; the SVGs are still worth checking.
		for _, name := range source.Variants {
			if f := ls.Variants[name]; f != nil {
				_, _, p := checkVariant(name, f, memo)
				probs = append(probs, p...)
			}
		}
		return nil, probs
	}
	m, p := source.ParseMeta(ls.Meta)
	probs = append(probs, p...)
	metaPath := ls.Meta.Path
	at := func(key string) (int, int) { pos := m.Pos[key]; return pos.Line, pos.Col }

	if haveCats {
		for i, c := range m.Categories {
			if !knownCats[c] {
				line, col := at(fmt.Sprintf("categories[%d]", i))
				if near := source.SuggestCategory(c, slices.Sorted(maps.Keys(knownCats))); near != "" {
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
	for _, name := range source.Variants {
		f := ls.Variants[name]
		if f == nil {
			continue
		}
		doc, info, p := checkVariant(name, f, memo)
		probs = append(probs, p...)
		fm := fileMeta(m, overrides[name])
		logo.Variants = append(logo.Variants, &Variant{Name: name, Path: f.Path, Source: f.Data, Info: info, Meta: fm, doc: doc})
	}
	probs = append(probs, darkReadability(logo, m)...)
	if len(probs.Errors()) > 0 {
		return nil, probs
	}
	return logo, probs
}

// fileMeta is the provenance of a file: the logo's, with what the files:
// entry o that describes the file (zero when none does) sets in its place.
func fileMeta(m *source.Meta, o source.FileMeta) source.FileMeta {
	fm := source.FileMeta{Source: m.Source, License: m.License, LicenseURL: m.LicenseURL, Via: m.Via}
	if o.Source != "" {
		// A source override brings its own via (or none): the logo's
		// via is where another artwork was taken from.
		fm.Source, fm.Via = o.Source, o.Via
	} else if o.Via != nil {
		fm.Via = o.Via
	}
	if o.License != "" {
		// A licence override brings its own URL (or none): the logo's
		// URL describes another licence.
		fm.License, fm.LicenseURL = o.License, o.LicenseURL
	} else if o.LicenseURL != "" {
		fm.LicenseURL = o.LicenseURL
	}
	return fm
}

// fileOverrides maps each variant the logo has to the files: entry that
// describes it. A key may be a variant glob (wordmark* for wordmark and
// wordmark-dark); a key that describes none of the logo's files, and a
// variant two keys describe, are errors at the key.
func fileOverrides(m *source.Meta, ls *source.Logo, probs *problem.List) map[string]source.FileMeta {
	var have []string
	for _, v := range source.Variants {
		if ls.Variants[v] != nil {
			have = append(have, v)
		}
	}
	// In the order of the file, so that the later of two keys is told.
	keys := slices.SortedFunc(maps.Keys(m.Files), func(a, b string) int {
		pa, pb := m.Pos["files."+a], m.Pos["files."+b]
		return cmp.Or(cmp.Compare(pa.Line, pb.Line), cmp.Compare(pa.Col, pb.Col))
	})
	out := map[string]source.FileMeta{}
	by := map[string]string{} // variant -> the key that describes it
	for _, key := range keys {
		pos := m.Pos["files."+key]
		matched := source.VariantsMatching(key, have)
		switch {
		case len(matched) > 0:
		case source.IsVariantGlob(key):
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
func darkReadability(l *Logo, m *source.Meta) problem.List {
	var probs problem.List
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
