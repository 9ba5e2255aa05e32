package generator

import (
	"context"
	"fmt"

	"logoindex/generator/internal/fuzzy"
	"logoindex/generator/svg"
)

// SuggestSlug returns a valid slug made from name ("Bad_Slug" gives
// "bad-slug"), or "" when name has no letter or digit to keep.
func SuggestSlug(name string) string { return suggestSlug(name) }

// SuggestCategory returns the category slug of known that c is most likely
// a misspelling of (at most two edits away), or "".
func SuggestCategory(c string, known []string) string { return fuzzy.Nearest(c, known, 2) }

// ReservedSlug says why slug cannot name a logo, or "": a logo of that slug
// would write a file that the build writes for something else (slug
// "registry" gives r/registry.json, the registry's index). It renders a
// collection of that one logo and looks for clashes in its files, as Build
// does, so the answer follows the outputs without a list to keep up.
func ReservedSlug(slug string) string {
	const icon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><path d="M0 0h1v1z"/></svg>`
	doc, _ := svg.Parse("icon.svg", []byte(icon))
	jsx, err := svg.ToJSX(doc, "p")
	if err != nil {
		return ""
	}
	col := &Collection{Logos: []*Logo{{Slug: slug, Name: slug, Hex: "#000000", Component: "ProbeIcon",
		Variants: []*VariantFile{{Variant: "icon", Optimised: []byte(icon), JSX: jsx, Info: &svg.Info{ViewBox: [4]float64{0, 0, 1, 1}}}}}}}
	files, err := Render(context.Background(), col, RenderOptions{})
	if err != nil {
		return ""
	}
	for _, c := range findClashes(files) {
		own, other := c.A, c.B
		if own.Logo == "" {
			own, other = other, own
		}
		if own.Logo != "" && other.Logo == "" {
			return fmt.Sprintf("it would write %s, which the build writes for the collection", own.Name)
		}
	}
	return ""
}
