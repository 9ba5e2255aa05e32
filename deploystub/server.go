// Package deploystub is a local, stateful stand-in for the deployments API
// ("Interface A" of the interface specification), for people who write
// clients of that API and want to test them against a real server on their
// machine or inside go test.
//
// It lists (newest first, paginated with starting_after and ending_before),
// creates and deletes deployments, issues scoped keys, enforces
// Authorization: Bearer and the scopes deployments:read, deployments:write
// and keys:write, honours Idempotency-Key on POST, serves every deployment at
// {base}/_deployments/<id>/ according to its status, and answers every error
// as JSON: {"error":{"type","code","message","param"}}. openapi.yaml in this
// package describes all of it and is served at /v2/openapi.yaml.
//
// A Server is an http.Handler:
//
//	srv, err := deploystub.NewServer(deploystub.Options{})
//	ts := httptest.NewServer(srv)
//	req.Header.Set("Authorization", "Bearer "+srv.RootKey())
//
// Tests can drive every status with Options.Build, Server.SetStatus and
// Options.BuildDelay with Options.Clock, and start over with Server.Reset.
package deploystub

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/url"
	"path"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"logoindex/internal/httpstatus"
)

// OpenAPI is the OpenAPI 3.1 description of the API, as served at
// /v2/openapi.yaml.
//
//go:embed openapi.yaml
var OpenAPI []byte

const maxBodyBytes = 1 << 20 // 1 MiB

// Options configure a Server. The zero value works: a random root key, the
// real clock, builds that finish at once, URLs from the listener, state in
// memory only, no rate limit, no logging.
type Options struct {
	// RootKey is the key with every scope, used exactly as given so that a
	// test suite can fix it: at least 20 printable ASCII characters, no
	// spaces. A key shaped like an issued secret works too, checksum or
	// not (the random root key the stub prints has that shape, and may be
	// given back on the next start). Empty means a new random key; read it
	// with Server.RootKey.
	RootKey string

	// Clock returns the current time. Nil means time.Now.
	Clock func() time.Time

	// BuildDelay is how long a new deployment stays building before it is
	// live or failed. Zero means the build finishes as soon as the create
	// request has returned its "building" response.
	BuildDelay time.Duration

	// Build decides how a new deployment's build ends: nil means live, an
	// error means failed with the error's text as the deployment's error
	// message. Nil means CheckEntrypoint. It is called once per create
	// request, outside any lock, and may panic (the client gets a JSON 500).
	Build func(entrypoint string) error

	// BaseURL is the public base URL deployments serve under, such as
	// "https://stub.example.test". Empty means the address of the listener
	// the request arrived on, which is what a client can reach.
	BaseURL string

	// StateFile, when set, keeps deployments, key hashes and
	// Idempotency-Key replays across restarts: it is read by NewServer and
	// rewritten atomically (temporary file, synced, then renamed) after
	// every change, before the change is answered. A symbolic link is
	// followed and its target rewritten. NewServer refuses a read-only or
	// damaged file, and one another process holds (ErrStateFileInUse); in
	// one process a new Server takes the file over from an older one.
	// Close releases it. Secrets and env values are never written to it.
	StateFile string

	// RateLimit is the number of requests per second each key may make on
	// average, with bursts of up to max(1, RateLimit) requests. Zero means
	// no limit.
	RateLimit float64

	// Logger receives one debug line per request and warnings and errors.
	// Nil means no logging. Secrets never reach it.
	Logger *slog.Logger
}

// Server is the stub: an http.Handler for the /v2 API, /_deployments/ and
// JSON errors for everything else. It is safe for concurrent use.
type Server struct {
	rootKey   string
	clock     func() time.Time
	delay     time.Duration
	build     func(string) error
	baseURL   string
	stateName string     // the state file as given, for messages
	stateFile string     // the file it names, past symbolic links
	lock      *stateLock // nil without a state file
	log       *slog.Logger
	mux       *http.ServeMux
	limiter   *limiter // nil without a rate limit

	mu         sync.Mutex // guards the fields below
	deps       map[string]*deployment
	order      []string // deployment ids, ascending: oldest first
	keys       map[[32]byte]*apiKey
	lastIDTime uint64

	idemMu sync.Mutex
	idem   idemCache
}

