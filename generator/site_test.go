package generator

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/tdewolff/parse/v2"
	htmllex "github.com/tdewolff/parse/v2/html"

	"logoindex/generator/check"
	"logoindex/generator/manifest"
	"logoindex/generator/problem"
	"logoindex/generator/render"
	"logoindex/generator/source"
	"logoindex/internal/headers"
	"logoindex/templates"
)

// The site's tests build a source tree into a folder and read the pages
// back: the gallery, the logo pages, the 404 page, _headers, the assets
// and the sitemap.

const siteBase = "https://cdn.example/logos"

// buildSite builds the golden source tree and returns every output file;
// an empty base URL means siteBase.
func buildSite(t *testing.T, opts render.Options) map[string]string {
	t.Helper()
	if opts.BaseURL == "" {
		opts.BaseURL = siteBase
	}
	tree, _ := buildTree(t, os.DirFS("testdata/golden/src"), Options{Render: opts})
	return tree
}

// siteOutput keeps the files of the site: pages, assets, favicon,
// _headers and the sitemap.
func siteOutput(files map[string]string) map[string]string {
	return only(files, func(name string) bool {
		return name == "index.html" || name == "_headers" || name == "404.html" || name == "favicon.svg" || name == "sitemap.xml" || strings.HasPrefix(name, "assets/") ||
			strings.HasPrefix(name, "logos/") && strings.HasSuffix(name, "/index.html")
	})
}

// siteCheckedLogos reads and checks every logo of fsys as a build does,
// in slug order, with the categories: what a build renders. Every logo
// must pass.
func siteCheckedLogos(t testing.TB, fsys fs.FS) ([]*check.Logo, *check.Categories) {
	t.Helper()
	r := source.New(fsys, source.Options{})
	defer r.Close()
	top, probs := r.Scan(context.Background())
	cats := check.NewCategories(top.Categories)
	probs = append(probs, cats.Problems...)
	var logos []*check.Logo
	for _, slug := range top.Slugs {
		var p problem.List
		ls := r.Logo(slug, &p)
		l, lp := check.Check(ls, cats)
		probs = append(probs, append(p, lp...)...)
		if l != nil {
			logos = append(logos, l)
		}
	}
	if errs := probs.Errors(); len(errs) > 0 {
		t.Fatalf("checking the sources:\n%s", errs.Error())
	}
	slices.SortFunc(logos, func(a, b *check.Logo) int { return strings.Compare(a.Slug, b.Slug) })
	return logos, cats
}

// TestSiteGolden compares the pages, assets and _headers of the golden
// source tree with testdata/site. Run with -update to accept new output,
// then look at the diff (and at the pages in a browser: make serve).
func TestSiteGolden(t *testing.T) {
	checkGolden(t, "testdata/site", "", siteOutput(buildSite(t, render.Options{})))
}

// TestSiteDeterministic: two builds into two folders write the same site.
func TestSiteDeterministic(t *testing.T) {
	a, b := siteOutput(buildSite(t, render.Options{})), siteOutput(buildSite(t, render.Options{}))
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("two builds differ:\n%s", diff)
	}
}

// siteElement is a start tag of a page.
type siteElement struct {
	Tag  string
	Attr map[string]string
}

var siteSVGTags = regexp.MustCompile(`<[^>]*>`)

// siteParsePage lists the start tags of an HTML page and its text.
func siteParsePage(t *testing.T, page string) ([]siteElement, string) {
	t.Helper()
	l := htmllex.NewLexer(parse.NewInputString(page))
	var els []siteElement
	var text strings.Builder
	for {
		tt, data := l.Next()
		switch tt {
		case htmllex.ErrorToken:
			if l.Err() != nil && l.Err().Error() != "EOF" {
				t.Fatalf("parsing HTML: %v", l.Err())
			}
			return els, text.String()
		case htmllex.StartTagToken:
			els = append(els, siteElement{Tag: string(l.Text()), Attr: map[string]string{}})
		case htmllex.AttributeToken:
			v := string(l.AttrVal())
			if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') {
				v = v[1 : len(v)-1]
			}
			els[len(els)-1].Attr[string(l.AttrKey())] = html.UnescapeString(v)
		case htmllex.TextToken:
			text.WriteString(html.UnescapeString(string(data)))
		case htmllex.SVGToken:
			// The lexer gives inline SVG whole: keep its text.
			text.WriteString(html.UnescapeString(siteSVGTags.ReplaceAllString(string(data), " ")))
		}
	}
}

