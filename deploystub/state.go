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

	"logoindex/internal/atomicfile"
)

// stateVersion is the format of the state file; another version is refused
// rather than misread.
const stateVersion = 1

// state is the state file: deployments and the SHA-256 of each issued key.
// It never holds a secret (the root key is not in it at all) or an env value.
type state struct {
	Version     int           `json:"version"`
	LastIDTime  uint64        `json:"last_id_time"`
	Deployments []*deployment `json:"deployments"`
	Keys        []stateKey    `json:"keys"`
}

type stateKey struct {
	ID     string   `json:"id"`
	Name   string   `json:"name"`
	Scopes []string `json:"scopes"`
	SHA256 string   `json:"sha256"`
}

// persistLocked writes the state file, if any; s.mu must be held.
func (s *Server) persistLocked() error {
	if s.stateFile == "" {
		return nil
	}
	st := state{Version: stateVersion, LastIDTime: s.lastIDTime, Deployments: []*deployment{}, Keys: []stateKey{}}
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
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	// Key hashes are not secrets, but nobody else needs to read them.
	return atomicfile.Write(s.stateFile, append(data, '\n'), 0o600)
}

// loadState reads the state file; a missing file is an empty state.
func (s *Server) loadState() error {
	data, err := os.ReadFile(s.stateFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("deploystub: reading state file: %w", err)
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("deploystub: state file %s: %s", s.stateFile, fmt.Sprintf(format, args...))
	}
	var st state
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&st); err != nil {
		return bad("%v", err)
	}
	if st.Version != stateVersion {
		return bad("version %d, want %d", st.Version, stateVersion)
	}
	s.lastIDTime = st.LastIDTime
	for _, d := range st.Deployments {
		if d == nil || !deploymentIDPattern.MatchString(d.ID) || s.deps[d.ID] != nil {
			return bad("bad or repeated deployment id")
		}
		if !validStatus(d.Outcome) || d.Outcome == StatusBuilding || d.Forced != "" && !validStatus(d.Forced) {
			return bad("deployment %s: bad status", d.ID)
		}
		s.deps[d.ID] = d
		s.order = append(s.order, d.ID)
		// Ids made after a restart must sort after every kept one.
		s.lastIDTime = max(s.lastIDTime, deploymentIDTime(d.ID))
	}
	sort.Strings(s.order)
	for _, k := range st.Keys {
		h, err := hex.DecodeString(k.SHA256)
		if err != nil || len(h) != 32 || len(k.ID) == 0 {
			return bad("key %q: bad id or hash", k.ID)
		}
		for _, sc := range k.Scopes {
			if !slices.Contains(allScopes, sc) {
				return bad("key %s: unknown scope %q", k.ID, sc)
			}
		}
		key := &apiKey{id: k.ID, name: k.Name, scopes: k.Scopes, hash: [32]byte(h)}
		if _, dup := s.keys[key.hash]; dup {
			return bad("key %s: repeated hash", k.ID)
		}
		s.keys[key.hash] = key
	}
	return nil
}

func validStatus(st Status) bool {
	return st == StatusBuilding || st == StatusLive || st == StatusFailed
}
