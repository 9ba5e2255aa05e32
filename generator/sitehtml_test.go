package generator

import (
	"bytes"
	"context"
	htmltemplate "html/template"
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"logoindex/templates"
)

// pageOdd is text a contributor can bring: every character html/template
// replaces, NUL, invalid UTF-8, noncharacters, white space, markup and a
// template's braces.
var pageOdd = []string{
	"", "Acme", "a & b", "<b>x</b>", `"q" 'q'`, "1+1", "\x00nul", "\xff\xfe bad", "é 東京 🙂", "\uFDD0\uFFFE",
	"javascript:alert(1)", "tab\tnew\nline", "&amp;", "{{.Slug}}", " lead", "trail ", "</main>",
}

// pageURLs are URLs a logo.yaml can hold, plain and not.
var pageURLs = []string{
	"", "https://acme.example/brand", "HTTPS://ACME.EXAMPLE/a?b=1&c=2+3#top", "http://x.example/%E2%82%AC",
	"mailto:brand@acme.example", "https://x.example/a b", "https://x.example/%zz", "https://x.example/(1)",
	"https://x.example/'q'", "javascript:alert(1)", "data:image/svg+xml,<svg>", "//x.example/a", "/rel/a,b",
	"https://例え.example/", "https://x.example/\x00", "ftp://x.example/", "a:b/c", "https://x.example/%4",
}

// pageFit is text that fits a skeleton (fits): what the minifier gives
// back as it is, as a name, a licence or a URL; one looks like a
// placeholder.
var pageFit = []string{
	"Acme", "Byju's", "Notepad++", "a > b", "x=y", "`tick`", "é 東京 🙂", "Cycling '74", "1+1 = 2",
	"https://acme.example/a?b=1", "HTTP", "Qz0q", "Qz1 q", "CC0-1.0", "9", "#FFF",
}

// pageHex is swatch colours, each kind the SVG minifier shortens or not.
var pageHex = []string{"#40AEF0", "#FFFFFF", "#FF0000", "#ff0000", "#000", "#C0C0C0", "#f5f5dc", "#AABBCD"}

// oddLogoData is the data of a logo page whose every field comes from the
// lists above, chosen by i.
func oddLogoData(r *siteRenderer, i int, public bool) logoData {
	return pageLogoData(r, i, public, pageOdd, pageOdd)
}

// fitLogoData is oddLogoData with text that fits a skeleton.
func fitLogoData(r *siteRenderer, i int, public bool) logoData {
	return pageLogoData(r, i, public, pageFit, pageHex)
}

// pageLogoData is the data of a logo page whose text comes from texts,
// its colour from hexes and its URLs from pageURLs, chosen by i.
func pageLogoData(r *siteRenderer, i int, public bool, texts, hexes []string) logoData {
	text := func(k int) string { return texts[(i+k)%len(texts)] }
	// One URL field a page takes its URL from pageURLs, the others a
	// plain one, so that most pages are written by html.
	url := func(k int) string {
		if k == i%6 {
			return pageURLs[(i/6)%len(pageURLs)]
		}
		return "https://acme.example/brand"
	}
	slug := "acme-" + string(rune('a'+i%26))
	sum := &logoSummary{DarkIcon: i%3 == 0, IconOnDark: i%3 == 1}
	d := logoData{
		pageData: pageData{
			Title: text(0) + " logo · Logo index", Description: text(1) + " logo: 2 SVG variants",
			Root: logoRoot, CSS: r.css, JS: r.js, Icon: "icon.svg", Page: "logo",
		},
		Logo: LogoDetail{
			LogoCard:  LogoCard{Slug: slug, Name: text(0), Page: "https://cdn.example/logos/" + slug + "/"},
			Component: text(2) + "Icon", Install: "npx shadcn add " + text(3), Guidelines: url(0),
		},
		Tile:      newTile(sum, ""),
		Swatch:    swatchView{Hex: hexes[(i+4)%len(hexes)], Text: []string{"#FFFFFF", "#000"}[i%2]},
		DetailURL: "https://cdn.example/logos/api/logos/" + slug + ".json",
		Usage:     "<" + text(2) + " />",
	}
	if public {
		d.URL, d.Image, d.ImageAlt = "https://cdn.example/logos/logos/"+slug+"/", "https://cdn.example/logos/logos/"+slug+"/icon.svg", text(5)+" icon"
	}
	if i%2 == 0 {
		d.Logo.Aliases = []string{text(6), text(7)}
	}
	for k := range i % 3 {
		d.Categories = append(d.Categories, categoryLink{Slug: []string{"tools", "dev-ops"}[k], Name: text(8 + k)})
	}
	variants := []string{"icon", "icon-mono", "wordmark", "wordmark-dark"}
	if i%9 == 8 { // names that are not plain in a URL
		d.Categories[0].Slug, variants[3] = "a b", "odd<name>"
	}
	for k, name := range variants[:1+i%4] {
		d.Variants = append(d.Variants, variantView{
			Name: name, Label: text(9 + k), Alt: text(10 + k), Note: text(11 + k),
			File: name + ".svg", URL: "https://cdn.example/logos/logos/" + slug + "/" + name + ".svg",
			Download: slug + "-" + name + ".svg", Width: 64 + i, Height: 64, Mono: name == "icon-mono",
			OnLight: (i+k)%3 != 1, OnDark: (i+k)%3 != 0, Source: url(1 + k), License: text(12 + k), LicenseURL: url(2 + k),
		})
	}
	return d
}

