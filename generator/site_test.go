package generator

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"io/fs"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/tdewolff/parse/v2"
	htmllex "github.com/tdewolff/parse/v2/html"

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
		if name == "index.html" || name == "_headers" || strings.HasPrefix(name, "assets/") ||
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
	got := siteOutput(buildSite(t, RenderOptions{}))
	const goldenDir = "testdata/site"
	if *update {
		writeGolden(t, goldenDir, goldenDir, got)
	}
	want := readTree(t, goldenDir)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("site differs from %s (-want +got); run go test ./generator -run TestSiteGolden -update to accept:\n%s", goldenDir, diff)
	}
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
		}
	}
}

// TestSitePages checks what every page must do, whatever the templates
// look like: alt text, relative links, no inline script or style, assets
// that exist, and the facts of each logo.
func TestSitePages(t *testing.T) {
	files := buildSite(t, RenderOptions{})
	var details = map[string]Detail{}
	for name, data := range files {
		if slug, ok := strings.CutPrefix(name, "api/logos/"); ok {
			var d Detail
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
		if !strings.HasSuffix(name, "index.html") {
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
					if strings.TrimSpace(e.Attr["alt"]) == "" {
						t.Errorf("<img src=%q> has no alt text", e.Attr["src"])
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

func checkLogoPage(t *testing.T, d Detail, els []element, text string) {
	t.Helper()
	imgs := map[string]int{} // src -> count
	downloads := map[string]string{}
	copySVG := map[string]bool{}
	for _, e := range els {
		switch {
		case e.Tag == "img":
			imgs[e.Attr["src"]]++
		case e.Tag == "a" && e.Attr["download"] != "":
			downloads[e.Attr["href"]] = e.Attr["download"]
		case e.Tag == "button" && e.Attr["data-copy-svg"] != "":
			copySVG[e.Attr["data-copy-svg"]] = true
		}
	}
	for v, url := range d.SVG {
		file := v + ".svg"
		want := 2 // on light and on dark
		if v == "icon" || v == "icon-dark" {
			want = 3 // and the hero at the top
		}
		if imgs[file] != want {
			t.Errorf("%s: %d <img> of %s, want %d (light and dark backgrounds)", d.Slug, imgs[file], file, want)
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
	for _, s := range []string{siteBase + "/api/logos.json", "Nothing here yet", "2 brand logos"} {
		if !strings.Contains(text, s) {
			t.Errorf("gallery does not show %q", s)
		}
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
	// The cache lifetime in the script is the one _headers sends.
	for name, data := range files {
		if strings.HasSuffix(name, ".js") && !bytes.Contains(data, []byte("300*1e3")) && !bytes.Contains(data, []byte("3e5")) {
			t.Errorf("%s does not carry IndexMaxAge (%d s)", name, headers.IndexMaxAge)
		}
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
				Templates: fstest.MapFS{tc.file: {Data: []byte(tc.src)}},
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
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 12"><path d="M0 0h24v12H0z"/></svg>`)
	meta := FileMeta{Source: "https://example.com/?a=1&b=2", License: "MIT"}
	col := &Collection{
		Categories: []CategoryCount{{Category: Category{Slug: "tools", Name: "Tools & <things>"}, Count: 1}},
		Logos: []*Logo{{
			Slug: "x", Name: `<b>"Bold"</b> & Co`, Hex: "#123456", Categories: []string{"tools"}, Component: "XIcon",
			Aliases:  []string{"<i>ex</i>"},
			Variants: []*VariantFile{{Variant: "icon", Meta: meta, Optimised: svg, Info: &SVGInfo{ViewBox: [4]float64{0, 0, 24, 12}}}},
		}},
	}
	files, err := Render(col, RenderOptions{})
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

	empty, err := Render(&Collection{}, RenderOptions{BaseURL: siteBase})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range empty {
		if !strings.HasPrefix(f.Name, "assets/") && !strings.HasPrefix(f.Name, "r/") { // r/ is the registry's
			names = append(names, f.Name)
		}
	}
	if diff := cmp.Diff([]string{ManifestFile, "_headers", "api/logos.json", "index.html"}, names); diff != "" {
		t.Errorf("files of an empty collection (-want +got):\n%s", diff)
	}
}
