package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator/svg"
	"logoindex/templates"
)

// TestShapes: two data of one shape have one key; every change a template
// could branch on gives another.
func TestShapes(t *testing.T) {
	type item struct {
		Name  string
		Kind  string `skeleton:"literal"`
		On    bool
		Count int
	}
	type data struct {
		Title string
		Items []item
	}
	base := data{Title: "A", Items: []item{{Name: "x", Kind: "icon", On: true, Count: 1}}}
	same := data{Title: "Another title", Items: []item{{Name: "y y", Kind: "icon", On: true, Count: 1}}}
	key := func(d data) string {
		sh, ok := placeholders(d, func(string) (bool, bool) { return false, true })
		if !ok {
			t.Fatalf("%+v: not fit for a skeleton", d)
		}
		// The shape read without a copy, as a page whose skeleton is
		// made already reads it, must be the same.
		var w shapeWalker
		w.shapeOf(d, func(string) (bool, bool) { return false, true })
		if diff := cmp.Diff([]any{sh.key, sh.values, true}, []any{string(w.key), w.values, w.ok}); diff != "" {
			t.Errorf("%+v: shapeOf against placeholders (-want +got):\n%s", d, diff)
		}
		return sh.key
	}
	if key(base) != key(same) {
		t.Errorf("two data of one shape have two keys:\n%s\n%s", key(base), key(same))
	}
	for name, d := range map[string]data{
		"an empty value": {Title: "", Items: base.Items},
		"a longer list":  {Title: "A", Items: []item{base.Items[0], base.Items[0]}},
		"a literal":      {Title: "A", Items: []item{{Name: "x", Kind: "wordmark", On: true, Count: 1}}},
		"a boolean":      {Title: "A", Items: []item{{Name: "x", Kind: "icon", On: false, Count: 1}}},
		"a number":       {Title: "A", Items: []item{{Name: "x", Kind: "icon", On: true, Count: 2}}},
		"no list":        {Title: "A"},
	} {
		if key(d) == key(base) {
			t.Errorf("%s gives the same key", name)
		}
	}
	sh, _ := placeholders(same, func(s string) (bool, bool) { return strings.Contains(s, " "), true })
	got := sh.data.(data)
	if diff := cmp.Diff(data{Title: "Qz0 q", Items: []item{{Name: "Qz1 q", Kind: "icon", On: true, Count: 1}}}, got); diff != "" {
		t.Errorf("placeholders (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Another title", "y y"}, sh.values); diff != "" {
		t.Errorf("values (-want +got):\n%s", diff)
	}
	if _, ok := placeholders(map[string]string{"a": "b"}, spacedInText); ok {
		t.Error("a map is fit for a skeleton: a template ranges over it by key")
	}
}

// newTestSite is the site renderer of the embedded templates.
func newTestSite(t testing.TB) *siteRenderer {
	t.Helper()
	r, _, err := newSiteRenderer("https://cdn.example/logos", templates.FS)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// pageOfValues is a logo page whose values are those given: a name, an
// alias, a URL (guidelines, source, licence), an install command, a
// licence and a hex colour.
func pageOfValues(name, alias, url, install, license, hex string) logoData {
	d := logoData{
		pageData:   pageData{Title: name + " logo · Logo index", Description: name, Root: logoRoot, CSS: "assets/site.a.css", JS: "assets/site.a.js", Icon: "icon.svg", Page: "logo", URL: url, Image: url, ImageAlt: name},
		Logo:       logoView{Slug: "acme", Name: name, Page: url, Component: "AcmeIcon", Install: install, Guidelines: url},
		Tile:       tileView{Icon: "icon.svg", Dark: url},
		Swatch:     newSwatch(hex),
		Categories: []categoryLink{{Slug: alias, Name: name}},
		Variants: []variantView{{Name: "icon", Label: "Icon", Alt: name + " icon", Note: "n", File: "icon.svg", URL: url, Download: "acme-icon.svg",
			Width: "64", Height: "64", OnLight: true, OnDark: alias != "", Source: url, License: license, LicenseURL: url}},
		DetailURL: url, Usage: "<" + name + " />",
	}
	if alias != "" {
		d.Logo.Aliases = []string{alias, name}
	}
	return d
}

// FuzzLogoPageSkeleton fills values into a logo page's skeleton and
// compares the page with the template executed and minified whole: where
// the skeleton takes the values, the bytes must be the same.
func FuzzLogoPageSkeleton(f *testing.F) {
	r := newTestSite(f)
	f.Add("GitHub", "Octocat", "https://github.com/logos", "npx shadcn@latest add https://x.example/r/github.json", "CC0-1.0", "#181717")
	f.Add("Acme & Co.", "a  b", "https://acme.example/a b?c=d&e", "npx a; b", "LicenseRef-X", "#FF5500")
	f.Add(" Lead", "Ünï 😀", "javascript:alert(1)", "x\ny", "MIT", "#fff")
	f.Add("It's \"quoted\" <b>", "+plus+", "HTTP://Example.COM", "", "Apache-2.0", "#AABBCD")
	f.Add("Slashes", "", "https://cdn.example/a//b/c'd/+e/", "npx x add https://cdn.example/r/a b/c.json", "MIT", "#000000")
	f.Add("Path", "x", "/logos/a/ b/", "a/ /b", "MIT", "#FFFFFF")
	f.Add("Spaced", "y", "http://localhost:8080/a b/logos/x y /z", "npx a b/ c", "MIT", "#123456")
	f.Fuzz(func(t *testing.T, name, alias, url, install, license, hex string) {
		if name == "" || license == "" {
			return
		}
		d := pageOfValues(name, alias, url, install, license, hex)
		got, ok, err := r.logoPages.fillHTML(nil, d)
		if err != nil || !ok {
			return // executed whole, as want is
		}
		want, err := r.page("index.html", siteLogoTmpl, d)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Data) {
			t.Errorf("the skeleton's page differs from the template's:\n%s", cmp.Diff(string(want.Data), string(got)))
		}
	})
}