// checkPageHTML compares the page logoData.html writes with the template
// executed, and logoPageHTML's and logoPageSkeleton's with that minified,
// where plainURLs lets html write it. It reports whether html wrote it,
// and whether the skeleton did.
func checkPageHTML(t testing.TB, r *siteRenderer, d logoData) (written, skeleton bool) {
	t.Helper()
	if !d.plainURLs() {
		return false, false
	}
	var want, got bytes.Buffer
	if err := r.pages.ExecuteTemplate(&want, siteLogoTmpl, d); err != nil {
		t.Fatal(err)
	}
	d.html(&got)
	if got.String() != want.String() {
		t.Errorf("page of %q (-template +html):\n%s", d.Logo.Name, cmp.Diff(want.String(), got.String()))
	}
	// Minified, and filled into its minified skeleton, as the template's
	// page minified.
	var whole bytes.Buffer
	if err := r.m.Minify("text/html", &whole, &want); err != nil {
		t.Fatal(err)
	}
	minified, err := r.logoPageHTML(&d)
	if err != nil {
		t.Fatal(err)
	}
	if string(minified) != whole.String() {
		t.Errorf("page of %q minified (-template +html):\n%s", d.Logo.Name, cmp.Diff(whole.String(), string(minified)))
	}
	filled, ok, err := r.logoPageSkeleton(&d)
	if err != nil {
		t.Fatal(err)
	}
	if ok && string(filled) != whole.String() {
		t.Errorf("page of %q minified (-whole +skeleton):\n%s", d.Logo.Name, cmp.Diff(whole.String(), string(filled)))
	}
	return true, ok
}

