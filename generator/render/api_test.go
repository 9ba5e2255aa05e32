package render

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator/source"
)

// TestWriteJSONList checks that the list written an item at a time is byte
// for byte what encoding/json writes for the whole value, compact and
// indented, for lists of 0, 1 and several items whose strings need
// escaping and whose items nest lists and objects.
func TestWriteJSONList(t *testing.T) {
	type item struct {
		Name  string            `json:"name"`
		Tags  []string          `json:"tags,omitempty"`
		Extra map[string]string `json:"extra,omitempty"`
	}
	type doc struct {
		Schema string   `json:"$schema"`
		Heads  []string `json:"heads"`
		Items  []item   `json:"items"`
	}
	items := []item{
		{Name: "a <b> & \"c\"\n", Tags: []string{"x", "y"}},
		{Name: "ünïcode \u2028 \t"},
		{Name: "[]", Extra: map[string]string{"k": "[]}"}},
	}
	for _, indent := range []string{"", "  "} {
		for n := range len(items) + 1 {
			t.Run(fmt.Sprintf("indent %q, %d items", indent, n), func(t *testing.T) {
				head := doc{Schema: "s[]", Heads: []string{"h"}, Items: []item{}}
				full := head
				full.Items = items[:n]
				want, err := encodeJSON(full, indent)
				if err != nil {
					t.Fatal(err)
				}
				var got bytes.Buffer
				if err := writeJSONList(&got, head, sliceItems(items[:n]), indent); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(string(want), got.String()); diff != "" {
					t.Errorf("differs from encoding/json (-want +got):\n%s", diff)
				}
			})
		}
	}
	// A list that is not the last field is refused, not written wrong.
	type wrong struct {
		Items []item `json:"items"`
		After string `json:"after"`
	}
	if err := writeJSONList(&bytes.Buffer{}, wrong{Items: []item{}}, sliceItems(items[:1]), ""); err == nil {
		t.Error("a list followed by another field was accepted")
	}
}

// checkIndexWriter compares the index writer's entry for l with what
// encoding/json writes for the same logo, and reports whether the writer
// took the logo (it leaves lists of unknown or repeated variants).
func checkIndexWriter(t *testing.T, base string, l *Summary) bool {
	t.Helper()
	r := &Renderer{base: base}
	want, err := marshal(IndexLogo{LogoCard: r.card(l.Slug, l.Name, l.Hex, l.Categories, l.Variants), Aliases: l.Aliases})
	if err != nil {
		t.Fatal(err)
	}
	want = bytes.Clone(want)
	w := newEntryWriter(base)
	for range 2 { // the buffers are reused
		got, ok := w.indexEntry(l)
		if !ok {
			return false
		}
		if string(got) != string(want) {
			t.Fatalf("base %q, logo %+v:\ngot  %s\nwant %s", base, l, got, want)
		}
	}
	return true
}

// TestIndexWriter: the index's entries, written by hand, are what
// encoding/json writes, for strings that need escaping of every kind.
func TestIndexWriter(t *testing.T) {
	all := []string{"icon", "icon-mono", "icon-dark", "wordmark", "wordmark-dark"}
	for _, tc := range []struct {
		base string
		l    Summary
		took bool
	}{
		{"https://logos.example.com", Summary{Slug: "github", Name: "GitHub", Hex: "#181717", Categories: []string{"devtools"}, Variants: []string{"icon", "icon-mono"}}, true},
		{"", Summary{Slug: "a", Name: `Quote " back \ slash`, Hex: "#000000", Categories: []string{}, Aliases: []string{"x", "y"}, Variants: all}, true},
		{`C:\logos`, Summary{Slug: "g", Name: `back\slash`, Categories: []string{`a\b`}, Variants: []string{"icon"}}, true},
		{"/logos", Summary{Slug: "b", Name: "tab\tnew\nline\r\b\f\x00\x1f del\x7f", Variants: []string{"wordmark", "icon"}}, true},
		{"https://x.example/a\"b\\c", Summary{Slug: "c", Name: "<b> & 'q' \u2028\u2029 ünï 轩辕 😀", Aliases: []string{"\xff\xfe bad utf-8", ""}, Variants: []string{"icon-dark"}}, true},
		{"https://x.example/ö", Summary{Slug: "d", Name: "D", Variants: []string{}}, true},
		{"", Summary{Slug: "e", Name: "E", Variants: []string{"icon", "icon"}}, false},
		{"", Summary{Slug: "f", Name: "F", Variants: []string{"icon", "logo"}}, false},
	} {
		if took := checkIndexWriter(t, tc.base, &tc.l); took != tc.took {
			t.Errorf("%+v: took %t, want %t", tc.l, took, tc.took)
		}
	}
}

// FuzzIndexWriter is TestIndexWriter on any strings.
func FuzzIndexWriter(f *testing.F) {
	f.Add("https://logos.example.com", "github", "GitHub", "#181717", "devtools", "alias", uint8(3))
	f.Add("", "a", "\"\\\x00\u2028\xff", "", "", "", uint8(31))
	f.Fuzz(func(t *testing.T, base, slug, name, hex, category, alias string, variants uint8) {
		l := &Summary{Slug: slug, Name: name, Hex: hex, Categories: []string{category, name}, Aliases: []string{alias}}
		if alias == "" {
			l.Aliases = nil
		}
		for i, v := range source.Variants {
			if variants&(1<<i) != 0 {
				l.Variants = append(l.Variants, v)
			}
		}
		if !checkIndexWriter(t, base, l) {
			t.Fatalf("the writer left %v", l.Variants)
		}
	})
}

