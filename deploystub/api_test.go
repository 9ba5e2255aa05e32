package deploystub

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestCreateListDeleteServe(t *testing.T) {
	h := newHarness(t, Options{})
	created := h.do("POST", "/v2/deployments", testRootKey, `{"entrypoint":"src/index.ts","env":{"API_TOKEN":"value"}}`)
	if created.status != 200 {
		t.Fatalf("create: %d %s", created.status, created.body)
	}
	id := created.str("id")
	want := map[string]any{
		"id":         id,
		"status":     "building",
		"url":        h.ts.URL + "/_deployments/" + id + "/",
		"entrypoint": "src/index.ts",
		"created_at": "2025-03-01T12:00:00.000Z",
	}
	if diff := cmp.Diff(want, created.json); diff != "" {
		t.Errorf("create response (-want +got):\n%s", diff)
	}

	// Build delay 0: live as soon as the create response is out.
	want["status"] = "live"
	list := h.do("GET", "/v2/deployments", testRootKey, "")
	if diff := cmp.Diff(map[string]any{"data": []any{want}, "has_more": false}, list.json); diff != "" {
		t.Errorf("list (-want +got):\n%s", diff)
	}

	served := h.do("GET", "/_deployments/"+id+"/", "", "")
	wantServed := map[string]any{"deployment": id, "entrypoint": "src/index.ts", "path": "/"}
	if served.status != 200 || !cmp.Equal(wantServed, served.json) {
		t.Errorf("serve: %d %s, want 200 %v", served.status, served.body, wantServed)
	}

	del := h.do("DELETE", "/v2/deployments/"+id, testRootKey, "")
	if diff := cmp.Diff(map[string]any{"id": id, "deleted": true}, del.json); del.status != 200 || diff != "" {
		t.Errorf("delete: %d (-want +got):\n%s", del.status, diff)
	}
	if r := h.do("GET", "/_deployments/"+id+"/", "", ""); r.status != 404 || r.errorOf() != [3]string{"invalid_request_error", "resource_missing", "<nil>"} {
		t.Errorf("serve after delete: %d %s, want 404 resource_missing", r.status, r.body)
	}
	if r := h.do("DELETE", "/v2/deployments/"+id, testRootKey, ""); r.status != 404 || r.errorOf() != [3]string{"invalid_request_error", "resource_missing", "id"} {
		t.Errorf("second delete: %d %s, want 404 resource_missing id", r.status, r.body)
	}
	list = h.do("GET", "/v2/deployments", testRootKey, "")
	if diff := cmp.Diff(map[string]any{"data": []any{}, "has_more": false}, list.json); diff != "" {
		t.Errorf("list after delete (-want +got):\n%s", diff)
	}
	// The environment is never shown, in any response.
	for _, r := range []*response{created, list, served, del} {
		if strings.Contains(string(r.body), "API_TOKEN") || strings.Contains(string(r.body), "value") {
			t.Errorf("a response shows env: %s", r.body)
		}
	}
}

func TestStatusFollowsBuildDelay(t *testing.T) {
	h := newHarness(t, Options{BuildDelay: 2 * time.Second})
	good := h.createDeployment("index.js")
	bad := h.createDeployment("main.py")
	type view struct {
		status, errMsg   string
		serve            int
		retryAfter, code string
	}
	look := func(id string) view {
		var v view
		for _, d := range h.do("GET", "/v2/deployments", testRootKey, "").json["data"].([]any) {
			if m := d.(map[string]any); m["id"] == id {
				v.status, _ = m["status"].(string)
				v.errMsg, _ = m["error"].(string)
			}
		}
		r := h.do("GET", "/_deployments/"+id+"/x", "", "")
		v.serve, v.retryAfter, v.code = r.status, r.header.Get("Retry-After"), r.errorOf()[1]
		return v
	}
	steps := []struct {
		advance   time.Duration
		good, bad view
	}{
		{0, view{"building", "", 503, "2", "deployment_building"}, view{"building", "", 503, "2", "deployment_building"}},
		{1500 * time.Millisecond, view{"building", "", 503, "1", "deployment_building"}, view{"building", "", 503, "1", "deployment_building"}},
		{500 * time.Millisecond, view{"live", "", 200, "", ""}, view{"failed", "entrypoint must be a .js, .mjs, .ts, .tsx or .jsx file", 502, "", "deployment_failed"}},
		{time.Hour, view{"live", "", 200, "", ""}, view{"failed", "entrypoint must be a .js, .mjs, .ts, .tsx or .jsx file", 502, "", "deployment_failed"}},
	}
	for i, st := range steps {
		h.clock.Add(st.advance)
		if got := look(good); got != st.good {
			t.Errorf("step %d, good deployment: got %+v, want %+v", i, got, st.good)
		}
		if got := look(bad); got != st.bad {
			t.Errorf("step %d, bad deployment: got %+v, want %+v", i, got, st.bad)
		}
	}
	r := h.do("GET", "/_deployments/"+bad+"/", "", "")
	if msg := r.json["error"].(map[string]any)["message"]; msg != "This deployment failed to build: entrypoint must be a .js, .mjs, .ts, .tsx or .jsx file" {
		t.Errorf("502 message = %q", msg)
	}
}

func TestCheckEntrypoint(t *testing.T) {
	const notRelative = "entrypoint must be a relative path"
	const notJS = "entrypoint must be a .js, .mjs, .ts, .tsx or .jsx file"
	const dots = `entrypoint must not contain ".."`
	tests := []struct{ entrypoint, want string }{
		{"index.js", ""},
		{"src/index.mjs", ""},
		{"./src/app.ts", ""},
		{"a/b/c/Component.tsx", ""},
		{"web/app.jsx", ""},
		{"with space/é.js", ""},
		{"index.py", notJS},
		{"index.JS", notJS},
		{"index", notJS},
		{".js", notJS},
		{"dir/.ts", notJS},
		{"index.js/", notRelative},
		{"index.js.map", notJS},
		{"/abs/index.js", notRelative},
		{"a//b.js", notRelative},
		{`a\b.js`, notRelative},
		{"C:/index.js", notRelative},
		{"https://example.com/x.js", notRelative},
		{"a/\x00.js", notRelative},
		{"a\nb.js", notRelative},
		{"../index.js", dots},
		{"a/../b.js", dots},
		{"a..b.js", dots},
	}
	for _, tt := range tests {
		got := ""
		if err := CheckEntrypoint(tt.entrypoint); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("CheckEntrypoint(%q) = %q, want %q", tt.entrypoint, got, tt.want)
		}
	}
}