// NewServer returns a Server configured by opts. It fails on an invalid
// option (the error wraps ErrInvalidOption; so does a read-only state
// file), a state file another process holds (ErrStateFileInUse), or an
// unreadable, damaged or unwritable one.
func NewServer(opts Options) (*Server, error) {
	s := &Server{
		rootKey: opts.RootKey,
		clock:   opts.Clock,
		delay:   opts.BuildDelay,
		build:   opts.Build,
		log:     opts.Logger,
		deps:    map[string]*deployment{},
		keys:    map[[32]byte]*apiKey{},
	}
	if s.rootKey == "" {
		s.rootKey = newSecret()
	} else if err := checkRootKey(s.rootKey); err != nil {
		return nil, err
	}
	if s.clock == nil {
		s.clock = time.Now
	}
	if s.delay < 0 {
		return nil, badOption("negative build delay %v", s.delay)
	}
	if s.build == nil {
		s.build = CheckEntrypoint
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if opts.BaseURL != "" {
		base, err := checkBaseURL(opts.BaseURL)
		if err != nil {
			return nil, err
		}
		s.baseURL = base
	}
	switch {
	case opts.RateLimit < 0:
		return nil, badOption("negative rate limit %v", opts.RateLimit)
	case opts.RateLimit > 0:
		s.limiter = newLimiter(opts.RateLimit)
	}
	s.keys[hashSecret(s.rootKey)] = &apiKey{id: rootKeyID, name: "root", scopes: allScopes, hash: hashSecret(s.rootKey)}
	if opts.StateFile != "" {
		if err := s.openState(opts.StateFile); err != nil {
			return nil, err
		}
	}
	s.mux = http.NewServeMux()
	s.routes()
	return s, nil
}

// ErrInvalidOption is wrapped by the errors NewServer returns for a bad
// Options field, as opposed to a bad state file.
var ErrInvalidOption = errors.New("invalid option")

func badOption(format string, args ...any) error {
	return fmt.Errorf("deploystub: %w: %s", ErrInvalidOption, fmt.Sprintf(format, args...))
}

func checkRootKey(k string) error {
	if len(k) < 20 {
		return badOption("the root key must have at least 20 characters")
	}
	for _, c := range []byte(k) {
		if c <= ' ' || c > '~' {
			return badOption("the root key must be printable ASCII without spaces")
		}
	}
	return nil
}

func checkBaseURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", badOption("base URL %q is not an http or https URL without query, fragment or user", raw)
	}
	if ip := net.ParseIP(u.Hostname()); ip != nil && ip.IsUnspecified() {
		return "", badOption("base URL %q names an unspecified address no client can reach", raw)
	}
	return strings.TrimSuffix(u.String(), "/"), nil
}

// RootKey returns the root key: the one from Options or the random one.
func (s *Server) RootKey() string { return s.rootKey }

// route is one API endpoint: every one needs a valid key, most a scope,
// except the public ones.
type route struct {
	pattern string
	scope   string // "" means any valid key
	public  bool   // no key at all: the Authorization header is not read
	handle  apiHandler
}

// apiHandler does the work of an endpoint once the key is checked; body is
// the request body for POST routes. The result is written as JSON with
// status 200, unless it is a rawResponse.
type apiHandler func(r *http.Request, key *apiKey, body []byte) (any, *apiError)

type rawResponse struct {
	contentType string
	body        []byte
}