// sliceItems gives the items of a slice to writeJSONList.
func sliceItems[T any](s []T) func(yield func(any) error) error {
	return func(yield func(any) error) error {
		for _, v := range s {
			if err := yield(v); err != nil {
				return err
			}
		}
		return nil
	}
}

// checkDetailJSON compares detailJSON with marshal, and reports whether
// detailJSON wrote d.
func checkDetailJSON(t *testing.T, d *LogoDetail) bool {
	t.Helper()
	want, err := marshal(*d)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := detailJSON(d)
	if ok && string(got) != string(want) {
		t.Errorf("detail of %q (-marshal +detailJSON):\n%s", d.Slug, cmp.Diff(string(want), string(got)))
	}
	return ok
}

// TestDetailJSON holds detailJSON to encoding/json for odd strings, nil
// and empty lists and maps, licences with and without a URL, and maps
// with keys that are not variants (left to marshal).
func TestDetailJSON(t *testing.T) {
	odd := "<b> & 'q' \"\\ \u2028\u2029 \x00\x1f\x7f \xff\xfe ünï 😀"
	files := VariantFiles{
		"icon":      {Source: "https://x.example", License: "MIT"},
		"icon-mono": {Source: "https://x.example", License: "MIT", Via: &source.Via{Name: "simple-icons", Version: "16.37.0", URL: "https://x.example/si"}},
		"wordmark":  {Source: odd, License: odd, LicenseURL: odd, Via: &source.Via{Name: odd, Version: odd, URL: odd}},
	}
	for _, tc := range []struct {
		d    LogoDetail
		took bool
	}{
		{LogoDetail{LogoCard: LogoCard{Slug: "github", Name: "GitHub", Categories: []string{"devtools"}, Hex: "#181717", Page: "https://x.example/logos/github/",
			SVG: VariantURLs{"icon": "https://x.example/logos/github/icon.svg", "icon-mono": "m"}}, Component: "GitHubIcon", Install: "npx shadcn add x", Files: files}, true},
		{LogoDetail{LogoCard: LogoCard{Slug: odd, Name: odd, Categories: []string{}, Hex: odd, Page: odd, SVG: VariantURLs{"wordmark-dark": odd, "icon": odd}},
			Component: odd, Install: odd, Files: files, Aliases: []string{odd, ""}, Guidelines: odd}, true},
		{LogoDetail{}, true}, // nil lists and maps
		{LogoDetail{LogoCard: LogoCard{SVG: VariantURLs{}}, Files: VariantFiles{}, Aliases: []string{}}, true},
		{LogoDetail{LogoCard: LogoCard{SVG: VariantURLs{"logo": "x"}}}, false},
		{LogoDetail{Files: VariantFiles{"icon": {}, "x": {}}}, false},
	} {
		if took := checkDetailJSON(t, &tc.d); took != tc.took {
			t.Errorf("%+v: took %t, want %t", tc.d, took, tc.took)
		}
	}
}

// FuzzDetailJSON is TestDetailJSON on any strings.
func FuzzDetailJSON(f *testing.F) {
	f.Add("github", "GitHub", "#181717", "devtools", "alias", "https://x.example", "MIT", "", uint8(3))
	f.Add("a", "\"\\\x00\u2028\xff", "", "", "", "<>&", "", "\x7f", uint8(31))
	f.Add("github", "simple-icons", "16.37.0", "devtools", "", "https://x.example", "CC0-1.0", "https://x.example/si", uint8(63))
	f.Fuzz(func(t *testing.T, slug, name, hex, category, alias, src, license, licenseURL string, variants uint8) {
		d := &LogoDetail{LogoCard: LogoCard{Slug: slug, Name: name, Hex: hex, Page: src, Categories: []string{category, name}, SVG: VariantURLs{}},
			Component: name, Install: alias, Files: VariantFiles{}, Aliases: []string{alias}, Guidelines: licenseURL}
		if alias == "" {
			d.Aliases = nil
		}
		for i, v := range source.Variants {
			if variants&(1<<i) != 0 {
				d.SVG[v] = src + v
				fm := source.FileMeta{Source: src, License: license, LicenseURL: licenseURL}
				if variants&(1<<len(source.Variants)) != 0 && i%2 == 0 { // the bit above the variants': a via on every other file
					fm.Via = &source.Via{Name: name, Version: hex, URL: licenseURL}
				}
				d.Files[v] = fm
			}
		}
		if !checkDetailJSON(t, d) {
			t.Fatalf("detailJSON left %v", d.SVG)
		}
	})
}

// jsonStrings are strings with every kind of byte appendJSONString
// escapes itself or leaves to encoding/json.
var jsonStrings = []string{"", "plain", `"q" \ back`, "\n\r\t\b\f", "\x00\x01\x1f\x7f", "<&>", "ünï 😀", "\u2028\u2029", "\xff\xfe", `a"b` + "\x00"}

// TestAppendJSONString holds appendJSONString to encoding/json.
func TestAppendJSONString(t *testing.T) {
	for _, s := range jsonStrings {
		checkJSONString(t, s)
	}
}

func FuzzAppendJSONString(f *testing.F) {
	for _, s := range jsonStrings {
		f.Add(s)
	}
	f.Fuzz(checkJSONString)
}

func checkJSONString(t *testing.T, s string) {
	enc := newJSONEncoder("", "")
	want, err := marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := appendJSONString([]byte("x"), s, enc); string(got) != "x"+string(want) {
		t.Errorf("appendJSONString(%q) = %s, want x%s", s, got, want)
	}
	if got := appendJSONString(nil, []byte(s), enc); string(got) != string(want) {
		t.Errorf("appendJSONString([]byte(%q)) = %s, want %s", s, got, want)
	}
}
