package render

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"io"
	"io/fs"
	"iter"
	"math"
	"net"
	"net/url"
	"strconv"
	"strings"
	texttemplate "text/template"

	"github.com/tdewolff/minify/v2"

	"logoindex/generator/check"
	"logoindex/generator/internal/minifiers"
	"logoindex/generator/svg"
	"logoindex/internal/headers"
	"logoindex/templates"
)

// Names of the site templates in the templates folder. A custom template
// folder (Options.Templates) may hold any subset of them; the rest
// come from the embedded ones.
const (
	siteLayoutTmpl   = "site-layout.html.tmpl"
	siteGalleryTmpl  = "site-gallery.html.tmpl"
	siteLogoTmpl     = "site-logo.html.tmpl"
	siteNotFoundTmpl = "site-404.html.tmpl"
	siteRemovedTmpl  = "site-removed.html.tmpl"
	siteCSSTmpl      = "site.css.tmpl"
	siteJSTmpl       = "site.js.tmpl"
	siteFaviconTmpl  = "site-favicon.svg.tmpl"
)

// Files of the site besides the pages of the logos, at the top of the
// tree: logos live under logos/<slug>/, so no slug can take these names.
const (
	faviconFile  = "favicon.svg"
	notFoundFile = "404.html" // the name Netlify and Cloudflare Pages serve for a missing path
	sitemapFile  = "sitemap.xml"
	// sitemapMaxURLs is the sitemap protocol's limit per file; more
	// logos than that get sitemap-1.xml, sitemap-2.xml... and sitemap.xml
	// becomes their index.
	sitemapMaxURLs = 50000
)

// pageData is what every page template gets.
type pageData struct {
	Title       string
	Description string
	// Root is the site root relative to the page: "" on the gallery,
	// "../../" on a logo page; on the 404 page, which is served at any
	// path, the root-relative path of the base URL ("/" or "/logos/").
	Root    string `skeleton:"literal"`
	CSS, JS string `skeleton:"literal"` // asset paths relative to the site root
	Icon    string `skeleton:"literal"` // favicon, relative to the page
	Page    string `skeleton:"literal"` // "gallery", "logo" or "404": selects the script's behaviour

	// Link previews (Open Graph, Twitter cards). URL and Image are
	// absolute, so they are set only when the base URL is public (see
	// publicBase); a preview of a relative or local URL shows nothing.
	URL      string // the canonical URL of the page
	Image    string // og:image: the logo's icon.svg (see docs/site.md, "Link previews")
	ImageAlt string
	// Refresh sends the browser on to another page (a meta refresh): the
	// page of a removed logo to its replacement's.
	Refresh string
}

// galleryData is the data of site-gallery.html.tmpl.
type galleryData struct {
	pageData
	Total      int
	Categories []IndexCategory
	// Cards gives each logo's card as the template ranges over it, so
	// that a large collection's cards are never all in memory.
	Cards    iter.Seq[cardView]
	IndexURL string // {base}/api/logos.json, shown to users
}

// cardView is one logo in the gallery: a link to its page, rendered at
// build time so the gallery works without the script.
type cardView struct {
	Slug, Name, Hex string
	Categories      string // slugs, space-separated: the script filters on them
	Aliases         string // aliases, one a line: the script searches them too
	Tile            tileView
}

// tileView is how an icon is shown on the page's background in both
// themes: Icon on light; on dark, Dark (icon-dark.svg) when the logo has
// it, else Icon when it reads there, else Icon on a light plate.
type tileView struct {
	Icon, Dark string // relative to the page
	Plate      bool
}

// logoData is the data of site-logo.html.tmpl.
type logoData struct {
	pageData
	Logo       logoView
	Tile       tileView
	Swatch     swatchView
	Categories []categoryLink
	Variants   []variantView
	DetailURL  string // {base}/api/logos/<slug>.json
	Usage      string // a JSX snippet using the component
}

// logoView is what a logo page shows of the logo's detail.
type logoView struct {
	Slug, Name, Page   string
	Component, Install string
	Guidelines         string
	Aliases            []string
}

// categoryLink is a category as a logo page links it. It has no count: a
// logo's page does not change when other logos join its categories.
type categoryLink struct {
	Slug, Name string
}

