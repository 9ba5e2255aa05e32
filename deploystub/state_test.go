package deploystub

import (
	"encoding/json"
	"errors"
	"fmt"
	"logoindex/internal/testtree"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestRestartKeepsState(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	h := newHarness(t, Options{StateFile: file, BuildDelay: time.Minute})
	_, reader := h.createKey("reader", ScopeDeploymentsRead)
	a := h.createDeployment("a.js")
	b := h.createDeployment("b.py") // will fail
	c := h.createDeployment("c.js")
	d := h.createDeployment("d.js")
	h.do("DELETE", "/v2/deployments/"+c, testRootKey, "")
	if err := h.srv.SetStatus(d, StatusFailed, "forced"); err != nil {
		t.Fatal(err)
	}
	before := h.do("GET", "/v2/deployments", reader, "")
	h.ts.Close()

	// Restart on another port, with another root key and the clock moved on
	// past the build delay: the builds end as they would have.
	h.clock.Add(2 * time.Minute)
	const newRoot = "another-root-key-for-the-restart"
	h2 := newHarness(t, Options{StateFile: file, RootKey: newRoot, Clock: h.clock.Now, BuildDelay: time.Minute})
	after := h2.do("GET", "/v2/deployments", reader, "")
	if after.status != 200 {
		t.Fatalf("the issued key after a restart: %d %s", after.status, after.body)
	}
	type row struct{ ID, Status, Error, CreatedAt, URL string }
	rows := func(r *response, base string) []row {
		var out []row
		for _, x := range r.json["data"].([]any) {
			m := x.(map[string]any)
			e, _ := m["error"].(string)
			out = append(out, row{m["id"].(string), m["status"].(string), e, m["created_at"].(string), strings.TrimPrefix(m["url"].(string), base)})
		}
		return out
	}
	created := "2025-03-01T12:00:00.000Z"
	wantBefore := []row{
		{d, "failed", "forced", created, "/_deployments/" + d + "/"},
		{b, "building", "", created, "/_deployments/" + b + "/"},
		{a, "building", "", created, "/_deployments/" + a + "/"},
	}
	if diff := cmp.Diff(wantBefore, rows(before, h.ts.URL)); diff != "" {
		t.Errorf("before the restart (-want +got):\n%s", diff)
	}
	wantAfter := []row{
		{d, "failed", "forced", created, "/_deployments/" + d + "/"},
		{b, "failed", "entrypoint must be a .js, .mjs, .ts, .tsx or .jsx file", created, "/_deployments/" + b + "/"},
		{a, "live", "", created, "/_deployments/" + a + "/"},
	}
	// URLs follow the new listener.
	if diff := cmp.Diff(wantAfter, rows(after, h2.ts.URL)); diff != "" {
		t.Errorf("after the restart (-want +got):\n%s", diff)
	}
	if r := h2.do("GET", "/_deployments/"+c+"/", "", ""); r.status != 404 {
		t.Errorf("deleted deployment after restart: %d", r.status)
	}
	// The root key is not part of the state: the old one is gone.
	if r := h2.do("GET", "/v2/deployments", testRootKey, ""); r.status != 401 {
		t.Errorf("old root key after restart: %d, want 401", r.status)
	}
	// New ids sort after the kept ones, even with the clock set back.
	h.clock.Add(-24 * time.Hour)
	e := h2.do("POST", "/v2/deployments", newRoot, `{"entrypoint":"e.js"}`).str("id")
	if got := ids(h2.do("GET", "/v2/deployments?limit=1", newRoot, "")); len(got) != 1 || got[0] != e {
		t.Errorf("newest after restart = %v, want %s", got, e)
	}

	info, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("state file mode %v, want 0600", info.Mode().Perm())
	}
	// The state file and its lock; no temporary leftovers.
	if diff := cmp.Diff([]string{"state.json", "state.json.lock"}, testtree.Names(t, filepath.Dir(file))); diff != "" {
		t.Errorf("state directory (-want +got):\n%s", diff)
	}
}

// TestStateFileIsAlwaysWhole reads the state file while it is rewritten:
// thanks to temp file + rename every read is a complete document.
func TestStateFileIsAlwaysWhole(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	h := newHarness(t, Options{StateFile: file})
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	reads := 0
	go func() {
		defer wg.Done()
		for {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Errorf("reading the state file: %v", err)
				return
			}
			var st state
			if err := json.Unmarshal(data, &st); err != nil {
				t.Errorf("a torn state file (%d bytes): %v", len(data), err)
				return
			}
			reads++
			select {
			case <-stop:
				return
			default:
			}
		}
	}()
	for range 30 {
		h.createDeployment("index.js")
	}
	close(stop)
	wg.Wait()
	if reads == 0 {
		t.Error("the reader never read the file")
	}
	var st state
	data, _ := os.ReadFile(file)
	if err := json.Unmarshal(data, &st); err != nil || len(st.Deployments) != 30 {
		t.Errorf("final state: %v, %d deployments, want 30", err, len(st.Deployments))
	}
}