func TestBuildHookForcesOutcome(t *testing.T) {
	h := newHarness(t, Options{Build: func(entrypoint string) error {
		if entrypoint == "fail-me.js" {
			return errors.New("compile error: line 3")
		}
		return nil // even for entrypoints CheckEntrypoint would fail
	}})
	failed := h.createDeployment("fail-me.js")
	live := h.createDeployment("main.py")
	got := map[string][2]any{}
	for _, d := range h.do("GET", "/v2/deployments", testRootKey, "").json["data"].([]any) {
		m := d.(map[string]any)
		got[m["id"].(string)] = [2]any{m["status"], m["error"]}
	}
	want := map[string][2]any{failed: {"failed", "compile error: line 3"}, live: {"live", nil}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
}

func TestSetStatus(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.createDeployment("index.js")
	steps := []struct {
		status  Status
		message string
		serve   int
		list    [2]any
	}{
		{StatusBuilding, "", 503, [2]any{"building", nil}},
		{StatusFailed, "", 502, [2]any{"failed", "build failed"}},
		{StatusFailed, "out of memory", 502, [2]any{"failed", "out of memory"}},
		{StatusLive, "ignored", 200, [2]any{"live", nil}},
	}
	for _, st := range steps {
		if err := h.srv.SetStatus(id, st.status, st.message); err != nil {
			t.Fatalf("SetStatus(%s): %v", st.status, err)
		}
		h.clock.Add(time.Hour) // a forced status does not time out
		if r := h.do("GET", "/_deployments/"+id+"/", "", ""); r.status != st.serve {
			t.Errorf("after SetStatus(%s): serve %d, want %d", st.status, r.status, st.serve)
		}
		m := h.do("GET", "/v2/deployments", testRootKey, "").json["data"].([]any)[0].(map[string]any)
		if got := [2]any{m["status"], m["error"]}; got != st.list {
			t.Errorf("after SetStatus(%s): list shows %v, want %v", st.status, got, st.list)
		}
	}
	if err := h.srv.SetStatus("dep_nope", StatusLive, ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("SetStatus(unknown) = %v, want ErrNotFound", err)
	}
	if err := h.srv.SetStatus(id, "gone", ""); err == nil {
		t.Error("SetStatus(bad status) succeeded")
	}
}

func TestReset(t *testing.T) {
	h := newHarness(t, Options{})
	h.createDeployment("index.js")
	_, secret := h.createKey("ci")
	h.do("POST", "/v2/deployments", testRootKey, `{"entrypoint":"a.js"}`, "Idempotency-Key: k1")
	if err := h.srv.Reset(); err != nil {
		t.Fatal(err)
	}
	if got := ids(h.do("GET", "/v2/deployments", testRootKey, "")); len(got) != 0 {
		t.Errorf("deployments after Reset: %v", got)
	}
	if r := h.do("GET", "/v2/deployments", secret, ""); r.status != 401 {
		t.Errorf("issued key after Reset: %d, want 401", r.status)
	}
	// The Idempotency-Key is forgotten too: the same request creates anew.
	r := h.do("POST", "/v2/deployments", testRootKey, `{"entrypoint":"a.js"}`, "Idempotency-Key: k1")
	if r.status != 200 || r.header.Get("Idempotent-Replayed") != "" {
		t.Errorf("after Reset: %d replayed=%q, want a fresh 200", r.status, r.header.Get("Idempotent-Replayed"))
	}
}

func TestPagination(t *testing.T) {
	h := newHarness(t, Options{})
	var d []string // d[0] oldest
	for i := range 7 {
		ep := "index.js"
		if i == 1 || i == 4 {
			ep = "main.py" // fails
		}
		d = append(d, h.createDeployment(ep))
		h.clock.Add(time.Second)
	}
	tests := []struct {
		query   string
		want    []string
		hasMore bool
	}{
		{"", []string{d[6], d[5], d[4], d[3], d[2], d[1], d[0]}, false},
		{"limit=3", []string{d[6], d[5], d[4]}, true},
		{"limit=3&starting_after=" + d[4], []string{d[3], d[2], d[1]}, true},
		{"limit=3&starting_after=" + d[1], []string{d[0]}, false},
		{"starting_after=" + d[0], nil, false},
		{"limit=2&ending_before=" + d[2], []string{d[4], d[3]}, true},
		{"limit=3&ending_before=" + d[0], []string{d[3], d[2], d[1]}, true},
		{"ending_before=" + d[0], []string{d[6], d[5], d[4], d[3], d[2], d[1]}, false},
		{"ending_before=" + d[6], nil, false},
		{"status=failed", []string{d[4], d[1]}, false},
		{"status=live&limit=2", []string{d[6], d[5]}, true},
		{"status=live&limit=2&starting_after=" + d[5], []string{d[3], d[2]}, true},
		{"status=live&starting_after=" + d[2], []string{d[0]}, false},
		{"status=live&limit=1&ending_before=" + d[0], []string{d[2]}, true},
		{"status=building", nil, false},
		{"limit=1", []string{d[6]}, true},
		{"limit=100", []string{d[6], d[5], d[4], d[3], d[2], d[1], d[0]}, false},
		// A well-formed id that was never issued is still a position.
		{"limit=2&starting_after=dep_vvvvvvvvvvvvv00000000", []string{d[6], d[5]}, true},
		{"limit=2&ending_before=dep_0000000000000aaaaaaaa", []string{d[1], d[0]}, true},
	}
	for _, tt := range tests {
		r := h.do("GET", "/v2/deployments?"+tt.query, testRootKey, "")
		if r.status != 200 {
			t.Errorf("?%s: %d %s", tt.query, r.status, r.body)
			continue
		}
		if diff := cmp.Diff(tt.want, ids(r)); diff != "" {
			t.Errorf("?%s ids (-want +got):\n%s", tt.query, diff)
		}
		if got := r.json["has_more"]; got != tt.hasMore {
			t.Errorf("?%s has_more = %v, want %v", tt.query, got, tt.hasMore)
		}
	}

	// A cursor stays valid after its deployment is deleted.
	h.do("DELETE", "/v2/deployments/"+d[3], testRootKey, "")
	for _, tt := range []struct {
		query   string
		want    []string
		hasMore bool
	}{
		{"limit=2&starting_after=" + d[3], []string{d[2], d[1]}, true},
		{"limit=1&ending_before=" + d[3], []string{d[4]}, true},
		{"ending_before=" + d[3], []string{d[6], d[5], d[4]}, false},
	} {
		r := h.do("GET", "/v2/deployments?"+tt.query, testRootKey, "")
		if diff := cmp.Diff(tt.want, ids(r)); diff != "" || r.json["has_more"] != tt.hasMore {
			t.Errorf("after delete, ?%s: ids (-want +got):\n%s has_more=%v want %v", tt.query, diff, r.json["has_more"], tt.hasMore)
		}
	}
}

func TestDefaultLimit(t *testing.T) {
	h := newHarness(t, Options{})
	for range 25 {
		h.createDeployment("index.js")
	}
	r := h.do("GET", "/v2/deployments", testRootKey, "")
	if n := len(ids(r)); n != 20 || r.json["has_more"] != true {
		t.Errorf("default page: %d items, has_more=%v; want 20, true", n, r.json["has_more"])
	}
	// Walking the pages with starting_after visits each deployment once.
	seen := map[string]bool{}
	cursor := ""
	for page := 0; page < 10; page++ {
		q := "/v2/deployments?limit=7"
		if cursor != "" {
			q += "&starting_after=" + cursor
		}
		r := h.do("GET", q, testRootKey, "")
		for _, id := range ids(r) {
			if seen[id] {
				t.Errorf("page %d repeats %s", page, id)
			}
			seen[id] = true
			cursor = id
		}
		if r.json["has_more"] != true {
			break
		}
	}
	if len(seen) != 25 {
		t.Errorf("paging visited %d deployments, want 25", len(seen))
	}
}

// TestErrors covers every documented error with its exact status, type,
// code, param and headers.
func TestErrors(t *testing.T) {
	h := newHarness(t, Options{})
	_, readKey := h.createKey("read", ScopeDeploymentsRead)
	_, writeKey := h.createKey("write", ScopeDeploymentsWrite)
	_, keysKey := h.createKey("keys", ScopeKeysWrite)
	badChecksum := newSecret()
	if badChecksum[39] == '0' {
		badChecksum = badChecksum[:39] + "1"
	} else {
		badChecksum = badChecksum[:39] + "0"
	}
	if ValidSecretChecksum(badChecksum) {
		t.Fatal("test secret has a valid checksum")
	}

	const (
		inv   = "invalid_request_error"
		auth  = "authentication_error"
		perm  = "permission_error"
		null  = "<nil>"
		realm = `Bearer realm="deploystub"`
	)
	big := strings.Repeat("a", 1025)
	env101 := map[string]string{}
	for i := range 101 {
		env101[fmt.Sprintf("V%d", i)] = "x"
	}
	env101JSON, _ := json.Marshal(map[string]any{"entrypoint": "a.js", "env": env101})
	envBig, _ := json.Marshal(map[string]any{"entrypoint": "a.js", "env": map[string]string{"A": strings.Repeat("x", 64<<10)}})
	envFits, _ := json.Marshal(map[string]any{"entrypoint": "a.js", "env": map[string]string{"A": strings.Repeat("x", 64<<10-1)}})
	tooLarge := `{"entrypoint":"a.js","env":{"A":"` + strings.Repeat("x", 1<<20) + `"}}`

	tests := []struct {
		name   string
		req    req
		status int
		err    [3]string
		header [2]string // a header the response must carry
	}{
		// 400 on the query string
		{"limit 0", req{"GET", "/v2/deployments?limit=0", testRootKey, "", nil}, 400, [3]string{inv, "parameter_invalid", "limit"}, [2]string{}},
		{"limit 101", req{"GET", "/v2/deployments?limit=101", testRootKey, "", nil}, 400, [3]string{inv, "parameter_invalid", "limit"}, [2]string{}},
		{"limit not a number", req{"GET", "/v2/deployments?limit=ten", testRootKey, "", nil}, 400, [3]string{inv, "parameter_invalid", "limit"}, [2]string{}},
		{"limit fraction", req{"GET", "/v2/deployments?limit=1.5", testRootKey, "", nil}, 400, [3]string{inv, "parameter_invalid", "limit"}, [2]string{}},
		{"limit with sign", req{"GET", "/v2/deployments?limit=%2B5", testRootKey, "", nil}, 400, [3]string{inv, "parameter_invalid", "limit"}, [2]string{}},
		{"limit empty", req{"GET", "/v2/deployments?limit=", testRootKey, "", nil}, 400, [3]string{inv, "parameter_invalid", "limit"}, [2]string{}},
		{"limit twice", req{"GET", "/v2/deployments?limit=1&limit=2", testRootKey, "", nil}, 400, [3]string{inv, "parameter_invalid", "limit"}, [2]string{}},
		{"bad status", req{"GET", "/v2/deployments?status=deleted", testRootKey, "", nil}, 400, [3]string{inv, "parameter_invalid", "status"}, [2]string{}},
		{"bad starting_after", req{"GET", "/v2/deployments?starting_after=nope", testRootKey, "", nil}, 400, [3]string{inv, "parameter_invalid", "starting_after"}, [2]string{}},
		{"bad ending_before", req{"GET", "/v2/deployments?ending_before=dep_ZZZZZZZZZZZZZZZZZZZZZ", testRootKey, "", nil}, 400, [3]string{inv, "parameter_invalid", "ending_before"}, [2]string{}},
		{"both cursors", req{"GET", "/v2/deployments?starting_after=dep_0000000000000aaaaaaaa&ending_before=dep_0000000000000aaaaaaaa", testRootKey, "", nil}, 400, [3]string{inv, "parameter_invalid", "ending_before"}, [2]string{}},
		{"unknown query parameter", req{"GET", "/v2/deployments?page=2", testRootKey, "", nil}, 400, [3]string{inv, "parameter_unknown", "page"}, [2]string{}},
		{"malformed query", req{"GET", "/v2/deployments?limit=%zz", testRootKey, "", nil}, 400, [3]string{inv, "parameter_invalid", null}, [2]string{}},
		{"query on create", req{"POST", "/v2/deployments?dry_run=1", testRootKey, `{"entrypoint":"a.js"}`, nil}, 400, [3]string{inv, "parameter_unknown", "dry_run"}, [2]string{}},
		{"query on delete", req{"DELETE", "/v2/deployments/dep_0000000000000aaaaaaaa?force=1", testRootKey, "", nil}, 400, [3]string{inv, "parameter_unknown", "force"}, [2]string{}},
		{"query on keys", req{"POST", "/v2/keys?x=1", testRootKey, `{"name":"n"}`, nil}, 400, [3]string{inv, "parameter_unknown", "x"}, [2]string{}},
		{"query on openapi", req{"GET", "/v2/openapi.yaml?format=json", testRootKey, "", nil}, 400, [3]string{inv, "parameter_unknown", "format"}, [2]string{}},

		// 400 on the body of POST /v2/deployments
		{"bad JSON", req{"POST", "/v2/deployments", testRootKey, `{"entrypoint":`, nil}, 400, [3]string{inv, "invalid_json", null}, [2]string{}},
		{"JSON array", req{"POST", "/v2/deployments", testRootKey, `["a.js"]`, nil}, 400, [3]string{inv, "invalid_json", null}, [2]string{}},
		{"JSON string", req{"POST", "/v2/deployments", testRootKey, `"a.js"`, nil}, 400, [3]string{inv, "invalid_json", null}, [2]string{}},
		{"JSON null", req{"POST", "/v2/deployments", testRootKey, `null`, nil}, 400, [3]string{inv, "invalid_json", null}, [2]string{}},
		{"trailing data", req{"POST", "/v2/deployments", testRootKey, `{"entrypoint":"a.js"} {}`, nil}, 400, [3]string{inv, "invalid_json", null}, [2]string{}},
		{"duplicate member", req{"POST", "/v2/deployments", testRootKey, `{"entrypoint":"a.js","entrypoint":"b.js"}`, nil}, 400, [3]string{inv, "invalid_json", null}, [2]string{}},
		{"not UTF-8", req{"POST", "/v2/deployments", testRootKey, "{\"entrypoint\":\"\xff.js\"}", nil}, 400, [3]string{inv, "invalid_json", null}, [2]string{}},
		{"BOM", req{"POST", "/v2/deployments", testRootKey, "\ufeff{\"entrypoint\":\"a.js\"}", nil}, 400, [3]string{inv, "invalid_json", null}, [2]string{}},
		{"empty object", req{"POST", "/v2/deployments", testRootKey, `{}`, nil}, 400, [3]string{inv, "parameter_missing", "entrypoint"}, [2]string{}},
		{"empty body", req{"POST", "/v2/deployments", testRootKey, "", nil}, 400, [3]string{inv, "parameter_missing", "entrypoint"}, [2]string{}},
		{"only env", req{"POST", "/v2/deployments", testRootKey, `{"env":{}}`, nil}, 400, [3]string{inv, "parameter_missing", "entrypoint"}, [2]string{}},
		{"entrypoint number", req{"POST", "/v2/deployments", testRootKey, `{"entrypoint":5}`, nil}, 400, [3]string{inv, "parameter_invalid", "entrypoint"}, [2]string{}},
		{"entrypoint null", req{"POST", "/v2/deployments", testRootKey, `{"entrypoint":null}`, nil}, 400, [3]string{inv, "parameter_invalid", "entrypoint"}, [2]string{}},
		{"entrypoint object", req{"POST", "/v2/deployments", testRootKey, `{"entrypoint":{"path":"a.js"}}`, nil}, 400, [3]string{inv, "parameter_invalid", "entrypoint"}, [2]string{}},
		{"entrypoint empty", req{"POST", "/v2/deployments", testRootKey, `{"entrypoint":""}`, nil}, 400, [3]string{inv, "parameter_invalid", "entrypoint"}, [2]string{}},
		{"entrypoint 1025 characters", req{"POST", "/v2/deployments", testRootKey, `{"entrypoint":"` + big + `"}`, nil}, 400, [3]string{inv, "parameter_invalid", "entrypoint"}, [2]string{}},
		{"unknown member", req{"POST", "/v2/deployments", testRootKey, `{"entrypoint":"a.js","region":"eu"}`, nil}, 400, [3]string{inv, "parameter_unknown", "region"}, [2]string{}},
		{"env string", req{"POST", "/v2/deployments", testRootKey, `{"entrypoint":"a.js","env":"A=1"}`, nil}, 400, [3]string{inv, "parameter_invalid", "env"}, [2]string{}},
		{"env array", req{"POST", "/v2/deployments", testRootKey, `{"entrypoint":"a.js","env":[]}`, nil}, 400, [3]string{inv, "parameter_invalid", "env"}, [2]string{}},
		{"env number value", req{"POST", "/v2/deployments", testRootKey, `{"entrypoint":"a.js","env":{"A":1}}`, nil}, 400, [3]string{inv, "parameter_invalid", "env"}, [2]string{}},
		{"env null value", req{"POST", "/v2/deployments", testRootKey, `{"entrypoint":"a.js","env":{"A":null}}`, nil}, 400, [3]string{inv, "parameter_invalid", "env"}, [2]string{}},
		{"env bad name", req{"POST", "/v2/deployments", testRootKey, `{"entrypoint":"a.js","env":{"1A":"x"}}`, nil}, 400, [3]string{inv, "parameter_invalid", "env"}, [2]string{}},
		{"env name with dash", req{"POST", "/v2/deployments", testRootKey, `{"entrypoint":"a.js","env":{"A-B":"x"}}`, nil}, 400, [3]string{inv, "parameter_invalid", "env"}, [2]string{}},
		{"env unicode name", req{"POST", "/v2/deployments", testRootKey, `{"entrypoint":"a.js","env":{"ÄB":"x"}}`, nil}, 400, [3]string{inv, "parameter_invalid", "env"}, [2]string{}},
		{"env duplicate name", req{"POST", "/v2/deployments", testRootKey, `{"entrypoint":"a.js","env":{"A":"x","A":"y"}}`, nil}, 400, [3]string{inv, "parameter_invalid", "env"}, [2]string{}},
		{"env 101 names", req{"POST", "/v2/deployments", testRootKey, string(env101JSON), nil}, 400, [3]string{inv, "parameter_invalid", "env"}, [2]string{}},
		{"env over 64 KiB", req{"POST", "/v2/deployments", testRootKey, string(envBig), nil}, 400, [3]string{inv, "parameter_invalid", "env"}, [2]string{}},
		{"Idempotency-Key too long", req{"POST", "/v2/deployments", testRootKey, `{"entrypoint":"a.js"}`, []string{"Idempotency-Key: " + strings.Repeat("k", 256)}}, 400, [3]string{inv, "parameter_invalid", "Idempotency-Key"}, [2]string{}},
		{"Idempotency-Key twice", req{"POST", "/v2/deployments", testRootKey, `{"entrypoint":"a.js"}`, []string{"Idempotency-Key: a", "Idempotency-Key: b"}}, 400, [3]string{inv, "parameter_invalid", "Idempotency-Key"}, [2]string{}},
		{"Idempotency-Key not ASCII", req{"POST", "/v2/deployments", testRootKey, `{"entrypoint":"a.js"}`, []string{"Idempotency-Key: clé"}}, 400, [3]string{inv, "parameter_invalid", "Idempotency-Key"}, [2]string{}},

		// 400 on the body of POST /v2/keys
		{"key without name", req{"POST", "/v2/keys", testRootKey, `{}`, nil}, 400, [3]string{inv, "parameter_missing", "name"}, [2]string{}},
		{"key empty name", req{"POST", "/v2/keys", testRootKey, `{"name":""}`, nil}, 400, [3]string{inv, "parameter_invalid", "name"}, [2]string{}},
		{"key name 129 characters", req{"POST", "/v2/keys", testRootKey, `{"name":"` + strings.Repeat("é", 129) + `"}`, nil}, 400, [3]string{inv, "parameter_invalid", "name"}, [2]string{}},
		{"key name number", req{"POST", "/v2/keys", testRootKey, `{"name":7}`, nil}, 400, [3]string{inv, "parameter_invalid", "name"}, [2]string{}},
		{"scopes string", req{"POST", "/v2/keys", testRootKey, `{"name":"n","scopes":"keys:write"}`, nil}, 400, [3]string{inv, "parameter_invalid", "scopes"}, [2]string{}},
		{"scopes of numbers", req{"POST", "/v2/keys", testRootKey, `{"name":"n","scopes":[1]}`, nil}, 400, [3]string{inv, "parameter_invalid", "scopes"}, [2]string{}},
		{"unknown scope", req{"POST", "/v2/keys", testRootKey, `{"name":"n","scopes":["admin"]}`, nil}, 400, [3]string{inv, "parameter_invalid", "scopes"}, [2]string{}},
		{"no scopes", req{"POST", "/v2/keys", testRootKey, `{"name":"n","scopes":[]}`, nil}, 400, [3]string{inv, "parameter_invalid", "scopes"}, [2]string{}},
		{"repeated scope", req{"POST", "/v2/keys", testRootKey, `{"name":"n","scopes":["keys:write","keys:write"]}`, nil}, 400, [3]string{inv, "parameter_invalid", "scopes"}, [2]string{}},
		{"key unknown member", req{"POST", "/v2/keys", testRootKey, `{"name":"n","expires":1}`, nil}, 400, [3]string{inv, "parameter_unknown", "expires"}, [2]string{}},

		// 401
		{"no key on list", req{"GET", "/v2/deployments", "", "", nil}, 401, [3]string{auth, "missing_api_key", null}, [2]string{"WWW-Authenticate", realm}},
		{"no key on create", req{"POST", "/v2/deployments", "", `{"entrypoint":"a.js"}`, nil}, 401, [3]string{auth, "missing_api_key", null}, [2]string{"WWW-Authenticate", realm}},
		{"no key on delete", req{"DELETE", "/v2/deployments/dep_0000000000000aaaaaaaa", "", "", nil}, 401, [3]string{auth, "missing_api_key", null}, [2]string{"WWW-Authenticate", realm}},
		{"no key on keys", req{"POST", "/v2/keys", "", `{"name":"n"}`, nil}, 401, [3]string{auth, "missing_api_key", null}, [2]string{"WWW-Authenticate", realm}},
		{"empty Authorization", req{"GET", "/v2/deployments", "", "", []string{"Authorization: "}}, 401, [3]string{auth, "missing_api_key", null}, [2]string{"WWW-Authenticate", realm}},
		{"Basic scheme", req{"GET", "/v2/deployments", "", "", []string{"Authorization: Basic cm9vdDpyb290"}}, 401, [3]string{auth, "invalid_api_key", null}, [2]string{"WWW-Authenticate", realm + `, error="invalid_token"`}},
		{"key without scheme", req{"GET", "/v2/deployments", "", "", []string{"Authorization: " + testRootKey}}, 401, [3]string{auth, "invalid_api_key", null}, [2]string{"WWW-Authenticate", realm + `, error="invalid_token"`}},
		{"Bearer without key", req{"GET", "/v2/deployments", "", "", []string{"Authorization: Bearer"}}, 401, [3]string{auth, "invalid_api_key", null}, [2]string{"WWW-Authenticate", realm + `, error="invalid_token"`}},
		{"wrong key", req{"GET", "/v2/deployments", "not-the-root-key-0123456789", "", nil}, 401, [3]string{auth, "invalid_api_key", null}, [2]string{"WWW-Authenticate", realm + `, error="invalid_token"`}},
		{"root key with a suffix", req{"GET", "/v2/deployments", "", "", []string{"Authorization: Bearer " + testRootKey + " x"}}, 401, [3]string{auth, "invalid_api_key", null}, [2]string{"WWW-Authenticate", realm + `, error="invalid_token"`}},
		{"bad checksum", req{"GET", "/v2/deployments", badChecksum, "", nil}, 401, [3]string{auth, "invalid_api_key", null}, [2]string{"WWW-Authenticate", realm + `, error="invalid_token"`}},
		{"unissued secret", req{"GET", "/v2/deployments", newSecret(), "", nil}, 401, [3]string{auth, "invalid_api_key", null}, [2]string{"WWW-Authenticate", realm + `, error="invalid_token"`}},
		{"two Authorization headers", req{"GET", "/v2/deployments", testRootKey, "", []string{"Authorization: Bearer " + testRootKey}}, 401, [3]string{auth, "invalid_api_key", null}, [2]string{"WWW-Authenticate", realm + `, error="invalid_token"`}},

		// 403
		{"read key creates", req{"POST", "/v2/deployments", readKey, `{"entrypoint":"a.js"}`, nil}, 403, [3]string{perm, "insufficient_scope", null}, [2]string{"WWW-Authenticate", realm + `, error="insufficient_scope", scope="deployments:write"`}},
		{"read key deletes", req{"DELETE", "/v2/deployments/dep_0000000000000aaaaaaaa", readKey, "", nil}, 403, [3]string{perm, "insufficient_scope", null}, [2]string{}},
		{"write key lists", req{"GET", "/v2/deployments", writeKey, "", nil}, 403, [3]string{perm, "insufficient_scope", null}, [2]string{"WWW-Authenticate", realm + `, error="insufficient_scope", scope="deployments:read"`}},
		{"write key issues keys", req{"POST", "/v2/keys", writeKey, `{"name":"n"}`, nil}, 403, [3]string{perm, "insufficient_scope", null}, [2]string{}},
		{"keys key lists", req{"GET", "/v2/deployments", keysKey, "", nil}, 403, [3]string{perm, "insufficient_scope", null}, [2]string{}},
		{"keys key asks for more", req{"POST", "/v2/keys", keysKey, `{"name":"n","scopes":["keys:write","deployments:read"]}`, nil}, 403, [3]string{perm, "insufficient_scope", "scopes"}, [2]string{"WWW-Authenticate", realm + `, error="insufficient_scope", scope="deployments:read"`}},

		// 404
		{"unknown deployment", req{"DELETE", "/v2/deployments/dep_0000000000000aaaaaaaa", testRootKey, "", nil}, 404, [3]string{inv, "resource_missing", "id"}, [2]string{}},
		{"malformed deployment id", req{"DELETE", "/v2/deployments/nope", testRootKey, "", nil}, 404, [3]string{inv, "resource_missing", "id"}, [2]string{}},
		{"unicode deployment id", req{"DELETE", "/v2/deployments/d%C3%A9p_%E2%9C%93", testRootKey, "", nil}, 404, [3]string{inv, "resource_missing", "id"}, [2]string{}},
		{"escaped slash in id", req{"DELETE", "/v2/deployments/a%2Fb", testRootKey, "", nil}, 404, [3]string{inv, "resource_missing", "id"}, [2]string{}},
		{"unknown route", req{"GET", "/v2/nothing", testRootKey, "", nil}, 404, [3]string{inv, "resource_missing", null}, [2]string{}},
		{"unknown route without key", req{"GET", "/v3/deployments", "", "", nil}, 404, [3]string{inv, "resource_missing", null}, [2]string{}},
		{"root path", req{"GET", "/", "", "", nil}, 404, [3]string{inv, "resource_missing", null}, [2]string{}},
		{"trailing slash", req{"GET", "/v2/deployments/", testRootKey, "", nil}, 404, [3]string{inv, "resource_missing", null}, [2]string{}},
		{"double slash", req{"GET", "/v2//deployments", testRootKey, "", nil}, 404, [3]string{inv, "resource_missing", null}, [2]string{}},
		{"dot segment", req{"GET", "/v2/keys/../deployments", testRootKey, "", nil}, 404, [3]string{inv, "resource_missing", null}, [2]string{}},
		{"unknown served deployment", req{"GET", "/_deployments/dep_0000000000000aaaaaaaa/", "", "", nil}, 404, [3]string{inv, "resource_missing", null}, [2]string{}},
		{"unicode served deployment", req{"GET", "/_deployments/%E2%9C%93/x", "", "", nil}, 404, [3]string{inv, "resource_missing", null}, [2]string{}},
		{"deployments root", req{"GET", "/_deployments/", "", "", nil}, 404, [3]string{inv, "resource_missing", null}, [2]string{}},

		// 405
		{"PUT list", req{"PUT", "/v2/deployments", testRootKey, "", nil}, 405, [3]string{inv, "method_not_allowed", null}, [2]string{"Allow", "GET, HEAD, POST"}},
		{"GET one deployment", req{"GET", "/v2/deployments/dep_0000000000000aaaaaaaa", testRootKey, "", nil}, 405, [3]string{inv, "method_not_allowed", null}, [2]string{"Allow", "DELETE"}},
		{"GET keys", req{"GET", "/v2/keys", testRootKey, "", nil}, 405, [3]string{inv, "method_not_allowed", null}, [2]string{"Allow", "POST"}},
		{"POST openapi", req{"POST", "/v2/openapi.yaml", testRootKey, "", nil}, 405, [3]string{inv, "method_not_allowed", null}, [2]string{"Allow", "GET, HEAD"}},
		{"OPTIONS list without key", req{"OPTIONS", "/v2/deployments", "", "", nil}, 405, [3]string{inv, "method_not_allowed", null}, [2]string{"Allow", "GET, HEAD, POST"}},

		// 413 and 415
		{"body over 1 MiB", req{"POST", "/v2/deployments", testRootKey, tooLarge, nil}, 413, [3]string{inv, "request_too_large", null}, [2]string{}},
		{"key body over 1 MiB", req{"POST", "/v2/keys", testRootKey, `{"name":"` + strings.Repeat("n", 1<<20) + `"}`, nil}, 413, [3]string{inv, "request_too_large", null}, [2]string{}},
		{"text/plain body", req{"POST", "/v2/deployments", testRootKey, `{"entrypoint":"a.js"}`, []string{"Content-Type: <none>", "Content-Type: text/plain"}}, 415, [3]string{inv, "unsupported_media_type", null}, [2]string{}},
		{"body without Content-Type", req{"POST", "/v2/keys", testRootKey, `{"name":"n"}`, []string{"Content-Type: <none>"}}, 415, [3]string{inv, "unsupported_media_type", null}, [2]string{}},
		{"form body", req{"POST", "/v2/keys", testRootKey, `name=n`, []string{"Content-Type: <none>", "Content-Type: application/x-www-form-urlencoded"}}, 415, [3]string{inv, "unsupported_media_type", null}, [2]string{}},
		{"JSON in another charset", req{"POST", "/v2/deployments", testRootKey, `{"entrypoint":"a.js"}`, []string{"Content-Type: <none>", "Content-Type: application/json; charset=latin1"}}, 415, [3]string{inv, "unsupported_media_type", null}, [2]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := h.srv.snapshot()
			r := h.send(tt.req)
			if r.status != tt.status || r.errorOf() != tt.err {
				t.Errorf("got %d %v, want %d %v\nbody: %.300s", r.status, r.errorOf(), tt.status, tt.err, r.body)
			}
			if tt.header[0] != "" && r.header.Get(tt.header[0]) != tt.header[1] {
				t.Errorf("%s: %q, want %q", tt.header[0], r.header.Get(tt.header[0]), tt.header[1])
			}
			if ct := r.header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q", ct)
			}
			if after := h.srv.snapshot(); after != before {
				t.Errorf("a failed request changed the state:\nbefore %s\nafter  %s", before, after)
			}
		})
	}

	// The edges of the limits are accepted.
	for name, body := range map[string]string{
		"entrypoint of 1024 characters": `{"entrypoint":"` + strings.Repeat("é", 1021) + `.js"}`,
		"env of 100 names":              strings.Replace(string(env101JSON), `"V0":"x",`, "", 1),
		"env just under 64 KiB":         string(envFits),
		"env null":                      `{"entrypoint":"a.js","env":null}`,
		"lower-case bearer":             `{"entrypoint":"a.js"}`,
		"JSON with a charset":           `{"entrypoint":"a.js"}`,
	} {
		hdr := []string{}
		key := testRootKey
		switch name {
		case "lower-case bearer":
			key, hdr = "", []string{"Authorization: bearer " + testRootKey}
		case "JSON with a charset":
			hdr = []string{"Content-Type: <none>", "Content-Type: application/json; charset=UTF-8"}
		}
		if r := h.send(req{"POST", "/v2/deployments", key, body, hdr}); r.status != 200 {
			t.Errorf("%s: %d %s", name, r.status, r.body)
		}
	}
	for name, body := range map[string]string{
		"key name of 128 characters": `{"name":"` + strings.Repeat("é", 128) + `"}`,
		"scopes null":                `{"name":"n","scopes":null}`,
	} {
		if r := h.do("POST", "/v2/keys", testRootKey, body); r.status != 200 {
			t.Errorf("%s: %d %s", name, r.status, r.body)
		}
	}
}

