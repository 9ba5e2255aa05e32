package main

// Browser tests: the real build and serve commands, driven through run(),
// and Debian's headless Chromium driven through the DevTools protocol
// (chromedp). They skip where Chromium is not installed; .ci/run installs
// it. Screenshots go to test-output/ at the top of the repository.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
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

	"logoindex/generator"
	"logoindex/internal/preview"

	"logoindex/internal/testskip"
)

// findChromium returns Debian's chromium, or "" when it is not installed.
func findChromium() string {
	if p := os.Getenv("LOGOINDEX_CHROMIUM"); p != "" {
		return p
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

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
	index generator.Index
}

// buildBase is the base URL the test tree is built for. It is not where
// the test serves it: the pages must load everything through relative
// links, and show this base only in the URLs they offer to copy.
const buildBase = "https://cdn.example.com/logos"

// startSite builds source-logos into a temporary folder and serves it
// with `serve -log` on a free port.
func startSite(t *testing.T, ctx context.Context) *site {
	t.Helper()
	s := &site{dist: filepath.Join(t.TempDir(), "dist"), log: newLineLog()}
	var out, errb bytes.Buffer
	src := filepath.Join(moduleRoot(t), "source-logos")
	if err := run(ctx, []string{"build", "-src", src, "-out", s.dist, "-base-url", buildBase}, &out, &errb); err != nil {
		t.Fatalf("build: %v\n%s", err, errb.String())
	}
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
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
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

// newBrowser starts headless Chromium with a fresh profile.
func newBrowser(t *testing.T, ctx context.Context, chrome string) context.Context {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chrome),
		chromedp.Headless,
		chromedp.NoSandbox, // root in a container: the sandbox cannot start
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 860),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancelBrowser()
		cancelAlloc()
	})
	if _, err := chromedp.Call(bctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		t.Fatalf("starting %s: %v", chrome, err)
	}
	return bctx
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
	// Wait for the images in view, so the picture shows them.
	do(t, ctx, js[chromedp.Void](`Promise.all([...document.images]
		.filter(i => i.getBoundingClientRect().top < innerHeight * 3 && getComputedStyle(i).display !== "none")
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
func expectSearch(idx generator.Index, q, category string) []string {
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
	jsGalleryReady = `#grid[aria-busy="false"]`
	// jsContrast lists the text on the page whose colour against its
	// background is below WCAG AA: 4.5:1, or 3:1 for large text.
	jsContrast = `(() => {
		const parse = (s) => { const m = /rgba?\(([^)]+)\)/.exec(s); if (!m) return null;
			const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number); return { rgb: p.slice(0, 3), a: p.length > 3 ? p[3] : 1 }; };
		const lum = (rgb) => { const [r, g, b] = rgb.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
			return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
		const bgOf = (el) => { for (let e = el; e; e = e.parentElement) { const c = parse(getComputedStyle(e).backgroundColor); if (c && c.a > 0.5) return c.rgb; } return [255, 255, 255]; };
		const bad = []; const seen = new Set();
		const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
		while (walk.nextNode()) {
			const n = walk.currentNode, el = n.parentElement;
			if (!n.textContent.trim() || seen.has(el)) continue;
			seen.add(el);
			const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
			if (r.width < 2 || r.height < 2 || cs.visibility === "hidden" || el.closest("[hidden], noscript")) continue;
			const fg = parse(cs.color).rgb, bg = bgOf(el);
			const l1 = lum(fg), l2 = lum(bg), ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
			const size = parseFloat(cs.fontSize), large = size >= 24 || (parseInt(cs.fontWeight, 10) >= 700 && size >= 18.66);
			if (ratio < (large ? 3 : 4.5)) bad.push(el.tagName + " \"" + n.textContent.trim().slice(0, 40) + "\" " + ratio.toFixed(2) + ":1");
		}
		return bad;
	})()`
	jsMissingAlt = `[...document.images].filter(i => !i.alt.trim()).map(i => i.src)`
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
	chrome := findChromium()
	if chrome == "" {
		testskip.Missing(t, "chromium", "apt-get install chromium")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	s := startSite(t, ctx)
	b := newBrowser(t, ctx, chrome)
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
		if n := s.log.count("GET /api/logos.json 200"); n != 1 {
			t.Errorf("the gallery fetched api/logos.json %d times, want once", n)
		}
		checkAccessible(t, b, "gallery")
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

	t.Run("index is cached on the client", func(t *testing.T) {
		before := s.log.count("GET /api/logos.json 200")
		do(t, b, chromedp.Navigate(s.base+"/"), ready(jsGalleryReady), chromedp.Reload(), ready(jsGalleryReady))
		if n := get(t, b, js[int](`document.querySelectorAll("#grid > li").length`)); n != len(allSlugs) {
			t.Errorf("from the stored copy the gallery shows %d cards, want %d", n, len(allSlugs))
		}
		if after := s.log.count("GET /api/logos.json 200"); after != before {
			t.Errorf("reloading fetched api/logos.json again (%d -> %d); the stored copy should serve", before, after)
		}
		// Age the stored copy past max-age: the next view revalidates with
		// If-None-Match and gets a 304, not the whole file.
		do(t, b, js[chromedp.Void](`(() => {
			for (const k of Object.keys(localStorage)) if (k.endsWith(":meta")) {
				const m = JSON.parse(localStorage.getItem(k)); m.at = 0; localStorage.setItem(k, JSON.stringify(m));
			}
		})()`), chromedp.Reload(), ready(jsGalleryReady))
		wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
		defer wcancel()
		if _, err := s.log.waitFor(wctx, regexp.MustCompile(`^GET /api/logos\.json 304$`)); err != nil {
			t.Error(err)
		}
		if after := s.log.count("GET /api/logos.json 200"); after != before {
			t.Errorf("revalidation downloaded the index again (%d -> %d 200s)", before, after)
		}
	})

	var detail generator.Detail
	if err := json.Unmarshal([]byte(s.get(t, "/api/logos/github.json")), &detail); err != nil {
		t.Fatal(err)
	}

	t.Run("logo page shows every variant on light and dark", func(t *testing.T) {
		type shown struct {
			Light, Dark   string // img src
			LightW, DarkW int    // naturalWidth: 0 when the file failed
			URL, License  string
		}
		do(t, b, chromedp.Navigate(s.base+"/logos/github/"), ready(`#variants-heading`))
		got := get(t, b, js[map[string]shown](`Promise.all([...document.images].map(i => i.decode().catch(() => 0))).then(() => {
			const out = {};
			for (const a of document.querySelectorAll("article.variant")) {
				const l = a.querySelector(".on-light img"), d = a.querySelector(".on-dark img");
				out[a.id.replace("variant-", "")] = {
					Light: l.getAttribute("src"), Dark: d.getAttribute("src"), LightW: l.naturalWidth, DarkW: d.naturalWidth,
					URL: a.querySelector("code.url").textContent,
					License: a.querySelector(".file-facts div:last-child dd").textContent,
				};
			}
			return out;
		})`))
		want := map[string]shown{}
		for v, url := range detail.SVG {
			if !strings.HasPrefix(url, buildBase+"/") {
				t.Errorf("detail URL %q does not start with the build's base URL", url)
			}
			w := got[v] // widths are only checked to be non-zero
			want[v] = shown{Light: v + ".svg", Dark: v + ".svg", LightW: max(w.LightW, 1), DarkW: max(w.DarkW, 1), URL: url, License: detail.Files[v].License}
			if w.LightW == 0 || w.DarkW == 0 {
				t.Errorf("variant %s did not load on both backgrounds: %+v", v, w)
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("variants (-want +got):\n%s", diff)
		}
		hex, component, install, facts := get(t, b, text("#hex")), get(t, b, text(".code-facts code")), get(t, b, text("#install")), get(t, b, text(".facts"))
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
		screenshot(t, b, "gallery-light.png", false)
		do(t, b, click(`[data-theme-toggle]`))
		src := get(t, b, js[string](`document.querySelector('li[data-slug="github"] img').getAttribute("src")`))
		if th := theme(); th != "dark" || src != "logos/github/icon-dark.svg" {
			t.Errorf("after the toggle: theme %q, GitHub card shows %q; want dark and icon-dark", th, src)
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
		if n := get(t, b, js[int](fmt.Sprintf(jsLoaded, ".previews img"))); n != 8 {
			t.Errorf("%d of the first 8 variant images loaded under a sub-path", n)
		}
		do(t, b, click(".crumbs a"), ready(jsGalleryReady))
		if loc := get(t, b, chromedp.Location()); loc != root {
			t.Errorf("All logos led to %s, want %s", loc, root)
		}
	})

	t.Run("stays usable at 5,000 logos", func(t *testing.T) {
		setup := time.Now()
		dir := filepath.Join(t.TempDir(), "dist")
		if err := os.CopyFS(dir, os.DirFS(s.dist)); err != nil {
			t.Fatal(err)
		}
		idx := s.index
		idx.Logos = slices.Clone(idx.Logos)
		idx.Categories = slices.Clone(idx.Categories)
		const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><title>Synthetic</title><circle cx="12" cy="12" r="10" fill="#369"/></svg>`
		for i := 0; len(idx.Logos) < 5000; i++ {
			slug := fmt.Sprintf("synthetic-%04d", i)
			c := &idx.Categories[i%len(idx.Categories)]
			c.Count++
			idx.Logos = append(idx.Logos, generator.IndexEntry{
				Slug: slug, Name: fmt.Sprintf("Synthetic %04d", i), Categories: []string{c.Slug}, Hex: "#336699",
				Page: buildBase + "/logos/" + slug + "/", SVG: generator.VariantMap{"icon": buildBase + "/logos/" + slug + "/icon.svg"},
			})
			writeFile(t, filepath.Join(dir, "logos", slug, "icon.svg"), svg)
		}
		data, err := json.Marshal(idx)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "api", "logos.json"), string(data))
		t.Logf("5,000 logos written in %s", time.Since(setup).Round(time.Millisecond))
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
		t.Logf("5,000 logos (%d KB of JSON): gallery ready in %s; %d icons requested", len(data)>>10, time.Since(start).Round(time.Millisecond), icons.Load())
		t.Logf("page timings (ms): %s", get(t, b, js[string](`JSON.stringify(performance.getEntriesByType("mark").map(m => [m.name, Math.round(m.startTime)]))`)))
		if status := get(t, b, text("#status")); status != "5000 logos" {
			t.Errorf("status %q, want 5000 logos", status)
		}
		// The grid holds the first pages, not 5,000 cards; scrolling to the
		// end adds more.
		const jsCards = `document.querySelectorAll("#grid > li").length`
		first := get(t, b, js[int](jsCards))
		if first == 0 || first >= 2000 {
			t.Errorf("the gallery put %d cards in the page at first; want the first pages only", first)
		}
		do(t, b, js[chromedp.Void](`window.scrollTo(0, document.body.scrollHeight)`),
			chromedp.Poll[chromedp.Void](fmt.Sprintf("%s > %d", jsCards, first)))
		start = time.Now()
		do(t, b, chromedp.SendKeys(chromedp.CSS("#search"), "4321"))
		t.Logf("typing 4 characters: %s", time.Since(start).Round(time.Millisecond))
		if diff := cmp.Diff([]string{"synthetic-4321"}, visible()); diff != "" {
			t.Errorf("search among 5,000 (-want +got):\n%s", diff)
		}
		// Images load lazily: a gallery view asks for what is on screen,
		// not for 5,000 files.
		if n := icons.Load(); n > 1000 {
			t.Errorf("the gallery requested %d icons; lazy loading should keep it to the first screens", n)
		}
	})
}

// writeFile writes data to name, creating its folder.
func writeFile(t *testing.T, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
