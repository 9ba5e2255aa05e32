package preview

import (
	"bufio"
	"context"
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
	if w := serve(plain, "GET", "/.preview/reload.js", nil); w.Code != 404 {
		t.Errorf("without Live, /.preview/reload.js: %d, want 404", w.Code)
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
