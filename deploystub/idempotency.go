package deploystub

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"slices"
	"time"
)

// Idempotency-Key follows Stripe: the first successful response to a POST
// is kept for idempotencyTTL; the same key with the same request replays it,
// with a different request it is a 409. Failed requests keep nothing, so a
// corrected retry may reuse the key. Keys are per API key, and are kept in
// the state file, if any, with the change they answer.
const maxIdempotencyEntries = 10000

type idemEntry struct {
	fingerprint [32]byte
	expires     time.Time
	done        bool
	response    []byte // the response to replay
	issuedKey   string // for POST /v2/keys: the key id, never its secret
}

// idemKey names a remembered Idempotency-Key: the API key that sent it and
// the SHA-256 of the header, which is all the state file holds of it.
type idemKey struct {
	keyID string
	sum   [32]byte
}

func newIdemKey(keyID, header string) idemKey {
	return idemKey{keyID, sha256.Sum256([]byte(header))}
}

type idemCache struct {
	entries map[idemKey]*idemEntry
	order   []idemSlot // claim order, for evicting the oldest
}

type idemSlot struct {
	key   idemKey
	entry *idemEntry
}

// idemClaim is an Idempotency-Key claimed by a POST in progress. It rides
// in the request's context so that the handler's state write can keep the
// replay in the same write as the change (commitLocked).
type idemClaim idemSlot

type idemCtxKey struct{}

// pendingReplay is a claim's entry as it will be once its write succeeds.
type pendingReplay struct {
	claimed *idemEntry
	done    idemEntry
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
func (s *Server) idemBegin(key idemKey, fp [32]byte) (*idemEntry, []byte, *apiError) {
	now := s.clock()
	s.idemMu.Lock()
	defer s.idemMu.Unlock()
	c := &s.idem
	if c.entries == nil {
		c.entries = map[idemKey]*idemEntry{}
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

// commitLocked writes the state file after a change made for r; s.mu must
// be held. When r claimed an Idempotency-Key, the replay of v goes into the
// same write, and the claim is marked done only once that write succeeded:
// a retry after a crash or restart is replayed, never run twice, and a
// retry during the write is told the key is in use rather than replayed
// something not yet kept.
func (s *Server) commitLocked(r *http.Request, v any) error {
	c, _ := r.Context().Value(idemCtxKey{}).(*idemClaim)
	if c == nil {
		return s.persistLocked(nil)
	}
	p := &pendingReplay{claimed: c.entry, done: idemEntry{fingerprint: c.entry.fingerprint, expires: c.entry.expires, done: true}}
	if k, ok := v.(*keyCreated); ok {
		p.done.issuedKey = k.ID // the secret is shown once: never kept for a replay
	} else {
		data, err := marshal(v)
		if err != nil {
			return err
		}
		p.done.response = data
	}
	if err := s.persistLocked(p); err != nil {
		return err
	}
	s.idemMu.Lock()
	*c.entry = p.done
	s.idemMu.Unlock()
	return nil
}

// idemFinish records the successful response of a claimed key, unless the
// handler's commitLocked did.
func (s *Server) idemFinish(e *idemEntry, v any, data []byte) {
	s.idemMu.Lock()
	defer s.idemMu.Unlock()
	if e.done {
		return
	}
	e.done = true
	if k, ok := v.(*keyCreated); ok {
		e.issuedKey = k.ID // the secret is shown once: never kept for a replay
	} else {
		e.response = data
	}
}

// idemAbandon releases a claimed key whose request failed.
func (s *Server) idemAbandon(key idemKey, e *idemEntry) {
	s.idemMu.Lock()
	defer s.idemMu.Unlock()
	if s.idem.entries[key] == e {
		delete(s.idem.entries, key)
	}
}

// replaysLocked lists the Idempotency-Keys the state file keeps: finished
// and unexpired at now, the newest maxIdempotencyEntries, oldest first,
// counting pending as finished while its key is still claimed.
func (s *Server) replaysLocked(now time.Time, pending *pendingReplay) []stateReplay {
	s.idemMu.Lock()
	defer s.idemMu.Unlock()
	out := []stateReplay{}
	for _, slot := range s.idem.order {
		e := slot.entry
		if s.idem.entries[slot.key] != e {
			continue // claimed again since, or abandoned
		}
		if pending != nil && e == pending.claimed {
			e = &pending.done
		}
		if !e.done || !now.Before(e.expires) {
			continue
		}
		out = append(out, stateReplay{
			KeyID:       slot.key.keyID,
			KeySHA256:   hex.EncodeToString(slot.key.sum[:]),
			Fingerprint: hex.EncodeToString(e.fingerprint[:]),
			ExpiresAt:   e.expires.UTC(),
			Response:    string(e.response),
			IssuedKey:   e.issuedKey,
		})
	}
	return out[max(0, len(out)-maxIdempotencyEntries):]
}

// restoreReplays remembers the Idempotency-Keys of a state file that are
// unexpired at now, the newest maxIdempotencyEntries, in claim order.
func (s *Server) restoreReplays(rs []stateReplay, now time.Time) {
	rs = slices.DeleteFunc(slices.Clone(rs), func(r stateReplay) bool { return !now.Before(r.ExpiresAt) })
	// Every key lives idempotencyTTL, so expiry order is claim order.
	slices.SortStableFunc(rs, func(a, b stateReplay) int { return a.ExpiresAt.Compare(b.ExpiresAt) })
	rs = rs[max(0, len(rs)-maxIdempotencyEntries):]
	s.idemMu.Lock()
	defer s.idemMu.Unlock()
	s.idem = idemCache{entries: map[idemKey]*idemEntry{}}
	for _, r := range rs {
		var k idemKey
		k.keyID = r.KeyID
		hex.Decode(k.sum[:], []byte(r.KeySHA256)) // checked by parseState
		e := &idemEntry{expires: r.ExpiresAt, done: true, issuedKey: r.IssuedKey}
		hex.Decode(e.fingerprint[:], []byte(r.Fingerprint))
		if r.Response != "" {
			e.response = []byte(r.Response)
		}
		s.idem.entries[k] = e
		s.idem.order = append(s.idem.order, idemSlot{k, e})
	}
}