// TestChunkedTooLarge sends an over-size body without Content-Length.
func TestChunkedTooLarge(t *testing.T) {
	h := newHarness(t, Options{})
	pr, pw := io.Pipe()
	go func() {
		pw.Write([]byte(`{"entrypoint":"a.js","env":{"A":"`))
		chunk := []byte(strings.Repeat("x", 64<<10))
		for range 17 {
			if _, err := pw.Write(chunk); err != nil {
				break
			}
		}
		pw.Write([]byte(`"}}`))
		pw.Close()
	}()
	r, _ := http.NewRequest("POST", h.ts.URL+"/v2/deployments", pr)
	r.Header.Set("Authorization", "Bearer "+testRootKey)
	r.Header.Set("Content-Type", "application/json")
	resp := h.roundTrip(r)
	pr.Close()
	if resp.status != 413 || resp.errorOf() != [3]string{"invalid_request_error", "request_too_large", "<nil>"} {
		t.Errorf("got %d %s, want 413 request_too_large", resp.status, resp.body)
	}
}

func TestKeysAndScopes(t *testing.T) {
	h := newHarness(t, Options{})
	// Default scopes are the caller's: a root-made key can do everything.
	id, full := h.createKey("ci")
	if !strings.HasPrefix(id, "key_") || !ValidSecretChecksum(full) {
		t.Errorf("key %q secret %q: want key_ id and a valid stub secret", id, full)
	}
	if r := h.do("POST", "/v2/deployments", full, `{"entrypoint":"a.js"}`); r.status != 200 {
		t.Errorf("full key creates: %d", r.status)
	}
	// A keys:write key issues keys with only its own scope by default...
	_, keysOnly := h.createKey("issuer", ScopeKeysWrite)
	r := h.do("POST", "/v2/keys", keysOnly, `{"name":"child"}`)
	if r.status != 200 {
		t.Fatalf("keys key issues: %d %s", r.status, r.body)
	}
	child := r.str("secret")
	if got := h.do("GET", "/v2/deployments", child, "").status; got != 403 {
		t.Errorf("child of a keys-only key lists: %d, want 403", got)
	}
	if got := h.do("POST", "/v2/keys", child, `{"name":"grandchild"}`).status; got != 200 {
		t.Errorf("child issues: %d, want 200", got)
	}
	// ...and each scope allows exactly its endpoints.
	_, read := h.createKey("read", ScopeDeploymentsRead)
	_, write := h.createKey("write", ScopeDeploymentsWrite)
	dep := h.createDeployment("a.js")
	tests := []struct {
		key, method, path, body string
		want                    int
	}{
		{read, "GET", "/v2/deployments", "", 200},
		{read, "GET", "/v2/openapi.yaml", "", 200},
		{read, "POST", "/v2/deployments", `{"entrypoint":"a.js"}`, 403},
		{read, "POST", "/v2/keys", `{"name":"x"}`, 403},
		{write, "POST", "/v2/deployments", `{"entrypoint":"a.js"}`, 200},
		{write, "GET", "/v2/deployments", "", 403},
		{write, "GET", "/v2/openapi.yaml", "", 200},
		{write, "DELETE", "/v2/deployments/" + dep, "", 200},
		{keysOnly, "GET", "/v2/openapi.yaml", "", 200},
		{keysOnly, "DELETE", "/v2/deployments/" + dep, "", 403},
	}
	for _, tt := range tests {
		if r := h.do(tt.method, tt.path, tt.key, tt.body); r.status != tt.want {
			t.Errorf("%s %s with %s: %d, want %d", tt.method, tt.path, tt.key[:8], r.status, tt.want)
		}
	}
	// Keys are distinct and their response is exactly {id, secret}.
	r1 := h.do("POST", "/v2/keys", testRootKey, `{"name":"a","scopes":["deployments:read"]}`)
	r2 := h.do("POST", "/v2/keys", testRootKey, `{"name":"a","scopes":["deployments:read"]}`)
	if r1.str("id") == r2.str("id") || r1.str("secret") == r2.str("secret") || len(r1.json) != 2 {
		t.Errorf("two keys: %s and %s", r1.body, r2.body)
	}
}

