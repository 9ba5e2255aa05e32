package preview

import (
	"bytes"
	"context"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator"
	"logoindex/generator/render"
	"logoindex/internal/headers"
)

// builtTree builds the generator's golden sources into a temporary folder.
func builtTree(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "dist")
	_, err := generator.Build(context.Background(), os.DirFS("../../generator/testdata/golden/src"), generator.Options{
		Out:    dir,
		Render: render.Options{BaseURL: "https://logos.example.com"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// treePaths lists the URL paths of a tree: every file but _headers and
// hidden files (the build manifest), and each folder with an index.html.
func treePaths(t *testing.T, dir string) []string {
	t.Helper()
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if rel == "_headers" || strings.HasPrefix(path.Base(rel), ".") {
			return nil
		}
		paths = append(paths, "/"+rel)
		if path.Base(rel) == "index.html" {
			paths = append(paths, strings.TrimSuffix("/"+rel, "index.html"))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

func serve(h http.Handler, method, target string, header http.Header) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, "http://preview.test/", nil)
	// Set the path as sent, uncleaned: the handler must cope with
	// whatever a client puts there.
	r.URL.Path = target
	r.URL.RawQuery = ""
	if i := strings.IndexByte(target, '?'); i >= 0 {
		r.URL.Path, r.URL.RawQuery = target[:i], target[i+1:]
	}
	for k, v := range header {
		r.Header[k] = v
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestHandler(t *testing.T) {
	dir := builtTree(t)
	var css string
	entries, err := os.ReadDir(filepath.Join(dir, "assets"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".css") {
			css = "/assets/" + e.Name()
		}
	}
	// A link to a file outside the tree: os.Root must refuse it.
	secret := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(secret, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(dir, "logos", "acme", "leak.svg")); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	h := &Handler{Dir: dir, Log: &log}

	type want struct {
		Status                              int
		ContentType, CacheControl, Location string
		Body                                string // prefix
	}
	const (
		html = "text/html; charset=utf-8"
		json = "application/json; charset=utf-8"
		text = "text/plain; charset=utf-8"
	)
	for _, tc := range []struct {
		method, path string
		want         want
	}{
		{"GET", "/", want{200, html, "public, max-age=300", "", "<!doctype html>"}},
		{"GET", "/index.html", want{200, html, "public, max-age=300", "", "<!doctype html>"}},
		{"GET", "/logos/acme/", want{200, html, "public, max-age=300", "", "<!doctype html>"}},
		{"GET", "/logos/acme", want{301, html, "", "/logos/acme/", ""}},
		{"GET", "/logos/acme?x=1", want{301, html, "", "/logos/acme/?x=1", ""}},
		{"GET", "/logos/acme/icon.svg", want{200, "image/svg+xml", "public, max-age=86400, stale-while-revalidate=604800", "", "<svg"}},
		{"GET", "/api/logos.json", want{200, json, "public, max-age=300, stale-while-revalidate=86400", "", `{"categories"`}},
		{"GET", "/api/logos/acme.json", want{200, json, "public, max-age=300, stale-while-revalidate=86400", "", `{"slug":"acme"`}},
		{"GET", css, want{200, "text/css; charset=utf-8", "public, max-age=31536000, immutable", "", ""}},
		{"HEAD", "/api/logos.json", want{200, json, "public, max-age=300, stale-while-revalidate=86400", "", ""}},
		{"GET", "/nope", want{404, html, "no-store", "", "<!doctype html>"}},
		{"GET", "/api/", want{404, html, "no-store", "", "<!doctype html>"}},
		{"GET", "/_headers", want{404, html, "no-store", "", "<!doctype html>"}},
		{"GET", "/_redirects", want{404, html, "no-store", "", "<!doctype html>"}},
		{"GET", "/../go.mod", want{404, html, "no-store", "", "<!doctype html>"}},
		{"GET", "/logos/../../secret.txt", want{404, html, "no-store", "", "<!doctype html>"}},
		{"GET", "/logos/acme/leak.svg", want{404, html, "no-store", "", "<!doctype html>"}},
		{"GET", "/.dist.logoindex/lock", want{404, html, "no-store", "", "<!doctype html>"}},
		{"GET", "/.logoindex-build.json", want{404, html, "no-store", "", "<!doctype html>"}},
		{"GET", `/logos\acme\icon.svg`, want{404, html, "no-store", "", "<!doctype html>"}},
		{"GET", "/index.html\x00", want{404, html, "no-store", "", "<!doctype html>"}},
		{"GET", "relative", want{404, html, "no-store", "", "<!doctype html>"}},
		{"POST", "/", want{405, text, "no-store", "", "method not allowed"}},
	} {
		w := serve(h, tc.method, tc.path, nil)
		got := want{w.Code, w.Header().Get("Content-Type"), w.Header().Get("Cache-Control"), w.Header().Get("Location"), ""}
		if tc.want.Body != "" && strings.HasPrefix(w.Body.String(), tc.want.Body) {
			got.Body = tc.want.Body
		} else if tc.want.Body != "" {
			got.Body = w.Body.String()
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s %q (-want +got):\n%s", tc.method, tc.path, diff)
		}
		if acao := w.Header().Get("Access-Control-Allow-Origin"); acao != "*" {
			t.Errorf("%s %q: Access-Control-Allow-Origin = %q, want *", tc.method, tc.path, acao)
		}
		if tc.method == "HEAD" && w.Body.Len() > 0 {
			t.Errorf("HEAD returned a body")
		}
	}
	// The tree's 404 page, as Netlify and Cloudflare Pages send it; a
	// HEAD gets its headers only.
	if w := serve(h, "HEAD", "/nope", nil); w.Code != 404 || w.Body.Len() != 0 || w.Header().Get("Content-Type") != html {
		t.Errorf("HEAD /nope: %d, %d bytes, %q", w.Code, w.Body.Len(), w.Header().Get("Content-Type"))
	}
	if !strings.Contains(log.String(), "GET /logos/acme/icon.svg 200\n") || !strings.Contains(log.String(), "POST / 405\n") {
		t.Errorf("request log lacks lines:\n%s", log.String())
	}
}

// TestHandlerSendsSiteHeaders checks every path of a built tree: the
// server sends what the site's rules say (and so _headers, see
// internal/headers), plus an ETag.
func TestHandlerSendsSiteHeaders(t *testing.T) {
	dir := builtTree(t)
	h := &Handler{Dir: dir}
	for _, p := range treePaths(t, dir) {
		w := serve(h, "GET", p, nil)
		if w.Code != 200 {
			t.Errorf("GET %s: %d", p, w.Code)
			continue
		}
		for name, values := range headers.Site.For(p) {
			if got := w.Header().Values(name); !cmp.Equal(got, values) {
				t.Errorf("GET %s: %s = %q, the rules say %q", p, name, got, values)
			}
		}
		if !regexp.MustCompile(`^"[0-9a-f]{32}"$`).MatchString(w.Header().Get("ETag")) {
			t.Errorf("GET %s: ETag %q", p, w.Header().Get("ETag"))
		}
	}
}

func TestHandlerETag(t *testing.T) {
	dir := builtTree(t)
	h := &Handler{Dir: dir}
	first := serve(h, "GET", "/api/logos.json", nil)
	etag := first.Header().Get("ETag")
	for _, tc := range []struct {
		name, inm string
		want      int
	}{
		{"same", etag, 304},
		{"one of several", `"other", ` + etag, 304},
		{"any", "*", 304},
		{"other", `"0123"`, 200},
	} {
		w := serve(h, "GET", "/api/logos.json", http.Header{"If-None-Match": {tc.inm}})
		if w.Code != tc.want {
			t.Errorf("%s: If-None-Match %s gave %d, want %d", tc.name, tc.inm, w.Code, tc.want)
		}
		if tc.want == 304 && (w.Body.Len() != 0 || w.Header().Get("ETag") != etag) {
			t.Errorf("%s: a 304 must carry the ETag and no body", tc.name)
		}
	}
	// A new build changes the ETag, so clients fetch the new index.
	if err := os.WriteFile(filepath.Join(dir, "api", "logos.json"), []byte(`{"categories":[],"logos":[]}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w := serve(h, "GET", "/api/logos.json", http.Header{"If-None-Match": {etag}})
	if w.Code != 200 || w.Header().Get("ETag") == etag {
		t.Errorf("after a rebuild: %d with ETag %s (old %s)", w.Code, w.Header().Get("ETag"), etag)
	}
}

func TestHandlerPreflight(t *testing.T) {
	h := &Handler{Dir: builtTree(t)}
	w := serve(h, "OPTIONS", "/api/logos.json", http.Header{
		"Origin":                         {"https://gallery.example"},
		"Access-Control-Request-Method":  {"GET"},
		"Access-Control-Request-Headers": {"if-none-match"},
	})
	got := map[string]string{}
	for _, k := range []string{"Access-Control-Allow-Origin", "Access-Control-Allow-Methods", "Access-Control-Allow-Headers"} {
		got[k] = w.Header().Get(k)
	}
	want := map[string]string{
		"Access-Control-Allow-Origin":  "*",
		"Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
		"Access-Control-Allow-Headers": "if-none-match",
	}
	if diff := cmp.Diff(want, got); diff != "" || w.Code != 204 {
		t.Errorf("preflight: %d (-want +got):\n%s", w.Code, diff)
	}
}

func TestHandlerMissingDir(t *testing.T) {
	for _, h := range []*Handler{{Dir: filepath.Join(t.TempDir(), "nope")}, {}} {
		w := serve(h, "GET", "/", nil)
		if w.Code != 404 {
			t.Errorf("Dir %q: %d, want 404", h.Dir, w.Code)
		}
	}
}

// TestHandlerOtherFiles serves a folder that is not a build: the types of
// files the rules do not cover come from the extension, CORS stays open,
// and a _headers file there changes nothing: the rules are the site's.
func TestHandlerOtherFiles(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{"a.svg": "<svg/>", "b.json": "{}", "c.bin": "x"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h := &Handler{Dir: dir}
	for p, want := range map[string]string{"/a.svg": "image/svg+xml", "/b.json": "application/json; charset=utf-8", "/c.bin": "application/octet-stream"} {
		w := serve(h, "GET", p, nil)
		if got := w.Header().Get("Content-Type"); w.Code != 200 || got != want {
			t.Errorf("GET %s: %d %q, want 200 %q", p, w.Code, got, want)
		}
	}
	// Without a 404.html, a missing path gets a line of text.
	if w := serve(h, "GET", "/nope", nil); w.Code != 404 || w.Header().Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Errorf("GET /nope without 404.html: %d %q", w.Code, w.Header().Get("Content-Type"))
	}
	// A _headers file in the folder changes nothing: the site's rules are
	// the table the build writes it from.
	if err := os.WriteFile(filepath.Join(dir, "_headers"), []byte("/*\n  Content-Type: text/plain\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if w := serve(h, "GET", "/a.svg", nil); w.Code != 200 || w.Header().Get("Content-Type") != "image/svg+xml" {
		t.Errorf("with a _headers file: %d %q", w.Code, w.Header().Get("Content-Type"))
	}
}

// TestHandlerStaticFiles: a hidden file the build copied from _static/
// is served, as a host serves .well-known/; other hidden files, the
// manifest among them, are not.
func TestHandlerStaticFiles(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{
		".logoindex-build.json":    `{"format":1,"generator":"logoindex","base_url":"","static":[".well-known/security.txt","CNAME"]}`,
		".well-known/security.txt": "Contact: mailto:security@example.com\n",
		".well-known/other.txt":    "not copied by the build",
		"CNAME":                    "logos.example.com",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h := &Handler{Dir: dir}
	for p, want := range map[string]int{"/.well-known/security.txt": 200, "/CNAME": 200, "/.well-known/other.txt": 404, "/.logoindex-build.json": 404, "/.well-known/../CNAME": 404} {
		w := serve(h, "GET", p, nil)
		if w.Code != want {
			t.Errorf("GET %s: %d, want %d", p, w.Code, want)
		}
		if want == 200 && w.Header().Get("Content-Type") != "text/plain; charset=utf-8" {
			t.Errorf("GET %s: Content-Type %q", p, w.Header().Get("Content-Type"))
		}
	}
}

func TestFileName(t *testing.T) {
	for in, want := range map[string]string{
		"/":                    ".",
		"/index.html":          "index.html",
		"/logos/a/":            "logos/a",
		"/logos/a/icon.svg":    "logos/a/icon.svg",
		"/../x":                "",
		"/a/../b":              "",
		"/a/./b":               "",
		"//etc/passwd":         "",
		"/.git/config":         "",
		"/_headers":            "",
		"/a\\b":                "",
		"x":                    "",
		"/logos/a/icon.svg/..": "",
	} {
		got, ok := fileName(in)
		if !ok {
			got = ""
		}
		if got != want {
			t.Errorf("fileName(%q) = %q, want %q", in, got, want)
		}
	}
}