func newTestSite(t testing.TB) *siteRenderer {
	t.Helper()
	r, _, err := newSiteRenderer(siteBase, templates.FS)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestLogoPageHTML: the logo page written in Go is the template's, byte
// for byte, for odd text in every field and every URL plainURL lets
// through; each kind of tile, of background and of optional section.
func TestLogoPageHTML(t *testing.T) {
	r := newTestSite(t)
	written, filled := 0, 0
	for i := range 6 * len(pageURLs) {
		for _, public := range []bool{false, true} {
			for _, d := range []logoData{oddLogoData(r, i, public), fitLogoData(r, i, public)} {
				w, f := checkPageHTML(t, r, d)
				if w {
					written++
				}
				if f {
					filled++
				}
			}
		}
	}
	// A test that compared nothing would pass. 7 of the 18 URLs are
	// plain, and a page with a URL that is not takes the template.
	if written < 160 {
		t.Errorf("html wrote %d pages of %d, want 160 or more", written, 24*len(pageURLs))
	}
	if filled < 40 {
		t.Errorf("skeletons filled %d pages of %d, want 40 or more", filled, 24*len(pageURLs))
	}
	t.Logf("%d pages of %d written by html, %d filled in skeletons (%d skeletons)", written, 24*len(pageURLs), filled, len(r.skeletons))
}

// FuzzLogoPageHTML holds logoData.html to the template, and the page
// filled in its skeleton to the page minified, for any text in the fields
// a logo.yaml sets and any URL plainURL accepts.
func FuzzLogoPageHTML(f *testing.F) {
	f.Add("Acme & Co", "ACME", "https://acme.example/brand", "https://github.com/acme", "CC0-1.0", "", "#FF0000", uint8(5))
	f.Add("<i>", "\x00", "mailto:x@y", "HTTP://A", "LicenseRef-x", "https://x.example/%41", "'", uint8(0))
	f.Add("Byju's", "B = 1", "https://acme.example/a?b=1", "https://github.com/acme", "MIT", "", "#AABBCC", uint8(128+3))
	f.Add("httpS:x", "Qz2q", "HTTPS://acme.example", "data:x,y", "a  b", "https://x.example/", "#aabbcc", uint8(128+64+5))
	r := newTestSite(f)
	f.Fuzz(func(t *testing.T, name, alias, guidelines, source, license, licenseURL, hex string, shape uint8) {
		d := oddLogoData(r, int(shape), shape&64 != 0)
		if shape&128 != 0 { // the rest fits a skeleton
			d = fitLogoData(r, int(shape&63), shape&64 != 0)
		}
		d.Logo.Name, d.Logo.Guidelines, d.Swatch.Hex = name, guidelines, hex
		d.Logo.Aliases = []string{alias}
		for i := range d.Variants {
			d.Variants[i].Source, d.Variants[i].License, d.Variants[i].LicenseURL = source, license, licenseURL
		}
		checkPageHTML(t, r, d)
	})
}

// TestPlainURL holds plainURL and plainQuery to what html/template writes:
// a URL either predicate accepts comes out escaped as plain text is.
func TestPlainURL(t *testing.T) {
	accepted := 0
	for _, u := range append(pageURLs, pageOdd...) {
		if checkPlainURL(t, u) {
			accepted++
		}
	}
	if accepted < 8 {
		t.Errorf("plainURL accepted %d URLs, want 8 or more", accepted)
	}
}

func FuzzPlainURL(f *testing.F) {
	for _, u := range pageURLs {
		f.Add(u)
	}
	f.Fuzz(func(t *testing.T, u string) { checkPlainURL(t, u) })
}

var urlTemplate = htmltemplate.Must(htmltemplate.New("u").Parse(`<a href="{{.}}">` + `<a href="../?category={{.}}">`))

func checkPlainURL(t *testing.T, u string) bool {
	t.Helper()
	var got, esc bytes.Buffer
	if err := urlTemplate.Execute(&got, u); err != nil {
		t.Fatal(err)
	}
	escapeHTMLOnto(&esc, u)
	href, query, _ := strings.Cut(strings.TrimPrefix(got.String(), `<a href="`), `"><a href="../?category=`)
	query = strings.TrimSuffix(query, `">`)
	if plainURL(u) && href != esc.String() {
		t.Errorf("plainURL(%q) is true, but html/template writes %q, not %q", u, href, esc.String())
	}
	if plainQuery(u) && query != esc.String() {
		t.Errorf("plainQuery(%q) is true, but html/template writes %q, not %q", u, query, esc.String())
	}
	return plainURL(u)
}

// TestLogoPagesBothWays builds the shipped collection with the embedded
// templates, whose logo pages are written in Go, and with a copy of them,
// which are executed: every file is the same.
func TestLogoPagesBothWays(t *testing.T) {
	copyFS := fstest.MapFS{}
	err := fs.WalkDir(templates.FS, ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := fs.ReadFile(templates.FS, p)
		copyFS[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	build := func(tmpl fs.FS) map[string]string {
		res, err := Build(context.Background(), os.DirFS("../source-logos"), Options{Render: RenderOptions{BaseURL: siteBase, Templates: tmpl}})
		if err != nil {
			t.Fatal(err)
		}
		files := map[string]string{}
		for _, f := range res.Files {
			files[f.Name] = string(f.Data)
		}
		return files
	}
	inGo, executed := build(nil), build(copyFS)
	pages := 0
	for name := range inGo {
		if strings.HasPrefix(name, "logos/") && strings.HasSuffix(name, "/index.html") {
			pages++
		}
	}
	if pages < 50 {
		t.Fatalf("the collection has %d logo pages, want 50 or more", pages)
	}
	if diff := cmp.Diff(executed, inGo); diff != "" {
		t.Errorf("(-executed +in Go):\n%s", diff)
	}
}
