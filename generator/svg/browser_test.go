package svg

import (
	"context"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"logoindex/internal/browsertest"
)

// acceptedFiles optimises every SVG file of the test data and the shipped
// collection that the checker accepts, as a build would publish it.
func acceptedFiles(t *testing.T) (names []string, outs [][]byte) {
	t.Helper()
	var paths []string
	for _, g := range []string{"../../source-logos/*/*.svg", "../testdata/*/src/*/*.svg", "../testdata/bad/*/src/*/*.svg", "testdata/edge/*.svg"} {
		m, _ := filepath.Glob(g)
		paths = append(paths, m...)
	}
	for i, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		d, _ := Parse(p, src)
		if d == nil {
			continue
		}
		rules := Rules{Mono: strings.HasSuffix(p, "icon-mono.svg") || strings.Contains(filepath.Base(p), "mono")}
		info, probs := Check(d, rules)
		if len(probs.Errors()) > 0 {
			continue
		}
		r, err := OptimiseDocument(d, info, Options{Rules: rules, Title: filepath.Base(p), IDPrefix: fmt.Sprintf("f%d-", i)})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		names, outs = append(names, p), append(outs, r.Data)
	}
	return names, outs
}

// pageRequests loads page in Chromium from a loopback server and returns
// every URL the page asked for besides itself.
func pageRequests(t *testing.T, ctx context.Context, page string) []string {
	t.Helper()
	return browsertest.Load(t, ctx, page).Requests()
}

// TestInlineInBrowser inlines every file the checker accepts, as
// published, in one page of headless Chromium, as a page that pastes
// logos with "Copy SVG" would, and asserts that no request leaves the
// page. A control page with an SVG image element proves that the test
// sees requests.
func TestInlineInBrowser(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	b := browsertest.New(t, ctx)
	names, outs := acceptedFiles(t)
	if len(outs) < 250 {
		t.Fatalf("only %d accepted files; the collection and test data hold hundreds", len(outs))
	}
	var page strings.Builder
	// A data: icon, or Chromium asks the server for /favicon.ico.
	page.WriteString(`<!DOCTYPE html><html><head><title>inline</title><link rel="icon" href="data:,"></head><body>`)
	for i, o := range outs {
		fmt.Fprintf(&page, "<div data-file=\"%s\">%s</div>\n", html.EscapeString(names[i]), o)
	}
	page.WriteString("</body></html>")
	if got := pageRequests(t, b, page.String()); len(got) > 0 {
		slices.Sort(got)
		t.Errorf("inlined logos made %d requests: %v", len(got), slices.Compact(got))
	}

	control := `<!DOCTYPE html><html><head><link rel="icon" href="data:,"></head><body><svg xmlns="http://www.w3.org/2000/svg"><image href="/leak.png" width="1" height="1"/></svg></body></html>`
	if got := pageRequests(t, b, control); len(got) == 0 {
		t.Error("the control page's <image> made no request that the test saw: the test cannot fail")
	}
}
