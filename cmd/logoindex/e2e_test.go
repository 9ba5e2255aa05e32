package main

// Browser tests: the real build and serve commands, driven through run(),
// and Debian's headless Chromium driven through the DevTools protocol
// (chromedp). They skip where Chromium is not installed; .ci/run installs
// it. Screenshots go to test-output/ at the top of the repository.

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/google/go-cmp/cmp"

	"logoindex/generator/check"
	"logoindex/generator/render"
	"logoindex/generator/source"
	"logoindex/generator/svg"
	"logoindex/internal/browsertest"
	"logoindex/internal/preview"
)

// moduleRoot is the folder holding go.mod.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the working directory")
		}
		dir = parent
	}
}

// lineLog collects what a command prints, line by line, and lets a test
// wait for a line to appear.
type lineLog struct {
	mu      sync.Mutex
	partial []byte
	lines   []string
	changed chan struct{}
}

func newLineLog() *lineLog { return &lineLog{changed: make(chan struct{})} }

func (l *lineLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.partial = append(l.partial, p...)
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			break
		}
		l.lines = append(l.lines, string(l.partial[:i]))
		l.partial = l.partial[i+1:]
	}
	close(l.changed)
	l.changed = make(chan struct{})
	return len(p), nil
}

// count returns how many lines equal line.
func (l *lineLog) count(line string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, s := range l.lines {
		if s == line {
			n++
		}
	}
	return n
}

// waitFor waits until a line matches re and returns its submatches.
func (l *lineLog) waitFor(ctx context.Context, re *regexp.Regexp) ([]string, error) {
	for {
		l.mu.Lock()
		for _, s := range l.lines {
			if m := re.FindStringSubmatch(s); m != nil {
				l.mu.Unlock()
				return m, nil
			}
		}
		ch := l.changed
		l.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for a line matching %s: %w; got:\n%s", re, ctx.Err(), l.String())
		}
	}
}