// TestSitePages checks what every page must do, whatever the templates
// look like: alt text, relative links, no inline script or style, assets
// that exist, and the facts of each logo.
func TestSitePages(t *testing.T) {
	files := buildSite(t, render.Options{})
	var details = map[string]render.LogoDetail{}
	for name, data := range files {
		if slug, ok := strings.CutPrefix(name, "api/logos/"); ok {
			var d render.LogoDetail
			if err := json.Unmarshal([]byte(data), &d); err != nil {
				t.Fatal(err)
			}
			details[strings.TrimSuffix(slug, ".json")] = d
		}
	}
	if len(details) != 2 {
		t.Fatalf("want the 2 golden logos, got %d", len(details))
	}
	for name, data := range files {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		t.Run(name, func(t *testing.T) {
			els, text := siteParsePage(t, data)
			dir := path.Dir(name)
			hasCSP := false
			for _, e := range els {
				for k, v := range e.Attr {
					if strings.HasPrefix(k, "on") || k == "style" {
						t.Errorf("<%s %s>: inline script or style, which the CSP forbids", e.Tag, k)
					}
					if k != "href" && k != "src" {
						continue
					}
					switch {
					case strings.HasPrefix(v, "https://"), strings.HasPrefix(v, "data:"):
						// an outside link (source, licence) or the empty favicon
					case name == "404.html" && strings.HasPrefix(v, "/logos/") && !strings.HasPrefix(v, "//"):
						// Served at any path, the 404 page links from the
						// base URL's path (siteBase's is /logos).
						if _, ok := files[strings.TrimPrefix(strings.TrimSuffix(v, "/")+map[bool]string{true: "/index.html", false: ""}[strings.HasSuffix(v, "/")], "/logos/")]; !ok {
							t.Errorf("<%s %s=%q> in 404.html points at a file the build does not write", e.Tag, k, v)
						}
					case strings.HasPrefix(v, "/"), strings.Contains(v, "://"):
						t.Errorf("<%s %s=%q>: links inside the site must be relative, so it works from any path", e.Tag, k, v)
					case strings.HasPrefix(v, "#"):
						// a link within the page
					default:
						p := strings.SplitN(v, "?", 2)[0]
						target := path.Join(dir, p)
						if p == "" || strings.HasSuffix(p, "/") {
							target = path.Join(target, "index.html")
						}
						if _, ok := files[target]; !ok {
							t.Errorf("<%s %s=%q> points at %s, which the build does not write", e.Tag, k, v, target)
						}
					}
				}
				switch e.Tag {
				case "img":
					// alt="" marks a decorative image, such as an icon beside
					// the name in the same link; no alt at all is a mistake.
					if _, ok := e.Attr["alt"]; !ok {
						t.Errorf("<img src=%q> has no alt attribute", e.Attr["src"])
					}
				case "meta":
					if e.Attr["http-equiv"] == "Content-Security-Policy" {
						hasCSP = strings.Contains(e.Attr["content"], "script-src 'self'")
					}
				case "script":
					if e.Attr["src"] == "" {
						t.Errorf("inline <script>: scripts must live in the asset file")
					}
				}
			}
			if !hasCSP {
				t.Errorf("no Content-Security-Policy meta tag limiting scripts to 'self'")
			}
			slug, ok := strings.CutSuffix(strings.TrimPrefix(name, "logos/"), "/index.html")
			if !ok || name == "index.html" {
				return
			}
			d := details[slug]
			siteCheckLogoPage(t, d, els, text)
		})
	}
}

// siteGoldenBackgrounds says where the golden logos' variants must show: the
// -dark ones on dark only, icon-mono on both, the others on light and on
// dark when every colour they paint has 3:1 against #0D1117 (acme's
// oranges do, night-owl's #011627 does not).
var siteGoldenBackgrounds = map[string]map[string][2]bool{ // light, dark
	"acme":      {"icon": {true, true}, "icon-mono": {true, true}, "wordmark": {true, true}},
	"night-owl": {"icon": {true, false}, "icon-dark": {false, true}},
}

