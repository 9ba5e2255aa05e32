package render

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/template"

	"logoindex/generator/check"
	"logoindex/generator/svg"
	"logoindex/internal/escape"
	"logoindex/templates"
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
	// ViaName, ViaVersion and ViaURL are the distribution the file was
	// taken from, all three empty when it has none.
	ViaName, ViaVersion, ViaURL string
	*svg.JSX
}

// componentPath is where an item's file installs, relative to the app's
// components folder: the CLI keeps the part of the path after "components/".
func componentPath(slug string) string { return "components/logos/" + slug + ".tsx" }

// registryRenderer renders the registry: each logo's item and the index.
// It is safe for concurrent use.
type registryRenderer struct {
	component *template.Template
	base      string // without a trailing slash
	// skeletons, with the embedded template, of the components by shape
	// (skeleton.go), as a text/template's reflection for each logo is slow.
	skeletons *skeletonSet
}

// newRegistryRenderer parses the component template of tmpl.
func newRegistryRenderer(base string, tmpl fs.FS) (*registryRenderer, error) {
	t, err := parseComponentTemplate(tmpl)
	if err != nil {
		return nil, err
	}
	r := &registryRenderer{component: t, base: strings.TrimRight(base, "/")}
	if tmpl == fs.FS(templates.FS) {
		marking, err := t.Clone()
		if err != nil {
			return nil, err
		}
		marking.Funcs(markingFuncs)
		r.skeletons = textSkeletons(func(w io.Writer, data any) error { return marking.Execute(w, data) })
	}
	return r, nil
}

// item renders r/<slug>.json, the registry item of one logo.
func (r *registryRenderer) item(l *check.Logo) (File, error) {
	src := sourcePool.Get().(*bytes.Buffer)
	defer sourcePool.Put(src)
	src.Reset()
	if err := componentSource(src, r, l); err != nil {
		return File{}, err
	}
	// As encoding/json writes, indented by two spaces, the item
	// registryEntry gives with the schema and the source
	// (TestRegistryWriter).
	w := newEntryWriter(r.base)
	// Room for the source escaped (a quote or a newline on most of its
	// lines) and the rest, so that appends need not grow it.
	w.buf = make([]byte, 0, src.Len()+src.Len()/4+2<<10)
	b := w.registryItem(Summarize(l), "\n  ", registryItemSchema, src.Bytes())
	return File{Name: "r/" + l.Slug + ".json", Data: append(b, '\n'), Logo: l.Slug}, nil
}

// sourcePool keeps the buffers of the components' sources from logo to
// logo, so that a build does not grow one for each.
var sourcePool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// index renders r/registry.json, which lists every item without its
// content: `shadcn add` fetches each item's own file, r/<slug>.json.
func (r *registryRenderer) index(w io.Writer, logos *Summaries) error {
	index := Registry{Schema: registrySchema, Name: registryName, Homepage: r.base + "/", Items: []RegistryItem{}}
	ew := newEntryWriter(r.base)
	return writeJSONList(w, index, func(yield func(any) error) error {
		return logos.each(func(l *Summary) error { return yield(ew.registryEntry(l)) })
	}, "  ")
}

// registryEntry returns the item the function registryEntry gives for l,
// as writeJSONList writes it in the index, indented two spaces at the
// depth of an item (TestRegistryWriter and FuzzRegistryWriter hold the
// two equal), by hand as indexEntry writes the index's entries, as
// encoding/json is much slower for the many entries. The entry is good
// until the next call.
func (w *entryWriter) registryEntry(l *Summary) preEncoded {
	return w.registryItem(l, "\n      ", "", nil)
}

// registryItem writes the item registryEntry gives for l, with schema and
// content, whose fields are each on a line that starts with nl: at the
// depth of an item in the index, or at the top of an item's own file,
// rather than through encoding/json, which would indent the whole of an
// item file again after writing it.
func (w *entryWriter) registryItem(l *Summary, nl, schema string, content []byte) preEncoded {
	b, enc := w.buf[:0], w.enc
	b = append(b, '{')
	if schema != "" {
		b = append(append(b, nl...), `"$schema": `...)
		b = appendJSONString(b, schema, enc)
		b = append(b, ',')
	}
	b = append(append(b, nl...), `"name": `...)
	b = appendJSONString(b, l.Slug, enc)
	b = append(append(b, ','), nl...)
	b = append(b, `"type": "`+registryItemType+`",`...)
	b = append(append(b, nl...), `"title": `...)
	b = appendJSONString(b, l.Name, enc)
	d := append(w.scratch[:0], "The "...)
	d = append(append(append(d, l.Name...), " logo as a React component, "...), l.Component...)
	d = append(d, ", with the variants "...)
	for i, v := range l.Variants {
		if i > 0 {
			d = append(d, ", "...)
		}
		d = append(d, v...)
	}
	d = append(d, '.')
	b = append(append(append(b, ','), nl...), `"description": `...)
	b = appendJSONString(b, d, enc)
	if len(l.Categories) > 0 {
		b = append(append(append(b, ','), nl...), `"categories": `...)
		b = appendIndentedStrings(b, l.Categories, nl, enc)
	}
	b = append(append(append(b, ','), nl...), `"files": [`...)
	b = append(append(b, nl...), "  {"...)
	b = append(append(b, nl...), `    "path": `...)
	d = append(append(append(d[:0], "components/logos/"...), l.Slug...), ".tsx"...)
	b = appendJSONString(b, d, enc)
	b = append(append(append(b, ','), nl...), `    "type": "`+registryItemType+`"`...)
	if len(content) > 0 {
		b = append(append(append(b, ','), nl...), `    "content": `...)
		b = appendJSONString(b, content, enc)
	}
	b = append(append(b, nl...), "  }"...)
	b = append(append(b, nl...), "],"...)
	b = append(append(b, nl...), `"meta": {`...)
	b = append(append(b, nl...), `  "component": `...)
	b = appendJSONString(b, l.Component, enc)
	b = append(append(append(b, ','), nl...), `  "variants": `...)
	b = appendIndentedStrings(b, l.Variants, nl+"  ", enc)
	b = append(append(append(b, ','), nl...), `  "page": `...)
	d = append(append(append(append(d[:0], w.base...), '/'), logoDir(l.Slug)...), '/')
	b = appendJSONString(b, d, enc)
	b = append(append(b, nl...), '}')
	b = append(append(b, nl[:len(nl)-2]...), '}')
	w.buf, w.scratch = b, d[:0]
	return b
}

