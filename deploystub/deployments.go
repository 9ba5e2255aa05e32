package deploystub

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Status is a deployment's status.
type Status string

// The statuses of a deployment.
const (
	StatusBuilding Status = "building"
	StatusLive     Status = "live"
	StatusFailed   Status = "failed"
)

// Limits on request bodies.
const (
	maxEntrypointLen = 1024     // characters
	maxEnvVars       = 100      // keys
	maxEnvBytes      = 64 << 10 // bytes of keys and values together
	maxKeyNameLen    = 128      // characters
	idempotencyTTL   = 24 * time.Hour
)

var envNamePattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// deployment is a deployment as the stub keeps it (and writes it to the
// state file). Its status is worked out from the clock when asked, so a
// build needs no goroutine or timer and a fake clock controls it exactly.
type deployment struct {
	ID         string    `json:"id"`
	Entrypoint string    `json:"entrypoint"`
	CreatedAt  time.Time `json:"created_at"`
	ReadyAt    time.Time `json:"ready_at"`             // end of the build
	Outcome    Status    `json:"outcome"`              // live or failed, from ReadyAt on
	Error      string    `json:"error,omitempty"`      // why it failed
	Forced     Status    `json:"forced,omitempty"`     // set by SetStatus: wins over the above
	ForcedErr  string    `json:"forced_err,omitempty"` // error message with Forced failed
}

func (d *deployment) status(now time.Time) (Status, string) {
	switch {
	case d.Forced != "":
		return d.Forced, d.ForcedErr
	case now.Before(d.ReadyAt):
		return StatusBuilding, ""
	}
	return d.Outcome, d.Error
}

// deploymentView is a deployment as responses show it. env never appears.
type deploymentView struct {
	ID         string `json:"id"`
	Status     Status `json:"status"`
	URL        string `json:"url"`
	Entrypoint string `json:"entrypoint"`
	CreatedAt  string `json:"created_at"`
	Error      string `json:"error,omitempty"`
}

func (d *deployment) view(base string, st Status, msg string) deploymentView {
	v := deploymentView{
		ID:         d.ID,
		Status:     st,
		URL:        base + "/_deployments/" + d.ID + "/",
		Entrypoint: d.Entrypoint,
		CreatedAt:  d.CreatedAt.UTC().Format("2006-01-02T15:04:05.000Z07:00"),
	}
	if st == StatusFailed {
		v.Error = msg
	}
	return v
}

type listView struct {
	Data    []deploymentView `json:"data"`
	HasMore bool             `json:"has_more"`
}

type deletedView struct {
	ID      string `json:"id"`
	Deleted bool   `json:"deleted"`
}

type keyCreated struct {
	ID     string `json:"id"`
	Secret string `json:"secret"`
}

type servedView struct {
	Deployment string `json:"deployment"`
	Entrypoint string `json:"entrypoint"`
	Path       string `json:"path"`
}

var entrypointExts = []string{".js", ".mjs", ".ts", ".tsx", ".jsx"}

// CheckEntrypoint is the default build outcome (Options.Build): an error,
// which fails the deployment, unless entrypoint is a relative path (no
// leading slash, no empty segment, no backslash, colon or control
// character) to a .js, .mjs, .ts, .tsx or .jsx file that does not contain "..".
func CheckEntrypoint(entrypoint string) error {
	if strings.Contains(entrypoint, "..") {
		return errors.New(`entrypoint must not contain ".."`)
	}
	relative := !strings.HasPrefix(entrypoint, "/") && !strings.ContainsAny(entrypoint, `\:`)
	for _, r := range entrypoint {
		if r < ' ' || r == 0x7f {
			relative = false
		}
	}
	for _, seg := range strings.Split(entrypoint, "/") {
		if seg == "" {
			relative = false
		}
	}
	if !relative {
		return errors.New("entrypoint must be a relative path")
	}
	ext := path.Ext(entrypoint)
	if !slices.Contains(entrypointExts, ext) || path.Base(entrypoint) == ext {
		return errors.New("entrypoint must be a .js, .mjs, .ts, .tsx or .jsx file")
	}
	return nil
}

