package check

import (
	"logoindex/generator/problem"
	"logoindex/generator/source"
	"logoindex/generator/svg"
)

// optimise is the optimise stage: it turns each checked variant of a logo
// into the file to publish, through svg.OptimiseDocument, and converts
// that file to JSX for the registry from the same parse. A <title> naming
// the logo is added where a source has none, and ids are prefixed with the
// slug and variant (IDPrefix), so that logos inlined in one page never
// share an id. memo is the one the logo's checks filled (validateLogo).
func optimise(l *Logo, memo *svg.Memo) problem.List {
	var probs problem.List
	for _, v := range l.Variants {
		prefix := IDPrefix(l.Slug, v.Name)
		if size := len(v.Source) + v.Info.Names*len(prefix); size > MaxPublishedSize {
			pos := v.doc.Pos(v.doc.Root)
			probs.Errorf(problem.SVGTooComplex, v.Path, pos.Line, pos.Col, "its %d ids, references and class names would each be published with the prefix %q, making the file up to %d KiB, over the %d KiB a published logo may have; use fewer rules and class names", v.Info.Names, prefix, size>>10, MaxPublishedSize>>10)
			continue
		}
		r, err := svg.OptimiseDocument(v.doc, v.Info, svg.Options{
			Rules:    rulesFor(v.Name),
			Title:    l.Name,
			IDPrefix: prefix,
			Memo:     memo,
		})
		if err != nil {
			probs.Errorf(problem.Internal, v.Path, 0, 0, "%v; this is a bug in logoindex: please report it with the file", err)
			continue
		}
		j, err := svg.ToJSX(r.Doc, "p")
		if err != nil {
			probs.Errorf(problem.Internal, v.Path, 0, 0, "converting to JSX: %v; this is a bug in logoindex: please report it with the file", err)
			continue
		}
		v.Optimised, v.JSX, v.doc = r.Data, j, nil
	}
	return probs
}

// MaxPublishedSize bounds what a published variant may grow to once its
// names are prefixed, twice the largest source (source.MaxSVGSize): a
// file of many short class names cannot multiply the work and the bytes
// of every later stage.
const MaxPublishedSize = 2 * source.MaxSVGSize

// IDPrefix is what the ids of a published variant, and the classes its
// <style> selects, start with: the slug and the variant, each followed by
// "--" ("github--icon-mono--"), after "_" when the slug starts with a
// digit, as an id selector cannot. A slug holds no "--", nor does a
// variant, so a published name splits at its first two "--" into the one
// slug and variant it can come from: no two logos or variants share a
// name, whatever the source names (slug bad with class icon-x, and slug
// bad-icon with class x, publish bad--icon--icon-x and bad-icon--icon--x).
func IDPrefix(slug, variant string) string {
	p := slug + "--" + variant + "--"
	if p[0] >= '0' && p[0] <= '9' {
		p = "_" + p
	}
	return p
}

// rulesFor returns the SVG rules of a variant.
func rulesFor(variant string) svg.Rules { return svg.Rules{Mono: variant == "icon-mono"} }

// checkVariant parses and checks one variant file, with the checks of its
// paths remembered in m for the logo's other variants (m may be nil).
func checkVariant(variant string, f *source.File, m *svg.Memo) (*svg.Document, *svg.Info, problem.List) {
	d, probs := svg.Parse(f.Path, f.Data)
	if d == nil {
		return nil, nil, probs
	}
	info, p := svg.CheckMemo(d, rulesFor(variant), m)
	return d, info, append(probs, p...)
}
