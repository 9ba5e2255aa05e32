package main

// Browser tests of the site's layout: a phone's screen and a laptop's, in
// both themes. Screenshots of every page at each go to test-output/.

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"logoindex/internal/preview"
	"logoindex/internal/testtree"
)

// Long URLs: the test's base URL and a logo whose source and guidelines
// run over several lines of a phone's screen.
const (
	layoutBase = "https://cdn.example.com/brand-assets/logo-index"
	longSlug   = "example-brand-systems"
	removedOne = "example-withdrawn-brand-with-a-rather-long-slug"
)

// layoutSource is the shipped collection and, beside it, what stretches a
// page: a logo with long URLs and a near-black colour, and a removed logo
// with a long slug and reason.
func layoutSource(t *testing.T) string {
	t.Helper()
	src := filepath.Join(t.TempDir(), "source-logos")
	if err := os.CopyFS(src, os.DirFS(filepath.Join(moduleRoot(t), "source-logos"))); err != nil {
		t.Fatal(err)
	}
	const wordmark = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 24" fill="#0F0F11"><path d="M0 0h96v24H0z"/></svg>`
	testtree.Write(t, src, map[string]string{
		longSlug + "/logo.yaml": `name: Example Brand Systems International
hex: "#0F0F11"
categories: [devtools, design]
source: https://github.com/example-organisation/brand-guidelines/tree/main/assets/logos/svg/primary-mark
license: CC-BY-4.0
guidelines: https://brand.example.org/guidelines/visual-identity/logo-usage/downloads/latest
aliases: [EBSI, Example Systems]
`,
		longSlug + "/icon.svg":     strings.ReplaceAll(icon, "#FC6D26", "#0F0F11"),
		longSlug + "/wordmark.svg": wordmark,
		"removed.yaml": `- slug: ` + removedOne + `
  removed: 2026-12-01
  reason: The owner of the brand asked for its removal from the collection, and its files are no longer published anywhere here.
`,
	})
	return src
}

// screenSize is a browser window the layout is checked at.
type screenSize struct {
	name          string
	width, height int64
	phone         bool // touch, no hover
}

// emulate sets tab's screen and colour scheme.
func emulate(t *testing.T, tab context.Context, size screenSize, scheme string) {
	t.Helper()
	if _, err := chromedp.Call(tab, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: size.width, Height: size.height, DeviceScaleFactor: 1, Mobile: size.phone}); err != nil {
		t.Fatal(err)
	}
	features := []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}
	if size.phone {
		features = append(features, &emulation.MediaFeature{Name: "pointer", Value: "coarse"}, &emulation.MediaFeature{Name: "hover", Value: "none"})
	}
	if _, err := chromedp.Call(tab, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: features}); err != nil {
		t.Fatal(err)
	}
}

// TestLayout looks at every kind of page at 390x844 and 1280x800, light
// and dark: no page scrolls sideways, a URL wraps only after a slash, a
// fact's label stays beside its value, brand colours have an outline that
// shows on the page, the previews of a row of variants line up, and a row
// of chips that scrolls shows that it does.
func TestLayout(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the collection and loads 20 pages in Chromium; skipped with -short")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	// Served under the base URL's path, as published: the 404 page, served
	// at any path, links from there.
	prefix := strings.TrimPrefix(layoutBase, "https://cdn.example.com")
	mux := http.NewServeMux()
	mux.Handle(prefix+"/", http.StripPrefix(prefix, &preview.Handler{Dir: buildSite(t, ctx, layoutSource(t), layoutBase)}))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	root := srv.URL + prefix
	b := newBrowser(t, ctx)
	pages := []struct{ name, path, ready string }{
		{"gallery", "/", jsGalleryReady},
		{"logo-long", "/logos/" + longSlug + "/", "#variants-heading"},
		{"logo-github", "/logos/github/", "#variants-heading"},
		{"404", "/no/such/page", ".not-found"},
		{"removed", "/logos/" + removedOne + "/", ".removed-page"},
	}
	for _, size := range []screenSize{{"390", 390, 844, true}, {"1280", 1280, 800, false}} {
		for _, scheme := range []string{"light", "dark"} {
			t.Run(size.name+"-"+scheme, func(t *testing.T) {
				tab, closeTab := chromedp.NewContext(b)
				defer closeTab()
				emulate(t, tab, size, scheme)
				for _, p := range pages {
					do(t, tab, chromedp.Navigate(root+p.path), ready(p.ready))
					if th := get(t, tab, js[string](`document.documentElement.dataset.theme`)); th != scheme {
						t.Fatalf("%s opened in the %q theme, want %q", p.name, th, scheme)
					}
					checkLayout(t, tab, p.name, size)
					screenshot(t, tab, fmt.Sprintf("layout-%s-%s-%s.png", p.name, size.name, scheme), p.name != "gallery")
				}
			})
		}
	}
}

