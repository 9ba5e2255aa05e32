package source

import (
	"fmt"
	"time"

	"gopkg.in/yaml.v3"

	"logoindex/generator/problem"
)

// RemovedFile is the optional list of the logos the collection no longer
// has, so that their published URLs keep answering.
const RemovedFile = "removed.yaml"

// MaxRemovedSize bounds removed.yaml, as categories.yaml is bounded.
const MaxRemovedSize = 1 << 20

// Removal is one entry of removed.yaml: a slug that was published and is
// not a logo any more.
type Removal struct {
	Slug string
	// ReplacedBy is the live logo that takes its place, or "" for a logo
	// withdrawn (its artwork is not published any more).
	ReplacedBy string
	Removed    string // the day it was removed, YYYY-MM-DD
	Reason     string
	// Pos holds where each key's value is: "slug", "replaced_by", ...
	Pos map[string]problem.Pos
}

// removedKeys are the keys of an entry, the required first.
var removedKeys = []string{"slug", "removed", "replaced_by", "reason"}

// ParseRemoved reads and checks removed.yaml, each entry on its own: the
// rules across entries and logos are check.Removals'.
func ParseRemoved(f *File) ([]Removal, problem.List) {
	var probs problem.List
	root := parseYAMLRoot(f, yaml.SequenceNode, "a list of {slug, removed, replaced_by, reason} entries", &probs)
	if root == nil {
		return nil, probs
	}
	r := &metaReader{path: f.Path, probs: &probs}
	var out []Removal
	for _, item := range root.Content {
		if item.Kind != yaml.MappingNode {
			r.errorf(item, problem.TypeInvalid, "each removed logo must be a mapping such as {slug: twitter, removed: 2026-11-28, replaced_by: x}")
			continue
		}
		// An entry with a problem is kept while it has a slug, for the
		// rules across entries: its problems fail the build anyway.
		if e := r.removal(item); e.Slug != "" {
			out = append(out, e)
		}
	}
	return out, probs
}

// removal reads one entry.
func (r *metaReader) removal(item *yaml.Node) Removal {
	e := Removal{Pos: map[string]problem.Pos{"": {Line: item.Line, Col: item.Column}}}
	r.pos = e.Pos
	seen := map[string]bool{}
	for i := 0; i+1 < len(item.Content); i += 2 {
		k, v := item.Content[i], item.Content[i+1]
		if seen[k.Value] {
			r.errorf(k, problem.KeyDuplicate, "duplicate key %q; keep one", k.Value)
			continue
		}
		seen[k.Value] = true
		e.Pos[k.Value] = problem.Pos{Line: v.Line, Col: v.Column}
		switch k.Value {
		case "slug":
			e.Slug = r.removedSlug(k, v, "slug")
		case "replaced_by":
			e.ReplacedBy = r.removedSlug(k, v, "replaced_by")
		case "removed":
			e.Removed = r.date(k, v)
		case "reason":
			e.Reason = r.text(k, v, "reason")
		default:
			r.errorf(k, problem.KeyUnknown, "unknown key %q; a removed logo has only %s", k.Value, quotedList(removedKeys))
		}
	}
	for _, req := range removedKeys[:2] {
		if !seen[req] {
			r.errorf(item, problem.KeyMissing, "removed logo is missing %q", req)
		}
	}
	return e
}

// removedSlug reads a slug of an entry.
func (r *metaReader) removedSlug(k, v *yaml.Node, what string) string {
	s := r.text(k, v, what)
	if s != "" && CheckSlug(s) != "" {
		r.errorf(v, problem.SlugInvalid, "%s %q is not a slug (lower-case letters, digits and single hyphens): write it as the logo's folder was named", what, truncate(s, 80))
		return ""
	}
	return s
}

// date reads removed: a day of the calendar, YYYY-MM-DD. YAML reads an
// unquoted date as a timestamp: its text is kept as written.
func (r *metaReader) date(k, v *yaml.Node) string {
	s := r.text(k, v, "removed")
	if s == "" {
		return ""
	}
	if t, err := time.Parse(time.DateOnly, s); err != nil || t.Format(time.DateOnly) != s {
		r.errorf(v, problem.RemovedDateInvalid, "removed %q is not a date of the form YYYY-MM-DD (the day the logo was removed), for example removed: 2026-11-28", truncate(s, 40))
		return ""
	}
	return s
}

func quotedList(list []string) string {
	s := ""
	for i, x := range list {
		switch {
		case i == len(list)-1:
			s += " and "
		case i > 0:
			s += ", "
		}
		s += fmt.Sprintf("%q", x)
	}
	return s
}
