package generator

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"text/template"

	"logoindex/generator/svg"
)

// The shadcn registry (dist/r/): one registry item a logo, whose single
// file is a React component generated from templates/component.tsx.tmpl,
// and the registry index r/registry.json. `npx shadcn add {base}/r/<slug>.json`
// installs the component at components/logos/<slug>.tsx.
const (
	componentTemplate  = "component.tsx.tmpl"
	registryName       = "logoindex"
	registryItemSchema = "https://ui.shadcn.com/schema/registry-item.json"
	registrySchema     = "https://ui.shadcn.com/schema/registry.json"
	// registryItemType is the item and file type: a component, installed
	// under the app's components alias (registry:ui would put logos among
	// the app's UI primitives).
	registryItemType = "registry:component"
)

// RegistryItem is r/<slug>.json, a shadcn registry item
// (registry-item.json schema).
type RegistryItem struct {
	Schema      string         `json:"$schema,omitempty"`
	Name        string         `json:"name"`
	Type        string         `json:"type"`
	Title       string         `json:"title"`
	Description string         `json:"description"`
	Categories  []string       `json:"categories,omitempty"`
	Files       []RegistryFile `json:"files"`
	Meta        *RegistryMeta  `json:"meta,omitempty"`
}

// RegistryFile is one file of a registry item. Content is empty in the
// index and holds the component source in the item.
type RegistryFile struct {
	Path    string `json:"path"`
	Type    string `json:"type"`
	Content string `json:"content,omitempty"`
}

// RegistryMeta is what a client needs to use the component without reading
// its source.
type RegistryMeta struct {
	Component string   `json:"component"`
	Variants  []string `json:"variants"`
	Page      string   `json:"page"`
}

// Registry is r/registry.json, the index of every item (registry.json
// schema).
type Registry struct {
	Schema   string         `json:"$schema"`
	Name     string         `json:"name"`
	Homepage string         `json:"homepage"`
	Items    []RegistryItem `json:"items"`
}

// componentData is what component.tsx.tmpl is executed with.
type componentData struct {
	Slug, Name, Component, Page string
	Variants                    []componentVariant
}

// componentVariant is one variant of a logo, converted to JSX.
type componentVariant struct {
	Name                        string
	Source, License, LicenseURL string
	*svg.JSX
}

// componentPath is where an item's file installs, relative to the app's
// components folder: the CLI keeps the part of the path after "components/".
func componentPath(slug string) string { return "components/logos/" + slug + ".tsx" }

// renderRegistry renders the shadcn registry under r/ from the component
// template in tmpl: r/<slug>.json for every logo and r/registry.json.
func renderRegistry(col *Collection, opts RenderOptions, tmpl fs.FS) ([]OutFile, error) {
	t, err := parseComponentTemplate(tmpl)
	if err != nil {
		return nil, err
	}
	base := strings.TrimRight(opts.BaseURL, "/")
	index := Registry{Schema: registrySchema, Name: registryName, Homepage: base + "/", Items: []RegistryItem{}}
	// Items in parallel, each cached whole: the JSX conversion and the
	// template are most of a large build's render time.
	files := make([]OutFile, len(col.Logos))
	entries := make([]RegistryItem, len(col.Logos))
	errs := make([]error, len(col.Logos))
	parallel(context.Background(), len(col.Logos), 0, func(i int) {
		l := col.Logos[i]
		key := renderKey(l.key, "registry", base, opts.templateHash)
		b, err := opts.cache.render(key, func() ([]byte, error) {
			item, err := registryItem(t, l, base)
			if err != nil {
				return nil, err
			}
			return marshalIndent(item)
		})
		if err != nil {
			errs[i] = err
			return
		}
		files[i] = OutFile{Name: "r/" + l.Slug + ".json", Data: b}
		// The index lists the items without their content, which their
		// own files carry: `shadcn add` fetches those.
		entries[i] = registryEntry(l, base)
	})
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	index.Items = append(index.Items, entries...)
	b, err := marshalIndent(index)
	if err != nil {
		return nil, err
	}
	return append(files, OutFile{Name: "r/registry.json", Data: b}), nil
}

// parseComponentTemplate reads component.tsx.tmpl from tmpl.
func parseComponentTemplate(tmpl fs.FS) (*template.Template, error) {
	src, err := fs.ReadFile(tmpl, componentTemplate)
	if err != nil {
		return nil, fmt.Errorf("reading the component template: %w", err)
	}
	t, err := template.New(componentTemplate).Option("missingkey=error").Funcs(template.FuncMap{
		"jsstr":  svg.JSString,
		"indent": indentTail,
		"line":   commentLine,
	}).Parse(string(src))
	if err != nil {
		return nil, fmt.Errorf("parsing the component template: %w", err)
	}
	return t, nil
}

// registryItem renders the registry item of one logo.
func registryItem(t *template.Template, l *Logo, base string) (*RegistryItem, error) {
	data := componentData{Slug: l.Slug, Name: l.Name, Component: l.Component, Page: base + "/logos/" + l.Slug + "/"}
	for _, v := range l.Variants {
		data.Variants = append(data.Variants, componentVariant{
			Name: v.Variant, Source: v.Meta.Source, License: v.Meta.License, LicenseURL: v.Meta.LicenseURL, JSX: v.JSX,
		})
	}
	var src bytes.Buffer
	if err := t.Execute(&src, data); err != nil {
		return nil, fmt.Errorf("%s: executing the component template: %w", l.MetaPath, err)
	}
	item := registryEntry(l, base)
	item.Schema = registryItemSchema
	item.Files[0].Content = src.String()
	return &item, nil
}

// registryEntry is a logo's item without its content, as the registry
// index lists it.
func registryEntry(l *Logo, base string) RegistryItem {
	var names []string
	for _, v := range l.Variants {
		names = append(names, v.Variant)
	}
	return RegistryItem{
		Name:        l.Slug,
		Type:        registryItemType,
		Title:       l.Name,
		Description: fmt.Sprintf("The %s logo as a React component, %s, with the variants %s.", l.Name, l.Component, strings.Join(names, ", ")),
		Categories:  l.Categories,
		Files:       []RegistryFile{{Path: componentPath(l.Slug), Type: registryItemType}},
		Meta:        &RegistryMeta{Component: l.Component, Variants: names, Page: base + "/logos/" + l.Slug + "/"},
	}
}

// marshalIndent is marshal with two-space indentation and a final newline,
// the way registry files are usually published.
func marshalIndent(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// indentTail indents every line of s but the first by n spaces, for text
// placed after n spaces of indentation in the template. Empty lines stay
// empty.
func indentTail(n int, s string) string {
	pad := strings.Repeat(" ", n)
	lines := strings.Split(s, "\n")
	for i := 1; i < len(lines); i++ {
		if lines[i] != "" {
			lines[i] = pad + lines[i]
		}
	}
	return strings.Join(lines, "\n")
}

// commentLine makes s safe inside a comment: one line, no control
// characters, no end of a block comment.
func commentLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == 0x2028 || r == 0x2029 {
			return ' '
		}
		return r
	}, s)
	return strings.ReplaceAll(s, "*/", `*\/`)
}
