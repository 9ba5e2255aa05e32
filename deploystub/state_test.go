package deploystub

import (
	"encoding/json"
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
	entries, _ := os.ReadDir(filepath.Dir(file))
	if len(entries) != 1 {
		t.Errorf("state directory holds %d files, want only the state file (no temporary leftovers)", len(entries))
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

func TestBadStateFile(t *testing.T) {
	dir := t.TempDir()
	goodKey := `{"id":"key_1","name":"n","scopes":["keys:write"],"sha256":"` + strings.Repeat("ab", 32) + `"}`
	goodDep := `{"id":"dep_0000000000001aaaaaaaa","entrypoint":"a.js","created_at":"2025-01-01T00:00:00Z","ready_at":"2025-01-01T00:00:00Z","outcome":"live"}`
	tests := []struct{ name, content, want string }{
		{"not JSON", "{", "unexpected EOF"},
		{"other version", `{"version":2}`, "version 2, want 1"},
		{"unknown field", `{"version":1,"secrets":[]}`, `unknown field "secrets"`},
		{"bad deployment id", `{"version":1,"deployments":[{"id":"x","outcome":"live"}]}`, "bad or repeated deployment id"},
		{"repeated deployment", `{"version":1,"deployments":[` + goodDep + `,` + goodDep + `]}`, "bad or repeated deployment id"},
		{"bad outcome", `{"version":1,"deployments":[{"id":"dep_0000000000001aaaaaaaa","outcome":"building"}]}`, "bad status"},
		{"bad hash", `{"version":1,"keys":[{"id":"key_1","sha256":"zz"}]}`, "bad id or hash"},
		{"bad scope", `{"version":1,"keys":[{"id":"key_1","scopes":["root"],"sha256":"` + strings.Repeat("ab", 32) + `"}]}`, `unknown scope "root"`},
		{"repeated key", `{"version":1,"keys":[` + goodKey + `,` + goodKey + `]}`, "repeated hash"},
	}
	for _, tt := range tests {
		file := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".json")
		if err := os.WriteFile(file, []byte(tt.content), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := NewServer(Options{StateFile: file})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: NewServer error %v, want one with %q", tt.name, err, tt.want)
		}
		// A state file that cannot be read is left alone, not overwritten.
		if data, _ := os.ReadFile(file); string(data) != tt.content {
			t.Errorf("%s: the bad state file was changed", tt.name)
		}
	}
	// The good pieces load.
	file := filepath.Join(dir, "good.json")
	os.WriteFile(file, []byte(`{"version":1,"last_id_time":0,"deployments":[`+goodDep+`],"keys":[`+goodKey+`]}`), 0o600)
	srv, err := NewServer(Options{StateFile: file})
	if err != nil {
		t.Fatal(err)
	}
	if len(srv.deps) != 1 || len(srv.keys) != 2 || srv.lastIDTime != 1 {
		t.Errorf("loaded %d deployments, %d keys, last id time %d; want 1, 2 (with root), 1", len(srv.deps), len(srv.keys), srv.lastIDTime)
	}
}