// swatchView is the brand colour drawn as a chip with its hex on it, in
// black or white, whichever reads better: a dark colour on a dark page
// still shows as a colour, not as an empty box.
type swatchView struct {
	Hex, Text string
}

// variantView is one variant as the logo page shows it.
type variantView struct {
	Name     string `skeleton:"literal"` // icon, icon-mono, ...
	Label    string `skeleton:"literal"` // "Icon, one colour"
	Alt      string // "GitHub one-colour icon"
	Note     string `skeleton:"literal"`
	File     string // relative to the logo page: "icon.svg"
	URL      string // {base}/logos/<slug>/icon.svg
	Download string // file name offered on download: "github-icon.svg"
	Width    string // intrinsic size from the viewBox, for layout
	Height   string
	Mono     bool // paints with currentColor
	// OnLight and OnDark say on which backgrounds the page shows it:
	// each variant on the one it is meant for (see backgrounds).
	OnLight, OnDark bool
	Source          string
	License         string
	LicenseURL      string
	// Via is the distribution the file was taken from: its name and
	// version, and its URL; all three empty when the file has none.
	ViaName, ViaVersion, ViaURL string
}

// variantText is each variant's heading, its name in alt text, and a note.
var variantText = map[string][3]string{
	"icon":          {"Icon", "icon", "The brand's icon in its own colours, for light backgrounds."},
	"icon-mono":     {"Icon, one colour", "one-colour icon", "Paints with currentColor, so it takes the colour of the text around it (shown here in black and white)."},
	"icon-dark":     {"Icon for dark backgrounds", "icon for dark backgrounds", "The icon recoloured to stay visible on dark backgrounds."},
	"wordmark":      {"Wordmark", "wordmark", "The brand's name as it sets it, for light backgrounds."},
	"wordmark-dark": {"Wordmark for dark backgrounds", "wordmark for dark backgrounds", "The wordmark recoloured to stay visible on dark backgrounds."},
}

// backgrounds says where a variant is shown: the -dark variants on dark
// only; icon-mono on both (it takes the colour of the text, black or
// white); the others on light, and on dark too when they read there.
func backgrounds(v *check.Variant) (light, dark bool) {
	switch v.Name {
	case "icon-dark", "wordmark-dark":
		return false, true
	case "icon-mono":
		return true, true
	}
	return true, readsOnDark(v)
}

// readsOnDark reports whether every colour the file paints passes the
// contrast rule of the dark-readability warnings (check.MinDarkContrast against
// check.DarkBackground). A file whose colours the checker could not read (only
// gradients, or currentColor, which is black in an <img>) does not.
func readsOnDark(v *check.Variant) bool {
	if v == nil || v.Info == nil || len(v.Info.Paints) == 0 {
		return false
	}
	for _, p := range v.Info.Paints {
		if check.Contrast(p.Colour, check.DarkBackground) < check.MinDarkContrast {
			return false
		}
	}
	return true
}

// newTile says how to show a logo's icon on both backgrounds; prefix is
// the path of the logo's folder relative to the page.
func newTile(l *Summary, prefix string) tileView {
	t := tileView{Icon: prefix + "icon.svg"}
	switch {
	case l.DarkIcon:
		t.Dark = prefix + "icon-dark.svg"
	case !l.IconOnDark:
		t.Plate = true
	}
	return t
}

// newSwatch picks the text colour of the brand colour's chip.
func newSwatch(hex string) swatchView {
	sw := swatchView{Hex: hex, Text: "#000000"}
	if c, ok := svg.ParseColour(hex); ok && check.Contrast(c, svg.RGB{R: 255, G: 255, B: 255}) > check.Contrast(c, svg.RGB{}) {
		sw.Text = "#FFFFFF"
	}
	return sw
}

// publicBase reports whether base is an absolute URL others can reach:
// not empty or root-relative, not localhost or a loopback address. Only
// such a base goes into a sitemap and link previews: a crawler or a chat
// app cannot fetch http://localhost:8080, and a sitemap that names it
// would be wrong the day the tree is deployed.
func publicBase(base string) bool {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	host := strings.ToLower(u.Hostname())
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return false
	}
	if ip := net.ParseIP(host); ip != nil && (ip.IsLoopback() || ip.IsUnspecified()) {
		return false
	}
	return true
}

