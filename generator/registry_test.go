package generator

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator/render"
	"logoindex/internal/testtree"
)

// regFiles keeps the files under r/: the registry's items and index.
func regFiles(tree map[string]string) map[string]string {
	return only(tree, func(name string) bool { return strings.HasPrefix(name, "r/") })
}

// TestRegistryGolden builds testdata/registry/src, whose logos exercise the
// JSX conversion (gradients, clip paths, <use>, style attributes and a
// <style> element, text), and compares r/ with testdata/registry/r. Run
// with -update to accept new output, then read the diff.
func TestRegistryGolden(t *testing.T) {
	tree, _ := buildTree(t, os.DirFS("testdata/registry/src"), Options{
		Render: render.Options{BaseURL: "https://logos.example.com"},
	})
	checkGolden(t, "testdata/registry", "r", regFiles(tree))
}

var regVariantUnionRE = regexp.MustCompile(`(?m)^export type (\w+)Variant = (.*)$`)

// TestRegistryCoversCollection checks the registry of the shipped
// collection: an item for every logo, named by its slug, whose component is
// named by the logo's component and whose variant type is exactly the
// logo's variants; and an index listing every item, without content.
func TestRegistryCoversCollection(t *testing.T) {
	src := os.DirFS("../source-logos")
	tree, _ := buildTree(t, src, Options{Render: render.Options{BaseURL: "https://cdn.example"}})
	logos, _ := siteCheckedLogos(t, src)
	files := regFiles(tree)
	var index render.Registry
	if err := json.Unmarshal([]byte(files["r/registry.json"]), &index); err != nil {
		t.Fatalf("r/registry.json: %v", err)
	}
	if index.Name != "logoindex" || index.Homepage != "https://cdn.example/" || index.Schema != "https://ui.shadcn.com/schema/registry.json" {
		t.Errorf("index header = %q %q %q", index.Name, index.Homepage, index.Schema)
	}
	if len(index.Items) != len(logos) || len(files) != len(logos)+1 {
		t.Fatalf("%d logos, %d index items, %d files under r/", len(logos), len(index.Items), len(files))
	}
	for i, l := range logos {
		var item render.RegistryItem
		if err := json.Unmarshal([]byte(files["r/"+l.Slug+".json"]), &item); err != nil {
			t.Errorf("r/%s.json: %v", l.Slug, err)
			continue
		}
		var variants []string
		for _, v := range l.Variants {
			variants = append(variants, v.Name)
		}
		if item.Name != l.Slug || item.Title != l.Name || item.Type != "registry:component" || len(item.Files) != 1 ||
			item.Files[0].Path != "components/logos/"+l.Slug+".tsx" || item.Files[0].Type != "registry:component" {
			t.Errorf("r/%s.json: unexpected item %+v", l.Slug, item)
			continue
		}
		if diff := cmp.Diff(&render.RegistryMeta{Component: l.Component, Variants: variants, Page: "https://cdn.example/logos/" + l.Slug + "/"}, item.Meta); diff != "" {
			t.Errorf("r/%s.json meta (-want +got):\n%s", l.Slug, diff)
		}
		src := item.Files[0].Content
		if !strings.Contains(src, "export function "+l.Component+"({") {
			t.Errorf("r/%s.json does not export %s", l.Slug, l.Component)
		}
		m := regVariantUnionRE.FindStringSubmatch(src)
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
		{name: "execution error", tmpl: `{{.Nope}}`, want: `acme/logo.yaml: executing the component template: template: component.tsx.tmpl:1:2: executing "component.tsx.tmpl" at <.Nope>: can't evaluate field Nope in type render.componentData`},
		{name: "missing template", want: "reading the component template: open component.tsx.tmpl: file does not exist"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The page templates are not this test's business: the
			// folder holds none, and they come from the embedded ones.
			tmpl := fstest.MapFS{}
			if tt.tmpl != "" {
				tmpl["component.tsx.tmpl"] = &fstest.MapFile{Data: []byte(tt.tmpl)}
			}
			out := filepath.Join(t.TempDir(), "dist")
			_, err := Build(context.Background(), src, Options{Out: out, Render: render.Options{Templates: tmpl}})
			var got string
			if err != nil {
				got = err.Error()
			} else {
				var item render.RegistryItem
				if err := json.Unmarshal([]byte(regFiles(testtree.ReadFiles(t, out))["r/acme.json"]), &item); err != nil {
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
