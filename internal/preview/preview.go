// Package preview serves a built logo index over HTTP the way a CDN would:
// the headers of the site's rules (internal/headers, from which the build
// writes _headers and publish sets object metadata: CORS, content types,
// caching),
// an ETag on every file with 304 answers to If-None-Match, folder URLs
// served from their index.html, and 404 for anything outside the tree.
//
// It reads the folder afresh on every request (through os.Root, which
// refuses paths and links that leave it), so a rebuild that swaps the
// folder is served at once and a failed one leaves the last good tree.
// With Handler.Live it is a live preview: nothing cached, and open pages
// reload after a rebuild.
package preview

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"logoindex/generator/manifest"
	"logoindex/internal/headers"
	"logoindex/internal/httpstatus"
)

// MaxFileSize bounds what one request reads into memory. A logo index
// holds small files; anything bigger is not ours to serve.
const MaxFileSize = 64 << 20

// Handler serves the folder Dir. The zero value serves nothing (Dir ""
// is refused); set Dir.
type Handler struct {
	// Dir is the folder to serve, such as "dist".
	Dir string
	// Log, when set, gets one line per request: method, path and status.
	// Writes are serialised.
	Log io.Writer
	// Live, when set, serves a tree that is being rebuilt: nothing is
	// cached and pages reload themselves after Live.Reload (see Live).
	// Without it the handler sends what a CDN would.
	Live *Live

	logMu sync.Mutex
}

// ServeHTTP answers GET, HEAD and CORS preflight OPTIONS requests.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	sw := httpstatus.NewRecorder(w)
	h.serve(sw, r)
	if h.Log != nil {
		h.logMu.Lock()
		fmt.Fprintf(h.Log, "%s %s %d\n", r.Method, r.URL.RequestURI(), sw.Status())
		h.logMu.Unlock()
	}
}

// serve answers r from the tree in h.Dir, or from h.Live under LivePath.
func (h *Handler) serve(w http.ResponseWriter, r *http.Request) {
	// CORS is open on every answer, errors included, so a cross-origin
	// client sees the real status instead of a CORS failure.
	w.Header().Set("Access-Control-Allow-Origin", "*")
	switch r.Method {
	case http.MethodGet, http.MethodHead:
	case http.MethodOptions:
		preflight(w, r)
		return
	default:
		w.Header().Set("Allow", "GET, HEAD, OPTIONS")
		httpError(w, http.StatusMethodNotAllowed, "method not allowed")
		return
	}
	if h.Live != nil {
		if name, ok := strings.CutPrefix(r.URL.Path, LivePath); ok {
			h.serveLive(w, r, name)
			return
		}
	}
	if h.Dir == "" {
		httpError(w, http.StatusNotFound, "not found")
		return
	}
	// The tree's version before the tree is opened: a page read after a
	// rebuild that has not called Reload yet says the version before it,
	// and reloads once more; never the reverse (a page of the old tree
	// that believes it is of the new one would never reload).
	var version string
	if h.Live != nil {
		version, _ = h.Live.version()
	}
	root, err := os.OpenRoot(h.Dir)
	if err != nil {
		if h.Live != nil && strings.Contains(r.Header.Get("Accept"), "text/html") {
			h.noBuildYet(w, r, version)
			return
		}
		httpError(w, http.StatusNotFound, "not found: "+h.Dir+" does not exist yet; run logoindex build")
		return
	}
	defer root.Close()
	name, ok := fileName(r.URL.Path)
	if !ok {
		name, ok = staticName(root, r.URL.Path)
	}
	if !ok {
		h.notFound(w, r, root, version)
		return
	}

	name, data, ok := h.read(w, r, root, name, version)
	if !ok {
		return
	}
	data = h.setHeaders(w, r.URL.Path, name, data, version)
	// ServeContent answers If-None-Match with 304 and handles HEAD and
	// ranges. No modification time: the ETag is the validator.
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(data))
}

// read returns the file of root that name names (its index.html for a
// folder) and its bytes. When there is none to serve, it answers the
// request itself (a redirect to the folder's slash form, the 404 page, or
// 403 for a file too large) and reports false.
func (h *Handler) read(w http.ResponseWriter, r *http.Request, root *os.Root, name, version string) (string, []byte, bool) {
	info, err := root.Stat(name)
	if err == nil && info.IsDir() {
		if !strings.HasSuffix(r.URL.Path, "/") {
			// Pages link relative to their folder, so /logos/x must
			// become /logos/x/ before it is served, as CDNs do.
			target := path.Base(r.URL.Path) + "/"
			if r.URL.RawQuery != "" {
				target += "?" + r.URL.RawQuery
			}
			http.Redirect(w, r, target, http.StatusMovedPermanently)
			return "", nil, false
		}
		name = path.Join(name, "index.html")
		info, err = root.Stat(name)
	}
	if err != nil || !info.Mode().IsRegular() {
		h.notFound(w, r, root, version)
		return "", nil, false
	}
	if info.Size() > MaxFileSize {
		httpError(w, http.StatusForbidden, "file too large for the preview server")
		return "", nil, false
	}
	data, err := readFile(root, name)
	if err != nil {
		h.notFound(w, r, root, version)
		return "", nil, false
	}
	return name, data, true
}