// basePath is the path of base, with a trailing slash: "/" for an empty or
// host-only base, "/logos/" for https://cdn.example/logos.
func basePath(base string) string {
	p := base
	if u, err := url.Parse(base); err == nil && u.Host != "" {
		p = u.Path
	}
	return strings.TrimRight(p, "/") + "/"
}

// siteRenderer renders the pages of the site: the parsed templates, the
// minifier and the names of the assets the pages load.
type siteRenderer struct {
	pages   *htmltemplate.Template
	m       *minify.M
	base    string // without a trailing slash
	public  bool   // publicBase(base)
	css, js string

	// pieces: the gallery is minified a card boundary at a time
	// (galleryTo), which is sound for the embedded templates only.
	pieces bool

	// The skeletons of the logo pages and of the gallery's cards, with
	// the embedded templates (skeleton.go).
	logoPages, cards *skeletonSet
}

// logoRoot is the site root relative to a logo page.
const logoRoot = "../../"

// newSiteRenderer parses the page templates and renders the files every
// page loads (stylesheet, script, favicon), which it returns.
func newSiteRenderer(base string, tmpl fs.FS) (*siteRenderer, []File, error) {
	r := &siteRenderer{m: minifiers.New(), base: strings.TrimRight(base, "/")}
	r.pieces = tmpl == fs.FS(templates.FS)
	r.public = publicBase(r.base)
	// Assets first: the pages name them by content hash.
	css, cssFile, err := renderAsset(tmpl, r.m, siteCSSTmpl, "text/css", "css", map[string]any{})
	if err != nil {
		return nil, nil, err
	}
	js, jsFile, err := renderAsset(tmpl, r.m, siteJSTmpl, "text/javascript", "js", map[string]any{})
	if err != nil {
		return nil, nil, err
	}
	r.css, r.js = css, js
	favicon, err := readTemplate(tmpl, siteFaviconTmpl)
	if err != nil {
		return nil, nil, err
	}
	var icon bytes.Buffer
	if err := r.m.Minify("image/svg+xml", &icon, bytes.NewReader(favicon)); err != nil {
		return nil, nil, fmt.Errorf("minifying %s: %w", siteFaviconTmpl, err)
	}
	if r.pages, err = parsePages(tmpl); err != nil {
		return nil, nil, err
	}
	// The skeletons are made by a copy of the templates whose wrapURL marks
	// the values it is given (markingWrapURL).
	marking, err := r.pages.Clone()
	if err != nil {
		return nil, nil, err
	}
	marking.Funcs(htmltemplate.FuncMap{"wrapURL": markingWrapURL})
	r.logoPages = htmlSkeletons(r.m, func(w io.Writer, data any) error { return marking.ExecuteTemplate(w, siteLogoTmpl, data) })
	r.cards = htmlSkeletons(r.m, func(w io.Writer, data any) error { return marking.ExecuteTemplate(w, "card", data) })
	return r, []File{cssFile, jsFile, {Name: faviconFile, Data: icon.Bytes()}}, nil
}

// page renders and minifies one page. It runs on several goroutines:
// templates and the minifier are safe for concurrent use.
func (r *siteRenderer) page(name, tmplName string, data any) (File, error) {
	var out bytes.Buffer
	if err := r.pageTo(&out, name, tmplName, data); err != nil {
		return File{}, err
	}
	return File{Name: name, Data: out.Bytes()}, nil
}

// pageTo renders the page name from the template tmplName and writes it,
// minified, to w.
func (r *siteRenderer) pageTo(w io.Writer, name, tmplName string, data any) error {
	var raw pageBuffer
	if err := r.pages.ExecuteTemplate(&raw, tmplName, data); err != nil {
		return fmt.Errorf("rendering %s: %w", name, err)
	}
	if err := r.m.Minify("text/html", w, &raw); err != nil {
		return fmt.Errorf("minifying %s: %w", name, err)
	}
	return nil
}

// pageBuffer holds a page as its template writes it, in blocks, until the
// minifier takes it whole (the HTML lexer reads one slice): a
// bytes.Buffer grows by doubling, and can hold up to three times the page
// as it grows; this holds it twice, as Bytes joins the blocks.
type pageBuffer struct {
	blocks [][]byte
	n      int
}