func (l *lineLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// site is a freshly built tree served by `logoindex serve` on loopback.
type site struct {
	base  string // where the server listens: http://127.0.0.1:port
	dist  string
	log   *lineLog // the server's stdout: one line per request
	index render.Index
}

// buildBase is the base URL the test tree is built for. It is not where
// the test serves it: the pages must load everything through relative
// links, and show this base only in the URLs they offer to copy.
const buildBase = "https://cdn.example.com/logos"

// startSite builds source-logos into a temporary folder and serves it
// with `serve -log` on a free port.
func startSite(t *testing.T, ctx context.Context) *site {
	t.Helper()
	return startSiteOf(t, ctx, filepath.Join(moduleRoot(t), "source-logos"), buildBase)
}

// startSiteOf builds the source folder src for the base URL base into a
// temporary folder and serves it with `serve -log` on a free port.
func startSiteOf(t *testing.T, ctx context.Context, src, base string) *site {
	t.Helper()
	s := &site{dist: buildSite(t, ctx, src, base), log: newLineLog()}
	data, err := os.ReadFile(filepath.Join(s.dist, "api", "logos.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &s.index); err != nil {
		t.Fatal(err)
	}
	if len(s.index.Logos) < 10 {
		t.Fatalf("only %d logos in source-logos; the browser tests need a real collection", len(s.index.Logos))
	}

	serveCtx, stop := context.WithCancel(ctx)
	stderr := newLineLog()
	done := make(chan error, 1)
	go func() {
		done <- run(serveCtx, []string{"serve", "-dir", s.dist, "-addr", "127.0.0.1:0", "-log"}, s.log, stderr)
	}()
	t.Cleanup(func() {
		stop()
		// Serve ends only when stopped and returns why (main turns a
		// signal into the exit status).
		if err := <-done; err != context.Cause(serveCtx) {
			t.Errorf("serve: %v, want %v", err, context.Cause(serveCtx))
		}
		if msg := stderr.String(); msg != "" {
			t.Errorf("serve printed errors:\n%s", msg)
		}
	})
	m, err := s.log.waitFor(ctx, regexp.MustCompile(`^serving .* at (http://127\.0\.0\.1:\d+)/`))
	if err != nil {
		t.Fatal(err)
	}
	s.base = m[1]
	return s
}

// buildSite builds the source folder src for the base URL base into a
// temporary folder, which it returns.
func buildSite(t *testing.T, ctx context.Context, src, base string) string {
	t.Helper()
	dist := filepath.Join(t.TempDir(), "dist")
	var out, errb bytes.Buffer
	if err := run(ctx, []string{"build", "-src", src, "-out", dist, "-base-url", base}, &out, &errb); err != nil {
		t.Fatalf("build: %v\n%s", err, errb.String())
	}
	return dist
}

// get fetches a path of the site with Go's client.
func (s *site) get(t *testing.T, path string) string {
	t.Helper()
	res, err := http.Get(s.base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("GET %s: %d %v", path, res.StatusCode, err)
	}
	return string(b)
}

// newBrowser starts headless Chromium with a fresh profile, or skips the
// test, with pages that act as focused though the window is not.
func newBrowser(t *testing.T, ctx context.Context) context.Context {
	t.Helper()
	b := browsertest.New(t, ctx)
	if _, err := chromedp.Call(b, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		t.Fatalf("emulating focus: %v", err)
	}
	return b
}

// do runs actions in the tab, failing the test on an error.
func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// get runs an action in the tab and returns its value.
func get[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// js evaluates a JavaScript expression, awaiting a promise.
func js[T any](expr string) chromedp.Action[T] {
	return chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise)
}

// text is the visible text of the first element matching a CSS selector.
func text(sel string) chromedp.Action[string] { return chromedp.Text(chromedp.CSS(sel)) }

func click(sel string) chromedp.Action[chromedp.Void] { return chromedp.Click(chromedp.CSS(sel)) }

func ready(sel string) chromedp.Action[chromedp.Void] { return chromedp.WaitReady(chromedp.CSS(sel)) }

// screenshot saves the viewport (or the whole page) as a PNG in
// test-output/.
func screenshot(t *testing.T, ctx context.Context, name string, full bool) {
	t.Helper()
	// Wait for the images in view, so the picture shows them. An image in
	// a card that content-visibility skips is not in view, and its box
	// may read as at the top of the page.
	do(t, ctx, js[chromedp.Void](`Promise.all([...document.images]
		.filter(i => i.checkVisibility({ contentVisibilityAuto: true }))
		.filter(i => i.loading !== "lazy" || i.getBoundingClientRect().top < innerHeight)
		.map(i => i.complete ? i.decode().catch(() => 0) : new Promise(r => { i.onload = i.onerror = r; })))`))
	shot := chromedp.CaptureScreenshot()
	if full {
		shot = chromedp.FullScreenshot(100)
	}
	png := get(t, ctx, shot)
	dir := filepath.Join(moduleRoot(t), "test-output")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// fold is the gallery's search normalisation, written again in Go: lower
// case, letters and digits only.
func fold(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// expectSearch lists the slugs the gallery should show for query q.
func expectSearch(idx render.Index, q, category string) []string {
	out := []string{}
	for _, l := range idx.Logos {
		fields := append([]string{l.Name, l.Slug}, l.Aliases...)
		ok := true
		for _, tok := range strings.Fields(q) {
			tok = fold(tok)
			found := false
			for _, f := range fields {
				if strings.Contains(fold(f), tok) {
					found = true
				}
			}
			ok = ok && found
		}
		if ok && (category == "" || slices.Contains(l.Categories, category)) {
			out = append(out, l.Slug)
		}
	}
	return out
}

const (
	jsVisibleSlugs = `[...document.querySelectorAll("#grid > li:not([hidden])")].map(li => li.dataset.slug)`
	// jsGalleryReady is there once the script has read the cards: it adds
	// their buttons.
	jsGalleryReady = `#grid > li .card-actions`
	// jsColours defines parse (a CSS colour: rgb and alpha), ratio (the
	// WCAG contrast of two rgb colours) and bgOf (the opaque background
	// behind an element) for the scripts below.
	jsColours = `const parse = (s) => { const m = /rgba?\(([^)]+)\)/.exec(s); if (!m) return null;
			const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number); return { rgb: p.slice(0, 3), a: p.length > 3 ? p[3] : 1 }; };
		const lum = (rgb) => { const [r, g, b] = rgb.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
			return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
		const ratio = (a, b) => { const l1 = lum(a), l2 = lum(b); return (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05); };
		const bgOf = (el) => { for (let e = el; e; e = e.parentElement) { const c = parse(getComputedStyle(e).backgroundColor); if (c && c.a > 0.5) return c.rgb; } return [255, 255, 255]; };`
	// jsContrast lists the text on the page whose colour against its
	// background is below WCAG AA: 4.5:1, or 3:1 for large text.
	jsContrast = `(() => {
		` + jsColours + `
		const bad = []; const seen = new Set();
		const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
		while (walk.nextNode()) {
			const n = walk.currentNode, el = n.parentElement;
			if (!n.textContent.trim() || seen.has(el)) continue;
			seen.add(el);
			const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
			if (r.width < 2 || r.height < 2 || cs.visibility === "hidden" || el.closest("[hidden], noscript")) continue;
			const contrast = ratio(parse(cs.color).rgb, bgOf(el));
			const size = parseFloat(cs.fontSize), large = size >= 24 || (parseInt(cs.fontWeight, 10) >= 700 && size >= 18.66);
			if (contrast < (large ? 3 : 4.5)) bad.push(el.tagName + " \"" + n.textContent.trim().slice(0, 40) + "\" " + contrast.toFixed(2) + ":1");
		}
		return bad;
	})()`
	// jsMissingAlt lists images without alt text; alt="" is right only for
	// an image beside its name in the same link.
	jsMissingAlt = `[...document.images].filter(i => !i.alt.trim() &&
		!(i.hasAttribute("alt") && i.closest("a") && i.closest("a").textContent.trim())).map(i => i.src)`
)

// checkAccessible checks alt text and contrast on the current page.
func checkAccessible(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	if noAlt := get(t, ctx, js[[]string](jsMissingAlt)); len(noAlt) > 0 {
		t.Errorf("%s: images without alt text: %v", what, noAlt)
	}
	if low := get(t, ctx, js[[]string](jsContrast)); len(low) > 0 {
		t.Errorf("%s: text below WCAG AA contrast: %v", what, low)
	}
}

func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser test, which -short skips (make test runs it)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute) // generous: the machine may be loaded
	defer cancel()
	s := startSite(t, ctx)
	b := newBrowser(t, ctx)
	// Let the page write to the clipboard and the test read it back.
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		_, err := chromedp.CallBrowser(b, browser.SetPermission, browser.SetPermissionParams{
			Permission: &browser.PermissionDescriptor{Name: name, AllowWithoutSanitization: true},
			Setting:    browser.PermissionSettingGranted,
			Origin:     s.base,
		})
		if err != nil {
			t.Fatalf("granting %s: %v", name, err)
		}
	}
	allSlugs := expectSearch(s.index, "", "")
	visible := func() []string { return get(t, b, js[[]string](jsVisibleSlugs)) }

	t.Run("gallery lists every logo", func(t *testing.T) {
		do(t, b, chromedp.Navigate(s.base+"/"), ready(jsGalleryReady))
		if diff := cmp.Diff(allSlugs, visible()); diff != "" {
			t.Errorf("cards (-want +got):\n%s", diff)
		}
		if status, want := get(t, b, text("#status")), fmt.Sprintf("%d logos", len(allSlugs)); status != want {
			t.Errorf("status = %q, want %q", status, want)
		}
		// The page is the index: the gallery fetches no JSON.
		if n := s.log.count("GET /api/logos.json 200"); n != 0 {
			t.Errorf("the gallery fetched api/logos.json %d times; its cards are in the page", n)
		}
		// Each card shows the brand colour and offers the icon's SVG.
		type card struct{ Dot, Copy, Download, Name string }
		got := get(t, b, js[card](`(() => { const li = document.querySelector('li[data-slug="gitlab"]');
			return { Dot: getComputedStyle(li.querySelector(".dot")).backgroundColor, Copy: li.querySelector("button[data-copy-svg]").dataset.copySvg,
				Download: li.querySelector("a[download]").getAttribute("download"), Name: li.querySelector("a > span").textContent }; })()`))
		if want := (card{"rgb(252, 109, 38)", "logos/gitlab/icon.svg", "gitlab-icon.svg", "GitLab"}); got != want {
			t.Errorf("GitLab's card: %+v, want %+v", got, want)
		}
		checkAccessible(t, b, "gallery")
	})

	t.Run("without JavaScript the gallery lists every logo", func(t *testing.T) {
		tab, cancel := chromedp.NewContext(b) // a tab of its own: scripts stay off in it
		defer cancel()
		if _, err := chromedp.Call(tab, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
			t.Fatal(err)
		}
		do(t, tab, chromedp.Navigate(s.base+"/"), ready(`#grid`))
		type link struct{ Slug, Href, Name string }
		got := get(t, tab, js[[]link](`[...document.querySelectorAll("#grid > li")].map(li => {
			const a = li.querySelector("a[href]"); return { Slug: li.dataset.slug, Href: a.getAttribute("href"), Name: a.textContent };
		})`))
		var want []link
		for _, l := range s.index.Logos {
			want = append(want, link{l.Slug, "logos/" + l.Slug + "/", l.Name})
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("cards without JavaScript (-want +got):\n%s", diff)
		}
		// The script really is off, and what needs it is not shown.
		type state struct {
			Script         bool
			Search, Toggle string // display
		}
		st := get(t, tab, js[state](`({ Script: document.documentElement.classList.contains("js"),
			Search: getComputedStyle(document.querySelector(".controls")).display,
			Toggle: getComputedStyle(document.querySelector("[data-theme-toggle]")).display })`))
		if st != (state{false, "none", "none"}) {
			t.Errorf("without JavaScript: %+v; want no script, search and theme toggle hidden", st)
		}
		checkAccessible(t, tab, "gallery without JavaScript")
		screenshot(t, tab, "gallery-nojs.png", false)
		// A card is a link that works.
		do(t, tab, click(`li[data-slug="github"] a`), ready(`#variants-heading`))
		if h1 := get(t, tab, text("h1")); h1 != "GitHub" {
			t.Errorf("the GitHub card led to a page titled %q", h1)
		}
	})

	t.Run("search narrows by name and alias", func(t *testing.T) {
		do(t, b, chromedp.Navigate(s.base+"/"), ready(jsGalleryReady))
		for _, q := range []string{"octocat", "git", "SQL", "next js", "zzzz-nothing"} {
			do(t, b, chromedp.SendKeys(chromedp.CSS("#search"), q))
			got, status := visible(), get(t, b, text("#status"))
			do(t, b, chromedp.KeyEvent(kb.Escape)) // the search box clears on Escape
			want := expectSearch(s.index, q, "")
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("search %q (-want +got):\n%s", q, diff)
			}
			if len(want) == len(allSlugs) {
				t.Errorf("search %q should narrow the list; the test needs another query", q)
			}
			if len(want) == 0 && !strings.HasPrefix(status, "No logo matches") {
				t.Errorf("search %q: status %q should say nothing matches", q, status)
			}
		}
		if n := len(visible()); n != len(allSlugs) {
			t.Errorf("after Escape %d cards show, want all %d", n, len(allSlugs))
		}
		if got := expectSearch(s.index, "octocat", ""); !slices.Equal(got, []string{"github"}) {
			t.Errorf("an alias search should find GitHub alone; source-logos changed? got %v", got)
		}
	})

	t.Run("category filter with counts", func(t *testing.T) {
		do(t, b, chromedp.Navigate(s.base+"/"), ready(jsGalleryReady))
		for _, c := range s.index.Categories {
			sel := fmt.Sprintf(`button[data-category=%q]`, c.Slug)
			do(t, b, click(sel))
			got, count := visible(), get(t, b, text(sel+" .count"))
			pressed := get(t, b, chromedp.AttributeValue(chromedp.CSS(sel), "aria-pressed")).Value
			want := expectSearch(s.index, "", c.Slug)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("category %s (-want +got):\n%s", c.Slug, diff)
			}
			if count != fmt.Sprint(c.Count) || c.Count != len(want) {
				t.Errorf("category %s shows count %s, index says %d, cards %d", c.Slug, count, c.Count, len(want))
			}
			if pressed != "true" {
				t.Errorf("category %s: aria-pressed = %q after a click", c.Slug, pressed)
			}
		}
		// Counts follow the search: "sql" within databases.
		do(t, b, click(`button[data-category="databases"]`), chromedp.SendKeys(chromedp.CSS("#search"), "sql"))
		got, count := visible(), get(t, b, text(`button[data-category="databases"] .count`))
		want := expectSearch(s.index, "sql", "databases")
		if diff := cmp.Diff(want, got); diff != "" || count != fmt.Sprint(len(want)) {
			t.Errorf("sql in databases: count %s, cards (-want +got):\n%s", count, diff)
		}
		// While a search lasts, the categories it has no match in are
		// hidden (the selected one stays), not struck through.
		type chip struct {
			Slug            string
			Count           int
			Hidden, Crossed bool
		}
		chips := get(t, b, js[[]chip](`[...document.querySelectorAll("[data-category]")].map(b => ({ Slug: b.dataset.category,
			Count: +b.querySelector(".count").textContent, Hidden: b.closest("li").hidden || b.offsetParent === null,
			Crossed: getComputedStyle(b.querySelector(".chip-name")).textDecorationLine.includes("line-through") }))`))
		hiddenSome := false
		for _, c := range chips {
			want := c.Count == 0 && c.Slug != "databases"
			hiddenSome = hiddenSome || want
			if c.Hidden != want || c.Crossed {
				t.Errorf("searching sql, chip %q (%d matches): hidden %v, struck through %v", c.Slug, c.Count, c.Hidden, c.Crossed)
			}
		}
		if !hiddenSome {
			t.Error(`searching "sql" should leave some category without a match; the test needs another query`)
		}
		// The filter lives in the URL, so the view can be linked.
		if q := get(t, b, js[string](`location.search`)); q != "?q=sql&category=databases" {
			t.Errorf("location.search = %q", q)
		}
		// Clicking the pressed category again shows all.
		do(t, b, chromedp.KeyEvent(kb.Escape), click(`button[data-category="databases"]`))
		if n := len(visible()); n != len(allSlugs) {
			t.Errorf("after clearing, %d cards show, want %d", n, len(allSlugs))
		}
	})

	t.Run("keyboard", func(t *testing.T) {
		do(t, b, chromedp.Navigate(s.base+"/"), ready(jsGalleryReady), js[chromedp.Void](`document.activeElement.blur()`))
		var focused []string
		for range 20 {
			do(t, b, chromedp.KeyEvent(kb.Tab))
			focused = append(focused, get(t, b, js[string](`(() => {
				const e = document.activeElement, cs = getComputedStyle(e);
				return e.tagName + (e.id ? "#" + e.id : "") + (e.dataset.category !== undefined ? "[cat]" : "") + (cs.outlineStyle === "none" ? " no-outline" : "");
			})()`)))
		}
		for _, want := range []string{"A", "BUTTON", "INPUT#search", "BUTTON[cat]"} {
			if !slices.Contains(focused, want) {
				t.Errorf("Tab never reached %s with a visible focus outline; focus went %v", want, focused)
			}
		}
		// Enter on a focused category chip filters.
		do(t, b, js[chromedp.Void](`document.querySelector('button[data-category="browsers"]').focus()`), chromedp.KeyEvent(kb.Enter))
		if diff := cmp.Diff(expectSearch(s.index, "", "browsers"), visible()); diff != "" {
			t.Errorf("Enter on the browsers chip (-want +got):\n%s", diff)
		}
		// "/" jumps to the search box.
		do(t, b, js[chromedp.Void](`document.activeElement.blur()`), chromedp.KeyEvent("/"))
		if active := get(t, b, js[string](`document.activeElement.id`)); active != "search" {
			t.Errorf(`"/" focused %q, want the search box`, active)
		}
	})

	var detail render.LogoDetail
	if err := json.Unmarshal([]byte(s.get(t, "/api/logos/github.json")), &detail); err != nil {
		t.Fatal(err)
	}

	t.Run("logo page shows each variant on its backgrounds", func(t *testing.T) {
		type shown struct {
			Light, Dark  bool // on a light, on a dark tile
			Loaded       bool // every image of it drew
			URL, License string
		}
		do(t, b, chromedp.Navigate(s.base+"/logos/github/"), ready(`#variants-heading`))
		got := get(t, b, js[map[string]shown](`Promise.all([...document.images].map(i => i.decode().catch(() => 0))).then(() => {
			const out = {};
			for (const a of document.querySelectorAll("article.variant")) {
				const imgs = [...a.querySelectorAll(".previews img")];
				out[a.id.replace("variant-", "")] = {
					Light: !!a.querySelector(".on-light img"), Dark: !!a.querySelector(".on-dark img"),
					Loaded: imgs.length > 0 && imgs.every(i => i.naturalWidth > 0),
					URL: a.querySelector("code.url").textContent,
					License: a.querySelector(".file-facts div:last-child dd").textContent,
				};
			}
			return out;
		})`))
		// GitHub's icon and wordmark paint #181717 and black, which vanish
		// on dark; its -dark variants are white, meant for dark only.
		where := map[string][2]bool{
			"icon": {true, false}, "icon-mono": {true, true}, "icon-dark": {false, true},
			"wordmark": {true, false}, "wordmark-dark": {false, true},
		}
		want := map[string]shown{}
		for v, url := range detail.SVG {
			if !strings.HasPrefix(url, buildBase+"/") {
				t.Errorf("detail URL %q does not start with the build's base URL", url)
			}
			want[v] = shown{Light: where[v][0], Dark: where[v][1], Loaded: true, URL: url, License: detail.Files[v].License}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("variants (-want +got):\n%s", diff)
		}
		hex := get(t, b, js[string](`document.getElementById("hex").textContent`))
		component, install, facts := get(t, b, text(".code-facts code")), get(t, b, text("#install")), get(t, b, text(".facts"))
		if hex != detail.Hex || component != detail.Component || install != detail.Install {
			t.Errorf("page shows hex %q component %q install %q; detail has %q %q %q", hex, component, install, detail.Hex, detail.Component, detail.Install)
		}
		for _, a := range append(detail.Aliases, detail.Guidelines) {
			if !strings.Contains(facts, a) {
				t.Errorf("%q not shown in %q", a, facts)
			}
		}
		checkAccessible(t, b, "logo page")
	})

	t.Run("copy buttons put the text on the clipboard", func(t *testing.T) {
		do(t, b, chromedp.Navigate(s.base+"/logos/github/"), ready(`#variants-heading`))
		for _, c := range []struct{ button, want string }{
			{`button[data-copy-svg="icon.svg"]`, s.get(t, "/logos/github/icon.svg")},
			{`button[data-copy-svg="wordmark.svg"]`, s.get(t, "/logos/github/wordmark.svg")},
			{`button[data-copy-target="install"]`, detail.Install},
			{`button[data-copy-target="hex"]`, detail.Hex},
		} {
			do(t, b,
				js[chromedp.Void](`navigator.clipboard.writeText("(empty)")`),
				click(c.button),
				ready(c.button+`[data-state="done"]`),
			)
			if clip := get(t, b, js[string](`navigator.clipboard.readText()`)); clip != c.want {
				t.Errorf("%s copied %q, want %q", c.button, clip, c.want)
			}
		}
	})

	t.Run("another origin reads the index (CORS)", func(t *testing.T) {
		other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, "<!doctype html><title>another origin</title><p>another origin")
		}))
		defer other.Close()
		if other.URL == s.base {
			t.Fatal("the second server must be another origin")
		}
		type result struct {
			Status, Logos, Revalidated int
			ETag, SVG                  string
		}
		do(t, b, chromedp.Navigate(other.URL+"/"))
		got := get(t, b, js[result](fmt.Sprintf(`(async () => {
			const base = %q;
			const r = await fetch(base + "/api/logos.json");
			const j = await r.json();
			const etag = r.headers.get("ETag") || "";
			const again = await fetch(base + "/api/logos.json", { headers: { "If-None-Match": etag }, cache: "no-store" });
			const svg = await (await fetch(base + "/logos/github/icon.svg")).text();
			return { Status: r.status, Logos: j.logos.length, ETag: etag, Revalidated: again.status, SVG: svg.slice(0, 4) };
		})()`, s.base)))
		want := result{Status: 200, Logos: len(allSlugs), Revalidated: 304, SVG: "<svg", ETag: got.ETag}
		if diff := cmp.Diff(want, got); diff != "" || got.ETag == "" {
			t.Errorf("cross-origin fetches (-want +got), ETag %q:\n%s", got.ETag, diff)
		}
	})

	t.Run("screenshots in both themes", func(t *testing.T) {
		theme := func() string { return get(t, b, js[string](`document.documentElement.dataset.theme`)) }
		do(t, b, chromedp.Navigate(s.base+"/"), ready(jsGalleryReady))
		if theme() != "light" {
			do(t, b, click(`[data-theme-toggle]`))
		}
		if label := get(t, b, text(`[data-theme-toggle]`)); label != "Dark theme" {
			t.Errorf("in the light theme the toggle says %q, want Dark theme", label)
		}
		screenshot(t, b, "gallery-light.png", false)
		do(t, b, click(`[data-theme-toggle]`))
		// The card shows icon-dark, and its buttons offer that file.
		const jsGitHubCard = `(async () => { const li = document.querySelector('li[data-slug="github"]'), img = li.querySelector("img");
			await new Promise(r => setTimeout(r, 100)); await img.decode().catch(() => 0);
			return img.currentSrc.replace(location.origin + "/", "") + " " + li.querySelector("button[data-copy-svg]").dataset.copySvg; })()`
		if th, src := theme(), get(t, b, js[string](jsGitHubCard)); th != "dark" || src != "logos/github/icon-dark.svg logos/github/icon-dark.svg" {
			t.Errorf("after the toggle: theme %q, GitHub card shows and copies %q; want dark and icon-dark", th, src)
		}
		if label := get(t, b, text(`[data-theme-toggle]`)); label != "Light theme" {
			t.Errorf("in the dark theme the toggle says %q, want Light theme", label)
		}
		checkAccessible(t, b, "gallery, dark")
		screenshot(t, b, "gallery-dark.png", false)

		// The choice is remembered on the next page.
		do(t, b, chromedp.Navigate(s.base+"/logos/github/"), ready(`#variants-heading`))
		if th := theme(); th != "dark" {
			t.Errorf("the logo page opened in %q; the dark choice should persist", th)
		}
		checkAccessible(t, b, "logo page, dark")
		screenshot(t, b, "logo-github-dark.png", true)
		do(t, b, click(`[data-theme-toggle]`))
		screenshot(t, b, "logo-github-light.png", true)
	})

	t.Run("a phone's screen", func(t *testing.T) {
		tab, cancel := chromedp.NewContext(b)
		defer cancel()
		// An iPhone 14's viewport, with a touch screen and no hover.
		if _, err := chromedp.Call(tab, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: 390, Height: 844, DeviceScaleFactor: 1, Mobile: true}); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Call(tab, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: true, MaxTouchPoints: 5}); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Call(tab, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "pointer", Value: "coarse"}, {Name: "hover", Value: "none"}}}); err != nil {
			t.Fatal(err)
		}
		do(t, tab, chromedp.Navigate(s.base+"/"), ready(jsGalleryReady))
		type layout struct {
			PlaceholderFits bool // the search box's placeholder is not cut off
			KeyHint         string
			ChipRows        int // rows of category chips
			FirstCardTop    int // where the first card starts, in px
			PageWidth       int // no sideways scrolling of the page
		}
		got := get(t, tab, js[layout](`(() => {
			const input = document.getElementById("search"), cs = getComputedStyle(input);
			const g = document.createElement("canvas").getContext("2d"); g.font = cs.font;
			const room = input.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
			const tops = new Set([...document.querySelectorAll(".chip")].map(c => Math.round(c.getBoundingClientRect().top)));
			return { PlaceholderFits: g.measureText(input.placeholder).width <= room, KeyHint: getComputedStyle(document.querySelector(".search-key")).display,
				ChipRows: tops.size, FirstCardTop: Math.round(document.querySelector("#grid > li").getBoundingClientRect().top),
				PageWidth: document.documentElement.scrollWidth };
		})()`))
		if !got.PlaceholderFits || got.KeyHint != "none" || got.ChipRows != 1 || got.FirstCardTop > 844/2 || got.PageWidth > 390 {
			t.Errorf("gallery at 390x844: %+v; want the placeholder whole, no keyboard hint on a touch screen, one row of chips, cards in the first half of the screen, no sideways scroll", got)
		}
		screenshot(t, tab, "gallery-390.png", false)
		do(t, tab, chromedp.Navigate(s.base+"/logos/github/"), ready(`#variants-heading`))
		if w := get(t, tab, js[int](`document.documentElement.scrollWidth`)); w > 390 {
			t.Errorf("the logo page is %d px wide on a 390 px screen", w)
		}
		screenshot(t, tab, "logo-github-390.png", true)
	})

	t.Run("works from a sub-path of another host", func(t *testing.T) {
		mux := http.NewServeMux()
		mux.Handle("/cdn/logos/", http.StripPrefix("/cdn/logos", &preview.Handler{Dir: s.dist}))
		srv := httptest.NewServer(mux)
		defer srv.Close()
		root := srv.URL + "/cdn/logos/"
		do(t, b, chromedp.Navigate(root), ready(jsGalleryReady))
		if n := len(visible()); n != len(allSlugs) {
			t.Errorf("gallery under a sub-path shows %d cards, want %d", n, len(allSlugs))
		}
		const jsLoaded = `Promise.all([...document.querySelectorAll("%s")].slice(0, 8)
			.map(i => i.decode().then(() => 1, () => 0))).then(a => a.reduce((x, y) => x + y, 0))`
		if n := get(t, b, js[int](fmt.Sprintf(jsLoaded, "#grid img"))); n != 8 {
			t.Errorf("%d of the first 8 card images loaded under a sub-path", n)
		}
		do(t, b, click(`li[data-slug="github"] a`), ready(`#variants-heading`))
		if loc := get(t, b, chromedp.Location()); loc != root+"logos/github/" {
			t.Errorf("the GitHub card led to %s", loc)
		}
		if n, all := get(t, b, js[int](fmt.Sprintf(jsLoaded, ".previews img"))), get(t, b, js[int](`document.querySelectorAll(".previews img").length`)); n != all || n < 5 {
			t.Errorf("%d of the %d variant images loaded under a sub-path", n, all)
		}
		do(t, b, click(".crumbs a"), ready(jsGalleryReady))
		if loc := get(t, b, chromedp.Location()); loc != root {
			t.Errorf("All logos led to %s, want %s", loc, root)
		}
	})

	t.Run("stays usable at 5,000 logos", func(t *testing.T) {
		dir, pageBytes := build5000(t)
		if page, err := os.ReadFile(filepath.Join(dir, "index.html")); err != nil || bytes.Count(page, []byte("<li data-slug=")) != 5000 {
			t.Fatalf("index.html should hold 5,000 cards: %v", err)
		}
		var icons atomic.Int64
		h := &preview.Handler{Dir: dir}
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.URL.Path, "/logos/synthetic-") {
				icons.Add(1)
			}
			h.ServeHTTP(w, r)
		}))
		defer srv.Close()

		start := time.Now()
		do(t, b, chromedp.Navigate(srv.URL+"/"), ready(jsGalleryReady))
		t.Logf("5,000 logos (index.html %d KB, %d KB gzipped): gallery ready in %s; %d icons requested", pageBytes>>10, gzipSize(t, filepath.Join(dir, "index.html"))>>10, time.Since(start).Round(time.Millisecond), icons.Load())
		t.Logf("page timings (ms): %s", get(t, b, js[string](`JSON.stringify(Object.fromEntries(
			performance.getEntriesByType("mark").map(m => [m.name, Math.round(m.startTime)])
			.concat(performance.getEntriesByType("paint").map(p => [p.name, Math.round(p.startTime)]))
			.concat([["domContentLoaded", Math.round(performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd)],
				["load", Math.round(performance.getEntriesByType("navigation")[0].loadEventEnd)]])))`)))
		if status := get(t, b, text("#status")); status != "5000 logos" {
			t.Errorf("status %q, want 5000 logos", status)
		}
		// The page holds every card (it works without the script); the
		// script keeps the first pages of them in the grid, and scrolling
		// adds more.
		const jsCards = `document.querySelectorAll("#grid > li").length`
		if n := get(t, b, js[int](jsCards)); n == 0 || n >= 2000 {
			t.Errorf("the script left %d cards in the grid; want the first pages only", n)
		}
		start = time.Now()
		do(t, b, chromedp.SendKeys(chromedp.CSS("#search"), "4321"))
		t.Logf("typing 4 characters: %s", time.Since(start).Round(time.Millisecond))
		if diff := cmp.Diff([]string{"synthetic-4321"}, visible()); diff != "" {
			t.Errorf("search among 5,000 (-want +got):\n%s", diff)
		}
		start = time.Now()
		do(t, b, chromedp.KeyEvent(kb.Escape))
		t.Logf("clearing the search: %s", time.Since(start).Round(time.Millisecond))
		first := get(t, b, js[int](jsCards))
		if first == 0 || first >= 2000 {
			t.Errorf("after a search the grid holds %d cards; want the first pages only", first)
		}
		do(t, b, js[chromedp.Void](`window.scrollTo(0, document.body.scrollHeight)`),
			chromedp.Poll[chromedp.Void](fmt.Sprintf("%s > %d", jsCards, first)))
		// Images load lazily: a gallery view asks for what is on screen,
		// not for 5,000 files.
		if n := icons.Load(); n > 1000 {
			t.Errorf("the gallery requested %d icons; lazy loading should keep it to the first screens", n)
		}
	})
}

