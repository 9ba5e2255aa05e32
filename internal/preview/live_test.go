package preview

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLiveHeadersAndScript: a live preview sends no-store on every answer
// and adds the reload script to HTML pages only; a plain one does
// neither and has no reserved path.
func TestLiveHeadersAndScript(t *testing.T) {
	dir := builtTree(t)
	paths := treePaths(t, dir)
	// A file of the tree under the reserved name must not be served in its
	// place: hidden names never are.
	if err := os.MkdirAll(filepath.Join(dir, ".preview"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".preview", "reload.js"), []byte("alert('from the tree')"), 0o644); err != nil {
		t.Fatal(err)
	}
	live := &Handler{Dir: dir, Live: &Live{}}
	plain := &Handler{Dir: dir}
	for _, p := range paths {
		w := serve(live, "GET", p, nil)
		if w.Code != 200 || w.Header().Get("Cache-Control") != "no-store" {
			t.Errorf("live GET %s: %d, Cache-Control %q; want 200 no-store", p, w.Code, w.Header().Get("Cache-Control"))
		}
		html := strings.HasPrefix(w.Header().Get("Content-Type"), "text/html")
		if got := strings.Count(w.Body.String(), "reload.js"); html && got != 1 || !html && got != 0 {
			t.Errorf("live GET %s (%s): %d reload scripts", p, w.Header().Get("Content-Type"), got)
		}
		if pw := serve(plain, "GET", p, nil); strings.Contains(pw.Body.String(), "reload.js") || pw.Header().Get("Cache-Control") == "no-store" {
			t.Errorf("plain GET %s: reload script or no-store in a CDN-like preview", p)
		}
	}
	// Each page says the version of the tree it was read from.
	for range 2 {
		v, _ := live.Live.version()
		for p, want := range map[string]string{
			"/":                      `<script src=".preview/reload.js" data-version="` + v + `" defer></script></head>`,
			"/index.html":            `<script src=".preview/reload.js" data-version="` + v + `" defer></script></head>`,
			"/logos/acme/":           `<script src="../../.preview/reload.js" data-version="` + v + `" defer></script></head>`,
			"/logos/acme/index.html": `<script src="../../.preview/reload.js" data-version="` + v + `" defer></script></head>`,
		} {
			if body := serve(live, "GET", p, nil).Body.String(); !strings.Contains(body, want) {
				t.Errorf("GET %s lacks %s:\n%.600s", p, want, body)
			}
		}
		live.Live.Reload()
	}
	w := serve(live, "GET", "/.preview/reload.js", nil)
	if w.Code != 200 || w.Body.String() != string(reloadJS) || w.Header().Get("Content-Type") != "text/javascript; charset=utf-8" {
		t.Errorf("GET /.preview/reload.js: %d %q %.40q", w.Code, w.Header().Get("Content-Type"), w.Body.String())
	}
	for _, h := range []*Handler{plain, live} {
		if w := serve(h, "GET", "/.preview/nope", nil); w.Code != 404 {
			t.Errorf("GET /.preview/nope: %d", w.Code)
		}
	}
	w = serve(live, "GET", "/.preview/overlay.css", nil)
	if w.Code != 200 || w.Body.String() != string(overlayCSS) || w.Header().Get("Content-Type") != "text/css; charset=utf-8" {
		t.Errorf("GET /.preview/overlay.css: %d %q %.40q", w.Code, w.Header().Get("Content-Type"), w.Body.String())
	}
	for _, p := range []string{"/.preview/reload.js", "/.preview/overlay.css", "/.preview/events"} {
		if w := serve(plain, "GET", p, nil); w.Code != 404 {
			t.Errorf("without Live, %s: %d, want 404", p, w.Code)
		}
	}
}

func TestWithReloadScript(t *testing.T) {
	const tag = `<script src="%s.preview/reload.js" data-version="ab-1" defer></script>`
	for _, tc := range []struct{ page, path, want string }{
		{"<html><head><title>x</title></head><body>", "/", "<html><head><title>x</title>" + strings.ReplaceAll(tag, "%s", "") + "</head><body>"},
		{"<HTML><HEAD></HEAD>", "/a/b/", "<HTML><HEAD>" + strings.ReplaceAll(tag, "%s", "../../") + "</HEAD>"},
		{"<p>no head", "/a/page.html", "<p>no head" + strings.ReplaceAll(tag, "%s", "../")},
		{"<p>", "/a/b/c/missing", "<p>" + strings.ReplaceAll(tag, "%s", "../../../")},
	} {
		if got := string(withReloadScript([]byte(tc.page), tc.path, "ab-1")); got != tc.want {
			t.Errorf("withReloadScript(%q, %q) = %q, want %q", tc.page, tc.path, got, tc.want)
		}
	}
}