func (p *pageBuffer) Write(b []byte) (int, error) {
	n := len(b)
	for len(b) > 0 {
		if k := len(p.blocks); k == 0 || len(p.blocks[k-1]) == cap(p.blocks[k-1]) {
			size := 256 << 10
			if k < 6 {
				size = 4 << 10 << k // small pages stay small
			}
			p.blocks = append(p.blocks, make([]byte, 0, size))
		}
		last := &p.blocks[len(p.blocks)-1]
		k := min(len(b), cap(*last)-len(*last))
		*last = append(*last, b[:k]...)
		b = b[k:]
	}
	p.n += n
	return n, nil
}

// Bytes joins the blocks, with room for the byte the lexer appends.
func (p *pageBuffer) Bytes() []byte {
	out := make([]byte, 0, p.n+1)
	for _, b := range p.blocks {
		out = append(out, b...)
	}
	p.blocks = nil
	return out
}

// Read is never called: the minifier takes Bytes. It makes pageBuffer an
// io.Reader.
func (p *pageBuffer) Read([]byte) (int, error) {
	return 0, errors.New("pageBuffer: read through Bytes")
}

// link sets the link-preview fields of a page at path (relative to the
// base) when the base is public.
func (r *siteRenderer) link(p *pageData, path, image, alt string) {
	if r.public {
		p.URL, p.Image, p.ImageAlt = r.base+"/"+path, image, alt
	}
}

// gallery renders index.html: every logo as a card.
func (r *siteRenderer) gallery(cats []IndexCategory, logos *Summaries) (File, error) {
	var out bytes.Buffer
	if err := r.galleryTo(&out, cats, logos); err != nil {
		return File{}, err
	}
	return File{Name: galleryFile, Data: out.Bytes()}, nil
}

// galleryFile is the gallery's name in the tree.
const galleryFile = "index.html"

// galleryTo writes the gallery to w: a streamed build writes it into its
// file, so that a large gallery is never whole in memory.
func (r *siteRenderer) galleryTo(w io.Writer, cats []IndexCategory, logos *Summaries) error {
	n := logos.len()
	gd := galleryData{
		pageData: pageData{
			Title:       "Logo index",
			Description: fmt.Sprintf("%d brand %s as optimised SVG files, with a static JSON API.", n, plural(n, "logo", "logos")),
			CSS:         r.css, JS: r.js, Icon: faviconFile, Page: "gallery",
		},
		Total:      n,
		Categories: cats,
		IndexURL:   r.base + "/api/logos.json",
	}
	var p *pieceMinifier
	if r.pieces {
		p = &pieceMinifier{r: r, w: w}
	}
	var readErr error // of a spilled summary
	gd.Cards = func(yield func(cardView) bool) {
		err := logos.each(func(l *Summary) error {
			p.cut(galleryPiece)
			card := cardView{
				Slug: l.Slug, Name: l.Name, Hex: l.Hex,
				Categories: strings.Join(l.Categories, " "),
				Aliases:    strings.Join(l.Aliases, "\n"),
				Tile:       newTile(l, logoDir(l.Slug)+"/"),
			}
			if p.card(card) {
				return nil // the template's range never sees it
			}
			if !yield(card) {
				return errStop
			}
			return nil
		})
		if err != errStop {
			readErr = err
		}
		p.cut(galleryPiece)
	}
	r.link(&gd.pageData, "", r.base+"/"+faviconFile, "Logo index")
	var err error
	if p == nil {
		err = r.pageTo(w, galleryFile, siteGalleryTmpl, gd)
	} else if err = r.pages.ExecuteTemplate(p, siteGalleryTmpl, gd); err != nil {
		err = fmt.Errorf("rendering %s: %w", galleryFile, err)
	} else if p.cut(1); p.err != nil {
		err = fmt.Errorf("minifying %s: %w", galleryFile, p.err)
	}
	return errors.Join(readErr, err)
}

// galleryPiece is about how much of the gallery, as its template writes
// it, is minified at a time (tests set it to 1: a piece a card).
var galleryPiece = 64 << 10