func (s *Server) listDeployments(r *http.Request, _ *apiKey, _ []byte) (any, *apiError) {
	q, e := parseQuery(r, "limit", "status", "starting_after", "ending_before")
	if e != nil {
		return nil, e
	}
	limit := 20
	if v, ok := q["limit"]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 || v != strconv.Itoa(n) {
			return nil, errInvalid("limit", "limit must be an integer from 1 to 100.")
		}
		limit = n
	}
	filter := Status(q["status"])
	if _, ok := q["status"]; ok && filter != StatusLive && filter != StatusBuilding && filter != StatusFailed {
		return nil, errInvalid("status", "status must be one of live, building, failed.")
	}
	after, hasAfter := q["starting_after"]
	before, hasBefore := q["ending_before"]
	if hasAfter && hasBefore {
		return nil, errInvalid("ending_before", "starting_after and ending_before cannot be used together.")
	}
	for param, id := range map[string]string{"starting_after": after, "ending_before": before} {
		if _, given := q[param]; given && !deploymentIDPattern.MatchString(id) {
			return nil, errInvalid(param, "%s must be a deployment id.", param)
		}
	}

	base := s.baseFor(r)
	now := s.clock()
	s.mu.Lock()
	defer s.mu.Unlock()
	// Ids sort by creation, so a cursor needs only its id, deleted or not.
	out := listView{Data: []deploymentView{}}
	take := func(id string) bool {
		d := s.deps[id]
		st, msg := d.status(now)
		if filter != "" && st != filter {
			return true
		}
		if len(out.Data) == limit {
			out.HasMore = true
			return false
		}
		out.Data = append(out.Data, d.view(base, st, msg))
		return true
	}
	if hasBefore {
		// Newer than the cursor: walk up from it, then show newest first.
		i := sort.SearchStrings(s.order, before)
		if i < len(s.order) && s.order[i] == before {
			i++
		}
		for ; i < len(s.order) && take(s.order[i]); i++ {
		}
		slices.Reverse(out.Data)
		return out, nil
	}
	i := len(s.order) - 1
	if hasAfter {
		i = sort.SearchStrings(s.order, after) - 1
	}
	for ; i >= 0 && take(s.order[i]); i-- {
	}
	return out, nil
}

func (s *Server) createDeployment(r *http.Request, _ *apiKey, body []byte) (any, *apiError) {
	if _, e := parseQuery(r); e != nil {
		return nil, e
	}
	fields, e := decodeObject(body, "entrypoint", "env")
	if e != nil {
		return nil, e
	}
	entrypoint, e := requiredString(fields, "entrypoint")
	if e != nil {
		return nil, e
	}
	if entrypoint == "" {
		return nil, errInvalid("entrypoint", "entrypoint must not be empty.")
	}
	if utf8.RuneCountInString(entrypoint) > maxEntrypointLen {
		return nil, errInvalid("entrypoint", "entrypoint must be at most %d characters.", maxEntrypointLen)
	}
	if raw, ok := fields["env"]; ok {
		if e := checkEnv(raw); e != nil {
			return nil, e
		}
	}
	// env values are checked and dropped: the stub runs no code, and what is
	// never kept cannot leak.

	outcome := s.build(entrypoint) // outside the lock: it is caller code
	now := s.clock()
	d := &deployment{Entrypoint: entrypoint, CreatedAt: now, ReadyAt: now.Add(s.delay), Outcome: StatusLive}
	if outcome != nil {
		d.Outcome, d.Error = StatusFailed, outcome.Error()
		if d.Error == "" {
			d.Error = "build failed"
		}
	}
	base := s.baseFor(r)

	s.mu.Lock()
	defer s.mu.Unlock()
	t, lastIDTime := uint64(max(now.UnixNano(), 0)), s.lastIDTime
	if t <= lastIDTime {
		t = lastIDTime + 1 // strictly increasing, even with a stopped or backward clock
	}
	s.lastIDTime = t
	d.ID = newDeploymentID(t)
	s.deps[d.ID] = d
	s.order = append(s.order, d.ID) // t is the largest yet, so order stays sorted
	// The create response says building even when the build takes no time.
	view := d.view(base, StatusBuilding, "")
	if err := s.commitLocked(r, view); err != nil {
		delete(s.deps, d.ID)
		s.order = s.order[:len(s.order)-1]
		s.lastIDTime = lastIDTime
		s.log.Error("writing state file", "error", err)
		return nil, errInternal()
	}
	return view, nil
}