// FuzzCardSkeleton does the same for a gallery card, which the gallery
// minifies as a piece of its own.
func FuzzCardSkeleton(f *testing.F) {
	r := newTestSite(f)
	f.Add("github", "GitHub", "#181717", "devtools social", "Octocat\nOcto cat", "logos/github/icon.svg", "")
	f.Add("a", "A & B", "#FFF", "x", "", "logos/a/icon.svg", "logos/a/icon dark.svg")
	f.Fuzz(func(t *testing.T, slug, name, hex, cats, aliases, icon, dark string) {
		c := cardView{Slug: slug, Name: name, Hex: hex, Categories: cats, Aliases: aliases, Tile: tileView{Icon: icon, Dark: dark, Plate: dark == ""}}
		got, ok, err := r.cards.fillHTML(nil, c)
		if err != nil || !ok {
			return
		}
		raw, err := renderCard(r.pages, c)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := r.m.Minify("text/html", &want, strings.NewReader(string(raw))); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("the skeleton's card differs from the template's:\n%s", cmp.Diff(want.String(), string(got)))
		}
	})
}

// FuzzComponentSkeleton fills values into a component's skeleton and
// compares it with the component template executed.
func FuzzComponentSkeleton(f *testing.F) {
	reg, err := newRegistryRenderer("https://cdn.example", templates.FS)
	if err != nil {
		f.Fatal(err)
	}
	f.Add("GitHub", "github", "GitHubIcon", "CC0-1.0", "https://github.com/logos", `<path d="M0 0"/>`, "", true)
	f.Add("*/ @param `${x}`", "a-b", "ABIcon", "MIT\n", "https://x.example/*/", "<g>\n  <path/>\n</g>", "{ fill: \"red\" }", false)
	f.Fuzz(func(t *testing.T, name, slug, component, license, source, body, style string, prefix bool) {
		data := componentData{Slug: slug, Name: name, Component: component, Page: source}
		for _, v := range []string{"icon", "wordmark"} {
			data.Variants = append(data.Variants, componentVariant{Name: v, Source: source, License: license, LicenseURL: source,
				JSX: &svg.JSX{Attrs: `viewBox="0 0 24 24"`, Body: body, Style: style, Width: "1em", Height: "1em", UsesPrefix: prefix}})
		}
		got, ok, err := reg.skeletons.fillText(nil, data, applyComponentFunc)
		if err != nil || !ok {
			return
		}
		var want bytes.Buffer
		if err := reg.component.Execute(&want, data); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("the skeleton's component differs from the template's:\n%s", cmp.Diff(want.String(), string(got)))
		}
	})
}

// TestWrapURL: a URL is cut after each of its slashes, but those of
// "//", a leading or a trailing one, into spans; its parts are escaped as
// text.
func TestWrapURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://cdn.example.com/logos/github/icon.svg": "<span>https://cdn.example.com/</span><span>logos/</span><span>github/</span><span>icon.svg</span>",
		"/logos/a/":                 "<span>/logos/</span><span>a/</span>",
		"a//b/c":                    "<span>a//b/</span><span>c</span>",
		"npx add https://x/r/a <b>": "<span>npx add https://x/</span><span>r/</span><span>a &lt;b&gt;</span>",
		"it's/+1":                   "<span>it&#39;s/</span><span>&#43;1</span>",
		"example-brand":             "example-brand",
		"":                          "",
		"/":                         "/",
	} {
		if got := string(wrapURL(in)); got != want {
			t.Errorf("wrapURL(%q) = %q, want %q", in, got, want)
		}
	}
}
