package deploystub

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }

// rootRequest is a request with the root key; a POST's body is JSON.
func rootRequest(method, path, body string) *http.Request {
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	r.Header.Set("Authorization", "Bearer "+testRootKey)
	if method == "POST" {
		r.Header.Set("Content-Type", "application/json")
	}
	return r
}

// fuzzServer is one stub per fuzz target and worker process.
func fuzzServer(t testing.TB) *Server {
	srv, err := NewServer(Options{RootKey: testRootKey})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// checkFuzzResponse holds for any request: a documented status, a JSON
// body matching openapi.yaml (checkRecorded), no 5xx, and a failed request
// changes nothing.
func checkFuzzResponse(t *testing.T, srv *Server, before string, rec *httptest.ResponseRecorder, allowed ...int) {
	t.Helper()
	ok := false
	for _, s := range allowed {
		ok = ok || rec.Code == s
	}
	if !ok {
		t.Fatalf("status %d not in %v: %s", rec.Code, allowed, rec.Body.Bytes())
	}
	if rec.Code != 200 {
		if after := srv.snapshot(); after != before {
			t.Fatalf("a %d changed the state:\nbefore %s\nafter  %s", rec.Code, before, after)
		}
	}
}

func FuzzCreateDeployment(f *testing.F) {
	for _, seed := range []string{
		`{"entrypoint":"index.js"}`,
		`{"entrypoint":"src/app.ts","env":{"A":"1","B_2":""}}`,
		`{"entrypoint":"../x.js"}`,
		`{"entrypoint":5}`,
		`{"entrypoint":"a.js","env":{"1":"x"}}`,
		`{"entrypoint":"a.js","env":null}`,
		`{"entrypoint":"a.js","entrypoint":"b.js"}`,
		`{"entrypoint":"a.js"} trailing`,
		`{"entrypoint":"\u0000.js"}`,
		`{"entrypoint":"` + strings.Repeat("a", 1030) + `"}`,
		"\xff\xfe",
		`[`,
		``,
		`{}`,
		`{"x":1}`,
		`{"entrypoint":"a.js","env":{"A":{"B":"C"}}}`,
	} {
		f.Add(seed)
	}
	srv := fuzzServer(f)
	f.Fuzz(func(t *testing.T, body string) {
		before := srv.snapshot()
		r := rootRequest("POST", "/v2/deployments", body)
		rec := serveDirect(t, srv, r)
		checkFuzzResponse(t, srv, before, rec, 200, 400, 413)
		if rec.Code == 200 {
			var d map[string]any
			json.Unmarshal(rec.Body.Bytes(), &d)
			if bytes.Contains(rec.Body.Bytes(), []byte(`"env"`)) {
				t.Fatalf("env shown: %s", rec.Body.Bytes())
			}
			// Anything accepted lists, and deletes cleanly.
			del := rootRequest("DELETE", "/v2/deployments/"+d["id"].(string), "")
			if rec := serveDirect(t, srv, del); rec.Code != 200 {
				t.Fatalf("delete of an accepted deployment: %d", rec.Code)
			}
		}
	})
}

func FuzzCreateKey(f *testing.F) {
	for _, seed := range []string{
		`{"name":"ci"}`,
		`{"name":"ci","scopes":["deployments:read"]}`,
		`{"name":"","scopes":[]}`,
		`{"name":"x","scopes":["keys:write","keys:write"]}`,
		`{"name":"x","scopes":"keys:write"}`,
		`{"name":null}`,
		`{"name":"` + strings.Repeat("é", 129) + `"}`,
	} {
		f.Add(seed)
	}
	srv := fuzzServer(f)
	f.Fuzz(func(t *testing.T, body string) {
		before := srv.snapshot()
		r := rootRequest("POST", "/v2/keys", body)
		rec := serveDirect(t, srv, r)
		checkFuzzResponse(t, srv, before, rec, 200, 400, 413)
		if rec.Code == 200 {
			var k map[string]string
			json.Unmarshal(rec.Body.Bytes(), &k)
			if !ValidSecretChecksum(k["secret"]) || len(k) != 2 {
				t.Fatalf("bad key response %s", rec.Body.Bytes())
			}
			srv.Reset() // keep the key table small across iterations
		}
	})
}

func FuzzListQuery(f *testing.F) {
	for _, seed := range []string{
		"", "limit=1", "limit=100&status=live", "limit=0", "limit=-1", "limit=1e2",
		"status=failed&starting_after=dep_0000000000000aaaaaaaa",
		"ending_before=dep_vvvvvvvvvvvvvvvvvvvvv", "starting_after=x&ending_before=y",
		"%zz", "a;b", "limit=1&limit=1", "✓=1", "limit=%00",
	} {
		f.Add(seed)
	}
	srv := fuzzServer(f)
	for _, ep := range []string{"a.js", "b.py", "c.ts"} {
		r := rootRequest("POST", "/v2/deployments", `{"entrypoint":"`+ep+`"}`)
		if rec := serveDirect(f, srv, r); rec.Code != 200 {
			f.Fatalf("seeding: %d", rec.Code)
		}
	}
	f.Fuzz(func(t *testing.T, query string) {
		before := srv.snapshot()
		r := rootRequest("GET", "/v2/deployments", "")
		r.URL.RawQuery = query
		rec := serveDirect(t, srv, r)
		checkFuzzResponse(t, srv, before, rec, 200, 400)
		if after := srv.snapshot(); after != before {
			t.Fatalf("a list changed the state")
		}
	})
}

// FuzzParseState reads any content as a state file: it never panics, a
// refusal names a line and column inside the content, and what is accepted
// is written back and read again the same.
func FuzzParseState(f *testing.F) {
	for _, seed := range []string{
		"", "{", "[]", "null", `{"version":1}`, `{"version":2,"x":1}`, `{"version":1,"version":1}`,
		`{"version":1,"last_id_time":5,"deployments":[` + goodDep + `],"keys":[` + goodKey + `],"idempotency":[` + goodReplay + `]}`,
		`{"version":1,"deployments":[` + strings.Replace(goodDep, `"live"`, `"failed","error":"x","forced":"building"`, 1) + `]}`,
		`{"version":1,"idempotency":[` + strings.Replace(goodReplay, `"response":"{}"`, `"issued_key":"key_1"`, 1) + `]}`,
		"{\n  \"version\": 1,\n  \"keys\": [\n    {\"id\": \"k\u00e9\"}\n  ]\n}\n",
		"{\"version\":1,\"keys\":[{\"id\":\"\xff\"}]}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := parseState(data)
		if err != nil {
			var se *stateError
			if !errors.As(err, &se) {
				t.Fatalf("a refusal without a position: %v", err)
			}
			if lines := bytes.Count(data, []byte("\n")) + 1; se.line < 1 || se.line > lines || se.col < 1 {
				t.Fatalf("position %d:%d outside %d lines: %v", se.line, se.col, lines, err)
			}
			return
		}
		out, err := encodeState(st)
		if err != nil {
			t.Fatalf("accepted but cannot be written: %v", err)
		}
		back, err := parseState(out)
		if err != nil {
			t.Fatalf("written but cannot be read: %v\n%s", err, out)
		}
		if diff := cmp.Diff(st, back); diff != "" {
			t.Fatalf("read back differently (-first +second):\n%s", diff)
		}
	})
}
