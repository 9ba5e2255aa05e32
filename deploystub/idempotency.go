package deploystub

import (
	"crypto/sha256"
	"net/http"
	"time"
)

// Idempotency-Key follows Stripe: the first successful response to a POST
// is kept for idempotencyTTL; the same key with the same request replays it,
// with a different request it is a 409. Failed requests keep nothing, so a
// corrected retry may reuse the key. Keys are per API key and in memory only.
const maxIdempotencyEntries = 10000

type idemEntry struct {
	fingerprint [32]byte
	expires     time.Time
	done        bool
	response    []byte // the response to replay
	issuedKey   string // for POST /v2/keys: the key id, never its secret
}

type idemCache struct {
	entries map[string]*idemEntry
	order   []idemSlot // claim order, for evicting the oldest
}

type idemSlot struct {
	key   string
	entry *idemEntry
}

func validIdempotencyKey(k string) bool {
	if len(k) < 1 || len(k) > 255 {
		return false
	}
	for _, c := range []byte(k) {
		if c < ' ' || c > '~' {
			return false
		}
	}
	return true
}

// fingerprint identifies a request for Idempotency-Key: endpoint, query and
// exact body bytes.
func fingerprint(r *http.Request, body []byte) [32]byte {
	h := sha256.New()
	h.Write([]byte(r.Method + " " + r.URL.Path + "?" + r.URL.RawQuery + "\x00"))
	h.Write(body)
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}

// idemBegin claims an Idempotency-Key for a new request, or returns the
// response to replay, or the error that a reuse deserves.
func (s *Server) idemBegin(key string, fp [32]byte) (*idemEntry, []byte, *apiError) {
	now := s.clock()
	s.idemMu.Lock()
	defer s.idemMu.Unlock()
	c := &s.idem
	if c.entries == nil {
		c.entries = map[string]*idemEntry{}
	}
	if e, ok := c.entries[key]; ok && now.Before(e.expires) {
		switch {
		case e.fingerprint != fp:
			return nil, nil, errIdempotencyReused()
		case !e.done:
			return nil, nil, errIdempotencyInUse()
		case e.issuedKey != "":
			return nil, nil, errKeyAlreadyIssued(e.issuedKey)
		}
		return nil, e.response, nil
	}
	// Drop expired entries from the front, and the oldest finished ones
	// while at the cap. Slots whose key was since claimed again are stale.
	for len(c.order) > 0 {
		slot := c.order[0]
		if cur := c.entries[slot.key]; cur == slot.entry {
			full := len(c.entries) >= maxIdempotencyEntries
			if now.Before(cur.expires) && !(full && cur.done) {
				break
			}
			delete(c.entries, slot.key)
		}
		c.order = c.order[1:]
	}
	e := &idemEntry{fingerprint: fp, expires: now.Add(idempotencyTTL)}
	c.entries[key] = e
	c.order = append(c.order, idemSlot{key, e})
	return e, nil, nil
}

// idemFinish records the successful response of a claimed key.
func (s *Server) idemFinish(e *idemEntry, v any, data []byte) {
	s.idemMu.Lock()
	defer s.idemMu.Unlock()
	e.done = true
	if k, ok := v.(*keyCreated); ok {
		e.issuedKey = k.ID // the secret is shown once: never kept for a replay
	} else {
		e.response = data
	}
}

// idemAbandon releases a claimed key whose request failed.
func (s *Server) idemAbandon(key string, e *idemEntry) {
	s.idemMu.Lock()
	defer s.idemMu.Unlock()
	if s.idem.entries[key] == e {
		delete(s.idem.entries, key)
	}
}
