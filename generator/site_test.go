package generator

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html"
	htmltemplate "html/template"
	"io"
	"io/fs"
	"os"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/tdewolff/parse/v2"
	htmllex "github.com/tdewolff/parse/v2/html"

	"logoindex/generator/svg"
	"logoindex/internal/headers"
	"logoindex/templates"
)

const siteBase = "https://cdn.example/logos"

// buildSite builds the golden source tree and returns every output file.
func buildSite(t *testing.T, opts RenderOptions) map[string][]byte {
	t.Helper()
	if opts.BaseURL == "" {
		opts.BaseURL = siteBase
	}
	res, err := Build(context.Background(), os.DirFS("testdata/golden/src"), Options{Render: opts})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	out := map[string][]byte{}
	for _, f := range res.Files {
		out[f.Name] = f.Data
	}
	return out
}

// siteOutput keeps the files renderSite writes.
func siteOutput(files map[string][]byte) map[string]string {
	out := map[string]string{}
	for name, data := range files {
		if name == "index.html" || name == "_headers" || name == notFoundFile || name == faviconFile || name == sitemapFile || strings.HasPrefix(name, "assets/") ||
			strings.HasPrefix(name, "logos/") && strings.HasSuffix(name, "/index.html") {
			out[name] = string(data)
		}
	}
	return out
}

// TestSiteGolden compares the pages, assets and _headers of the golden
// source tree with testdata/site. Run with -update to accept new output,
// then look at the diff (and at the pages in a browser: make serve).
func TestSiteGolden(t *testing.T) {
	checkGolden(t, "testdata/site", "", siteOutput(buildSite(t, RenderOptions{})))
}

func TestSiteDeterministic(t *testing.T) {
	a, b := siteOutput(buildSite(t, RenderOptions{})), siteOutput(buildSite(t, RenderOptions{}))
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("two builds differ:\n%s", diff)
	}
}

// element is a start tag of a page.
type element struct {
	Tag  string
	Attr map[string]string
}

var svgTags = regexp.MustCompile(`<[^>]*>`)

// parsePage lists the start tags of an HTML page and its text.
func parsePage(t *testing.T, page []byte) ([]element, string) {
	t.Helper()
	l := htmllex.NewLexer(parse.NewInputBytes(page))
	var els []element
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
			els = append(els, element{Tag: string(l.Text()), Attr: map[string]string{}})
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
			text.WriteString(html.UnescapeString(svgTags.ReplaceAllString(string(data), " ")))
		}
	}
}

// TestSitePages checks what every page must do, whatever the templates
// look like: alt text, relative links, no inline script or style, assets
// that exist, and the facts of each logo.
func TestSitePages(t *testing.T) {
	files := buildSite(t, RenderOptions{})
	var details = map[string]LogoDetail{}
	for name, data := range files {
		if slug, ok := strings.CutPrefix(name, "api/logos/"); ok {
			var d LogoDetail
			if err := json.Unmarshal(data, &d); err != nil {
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
			els, text := parsePage(t, data)
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
			checkLogoPage(t, d, els, text)
		})
	}
}

// goldenBackgrounds says where the golden logos' variants must show: the
// -dark ones on dark only, icon-mono on both, the others on light and on
// dark when every colour they paint has 3:1 against #0D1117 (acme's
// oranges do, night-owl's #011627 does not).
var goldenBackgrounds = map[string]map[string][2]bool{ // light, dark
	"acme":      {"icon": {true, true}, "icon-mono": {true, true}, "wordmark": {true, true}},
	"night-owl": {"icon": {true, false}, "icon-dark": {false, true}},
}