// TestLiveEvents: the stream says the version at once and again after each
// Reload, and ends when the server's context does.
func TestLiveEvents(t *testing.T) {
	live := &Live{}
	ctx, stop := context.WithCancel(context.Background())
	srv := httptest.NewUnstartedServer(&Handler{Dir: t.TempDir(), Live: live})
	srv.Config.BaseContext = func(_ net.Listener) context.Context { return ctx }
	srv.Start()
	defer srv.Close()
	res, err := http.Get(srv.URL + "/.preview/events")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); res.StatusCode != 200 || ct != "text/event-stream" {
		t.Fatalf("events: %d %s", res.StatusCode, ct)
	}
	events := make(chan string)
	go func() {
		defer close(events)
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				events <- v
			}
		}
	}()
	next := func() string {
		t.Helper()
		select {
		case v := <-events:
			return v
		case <-time.After(10 * time.Second):
			t.Fatal("no event within 10 s")
			return ""
		}
	}
	first := next()
	live.Reload()
	second := next()
	live.Reload()
	third := next()
	if first == second || second == third || first == third {
		t.Errorf("versions %q, %q, %q: each rebuild must give a new one", first, second, third)
	}
	// A second server's versions differ from the first's, so a page that
	// reconnects to a restarted preview reloads.
	other := &Live{}
	if v, _ := other.version(); v == first {
		t.Errorf("two servers gave the same first version %q", v)
	}
	stop()
	select {
	case _, open := <-events:
		if open {
			for range events {
			}
		}
	case <-time.After(10 * time.Second):
		t.Error("the stream did not end with the server's context")
	}
}

// event is one server-sent event: its name and its data.
type event struct{ name, data string }

// openEvents opens the stream of events of the server at base and
// returns a function that waits for its next event.
func openEvents(t *testing.T, base string) func() event {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), "GET", base+"/.preview/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	events := make(chan event, 16)
	go func() {
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		var e event
		for sc.Scan() {
			line := sc.Text()
			if v, ok := strings.CutPrefix(line, "event: "); ok {
				e.name = v
			} else if v, ok := strings.CutPrefix(line, "data: "); ok {
				e.data = v
			} else if line == "" && e.name != "" {
				events <- e
				e = event{}
			}
		}
	}()
	return func() event {
		t.Helper()
		select {
		case e := <-events:
			return e
		case <-time.After(10 * time.Second):
			t.Fatal("no event within 10 s")
			return event{}
		}
	}
}

// TestLiveProblems: a failed build sends its problems to the open pages
// and to each page opened before the next good build, which clears them.
func TestLiveProblems(t *testing.T) {
	live := &Live{}
	srv := httptest.NewServer(&Handler{Dir: t.TempDir(), Live: live})
	t.Cleanup(srv.Close) // after the streams end, with t.Context()
	next := openEvents(t, srv.URL)
	first := next()
	if first.name != "version" {
		t.Fatalf("first event %+v, want the version", first)
	}
	problems := []Problem{
		{Path: "source-logos/gitlab/logo.yaml", Line: 2, Col: 6, Severity: "error", Code: "hex-invalid", Message: `hex "<b>#FC6D2</b>" is not a colour` + "\nsecond line"},
		{Path: "source-logos/gitlab/icon.svg", Severity: "warning", Code: "hex-unused", Message: "icon.svg never paints the brand colour"},
	}
	live.Failed(problems)
	const want = `{"errors":1,"warnings":1,"problems":[` +
		`{"path":"source-logos/gitlab/logo.yaml","line":2,"col":6,"severity":"error","code":"hex-invalid","message":"hex \"\u003cb\u003e#FC6D2\u003c/b\u003e\" is not a colour\nsecond line"},` +
		`{"path":"source-logos/gitlab/icon.svg","line":0,"col":0,"severity":"warning","code":"hex-unused","message":"icon.svg never paints the brand colour"}]}`
	if v, p := next(), next(); v != first || p != (event{"problems", want}) {
		t.Errorf("after Failed: %+v then %+v; want the same version, then the problems:\n%s", v, p, want)
	}
	// A page opened now learns of them at once.
	late := openEvents(t, srv.URL)
	if v, p := late(), late(); v != first || p.name != "problems" || p.data != want {
		t.Errorf("a stream opened after a failed build: %+v then %+v", v, p)
	}
	// The next good build gives a new version, and no problems.
	live.Reload()
	second := next()
	if second.name != "version" || second.data == first.data {
		t.Errorf("after Reload: %+v, want a new version", second)
	}
	third := openEvents(t, srv.URL)
	if v := third(); v != second {
		t.Errorf("a stream opened after the good build: %+v, want %+v", v, second)
	}
	// Past MaxProblems they are counted, not listed.
	many := make([]Problem, MaxProblems+5)
	for i := range many {
		many[i] = Problem{Path: "a/logo.yaml", Line: i + 1, Severity: "error", Message: "bad"}
	}
	live.Failed(many)
	next()
	var rep report
	if err := json.Unmarshal([]byte(next().data), &rep); err != nil || rep.Errors != MaxProblems+5 || len(rep.Problems) != MaxProblems {
		t.Errorf("%d problems: %d errors, %d listed (%v); want all counted, %d listed", len(many), rep.Errors, len(rep.Problems), err, MaxProblems)
	}
}

// TestLiveNoBuildYet: before the first good build a browser gets a page
// with the reload script, which shows the build's problems and loads the
// site once there is one; other clients get a line of text.
func TestLiveNoBuildYet(t *testing.T) {
	h := &Handler{Dir: filepath.Join(t.TempDir(), "dist"), Live: &Live{}}
	w := serve(h, "GET", "/logos/acme/", http.Header{"Accept": {"text/html,application/xhtml+xml"}})
	if body := w.Body.String(); w.Code != 404 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") ||
		!strings.Contains(body, `<script src="../../.preview/reload.js"`) || !strings.Contains(body, "holds no build yet") {
		t.Errorf("a browser before the first build: %d %s\n%s", w.Code, w.Header().Get("Content-Type"), body)
	}
	if w := serve(h, "GET", "/api/logos.json", nil); w.Code != 404 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
		t.Errorf("a client before the first build: %d %s", w.Code, w.Header().Get("Content-Type"))
	}
}
