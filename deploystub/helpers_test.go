package deploystub

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"logoindex/internal/schematest"
	"logoindex/internal/syncio"
)

const testRootKey = "root-key-for-tests-0123456789"

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{t: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// harness is a Server behind an httptest.Server whose client checks every
// response against openapi.yaml.
type harness struct {
	t     testing.TB
	srv   *Server
	ts    *httptest.Server
	clock *fakeClock
	logs  *syncio.Buffer
}

// newHarness starts a stub; a zero Options gets the test root key, a fake
// clock and a debug logger into h.logs.
func newHarness(t testing.TB, opts Options) *harness {
	t.Helper()
	h := &harness{t: t, clock: newFakeClock(), logs: &syncio.Buffer{}}
	if opts.RootKey == "" {
		opts.RootKey = testRootKey
	}
	if opts.Clock == nil {
		opts.Clock = h.clock.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	srv, err := NewServer(opts)
	if err != nil {
		t.Fatalf("NewServer: %v", err)
	}
	t.Cleanup(func() { srv.Close() })
	h.srv = srv
	h.ts = newCheckedServer(t, srv)
	return h
}

// newCheckedServer serves handler with httptest; its client checks every
// response against openapi.yaml.
func newCheckedServer(t testing.TB, handler http.Handler) *httptest.Server {
	ts := httptest.NewServer(handler)
	t.Cleanup(ts.Close)
	ts.Client().Transport = &checkingTransport{t: t, next: ts.Client().Transport}
	return ts
}

// snapshot renders everything a request can change, to show that failed
// requests change nothing.
func (s *Server) snapshot() string {
	s.mu.Lock()
	var b strings.Builder
	fmt.Fprintf(&b, "order=%v deps=", s.order)
	for _, id := range s.order {
		d := s.deps[id]
		fmt.Fprintf(&b, "%+v;", *d)
	}
	var keys []string
	for _, k := range s.keys {
		keys = append(keys, fmt.Sprintf("%s:%s:%v", k.id, k.name, k.scopes))
	}
	sort.Strings(keys)
	fmt.Fprintf(&b, " keys=%v last=%d", keys, s.lastIDTime)
	s.mu.Unlock()
	s.idemMu.Lock()
	fmt.Fprintf(&b, " idem=%d", len(s.idem.entries))
	s.idemMu.Unlock()
	return b.String()
}

// response is what a test looks at: status, headers, raw and decoded body.
type response struct {
	status int
	header http.Header
	body   []byte
	json   map[string]any
}

// errorOf returns type, code and param of an error response ("<nil>" for
// a null param).
func (r *response) errorOf() [3]string {
	e, _ := r.json["error"].(map[string]any)
	param := "<nil>"
	if p, ok := e["param"].(string); ok {
		param = p
	}
	typ, _ := e["type"].(string)
	code, _ := e["code"].(string)
	return [3]string{typ, code, param}
}

func (r *response) str(key string) string {
	s, _ := r.json[key].(string)
	return s
}

// req is one request; headers are "Name: value" strings.
type req struct {
	method, path, key, body string
	headers                 []string
}

// do sends a request with key as the bearer key ("" for none).
func (h *harness) do(method, path, key, body string, headers ...string) *response {
	h.t.Helper()
	return h.send(req{method, path, key, body, headers})
}

func (h *harness) send(q req) *response {
	h.t.Helper()
	var body io.Reader
	if q.body != "" {
		body = strings.NewReader(q.body)
	}
	r, err := http.NewRequest(q.method, h.ts.URL+q.path, body)
	if err != nil {
		h.t.Fatalf("NewRequest: %v", err)
	}
	if q.body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	if q.key != "" {
		r.Header.Set("Authorization", "Bearer "+q.key)
	}
	for _, hv := range q.headers {
		name, value, _ := strings.Cut(hv, ":")
		value = strings.TrimSpace(value)
		if value == "<none>" {
			r.Header.Del(name)
		} else {
			r.Header.Add(name, value)
		}
	}
	return h.roundTrip(r)
}

func (h *harness) roundTrip(r *http.Request) *response {
	h.t.Helper()
	resp, err := h.ts.Client().Do(r)
	if err != nil {
		h.t.Fatalf("%s %s: %v", r.Method, r.URL.Path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		h.t.Fatalf("reading body: %v", err)
	}
	out := &response{status: resp.StatusCode, header: resp.Header, body: data}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") && r.Method != http.MethodHead {
		if err := json.Unmarshal(data, &out.json); err != nil {
			h.t.Errorf("%s %s: body is not a JSON object: %v: %s", r.Method, r.URL.Path, err, data)
		}
	}
	return out
}

// createDeployment creates one and returns its id.
func (h *harness) createDeployment(entrypoint string) string {
	h.t.Helper()
	r := h.do("POST", "/v2/deployments", testRootKey, `{"entrypoint":`+strconv.Quote(entrypoint)+`}`)
	if r.status != 200 {
		h.t.Fatalf("create %q: %d %s", entrypoint, r.status, r.body)
	}
	return r.str("id")
}

// createKey issues a key with the given scopes (nil: the root's) and
// returns its id and secret.
func (h *harness) createKey(name string, scopes ...string) (string, string) {
	h.t.Helper()
	body := map[string]any{"name": name}
	if scopes != nil {
		body["scopes"] = scopes
	}
	data, _ := json.Marshal(body)
	r := h.do("POST", "/v2/keys", testRootKey, string(data))
	if r.status != 200 {
		h.t.Fatalf("create key: %d %s", r.status, r.body)
	}
	return r.str("id"), r.str("secret")
}

// ids lists the deployment ids of a list response.
func ids(r *response) []string {
	var out []string
	data, _ := r.json["data"].([]any)
	for _, d := range data {
		m, _ := d.(map[string]any)
		id, _ := m["id"].(string)
		out = append(out, id)
	}
	return out
}

// checkingTransport checks each response against openapi.yaml.
type checkingTransport struct {
	t    testing.TB
	next http.RoundTripper
}

func (c *checkingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.next.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(data))
	for _, e := range spec().check(r.Method, r.URL.EscapedPath(), resp.StatusCode, resp.Header, data) {
		c.t.Errorf("OpenAPI: %s %s → %d: %s\nbody: %.300s", r.Method, r.URL.Path, resp.StatusCode, e, data)
	}
	return resp, nil
}

// checkRecorded checks a response recorded without a network.
func checkRecorded(t testing.TB, r *http.Request, rec *httptest.ResponseRecorder) {
	t.Helper()
	for _, e := range spec().check(r.Method, r.URL.EscapedPath(), rec.Code, rec.Header(), rec.Body.Bytes()) {
		t.Errorf("OpenAPI: %s %s → %d: %s\nbody: %.300s", r.Method, r.URL.Path, rec.Code, e, rec.Body.Bytes())
	}
}

// apiSpec is openapi.yaml, ready to check responses.
type apiSpec struct {
	doc       map[string]any
	templates []string // path templates, longest first

	mu      sync.Mutex
	schemas map[string]*jsonschema.Schema // by JSON pointer
	seen    map[string]bool               // coverage keys
}

var (
	specOnce sync.Once
	theSpec  *apiSpec
	specErr  error
)

func spec() *apiSpec {
	specOnce.Do(func() { theSpec, specErr = loadSpec() })
	if specErr != nil {
		panic(specErr) // TestOpenAPIDocument reports it properly
	}
	return theSpec
}

func loadSpec() (*apiSpec, error) {
	var doc map[string]any
	if err := yaml.Unmarshal(OpenAPI, &doc); err != nil {
		return nil, err
	}
	sp := &apiSpec{doc: doc, schemas: map[string]*jsonschema.Schema{}, seen: map[string]bool{}}
	paths, _ := doc["paths"].(map[string]any)
	for p := range paths {
		sp.templates = append(sp.templates, p)
	}
	sort.Slice(sp.templates, func(i, j int) bool { return len(sp.templates[i]) > len(sp.templates[j]) })
	return sp, nil
}

func (sp *apiSpec) schema(ptr string) (*jsonschema.Schema, error) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if s, ok := sp.schemas[ptr]; ok {
		return s, nil
	}
	s, err := schematest.Compile("openapi.yaml", sp.doc, ptr)
	if err != nil {
		return nil, err
	}
	sp.schemas[ptr] = s
	return s, nil
}

