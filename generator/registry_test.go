package generator

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"text/template"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator/svg"
	"logoindex/templates"
)

// registryFiles keeps the files under r/.
func registryFiles(files []OutFile) map[string]string {
	out := map[string]string{}
	for _, f := range files {
		if strings.HasPrefix(f.Name, "r/") {
			out[f.Name] = string(f.Data)
		}
	}
	return out
}

// TestRegistryGolden builds testdata/registry/src, whose logos exercise the
// JSX conversion (gradients, clip paths, <use>, style attributes and a
// <style> element, text), and compares r/ with testdata/registry/r. Run
// with -update to accept new output, then read the diff.
func TestRegistryGolden(t *testing.T) {
	res, err := Build(context.Background(), os.DirFS("testdata/registry/src"), Options{
		Render: RenderOptions{BaseURL: "https://logos.example.com"},
	})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	checkGolden(t, "testdata/registry", "r", registryFiles(res.Files))
}

var variantUnionRE = regexp.MustCompile(`(?m)^export type (\w+)Variant = (.*)$`)

// TestRegistryCoversCollection checks the registry of the shipped
// collection: an item for every logo, named by its slug, whose component is
// named by the logo's component and whose variant type is exactly the
// logo's variants; and an index listing every item, without content.
func TestRegistryCoversCollection(t *testing.T) {
	res, err := Build(context.Background(), os.DirFS("../source-logos"), Options{Render: RenderOptions{BaseURL: "https://cdn.example"}})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	files := registryFiles(res.Files)
	var index Registry
	if err := json.Unmarshal([]byte(files["r/registry.json"]), &index); err != nil {
		t.Fatalf("r/registry.json: %v", err)
	}
	if index.Name != "logoindex" || index.Homepage != "https://cdn.example/" || index.Schema != registrySchema {
		t.Errorf("index header = %q %q %q", index.Name, index.Homepage, index.Schema)
	}
	if len(index.Items) != len(res.Collection.Logos) || len(files) != len(res.Collection.Logos)+1 {
		t.Fatalf("%d logos, %d index items, %d files under r/", len(res.Collection.Logos), len(index.Items), len(files))
	}
	for i, l := range res.Collection.Logos {
		var item RegistryItem
		if err := json.Unmarshal([]byte(files["r/"+l.Slug+".json"]), &item); err != nil {
			t.Errorf("r/%s.json: %v", l.Slug, err)
			continue
		}
		var variants []string
		for _, v := range l.Variants {
			variants = append(variants, v.Variant)
		}
		if item.Name != l.Slug || item.Title != l.Name || item.Type != "registry:component" || len(item.Files) != 1 ||
			item.Files[0].Path != "components/logos/"+l.Slug+".tsx" || item.Files[0].Type != "registry:component" {
			t.Errorf("r/%s.json: unexpected item %+v", l.Slug, item)
			continue
		}
		if diff := cmp.Diff(&RegistryMeta{Component: l.Component, Variants: variants, Page: "https://cdn.example/logos/" + l.Slug + "/"}, item.Meta); diff != "" {
			t.Errorf("r/%s.json meta (-want +got):\n%s", l.Slug, diff)
		}
		src := item.Files[0].Content
		if !strings.Contains(src, "export function "+l.Component+"({") {
			t.Errorf("r/%s.json does not export %s", l.Slug, l.Component)
		}
		m := variantUnionRE.FindStringSubmatch(src)
		if m == nil || m[1] != l.Component {
			t.Errorf("r/%s.json: no %sVariant type", l.Slug, l.Component)
		} else {
			var got []string
			for _, s := range strings.Split(m[2], " | ") {
				got = append(got, strings.Trim(s, `"`))
			}
			if diff := cmp.Diff(variants, got); diff != "" {
				t.Errorf("r/%s.json: variant union (-want +got):\n%s", l.Slug, diff)
			}
		}
		if strings.Contains(src, "{{") || strings.Contains(src, "<no value>") {
			t.Errorf("r/%s.json: template syntax left in the component", l.Slug)
		}
		entry := index.Items[i]
		if entry.Name != l.Slug || entry.Schema != "" || len(entry.Files) != 1 || entry.Files[0].Content != "" || entry.Files[0].Path != item.Files[0].Path {
			t.Errorf("index item %d = %+v, want %s without content", i, entry, l.Slug)
		}
	}
}

