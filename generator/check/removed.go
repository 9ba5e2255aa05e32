package check

import (
	"logoindex/generator/problem"
	"logoindex/generator/source"
)

// Removals checks the entries of removed.yaml (at path) against each
// other and the collection: live reports whether a slug is a logo folder.
// A removed slug must not be a logo, each is listed once, and a
// replacement is a live logo, never another removed one: a client that
// follows replaced_by reaches a logo in one step.
func Removals(list []source.Removal, path string, live func(slug string) bool) problem.List {
	var probs problem.List
	at := func(e source.Removal, key string) (int, int) {
		p := e.Pos[key]
		return p.Line, p.Col
	}
	first := map[string]source.Removal{}
	for _, e := range list {
		if _, dup := first[e.Slug]; !dup {
			first[e.Slug] = e
		}
	}
	for _, e := range list {
		line, col := at(e, "slug")
		if f := first[e.Slug]; f.Pos[""] != e.Pos[""] {
			probs.Errorf(problem.RemovedDuplicate, path, line, col, "%s is listed twice (first at line %d); keep one entry", e.Slug, f.Pos[""].Line)
			continue
		}
		if live(e.Slug) {
			probs.Errorf(problem.RemovedLive, path, line, col, "%s is still a logo folder; remove the folder, or this entry if the logo stays", e.Slug)
		}
		if e.ReplacedBy == "" {
			continue
		}
		line, col = at(e, "replaced_by")
		switch r, removed := first[e.ReplacedBy]; {
		case live(e.ReplacedBy):
		case removed:
			probs.Errorf(problem.RemovedChain, path, line, col, "replaced_by %s is removed too (line %d); name the logo that replaces it now", e.ReplacedBy, r.Pos[""].Line)
		default:
			probs.Errorf(problem.RemovedReplacementUnknown, path, line, col, "replaced_by %s is no logo of the collection; name a logo folder, or leave replaced_by out for a logo withdrawn without a successor", e.ReplacedBy)
		}
	}
	return probs
}