// siteVariantAlt is how the alt text of a variant's image names it,
// after the logo's name.
var siteVariantAlt = map[string]string{
	"icon":          "icon",
	"icon-mono":     "one-colour icon",
	"icon-dark":     "icon for dark backgrounds",
	"wordmark":      "wordmark",
	"wordmark-dark": "wordmark for dark backgrounds",
}

func siteCheckLogoPage(t *testing.T, d render.LogoDetail, els []siteElement, text string) {
	t.Helper()
	imgs := map[string]int{} // src or srcset -> count
	alts := map[string]int{} // "on a light background", "on a dark background"
	downloads := map[string]string{}
	copySVG := map[string]bool{}
	for _, e := range els {
		switch {
		case e.Tag == "source":
			imgs[e.Attr["srcset"]]++
		case e.Tag == "img":
			imgs[e.Attr["src"]]++
			alts[e.Attr["src"]+" "+strings.TrimSpace(strings.TrimPrefix(e.Attr["alt"], d.Name))]++
		case e.Tag == "a" && e.Attr["download"] != "":
			downloads[e.Attr["href"]] = e.Attr["download"]
		case e.Tag == "button" && e.Attr["data-copy-svg"] != "":
			copySVG[e.Attr["data-copy-svg"]] = true
		}
	}
	if len(siteGoldenBackgrounds[d.Slug]) != len(d.SVG) {
		t.Fatalf("%s: goldenBackgrounds does not list its variants %v", d.Slug, d.SVG)
	}
	for v, url := range d.SVG {
		file := v + ".svg"
		bg := siteGoldenBackgrounds[d.Slug][v]
		want := 0
		for _, on := range []struct {
			show bool
			alt  string
		}{{bg[0], "on a light background"}, {bg[1], "on a dark background"}} {
			n := alts[file+" "+siteVariantAlt[v]+" "+on.alt]
			if on.show {
				want++
			}
			if on.show && n != 1 || !on.show && n != 0 {
				t.Errorf("%s: %s shown %d times %s", d.Slug, file, n, on.alt)
			}
		}
		if v == "icon" || v == "icon-dark" {
			want++ // and the hero at the top
		}
		if imgs[file] != want {
			t.Errorf("%s: %s appears %d times, want %d", d.Slug, file, imgs[file], want)
		}
		if downloads[file] != d.Slug+"-"+file {
			t.Errorf("%s: download of %s named %q", d.Slug, file, downloads[file])
		}
		if !copySVG[file] {
			t.Errorf("%s: no copy-SVG button for %s", d.Slug, file)
		}
		for _, s := range []string{url, d.Files[v].Source, d.Files[v].License} {
			if !strings.Contains(text, s) {
				t.Errorf("%s: the page does not show %q for %s", d.Slug, s, v)
			}
		}
	}
	for _, s := range append([]string{d.Name, d.Hex, d.Component, d.Install, "<" + d.Component + " />", d.Guidelines}, d.Aliases...) {
		if s != "" && !strings.Contains(text, s) {
			t.Errorf("%s: the page does not show %q", d.Slug, s)
		}
	}
}

func TestSiteGalleryCategories(t *testing.T) {
	files := buildSite(t, render.Options{})
	els, text := siteParsePage(t, files["index.html"])
	var got []string
	for _, e := range els {
		if c, ok := e.Attr["data-category"]; ok && e.Tag == "button" {
			got = append(got, c)
		}
	}
	// "All" first, then every category of the index, empty ones included.
	if diff := cmp.Diff([]string{"", "birds", "empty", "tools"}, got); diff != "" {
		t.Errorf("category buttons (-want +got):\n%s", diff)
	}
	for _, s := range []string{siteBase + "/api/logos.json", "Nothing here yet", "2 logos"} {
		if !strings.Contains(text, s) {
			t.Errorf("gallery does not show %q", s)
		}
	}
}

