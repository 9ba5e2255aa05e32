package generator

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"io/fs"
	"math"
	"strings"
	texttemplate "text/template"

	"github.com/tdewolff/minify/v2"
	"github.com/tdewolff/minify/v2/css"
	"github.com/tdewolff/minify/v2/html"
	"github.com/tdewolff/minify/v2/js"
	"github.com/tdewolff/minify/v2/svg"

	"logoindex/internal/headers"
	"logoindex/templates"
)

// Names of the site templates in the templates folder. A custom template
// folder (RenderOptions.Templates) may hold any subset of them; the rest
// come from the embedded ones.
const (
	siteLayoutTmpl  = "site-layout.html.tmpl"
	siteGalleryTmpl = "site-gallery.html.tmpl"
	siteLogoTmpl    = "site-logo.html.tmpl"
	siteCSSTmpl     = "site.css.tmpl"
	siteJSTmpl      = "site.js.tmpl"
)

// pageData is what every page template gets.
type pageData struct {
	Title       string
	Description string
	Root        string           // the site root relative to the page: "" or "../../"
	CSS, JS     string           // asset paths relative to the site root
	Icon        htmltemplate.URL // favicon, relative to the page
	Page        string           // "gallery" or "logo": selects the script's behaviour
}

// galleryData is the data of site-gallery.html.tmpl.
type galleryData struct {
	pageData
	Total      int
	Categories []IndexCategory
	IndexURL   string // {base}/api/logos.json, shown to users
}

// logoData is the data of site-logo.html.tmpl.
type logoData struct {
	pageData
	Logo       Detail
	HasDark    bool // an icon-dark variant exists
	Categories []IndexCategory
	Variants   []variantView
	DetailURL  string // {base}/api/logos/<slug>.json
	Usage      string // a JSX snippet using the component
}

// variantView is one variant as the logo page shows it.
type variantView struct {
	Name       string // icon, icon-mono, ...
	Label      string // "Icon, one colour"
	Alt        string // "GitHub one-colour icon"
	Note       string
	File       string // relative to the logo page: "icon.svg"
	URL        string // {base}/logos/<slug>/icon.svg
	Download   string // file name offered on download: "github-icon.svg"
	Width      int    // intrinsic size from the viewBox, for layout
	Height     int
	Mono       bool // paints with currentColor
	Source     string
	License    string
	LicenseURL string
}

// variantText is each variant's heading, its name in alt text, and a note.
var variantText = map[string][3]string{
	"icon":          {"Icon", "icon", "The brand's icon in its own colours, for light backgrounds."},
	"icon-mono":     {"Icon, one colour", "one-colour icon", "Paints with currentColor, so it takes the colour of the text around it (shown here in black and white)."},
	"icon-dark":     {"Icon for dark backgrounds", "icon for dark backgrounds", "The icon recoloured to stay visible on dark backgrounds."},
	"wordmark":      {"Wordmark", "wordmark", "The brand's name as it sets it, for light backgrounds."},
	"wordmark-dark": {"Wordmark for dark backgrounds", "wordmark for dark backgrounds", "The wordmark recoloured to stay visible on dark backgrounds."},
}

