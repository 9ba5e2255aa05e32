// Package spdx knows the SPDX license list and suggests the nearest
// identifier for a near-miss.
//
// ids.json and deprecated.json are copied unchanged from the npm package
// spdx-license-ids (CC0-1.0), version given by [ListVersion]. To refresh:
// npm pack spdx-license-ids, copy its two JSON files here, bump ListVersion.
package spdx

import (
	_ "embed"
	"encoding/json"
	"strings"
	"sync"

	"logoindex/generator/internal/fuzzy"
)

// ListVersion is the version of the spdx-license-ids package embedded here.
const ListVersion = "3.0.24"

var (
	//go:embed ids.json
	idsJSON []byte
	//go:embed deprecated.json
	deprecatedJSON []byte

	// ids and deprecated are the lists, read on first use: a build that
	// checks no logo (nothing changed) never needs them, and reading them
	// at start-up would slow every run.
	ids        = sync.OnceValue(func() map[string]bool { return mustSet(idsJSON) })
	deprecated = sync.OnceValue(func() map[string]bool { return mustSet(deprecatedJSON) })
)

func mustSet(b []byte) map[string]bool {
	var list []string
	if err := json.Unmarshal(b, &list); err != nil {
		panic("spdx: embedded list is not a JSON array of strings: " + err.Error())
	}
	m := make(map[string]bool, len(list))
	for _, id := range list {
		m[id] = true
	}
	return m
}

// Valid reports whether id is a current SPDX license identifier, spelled
// exactly as the list spells it.
func Valid(id string) bool { return ids()[id] }

// Deprecated reports whether id is a deprecated SPDX identifier
// (for example GPL-2.0, which became GPL-2.0-only and GPL-2.0-or-later).
func Deprecated(id string) bool { return deprecated()[id] }

// Nearest returns the current identifier closest to s, or "" when none is
// close enough to be a plausible correction. Case, spaces, underscores and a
// trailing "license" are ignored, so "Apache 2.0" gives "Apache-2.0" and
// "mit license" gives "MIT".
func Nearest(s string) string {
	key := normalise(s)
	if key == "" {
		return ""
	}
	// A unique versioned completion: "CC0" has only "CC0-1.0".
	prefixed := ""
	for id := range ids() {
		if strings.HasPrefix(normalise(id), key+"-") {
			if prefixed != "" {
				prefixed = ""
				break
			}
			prefixed = id
		}
	}
	if prefixed != "" {
		return prefixed
	}
	best, bestDist := "", -1
	for id := range ids() {
		d := fuzzy.Distance(key, normalise(id))
		if bestDist < 0 || d < bestDist || d == bestDist && id < best {
			best, bestDist = id, d
		}
	}
	// Allow one edit per four characters, at least one: "Apach-2.0" is a
	// typo; anything further is a different licence, not a misspelling.
	if bestDist > max(1, len(key)/4) {
		return ""
	}
	return best
}

func normalise(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.TrimSuffix(s, " license")
	s = strings.TrimSuffix(s, "-license")
	r := strings.NewReplacer(" ", "-", "_", "-", "v", "")
	// "v" is dropped so "GPLv3" and "GPL-3" meet; ids never need it to differ.
	return strings.TrimSpace(r.Replace(s))
}