func TestSecretFormat(t *testing.T) {
	seen := map[string]bool{}
	for range 200 {
		s := newSecret()
		if len(s) != 40 || !strings.HasPrefix(s, "dsk_") || !SecretPattern.MatchString(s) || !ValidSecretChecksum(s) || seen[s] {
			t.Fatalf("bad or repeated secret %q", s)
		}
		seen[s] = true
		// Any one changed character breaks the checksum.
		for _, i := range []int{4, 20, 33, 39} {
			b := []byte(s)
			if b[i] == 'a' {
				b[i] = 'b'
			} else {
				b[i] = 'a'
			}
			if ValidSecretChecksum(string(b)) {
				t.Errorf("%q with position %d changed passes the checksum", s, i)
			}
		}
	}
	for _, s := range []string{"", "dsk_", "ghp_" + newSecret()[4:], newSecret() + "x", strings.ToUpper(newSecret())} {
		if ValidSecretChecksum(s) {
			t.Errorf("ValidSecretChecksum(%q) = true", s)
		}
	}
}

func TestNewServerOptions(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"short root key", Options{RootKey: "short"}, "deploystub: invalid option: the root key must have at least 20 characters"},
		{"root key with space", Options{RootKey: "a root key with spaces in it"}, "deploystub: invalid option: the root key must be printable ASCII without spaces"},
		{"root key with newline", Options{RootKey: "rootkey0123456789abcdef\n"}, "deploystub: invalid option: the root key must be printable ASCII without spaces"},
		{"negative delay", Options{BuildDelay: -time.Second}, "deploystub: invalid option: negative build delay -1s"},
		{"negative rate", Options{RateLimit: -1}, "deploystub: invalid option: negative rate limit -1"},
		{"base URL 0.0.0.0", Options{BaseURL: "http://0.0.0.0:8787"}, `deploystub: invalid option: base URL "http://0.0.0.0:8787" names an unspecified address no client can reach`},
		{"base URL [::]", Options{BaseURL: "http://[::]:8787"}, `deploystub: invalid option: base URL "http://[::]:8787" names an unspecified address no client can reach`},
		{"base URL without scheme", Options{BaseURL: "localhost:8787"}, `deploystub: invalid option: base URL "localhost:8787" is not an http or https URL without query, fragment or user`},
		{"base URL with query", Options{BaseURL: "http://x.test/?a=1"}, `deploystub: invalid option: base URL "http://x.test/?a=1" is not an http or https URL without query, fragment or user`},
		{"state file in a missing directory", Options{StateFile: "/nonexistent-dir-deploystub/state.json"}, "open /nonexistent-dir-deploystub/"},
	}
	for _, tt := range tests {
		_, err := NewServer(tt.opts)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: NewServer error %v, want %q", tt.name, err, tt.want)
		}
		if option := tt.opts.StateFile == ""; errors.Is(err, ErrInvalidOption) != option {
			t.Errorf("%s: errors.Is(%v, ErrInvalidOption) = %v, want %v", tt.name, err, !option, option)
		}
	}
}

