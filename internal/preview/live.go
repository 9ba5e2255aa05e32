package preview

import (
	"crypto/rand"
	_ "embed"
	"fmt"
	"html"
	"net/http"
	"strings"
	"sync"
	"time"
)

// LivePath is the folder of the live preview's own files. Its name starts
// with a dot, and the handler never serves a hidden name from the tree, so
// no file of any build can take its place.
const LivePath = "/.preview/"

//go:embed reload.js
var reloadJS []byte

// Live makes a Handler a live preview of a tree that is being rebuilt (serve
// -watch): every answer says Cache-Control: no-store, so the browser never
// shows a file from before the last build, and every HTML page loads a
// script that reloads it when Reload is called. The zero value is ready to
// use.
type Live struct {
	mu      sync.Mutex
	token   string        // this server's; a restart changes every version
	n       int           // builds so far
	changed chan struct{} // closed, and replaced, on every Reload
}

// Reload tells every open page that the tree has changed. On a nil *Live
// it does nothing.
func (l *Live) Reload() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.init()
	l.n++
	close(l.changed)
	l.changed = make(chan struct{})
}

// version returns the current version of the tree and a channel that is
// closed when it changes.
func (l *Live) version() (string, <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.init()
	return fmt.Sprintf("%s-%d", l.token, l.n), l.changed
}

func (l *Live) init() {
	if l.changed == nil {
		l.token = rand.Text()[:8]
		l.changed = make(chan struct{})
	}
}

// serveLive answers the requests under LivePath: the reload script and the
// stream of versions it listens to (server-sent events).
func (h *Handler) serveLive(w http.ResponseWriter, r *http.Request, name string) {
	w.Header().Set("Cache-Control", "no-store")
	switch name {
	case "reload.js":
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Write(reloadJS)
	case "events":
		h.events(w, r)
	default:
		httpError(w, http.StatusNotFound, "not found")
	}
}

// events streams the tree's version: at once, after every Reload and every
// 30 s, until the client goes or the server stops (serve gives requests a
// context that ends with the server's).
func (h *Handler) events(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	for {
		v, changed := h.Live.version()
		// retry: how soon the browser reconnects after the server stops.
		if _, err := fmt.Fprintf(w, "retry: 500\nevent: version\ndata: %s\n\n", v); err != nil {
			return
		}
		if err := rc.Flush(); err != nil {
			return
		}
		select {
		case <-changed:
		case <-r.Context().Done():
			return
		case <-time.After(30 * time.Second): // the same version again keeps the stream open
		}
	}
}

// withReloadScript adds the reload script to an HTML page, in its head
// when it has one, with the version of the tree the page was read from:
// the script reloads the page when the stream of versions says another,
// the first one included (a rebuild may end between the page's request
// and the stream's). The link is relative to the page's URL path, so the
// script is found whatever folder the tree is served under.
func withReloadScript(page []byte, urlPath, version string) []byte {
	dir := urlPath[:strings.LastIndex(urlPath, "/")+1] // "/logos/x/index.html" -> "/logos/x/"
	up := strings.Repeat("../", max(strings.Count(dir, "/")-1, 0))
	tag := `<script src="` + up + strings.TrimPrefix(LivePath, "/") + `reload.js" data-version="` + html.EscapeString(version) + `" defer></script>`
	lower := strings.ToLower(string(page))
	i := strings.Index(lower, "</head>")
	if i < 0 {
		return append(page[:len(page):len(page)], tag...)
	}
	out := make([]byte, 0, len(page)+len(tag))
	out = append(out, page[:i]...)
	out = append(out, tag...)
	return append(out, page[i:]...)
}