// renderSite renders the HTML pages and CDN files of the site from the
// templates in tmpl (issue 4: gallery, logo pages, _headers). details[i] is
// the detail JSON of col.Logos[i].
func renderSite(col *Collection, opts RenderOptions, tmpl fs.FS, idx *Index, details []Detail) ([]OutFile, error) {
	if len(details) != len(col.Logos) {
		return nil, fmt.Errorf("internal error: %d details for %d logos", len(details), len(col.Logos))
	}
	base := strings.TrimRight(opts.BaseURL, "/")
	m := newSiteMinifier()
	var files []OutFile

	// Assets first: the pages name them by content hash.
	assetData := map[string]any{
		"IndexMaxAge": headers.IndexMaxAge,
	}
	cssName, cssFile, err := renderAsset(tmpl, m, siteCSSTmpl, "text/css", "css", assetData)
	if err != nil {
		return nil, err
	}
	jsName, jsFile, err := renderAsset(tmpl, m, siteJSTmpl, "text/javascript", "js", assetData)
	if err != nil {
		return nil, err
	}
	files = append(files, cssFile, jsFile)

	pages, err := parsePages(tmpl)
	if err != nil {
		return nil, err
	}
	// page renders and minifies one page. It runs on several goroutines:
	// templates and the minifier are safe for concurrent use.
	page := func(name, tmplName string, data any) (OutFile, error) {
		var buf bytes.Buffer
		if err := pages.ExecuteTemplate(&buf, tmplName, data); err != nil {
			return OutFile{}, fmt.Errorf("rendering %s: %w", name, err)
		}
		var out bytes.Buffer
		if err := m.Minify("text/html", &out, &buf); err != nil {
			return OutFile{}, fmt.Errorf("minifying %s: %w", name, err)
		}
		return OutFile{Name: name, Data: out.Bytes()}, nil
	}

	catBySlug := map[string]IndexCategory{}
	for _, c := range idx.Categories {
		catBySlug[c.Slug] = c
	}
	gallery, err := page("index.html", siteGalleryTmpl, galleryData{
		pageData: pageData{
			Title:       "Logo index",
			Description: fmt.Sprintf("%d brand %s as optimised SVG files, with a static JSON API.", len(idx.Logos), plural(len(idx.Logos), "logo", "logos")),
			CSS:         cssName, JS: jsName, Icon: "data:,", Page: "gallery",
		},
		Total:      len(idx.Logos),
		Categories: idx.Categories,
		IndexURL:   base + "/api/logos.json",
	})
	if err != nil {
		return nil, err
	}
	files = append(files, gallery)

	// Logo pages in parallel: a 5,000-logo build renders 5,000 of them.
	logoPages := make([]OutFile, len(col.Logos))
	errs := make([]error, len(col.Logos))
	parallel(context.Background(), len(col.Logos), 0, func(i int) {
		l, d := col.Logos[i], details[i]
		data := logoData{
			pageData: pageData{
				Title:       d.Name + " logo · Logo index",
				Description: fmt.Sprintf("%s logo: %d SVG %s with source and licence, and the %s component.", d.Name, len(l.Variants), plural(len(l.Variants), "variant", "variants"), d.Component),
				Root:        "../../",
				CSS:         cssName, JS: jsName, Icon: "icon.svg", Page: "logo",
			},
			Logo:      d,
			HasDark:   l.Variant("icon-dark") != nil,
			DetailURL: base + "/api/logos/" + l.Slug + ".json",
			Usage:     "<" + d.Component + " />",
		}
		for _, c := range d.Categories {
			if cat, ok := catBySlug[c]; ok {
				data.Categories = append(data.Categories, cat)
			} else {
				data.Categories = append(data.Categories, IndexCategory{Slug: c, Name: c})
			}
		}
		for _, v := range l.Variants {
			data.Variants = append(data.Variants, newVariantView(l, v, d))
		}
		name := "logos/" + l.Slug + "/index.html"
		catKey, _ := json.Marshal(data.Categories)
		key := renderKey(l.key, "page", base, opts.InstallTemplate, cssName, jsName, opts.templateHash, string(catKey))
		b, err := opts.cache.render(key, func() ([]byte, error) {
			f, err := page(name, siteLogoTmpl, data)
			return f.Data, err
		})
		logoPages[i], errs[i] = OutFile{Name: name, Data: b}, err
	})
	for _, err := range errs {
		if err != nil {
			return nil, err // the first is enough: a template error repeats on every page
		}
	}
	files = append(files, logoPages...)

	files = append(files, OutFile{Name: "_headers", Data: headers.Site.File()})
	return files, nil
}