// appendIndentedStrings appends list as encoding/json writes a []string
// indented by two spaces, at the depth whose newline and indentation is
// nl.
func appendIndentedStrings(b []byte, list []string, nl string, enc *jsonEncoder) []byte {
	switch {
	case list == nil:
		return append(b, "null"...)
	case len(list) == 0:
		return append(b, "[]"...)
	}
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, nl+"  "...)
		b = appendJSONString(b, s, enc)
	}
	return append(append(b, nl...), ']')
}

// parseComponentTemplate reads component.tsx.tmpl from tmpl.
func parseComponentTemplate(tmpl fs.FS) (*template.Template, error) {
	src, err := fs.ReadFile(tmpl, componentTemplate)
	if err != nil {
		return nil, fmt.Errorf("reading the component template: %w", err)
	}
	t, err := template.New(componentTemplate).Option("missingkey=error").Funcs(template.FuncMap{
		"jsstr":  escape.JSString,
		"jsx":    escape.JSX,
		"indent": indentTail,
		"line":   escape.JSComment,
	}).Parse(string(src))
	if err != nil {
		return nil, fmt.Errorf("parsing the component template: %w", err)
	}
	return t, nil
}

// componentSource writes the component of one logo, the content of its
// registry item, to src: through its skeleton where there is one, else by
// the template.
func componentSource(src *bytes.Buffer, r *registryRenderer, l *check.Logo) error {
	data := componentData{Slug: l.Slug, Name: l.Name, Component: l.Component, Page: r.base + "/logos/" + l.Slug + "/"}
	for _, v := range l.Variants {
		cv := componentVariant{Name: v.Name, Source: v.Meta.Source, License: v.Meta.License, LicenseURL: v.Meta.LicenseURL, JSX: v.JSX}
		if via := v.Meta.Via; via != nil {
			cv.ViaName, cv.ViaVersion, cv.ViaURL = via.Name, via.Version, via.URL
		}
		data.Variants = append(data.Variants, cv)
	}
	if r.skeletons != nil {
		b, ok, err := r.skeletons.fillText(src.AvailableBuffer(), data, applyComponentFunc)
		if err != nil {
			return fmt.Errorf("%s: executing the component template: %w", l.MetaPath, err)
		}
		if ok {
			src.Write(b)
			return nil
		}
	}
	if err := r.component.Execute(src, data); err != nil {
		return fmt.Errorf("%s: executing the component template: %w", l.MetaPath, err)
	}
	return nil
}

// markingFuncs are the component template's functions as a skeleton is
// made: a placeholder gets the function's name, anything else the
// function itself (textSkeletons).
var markingFuncs = template.FuncMap{
	"jsstr": marking("jsstr", escape.JSString),
	"jsx":   marking("jsx", escape.JSX),
	"line":  marking("line", escape.JSComment),
	"indent": func(n int, s string) string {
		return marking("indent"+strconv.Itoa(n), func(s string) string { return indentTail(n, s) })(s)
	},
}

func marking(name string, fn func(string) string) func(string) string {
	return func(s string) string {
		if m, ok := marked(s, name); ok {
			return m
		}
		return fn(s)
	}
}

// applyComponentFunc applies the component template's function fn, as
// markingFuncs names it, to v.
func applyComponentFunc(fn, v string) string {
	switch fn {
	case "jsstr":
		return escape.JSString(v)
	case "jsx":
		return escape.JSX(v)
	case "line":
		return escape.JSComment(v)
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(fn, "indent")); err == nil {
		return indentTail(n, v)
	}
	return v
}