// pieceMinifier minifies a page in pieces, each cut where the page's
// template starts a gallery card, so that the page is never whole in
// memory: the HTML lexer reads its input whole, and the gallery of a
// large collection is many megabytes raw. The pieces come out as the page
// whole would, because no decision of the minifier looks across the card's
// start: its end tag </li> is dropped whatever follows, the whitespace
// around it is dropped before a block tag (<li>, </ul>) and at the end of
// the input alike, and a start tag of a block element sets the minifier's
// only other state, whether the next leading space goes (TestGalleryPieces
// and FuzzGalleryPieces hold it to the whole page's bytes). A template
// other than the embedded one could cut a <pre> or a <script> in two:
// those pages are minified whole.
type pieceMinifier struct {
	r   *siteRenderer // its minifier, and the cards' skeletons (card)
	w   io.Writer
	raw bytes.Buffer // what the template wrote since the last cut
	err error

	out []byte // card's buffer, kept from card to card
}

// card writes c into the page as the minifier makes it of a piece that
// starts with the card, from the card's skeleton, and reports whether it
// did; a card with a value the minifier or html/template would change
// (fitsIn) is for the template to write. TestGalleryPieces and
// FuzzGalleryPieces hold the page to the page minified whole.
func (p *pieceMinifier) card(c cardView) bool {
	if p == nil || p.err != nil {
		return false
	}
	b, ok, err := p.r.cards.fillHTML(p.out[:0], c)
	if err != nil {
		p.err = err
		return true // reported at the end
	}
	if !ok {
		return false
	}
	p.out = b
	p.cut(1) // what the template wrote before this card
	if p.err == nil {
		_, p.err = p.w.Write(b)
	}
	return true
}

func (p *pieceMinifier) Write(b []byte) (int, error) {
	if p.err != nil {
		return 0, p.err
	}
	return p.raw.Write(b)
}

// cut minifies what the template wrote since the last cut, when that is
// at least least bytes, into the page.
func (p *pieceMinifier) cut(least int) {
	if p == nil || p.err != nil || p.raw.Len() < least || p.raw.Len() == 0 {
		return
	}
	p.err = p.r.m.Minify("text/html", p.w, &p.raw) // the lexer reads Bytes
	p.raw.Reset()
}

// Gallery renders the gallery of logos alone: index.html and the files it
// loads (stylesheet, script, favicon). It is for looking at big
// galleries, whose logos' own pages and registry items would take long to
// render (a browser test loads 5,000).
func Gallery(cats []CategoryCount, logos []*Summary, opts Options) ([]File, error) {
	tmpl := opts.Templates
	if tmpl == nil {
		tmpl = templates.FS
	}
	r, files, err := newSiteRenderer(opts.BaseURL, tmpl)
	if err != nil {
		return nil, err
	}
	gallery, err := r.gallery(indexCategories(cats), MemSummaries(logos))
	if err != nil {
		return nil, err
	}
	return append(files, gallery), nil
}

// otherPages renders the pages and files of the site that list or serve
// every logo but the gallery: the 404 page, _headers and the sitemaps.
// The gallery (galleryTo) and these are all but the logos' own pages.
func (r *siteRenderer) otherPages(logos *Summaries, emit func(name string, write func(io.Writer) error) error) error {
	// The 404 page is served at whatever path was missing, so it links
	// from the base URL's path, not relative to itself.
	root := basePath(r.base)
	notFound, err := r.page(notFoundFile, siteNotFoundTmpl, pageData{
		Title:       "Page not found · Logo index",
		Description: "This page does not exist.",
		Root:        root, CSS: r.css, JS: r.js, Icon: root + faviconFile, Page: "404",
	})
	if err != nil {
		return err
	}
	if err := emitAll([]File{notFound, {Name: "_headers", Data: headers.Site.File()}}, emit); err != nil {
		return err
	}
	if !r.public {
		return nil
	}
	slugs := func(fn func(slug string) error) error {
		return logos.each(func(l *Summary) error { return fn(l.Slug) })
	}
	return sitemaps(r.base, logos.len(), slugs, emit)
}

