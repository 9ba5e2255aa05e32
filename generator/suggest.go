package generator

import "logoindex/generator/internal/fuzzy"

// SuggestSlug returns a valid slug made from name ("Bad_Slug" gives
// "bad-slug"), or "" when name has no letter or digit to keep.
func SuggestSlug(name string) string { return suggestSlug(name) }

// SuggestCategory returns the category slug of known that c is most likely
// a misspelling of (at most two edits away), or "".
func SuggestCategory(c string, known []string) string { return fuzzy.Nearest(c, known, 2) }

// reservedSlugs are the slugs whose output files would take the name of a
// file of the build itself, with the reason. The registry's items are
// r/<slug>.json and shadcn looks its index up as r/registry.json.
var reservedSlugs = map[string]string{
	"registry": "r/registry.json is the component registry's index",
}

// ReservedSlug says why slug cannot name a logo, or "".
func ReservedSlug(slug string) string { return reservedSlugs[slug] }
