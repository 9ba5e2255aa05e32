package source

import (
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"logoindex/generator/internal/fuzzy"
	"logoindex/generator/problem"
)

// Via is the distribution a file was taken from: an icon set, a package
// or a brand kit, at one version, and where that version is published.
// A file's Source names where the artwork itself comes from and its
// License the terms the collection distributes it under; Via tells the
// copy the collection holds apart from both, so that a reader learns
// whose terms are whose and can find the very file.
type Via struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	URL     string `json:"url"`
}

// viaKeys are the keys of a via: mapping, all three required.
var viaKeys = []string{"name", "version", "url"}

// viaExample is a complete via: as the messages show it.
const viaExample = "via: {name: simple-icons, version: 16.37.0, url: https://github.com/simple-icons/simple-icons}"

// viaHint says what each key of via: wants, for a key left empty.
var viaHint = map[string]string{
	"name":    "give the distribution's name, for example simple-icons",
	"version": "give the version the file was taken from, for example 16.37.0",
	"url":     "give where that version is published, for example https://github.com/simple-icons/simple-icons",
}

// via reads a via: mapping, of the logo (what is "via") or of a files:
// entry ("files.wordmark.via"). It returns nil unless all three keys are
// there and valid; the problems say what is wrong.
func (r *metaReader) via(k, v *yaml.Node, what string) *Via {
	if v.Kind != yaml.MappingNode {
		r.errorf(v, problem.TypeInvalid, "%s must be a mapping of name, version and url, not %s; for example %s", what, kindName(v), viaExample)
		return nil
	}
	var via Via
	seen := map[string]bool{}
	valid := true
	for i := 0; i+1 < len(v.Content); i += 2 {
		fk, fv := v.Content[i], v.Content[i+1]
		if seen[fk.Value] {
			r.errorf(fk, problem.KeyDuplicate, "%s: duplicate key %q; keep one", what, fk.Value)
			valid = false
			continue
		}
		seen[fk.Value] = true
		field := what + "." + fk.Value
		var s string
		switch fk.Value {
		case "name":
			s = r.viaField(fk, fv, field, "name", r.text)
			via.Name = s
		case "version":
			s = r.viaField(fk, fv, field, "version", r.version)
			via.Version = s
		case "url":
			s = r.viaField(fk, fv, field, "url", r.url)
			via.URL = s
		default:
			r.unknownViaKey(fk, what)
		}
		valid = valid && s != ""
	}
	var missing []string
	for _, key := range viaKeys {
		if !seen[key] {
			missing = append(missing, key)
		}
	}
	if len(missing) > 0 {
		r.errorf(k, problem.ViaIncomplete, "%s has no %s; it names the distribution a file was taken from by name, version and url, for example %s", what, joinOr(missing), viaExample)
		return nil
	}
	if !valid {
		return nil
	}
	return &via
}

// viaField reads one key of via: with read, after refusing an empty value
// with a hint of what the key wants.
func (r *metaReader) viaField(k, v *yaml.Node, what, key string, read func(k, v *yaml.Node, what string) string) string {
	if v.Kind == yaml.ScalarNode && (v.Tag == "!!null" || strings.TrimSpace(v.Value) == "") {
		r.errorf(v, problem.ViaIncomplete, "%s is empty; %s", what, viaHint[key])
		return ""
	}
	return read(k, v, what)
}

func (r *metaReader) unknownViaKey(k *yaml.Node, what string) {
	if s := fuzzy.Nearest(k.Value, viaKeys, 2); s != "" {
		r.errorf(k, problem.KeyUnknown, "%s: unknown key %q; did you mean %q? via has name, version and url", what, k.Value, s)
		return
	}
	r.errorf(k, problem.KeyUnknown, "%s: unknown key %q; via has name, version and url", what, k.Value)
}

// version reads via's version: text that names one release.
func (r *metaReader) version(k, v *yaml.Node, what string) string {
	s := r.text(k, v, what)
	if s == "" {
		return ""
	}
	if why := CheckVersion(s); why != "" {
		r.errorf(v, problem.ViaVersionUnpinned, "%s %q %s; give the version the file was taken from (a release, or a commit), for example 16.37.0", what, truncate(s, 80), why)
		return ""
	}
	return s
}

// movingVersions are the names of npm dist-tags and git branches that
// point at another release as time goes on, in lower case.
var movingVersions = []string{"latest", "next", "stable", "current", "nightly", "canary", "edge", "dev", "develop", "main", "master", "trunk", "head"}

// CheckVersion says why s names no one release, or "": a range (npm's
// ^1.2.0, ~1.2, >=1, 1 - 2, a || b), a wildcard (*, 1.x) or a tag or
// branch that moves (latest, main). A record of where a file came from
// is worth only what it pins.
func CheckVersion(s string) string {
	switch {
	case slices.Contains(movingVersions, strings.ToLower(s)):
		return "names a tag or branch that moves"
	case strings.ContainsAny(s, "^~<>=|") || strings.Contains(s, " - "):
		return "is a range of versions"
	}
	for part := range strings.SplitSeq(s, ".") {
		if part == "*" || part == "x" || part == "X" {
			return "is a wildcard"
		}
	}
	return ""
}

// joinOr joins words as a sentence lists what is not there: "a", "a or
// b", "a, b or c".
func joinOr(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
