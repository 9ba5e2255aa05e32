package deploystub

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"sort"
	"time"
	"unicode/utf8"
)

// stateVersion is the format of the state file; another version is refused
// rather than misread or overwritten.
const stateVersion = 1

// state is the state file: deployments, the SHA-256 of each issued key and
// the remembered Idempotency-Keys. It never holds a secret (the root key is
// not in it at all) or an env value.
type state struct {
	Version     int           `json:"version"`
	LastIDTime  uint64        `json:"last_id_time"`
	Deployments []*deployment `json:"deployments"`
	Keys        []stateKey    `json:"keys"`
	Idempotency []stateReplay `json:"idempotency"`
}

// stateMembers are the members a state file may have.
var stateMembers = []string{"version", "last_id_time", "deployments", "keys", "idempotency"}

type stateKey struct {
	ID     string   `json:"id"`
	Name   string   `json:"name"`
	Scopes []string `json:"scopes"`
	SHA256 string   `json:"sha256"`
}

// stateReplay is a finished POST with an Idempotency-Key, kept so that a
// retry after a restart is replayed or refused as before. It holds the
// SHA-256 of the Idempotency-Key, not the key (a client may put anything
// there), and for POST /v2/keys the issued key's id, never its secret.
type stateReplay struct {
	KeyID       string    `json:"key_id"`                 // the API key that sent it
	KeySHA256   string    `json:"idempotency_key_sha256"` // of the Idempotency-Key header
	Fingerprint string    `json:"fingerprint"`            // SHA-256 of method, path, query and body
	ExpiresAt   time.Time `json:"expires_at"`
	Response    string    `json:"response,omitempty"`   // the response body to replay
	IssuedKey   string    `json:"issued_key,omitempty"` // or the key POST /v2/keys issued
}