func checkEnv(raw json.RawMessage) *apiError {
	if string(raw) == "null" {
		return nil
	}
	if raw[0] != '{' {
		return errInvalid("env", "env must be an object of string values.")
	}
	env, e := decodeFields(raw, "env")
	if e != nil {
		return e
	}
	if len(env) > maxEnvVars {
		return errInvalid("env", "env may have at most %d variables.", maxEnvVars)
	}
	size := 0
	names := make([]string, 0, len(env))
	for name := range env {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !envNamePattern.MatchString(name) {
			return errInvalid("env", "env variable name %q must match ^[A-Za-z_][A-Za-z0-9_]*$.", clip(name))
		}
		var value string
		if v := env[name]; v[0] != '"' || json.Unmarshal(v, &value) != nil {
			return errInvalid("env", "env variable %s must have a string value.", name)
		}
		size += len(name) + len(value)
	}
	if size > maxEnvBytes {
		return errInvalid("env", "env may hold at most %d bytes of names and values.", maxEnvBytes)
	}
	return nil
}

func (s *Server) deleteDeployment(r *http.Request, _ *apiKey, _ []byte) (any, *apiError) {
	if _, e := parseQuery(r); e != nil {
		return nil, e
	}
	id := r.PathValue("id")
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.deps[id]
	if !ok {
		return nil, errNoDeployment("id")
	}
	i := sort.SearchStrings(s.order, id)
	delete(s.deps, id)
	s.order = slices.Delete(s.order, i, i+1)
	if err := s.persistLocked(nil); err != nil {
		s.deps[id] = d
		s.order = slices.Insert(s.order, i, id)
		s.log.Error("writing state file", "error", err)
		return nil, errInternal()
	}
	// Removed under the lock: the URL answers 404 before this response leaves.
	return deletedView{ID: id, Deleted: true}, nil
}

func (s *Server) createKey(r *http.Request, caller *apiKey, body []byte) (any, *apiError) {
	if _, e := parseQuery(r); e != nil {
		return nil, e
	}
	fields, e := decodeObject(body, "name", "scopes")
	if e != nil {
		return nil, e
	}
	name, e := requiredString(fields, "name")
	if e != nil {
		return nil, e
	}
	if n := utf8.RuneCountInString(name); n < 1 || n > maxKeyNameLen {
		return nil, errInvalid("name", "name must be 1 to %d characters.", maxKeyNameLen)
	}
	scopes := caller.scopes
	if raw, ok := fields["scopes"]; ok && string(raw) != "null" {
		var list []string
		if raw[0] != '[' || json.Unmarshal(raw, &list) != nil {
			return nil, errInvalid("scopes", "scopes must be an array of strings.")
		}
		if len(list) == 0 {
			return nil, errInvalid("scopes", "scopes must name at least one scope.")
		}
		for i, sc := range list {
			if !slices.Contains(allScopes, sc) {
				return nil, errInvalid("scopes", "Unknown scope %q; scopes are deployments:read, deployments:write, keys:write.", clip(sc))
			}
			if slices.Contains(list[:i], sc) {
				return nil, errInvalid("scopes", "Scope %s is listed twice.", sc)
			}
		}
		for _, sc := range list {
			if !caller.has(sc) {
				// A key cannot hand out more than it holds.
				return nil, errScope(sc, "scopes")
			}
		}
		scopes = list
	}
	secret := newSecret()
	k := &apiKey{id: newKeyID(), name: name, scopes: slices.Clone(scopes), hash: hashSecret(secret)}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keys[k.hash] = k
	created := &keyCreated{ID: k.id, Secret: secret}
	if err := s.commitLocked(r, created); err != nil {
		delete(s.keys, k.hash)
		s.log.Error("writing state file", "error", err)
		return nil, errInternal()
	}
	return created, nil
}

// lookupKey finds the key with this secret by its SHA-256 hash.
func (s *Server) lookupKey(secret string) *apiKey {
	h := hashSecret(secret)
	s.mu.Lock()
	k := s.keys[h]
	s.mu.Unlock()
	// The map finds the candidate; the final comparison is constant-time.
	if k == nil || subtle.ConstantTimeCompare(k.hash[:], h[:]) != 1 {
		return nil
	}
	return k
}

func (s *Server) openAPI(r *http.Request, _ *apiKey, _ []byte) (any, *apiError) {
	if _, e := parseQuery(r); e != nil {
		return nil, e
	}
	return rawResponse{contentType: "application/yaml", body: OpenAPI}, nil
}