func TestZeroOptions(t *testing.T) {
	srv, err := NewServer(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !ValidSecretChecksum(srv.RootKey()) {
		t.Errorf("random root key %q is not a stub secret", srv.RootKey())
	}
	other, _ := NewServer(Options{})
	if other.RootKey() == srv.RootKey() {
		t.Error("two servers made the same root key")
	}
	given, _ := NewServer(Options{RootKey: testRootKey})
	if given.RootKey() != testRootKey {
		t.Errorf("RootKey() = %q, want the given key", given.RootKey())
	}
	// The zero Options serve with the real clock, no delay.
	h := &harness{t: t, srv: srv, ts: newCheckedServer(t, srv)}
	r := h.do("POST", "/v2/deployments", srv.RootKey(), `{"entrypoint":"a.js"}`)
	if r.status != 200 {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	if got := h.do("GET", "/_deployments/"+r.str("id")+"/", "", "").status; got != 200 {
		t.Errorf("serve with zero build delay: %d, want 200", got)
	}
	created, err := time.Parse(time.RFC3339, r.str("created_at"))
	if err != nil || time.Since(created) > time.Hour || time.Since(created) < -time.Hour {
		t.Errorf("created_at %q is not about now", r.str("created_at"))
	}
}

func TestBaseURL(t *testing.T) {
	// From the listener, whatever the Host header says.
	h := newHarness(t, Options{})
	for _, host := range []string{"", "0.0.0.0:8787", "evil.example", "[::]:1"} {
		r, _ := http.NewRequest("POST", h.ts.URL+"/v2/deployments", strings.NewReader(`{"entrypoint":"a.js"}`))
		r.Header.Set("Authorization", "Bearer "+testRootKey)
		r.Header.Set("Content-Type", "application/json")
		if host != "" {
			r.Host = host
		}
		resp := h.roundTrip(r)
		if want := h.ts.URL + "/_deployments/" + resp.str("id") + "/"; resp.str("url") != want {
			t.Errorf("Host %q: url %q, want %q", host, resp.str("url"), want)
		}
	}
	// From the option, with a path prefix and a trailing slash trimmed.
	h = newHarness(t, Options{BaseURL: "https://stub.example.test/edge/"})
	id := h.createDeployment("a.js")
	r := h.do("GET", "/v2/deployments", testRootKey, "")
	if got := r.json["data"].([]any)[0].(map[string]any)["url"]; got != "https://stub.example.test/edge/_deployments/"+id+"/" {
		t.Errorf("url with BaseURL: %v", got)
	}
}

func TestServeTree(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.createDeployment("api/handler.ts")
	tests := []struct{ method, path, wantPath string }{
		{"GET", "/_deployments/" + id + "/", "/"},
		{"GET", "/_deployments/" + id, "/"},
		{"GET", "/_deployments/" + id + "/a/b?q=1", "/a/b"},
		{"POST", "/_deployments/" + id + "/hook", "/hook"},
		{"PUT", "/_deployments/" + id + "/", "/"},
		{"PATCH", "/_deployments/" + id + "/", "/"},
		{"DELETE", "/_deployments/" + id + "/x", "/x"},
		{"OPTIONS", "/_deployments/" + id + "/", "/"},
	}
	for _, tt := range tests {
		r := h.do(tt.method, tt.path, "", "")
		want := map[string]any{"deployment": id, "entrypoint": "api/handler.ts", "path": tt.wantPath}
		if diff := cmp.Diff(want, r.json); r.status != 200 || diff != "" {
			t.Errorf("%s %s: %d (-want +got):\n%s", tt.method, tt.path, r.status, diff)
		}
	}
	if r := h.do("HEAD", "/_deployments/"+id+"/", "", ""); r.status != 200 || len(r.body) != 0 {
		t.Errorf("HEAD: %d with %d bytes", r.status, len(r.body))
	}
	// Errors of the served tree, for each method too.
	methods := []string{"GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"}
	paths := []string{"/_deployments/" + id + "/", "/_deployments/" + id, "/_deployments/" + id + "/deep/path"}
	_ = h.srv.SetStatus(id, StatusFailed, "boom")
	for _, m := range methods {
		for _, p := range paths {
			if r := h.do(m, p, "", ""); r.status != 502 {
				t.Errorf("%s %s of a failed deployment: %d, want 502", m, p, r.status)
			}
		}
	}
	_ = h.srv.SetStatus(id, StatusBuilding, "")
	for _, m := range methods {
		for _, p := range paths {
			if r := h.do(m, p, "", ""); r.status != 503 || r.header.Get("Retry-After") != "1" {
				t.Errorf("%s %s of a building deployment: %d Retry-After %q, want 503 1", m, p, r.status, r.header.Get("Retry-After"))
			}
		}
	}
	h.do("DELETE", "/v2/deployments/"+id, testRootKey, "")
	for _, m := range methods {
		for _, p := range paths {
			if r := h.do(m, p, "", ""); r.status != 404 {
				t.Errorf("%s %s of a deleted deployment: %d, want 404", m, p, r.status)
			}
		}
	}
}

func TestOpenAPIEndpoint(t *testing.T) {
	h := newHarness(t, Options{})
	r := h.do("GET", "/v2/openapi.yaml", testRootKey, "")
	if r.status != 200 || r.header.Get("Content-Type") != "application/yaml" || string(r.body) != string(OpenAPI) {
		t.Errorf("GET /v2/openapi.yaml: %d %q, %d bytes; want 200 application/yaml, the embedded document", r.status, r.header.Get("Content-Type"), len(r.body))
	}
	if r := h.do("HEAD", "/v2/openapi.yaml", testRootKey, ""); r.status != 200 {
		t.Errorf("HEAD: %d", r.status)
	}
	// Public: a client generator fetches it before it has a key, and a
	// wrong key does not stand in the way.
	for _, key := range []string{"", "not-a-key-at-all-0123456789"} {
		if r := h.do("GET", "/v2/openapi.yaml", key, ""); r.status != 200 || string(r.body) != string(OpenAPI) {
			t.Errorf("GET /v2/openapi.yaml with key %q: %d", key, r.status)
		}
	}
}

// TestRootKeyShapedLikeSecret: a root key of the shape the stub gives its
// issued secrets ("dsk_" and 36 characters) is used exactly as given, bad
// checksum or not, as Options.RootKey promises.
func TestRootKeyShapedLikeSecret(t *testing.T) {
	for _, root := range []string{
		"dsk_" + strings.Repeat("A", 36), // a made-up one: its checksum is wrong
		newSecret(),                      // one the stub printed on an earlier run
	} {
		if !SecretPattern.MatchString(root) {
			t.Fatalf("%q should look like an issued secret", root)
		}
		h := newHarness(t, Options{RootKey: root})
		if r := h.do("GET", "/v2/deployments", root, ""); r.status != 200 {
			t.Errorf("root key %q (valid checksum: %v): %d %s", root, ValidSecretChecksum(root), r.status, r.body)
		}
		// Another secret-shaped token is still refused.
		if r := h.do("GET", "/v2/deployments", "dsk_"+strings.Repeat("B", 36), ""); r.status != 401 {
			t.Errorf("an unknown secret-shaped key: %d, want 401", r.status)
		}
	}
}

func TestRateLimit(t *testing.T) {
	h := newHarness(t, Options{RateLimit: 2})
	_, other := h.createKey("other") // uses one of the root's two tokens
	h.clock.Add(time.Second)
	dep := h.createDeployment("a.js") // and one more
	h.clock.Add(time.Second)          // full again: 2 tokens

	routes := []req{
		{"GET", "/v2/deployments", testRootKey, "", nil},
		{"POST", "/v2/deployments", testRootKey, `{"entrypoint":"a.js"}`, nil},
		{"DELETE", "/v2/deployments/" + dep, testRootKey, "", nil},
		{"POST", "/v2/keys", testRootKey, `{"name":"n"}`, nil},
	}
	for _, rt := range routes {
		// Two pass, the third is limited until a token comes back.
		h.send(req{"GET", "/v2/deployments", testRootKey, "", nil})
		h.send(req{"GET", "/v2/deployments", testRootKey, "", nil})
		r := h.send(rt)
		if r.status != 429 || r.errorOf() != [3]string{"rate_limit_error", "rate_limited", "<nil>"} || r.header.Get("Retry-After") != "1" {
			t.Errorf("%s %s over the limit: %d %v Retry-After %q", rt.method, rt.path, r.status, r.errorOf(), r.header.Get("Retry-After"))
		}
		// Another key has its own bucket.
		if r := h.do("GET", "/v2/deployments", other, ""); r.status != 200 {
			t.Errorf("other key: %d", r.status)
		}
		h.clock.Add(500 * time.Millisecond) // one token back
		if r := h.send(rt); r.status != 200 {
			t.Errorf("%s %s after waiting: %d %s", rt.method, rt.path, r.status, r.body)
		}
		h.clock.Add(time.Second)
	}
	// Without the option there is no limit.
	h = newHarness(t, Options{})
	for i := range 50 {
		if r := h.do("GET", "/v2/deployments", testRootKey, ""); r.status != 200 {
			t.Fatalf("request %d without a rate limit: %d", i, r.status)
		}
	}
}

func TestIdempotency(t *testing.T) {
	h := newHarness(t, Options{})
	body := `{"entrypoint":"a.js","env":{"A":"1"}}`
	first := h.do("POST", "/v2/deployments", testRootKey, body, "Idempotency-Key: deploy-1")
	again := h.do("POST", "/v2/deployments", testRootKey, body, "Idempotency-Key: deploy-1")
	if first.status != 200 || again.status != 200 || string(first.body) != string(again.body) {
		t.Fatalf("replay: %d %s then %d %s", first.status, first.body, again.status, again.body)
	}
	if first.header.Get("Idempotent-Replayed") != "" || again.header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("Idempotent-Replayed: %q then %q", first.header.Get("Idempotent-Replayed"), again.header.Get("Idempotent-Replayed"))
	}
	if n := len(ids(h.do("GET", "/v2/deployments", testRootKey, ""))); n != 1 {
		t.Errorf("%d deployments after a replay, want 1", n)
	}

	conflict := [3]string{"idempotency_error", "idempotency_key_reused", "Idempotency-Key"}
	tests := []struct {
		name string
		req  req
		want int
		err  [3]string
	}{
		{"other body", req{"POST", "/v2/deployments", testRootKey, `{"entrypoint":"b.js"}`, []string{"Idempotency-Key: deploy-1"}}, 409, conflict},
		{"same body, other spacing", req{"POST", "/v2/deployments", testRootKey, `{"entrypoint": "a.js","env":{"A":"1"}}`, []string{"Idempotency-Key: deploy-1"}}, 409, conflict},
		{"other endpoint", req{"POST", "/v2/keys", testRootKey, body, []string{"Idempotency-Key: deploy-1"}}, 409, conflict},
	}
	for _, tt := range tests {
		r := h.send(tt.req)
		if r.status != tt.want || r.errorOf() != tt.err {
			t.Errorf("%s: %d %v, want %d %v", tt.name, r.status, r.errorOf(), tt.want, tt.err)
		}
	}
	// Another API key has its own Idempotency-Keys.
	_, other := h.createKey("other")
	if r := h.do("POST", "/v2/deployments", other, `{"entrypoint":"b.js"}`, "Idempotency-Key: deploy-1"); r.status != 200 || r.header.Get("Idempotent-Replayed") != "" {
		t.Errorf("other API key, same Idempotency-Key: %d replayed=%q", r.status, r.header.Get("Idempotent-Replayed"))
	}
	// A failed request keeps nothing: the corrected retry goes through.
	if r := h.do("POST", "/v2/deployments", testRootKey, `{"entrypoint":5}`, "Idempotency-Key: fix-me"); r.status != 400 {
		t.Errorf("bad body: %d", r.status)
	}
	if r := h.do("POST", "/v2/deployments", testRootKey, `{"entrypoint":"ok.js"}`, "Idempotency-Key: fix-me"); r.status != 200 {
		t.Errorf("corrected retry: %d %s", r.status, r.body)
	}
	// After 24 hours the key is forgotten.
	h.clock.Add(24*time.Hour + time.Second)
	if r := h.do("POST", "/v2/deployments", testRootKey, `{"entrypoint":"b.js"}`, "Idempotency-Key: deploy-1"); r.status != 200 || r.header.Get("Idempotent-Replayed") != "" {
		t.Errorf("after 24 h: %d replayed=%q, want a fresh 200", r.status, r.header.Get("Idempotent-Replayed"))
	}

	// A key's secret is never replayed: the retry learns the key id only.
	k1 := h.do("POST", "/v2/keys", testRootKey, `{"name":"ci"}`, "Idempotency-Key: key-1")
	k2 := h.do("POST", "/v2/keys", testRootKey, `{"name":"ci"}`, "Idempotency-Key: key-1")
	if k1.status != 200 || k2.status != 409 || k2.errorOf() != [3]string{"idempotency_error", "key_already_issued", "Idempotency-Key"} {
		t.Fatalf("key replay: %d then %d %v", k1.status, k2.status, k2.errorOf())
	}
	msg := k2.json["error"].(map[string]any)["message"].(string)
	if !strings.Contains(msg, k1.str("id")) || strings.Contains(string(k2.body), k1.str("secret")) {
		t.Errorf("key replay message %q: want the key id and never the secret", msg)
	}
}

// TestIdempotencyInFlight holds a first request inside the build hook while
// a second one with the same Idempotency-Key arrives.
func TestIdempotencyInFlight(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	h := newHarness(t, Options{Build: func(string) error {
		once.Do(func() { close(entered); <-release })
		return nil
	}})
	done := make(chan *response)
	go func() {
		done <- h.do("POST", "/v2/deployments", testRootKey, `{"entrypoint":"a.js"}`, "Idempotency-Key: slow")
	}()
	<-entered
	r := h.do("POST", "/v2/deployments", testRootKey, `{"entrypoint":"a.js"}`, "Idempotency-Key: slow")
	if r.status != 409 || r.errorOf() != [3]string{"idempotency_error", "idempotency_key_in_use", "Idempotency-Key"} {
		t.Errorf("while in flight: %d %v", r.status, r.errorOf())
	}
	close(release)
	if first := <-done; first.status != 200 {
		t.Errorf("first request: %d", first.status)
	}
	if r := h.do("POST", "/v2/deployments", testRootKey, `{"entrypoint":"a.js"}`, "Idempotency-Key: slow"); r.header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("after it finished: %d replayed=%q", r.status, r.header.Get("Idempotent-Replayed"))
	}
}