// logoPage renders the page of one logo, whose detail JSON is d; cats maps
// category slugs to names.
func (r *siteRenderer) logoPage(l *check.Logo, d LogoDetail, cats map[string]string) (File, error) {
	data := logoData{
		pageData: pageData{
			Title:       d.Name + " logo · Logo index",
			Description: fmt.Sprintf("%s logo: %d SVG %s with source and licence, and the %s component.", d.Name, len(l.Variants), plural(len(l.Variants), "variant", "variants"), d.Component),
			Root:        logoRoot,
			CSS:         r.css, JS: r.js, Icon: "icon.svg", Page: "logo",
		},
		Logo:      logoView{Slug: d.Slug, Name: d.Name, Page: d.Page, Component: d.Component, Install: d.Install, Guidelines: d.Guidelines, Aliases: d.Aliases},
		Tile:      newTile(Summarize(l), ""),
		Swatch:    newSwatch(d.Hex),
		DetailURL: r.base + "/api/logos/" + l.Slug + ".json",
		Usage:     "<" + d.Component + " />",
	}
	r.link(&data.pageData, logoDir(l.Slug)+"/", d.SVG["icon"], d.Name+" icon")
	for _, c := range d.Categories {
		name, ok := cats[c]
		if !ok {
			name = c
		}
		data.Categories = append(data.Categories, categoryLink{Slug: c, Name: name})
	}
	for _, v := range l.Variants {
		data.Variants = append(data.Variants, newVariantView(l, v, d))
	}
	name := logoDir(l.Slug) + "/index.html"
	if r.pieces {
		b, ok, err := r.logoPages.fillHTML(nil, data)
		if err != nil {
			return File{}, fmt.Errorf("%s: %w", name, err)
		}
		if ok {
			return File{Name: name, Data: b, Logo: l.Slug}, nil
		}
	}
	f, err := r.page(name, siteLogoTmpl, data)
	f.Logo = l.Slug
	return f, err
}

// sitemaps hands emit the files that list the gallery and every logo page
// for search engines: one sitemap.xml, or files of sitemapMaxURLs URLs
// with sitemap.xml as their index. slugs gives the n logos' slugs in
// order, anew for each file, which is written as they come, so that a
// large collection's sitemaps are never whole in memory. No <lastmod>:
// the build writes no dates, so that the same sources give the same bytes.
func sitemaps(base string, n int, slugs func(fn func(slug string) error) error, emit func(name string, write func(io.Writer) error) error) error {
	// urlset writes the URLs lo to hi of the list: the gallery's, then
	// the logos' pages. Each file reads the slugs anew, up to its last.
	// The base escaped once, and each path only where it needs it (a
	// slug never does): xml.EscapeText of each whole URL, a rune at a
	// time, would be most of the sitemap's cost in a rebuild.
	var escBase bytes.Buffer
	xml.EscapeText(&escBase, []byte(base+"/"))
	urlset := func(lo, hi int) func(io.Writer) error {
		return func(w io.Writer) error {
			bw := bufio.NewWriterSize(w, 64<<10)
			bw.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
			i := 0
			url := func(path string) {
				if lo <= i && i < hi {
					bw.WriteString("<url><loc>")
					bw.Write(escBase.Bytes())
					if plainXML(path) {
						bw.WriteString(path)
					} else {
						xml.EscapeText(bw, []byte(path))
					}
					bw.WriteString("</loc></url>\n")
				}
				i++
			}
			url("")
			err := slugs(func(slug string) error {
				if i >= hi {
					return errStop
				}
				url(logoDir(slug) + "/")
				return nil
			})
			if err != nil && err != errStop {
				return err
			}
			bw.WriteString("</urlset>\n")
			return bw.Flush()
		}
	}
	urls := n + 1
	if urls <= sitemapMaxURLs {
		return emit(sitemapFile, urlset(0, urls))
	}
	var index bytes.Buffer
	index.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for lo := 0; lo < urls; lo += sitemapMaxURLs {
		name := fmt.Sprintf("sitemap-%d.xml", lo/sitemapMaxURLs+1)
		if err := emit(name, urlset(lo, min(lo+sitemapMaxURLs, urls))); err != nil {
			return err
		}
		index.WriteString("<sitemap><loc>")
		xml.EscapeText(&index, []byte(base+"/"+name))
		index.WriteString("</loc></sitemap>\n")
	}
	index.WriteString("</sitemapindex>\n")
	return emitAll([]File{{Name: sitemapFile, Data: index.Bytes()}}, emit)
}

