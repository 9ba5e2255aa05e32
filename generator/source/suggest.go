package source

import "logoindex/generator/internal/fuzzy"

// SuggestSlug returns a valid slug made from name ("Bad_Slug" gives
// "bad-slug"), or "" when name has no letter or digit to keep.
func SuggestSlug(name string) string { return suggestSlug(name) }

// SuggestCategory returns the category slug of known that c is most likely
// a misspelling of (at most two edits away), or "".
func SuggestCategory(c string, known []string) string { return fuzzy.Nearest(c, known, 2) }