// gzipSize is the size of a file gzipped, as a CDN would send it.
func gzipSize(t *testing.T, name string) int {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(data)
	zw.Close()
	return buf.Len()
}

// build5000 writes the gallery of 5,000 synthetic logos, rendered by the
// real renderer (render.Gallery: a whole build of that many logos is slow
// under the race detector), and their icons, into a temporary
// folder; it returns the folder and the size of index.html.
func build5000(t *testing.T) (string, int) {
	t.Helper()
	setup := time.Now()
	icon := []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><title>Synthetic</title><circle cx="12" cy="12" r="10" fill="#369"/></svg>`)
	names := []string{"devtools", "databases", "social", "cloud", "design"}
	var cats []render.CategoryCount
	for _, c := range names {
		cats = append(cats, render.CategoryCount{Category: source.Category{Slug: c, Name: c}})
	}
	dir := filepath.Join(t.TempDir(), "dist")
	var logos []*render.Summary
	for i := range 5000 {
		slug := fmt.Sprintf("synthetic-%04d", i)
		c := i % len(names)
		cats[c].Count++
		logos = append(logos, &render.Summary{
			Slug: slug, Name: fmt.Sprintf("Synthetic %04d", i), Hex: "#336699", Categories: []string{names[c]},
			Variants: []string{"icon"}, IconOnDark: check.Contrast(svg.RGB{R: 0x33, G: 0x66, B: 0x99}, check.DarkBackground) >= check.MinDarkContrast,
		})
		writeTestFile(t, filepath.Join(dir, "logos", slug, "icon.svg"), icon)
	}
	files, err := render.Gallery(cats, logos, render.Options{BaseURL: buildBase})
	if err != nil {
		t.Fatal(err)
	}
	page := 0
	for _, f := range files {
		if f.Name == "index.html" {
			page = len(f.Data)
		}
		writeTestFile(t, filepath.Join(dir, filepath.FromSlash(f.Name)), f.Data)
	}
	t.Logf("5,000 logos rendered and written in %s", time.Since(setup).Round(time.Millisecond))
	return dir, page
}

// writeTestFile writes name, with its folders.
func writeTestFile(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLiveReload is the preview loop as a person uses it: pages open under
// `serve -watch` show an edit of a logo, its name and its artwork, without
// anyone touching the browser.
func TestLiveReload(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	base, src, dist, _, _ := watching(t, ctx, "-interval", "20ms")
	b := newBrowser(t, ctx)
	page := b
	gallery, closeGallery := chromedp.NewContext(b) // a second tab
	defer closeGallery()
	do(t, page, chromedp.Navigate(base+"/logos/gitlab/"), ready(`#variants-heading`))
	do(t, gallery, chromedp.Navigate(base+"/"), ready(jsGalleryReady))

	// The colour at the centre of the hero icon, as drawn.
	const jsHeroColour = `(async () => {
		const img = document.querySelector(".hero-tile img"); await img.decode();
		const c = document.createElement("canvas"); c.width = c.height = 96;
		const g = c.getContext("2d"); g.drawImage(img, 0, 0, 96, 96);
		return [...g.getImageData(48, 48, 1, 1).data].slice(0, 3).join(",");
	})()`
	eventually(t, page, "the icon before the edit", jsHeroColour, "252,109,38")

	meta := strings.Replace(goodSource()["source-logos/gitlab/logo.yaml"], "name: GitLab", "name: GitLab Next", 1)
	touch(t, filepath.Join(src, "gitlab", "logo.yaml"), meta, 1)
	eventually(t, page, "the logo page after renaming", `document.querySelector("h1").textContent`, "GitLab Next")
	eventually(t, gallery, "the gallery after renaming", `document.querySelector('li[data-slug="gitlab"] a > span').textContent`, "GitLab Next")

	touch(t, filepath.Join(src, "gitlab", "icon.svg"), strings.Replace(icon, "#FC6D26", "#1F75CB", 1), 2)
	eventually(t, page, "the icon after repainting it", jsHeroColour, "31,117,203")
	if _, err := os.Stat(filepath.Join(dist, ".preview")); err == nil {
		t.Error("the preview's files ended up in the built tree")
	}
}