// plainXML reports whether xml.EscapeText leaves s as it is: printable
// ASCII but the five characters it escapes.
func plainXML(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '&' || c == '<' || c == '>' || c == '\'' || c == '"' {
			return false
		}
	}
	return true
}

func newVariantView(l *check.Logo, v *check.Variant, d LogoDetail) variantView {
	text, ok := variantText[v.Name]
	if !ok {
		text = [3]string{v.Name, v.Name, ""}
	}
	vv := variantView{
		Name:     v.Name,
		Label:    text[0],
		Alt:      l.Name + " " + text[1],
		Note:     text[2],
		File:     v.Name + ".svg",
		URL:      d.SVG[v.Name],
		Download: l.Slug + "-" + v.Name + ".svg",
		Mono:     v.Name == "icon-mono",
		Source:   v.Meta.Source,
		License:  v.Meta.License,
	}
	vv.OnLight, vv.OnDark = backgrounds(v)
	if via := v.Meta.Via; via != nil {
		vv.ViaName, vv.ViaVersion, vv.ViaURL = via.Name, via.Version, via.URL
	}
	vv.LicenseURL = v.Meta.LicenseURL
	if vv.LicenseURL == "" && !strings.HasPrefix(v.Meta.License, "LicenseRef-") {
		vv.LicenseURL = "https://spdx.org/licenses/" + v.Meta.License + ".html"
	}
	// Intrinsic size at a height of 64 CSS pixels, so the browser reserves
	// the right box before the file arrives.
	width := 64
	if v.Info != nil && v.Info.ViewBox[2] > 0 && v.Info.ViewBox[3] > 0 {
		w := math.Round(64 * v.Info.ViewBox[2] / v.Info.ViewBox[3])
		width = int(min(max(w, 1), 4096))
	}
	vv.Width, vv.Height = strconv.Itoa(width), "64"
	return vv
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// renderAsset executes a CSS or JS template, minifies it and names it
// assets/site.<hash>.<ext> after its content.
func renderAsset(tmpl fs.FS, m *minify.M, name, mediatype, ext string, data any) (string, File, error) {
	src, err := readTemplate(tmpl, name)
	if err != nil {
		return "", File{}, err
	}
	t, err := texttemplate.New(name).Option("missingkey=error").Parse(string(src))
	if err != nil {
		return "", File{}, fmt.Errorf("templates: %w", err)
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		return "", File{}, fmt.Errorf("templates: %w", err)
	}
	var out bytes.Buffer
	if err := m.Minify(mediatype, &out, &buf); err != nil {
		return "", File{}, fmt.Errorf("minifying %s: %w", name, err)
	}
	sum := sha256.Sum256(out.Bytes())
	file := "assets/site." + hex.EncodeToString(sum[:5]) + "." + ext
	return file, File{Name: file, Data: out.Bytes()}, nil
}

// parsePages parses the layout and the page templates into one set.
func parsePages(tmpl fs.FS) (*htmltemplate.Template, error) {
	set := htmltemplate.New("site").Option("missingkey=error")
	set.Funcs(htmltemplate.FuncMap{
		"card":    func(c cardView) (htmltemplate.HTML, error) { return renderCard(set, c) },
		"wrapURL": wrapURL,
	})
	for _, name := range []string{siteLayoutTmpl, siteGalleryTmpl, siteLogoTmpl, siteNotFoundTmpl, siteRemovedTmpl} {
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

// renderCard is the gallery's card of a logo: the set's "card" template
// executed.
func renderCard(set *htmltemplate.Template, c cardView) (htmltemplate.HTML, error) {
	var b strings.Builder
	err := set.ExecuteTemplate(&b, "card", c)
	return htmltemplate.HTML(b.String()), err
}

// htmlEscaper escapes a string as html/template does in HTML text and in
// a quoted attribute: its replacement table. Every byte it replaces is
// ASCII, so the rest (invalid UTF-8 too) stays as it is, as there.
var htmlEscaper = strings.NewReplacer(
	"\x00", "\uFFFD", `"`, "&#34;", "&", "&amp;", "'", "&#39;", "+", "&#43;", "<", "&lt;", ">", "&gt;",
)

// escapeHTMLOnto writes s to w as htmlEscaper escapes it.
func escapeHTMLOnto(w io.Writer, s string) { htmlEscaper.WriteString(w, s) }

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