// apiRoutes lists every /v2 endpoint; routes registers them with the rest.
func (s *Server) apiRoutes() []route {
	return []route{
		{pattern: "GET /v2/deployments", scope: ScopeDeploymentsRead, handle: s.listDeployments},
		{pattern: "POST /v2/deployments", scope: ScopeDeploymentsWrite, handle: s.createDeployment},
		{pattern: "DELETE /v2/deployments/{id}", scope: ScopeDeploymentsWrite, handle: s.deleteDeployment},
		{pattern: "POST /v2/keys", scope: ScopeKeysWrite, handle: s.createKey},
		// The description is public, so a client generator can fetch it
		// before it has a key.
		{pattern: "GET /v2/openapi.yaml", public: true, handle: s.openAPI},
	}
}

func (s *Server) routes() {
	for _, rt := range s.apiRoutes() {
		s.mux.Handle(rt.pattern, s.api(rt))
	}
	// A deployment serves its whole tree, every method, without a key.
	s.mux.HandleFunc("/_deployments/{id}", s.serveDeployment)
	s.mux.HandleFunc("/_deployments/{id}/", s.serveDeployment)
}

type ctxKey struct{}

// reqInfo carries what the access log needs from inside a handler.
type reqInfo struct {
	keyID string
}

// ServeHTTP answers one request: logged, panics recovered into a JSON 500,
// unknown routes and methods answered in JSON.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now() // real time even with a fake Clock: it is for the log
	info := &reqInfo{}
	r = r.WithContext(context.WithValue(r.Context(), ctxKey{}, info))
	sw := httpstatus.NewRecorder(w)
	reqID := newRequestID()
	sw.Header().Set("Request-Id", reqID)
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v) // net/http's own way to abort a response quietly
			}
			s.log.Error("panic serving request", "request_id", reqID, "method", r.Method,
				"path", s.redact(r.URL.Path), "panic", s.redact(fmt.Sprint(v)), "stack", string(debug.Stack()))
			if !sw.Wrote() {
				for k := range sw.Header() {
					if k != "Request-Id" {
						sw.Header().Del(k) // whatever the handler meant to send
					}
				}
				s.writeError(sw, errInternal())
			}
		}
		level := slog.LevelDebug
		if sw.Status() == http.StatusInternalServerError {
			level = slog.LevelError // 502 and 503 are a deployment's, not the stub's
		}
		s.log.Log(r.Context(), level, "request", "request_id", reqID, "method", r.Method,
			"path", s.redact(r.URL.Path), "status", sw.Status(), "key", info.keyID,
			"duration", time.Since(start))
	}()
	s.dispatch(sw, r)
}

func (s *Server) dispatch(w http.ResponseWriter, r *http.Request) {
	// ServeMux would answer unclean paths with a redirect; an API answers 404.
	if !cleanPath(r.URL.Path) {
		s.writeError(w, errNoRoute())
		return
	}
	if h, pattern := s.mux.Handler(r); pattern == "" {
		// The mux's own 404 or 405 (text/plain): keep its status and Allow.
		rec := &headerRecorder{header: http.Header{}}
		h.ServeHTTP(rec, r)
		if rec.status == http.StatusMethodNotAllowed {
			s.writeError(w, errMethod(rec.header.Get("Allow")))
		} else {
			s.writeError(w, errNoRoute())
		}
		return
	}
	s.mux.ServeHTTP(w, r)
}