// TestUnwritableStateFile takes the state directory away: each change
// answers 500, is rolled back, and nothing half-done remains.
func TestUnwritableStateFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "state.json")
	h := newHarness(t, Options{StateFile: file})
	keep := h.createDeployment("keep.js")
	before := h.srv.snapshot()
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	internal := [3]string{"api_error", "internal_error", "<nil>"}
	for _, q := range []req{
		{"POST", "/v2/deployments", testRootKey, `{"entrypoint":"a.js"}`, nil},
		{"DELETE", "/v2/deployments/" + keep, testRootKey, "", nil},
		{"POST", "/v2/keys", testRootKey, `{"name":"n"}`, nil},
	} {
		r := h.send(q)
		if r.status != 500 || r.errorOf() != internal {
			t.Errorf("%s %s with no state directory: %d %v", q.method, q.path, r.status, r.errorOf())
		}
	}
	if err := h.srv.SetStatus(keep, StatusFailed, ""); err == nil {
		t.Error("SetStatus without a state directory succeeded")
	}
	if err := h.srv.Reset(); err == nil {
		t.Error("Reset without a state directory succeeded")
	}
	if after := h.srv.snapshot(); after != before {
		t.Errorf("failed writes changed the state:\nbefore %s\nafter  %s", before, after)
	}
	if r := h.do("GET", "/_deployments/"+keep+"/", "", ""); r.status != 200 {
		t.Errorf("the kept deployment after a failed delete: %d", r.status)
	}
	if !strings.Contains(h.logs.String(), "writing state file") {
		t.Error("the failed writes were not logged")
	}
	// With the directory back, changes are written again.
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	h.createDeployment("b.js")
	data, err := os.ReadFile(file)
	if err != nil || strings.Count(string(data), `"entrypoint"`) != 2 {
		t.Errorf("state file after recovery: %v\n%s", err, data)
	}
}

// Pieces of hand-written state files.
const (
	goodDep    = `{"id":"dep_0000000000001aaaaaaaa","entrypoint":"a.js","created_at":"2025-01-01T00:00:00Z","ready_at":"2025-01-01T00:00:00Z","outcome":"live"}`
	goodHash   = "abababababababababababababababababababababababababababababababab"
	goodKey    = `{"id":"key_1","name":"n","scopes":["keys:write"],"sha256":"` + goodHash + `"}`
	goodReplay = `{"key_id":"key_root","idempotency_key_sha256":"` + goodHash + `","fingerprint":"` + goodHash + `","expires_at":"2999-01-01T00:00:00Z","response":"{}"}`
)

