package generator

import (
	"context"
	"errors"
	"strings"
	"testing/fstest"

	"logoindex/generator/problem"
)

// ReservedSlug says why slug cannot name a logo, or "": a logo of that slug
// would write a file that the build writes for something else (slug
// "registry" gives r/registry.json, the registry's index). It checks a
// collection of that one logo through Build, so the answer follows the
// outputs without a list to keep up.
func ReservedSlug(slug string) string {
	src := fstest.MapFS{
		"categories.yaml":   {Data: []byte("- {slug: c, name: C}\n")},
		slug + "/logo.yaml": {Data: []byte("name: Probe\nhex: \"#000000\"\ncategories: [c]\nsource: https://example.com\nlicense: CC0-1.0\ncomponent: ProbeIcon\n")},
		slug + "/icon.svg":  {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><path d="M0 0h1v1z"/></svg>`)},
	}
	_, err := Build(context.Background(), src, Options{})
	var probs ProblemList
	if !errors.As(err, &probs) {
		return ""
	}
	for _, p := range probs {
		_, rest, ok := strings.Cut(p.Msg, " would write ")
		if p.Code == problem.SlugCollision && ok && strings.Contains(rest, "the collection's") {
			name, _, _ := strings.Cut(rest, ", ")
			return "it would write " + name + ", which the build writes for the collection"
		}
	}
	return ""
}