// TestRegistryTemplate shows that the component source comes from the
// template, and that template problems are errors naming the template.
func TestRegistryTemplate(t *testing.T) {
	src := fstest.MapFS{
		"categories.yaml": {Data: []byte("- {slug: tools, name: Tools}\n")},
		"acme/logo.yaml":  {Data: []byte("name: Acme\nhex: \"#FF5500\"\ncategories: [tools]\nsource: https://acme.example\nlicense: MIT\n")},
		"acme/icon.svg":   {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 12"><path fill="#F50" d="M0 0h24v12z"/></svg>`)},
		"acme/icon-mono.svg": {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="currentColor">` +
			`<clipPath id="c"><path d="M0 0h9v9z"/></clipPath><path clip-path="url(#c)" d="M0 0h24v24z"/></svg>`)},
	}
	// The page templates are not this test's business: build with the
	// embedded ones, then render the registry with the test's.
	res, err := Build(context.Background(), src, Options{})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	tests := []struct {
		name, tmpl string
		want       string // the content, or the error
	}{
		{
			name: "custom template",
			tmpl: `{{.Component}} {{.Slug}} {{jsstr .Name}}{{range .Variants}} [{{.Name}} {{.Width}} {{.UsesPrefix}} {{.License}}]{{end}}`,
			want: `AcmeIcon acme "Acme" [icon 2em false MIT] [icon-mono 1em true MIT]`,
		},
		{
			name: "indent and line",
			tmpl: `{{line "a\nb */ @c"}}|{{indent 2 "x\ny\n\nz"}}`,
			want: "a\\u000ab *\\/ \\@c|x\n  y\n\n  z",
		},
		{
			name: "jsx in a comment",
			tmpl: `{{jsx .Name | line}} {{jsx "*/\"<b>"}}`,
			want: `{"Acme"} {"*/\"<b>"}`,
		},
		{name: "parse error", tmpl: `{{.Component`, want: "parsing the component template: template: component.tsx.tmpl:1: unclosed action"},
		{name: "execution error", tmpl: `{{.Nope}}`, want: `acme/logo.yaml: executing the component template: template: component.tsx.tmpl:1:2: executing "component.tsx.tmpl" at <.Nope>: can't evaluate field Nope in type generator.componentData`},
		{name: "missing template", want: "reading the component template: open component.tsx.tmpl: file does not exist"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmpl := fstest.MapFS{}
			if tt.tmpl != "" {
				tmpl["component.tsx.tmpl"] = &fstest.MapFile{Data: []byte(tt.tmpl)}
			}
			files, err := Render(context.Background(), res.Collection, RenderOptions{Templates: tmpl})
			var got string
			if err != nil {
				got = err.Error()
			} else {
				var item RegistryItem
				if err := json.Unmarshal([]byte(registryFiles(files)["r/acme.json"]), &item); err != nil {
					t.Fatal(err)
				}
				got = item.Files[0].Content
			}
			if got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// checkRegistryWriter compares the registry writer's entry for l with
// what encoding/json writes for registryEntry(l) in the index.
func checkRegistryWriter(t *testing.T, base string, l *logoSummary) {
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
		l    logoSummary
	}{
		{"https://logos.example.com", logoSummary{Slug: "github", Name: "GitHub", Component: "GitHubIcon", Categories: []string{"devtools"}, Variants: []string{"icon", "icon-mono"}}},
		{"", logoSummary{Slug: "a", Name: `Quote " back \ slash`, Component: `A"B`, Categories: []string{}, Variants: []string{}}},
		{`C:\logos`, logoSummary{Slug: "g", Name: `back\slash`, Component: "G", Categories: []string{`a\b`, "c", "d"}, Variants: Variants}},
		{"/logos", logoSummary{Slug: "b", Name: "tab\tnew\nline\r\b\f\x00\x1f del\x7f", Component: "\u2028"}},
		{"https://x.example/ö", logoSummary{Slug: "c", Name: "<b> & 'q' \u2028\u2029 ünï 轩辕 😀 \xff", Component: "C", Variants: []string{"wordmark"}}},
	} {
		checkRegistryWriter(t, tc.base, &tc.l)
	}
}

// FuzzRegistryWriter is TestRegistryWriter on any strings.
func FuzzRegistryWriter(f *testing.F) {
	f.Add("https://logos.example.com", "github", "GitHub", "GitHubIcon", "devtools", uint8(3))
	f.Add("", "a", "\"\\\x00\u2028\xff", "", "", uint8(0))
	f.Fuzz(func(t *testing.T, base, slug, name, component, category string, lists uint8) {
		l := &logoSummary{Slug: slug, Name: name, Component: component}
		switch lists % 3 {
		case 1:
			l.Categories, l.Variants = []string{}, []string{}
		case 2:
			l.Categories, l.Variants = []string{category, name}, []string{slug, category}
		}
		checkRegistryWriter(t, base, l)
	})
}

// checkTSX compares the component componentData.tsx writes with the
// embedded template executed.
func checkTSX(t testing.TB, tmpl *template.Template, d componentData) {
	t.Helper()
	var want, got bytes.Buffer
	if err := tmpl.Execute(&want, d); err != nil {
		t.Fatal(err)
	}
	d.tsx(&got)
	if got.String() != want.String() {
		t.Errorf("component of %q (-template +tsx):\n%s", d.Name, cmp.Diff(want.String(), got.String()))
	}
}

func embeddedComponent(t testing.TB) *template.Template {
	t.Helper()
	tmpl, err := parseComponentTemplate(templates.FS)
	if err != nil {
		t.Fatal(err)
	}
	return tmpl
}

// oddComponent is a component whose text fields come from odd, chosen by
// i, with 0 to 4 variants of each shape.
func oddComponent(odd []string, i int) componentData {
	text := func(k int) string { return odd[(i+k)%len(odd)] }
	d := componentData{Slug: "acme", Name: text(0), Component: "AcmeIcon", Page: "https://cdn.example/logos/acme/" + text(1)}
	for k, name := range []string{"icon", "icon-mono", "wordmark", text(2)}[:i%5] {
		d.Variants = append(d.Variants, componentVariant{
			Name: name, Source: text(3 + k), License: text(4 + k), LicenseURL: text(5 + k),
			JSX: &svg.JSX{Attrs: `viewBox="0 0 24 24"`, Width: "1em", Height: "1em", Body: "<path d=\"M0 0h24\" />\n<g>\n  <path />\n</g>",
				Class: []string{"", `"a b"`}[(i+k)%2], Style: []string{"", `{ fill: "red" }`}[(i+k)%3%2], UsesPrefix: (i+k)%2 == 0},
		})
	}
	return d
}

var componentOdd = []string{
	"", "Acme", "a */ b", "@deprecated", "{@link x}", "`tick` ${x}", `"q" \ 'q'`, "\x00\x1b", "line\nbreak\u2028",
	"\u200f rtl", "\xff bad", "é 東京 🙂", "https://acme.example/brand?a=1&b=2", "</script>",
}

// TestComponentTSX: the component written in Go is the embedded
// template's, byte for byte, for the shipped collection and for odd text
// in every field a logo.yaml sets.
func TestComponentTSX(t *testing.T) {
	tmpl := embeddedComponent(t)
	res, err := Build(context.Background(), os.DirFS("../source-logos"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range res.Collection.Logos {
		d := componentData{Slug: l.Slug, Name: l.Name, Component: l.Component, Page: "https://cdn.example/logos/" + l.Slug + "/"}
		for _, v := range l.Variants {
			d.Variants = append(d.Variants, componentVariant{Name: v.Variant, Source: v.Meta.Source, License: v.Meta.License, LicenseURL: v.Meta.LicenseURL, JSX: v.JSX})
		}
		checkTSX(t, tmpl, d)
	}
	for i := range 5 * len(componentOdd) {
		checkTSX(t, tmpl, oddComponent(componentOdd, i))
	}
}

// FuzzComponentTSX holds componentData.tsx to the template for any text.
func FuzzComponentTSX(f *testing.F) {
	f.Add("Acme */", "@x", "MIT", "https://x", "{@link}", uint8(3))
	tmpl := embeddedComponent(f)
	f.Fuzz(func(t *testing.T, name, page, license, licenseURL, source string, shape uint8) {
		checkTSX(t, tmpl, oddComponent([]string{name, page, license, licenseURL, source}, int(shape)))
	})
}