// deref follows a $ref to a component, returning the object and its pointer.
func (sp *apiSpec) deref(v any, ptr string) (map[string]any, string) {
	m, _ := v.(map[string]any)
	if ref, ok := m["$ref"].(string); ok {
		ptr = strings.TrimPrefix(ref, "#")
		var cur any = sp.doc
		for _, tok := range strings.Split(ptr[1:], "/") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			cur = cur.(map[string]any)[tok]
		}
		m, _ = cur.(map[string]any)
	}
	return m, ptr
}

func escapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// match finds the path template for an escaped request path. A template
// ending in "/" covers its whole tree, as a deployment serves its tree.
func (sp *apiSpec) match(p string) string {
	segs := strings.Split(p, "/")
	for _, tmpl := range sp.templates {
		ts := strings.Split(tmpl, "/")
		subtree := strings.HasSuffix(tmpl, "/")
		if subtree {
			ts = ts[:len(ts)-1]
		}
		if len(segs) < len(ts) || !subtree && len(segs) != len(ts) || subtree && len(segs) == len(ts) {
			continue
		}
		ok := true
		for i, t := range ts {
			if strings.HasPrefix(t, "{") {
				ok = ok && segs[i] != ""
			} else {
				ok = ok && segs[i] == t
			}
		}
		if ok {
			return tmpl
		}
	}
	return ""
}

