// Package render makes the files of the output tree from checked logos:
// the JSON of the API, the site's pages and assets, and the shadcn
// registry. A logo's own files come from the logo (LogoFiles); the files
// of the whole collection from a short summary of each logo
// (CollectionFiles), so that a build need not keep its logos. Its output
// depends only on its input: no time stamps, no map order.
package render

import (
	"errors"
	"io"
	"io/fs"
	"slices"
	"strings"
	"sync"

	"logoindex/generator/check"
	"logoindex/generator/manifest"
	"logoindex/generator/problem"
	"logoindex/generator/source"
	"logoindex/templates"
)

// DefaultInstallTemplate is the install command of a logo that sets none.
// {base}, {slug} and {component} are replaced.
const DefaultInstallTemplate = "npx shadcn@latest add {base}/r/{slug}.json"

// File is one file of the output tree.
type File struct {
	Name string // slash-separated, relative to the output folder
	Data []byte
	// Logo is the slug of the logo the file belongs to, "" for the files
	// of the whole collection: it names the owners of two outputs that
	// would land on one path.
	Logo string
}

// Options says where the output will be served from.
type Options struct {
	// BaseURL is the URL dist/ is served at, without a trailing slash.
	// Empty gives root-relative URLs ("/logos/github/icon.svg").
	BaseURL string
	// InstallTemplate is the install command for logos that set none;
	// empty means DefaultInstallTemplate.
	InstallTemplate string
	// Templates holds the page and component templates; nil means the
	// ones embedded from the templates/ folder.
	Templates fs.FS

	// Logos are the patterns of a partial build, for the build manifest.
	Logos []string
}

// Summary is what the files of the whole collection need of a logo
// (the index, the gallery, the registry index, the sitemap) and what the
// checks across logos read. A streamed build keeps this, not the logo, for
// every logo, and its cache stores it.
type Summary struct {
	Slug, Name, Hex     string
	Categories, Aliases []string
	Component           string
	ComponentAt         problem.Pos // zero when Component is the default
	MetaPath            string
	Variants            []string // the variants it has, in the order of Variants
	DarkIcon            bool     // it has icon-dark.svg
	IconOnDark          bool     // its icon reads on a dark page (readsOnDark)
}

// Summarize returns what the collection's files need of l.
func Summarize(l *check.Logo) *Summary {
	s := &Summary{
		Slug: l.Slug, Name: l.Name, Hex: l.Hex, Categories: l.Categories, Aliases: l.Aliases,
		Component: l.Component, ComponentAt: l.ComponentAt, MetaPath: l.MetaPath,
		DarkIcon: l.Variant("icon-dark") != nil, IconOnDark: readsOnDark(l.Variant("icon")),
	}
	names := make([]string, len(l.Variants))
	for i, v := range l.Variants {
		names[i] = v.Name
	}
	s.Variants = sharedVariants(names)
	return s
}

// variantLists holds one copy of each list of variant names a build has
// seen, which no one changes: a collection has a handful of them, and a
// list for each logo's summary would add up in a large collection.
var variantLists sync.Map // the names joined by spaces -> []string

// sharedVariants returns the shared copy of names, when they are known
// variants (a cache file could hold others: they are not kept).
func sharedVariants(names []string) []string {
	for _, n := range names {
		if !slices.Contains(source.Variants, n) {
			return names
		}
	}
	key := strings.Join(names, " ")
	if v, ok := variantLists.Load(key); ok {
		return v.([]string)
	}
	kept := make([]string, len(names)) // not pointing into a cache file's bytes
	for i, n := range names {
		kept[i] = strings.Clone(n)
	}
	v, _ := variantLists.LoadOrStore(strings.Clone(key), kept) // Join may return names[0]
	return v.([]string)
}

// Renderer renders the files of a build: the API's JSON itself, the pages
// through the site's Renderer (site.go) and the registry's files through
// the registry's (registry.go). It is safe for concurrent use.
type Renderer struct {
	base        string // without a trailing slash
	installTmpl string
	tmpl        fs.FS
	logos       []string // Options.Logos, for the manifest
	site        *siteRenderer
	assets      []File // stylesheet, script, favicon
	registry    *registryRenderer
}