// TestBadStateFile gives damaged and hand-edited state files: each is
// refused with its line and column, is not an option error (exit status
// 1, not 2), and is left as it was.
func TestBadStateFile(t *testing.T) {
	dir := t.TempDir()
	// A state file as the stub writes it, then edited by hand.
	written := "{\n  \"version\": 1,\n  \"deployments\": [\n    " + goodDep + ",\n    " +
		strings.Replace(goodDep, "1aaaa", "2aaaa", 1) + "\n  ],\n  \"keys\": []\n}\n"
	replay := func(from, to string) string {
		return `{"version":1,"idempotency":[` + strings.Replace(goodReplay, from, to, 1) + `]}`
	}
	tests := []struct{ name, content, want string }{
		{"truncated", "{", "1:2: unexpected end of JSON input"},
		{"not JSON", "version: 1", "1:1: invalid character 'v' looking for beginning of value"},
		{"trailing data", `{"version":1} {}`, "1:15: invalid character '{' after top-level value"},
		{"not UTF-8", "{\"version\":1,\n\"keys\":[{\"id\":\"k\xff\"}]}", "2:17: not valid UTF-8"},
		{"not an object", "[1]", "1:1: the state file must be a JSON object"},
		{"unknown field", `{"version":1,"secrets":[]}`, `1:14: unknown field "secrets"`},
		{"field twice", `{"version":1,"keys":[],"keys":[]}`, `1:24: field "keys" appears twice`},
		{"newer version", `{"version":2}`, "1:12: version 2, want 1: written by a newer deploystub, which this one neither reads nor overwrites"},
		{"newer version, new fields", `{"tenants":[],"version":7}`, "1:25: version 7, want 1: written by a newer deploystub, which this one neither reads nor overwrites"},
		{"version 0", `{"version":0}`, "1:12: version 0, want 1"},
		{"no version", `{}`, "1:1: no version, want 1"},
		{"version a string", `{"version":"1"}`, "1:12: version: json: cannot unmarshal string into Go value of type int"},
		{"negative last id time", `{"version":1,"last_id_time":-1}`, "1:29: last_id_time: json: cannot unmarshal number -1 into Go value of type uint64"},
		{"deployments not a list", `{"version":1,"deployments":{}}`, "1:28: deployments must be a list"},
		{"bad deployment id", strings.Replace(written, "dep_0000000000002", "dep_x", 1), "5:5: bad or repeated deployment id"},
		{"repeated deployment", strings.Replace(written, "2aaaa", "1aaaa", 1), "5:5: bad or repeated deployment id"},
		{"null deployment", `{"version":1,"deployments":[null]}`, "1:29: bad or repeated deployment id"},
		{"bad outcome", strings.Replace(written, `"live"}`, `"building"}`, 1), "4:5: deployment dep_0000000000001aaaaaaaa: bad status"},
		{"deployment with an unknown field", `{"version":1,"deployments":[{"colour":"red"}]}`, `1:29: deployment: json: unknown field "colour"`},
		{"bad created_at", strings.Replace(written, `"2025-01-01T00:00:00Z"`, `"yesterday"`, 1), `4:5: deployment: parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`},
		{"bad hash", `{"version":1,"keys":[{"id":"key_1","sha256":"zz"}]}`, `1:22: key "key_1": bad id or hash`},
		{"root key id", `{"version":1,"keys":[` + strings.Replace(goodKey, "key_1", "key_root", 1) + `]}`, `1:22: key "key_root": bad id or hash`},
		{"bad scope", `{"version":1,"keys":[{"id":"key_1","scopes":["root"],"sha256":"` + goodHash + `"}]}`, `1:22: key key_1: unknown scope "root"`},
		{"repeated key", `{"version":1,"keys":[` + goodKey + `,` + goodKey + `]}`, fmt.Sprintf("1:%d: key key_1: repeated hash", len(`{"version":1,"keys":[`+goodKey+`,`)+1)},
		{"replay without key id", replay(`"key_id":"key_root"`, `"key_id":""`), "1:29: idempotency record: no key_id"},
		{"replay with a short hash", replay(`"fingerprint":"ab`, `"fingerprint":"`), "1:29: idempotency record: idempotency_key_sha256 and fingerprint must be 64 hexadecimal digits"},
		{"replay without expiry", replay(`,"expires_at":"2999-01-01T00:00:00Z"`, ``), "1:29: idempotency record: no expires_at"},
		{"replay without response", replay(`,"response":"{}"`, ``), "1:29: idempotency record: exactly one of response and issued_key is needed"},
		{"replay with both", replay(`"response":"{}"`, `"response":"{}","issued_key":"key_1"`), "1:29: idempotency record: exactly one of response and issued_key is needed"},
		{"replay not JSON", replay(`"response":"{}"`, `"response":"{"`), "1:29: idempotency record: response is not JSON"},
		{"replay with a secret field", replay(`"response":"{}"`, `"response":"{}","secret":"x"`), `1:29: idempotency record: json: unknown field "secret"`},
		{"replay repeated", `{"version":1,"idempotency":[` + goodReplay + `,` + goodReplay + `]}`, fmt.Sprintf("1:%d: idempotency record: repeated for one key", len(`{"version":1,"idempotency":[`+goodReplay+`,`)+1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".json")
			if err := os.WriteFile(file, []byte(tt.content), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := NewServer(Options{StateFile: file})
			if err == nil {
				t.Fatal("NewServer accepted it")
			}
			if diff := cmp.Diff("deploystub: state file "+file+":"+tt.want, err.Error()); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if errors.Is(err, ErrInvalidOption) {
				t.Errorf("a damaged state file is not an invalid option: %v", err)
			}
			// A state file that cannot be read is left alone, not overwritten.
			if data, _ := os.ReadFile(file); string(data) != tt.content {
				t.Errorf("the bad state file was changed")
			}
		})
	}
}

// TestGoodStateFile loads hand-written state files, old and new.
func TestGoodStateFile(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, content       string
		deps, keys, replays int // keys counts the root key
		lastIDTime          uint64
	}{
		{"empty file", "", 0, 1, 0, 0},
		{"version only", `{"version":1}`, 0, 1, 0, 0},
		{"null lists", `{"version":1,"deployments":null,"keys":null,"idempotency":null}`, 0, 1, 0, 0},
		{"before Idempotency-Keys were kept", `{"version":1,"last_id_time":0,"deployments":[` + goodDep + `],"keys":[` + goodKey + `]}`, 1, 2, 0, 1},
		{"everything", `{"idempotency":[` + goodReplay + `],"keys":[` + goodKey + `],"deployments":[` + goodDep + `],"version":1}`, 1, 2, 1, 1},
		{"expired replay dropped", `{"version":1,"idempotency":[` + strings.Replace(goodReplay, "2999", "2001", 1) + `]}`, 0, 1, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".json")
			os.WriteFile(file, []byte(tt.content), 0o600)
			srv, err := NewServer(Options{StateFile: file})
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			got := [4]uint64{uint64(len(srv.deps)), uint64(len(srv.keys)), uint64(len(srv.idem.entries)), srv.lastIDTime}
			want := [4]uint64{uint64(tt.deps), uint64(tt.keys), uint64(tt.replays), tt.lastIDTime}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("deployments, keys, replays, last id time (-want +got):\n%s", diff)
			}
		})
	}
}