// TestSiteGalleryCards: the gallery's HTML holds every logo as a link to
// its page, with what the script needs to search and filter, so it works
// without the script.
func TestSiteGalleryCards(t *testing.T) {
	files := buildSite(t, render.Options{})
	els, text := siteParsePage(t, files["index.html"])
	type card struct{ Slug, Categories, Aliases, Link, Icon, DarkIcon string }
	var got []card
	for _, e := range els {
		switch {
		case e.Tag == "li" && e.Attr["data-slug"] != "":
			got = append(got, card{Slug: e.Attr["data-slug"], Categories: e.Attr["data-categories"], Aliases: e.Attr["data-aliases"]})
		case len(got) == 0:
		case e.Tag == "a" && got[len(got)-1].Link == "":
			got[len(got)-1].Link = e.Attr["href"]
		case e.Tag == "source":
			got[len(got)-1].DarkIcon = e.Attr["srcset"]
		case e.Tag == "img" && got[len(got)-1].Icon == "":
			got[len(got)-1].Icon = e.Attr["src"]
		}
	}
	want := []card{
		{"acme", "tools", "Acme\nACME Corp", "logos/acme/", "logos/acme/icon.svg", ""},
		{"night-owl", "birds tools", "", "logos/night-owl/", "logos/night-owl/icon.svg", "logos/night-owl/icon-dark.svg"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cards (-want +got):\n%s", diff)
	}
	for _, s := range []string{"Acme & Co.", "#FF5500", "Night Owl", "#011627"} {
		if !strings.Contains(text, s) {
			t.Errorf("gallery does not show %q", s)
		}
	}
	// The top bar names the site; the heading says what the page is, not
	// the site's name a second time.
	brand := regexp.MustCompile(`<a class=brand[^>]*>(?:<img[^>]*>)?([^<]*)</a>`).FindStringSubmatch(files["index.html"])
	h1 := regexp.MustCompile(`<h1>([^<]*)</h1>`).FindStringSubmatch(files["index.html"])
	if brand == nil || h1 == nil || brand[1] != "Logo index" || h1[1] == brand[1] {
		t.Errorf("top bar %q, heading %q: want the site's name once", brand, h1)
	}
}

func TestSiteAssetsAreHashedAndMinified(t *testing.T) {
	files := buildSite(t, render.Options{})
	re := regexp.MustCompile(`^assets/site\.([0-9a-f]{10})\.(css|js)$`)
	var n int
	for name, data := range files {
		if !strings.HasPrefix(name, "assets/") {
			continue
		}
		n++
		m := re.FindStringSubmatch(name)
		if m == nil {
			t.Errorf("asset %s is not named site.<hash>.<ext>", name)
			continue
		}
		if strings.Contains(data, "\n  ") || strings.Contains(data, "/*") {
			t.Errorf("%s is not minified", name)
		}
	}
	if n != 2 {
		t.Errorf("%d assets, want a stylesheet and a script", n)
	}
	for _, page := range []string{"index.html", "logos/acme/index.html"} {
		if strings.Contains(files[page], "\n\n") || strings.Contains(files[page], "  <") {
			t.Errorf("%s is not minified", page)
		}
	}
}

// TestSiteTemplatesOverride renders with a custom template folder that
// replaces one page; the others come from the embedded templates.
func TestSiteTemplatesOverride(t *testing.T) {
	// The registry reads its template from the same folder.
	component, err := fs.ReadFile(templates.FS, "component.tsx.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	custom := fstest.MapFS{
		"site-gallery.html.tmpl": {Data: []byte(`{{template "head" .}}<main><h1>My logos: {{.Total}}</h1></main>{{template "foot" .}}`)},
		"component.tsx.tmpl":     {Data: component},
	}
	files := buildSite(t, render.Options{Templates: custom})
	if !strings.Contains(files["index.html"], "My logos: 2") {
		t.Errorf("the custom gallery template was not used:\n%s", files["index.html"])
	}
	if !strings.Contains(files["logos/acme/index.html"], "Variants") {
		t.Errorf("the logo page should come from the embedded template")
	}

	for _, tc := range []struct {
		name, file, src, want string
	}{
		{"bad page", "site-logo.html.tmpl", `{{.Nope`, "templates: template: site-logo.html.tmpl:1: unclosed action"},
		{"missing field", "site-logo.html.tmpl", `{{.Nope}}`, `rendering logos/acme/index.html: template: site-logo.html.tmpl:1:2: executing "site-logo.html.tmpl" at <.Nope>: can't evaluate field Nope`},
		{"bad script", "site.js.tmpl", `{{.Nope}}`, `templates: template: site.js.tmpl:1:2: executing "site.js.tmpl" at <.Nope>: map has no entry for key "Nope"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "dist")
			_, err := Build(context.Background(), os.DirFS("testdata/golden/src"), Options{Out: out, Render: render.Options{
				Templates: fstest.MapFS{tc.file: {Data: []byte(tc.src)}, "component.tsx.tmpl": {Data: component}},
			}})
			// Each logo's page fails on its own: the errors are joined,
			// one a line, in no fixed order.
			if err == nil || !slices.ContainsFunc(strings.Split(err.Error(), "\n"), func(line string) bool { return strings.HasPrefix(line, tc.want) }) {
				t.Errorf("error %v, want one that starts with %q", err, tc.want)
			}
		})
	}
}

// TestSiteHeadersFile checks the _headers text: every header is set by
// one rule for each kind of path, so hosts that join the values of
// several matching rules send each header once.
func TestSiteHeadersFile(t *testing.T) {
	files := buildSite(t, render.Options{})
	got := files["_headers"]
	for _, want := range []string{
		"/*\n  Access-Control-Allow-Origin: *\n",
		"/api/*\n  Content-Type: application/json; charset=utf-8\n  Cache-Control: public, max-age=300, stale-while-revalidate=86400\n",
		"/logos/*.svg\n  Content-Type: image/svg+xml\n  Cache-Control: public, max-age=86400",
		"/assets/*\n  Cache-Control: public, max-age=31536000, immutable\n",
		"/logos/:slug/\n  Content-Type: text/html; charset=utf-8\n  Cache-Control: public, max-age=300\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("_headers lacks %q:\n%s", want, got)
		}
	}
	var names []string
	for _, r := range headers.Site {
		for _, h := range r.Headers {
			names = append(names, r.Path+" "+h[0])
		}
	}
	if len(slices.Compact(slices.Sorted(slices.Values(names)))) != len(names) {
		t.Errorf("a rule sets a header twice: %v", names)
	}
}

// siteEmpty is a source tree without logos.
func siteEmpty() fstest.MapFS {
	return fstest.MapFS{"categories.yaml": {Data: []byte("- {slug: tools, name: Tools}\n")}}
}

// TestSiteEscapesAndEdges builds trees the golden one does not cover:
// names with markup, no logos at all, root-relative URLs.
func TestSiteEscapesAndEdges(t *testing.T) {
	src := fstest.MapFS{
		"categories.yaml": {Data: []byte("- {slug: tools, name: \"Tools & <things>\"}\n")},
		"x/logo.yaml": {Data: []byte(`name: "<b>\"Bold\"</b> & Co"
hex: "#123456"
categories: [tools]
aliases: ["<i>ex</i>"]
source: "https://example.com/?a=1&b=2"
license: MIT
component: XIcon
`)},
		"x/icon.svg": {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 12"><path d="M0 0h24v12H0z"/></svg>`)},
	}
	files, _ := buildTree(t, src, Options{})
	page := files["logos/x/index.html"]
	els, text := siteParsePage(t, page)
	for _, e := range els {
		if e.Tag == "b" || e.Tag == "i" || e.Tag == "things" {
			t.Errorf("markup from the data became a <%s> element", e.Tag)
		}
	}
	for _, want := range []string{`<b>"Bold"</b> & Co`, "<i>ex</i>", "Tools & <things>", "/logos/x/icon.svg", "https://example.com/?a=1&b=2"} {
		if !strings.Contains(text, want) {
			t.Errorf("logo page does not show %q as text", want)
		}
	}
	// The intrinsic size follows the viewBox: 24x12 at a height of 64.
	if !strings.Contains(page, "width=128 height=64") {
		t.Errorf("variant image lacks its intrinsic size:\n%s", page)
	}

	empty, _ := buildTree(t, siteEmpty(), Options{Render: render.Options{BaseURL: siteBase}})
	names := slices.Sorted(maps.Keys(only(empty, func(name string) bool {
		return !strings.HasPrefix(name, "assets/") && !strings.HasPrefix(name, "r/") // r/ is the registry's
	})))
	if diff := cmp.Diff([]string{manifest.File, "404.html", "_headers", "api/logos.json", "favicon.svg", "index.html", "sitemap.xml"}, names); diff != "" {
		t.Errorf("files of an empty collection (-want +got):\n%s", diff)
	}
}