// encodeState renders st as the state file's content.
func encodeState(st *state) ([]byte, error) {
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// stateLocked gathers what the state file keeps, with pending, the replay
// record of the POST this write is for, if any; s.mu must be held.
func (s *Server) stateLocked(pending *pendingReplay) *state {
	st := &state{Version: stateVersion, LastIDTime: s.lastIDTime, Deployments: []*deployment{}, Keys: []stateKey{}}
	for _, id := range s.order {
		st.Deployments = append(st.Deployments, s.deps[id])
	}
	for _, k := range s.keys {
		if k.id == rootKeyID {
			continue // given at every start, never written
		}
		st.Keys = append(st.Keys, stateKey{ID: k.id, Name: k.name, Scopes: k.scopes, SHA256: hex.EncodeToString(k.hash[:])})
	}
	sort.Slice(st.Keys, func(i, j int) bool { return st.Keys[i].ID < st.Keys[j].ID })
	st.Idempotency = s.replaysLocked(s.clock(), pending)
	return st
}

// persistLocked writes the state file, if any, with pending as in
// stateLocked; s.mu must be held. The write is synced before it returns, so
// a change it acknowledges survives a crash.
func (s *Server) persistLocked(pending *pendingReplay) error {
	if s.lock == nil {
		return nil
	}
	data, err := encodeState(s.stateLocked(pending))
	if err != nil {
		return err
	}
	return s.lock.write(s, s.stateFile, data)
}

// loadState reads the state file; a missing or empty file is an empty
// state. Expired Idempotency-Keys are dropped.
func (s *Server) loadState() error {
	data, err := os.ReadFile(s.stateFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("deploystub: reading state file: %w", err)
	}
	st, err := parseState(data)
	if err != nil {
		sep := ": "
		if errors.As(err, new(*stateError)) {
			sep = ":" // file:line:column: message
		}
		return fmt.Errorf("deploystub: state file %s%s%w", s.stateName, sep, err)
	}
	s.lastIDTime = st.LastIDTime
	for _, d := range st.Deployments {
		s.deps[d.ID] = d
		s.order = append(s.order, d.ID)
		// Ids made after a restart must sort after every kept one.
		s.lastIDTime = max(s.lastIDTime, deploymentIDTime(d.ID))
	}
	sort.Strings(s.order)
	for _, k := range st.Keys {
		h, _ := hex.DecodeString(k.SHA256)
		key := &apiKey{id: k.ID, name: k.Name, scopes: k.Scopes, hash: [32]byte(h)}
		if _, dup := s.keys[key.hash]; dup {
			return fmt.Errorf("deploystub: state file %s: key %s: repeated hash (the root key is this key's secret)", s.stateName, k.ID)
		}
		s.keys[key.hash] = key
	}
	s.restoreReplays(st.Idempotency, s.clock())
	return nil
}

func validStatus(st Status) bool {
	return st == StatusBuilding || st == StatusLive || st == StatusFailed
}

// stateError is a fault in a state file at a line and a column (in
// characters, from 1).
type stateError struct {
	line, col int
	msg       string
}

func (e *stateError) Error() string { return fmt.Sprintf("%d:%d: %s", e.line, e.col, e.msg) }

// parseState reads a state file strictly: valid UTF-8 and JSON, no member
// unknown or given twice, this version only, every record well formed. An
// error names the line and column where the fault is. Empty content is an
// empty state, so a file made by mktemp or touch can be given.
func parseState(data []byte) (*state, error) {
	st := &state{Version: stateVersion}
	if len(data) == 0 {
		return st, nil
	}
	p := &stateParser{data: data}
	members, err := p.members()
	if err != nil {
		return nil, err
	}
	if err := p.version(members); err != nil {
		return nil, err
	}
	if err := p.known(members); err != nil {
		return nil, err
	}
	if m, ok := members["last_id_time"]; ok {
		if err := p.decode(m.off, m.raw, &st.LastIDTime, "last_id_time"); err != nil {
			return nil, err
		}
	}
	deps, keys, replays := map[string]bool{}, map[string]bool{}, map[[2]string]bool{}
	for _, l := range []struct {
		name string
		each func(off int, raw []byte) error
	}{
		{"deployments", func(off int, raw []byte) error { return p.deployment(st, deps, off, raw) }},
		{"keys", func(off int, raw []byte) error { return p.key(st, keys, off, raw) }},
		{"idempotency", func(off int, raw []byte) error { return p.replay(st, replays, off, raw) }},
	} {
		if err := p.list(members, l.name, l.each); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// stateParser reads one state file and places its faults.
type stateParser struct {
	data []byte
}

// member is a top-level member's value and where its name and value start.
type member struct {
	nameOff, off int
	raw          json.RawMessage
}

// errAt is a fault at byte offset off.
func (p *stateParser) errAt(off int, format string, args ...any) error {
	line, col := 1, 1
	for _, b := range p.data[:min(max(off, 0), len(p.data))] {
		switch {
		case b == '\n':
			line, col = line+1, 1
		case b&0xc0 != 0x80: // not inside a multi-byte character
			col++
		}
	}
	return &stateError{line, col, fmt.Sprintf(format, args...)}
}

// skip returns the offset of the next value or name in data from off, past
// blanks and the separators encoding/json's offsets stop before.
func skip(data []byte, off int) int {
	for off < len(data) && bytes.IndexByte([]byte(" \t\r\n,:"), data[off]) >= 0 {
		off++
	}
	return off
}

// members checks that the content is UTF-8 and one JSON object of
// distinct members, and returns them.
func (p *stateParser) members() (map[string]member, error) {
	for i := 0; i < len(p.data); {
		r, n := utf8.DecodeRune(p.data[i:])
		if r == utf8.RuneError && n == 1 {
			return nil, p.errAt(i, "not valid UTF-8")
		}
		i += n
	}
	var se *json.SyntaxError
	if err := json.Unmarshal(p.data, new(json.RawMessage)); errors.As(err, &se) {
		off := int(se.Offset) - 1 // the offset counts the byte at fault
		if int(se.Offset) >= len(p.data) {
			off = len(p.data)
		}
		return nil, p.errAt(off, "%v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(p.data))
	if tok, _ := dec.Token(); tok != json.Delim('{') {
		return nil, p.errAt(skip(p.data, 0), "the state file must be a JSON object")
	}
	out := map[string]member{}
	for dec.More() {
		off := skip(p.data, int(dec.InputOffset()))
		tok, _ := dec.Token()
		name, _ := tok.(string)
		if _, dup := out[name]; dup {
			return nil, p.errAt(off, "field %q appears twice", name)
		}
		m := member{nameOff: off, off: skip(p.data, int(dec.InputOffset()))}
		if err := dec.Decode(&m.raw); err != nil {
			return nil, p.errAt(m.off, "%v", err)
		}
		out[name] = m
	}
	return out, nil
}

// version checks the version member first, so that a newer file is
// refused for its version rather than for a member this one does not know.
func (p *stateParser) version(members map[string]member) error {
	m, ok := members["version"]
	if !ok {
		return p.errAt(0, "no version, want %d", stateVersion)
	}
	var v int
	if err := p.decode(m.off, m.raw, &v, "version"); err != nil {
		return err
	}
	switch {
	case v > stateVersion:
		return p.errAt(m.off, "version %d, want %d: written by a newer deploystub, which this one neither reads nor overwrites", v, stateVersion)
	case v != stateVersion:
		return p.errAt(m.off, "version %d, want %d", v, stateVersion)
	}
	return nil
}

// known refuses the first member, in the file's order, that this version
// does not know.
func (p *stateParser) known(members map[string]member) error {
	first, firstName := -1, ""
	for name, m := range members {
		if !slices.Contains(stateMembers, name) && (first < 0 || m.nameOff < first) {
			first, firstName = m.nameOff, name
		}
	}
	if first >= 0 {
		return p.errAt(first, "unknown field %q", firstName)
	}
	return nil
}

// decode decodes raw, found at off, into v, refusing unknown fields.
func (p *stateParser) decode(off int, raw []byte, v any, what string) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return p.errAt(off, "%s: %v", what, err)
	}
	return nil
}

// list calls each for every element of the list member name, if present,
// with the element's offset; null is an empty list.
func (p *stateParser) list(members map[string]member, name string, each func(off int, raw []byte) error) error {
	m, ok := members[name]
	if !ok || string(m.raw) == "null" {
		return nil
	}
	if m.raw[0] != '[' {
		return p.errAt(m.off, "%s must be a list", name)
	}
	dec := json.NewDecoder(bytes.NewReader(m.raw))
	dec.Token()
	for dec.More() {
		off := skip(m.raw, int(dec.InputOffset()))
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return p.errAt(m.off+off, "%v", err)
		}
		if err := each(m.off+off, raw); err != nil {
			return err
		}
	}
	return nil
}

func (p *stateParser) deployment(st *state, seen map[string]bool, off int, raw []byte) error {
	var d *deployment
	if err := p.decode(off, raw, &d, "deployment"); err != nil {
		return err
	}
	if d == nil || !deploymentIDPattern.MatchString(d.ID) || seen[d.ID] {
		return p.errAt(off, "bad or repeated deployment id")
	}
	if !validStatus(d.Outcome) || d.Outcome == StatusBuilding || d.Forced != "" && !validStatus(d.Forced) {
		return p.errAt(off, "deployment %s: bad status", d.ID)
	}
	seen[d.ID] = true
	st.Deployments = append(st.Deployments, d)
	return nil
}

func (p *stateParser) key(st *state, seen map[string]bool, off int, raw []byte) error {
	var k stateKey
	if err := p.decode(off, raw, &k, "key"); err != nil {
		return err
	}
	h, err := hex.DecodeString(k.SHA256)
	if err != nil || len(h) != 32 || len(k.ID) == 0 || k.ID == rootKeyID {
		return p.errAt(off, "key %q: bad id or hash", k.ID)
	}
	for _, sc := range k.Scopes {
		if !slices.Contains(allScopes, sc) {
			return p.errAt(off, "key %s: unknown scope %q", k.ID, sc)
		}
	}
	if seen[k.SHA256] {
		return p.errAt(off, "key %s: repeated hash", k.ID)
	}
	seen[k.SHA256] = true
	st.Keys = append(st.Keys, k)
	return nil
}

func (p *stateParser) replay(st *state, seen map[[2]string]bool, off int, raw []byte) error {
	var r stateReplay
	if err := p.decode(off, raw, &r, "idempotency record"); err != nil {
		return err
	}
	bad := func(what string) error { return p.errAt(off, "idempotency record: %s", what) }
	switch {
	case r.KeyID == "":
		return bad("no key_id")
	case !isSHA256(r.KeySHA256) || !isSHA256(r.Fingerprint):
		return bad("idempotency_key_sha256 and fingerprint must be 64 hexadecimal digits")
	case r.ExpiresAt.IsZero():
		return bad("no expires_at")
	case (r.Response == "") == (r.IssuedKey == ""):
		return bad("exactly one of response and issued_key is needed")
	case r.Response != "" && !json.Valid([]byte(r.Response)):
		return bad("response is not JSON")
	case seen[[2]string{r.KeyID, r.KeySHA256}]:
		return bad("repeated for one key")
	}
	seen[[2]string{r.KeyID, r.KeySHA256}] = true
	st.Idempotency = append(st.Idempotency, r)
	return nil
}

func isSHA256(s string) bool {
	h, err := hex.DecodeString(s)
	return err == nil && len(h) == 32
}