func cleanPath(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	c := path.Clean(p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c == p
}

// api wraps an endpoint with authentication, rate limit, scope and, for
// POST, body reading and Idempotency-Key.
func (s *Server) api(rt route) http.HandlerFunc {
	post := strings.HasPrefix(rt.pattern, "POST ")
	return func(w http.ResponseWriter, r *http.Request) {
		if rt.public {
			v, e := rt.handle(r, nil, nil)
			s.respond(w, v, e)
			return
		}
		key, e := s.authenticate(r)
		if e == nil {
			r.Context().Value(ctxKey{}).(*reqInfo).keyID = key.id
			e = s.rateLimit(key)
		}
		if e == nil && rt.scope != "" && !key.has(rt.scope) {
			e = errScope(rt.scope, "")
		}
		if e != nil {
			s.writeError(w, e)
			return
		}
		if post {
			s.servePost(w, r, key, rt.handle)
			return
		}
		v, e := rt.handle(r, key, nil)
		s.respond(w, v, e)
	}
}

// authenticate finds the key of an Authorization: Bearer header.
func (s *Server) authenticate(r *http.Request) (*apiKey, *apiError) {
	values := r.Header.Values("Authorization")
	if len(values) == 0 || len(values) == 1 && strings.TrimSpace(values[0]) == "" {
		return nil, errMissingKey()
	}
	if len(values) > 1 {
		return nil, errInvalidKey("Send exactly one Authorization header.")
	}
	scheme, token, ok := strings.Cut(strings.TrimSpace(values[0]), " ")
	token = strings.TrimLeft(token, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return nil, errInvalidKey("The Authorization header must be 'Bearer' followed by the key.")
	}
	for _, c := range []byte(token) {
		if c <= ' ' || c > '~' {
			return nil, errInvalidKey("Invalid API key provided.")
		}
	}
	// No shortcut for a secret-shaped token with a bad checksum: the root
	// key is used exactly as given, whatever its shape, and a lookup of an
	// unknown token costs one hash.
	key := s.lookupKey(token)
	if key == nil {
		return nil, errInvalidKey("Invalid API key provided.")
	}
	return key, nil
}

func (s *Server) rateLimit(key *apiKey) *apiError {
	if s.limiter == nil {
		return nil
	}
	if ok, wait := s.limiter.allow(key.id, s.clock()); !ok {
		return errRateLimited(wait)
	}
	return nil
}

// servePost reads a POST body and runs h, replaying or refusing the request
// when its Idempotency-Key was seen before (Stripe's semantics).
func (s *Server) servePost(w http.ResponseWriter, r *http.Request, key *apiKey, h apiHandler) {
	body, e := readBody(w, r)
	if e != nil {
		s.writeError(w, e)
		return
	}
	ik := r.Header.Values("Idempotency-Key")
	if len(ik) == 0 {
		v, e := h(r, key, body)
		s.respond(w, v, e)
		return
	}
	if len(ik) > 1 || !validIdempotencyKey(ik[0]) {
		s.writeError(w, errInvalid("Idempotency-Key", "Idempotency-Key must be sent once, as 1 to 255 printable ASCII characters."))
		return
	}
	ikey := newIdemKey(key.id, ik[0])
	entry, replay, e := s.idemBegin(ikey, fingerprint(r, body))
	if e != nil {
		s.writeError(w, e)
		return
	}
	if replay != nil {
		w.Header().Set("Idempotent-Replayed", "true")
		s.writeRaw(w, http.StatusOK, "application/json", replay)
		return
	}
	done := false
	defer func() {
		if !done {
			s.idemAbandon(ikey, entry)
		}
	}()
	r = r.WithContext(context.WithValue(r.Context(), idemCtxKey{}, &idemClaim{ikey, entry}))
	v, e := h(r, key, body)
	if e != nil {
		s.writeError(w, e)
		return
	}
	data, err := marshal(v)
	if err != nil {
		s.writeError(w, errInternal())
		return
	}
	s.idemFinish(entry, v, data)
	done = true
	s.writeRaw(w, http.StatusOK, "application/json", data)
}

// readBody reads a POST body of at most maxBodyBytes. An empty body is
// read as {}, so a missing parameter gets parameter_missing, not 415.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, *apiError) {
	if r.ContentLength > maxBodyBytes {
		return nil, errTooLarge()
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, errTooLarge()
		}
		return nil, errInvalidJSON("The request body could not be read.")
	}
	if len(data) == 0 {
		return []byte("{}"), nil
	}
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		return nil, errMediaType()
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
		return nil, errMediaType()
	}
	return data, nil
}