// TestSiteLinkPreviewsAndSitemap: a public base URL gives absolute
// canonical and Open Graph URLs and a sitemap; a local or relative one
// gives neither, since nobody else can fetch those URLs.
func TestSiteLinkPreviewsAndSitemap(t *testing.T) {
	meta := func(page string) map[string]string {
		els, _ := siteParsePage(t, page)
		m := map[string]string{}
		for _, e := range els {
			switch {
			case e.Tag == "meta" && e.Attr["property"] != "":
				m[e.Attr["property"]] = e.Attr["content"]
			case e.Tag == "meta" && strings.HasPrefix(e.Attr["name"], "twitter:"):
				m[e.Attr["name"]] = e.Attr["content"]
			case e.Tag == "link" && e.Attr["rel"] == "canonical":
				m["canonical"] = e.Attr["href"]
			}
		}
		return m
	}
	files := buildSite(t, render.Options{BaseURL: "https://cdn.example/logos/"})
	got := meta(files["logos/night-owl/index.html"])
	want := map[string]string{
		"canonical":           "https://cdn.example/logos/logos/night-owl/",
		"og:type":             "website",
		"og:site_name":        "Logo index",
		"og:title":            "Night Owl logo · Logo index",
		"og:description":      "Night Owl logo: 2 SVG variants with source and licence, and the NightOwlIcon component.",
		"og:url":              "https://cdn.example/logos/logos/night-owl/",
		"og:image":            "https://cdn.example/logos/logos/night-owl/icon.svg",
		"og:image:type":       "image/svg+xml",
		"og:image:alt":        "Night Owl icon",
		"twitter:card":        "summary",
		"twitter:title":       "Night Owl logo · Logo index",
		"twitter:description": "Night Owl logo: 2 SVG variants with source and licence, and the NightOwlIcon component.",
		"twitter:image":       "https://cdn.example/logos/logos/night-owl/icon.svg",
		"twitter:image:alt":   "Night Owl icon",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("link-preview tags of a logo page (-want +got):\n%s", diff)
	}
	wantSitemap := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://cdn.example/logos/</loc></url>
<url><loc>https://cdn.example/logos/logos/acme/</loc></url>
<url><loc>https://cdn.example/logos/logos/night-owl/</loc></url>
</urlset>
`
	if diff := cmp.Diff(wantSitemap, files["sitemap.xml"]); diff != "" {
		t.Errorf("sitemap.xml (-want +got):\n%s", diff)
	}

	for _, base := range []string{"", "/logos", "http://localhost:8080", "http://127.0.0.1:8080", "http://[::1]:8080", "http://preview.localhost"} {
		// Not buildSite, which takes an empty base for siteBase.
		files, _ := buildTree(t, os.DirFS("testdata/golden/src"), Options{Render: render.Options{BaseURL: base}})
		if _, ok := files["sitemap.xml"]; ok {
			t.Errorf("base %q: a sitemap of URLs nobody else can fetch", base)
		}
		m := meta(files["logos/acme/index.html"])
		for _, k := range []string{"canonical", "og:url", "og:image", "twitter:image"} {
			if v, ok := m[k]; ok {
				t.Errorf("base %q: %s=%q", base, k, v)
			}
		}
		if m["og:title"] == "" || m["twitter:card"] != "summary" {
			t.Errorf("base %q: the text of a link preview should stay: %v", base, m)
		}
	}
}

// TestSiteOutputsDoNotCollide: the site's own files sit at the top of the
// tree and logos under logos/<slug>/, so no slug can clash with them (the
// one that would, "registry", is reserved: see TestSlugClashesWithOutput);
// and two outputs of one name are found rather than one dropped.
func TestSiteOutputsDoNotCollide(t *testing.T) {
	src := fstest.MapFS{"categories.yaml": {Data: []byte("- {slug: tools, name: Tools}\n")}}
	slugs := []string{"404", "api", "assets", "favicon", "index", "logos", "r", "sitemap", "sitemap-1"}
	for i, slug := range slugs {
		src[slug+"/logo.yaml"] = &fstest.MapFile{Data: []byte(fmt.Sprintf("name: Logo %d\nhex: \"#123456\"\ncategories: [tools]\nsource: https://x.example\nlicense: MIT\n", i))}
		src[slug+"/icon.svg"] = &fstest.MapFile{Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M0 0h24v24H0z"/></svg>`)}
	}
	files, _ := buildTree(t, src, Options{Render: render.Options{BaseURL: "https://x.example"}})
	for _, want := range []string{"404.html", "favicon.svg", "sitemap.xml", "index.html", "api/logos.json", "r/registry.json"} {
		if _, ok := files[want]; !ok {
			t.Errorf("the site's %s is missing", want)
		}
	}
	for _, slug := range slugs {
		for _, want := range []string{"logos/" + slug + "/index.html", "logos/" + slug + "/icon.svg", "api/logos/" + slug + ".json", "r/" + slug + ".json"} {
			if _, ok := files[want]; !ok {
				t.Errorf("logo %s: %s is missing", slug, want)
			}
		}
	}

	// No source tree holds two folders of one name: render the files of
	// the logo "api" twice, beside the others'.
	logos, cats := siteCheckedLogos(t, src)
	r, err := render.New(render.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var all []render.File
	for _, l := range append(logos, logos[slices.IndexFunc(logos, func(l *check.Logo) bool { return l.Slug == "api" })]) {
		fs, err := r.LogoFiles(l, cats.Names)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, fs...)
	}
	if len(findClashes(all)) == 0 {
		t.Errorf("two logos with one slug: no clash found")
	}
}