func TestIdempotencyEviction(t *testing.T) {
	h := newHarness(t, Options{})
	key := h.srv.keys[hashSecret(testRootKey)]
	fp := [32]byte{1}
	for i := range maxIdempotencyEntries + 10 {
		e, _, apiErr := h.srv.idemBegin(newIdemKey(key.id, fmt.Sprint(i)), fp)
		if apiErr != nil {
			t.Fatal(apiErr.code)
		}
		h.srv.idemFinish(e, nil, []byte("{}"))
	}
	if n := len(h.srv.idem.entries); n > maxIdempotencyEntries {
		t.Errorf("%d entries kept, want at most %d", n, maxIdempotencyEntries)
	}
	if _, ok := h.srv.idem.entries[newIdemKey(key.id, fmt.Sprint(maxIdempotencyEntries+9))]; !ok {
		t.Error("the newest entry was evicted")
	}
}

// TestPanicRecovered makes the build hook panic: the client gets a JSON 500,
// the log gets the panic without secrets, the server goes on.
func TestPanicRecovered(t *testing.T) {
	h := newHarness(t, Options{Build: func(ep string) error {
		if ep == "panic.js" {
			panic("hook exploded while holding " + testRootKey)
		}
		return nil
	}})
	r := h.do("POST", "/v2/deployments", testRootKey, `{"entrypoint":"panic.js"}`, "Idempotency-Key: p")
	if r.status != 500 || r.errorOf() != [3]string{"api_error", "internal_error", "<nil>"} {
		t.Errorf("panic: %d %v %s", r.status, r.errorOf(), r.body)
	}
	logs := h.logs.String()
	if !strings.Contains(logs, "panic serving request") || !strings.Contains(logs, "hook exploded") || strings.Contains(logs, testRootKey) {
		t.Errorf("log after a panic:\n%s", logs)
	}
	if strings.Contains(string(r.body), "goroutine") || strings.Contains(string(r.body), "exploded") {
		t.Errorf("the response shows the panic: %s", r.body)
	}
	// The Idempotency-Key was released and the server still works.
	if r := h.do("POST", "/v2/deployments", testRootKey, `{"entrypoint":"fine.js"}`, "Idempotency-Key: p"); r.status != 200 {
		t.Errorf("after the panic: %d %s", r.status, r.body)
	}
}