// TestErrorOverlay: under `serve -watch` a broken edit shows its problems
// over the open pages, as text, and in a page opened while it lasts; the
// fix clears them and shows the change. Nothing of it breaks the pages'
// Content-Security-Policy.
func TestErrorOverlay(t *testing.T) {
	if testing.Short() {
		t.Skip("drives Chromium through a broken build and its fix; skipped with -short")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	base, src, _, _, stderr := watching(t, ctx, "-interval", "20ms")
	b := newBrowser(t, ctx)
	do(t, b, chromedp.Navigate(base+"/logos/gitlab/"), ready(`#variants-heading`),
		js[chromedp.Void](`window.violations = []; document.addEventListener("securitypolicyviolation", (e) => violations.push(e.violatedDirective + " " + e.blockedURI))`))

	meta := goodSource()["source-logos/gitlab/logo.yaml"]
	touch(t, filepath.Join(src, "gitlab", "logo.yaml"), strings.Replace(meta, `"#FC6D26"`, `"<img src=x>"`, 1), 1)
	if _, err := stderr.waitFor(ctx, regexp.MustCompile(`build failed`)); err != nil {
		t.Fatal(err)
	}
	where := filepath.ToSlash(filepath.Join(src, "gitlab", "logo.yaml")) + ":2:6"
	want := overlayShown{Title: "Build failed: 1 error", Where: []string{where}, Messages: []string{`hex "<img src=x>" is not a colour; write # and six hexadecimal digits, quoted: hex: "#1A2B3C"`}, Styled: true}
	checkOverlay(t, b, "the open page", want)
	if v := get(t, b, js[[]string](`violations`)); len(v) > 0 {
		t.Errorf("the overlay broke the page's Content-Security-Policy: %v", v)
	}
	screenshot(t, b, "overlay.png", false)

	// A page opened while the build is broken shows the problems at once.
	tab, closeTab := chromedp.NewContext(b)
	defer closeTab()
	do(t, tab, chromedp.Navigate(base+"/"), ready(jsGalleryReady))
	checkOverlay(t, tab, "a page opened after the failed build", want)
	do(t, tab, chromedp.KeyEvent(kb.Escape))
	if hidden := get(t, tab, js[bool](`document.getElementById("logoindex-preview-overlay").hidden`)); !hidden {
		t.Error("Escape did not hide the overlay")
	}

	touch(t, filepath.Join(src, "gitlab", "logo.yaml"), strings.Replace(meta, "name: GitLab", "name: GitLab Fixed", 1), 2)
	const overlayLeft = ` + (document.getElementById("logoindex-preview-overlay") ? " with the overlay" : "")`
	eventually(t, b, "the logo page after the fix", `document.querySelector("h1").textContent`+overlayLeft, "GitLab Fixed")
	eventually(t, tab, "the gallery after the fix", `document.querySelector('li[data-slug="gitlab"] a > span').textContent`+overlayLeft, "GitLab Fixed")
}

// overlayShown is what the overlay of a failed build shows.
type overlayShown struct {
	Title           string
	Where, Messages []string
	Elements        int  // elements in the problems' text: none, it is text
	Styled          bool // by overlay.css
}

// checkOverlay waits for the overlay in tab and compares what it shows.
func checkOverlay(t *testing.T, tab context.Context, what string, want overlayShown) {
	t.Helper()
	do(t, tab, chromedp.Poll[chromedp.Void](`(() => { const h = document.getElementById("logoindex-preview-overlay"); return h && !h.hidden; })()`,
		chromedp.WithPollingTimeout(20*time.Second)))
	got := get(t, tab, js[overlayShown](`(() => { const root = document.getElementById("logoindex-preview-overlay").shadowRoot;
		const all = (sel) => [...root.querySelectorAll(sel)];
		return { Title: root.querySelector(".title").textContent, Where: all(".path").map(e => e.textContent),
			Messages: all(".message").map(e => e.textContent), Elements: all(".message *").length,
			Styled: getComputedStyle(root.querySelector(".backdrop")).position === "fixed" }; })()`))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s: the overlay (-want +got):\n%s", what, diff)
	}
}

// eventually waits until expr gives want in tab; the page may reload
// meanwhile, so a failed evaluation is tried again.
func eventually(t *testing.T, tab context.Context, what, expr, want string) {
	t.Helper()
	var got string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		ectx, ecancel := context.WithTimeout(tab, 5*time.Second)
		v, err := chromedp.Run(ectx, js[string](expr))
		ecancel()
		if err == nil && v == want {
			return
		}
		got = fmt.Sprintf("%q (%v)", v, err)
	}
	t.Errorf("%s: still %s, want %q", what, got, want)
}