// TestSiteNotFoundPage: the 404 page links from the base URL's path, as it
// is served at whatever path was missing.
func TestSiteNotFoundPage(t *testing.T) {
	for base, root := range map[string]string{"": "/", "https://x.example": "/", "https://x.example/cdn/logos/": "/cdn/logos/"} {
		files, _ := buildTree(t, siteEmpty(), Options{Render: render.Options{BaseURL: base}})
		els, text := siteParsePage(t, files["404.html"])
		links := map[string]bool{}
		for _, e := range els {
			for _, k := range []string{"href", "src"} {
				if v := e.Attr[k]; v != "" && !strings.HasPrefix(v, "#") {
					links[v] = true
					if !strings.HasPrefix(v, root) {
						t.Errorf("base %q: 404.html links to %q, not under %s", base, v, root)
					}
				}
			}
		}
		if !links[root] || !links[root+"favicon.svg"] || !strings.Contains(text, "Page not found") {
			t.Errorf("base %q: 404.html links %v, text %q", base, links, text)
		}
	}
}

// TestGallery: the gallery rendered alone (render.Gallery) is the one a
// build writes.
func TestGallery(t *testing.T) {
	src := os.DirFS("testdata/golden/src")
	whole, _ := buildTree(t, src, Options{Render: render.Options{BaseURL: siteBase}})
	logos, cats := siteCheckedLogos(t, src)
	var sums []*render.Summary
	for _, l := range logos {
		sums = append(sums, render.Summarize(l))
	}
	counts, err := render.CountCategories(cats.List, render.MemSummaries(sums))
	if err != nil {
		t.Fatal(err)
	}
	alone, err := render.Gallery(counts, sums, render.Options{BaseURL: siteBase})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range alone {
		names = append(names, f.Name)
		if whole[f.Name] != string(f.Data) {
			t.Errorf("%s differs from the one the build writes", f.Name)
		}
	}
	if len(names) != 4 || !slices.Contains(names, "index.html") || !slices.Contains(names, "favicon.svg") {
		t.Errorf("Gallery wrote %v; want index.html, favicon.svg and the two assets", names)
	}
}