// NotFoundPage is the page a build writes for missing paths. Netlify and
// Cloudflare Pages answer any missing path with it, status 404, and so does
// the handler; a tree without one gets a line of text.
const NotFoundPage = "404.html"

// notFound answers 404 with the tree's NotFoundPage.
func (h *Handler) notFound(w http.ResponseWriter, r *http.Request, root *os.Root, version string) {
	data, err := readFile(root, NotFoundPage)
	if err != nil {
		httpError(w, http.StatusNotFound, "not found")
		return
	}
	data = h.setHeaders(w, "/"+NotFoundPage, NotFoundPage, data, version)
	w.Header().Set("Cache-Control", "no-store") // the file may exist after the next build
	w.Header().Del("ETag")
	w.WriteHeader(http.StatusNotFound)
	if r.Method != http.MethodHead {
		w.Write(data)
	}
}

// setHeaders sets the headers of the file name, served at urlPath: those
// of the site's rules, a Content-Type, an ETag; and in a live preview no-store,
// with the reload script added to HTML, which knows the version of the tree
// the page was read from. It returns the body to send.
func (h *Handler) setHeaders(w http.ResponseWriter, urlPath, name string, data []byte, version string) []byte {
	hdr := w.Header()
	for k, v := range headers.Site.For(urlPath) {
		hdr[k] = v
	}
	if hdr.Get("Content-Type") == "" {
		hdr.Set("Content-Type", headers.TypeOf(name))
	}
	if h.Live != nil {
		hdr.Set("Cache-Control", "no-store")
		if strings.HasPrefix(hdr.Get("Content-Type"), "text/html") {
			data = withReloadScript(data, urlPath, version)
		}
	}
	sum := sha256.Sum256(data)
	hdr.Set("ETag", `"`+hex.EncodeToString(sum[:16])+`"`)
	return data
}

// fileName maps a URL path to a name inside the tree, refusing anything
// that is not a plain descent: "..", ".", empty or hidden segments,
// backslashes, NULs, and the _headers and _redirects files, which hosts
// read and never serve.
func fileName(urlPath string) (string, bool) {
	if !strings.HasPrefix(urlPath, "/") || strings.ContainsAny(urlPath, "\\\x00") {
		return "", false
	}
	p := strings.TrimPrefix(urlPath, "/")
	p = strings.TrimSuffix(p, "/")
	if p == "" {
		return ".", true
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." || strings.HasPrefix(seg, ".") {
			return "", false
		}
	}
	if p == "_headers" || p == "_redirects" || !fs.ValidPath(p) {
		return "", false
	}
	return p, true
}

// staticName maps a URL path with a hidden segment to a name inside the
// tree when the build copied that file from the source's _static/ folder,
// as its manifest says (.well-known/security.txt): hosts serve those, and
// so does the preview.
func staticName(root *os.Root, urlPath string) (string, bool) {
	p := strings.TrimPrefix(urlPath, "/")
	if !strings.HasPrefix(urlPath, "/") || strings.ContainsAny(p, "\\\x00") || !fs.ValidPath(p) {
		return "", false
	}
	m, err := manifest.Read(root.FS())
	return p, err == nil && slices.Contains(m.Static, p)
}

func readFile(root *os.Root, name string) ([]byte, error) {
	f, err := root.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, MaxFileSize+1))
}

// preflight answers a CORS preflight: any origin may GET with any header
// (If-None-Match is what clients revalidating the index send).
func preflight(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
	if req := r.Header.Get("Access-Control-Request-Headers"); req != "" {
		h.Set("Access-Control-Allow-Headers", req)
	}
	h.Set("Access-Control-Max-Age", "86400")
	h.Set("Vary", "Access-Control-Request-Headers")
	w.WriteHeader(http.StatusNoContent)
}

func httpError(w http.ResponseWriter, status int, msg string) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	// Never cached: the file may exist after the next build.
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	io.WriteString(w, msg+"\n")
}
