package render

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator/source"
)

// checkRegistryWriter compares the registry writer's entry for l with
// what encoding/json writes for registryEntry(l) in the index.
func checkRegistryWriter(t *testing.T, base string, l *Summary) {
	t.Helper()
	want, err := newJSONEncoder("    ", "  ").encode(registryEntry(l, base))
	if err != nil {
		t.Fatal(err)
	}
	w := newEntryWriter(base)
	for range 2 { // the buffers are reused
		if got := w.registryEntry(l); string(got) != string(want) {
			t.Fatalf("base %q, logo %+v:\ngot  %s\nwant %s", base, l, got, want)
		}
	}
	// An item's own file, with its schema and content.
	for _, content := range []string{"", l.Name + "\n\"src\" </b>\t\u2028", "export function X() {}\n"} {
		item := registryEntry(l, base)
		item.Schema, item.Files[0].Content = registryItemSchema, content
		want, err := encodeJSON(item, "  ")
		if err != nil {
			t.Fatal(err)
		}
		if got := append(w.registryItem(l, "\n  ", registryItemSchema, []byte(content)), '\n'); string(got) != string(want) {
			t.Fatalf("item file, base %q, logo %+v, content %q (-encoding/json +registryItem):\n%s", base, l, content, cmp.Diff(string(want), string(got)))
		}
	}
}

// TestRegistryWriter: the registry index's entries and the item files,
// written by hand, are what encoding/json writes, for strings that need escaping of every kind
// and lists empty, missing and long.
func TestRegistryWriter(t *testing.T) {
	for _, tc := range []struct {
		base string
		l    Summary
	}{
		{"https://logos.example.com", Summary{Slug: "github", Name: "GitHub", Component: "GitHubIcon", Categories: []string{"devtools"}, Variants: []string{"icon", "icon-mono"}}},
		{"", Summary{Slug: "a", Name: `Quote " back \ slash`, Component: `A"B`, Categories: []string{}, Variants: []string{}}},
		{`C:\logos`, Summary{Slug: "g", Name: `back\slash`, Component: "G", Categories: []string{`a\b`, "c", "d"}, Variants: source.Variants}},
		{"/logos", Summary{Slug: "b", Name: "tab\tnew\nline\r\b\f\x00\x1f del\x7f", Component: "\u2028"}},
		{"https://x.example/ö", Summary{Slug: "c", Name: "<b> & 'q' \u2028\u2029 ünï 轩辕 😀 \xff", Component: "C", Variants: []string{"wordmark"}}},
	} {
		checkRegistryWriter(t, tc.base, &tc.l)
	}
}

// FuzzRegistryWriter is TestRegistryWriter on any strings.
func FuzzRegistryWriter(f *testing.F) {
	f.Add("https://logos.example.com", "github", "GitHub", "GitHubIcon", "devtools", uint8(3))
	f.Add("", "a", "\"\\\x00\u2028\xff", "", "", uint8(0))
	f.Fuzz(func(t *testing.T, base, slug, name, component, category string, lists uint8) {
		l := &Summary{Slug: slug, Name: name, Component: component}
		switch lists % 3 {
		case 1:
			l.Categories, l.Variants = []string{}, []string{}
		case 2:
			l.Categories, l.Variants = []string{category, name}, []string{slug, category}
		}
		checkRegistryWriter(t, base, l)
	})
}