func checkLogoPage(t *testing.T, d LogoDetail, els []element, text string) {
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
	if len(goldenBackgrounds[d.Slug]) != len(d.SVG) {
		t.Fatalf("%s: goldenBackgrounds does not list its variants %v", d.Slug, d.SVG)
	}
	for v, url := range d.SVG {
		file := v + ".svg"
		bg := goldenBackgrounds[d.Slug][v]
		want := 0
		for _, on := range []struct {
			show bool
			alt  string
		}{{bg[0], "on a light background"}, {bg[1], "on a dark background"}} {
			n := alts[file+" "+variantText[v][1]+" "+on.alt]
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
	files := buildSite(t, RenderOptions{})
	els, text := parsePage(t, files["index.html"])
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
	files := buildSite(t, RenderOptions{})
	els, text := parsePage(t, files["index.html"])
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
	brand := regexp.MustCompile(`<a class=brand[^>]*>(?:<img[^>]*>)?([^<]*)</a>`).FindSubmatch(files["index.html"])
	h1 := regexp.MustCompile(`<h1>([^<]*)</h1>`).FindSubmatch(files["index.html"])
	if brand == nil || h1 == nil || string(brand[1]) != "Logo index" || string(h1[1]) == string(brand[1]) {
		t.Errorf("top bar %q, heading %q: want the site's name once", brand, h1)
	}
}

func TestSiteAssetsAreHashedAndMinified(t *testing.T) {
	files := buildSite(t, RenderOptions{})
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
		if bytes.Contains(data, []byte("\n  ")) || bytes.Contains(data, []byte("/*")) {
			t.Errorf("%s is not minified", name)
		}
	}
	if n != 2 {
		t.Errorf("%d assets, want a stylesheet and a script", n)
	}
	for _, page := range []string{"index.html", "logos/acme/index.html"} {
		if bytes.Contains(files[page], []byte("\n\n")) || bytes.Contains(files[page], []byte("  <")) {
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
		siteGalleryTmpl:      {Data: []byte(`{{template "head" .}}<main><h1>My logos: {{.Total}}</h1></main>{{template "foot" .}}`)},
		"component.tsx.tmpl": {Data: component},
	}
	files := buildSite(t, RenderOptions{Templates: custom})
	if !bytes.Contains(files["index.html"], []byte("My logos: 2")) {
		t.Errorf("the custom gallery template was not used:\n%s", files["index.html"])
	}
	if !bytes.Contains(files["logos/acme/index.html"], []byte("Variants")) {
		t.Errorf("the logo page should come from the embedded template")
	}

	for _, tc := range []struct {
		name, file, src, want string
	}{
		{"bad page", siteLogoTmpl, `{{.Nope`, "templates: template: site-logo.html.tmpl:1: unclosed action"},
		{"missing field", siteLogoTmpl, `{{.Nope}}`, `rendering logos/acme/index.html: template: site-logo.html.tmpl:1:2: executing "site-logo.html.tmpl" at <.Nope>: can't evaluate field Nope`},
		{"bad script", siteJSTmpl, `{{.Nope}}`, `templates: template: site.js.tmpl:1:2: executing "site.js.tmpl" at <.Nope>: map has no entry for key "Nope"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Build(context.Background(), os.DirFS("testdata/golden/src"), Options{Render: RenderOptions{
				Templates: fstest.MapFS{tc.file: {Data: []byte(tc.src)}, "component.tsx.tmpl": {Data: component}},
			}})
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %v, want it to start with %q", err, tc.want)
			}
		})
	}
}

// TestSiteHeadersFile checks the _headers text: every header is set by
// one rule for each kind of path, so hosts that join the values of
// several matching rules send each header once.
func TestSiteHeadersFile(t *testing.T) {
	files := buildSite(t, RenderOptions{})
	got := string(files["_headers"])
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

// TestSiteEscapesAndEdges renders collections no source tree would give:
// names with markup, no logos at all, root-relative URLs.
func TestSiteEscapesAndEdges(t *testing.T) {
	file := []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 12"><path d="M0 0h24v12H0z"/></svg>`)
	doc, probs := svg.Parse("x.svg", file)
	if doc == nil {
		t.Fatal(probs)
	}
	jsx, err := svg.ToJSX(doc, "p")
	if err != nil {
		t.Fatal(err)
	}
	meta := FileMeta{Source: "https://example.com/?a=1&b=2", License: "MIT"}
	col := &Collection{
		Categories: []CategoryCount{{Category: Category{Slug: "tools", Name: "Tools & <things>"}, Count: 1}},
		Logos: []*Logo{{
			Slug: "x", Name: `<b>"Bold"</b> & Co`, Hex: "#123456", Categories: []string{"tools"}, Component: "XIcon",
			Aliases:  []string{"<i>ex</i>"},
			Variants: []*VariantFile{{Variant: "icon", Meta: meta, Optimised: file, JSX: jsx, Info: &svg.Info{ViewBox: [4]float64{0, 0, 24, 12}}}},
		}},
	}
	files, err := Render(context.Background(), col, RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string][]byte{}
	for _, f := range files {
		byName[f.Name] = f.Data
	}
	page := byName["logos/x/index.html"]
	els, text := parsePage(t, page)
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
	if !bytes.Contains(page, []byte("width=128 height=64")) {
		t.Errorf("variant image lacks its intrinsic size:\n%s", page)
	}

	empty, err := Render(context.Background(), &Collection{}, RenderOptions{BaseURL: siteBase})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range empty {
		if !strings.HasPrefix(f.Name, "assets/") && !strings.HasPrefix(f.Name, "r/") { // r/ is the registry's
			names = append(names, f.Name)
		}
	}
	if diff := cmp.Diff([]string{ManifestFile, "404.html", "_headers", "api/logos.json", "favicon.svg", "index.html", "sitemap.xml"}, names); diff != "" {
		t.Errorf("files of an empty collection (-want +got):\n%s", diff)
	}
}

func TestBackgroundsAndTiles(t *testing.T) {
	paints := func(colours ...RGB) *svg.Info {
		info := &svg.Info{}
		for _, c := range colours {
			info.Paints = append(info.Paints, svg.PaintUse{Colour: c})
		}
		return info
	}
	var (
		orange = RGB{R: 0xFF, G: 0x55, B: 0x00} // 6.3:1 against #0D1117
		black  = RGB{}                          // 1.1:1
	)
	for _, tc := range []struct {
		variant     string
		info        *svg.Info
		light, dark bool
	}{
		{"icon", paints(orange), true, true},
		{"icon", paints(orange, black), true, false}, // one dark paint is enough to vanish
		{"icon", paints(), true, false},              // only gradients or currentColor: unknown
		{"icon", nil, true, false},
		{"wordmark", paints(orange), true, true},
		{"wordmark", paints(black), true, false},
		{"icon-mono", nil, true, true},
		{"icon-dark", paints(black), false, true}, // meant for dark, whatever it paints
		{"wordmark-dark", paints(orange), false, true},
	} {
		light, dark := backgrounds(&VariantFile{Variant: tc.variant, Info: tc.info})
		if light != tc.light || dark != tc.dark {
			t.Errorf("%s painting %v: on light %v, on dark %v; want %v, %v", tc.variant, tc.info, light, dark, tc.light, tc.dark)
		}
	}

	logo := func(vs ...*VariantFile) *Logo { return &Logo{Slug: "x", Variants: vs} }
	for _, tc := range []struct {
		name string
		logo *Logo
		want tileView
	}{
		{"reads on dark", logo(&VariantFile{Variant: "icon", Info: paints(orange)}), tileView{Icon: "p/icon.svg"}},
		{"has icon-dark", logo(&VariantFile{Variant: "icon", Info: paints(black)}, &VariantFile{Variant: "icon-dark", Info: paints(orange)}), tileView{Icon: "p/icon.svg", Dark: "p/icon-dark.svg"}},
		{"neither: a light plate", logo(&VariantFile{Variant: "icon", Info: paints(black)}), tileView{Icon: "p/icon.svg", Plate: true}},
	} {
		if got := newTile(summarize(tc.logo), "p/"); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}

	for hex, text := range map[string]string{"#181717": "#FFFFFF", "#FFFFFF": "#000000", "#F7DF1E": "#000000", "#0B57C2": "#FFFFFF"} {
		if got := newSwatch(hex); got.Text != text {
			t.Errorf("swatch of %s writes its hex in %s, want %s", hex, got.Text, text)
		}
	}
}

// TestSiteLinkPreviewsAndSitemap: a public base URL gives absolute
// canonical and Open Graph URLs and a sitemap; a local or relative one
// gives neither, since nobody else can fetch those URLs.
func TestSiteLinkPreviewsAndSitemap(t *testing.T) {
	meta := func(page []byte) map[string]string {
		els, _ := parsePage(t, page)
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
	files := buildSite(t, RenderOptions{BaseURL: "https://cdn.example/logos/"})
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
	if diff := cmp.Diff(wantSitemap, string(files["sitemap.xml"])); diff != "" {
		t.Errorf("sitemap.xml (-want +got):\n%s", diff)
	}

	for _, base := range []string{"", "/logos", "http://localhost:8080", "http://127.0.0.1:8080", "http://[::1]:8080", "http://preview.localhost"} {
		files := buildSite(t, RenderOptions{BaseURL: base})
		if base == "" {
			// buildSite's default; build once more with a truly empty base.
			res, err := Build(context.Background(), os.DirFS("testdata/golden/src"), Options{})
			if err != nil {
				t.Fatal(err)
			}
			files = map[string][]byte{}
			for _, f := range res.Files {
				files[f.Name] = f.Data
			}
		}
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

func TestSitemapIndex(t *testing.T) {
	var slugs []string
	for i := range sitemapMaxURLs + 10 {
		slugs = append(slugs, fmt.Sprintf("l%06d", i))
	}
	var files []OutFile
	each := func(fn func(string) error) error {
		for _, s := range slugs {
			if err := fn(s); err != nil {
				return err
			}
		}
		return nil
	}
	err := sitemaps("https://x.example", len(slugs), each, func(name string, write func(io.Writer) error) error {
		var b bytes.Buffer
		err := write(&b)
		files = append(files, OutFile{Name: name, Data: b.Bytes()})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	if diff := cmp.Diff([]string{"sitemap-1.xml", "sitemap-2.xml", "sitemap.xml"}, names); diff != "" {
		t.Fatalf("files (-want +got):\n%s", diff)
	}
	if n := bytes.Count(files[0].Data, []byte("<url>")); n != sitemapMaxURLs {
		t.Errorf("sitemap-1.xml has %d URLs, want %d", n, sitemapMaxURLs)
	}
	if n := bytes.Count(files[1].Data, []byte("<url>")); n != 11 { // the gallery and 10 logos
		t.Errorf("sitemap-2.xml has %d URLs, want 11", n)
	}
	// Every URL once, in order, across the two files.
	wantURLs := []string{"https://x.example/"}
	for _, s := range slugs {
		wantURLs = append(wantURLs, "https://x.example/logos/"+s+"/")
	}
	var urls []string
	for _, f := range files[:2] {
		for _, m := range regexp.MustCompile(`<url><loc>([^<]*)</loc></url>`).FindAllSubmatch(f.Data, -1) {
			urls = append(urls, string(m[1]))
		}
	}
	if diff := cmp.Diff(wantURLs, urls); diff != "" {
		t.Errorf("URLs (-want +got):\n%s", diff)
	}
	want := "<sitemap><loc>https://x.example/sitemap-1.xml</loc></sitemap>\n<sitemap><loc>https://x.example/sitemap-2.xml</loc></sitemap>\n"
	if !bytes.Contains(files[2].Data, []byte(want)) || !bytes.HasPrefix(files[2].Data, []byte(`<?xml version="1.0" encoding="UTF-8"?>`+"\n<sitemapindex ")) {
		t.Errorf("sitemap.xml is not their index:\n%s", files[2].Data)
	}
}

// TestSiteOutputsDoNotCollide: the site's own files sit at the top of the
// tree and logos under logos/<slug>/, so no slug can clash with them (the
// one that would, "registry", is reserved: see TestValidateRules); and
// two outputs of one name are found rather than one dropped.
func TestSiteOutputsDoNotCollide(t *testing.T) {
	file := []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M0 0h24v24H0z"/></svg>`)
	jsx := testJSX(t, file)
	logo := func(slug string) *Logo {
		return &Logo{Slug: slug, Name: slug, Hex: "#123456", Component: pascal(slug) + "Icon",
			Variants: []*VariantFile{{Variant: "icon", Meta: FileMeta{Source: "https://x.example", License: "MIT"}, Optimised: file, JSX: jsx, Info: &svg.Info{ViewBox: [4]float64{0, 0, 24, 24}}}}}
	}
	col := &Collection{}
	for _, slug := range []string{"404", "api", "assets", "favicon", "index", "logos", "r", "sitemap", "sitemap-1"} {
		col.Logos = append(col.Logos, logo(slug))
	}
	files, err := Render(context.Background(), col, RenderOptions{BaseURL: "https://x.example"})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, f := range files {
		names[f.Name] = true
	}
	for _, want := range []string{"404.html", "favicon.svg", "sitemap.xml", "index.html", "api/logos.json", "r/registry.json"} {
		if !names[want] {
			t.Errorf("the site's %s is missing", want)
		}
	}
	for _, l := range col.Logos {
		for _, want := range []string{"logos/" + l.Slug + "/index.html", "logos/" + l.Slug + "/icon.svg", "api/logos/" + l.Slug + ".json", "r/" + l.Slug + ".json"} {
			if !names[want] {
				t.Errorf("logo %s: %s is missing", l.Slug, want)
			}
		}
	}
	col.Logos = append(col.Logos, logo("api"))
	files, err = Render(context.Background(), col, RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(findClashes(files)) == 0 {
		t.Errorf("two logos with one slug: no clash found")
	}
}

// TestSiteNotFoundPage: the 404 page links from the base URL's path, as it
// is served at whatever path was missing.
func TestSiteNotFoundPage(t *testing.T) {
	for base, root := range map[string]string{"": "/", "https://x.example": "/", "https://x.example/cdn/logos/": "/cdn/logos/"} {
		files, err := Render(context.Background(), &Collection{}, RenderOptions{BaseURL: base})
		if err != nil {
			t.Fatal(err)
		}
		var page []byte
		for _, f := range files {
			if f.Name == "404.html" {
				page = f.Data
			}
		}
		els, text := parsePage(t, page)
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

// TestRenderGallery: the gallery rendered alone is the one Render writes.
func TestRenderGallery(t *testing.T) {
	res, err := Build(context.Background(), os.DirFS("testdata/golden/src"), Options{Render: RenderOptions{BaseURL: siteBase}})
	if err != nil {
		t.Fatal(err)
	}
	alone, err := RenderGallery(res.Collection, RenderOptions{BaseURL: siteBase})
	if err != nil {
		t.Fatal(err)
	}
	whole := map[string]string{}
	for _, f := range res.Files {
		whole[f.Name] = string(f.Data)
	}
	var names []string
	for _, f := range alone {
		names = append(names, f.Name)
		if whole[f.Name] != string(f.Data) {
			t.Errorf("%s differs from the one Render writes", f.Name)
		}
	}
	if len(names) != 4 || !slices.Contains(names, "index.html") || !slices.Contains(names, faviconFile) {
		t.Errorf("RenderGallery wrote %v; want index.html, favicon.svg and the two assets", names)
	}
}

// testJSX converts a file the way the optimise stage does, for collections
// made by hand.
func testJSX(t *testing.T, data []byte) *svg.JSX {
	t.Helper()
	doc, probs := svg.Parse("x.svg", data)
	if doc == nil {
		t.Fatal(probs)
	}
	j, err := svg.ToJSX(doc, "p")
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// TestPageBuffer writes pages of many sizes into a pageBuffer, in pieces
// of many sizes, up to a page of 20 MB (the gallery of 104,100 logos is
// 30 MB; its blocks once outgrew a shift), and reads each back whole,
// with the byte of room the HTML lexer wants.
func TestPageBuffer(t *testing.T) {
	for _, size := range []int{0, 1, 4 << 10, 5000, 300 << 10, 20 << 20} {
		want := make([]byte, size)
		for i := range want {
			want[i] = byte(i*7 + i/4096)
		}
		var p pageBuffer
		for rest, i := want, 0; len(rest) > 0; i++ {
			n := min(len(rest), 1+i*37%9000)
			if k, err := p.Write(rest[:n]); k != n || err != nil {
				t.Fatalf("size %d: Write = %d, %v", size, k, err)
			}
			rest = rest[n:]
		}
		got := p.Bytes()
		if !bytes.Equal(got, want) {
			t.Errorf("size %d: read back %d bytes, differing", size, len(got))
		}
		if cap(got) <= len(got) {
			t.Errorf("size %d: no room for one more byte", size)
		}
	}
}

// galleryBothWays renders the gallery of logos a card a piece and whole.
func galleryBothWays(t testing.TB, logos []*logoSummary) (pieces, whole string) {
	t.Helper()
	r := newTestSite(t)
	if !r.pieces {
		t.Fatal("the embedded templates are not minified in pieces")
	}
	cats := []IndexCategory{{Slug: "tools", Name: "Tools", Count: len(logos)}}
	var a, b bytes.Buffer
	if err := r.galleryTo(&a, cats, memSummaries(logos)); err != nil {
		t.Fatal(err)
	}
	r.pieces = false
	if err := r.galleryTo(&b, cats, memSummaries(logos)); err != nil {
		t.Fatal(err)
	}
	return a.String(), b.String()
}

// TestGalleryPieces: the gallery minified a card at a time is byte for
// byte the gallery minified whole, for the text a logo can bring to its
// card: spaces at either end, runs of white space, entities, markup, a
// template's braces and an end tag among them.
func TestGalleryPieces(t *testing.T) {
	defer func(n int) { galleryPiece = n }(galleryPiece)
	galleryPiece = 1
	odd := []string{
		"Acme", " Lead", "Trail ", "  two  spaces  ", "tab\tand\nnewline", "\u00a0nbsp\u00a0",
		"a & b", "&amp;", "<b>bold</b>", "</li><li>", "{{.Slug}}", "</p>", "<!--", "<script>x</script>",
		"<pre>", "\"quoted\" 'single'", "é 東京 🙂", "",
	}
	var logos []*logoSummary
	for i, name := range odd {
		logos = append(logos, &logoSummary{
			Slug: fmt.Sprintf("logo-%d", i), Name: name, Hex: "#" + strings.Repeat(strconv.Itoa(i%10), 6),
			Categories: []string{"tools"}, Aliases: []string{name, odd[(i+1)%len(odd)]},
			Variants: []string{"icon"}, DarkIcon: i%2 == 0, IconOnDark: i%3 == 0,
		})
	}
	for _, n := range []int{0, 1, 2, len(logos)} {
		for _, size := range []int{1, 200, 64 << 10} {
			galleryPiece = size
			pieces, whole := galleryBothWays(t, logos[:n])
			if diff := cmp.Diff(whole, pieces); diff != "" {
				t.Errorf("%d logos, pieces of %d bytes: (-whole +pieces):\n%s", n, size, diff)
			}
		}
	}
}

// FuzzGalleryPieces holds the gallery minified a card at a time to the
// gallery minified whole, for any name, alias and colour of three logos.
func FuzzGalleryPieces(f *testing.F) {
	f.Add(" a  b ", "x\ny", "#FFFFFF", uint8(3))
	f.Add("</li>", "<p>", "&lt;", uint8(0))
	f.Fuzz(func(t *testing.T, name, alias, hex string, mask uint8) {
		defer func(n int) { galleryPiece = n }(galleryPiece)
		galleryPiece = 1
		var logos []*logoSummary
		for i := range 3 {
			l := &logoSummary{Slug: fmt.Sprintf("l%d", i), Name: name, Hex: hex, Variants: []string{"icon"}, DarkIcon: mask&(1<<i) != 0}
			if mask&(8<<i) != 0 {
				l.Aliases = []string{alias, name}
				l.Categories = []string{alias}
			}
			logos = append(logos, l)
		}
		pieces, whole := galleryBothWays(t, logos)
		if pieces != whole {
			t.Errorf("pieces differ from the whole page:\n%s", cmp.Diff(whole, pieces))
		}
	})
}

// cardTemplate is the embedded templates' set, whose "card" template
// cardView.html must match.
func cardTemplate(t testing.TB) *htmltemplate.Template {
	t.Helper()
	set, err := parsePages(templates.FS)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// checkCard compares the card renderCard gives the embedded set with the
// "card" template executed.
func checkCard(t testing.TB, set *htmltemplate.Template, c cardView) {
	t.Helper()
	var want strings.Builder
	if err := set.ExecuteTemplate(&want, "card", c); err != nil {
		t.Fatal(err)
	}
	got, err := renderCard(set, true, c)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want.String() {
		t.Errorf("card of %+v (-template +html):\n%s", c, cmp.Diff(want.String(), string(got)))
	}
}

// TestCardHTML: the card written in Go is the "card" template's, byte
// for byte, for the text a logo can bring (every character html/template
// replaces, invalid UTF-8, NUL) and each kind of tile.
func TestCardHTML(t *testing.T) {
	set := cardTemplate(t)
	odd := []string{
		"", "Acme", "a & b", "<b>x</b>", `"q" 'q'`, "1+1", "\x00nul", "\xff\xfe bad", "é 東京 🙂", "\uFDD0\uFFFE",
		"javascript:alert(1)", "tab\tnew\nline", "&amp;", "{{.Slug}}",
	}
	for i, s := range odd {
		slug := fmt.Sprintf("logo-%d", i)
		for k, tile := range []tileView{newTile(&logoSummary{}, "logos/"+slug+"/"), newTile(&logoSummary{DarkIcon: true}, "logos/"+slug+"/"), newTile(&logoSummary{IconOnDark: true}, "logos/"+slug+"/")} {
			checkCard(t, set, cardView{Slug: slug, Name: s, Hex: s, Categories: s + " tools", Aliases: odd[(i+k)%len(odd)], Tile: tile})
		}
	}
	// Slugs no folder may have: the ones plainURL lets through are
	// written in Go (escaped as text, & and + among them), the others
	// take the template; both give the template's bytes. A srcset is
	// split at commas: "x/a,javascript:y" makes its second URL unsafe.
	for _, slug := range []string{"Acme_Co.1~", "a&b+c", "a=b;c,d", "50%25", "a b", "a'b", "a(b)", "ja:x", "é", "a,b", "x/a,javascript:y"} {
		for _, tile := range []tileView{newTile(&logoSummary{}, "logos/"+slug+"/"), newTile(&logoSummary{DarkIcon: true}, "logos/"+slug+"/")} {
			checkCard(t, set, cardView{Slug: slug, Name: slug, Tile: tile})
		}
	}
}

// FuzzCardHTML holds the card renderCard gives to the "card" template's
// for any text and slug (one with a URL that is not plain takes the
// template).
func FuzzCardHTML(f *testing.F) {
	f.Add("acme", "Acme & Co", "#FF0000", "tools", "ACME\nacme", uint8(1))
	f.Add("x-1", "<i>", "'", "\x00", "", uint8(2))
	f.Add("a b", "a", "b", "c", "d", uint8(0))
	set := cardTemplate(f)
	f.Fuzz(func(t *testing.T, slug, name, hex, cats, aliases string, tile uint8) {
		checkCard(t, set, cardView{Slug: slug, Name: name, Hex: hex, Categories: cats, Aliases: aliases,
			Tile: newTile(&logoSummary{DarkIcon: tile&1 != 0, IconOnDark: tile&2 != 0}, logoDir(slug)+"/")})
	})
}

// BenchmarkCard compares a card written in Go with the template's.
func BenchmarkCard(b *testing.B) {
	set := cardTemplate(b)
	c := cardView{Slug: "acme", Name: "Acme & Co", Hex: "#FF5500", Categories: "tools dev", Aliases: "ACME\nAcme Corp",
		Tile: newTile(&logoSummary{DarkIcon: true}, "logos/acme/")}
	b.Run("html", func(b *testing.B) {
		for b.Loop() {
			_ = c.html()
		}
	})
	b.Run("template", func(b *testing.B) {
		var w strings.Builder
		for b.Loop() {
			w.Reset()
			if err := set.ExecuteTemplate(&w, "card", c); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestGalleryCardSkeleton: a card written from its skeleton is the card
// minified, and a card with a value the minifier would change is left to
// the template.
func TestGalleryCardSkeleton(t *testing.T) {
	r := newTestSite(t)
	tile := tileView{Icon: "logos/acme/icon.svg"}
	for _, tc := range []struct {
		name string
		card cardView
		want bool // written from the skeleton
	}{
		{"plain", cardView{Slug: "acme", Name: "Acme", Hex: "#FF0000", Categories: "tools", Tile: tile}, true},
		{"no category", cardView{Slug: "acme", Name: "Acme", Hex: "#FF0000", Tile: tile}, true},
		{"two categories, an alias", cardView{Slug: "acme", Name: "Acme Corp", Hex: "#FF0000", Categories: "tools brands", Aliases: "ACME Inc.", Tile: tile}, true},
		{"quote and equals", cardView{Slug: "acme", Name: "Acme's = best", Hex: "#00FF00", Categories: "tools", Aliases: "it's", Tile: tile}, true},
		{"dark icon", cardView{Slug: "acme", Name: "Acme", Hex: "#000000", Categories: "tools", Tile: tileView{Icon: tile.Icon, Dark: "logos/acme/icon-dark.svg"}}, true},
		{"plate", cardView{Slug: "acme", Name: "Acme", Hex: "#000000", Categories: "tools", Tile: tileView{Icon: tile.Icon, Plate: true}}, true},
		{"non-ASCII", cardView{Slug: "acme", Name: "Ācme 東京", Hex: "#000000", Tile: tile}, true},
		{"ampersand", cardView{Slug: "acme", Name: "A & B", Hex: "#000000", Tile: tile}, false},
		{"two aliases", cardView{Slug: "acme", Name: "Acme", Hex: "#000000", Aliases: "A\nB", Tile: tile}, false},
		{"two spaces", cardView{Slug: "acme", Name: "A  B", Hex: "#000000", Tile: tile}, false},
		{"space at the end", cardView{Slug: "acme", Name: "Acme ", Hex: "#000000", Tile: tile}, false},
		{"markup", cardView{Slug: "acme", Name: "<b>", Hex: "#000000", Tile: tile}, false},
	} {
		var out bytes.Buffer
		p := &pieceMinifier{r: r, w: &out}
		if got := p.card(tc.card); got != tc.want {
			t.Errorf("%s: written from the skeleton %v, want %v", tc.name, got, tc.want)
		}
		if p.err != nil {
			t.Fatalf("%s: %v", tc.name, p.err)
		}
		if !tc.want {
			if out.Len() != 0 {
				t.Errorf("%s: a card left to the template wrote %q", tc.name, out.String())
			}
			continue
		}
		var want bytes.Buffer
		if err := r.m.Minify("text/html", &want, strings.NewReader("\n    "+tc.card.html())); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want.String(), out.String()); diff != "" {
			t.Errorf("%s: (-minified +skeleton):\n%s", tc.name, diff)
		}
	}
}

// TestSitemapEscapes holds each URL of a sitemap to xml.EscapeText of the
// whole URL, for a base and paths that need escaping and ones that do
// not: the base is escaped once and a plain path not at all.
func TestSitemapEscapes(t *testing.T) {
	for _, base := range []string{"https://x.example", "https://x.example/a&b'<\">", "https://x.example/é\u00a0\x7f"} {
		paths := []string{"github", "a&b", "é", "tab\there", "new\nline", "bad\xffbyte", "plain-1"}
		var got bytes.Buffer
		err := sitemaps(base, len(paths), func(fn func(string) error) error {
			for _, p := range paths {
				if err := fn(p); err != nil {
					return err
				}
			}
			return nil
		}, func(name string, write func(io.Writer) error) error { return write(&got) })
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		want.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		for _, p := range append([]string{""}, paths...) {
			if p != "" {
				p = logoDir(p) + "/"
			}
			want.WriteString("<url><loc>")
			xml.EscapeText(&want, []byte(base+"/"+p))
			want.WriteString("</loc></url>\n")
		}
		want.WriteString("</urlset>\n")
		if diff := cmp.Diff(want.String(), got.String()); diff != "" {
			t.Errorf("base %q (-xml.EscapeText +sitemaps):\n%s", base, diff)
		}
	}
	for c := range 256 {
		s := string([]byte{'a', byte(c)})
		var esc bytes.Buffer
		xml.EscapeText(&esc, []byte(s))
		if plainXML(s) && esc.String() != s {
			t.Errorf("plainXML(%q) is true, but xml.EscapeText gives %q", s, esc.String())
		}
	}
	if !plainXML("logos/github-2/") {
		t.Error("a logo page's path is not plain")
	}
}