// check returns what is wrong with one response, and records it for the
// coverage check.
func (sp *apiSpec) check(method, escapedPath string, status int, header http.Header, body []byte) []string {
	var errs []string
	tmpl := sp.match(escapedPath)
	clean := path.Clean(escapedPath)
	if strings.HasSuffix(escapedPath, "/") && clean != "/" {
		clean += "/"
	}
	var respObj map[string]any
	var respPtr, cover string
	item, _ := sp.doc["paths"].(map[string]any)[tmpl].(map[string]any)
	if method == http.MethodHead && item["head"] == nil {
		method = http.MethodGet // HEAD is GET without the body, as documented
	}
	switch {
	case tmpl == "" || clean != escapedPath:
		cover = "unknown route 404"
		respObj, respPtr = sp.deref(map[string]any{"$ref": "#/components/responses/NotFoundRoute"}, "")
		if status != 404 {
			errs = append(errs, fmt.Sprintf("no path of the document matches; want 404, got %d", status))
		}
	case item[strings.ToLower(method)] == nil:
		cover = "method 405"
		respObj, respPtr = sp.deref(map[string]any{"$ref": "#/components/responses/MethodNotAllowed"}, "")
		if status != 405 {
			errs = append(errs, fmt.Sprintf("%s has no %s; want 405, got %d", tmpl, method, status))
		}
	default:
		op := item[strings.ToLower(method)].(map[string]any)
		responses, _ := op["responses"].(map[string]any)
		code := strconv.Itoa(status)
		m := strings.ToLower(method)
		if strings.HasPrefix(tmpl, "/_deployments/") {
			m = "*" // the same operation for every method
		}
		cover = fmt.Sprintf("%s %s %s", m, tmpl, code)
		r, ok := responses[code]
		if !ok {
			return append(errs, fmt.Sprintf("status %d is not documented for %s %s", status, method, tmpl))
		}
		respObj, respPtr = sp.deref(r, "/paths/"+escapeToken(tmpl)+"/"+strings.ToLower(method)+"/responses/"+code)
	}
	sp.mu.Lock()
	sp.seen[cover] = true
	sp.mu.Unlock()

	headers, _ := respObj["headers"].(map[string]any)
	for name, hv := range headers {
		hObj, hPtr := sp.deref(hv, respPtr+"/headers/"+escapeToken(name))
		values := header.Values(name)
		if len(values) == 0 {
			if req, _ := hObj["required"].(bool); req {
				errs = append(errs, "missing header "+name)
			}
			continue
		}
		s, err := sp.schema(hPtr + "/schema")
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		var v any = values[0]
		if t, _ := hObj["schema"].(map[string]any)["type"].(string); t == "integer" {
			n, err := strconv.Atoi(values[0])
			if err != nil {
				errs = append(errs, fmt.Sprintf("header %s: %q is not an integer", name, values[0]))
				continue
			}
			v = n
		}
		for _, e := range schematest.Validate(s, v) {
			errs = append(errs, fmt.Sprintf("header %s: %s", name, e))
		}
	}

	ct := header.Get("Content-Type")
	if ct == "" || strings.HasPrefix(ct, "text/plain") {
		errs = append(errs, fmt.Sprintf("Content-Type %q", ct))
	}
	if len(body) == 0 && method == http.MethodHead {
		return errs
	}
	content, _ := respObj["content"].(map[string]any)
	mt, _, _ := strings.Cut(ct, ";")
	media, ok := content[mt].(map[string]any)
	if !ok {
		return append(errs, fmt.Sprintf("Content-Type %q is not documented", ct))
	}
	s, err := sp.schema(respPtr + "/content/" + escapeToken(mt) + "/schema")
	if err != nil {
		return append(errs, err.Error())
	}
	_ = media
	var v any
	if mt == "application/json" {
		if err := json.Unmarshal(body, &v); err != nil {
			return append(errs, "body is not JSON: "+err.Error())
		}
	} else {
		v = string(body)
	}
	for _, e := range schematest.Validate(s, v) {
		errs = append(errs, "body "+e)
	}
	return errs
}

// declared lists the coverage keys of every documented response.
func (sp *apiSpec) declared() []string {
	out := []string{"unknown route 404", "method 405"}
	paths, _ := sp.doc["paths"].(map[string]any)
	set := map[string]bool{}
	for tmpl, item := range paths {
		for m, op := range item.(map[string]any) {
			opm, ok := op.(map[string]any)
			if !ok || m == "parameters" {
				continue
			}
			if strings.HasPrefix(tmpl, "/_deployments/") {
				m = "*"
			}
			for code := range opm["responses"].(map[string]any) {
				set[fmt.Sprintf("%s %s %s", m, tmpl, code)] = true
			}
		}
	}
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestMain adds one check after a full run: every response the document
// declares was seen by some test, so the document claims nothing untested.
func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	full := true
	for _, name := range []string{"test.run", "test.skip", "test.fuzz"} {
		if f := flag.Lookup(name); f != nil && f.Value.String() != "" {
			full = false
		}
	}
	if code == 0 && full && !testing.Short() {
		sp := spec()
		var missing []string
		for _, k := range sp.declared() {
			if !sp.seen[k] {
				missing = append(missing, k)
			}
		}
		if len(missing) > 0 {
			fmt.Fprintf(os.Stderr, "FAIL: openapi.yaml documents responses no test produced:\n  %s\n", strings.Join(missing, "\n  "))
			code = 1
		}
	}
	os.Exit(code)
}
