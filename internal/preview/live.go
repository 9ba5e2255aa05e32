package preview

import (
	"crypto/rand"
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"io"
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

//go:embed overlay.css
var overlayCSS []byte

// Live makes a Handler a live preview of a tree that is being rebuilt (serve
// -watch): every answer says Cache-Control: no-store, so the browser never
// shows a file from before the last build, and every HTML page loads a
// script that reloads it when Reload is called and shows the problems of a
// failed build over it (Failed). The zero value is ready to use.
type Live struct {
	mu       sync.Mutex
	token    string        // this server's; a restart changes every version
	n        int           // builds so far
	problems []byte        // the report of the last build, which failed; nil after a good one
	changed  chan struct{} // closed, and replaced, on every Reload and Failed
}

// Reload tells every open page that the tree has changed, which also
// clears the problems Failed showed. On a nil *Live it does nothing.
func (l *Live) Reload() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.init()
	l.n++
	l.problems = nil
	close(l.changed)
	l.changed = make(chan struct{})
}

// Problem is a problem of a failed build as the open pages show it:
// where, how bad and what. Path is empty, and Line and Col are 0, for an
// error that names no place in the sources.
type Problem struct {
	Path     string `json:"path"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Severity string `json:"severity"` // "error" or "warning"
	Code     string `json:"code,omitempty"`
	Message  string `json:"message"`
}

// MaxProblems is how many problems of a build the pages list; they count
// the others. A broken categories.yaml can give one for every logo.
const MaxProblems = 100

// report is what the pages get of a failed build (the "problems" event).
type report struct {
	Errors   int       `json:"errors"`
	Warnings int       `json:"warnings"`
	Problems []Problem `json:"problems"` // the first MaxProblems
}

// Failed tells every open page that a build failed, with its problems,
// which they show over the page until the next Reload; a page opened
// meanwhile shows them at once. The tree served, and so its version,
// stays the last good one. On a nil *Live it does nothing.
func (l *Live) Failed(problems []Problem) {
	if l == nil {
		return
	}
	rep := report{Problems: problems[:min(len(problems), MaxProblems)]}
	for _, p := range problems {
		if p.Severity == "warning" {
			rep.Warnings++
		} else {
			rep.Errors++
		}
	}
	data, err := json.Marshal(rep) // one line: a newline in a message is escaped
	if err != nil {
		data = []byte(`{"errors":1,"problems":[{"severity":"error","message":"the build failed"}]}`)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.init()
	l.problems = data
	close(l.changed)
	l.changed = make(chan struct{})
}

// version returns the current version of the tree and a channel that is
// closed when it changes, or when a build fails.
func (l *Live) version() (string, <-chan struct{}) {
	v, _, changed := l.state()
	return v, changed
}

// state returns the current version of the tree, the report of the last
// build when it failed, and a channel that is closed when either changes.
func (l *Live) state() (version string, problems []byte, changed <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.init()
	return fmt.Sprintf("%s-%d", l.token, l.n), l.problems, l.changed
}

func (l *Live) init() {
	if l.changed == nil {
		l.token = rand.Text()[:8]
		l.changed = make(chan struct{})
	}
}

// serveLive answers the requests under LivePath: the reload script, the
// stylesheet of its overlay and the stream of events it listens to
// (server-sent events).
func (h *Handler) serveLive(w http.ResponseWriter, r *http.Request, name string) {
	w.Header().Set("Cache-Control", "no-store")
	switch name {
	case "reload.js":
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Write(reloadJS)
	case "overlay.css":
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
		w.Write(overlayCSS)
	case "events":
		h.events(w, r)
	default:
		httpError(w, http.StatusNotFound, "not found")
	}
}

// keepAlive is how often a quiet stream of events gets a comment, so that
// nothing between the page and the server closes it as idle.
const keepAlive = 30 * time.Second

// events streams the state of the preview: the tree's version, at once
// and after every Reload, and the problems of the last build, when it
// failed, at once and after every Failed. It runs until the client goes
// or the server stops (serve gives requests a context that ends with the
// server's).
func (h *Handler) events(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	for {
		v, problems, changed := h.Live.state()
		// retry: how soon the browser reconnects after the server stops.
		msg := "retry: 500\nevent: version\ndata: " + v + "\n\n"
		if problems != nil {
			msg += "event: problems\ndata: " + string(problems) + "\n\n"
		}
		if !send(w, rc, msg) || !awaitChange(w, rc, r.Context().Done(), changed) {
			return
		}
	}
}

// send writes msg to the stream of events and flushes it; false when the
// client has gone.
func send(w io.Writer, rc *http.ResponseController, msg string) bool {
	_, err := io.WriteString(w, msg)
	return err == nil && rc.Flush() == nil
}

// awaitChange waits until changed is closed and reports true, or false
// when done is or the client has gone; meanwhile it keeps the stream
// alive.
func awaitChange(w io.Writer, rc *http.ResponseController, done, changed <-chan struct{}) bool {
	for {
		select {
		case <-changed:
			return true
		case <-done:
			return false
		case <-time.After(keepAlive):
			if !send(w, rc, ": keep-alive\n\n") {
				return false
			}
		}
	}
}

// noBuildYet answers a browser's request to a live preview whose folder
// holds no tree yet, as when the first build failed: a page that says so
// and loads the reload script, which shows the build's problems and
// reloads the page once a build succeeds.
func (h *Handler) noBuildYet(w http.ResponseWriter, r *http.Request, version string) {
	page := "<!doctype html><html lang=en><head><meta charset=utf-8><title>No build yet</title></head>" +
		"<body><p>" + html.EscapeString(h.Dir) + " holds no build yet. This page shows the site when a build succeeds.</p></body></html>"
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNotFound)
	if r.Method != http.MethodHead {
		w.Write(withReloadScript([]byte(page), r.URL.Path, version))
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