// parseQuery returns the query parameters of r, each at most once and each
// one of allowed.
func parseQuery(r *http.Request, allowed ...string) (map[string]string, *apiError) {
	values, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, errInvalid("", "The query string is malformed.")
	}
	names := make([]string, 0, len(values))
	for name := range values {
		names = append(names, name)
	}
	sort.Strings(names)
	out := map[string]string{}
	for _, name := range names {
		if !slices.Contains(allowed, name) {
			return nil, errUnknown(clip(name))
		}
		if len(values[name]) > 1 {
			return nil, errInvalid(name, "%s may be given only once.", name)
		}
		out[name] = values[name][0]
	}
	return out, nil
}

// clip shortens user-supplied names echoed in errors.
func clip(s string) string {
	r := []rune(s)
	if len(r) > 100 {
		return string(r[:100]) + "…"
	}
	return s
}

func (s *Server) respond(w http.ResponseWriter, v any, e *apiError) {
	if e != nil {
		s.writeError(w, e)
		return
	}
	if raw, ok := v.(rawResponse); ok {
		s.writeRaw(w, http.StatusOK, raw.contentType, raw.body)
		return
	}
	data, err := marshal(v)
	if err != nil {
		s.log.Error("encoding response", "error", err)
		s.writeError(w, errInternal())
		return
	}
	s.writeRaw(w, http.StatusOK, "application/json", data)
}

func marshal(v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

func (s *Server) writeRaw(w http.ResponseWriter, status int, contentType string, body []byte) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("X-Content-Type-Options", "nosniff")
	// Responses may carry a secret (POST /v2/keys): no cache keeps any.
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(body)
}

func (s *Server) writeError(w http.ResponseWriter, e *apiError) {
	for k, v := range e.header {
		w.Header()[k] = v
	}
	d := errorDetail{Type: e.typ, Code: e.code, Message: s.redact(e.message)}
	if e.param != "" {
		p := s.redact(e.param)
		d.Param = &p
	}
	data, _ := marshal(errorBody{Error: d}) // strings only: cannot fail
	s.writeRaw(w, e.status, "application/json", data)
}

// redact removes anything that looks like a secret from text bound for a
// log or an error message: a defence in depth, since neither should ever
// hold one.
func (s *Server) redact(text string) string {
	text = SecretPattern.ReplaceAllString(text, SecretPrefix+"[redacted]")
	return strings.ReplaceAll(text, s.rootKey, "[redacted]")
}

// headerRecorder captures what ServeMux's built-in 404 and 405 handlers
// would send, minus the text/plain body.
type headerRecorder struct {
	header http.Header
	status int
}

func (h *headerRecorder) Header() http.Header         { return h.header }
func (h *headerRecorder) Write(b []byte) (int, error) { return len(b), nil }
func (h *headerRecorder) WriteHeader(code int)        { h.status = code }

// baseFor returns the base URL deployment URLs start with for a request:
// the option, or else the local address the connection arrived on (never
// the Host header, which the client controls, and never 0.0.0.0).
func (s *Server) baseFor(r *http.Request) string {
	if s.baseURL != "" {
		return s.baseURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if addr, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		if tcp, ok := addr.(*net.TCPAddr); ok && !tcp.IP.IsUnspecified() {
			return scheme + "://" + tcp.String()
		}
	}
	return scheme + "://localhost"
}

// limiter is a token bucket per key.
type limiter struct {
	mu      sync.Mutex
	rate    float64
	burst   float64
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newLimiter(rate float64) *limiter {
	return &limiter{rate: rate, burst: max(1, rate), buckets: map[string]*bucket{}}
}

func (l *limiter) allow(keyID string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[keyID]
	if b == nil {
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[keyID] = b
	}
	if elapsed := now.Sub(b.last).Seconds(); elapsed > 0 {
		b.tokens = min(l.burst, b.tokens+elapsed*l.rate)
		b.last = now
	}
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
}

func (l *limiter) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	clear(l.buckets)
}
