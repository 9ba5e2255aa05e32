package browsertest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// Page is an HTML page loaded in a tab of its own, and the requests it made.
type Page struct {
	// Tab is the context of the tab, to run actions in.
	Tab context.Context
	mu  sync.Mutex
	url string
	all []string
}

// Load serves html from a loopback server, loads it in a new tab of the
// browser ctx (from New) and gives it a second for lazy work (fonts,
// images, styles applied late). The tab closes with the test.
func Load(t *testing.T, ctx context.Context, html string) *Page {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, html)
	}))
	t.Cleanup(srv.Close)
	tab, cancel := chromedp.NewContext(ctx)
	t.Cleanup(cancel)
	p := &Page{Tab: tab, url: srv.URL + "/"}
	if err := chromedp.Listen(tab, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			p.mu.Lock()
			p.all = append(p.all, e.Request.URL)
			p.mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tab, chromedp.Steps(
		chromedp.Navigate(p.url),
		chromedp.WaitReady("body"),
		chromedp.Sleep(time.Second),
	)); err != nil {
		t.Fatal(err)
	}
	return p
}

// Requests returns every URL the page asked for besides itself and data:
// URLs.
func (p *Page) Requests() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, u := range p.all {
		if u != p.url && !strings.HasPrefix(u, "data:") {
			out = append(out, u)
		}
	}
	return out
}