func newVariantView(l *Logo, v *VariantFile, d Detail) variantView {
	text, ok := variantText[v.Variant]
	if !ok {
		text = [3]string{v.Variant, v.Variant, ""}
	}
	vv := variantView{
		Name:     v.Variant,
		Label:    text[0],
		Alt:      l.Name + " " + text[1],
		Note:     text[2],
		File:     v.Variant + ".svg",
		URL:      d.SVG[v.Variant],
		Download: l.Slug + "-" + v.Variant + ".svg",
		Mono:     v.Variant == "icon-mono",
		Source:   v.Meta.Source,
		License:  v.Meta.License,
	}
	vv.LicenseURL = v.Meta.LicenseURL
	if vv.LicenseURL == "" && !strings.HasPrefix(v.Meta.License, "LicenseRef-") {
		vv.LicenseURL = "https://spdx.org/licenses/" + v.Meta.License + ".html"
	}
	// Intrinsic size at a height of 64 CSS pixels, so the browser reserves
	// the right box before the file arrives.
	vv.Width, vv.Height = 64, 64
	if v.Info != nil && v.Info.ViewBox[2] > 0 && v.Info.ViewBox[3] > 0 {
		w := math.Round(64 * v.Info.ViewBox[2] / v.Info.ViewBox[3])
		vv.Width = int(min(max(w, 1), 4096))
	}
	return vv
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// newSiteMinifier returns the minifier of the site's HTML, CSS and JS.
func newSiteMinifier() *minify.M {
	m := minify.New()
	m.Add("text/html", &html.Minifier{KeepDocumentTags: true})
	m.AddFunc("text/css", css.Minify)
	m.AddFunc("text/javascript", js.Minify)
	m.AddFunc("image/svg+xml", svg.Minify) // inline SVG in the pages
	return m
}

// renderAsset executes a CSS or JS template, minifies it and names it
// assets/site.<hash>.<ext> after its content.
func renderAsset(tmpl fs.FS, m *minify.M, name, mediatype, ext string, data any) (string, OutFile, error) {
	src, err := readTemplate(tmpl, name)
	if err != nil {
		return "", OutFile{}, err
	}
	t, err := texttemplate.New(name).Option("missingkey=error").Parse(string(src))
	if err != nil {
		return "", OutFile{}, fmt.Errorf("templates: %w", err)
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		return "", OutFile{}, fmt.Errorf("templates: %w", err)
	}
	var out bytes.Buffer
	if err := m.Minify(mediatype, &out, &buf); err != nil {
		return "", OutFile{}, fmt.Errorf("minifying %s: %w", name, err)
	}
	sum := sha256.Sum256(out.Bytes())
	file := "assets/site." + hex.EncodeToString(sum[:5]) + "." + ext
	return file, OutFile{Name: file, Data: out.Bytes()}, nil
}

// parsePages parses the layout and the two page templates into one set.
func parsePages(tmpl fs.FS) (*htmltemplate.Template, error) {
	set := htmltemplate.New("site").Option("missingkey=error")
	for _, name := range []string{siteLayoutTmpl, siteGalleryTmpl, siteLogoTmpl} {
		src, err := readTemplate(tmpl, name)
		if err != nil {
			return nil, err
		}
		if _, err := set.New(name).Parse(string(src)); err != nil {
			return nil, fmt.Errorf("templates: %w", err)
		}
	}
	return set, nil
}

// readTemplate reads name from tmpl, or from the embedded templates when
// tmpl lacks it, so a custom folder need only hold the files it changes.
func readTemplate(tmpl fs.FS, name string) ([]byte, error) {
	b, err := fs.ReadFile(tmpl, name)
	if errors.Is(err, fs.ErrNotExist) && tmpl != fs.FS(templates.FS) {
		b, err = fs.ReadFile(templates.FS, name)
	}
	if err != nil {
		return nil, fmt.Errorf("templates: reading %s: %w", name, err)
	}
	return b, nil
}
