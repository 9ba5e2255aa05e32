package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"logoindex/internal/preview"
	"logoindex/internal/testtree"
)

// TestReplacedLogoLeadsOn: a page or an <img> that still uses the URLs of
// a replaced logo lands on its replacement, in a browser, on a host that
// serves the tree as it is (no _redirects).
func TestReplacedLogoLeadsOn(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser test, which -short skips (make test runs it)")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	src := filepath.Join(t.TempDir(), "source-logos")
	if err := os.CopyFS(src, os.DirFS(filepath.Join(moduleRoot(t), "source-logos"))); err != nil {
		t.Fatal(err)
	}
	testtree.Write(t, src, map[string]string{"removed.yaml": "- slug: octocat\n  replaced_by: github\n  removed: 2026-11-28\n  reason: The brand is GitHub.\n"})
	srv := httptest.NewServer(&preview.Handler{Dir: buildSite(t, ctx, src, "https://cdn.example.com")})
	defer srv.Close()

	if old, cur := fetch(t, srv.URL+"/logos/octocat/icon.svg"), fetch(t, srv.URL+"/logos/github/icon.svg"); !bytes.Equal(old, cur) {
		t.Errorf("the old icon URL serves %d bytes, not the replacement's %d", len(old), len(cur))
	}
	if page := fetch(t, srv.URL+"/logos/octocat/"); !strings.Contains(string(page), "The brand is GitHub.") {
		t.Errorf("the old page does not say why:\n%s", page)
	}
	b := newBrowser(t, ctx)
	do(t, b, chromedp.Navigate(srv.URL+"/logos/octocat/"))
	var path, heading string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		// While the page is replaced, an evaluation may fail: try again.
		path, _ = chromedp.Run(b, js[string](`location.pathname`))
		heading, _ = chromedp.Run(b, js[string](`document.querySelector("#logo-name")?.textContent ?? ""`))
		if path == "/logos/github/" && heading == "GitHub" {
			return
		}
	}
	t.Errorf("the old page of octocat stayed at %q (heading %q), want GitHub's page at /logos/github/", path, heading)
}

// fetch GETs url and returns its body, failing the test on any status
// but 200.
func fetch(t *testing.T, url string) []byte {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v", url, res.StatusCode, err)
	}
	return body
}