// serveDeployment answers for a deployment's URL, as the edge would.
func (s *Server) serveDeployment(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	now := s.clock()
	s.mu.Lock()
	d, ok := s.deps[id]
	var (
		st         Status
		msg, entry string
		readyAt    time.Time
	)
	if ok {
		st, msg = d.status(now)
		entry, readyAt = d.Entrypoint, d.ReadyAt
	}
	s.mu.Unlock()
	switch {
	case !ok:
		s.writeError(w, errNoDeployment(""))
	case st == StatusBuilding:
		s.writeError(w, errBuilding(readyAt.Sub(now)))
	case st == StatusFailed:
		s.writeError(w, errBuildFailed(msg))
	default:
		p := strings.TrimPrefix(r.URL.Path, "/_deployments/"+id)
		if p == "" {
			p = "/"
		}
		s.respond(w, servedView{Deployment: id, Entrypoint: entry, Path: p}, nil)
	}
}

// ErrNotFound is returned by SetStatus for an unknown deployment.
var ErrNotFound = errors.New("deploystub: no such deployment")

// SetStatus forces a deployment's status from now on, whatever its build
// said: building stays building until set again, failed carries message
// (or "build failed") as the deployment's error. For tests.
func (s *Server) SetStatus(id string, status Status, message string) error {
	if status != StatusBuilding && status != StatusLive && status != StatusFailed {
		return fmt.Errorf("deploystub: unknown status %q", status)
	}
	if status == StatusFailed && message == "" {
		message = "build failed"
	}
	if status != StatusFailed {
		message = ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.deps[id]
	if !ok {
		return ErrNotFound
	}
	old := *d
	d.Forced, d.ForcedErr = status, message
	if err := s.persistLocked(nil); err != nil {
		*d = old
		return err
	}
	return nil
}

// Reset deletes every deployment and every issued key (the root key stays),
// forgets Idempotency-Keys and rate-limit history, and writes the state
// file. For tests that share one Server.
func (s *Server) Reset() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	oldDeps, oldOrder, oldKeys := s.deps, s.order, s.keys
	s.deps, s.order, s.keys = map[string]*deployment{}, nil, map[[32]byte]*apiKey{}
	root := hashSecret(s.rootKey)
	s.keys[root] = oldKeys[root]
	s.idemMu.Lock()
	oldIdem := s.idem
	s.idem = idemCache{}
	s.idemMu.Unlock()
	if err := s.persistLocked(nil); err != nil {
		s.deps, s.order, s.keys = oldDeps, oldOrder, oldKeys
		s.idemMu.Lock()
		s.idem = oldIdem
		s.idemMu.Unlock()
		return err
	}
	if s.limiter != nil {
		s.limiter.reset()
	}
	return nil
}

// decodeObject decodes a request body that must be one JSON object whose
// members are all in allowed.
func decodeObject(body []byte, allowed ...string) (map[string]json.RawMessage, *apiError) {
	if !utf8.Valid(body) {
		return nil, errInvalidJSON("The request body is not valid UTF-8.")
	}
	if t := bytes.TrimLeft(body, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return nil, errInvalidJSON("The request body must be a JSON object.")
	}
	fields, e := decodeFields(body, "")
	if e != nil {
		return nil, e
	}
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !slices.Contains(allowed, name) {
			return nil, errUnknown(clip(name))
		}
	}
	return fields, nil
}

// decodeFields decodes one JSON object into its raw members, refusing
// duplicate names (encoding/json would silently keep the last) and trailing
// data. param names the object in errors; "" is the body itself.
func decodeFields(data []byte, param string) (map[string]json.RawMessage, *apiError) {
	bad := func(format string, args ...any) *apiError {
		if param == "" {
			return errInvalidJSON(format, args...)
		}
		return errInvalid(param, format, args...)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, bad("Expected a JSON object.")
	}
	fields := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, bad("Invalid JSON: %v.", err)
		}
		name, ok := tok.(string)
		if !ok {
			return nil, bad("Invalid JSON: expected a member name.")
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, bad("Invalid JSON: %v.", err)
		}
		if _, dup := fields[name]; dup {
			return nil, bad("Member %q appears twice.", clip(name))
		}
		fields[name] = raw
	}
	if _, err := dec.Token(); err != nil {
		return nil, bad("Invalid JSON: %v.", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, bad("Unexpected data after the JSON object.")
	}
	return fields, nil
}

// requiredString is the string member param of a request object.
func requiredString(fields map[string]json.RawMessage, param string) (string, *apiError) {
	raw, ok := fields[param]
	if !ok {
		return "", errMissing(param)
	}
	var s string
	if raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", errInvalid(param, "%s must be a string.", param)
	}
	return s, nil
}
