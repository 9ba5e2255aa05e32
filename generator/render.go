package generator

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"io/fs"
	"slices"
	"strings"

	"logoindex/templates"
)

// DefaultInstallTemplate is the install command of a logo that sets none.
// {base}, {slug} and {component} are replaced.
const DefaultInstallTemplate = "npx shadcn@latest add {base}/r/{slug}.json"

// OutFile is one file of the output tree.
type OutFile struct {
	Name string // slash-separated, relative to the output folder
	Data []byte
	// Logo is the slug of the logo the file belongs to, "" for the files
	// of the whole collection: it names the owners of two outputs that
	// would land on one path.
	Logo string
}

// RenderOptions says where the output will be served from.
type RenderOptions struct {
	// BaseURL is the URL dist/ is served at, without a trailing slash.
	// Empty gives root-relative URLs ("/logos/github/icon.svg").
	BaseURL string
	// InstallTemplate is the install command for logos that set none;
	// empty means DefaultInstallTemplate.
	InstallTemplate string
	// Templates holds the page and component templates; nil means the
	// ones embedded from the templates/ folder.
	Templates fs.FS

	cache        *Cache // set by Build from Options.Cache
	templateHash string // hash of Templates, set by Render when caching
}

// Index is dist/api/logos.json.
type Index struct {
	Categories []IndexCategory `json:"categories"`
	Logos      []IndexEntry    `json:"logos"`
}

// IndexCategory is a category with its logo count.
type IndexCategory struct {
	Slug  string `json:"slug"`
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// IndexEntry is one logo in the index: enough for a gallery card and
// search without fetching the detail.
type IndexEntry struct {
	Slug       string     `json:"slug"`
	Name       string     `json:"name"`
	Categories []string   `json:"categories"`
	Hex        string     `json:"hex"`
	Page       string     `json:"page"`
	SVG        VariantMap `json:"svg"`
	Aliases    []string   `json:"aliases,omitempty"`
}

// Detail is dist/api/logos/<slug>.json.
type Detail struct {
	Slug       string     `json:"slug"`
	Name       string     `json:"name"`
	Categories []string   `json:"categories"`
	Hex        string     `json:"hex"`
	Page       string     `json:"page"`
	SVG        VariantMap `json:"svg"`
	Component  string     `json:"component"`
	Install    string     `json:"install"`
	Files      FileMap    `json:"files"`
	Aliases    []string   `json:"aliases,omitempty"`
	Guidelines string     `json:"guidelines,omitempty"`
}

// VariantMap maps variant names to URLs. It marshals its keys in the order
// of Variants (icon first), not alphabetically.
type VariantMap map[string]string

// MarshalJSON writes the keys in the order of Variants.
func (m VariantMap) MarshalJSON() ([]byte, error) { return orderedJSON(m) }

// UnmarshalJSON reads any JSON object of strings.
func (m *VariantMap) UnmarshalJSON(b []byte) error {
	return json.Unmarshal(b, (*map[string]string)(m))
}

// FileMap maps variant names to their provenance, in the order of Variants.
type FileMap map[string]FileMeta

// MarshalJSON writes the keys in the order of Variants.
func (m FileMap) MarshalJSON() ([]byte, error) { return orderedJSON(m) }

// UnmarshalJSON reads any JSON object of file provenance.
func (m *FileMap) UnmarshalJSON(b []byte) error {
	return json.Unmarshal(b, (*map[string]FileMeta)(m))
}

func orderedJSON[V any](m map[string]V) ([]byte, error) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		ia, ib := slices.Index(Variants, a), slices.Index(Variants, b)
		if ia < 0 || ib < 0 || ia == ib {
			return strings.Compare(a, b)
		}
		return ia - ib
	})
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, err := marshal(k)
		if err != nil {
			return nil, err
		}
		vb, err := marshal(m[k])
		if err != nil {
			return nil, err
		}
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(vb)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// marshal is json.Marshal without HTML escaping: the files are JSON, not
// HTML, and "<" should read as "<".
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Render turns a collection whose variants are optimised into the files of
// the output tree, sorted by name. Its output depends only on its input:
// no time stamps, no map order.
func Render(ctx context.Context, col *Collection, opts RenderOptions) ([]OutFile, error) {
	base := strings.TrimRight(opts.BaseURL, "/")
	installTmpl := opts.InstallTemplate
	if installTmpl == "" {
		installTmpl = DefaultInstallTemplate
	}
	var files []OutFile
	add := func(name, slug string, v any) error {
		b, err := marshal(v)
		if err != nil {
			return err
		}
		files = append(files, OutFile{Name: name, Data: append(b, '\n'), Logo: slug})
		return nil
	}

	idx := Index{Categories: []IndexCategory{}, Logos: []IndexEntry{}}
	details := make([]Detail, 0, len(col.Logos)) // in the order of col.Logos
	for _, c := range col.Categories {
		idx.Categories = append(idx.Categories, IndexCategory{Slug: c.Slug, Name: c.Name, Count: c.Count})
	}
	for _, l := range col.Logos {
		page := base + "/logos/" + l.Slug + "/"
		svgs := VariantMap{}
		fileMeta := FileMap{}
		for _, v := range l.Variants {
			name := "logos/" + l.Slug + "/" + v.Variant + ".svg"
			svgs[v.Variant] = base + "/" + name
			fileMeta[v.Variant] = v.Meta
			files = append(files, OutFile{Name: name, Data: v.Optimised, Logo: l.Slug})
		}
		idx.Logos = append(idx.Logos, IndexEntry{
			Slug: l.Slug, Name: l.Name, Categories: l.Categories, Hex: l.Hex, Page: page, SVG: svgs, Aliases: l.Aliases,
		})
		install := l.Install
		if install == "" {
			install = strings.NewReplacer("{base}", base, "{slug}", l.Slug, "{component}", l.Component).Replace(installTmpl)
		}
		d := Detail{
			Slug: l.Slug, Name: l.Name, Categories: l.Categories, Hex: l.Hex, Page: page, SVG: svgs,
			Component: l.Component, Install: install, Files: fileMeta, Aliases: l.Aliases, Guidelines: l.Guidelines,
		}
		details = append(details, d)
		if err := add("api/logos/"+l.Slug+".json", l.Slug, d); err != nil {
			return nil, err
		}
	}
	if err := add("api/logos.json", "", idx); err != nil {
		return nil, err
	}
	tmpl := opts.Templates
	if tmpl == nil {
		tmpl = templates.FS
	}
	if opts.cache != nil {
		opts.templateHash = hashFS(tmpl)
	}
	site, err := renderSite(ctx, col, opts, tmpl, &idx, details)
	if err != nil {
		return nil, err
	}
	registry, err := renderRegistry(ctx, col, opts, tmpl)
	if err != nil {
		return nil, err
	}
	manifest, err := manifestFile(base)
	if err != nil {
		return nil, err
	}
	files = append(append(append(files, site...), registry...), manifest)
	slices.SortFunc(files, func(a, b OutFile) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.Logo, b.Logo))
	})
	return files, nil
}