// checkLayout checks the page open in tab; what is page's name.
func checkLayout(t *testing.T, tab context.Context, what string, size screenSize) {
	t.Helper()
	if w := get(t, tab, js[int](`document.documentElement.scrollWidth - document.documentElement.clientWidth`)); w > 0 {
		t.Errorf("%s at %s: the page scrolls %d px sideways", what, size.name, w)
	}
	checkURLsWrap(t, tab, what)
	type row struct {
		Label  string
		Beside bool
	}
	for _, r := range get(t, tab, js[[]row](jsFactRows)) {
		if !r.Beside {
			t.Errorf("%s at %s: %q is not beside its value", what, size.name, r.Label)
		}
	}
	type outline struct {
		What         string
		Width, Ratio float64
	}
	for _, o := range get(t, tab, js[[]outline](jsColourOutlines)) {
		if o.Width < 1 || o.Ratio < 3 {
			t.Errorf("%s at %s: the outline of the %s is %.1f px at %.2f:1 against the page; want 1 px or more at 3:1", what, size.name, o.What, o.Width, o.Ratio)
		}
	}
	checkPreviewsAlign(t, tab, what, size)
	if what == "gallery" {
		checkChipsScroll(t, tab, size)
	}
}

// jsFactRows gives each row of facts (dl > div) shown: its label, and
// whether it is beside its value, left of it and on its first line.
const jsFactRows = `[...document.querySelectorAll("dl > div")].filter(d => d.getClientRects().length).map(d => {
	const dt = d.querySelector("dt").getBoundingClientRect(), dd = d.querySelector("dd").getBoundingClientRect();
	return { Label: d.querySelector("dt").textContent, Beside: dt.right <= dd.left + 0.5 && Math.abs(dt.top - dd.top) < dt.height / 2 };
})`

// jsColourOutlines gives the outline of each brand colour on the page, the
// gallery's dots and a logo page's chip: its width and its contrast with
// the background around it.
const jsColourOutlines = `(() => {
	` + jsColours + `
	const out = [];
	for (const dot of document.querySelectorAll("#grid .dot")) {
		const m = /(rgba?\([^)]*\)) 0px 0px 0px ([\d.]+)px/.exec(getComputedStyle(dot).boxShadow);
		out.push({ What: "dot of " + dot.parentElement.textContent.trim(),
			Width: m ? +m[2] : 0, Ratio: m ? ratio(parse(m[1]).rgb, bgOf(dot.parentElement)) : 0 });
	}
	for (const rect of document.querySelectorAll(".swatch rect")) {
		const cs = getComputedStyle(rect), stroke = parse(cs.stroke);
		out.push({ What: "chip " + rect.closest("svg").getAttribute("aria-label"),
			Width: stroke ? parseFloat(cs.strokeWidth) : 0, Ratio: stroke ? ratio(stroke.rgb, bgOf(rect.closest("svg").parentElement)) : 0 });
	}
	return out;
})()`