// New returns a Renderer for opts, with its templates parsed.
func New(opts Options) (*Renderer, error) {
	r := &Renderer{base: strings.TrimRight(opts.BaseURL, "/"), installTmpl: opts.InstallTemplate, tmpl: opts.Templates, logos: opts.Logos}
	if r.installTmpl == "" {
		r.installTmpl = DefaultInstallTemplate
	}
	if r.tmpl == nil {
		r.tmpl = templates.FS
	}
	var err error
	if r.site, r.assets, err = newSiteRenderer(r.base, r.tmpl); err != nil {
		return nil, err
	}
	if r.registry, err = newRegistryRenderer(r.base, r.tmpl); err != nil {
		return nil, err
	}
	return r, nil
}

// logoDir is the folder of a logo's SVGs and page in the output tree; its
// other files are in folders shared by every logo (api/logos, r).
func logoDir(slug string) string { return "logos/" + slug }

// card is what the index and the detail both say of a logo, whose
// variants are the names of those it has.
func (r *Renderer) card(slug, name, hex string, categories, variants []string) LogoCard {
	urls := VariantURLs{}
	for _, v := range variants {
		urls[v] = r.base + "/" + logoDir(slug) + "/" + v + ".svg"
	}
	return LogoCard{Slug: slug, Name: name, Categories: categories, Hex: hex, Page: r.base + "/" + logoDir(slug) + "/", SVG: urls}
}

// detailJSON returns d as marshal writes it (TestDetailJSON and
// FuzzDetailJSON hold the two equal), by hand as indexEntry writes an
// entry of the index, as encoding/json is slow here, mostly in checking
// and compacting what VariantURLs and VariantFiles marshal. It reports
// false, for marshal, when a map has a key that is not a variant.
func detailJSON(d *LogoDetail) ([]byte, bool) {
	if !onlyVariants(d.SVG) || !onlyVariants(d.Files) {
		return nil, false
	}
	enc := newJSONEncoder("", "")
	b := appendCardStart(make([]byte, 0, 1024), d.Slug, d.Name, d.Categories, d.Hex, enc)
	b = append(b, `,"page":`...)
	b = appendJSONString(b, d.Page, enc)
	b = append(b, `,"svg":`...)
	b = appendVariantMap(b, d.SVG, enc, func(b []byte, u string) []byte { return appendJSONString(b, u, enc) })
	b = append(b, `,"component":`...)
	b = appendJSONString(b, d.Component, enc)
	b = append(b, `,"install":`...)
	b = appendJSONString(b, d.Install, enc)
	b = append(b, `,"files":`...)
	b = appendVariantMap(b, d.Files, enc, func(b []byte, m source.FileMeta) []byte {
		b = append(b, `{"source":`...)
		b = appendJSONString(b, m.Source, enc)
		b = append(b, `,"license":`...)
		b = appendJSONString(b, m.License, enc)
		if m.LicenseURL != "" {
			b = append(b, `,"license_url":`...)
			b = appendJSONString(b, m.LicenseURL, enc)
		}
		if m.Via != nil {
			b = append(b, `,"via":{"name":`...)
			b = appendJSONString(b, m.Via.Name, enc)
			b = append(b, `,"version":`...)
			b = appendJSONString(b, m.Via.Version, enc)
			b = append(b, `,"url":`...)
			b = appendJSONString(b, m.Via.URL, enc)
			b = append(b, '}')
		}
		return append(b, '}')
	})
	if len(d.Aliases) > 0 {
		b = append(b, `,"aliases":`...)
		b = appendJSONStrings(b, d.Aliases, enc)
	}
	if d.Guidelines != "" {
		b = append(b, `,"guidelines":`...)
		b = appendJSONString(b, d.Guidelines, enc)
	}
	return append(b, '}'), true
}

// appendCardStart appends a LogoCard's JSON up to its page: the object's
// brace and its first four fields.
func appendCardStart(b []byte, slug, name string, categories []string, hex string, enc *jsonEncoder) []byte {
	b = append(b, `{"slug":`...)
	b = appendJSONString(b, slug, enc)
	b = append(b, `,"name":`...)
	b = appendJSONString(b, name, enc)
	b = append(b, `,"categories":`...)
	b = appendJSONStrings(b, categories, enc)
	b = append(b, `,"hex":`...)
	return appendJSONString(b, hex, enc)
}