// registryEntry is a logo's item without its content, as the registry
// index lists it.
func registryEntry(l *Summary, base string) RegistryItem {
	names := l.Variants
	return RegistryItem{
		Name:        l.Slug,
		Type:        registryItemType,
		Title:       l.Name,
		Description: fmt.Sprintf("The %s logo as a React component, %s, with the variants %s.", l.Name, l.Component, strings.Join(names, ", ")),
		Categories:  l.Categories,
		Files:       []RegistryFile{{Path: componentPath(l.Slug), Type: registryItemType}},
		Meta:        &RegistryMeta{Component: l.Component, Variants: names, Page: base + "/" + logoDir(l.Slug) + "/"},
	}
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

// componentSentinel stands for the component's name when TemplateNames
// runs the template.
const componentSentinel = "LogoindexSentinelName"

// TemplateNames runs the component template of tmpl (nil: the embedded
// one) on a sample logo and returns the identifiers its code uses (React,
// Omit, Boolean, Art, ...), which no component may declare, and the names
// it declares from the component's name, as suffixes of it ("" for the
// component itself, "Props", "Variant"). Deriving both from the template
// keeps the rule right when the template changes.
func TemplateNames(tmpl fs.FS) (used map[string]bool, suffixes []string, err error) {
	if tmpl == nil {
		tmpl = templates.FS
	}
	t, err := parseComponentTemplate(tmpl)
	if err != nil {
		return nil, nil, err
	}
	sample := componentData{
		Slug: "sample", Name: "Sample", Component: componentSentinel, Page: "https://example.com/logos/sample/",
		// One variant with every optional part and one with none, so
		// that every branch of the template runs.
		Variants: []componentVariant{{
			Name: "icon", Source: "https://example.com/", License: "LicenseRef-Sample", LicenseURL: "https://example.com/license",
			ViaName: "sample-icons", ViaVersion: "1.0.0", ViaURL: "https://example.com/sample-icons",
			JSX: &svg.JSX{Attrs: `viewBox="0 0 24 24"`, Class: `"a"`, Style: `{ color: "red" }`, Body: `<path id={p + "a"} d="M0 0h24v24H0z" />`, Width: "1em", Height: "1em", UsesPrefix: true},
		}, {
			Name: "icon-mono", Source: "https://example.com/", License: "CC0-1.0",
			JSX: &svg.JSX{Attrs: `viewBox="0 0 24 24"`, Body: `<path d="M0 0h24v24H0z" />`, Width: "1em", Height: "1em"},
		}},
	}
	var src strings.Builder
	if err := t.Execute(&src, sample); err != nil {
		return nil, nil, fmt.Errorf("executing the component template: %w", err)
	}
	used = map[string]bool{}
	for id := range jsIdentifiers(src.String()) {
		if x, ok := strings.CutPrefix(id, componentSentinel); ok {
			suffixes = append(suffixes, x)
		} else {
			used[id] = true
		}
	}
	slices.Sort(suffixes)
	return used, suffixes, nil
}

// jsIdentifiers returns the identifiers in JS or TSX source, outside
// comments and string literals (but inside ${} of template literals). It
// is a scanner, not a parser: regular expressions and JSX text count as
// code, which can only add names.
func jsIdentifiers(src string) map[string]bool {
	ids := map[string]bool{}
	var open []int // for each ${ being read, the { opened inside it
	// literal skips the text of a template literal from i, returning after
	// its closing backtick or after a ${.
	literal := func(i int) int {
		for ; i < len(src); i++ {
			switch {
			case src[i] == '\\':
				i++
			case src[i] == '`':
				return i + 1
			case strings.HasPrefix(src[i:], "${"):
				open = append(open, 0)
				return i + 2
			}
		}
		return i
	}
	isStart := func(c byte) bool { return c == '_' || c == '$' || c|0x20 >= 'a' && c|0x20 <= 'z' }
	isPart := func(c byte) bool { return isStart(c) || c >= '0' && c <= '9' }
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case strings.HasPrefix(src[i:], "//"):
			i = endAt(src, i, "\n")
		case strings.HasPrefix(src[i:], "/*"):
			i = endAt(src, i+2, "*/")
		case c == '"' || c == '\'':
			for i++; i < len(src) && src[i] != c && src[i] != '\n'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
			i++
		case c == '`':
			i = literal(i + 1)
		case c == '{' && len(open) > 0:
			open[len(open)-1]++
			i++
		case c == '}' && len(open) > 0:
			if open[len(open)-1]--; open[len(open)-1] < 0 {
				open = open[:len(open)-1]
				i = literal(i + 1)
			} else {
				i++
			}
		case isStart(c) || c >= '0' && c <= '9':
			j := i + 1
			for j < len(src) && (isPart(src[j]) || src[j] == '.' && c <= '9') {
				j++
			}
			if isStart(c) {
				ids[src[i:j]] = true
			}
			i = j
		default:
			i++
		}
	}
	return ids
}

// endAt returns the index just past the first end in src at or after i,
// or len(src).
func endAt(src string, i int, end string) int {
	if j := strings.Index(src[i:], end); j >= 0 {
		return i + j + len(end)
	}
	return len(src)
}