// jsURLLines gives each URL shown as text on the page, and its text line
// by line as laid out: the characters whose boxes share a line.
const jsURLLines = `(() => {
	const lines = (el) => {
		const out = []; let cur = "", top = null;
		const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
		while (walk.nextNode()) {
			const n = walk.currentNode;
			for (let i = 0; i < n.length; i++) {
				const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
				const box = r.getClientRects()[0];
				if (!box) continue;
				if (top !== null && box.top > top + box.height / 2) { out.push(cur); cur = ""; }
				top = box.top; cur += n.data[i];
			}
		}
		return out.concat([cur]);
	};
	return [...document.querySelectorAll("code, dd a")]
		.filter(el => el.textContent.includes("://") && el.getClientRects().length)
		.map(el => ({ ID: el.id, Lines: lines(el) }));
})()`

// checkURLsWrap checks that every URL on the page breaks its lines only
// after a slash; the install command, which holds one, after a space too.
func checkURLsWrap(t *testing.T, tab context.Context, what string) {
	t.Helper()
	type shown struct {
		ID    string
		Lines []string
	}
	for _, u := range get(t, tab, js[[]shown](jsURLLines)) {
		for _, l := range u.Lines[:len(u.Lines)-1] {
			if !strings.HasSuffix(l, "/") && !(u.ID == "install" && strings.HasSuffix(l, " ")) {
				t.Errorf("%s: a URL breaks its line inside a name: %q", what, u.Lines)
				break
			}
		}
	}
}

// checkPreviewsAlign checks that the variants side by side on a logo page
// show their previews at one height.
func checkPreviewsAlign(t *testing.T, tab context.Context, what string, size screenSize) {
	t.Helper()
	type card struct {
		ID            string
		Top, Previews int
	}
	cards := get(t, tab, js[[]card](`[...document.querySelectorAll("article.variant")].map(v => ({ ID: v.id,
		Top: Math.round(v.getBoundingClientRect().top), Previews: Math.round(v.querySelector(".previews").getBoundingClientRect().top) }))`))
	rows := map[int][]card{}
	sideBySide := false
	for _, c := range cards {
		for _, o := range rows[c.Top] {
			sideBySide = true
			if o.Previews != c.Previews {
				t.Errorf("%s at %s: %s shows its previews at %d px, %s beside it at %d px", what, size.name, c.ID, c.Previews, o.ID, o.Previews)
			}
		}
		rows[c.Top] = append(rows[c.Top], c)
	}
	if what == "logo-github" && !size.phone && !sideBySide {
		t.Errorf("%s at %s: no two variants side by side; the test checks nothing", what, size.name)
	}
}

// checkChipsScroll checks the gallery's categories: on a phone one row
// that scrolls, whose edges fade where chips go on beyond them; on a
// laptop rows that do not scroll.
func checkChipsScroll(t *testing.T, tab context.Context, size screenSize) {
	t.Helper()
	type fade struct {
		Scrolls    bool
		Start, End string // the fade at the row's start and end
	}
	// After a scroll, two frames: the scroll-driven fade follows.
	const jsFade = `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))).then(() => {
		const l = document.querySelector(".category-list"), cs = getComputedStyle(l);
		return { Scrolls: l.scrollWidth > l.clientWidth + 1, Start: cs.getPropertyValue("--fade-start"), End: cs.getPropertyValue("--fade-end") };
	})`
	at := func(scroll string) fade {
		return get(t, tab, js[fade](`document.querySelector(".category-list").scrollLeft = `+scroll+`, `+jsFade))
	}
	first, last := at("0"), at("1e6")
	at("0")
	if !size.phone {
		if first.Scrolls {
			t.Errorf("at %s the categories scroll sideways; they should wrap", size.name)
		}
		return
	}
	if !first.Scrolls {
		t.Fatalf("at %s the categories fit one row; the test needs a row that scrolls", size.name)
	}
	if want := (fade{true, "0px", "40px"}); first != want {
		t.Errorf("categories scrolled to the start: %+v, want the end faded: %+v", first, want)
	}
	if want := (fade{true, "40px", "0px"}); last != want {
		t.Errorf("categories scrolled to the end: %+v, want the start faded: %+v", last, want)
	}
}