// appendVariantMap appends m, whose keys are variants, as orderedJSON
// writes it, each value by value.
func appendVariantMap[V any](b []byte, m map[string]V, enc *jsonEncoder, value func([]byte, V) []byte) []byte {
	b = append(b, '{')
	first := true
	for _, v := range source.Variants {
		if x, ok := m[v]; ok {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = appendJSONString(b, v, enc)
			b = append(b, ':')
			b = value(b, x)
		}
	}
	return append(b, '}')
}

// onlyVariants reports whether every key of m is a variant's name.
func onlyVariants[V any](m map[string]V) bool {
	n := 0
	for _, v := range source.Variants {
		if _, ok := m[v]; ok {
			n++
		}
	}
	return n == len(m)
}

// entryWriter writes the entries of the index (indexEntry) and of the
// registry index (registryEntry, registry.go) by hand, one buffer for all.
type entryWriter struct {
	base         string // the Renderer's
	enc          *jsonEncoder
	buf, scratch []byte
}

func newEntryWriter(base string) *entryWriter {
	return &entryWriter{base: base, enc: newJSONEncoder("", "")}
}

// indexEntry returns the index's entry for l as encoding/json writes IndexLogo
// (TestIndexWriter and FuzzIndexWriter hold the two equal), without the
// map of URLs, the reflection and the copies through
// VariantURLs.MarshalJSON, whose allocations and faults on new memory
// would be most of the time the index takes. Strings with anything
// but printable ASCII go through encoding/json itself. The entry is good
// until the next call. It reports false for a logo it leaves to
// encoding/json: variants that are not distinct known ones (a list a
// cache file could hold).
func (w *entryWriter) indexEntry(l *Summary) (preEncoded, bool) {
	b, enc := w.buf[:0], w.enc
	known := 0
	for _, v := range source.Variants {
		if slices.Contains(l.Variants, v) {
			known++
		}
	}
	if known != len(l.Variants) {
		return nil, false
	}
	b = appendCardStart(b, l.Slug, l.Name, l.Categories, l.Hex, enc)
	dir := append(append(append(w.scratch[:0], w.base...), '/'), logoDir(l.Slug)...)
	b = append(b, `,"page":`...)
	b = appendJSONString(b, append(dir, '/'), enc)
	b = append(b, `,"svg":{`...)
	first := true
	for _, v := range source.Variants {
		if !slices.Contains(l.Variants, v) {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendJSONString(b, v, enc)
		b = append(b, ':')
		b = appendJSONString(b, append(append(append(dir, '/'), v...), ".svg"...), enc)
	}
	b = append(b, '}')
	if len(l.Aliases) > 0 {
		b = append(b, `,"aliases":`...)
		b = appendJSONStrings(b, l.Aliases, enc)
	}
	w.scratch = dir[:0]
	w.buf = append(b, '}')
	return w.buf, true
}

// LogoFiles renders the files of one logo: its SVGs, its detail JSON, its
// page and its registry item. cats maps category slugs to names.
func (r *Renderer) LogoFiles(l *check.Logo, cats map[string]string) ([]File, error) {
	var files []File
	fileMeta := VariantFiles{}
	var names []string
	for _, v := range l.Variants {
		files = append(files, File{Name: logoDir(l.Slug) + "/" + v.Name + ".svg", Data: v.Optimised, Logo: l.Slug})
		fileMeta[v.Name] = v.Meta
		names = append(names, v.Name)
	}
	install := l.Install
	if install == "" {
		install = strings.NewReplacer("{base}", r.base, "{slug}", l.Slug, "{component}", l.Component).Replace(r.installTmpl)
	}
	d := LogoDetail{
		LogoCard:  r.card(l.Slug, l.Name, l.Hex, l.Categories, names),
		Component: l.Component, Install: install, Files: fileMeta, Aliases: l.Aliases, Guidelines: l.Guidelines,
	}
	b, ok := detailJSON(&d)
	if !ok {
		var err error
		if b, err = marshal(d); err != nil {
			return nil, err
		}
	}
	files = append(files, File{Name: "api/logos/" + l.Slug + ".json", Data: append(b, '\n'), Logo: l.Slug})
	page, err := r.site.logoPage(l, d, cats)
	if err != nil {
		return nil, err
	}
	files = append(files, page)
	item, err := r.registry.item(l)
	if err != nil {
		return nil, err
	}
	return append(files, item), nil
}

// Collection is what the files of the whole collection are made of: its
// categories with their counts, a summary of each logo, and the logos
// removed.yaml lists.
type Collection struct {
	Categories []CategoryCount
	Logos      *Summaries
	Removed    []Removed
	// Static names the files copied from the source's _static/ folder,
	// which the build manifest lists.
	Static []string
}

// CollectionFiles renders the files of the whole collection from the
// summaries of its logos, in slug order: the index, the registry index,
// the gallery and the other files of the site, and the build manifest. It
// hands each to emit as a function that writes it, and keeps none: for a
// large collection these files are tens of megabytes each, and a streamed
// build writes each as it is made, without holding it whole. The files of
// every logo (the gallery, the index, the registry's index, the sitemaps)
// are made each on a goroutine of its own, because one after another they
// would be a large part of a rebuild after a name edit.
// emit must be safe for concurrent use, and the order of its calls is not
// fixed.
func (r *Renderer) CollectionFiles(c Collection, emit func(name string, write func(io.Writer) error) error) error {
	cats, logos := c.Categories, c.Logos
	counts := indexCategories(cats)
	index := func(w io.Writer) error {
		idx := Index{Categories: counts, Logos: []IndexLogo{}}
		for i := range c.Removed {
			idx.Removed = append(idx.Removed, r.tombstone(&c.Removed[i]))
		}
		ew := newEntryWriter(r.base)
		return writeJSONList(w, idx, func(yield func(any) error) error {
			return logos.each(func(l *Summary) error {
				if item, ok := ew.indexEntry(l); ok {
					return yield(item)
				}
				return yield(IndexLogo{LogoCard: r.card(l.Slug, l.Name, l.Hex, l.Categories, l.Variants), Aliases: l.Aliases})
			})
		}, "")
	}
	jobs := []func() error{
		func() error {
			return emit(galleryFile, func(w io.Writer) error { return r.site.galleryTo(w, counts, logos) })
		},
		func() error {
			return emit("r/registry.json", func(w io.Writer) error { return r.registry.index(w, logos) })
		},
		func() error { return emit("api/logos.json", index) },
		func() error { return r.site.otherPages(logos, emit) },
		func() error { return r.removedFiles(c.Removed, emit) },
		func() error {
			data, err := manifest.Encode(manifest.Manifest{BaseURL: r.base, Logos: r.logos, Static: c.Static})
			if err != nil {
				return err
			}
			return emitAll(append(slices.Clip(r.assets), File{Name: manifest.File, Data: data}), emit)
		},
	}
	errs := make([]error, len(jobs))
	var wg sync.WaitGroup
	for i, job := range jobs[1:] {
		wg.Go(func() { errs[i+1] = job() })
	}
	errs[0] = jobs[0]()
	wg.Wait()
	return errors.Join(errs...)
}

// emitAll hands files to emit, as CollectionFiles does its own.
func emitAll(files []File, emit func(name string, write func(io.Writer) error) error) error {
	for _, f := range files {
		write := func(w io.Writer) error {
			_, err := w.Write(f.Data)
			return err
		}
		if err := emit(f.Name, write); err != nil {
			return err
		}
	}
	return nil
}

func indexCategories(cats []CategoryCount) []IndexCategory {
	out := []IndexCategory{}
	for _, c := range cats {
		out = append(out, IndexCategory{Slug: c.Slug, Name: c.Name, Count: c.Count})
	}
	return out
}

// Base is the URL the tree is built for, without a trailing slash.
func (r *Renderer) Base() string { return r.base }

// InstallTemplate is the install command of logos that set none.
func (r *Renderer) InstallTemplate() string { return r.installTmpl }
