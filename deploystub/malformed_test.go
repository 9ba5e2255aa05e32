package deploystub

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// serveDirect sends a request straight to the handler, so that tests can
// send what an HTTP client would refuse to (control characters in headers,
// raw bytes in paths), and checks the response against openapi.yaml.
func serveDirect(t testing.TB, srv *Server, r *http.Request) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, r)
	checkRecorded(t, r, rec)
	return rec
}

func errorTriple(t testing.TB, rec *httptest.ResponseRecorder) [3]string {
	t.Helper()
	r := &response{status: rec.Code}
	if err := jsonUnmarshal(rec.Body.Bytes(), &r.json); err != nil {
		t.Errorf("body is not JSON: %v: %q", err, rec.Body.Bytes())
	}
	return r.errorOf()
}

// TestMalformedRequests sends hostile and broken requests: each gets its
// documented JSON error, and none changes any state.
func TestMalformedRequests(t *testing.T) {
	h := newHarness(t, Options{})
	existing := h.createDeployment("keep.js")
	_, readKey := h.createKey("reader", ScopeDeploymentsRead)
	h.do("POST", "/v2/deployments", testRootKey, `{"entrypoint":"x.js"}`, "Idempotency-Key: used")

	const (
		inv  = "invalid_request_error"
		null = "<nil>"
	)
	type hdr = map[string][]string
	bearer := "Bearer " + testRootKey
	jsonCT := "application/json"
	tests := []struct {
		name         string
		method, path string
		header       hdr
		body         string
		status       int
		err          [3]string
	}{
		{"bad JSON", "POST", "/v2/deployments", hdr{"Authorization": {bearer}, "Content-Type": {jsonCT}}, `{"entrypoint" "a.js"}`, 400, [3]string{inv, "invalid_json", null}},
		{"deeply nested JSON", "POST", "/v2/deployments", hdr{"Authorization": {bearer}, "Content-Type": {jsonCT}}, `{"entrypoint":"a.js","env":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`, 400, [3]string{inv, "invalid_json", null}},
		{"wrong type", "POST", "/v2/deployments", hdr{"Authorization": {bearer}, "Content-Type": {jsonCT}}, `{"entrypoint":["a.js"]}`, 400, [3]string{inv, "parameter_invalid", "entrypoint"}},
		{"wrong type of bool", "POST", "/v2/keys", hdr{"Authorization": {bearer}, "Content-Type": {jsonCT}}, `{"name":true}`, 400, [3]string{inv, "parameter_invalid", "name"}},
		{"huge body", "POST", "/v2/keys", hdr{"Authorization": {bearer}, "Content-Type": {jsonCT}}, strings.Repeat(" ", 2<<20), 413, [3]string{inv, "request_too_large", null}},
		{"NUL in body", "POST", "/v2/deployments", hdr{"Authorization": {bearer}, "Content-Type": {jsonCT}}, "{\"entrypoint\":\"a\x00.js\"}", 400, [3]string{inv, "invalid_json", null}},
		{"unicode id", "DELETE", "/v2/deployments/" + url.PathEscape("dép_✓\u202e"), hdr{"Authorization": {bearer}}, "", 404, [3]string{inv, "resource_missing", "id"}},
		{"id with a secret-like tail", "DELETE", "/v2/deployments/" + existing + "x", hdr{"Authorization": {bearer}}, "", 404, [3]string{inv, "resource_missing", "id"}},
		{"id in other case", "DELETE", "/v2/deployments/" + strings.ToUpper(existing), hdr{"Authorization": {bearer}}, "", 404, [3]string{inv, "resource_missing", "id"}},
		{"CRLF in Authorization", "GET", "/v2/deployments", hdr{"Authorization": {bearer + "\r\nX-Admin: 1"}}, "", 401, [3]string{"authentication_error", "invalid_api_key", null}},
		{"NUL in Authorization", "GET", "/v2/deployments", hdr{"Authorization": {"Bearer \x00" + testRootKey}}, "", 401, [3]string{"authentication_error", "invalid_api_key", null}},
		{"tab in key", "GET", "/v2/deployments", hdr{"Authorization": {"Bearer " + testRootKey[:5] + "\t" + testRootKey[5:]}}, "", 401, [3]string{"authentication_error", "invalid_api_key", null}},
		{"unicode key", "GET", "/v2/deployments", hdr{"Authorization": {"Bearer ключ-ключ-ключ-ключ-ключ"}}, "", 401, [3]string{"authentication_error", "invalid_api_key", null}},
		{"missing Authorization", "POST", "/v2/deployments", hdr{"Content-Type": {jsonCT}}, `{"entrypoint":"a.js"}`, 401, [3]string{"authentication_error", "missing_api_key", null}},
		{"blank Authorization", "POST", "/v2/deployments", hdr{"Authorization": {"   "}, "Content-Type": {jsonCT}}, `{"entrypoint":"a.js"}`, 401, [3]string{"authentication_error", "missing_api_key", null}},
		{"Token scheme", "POST", "/v2/deployments", hdr{"Authorization": {"Token " + testRootKey}, "Content-Type": {jsonCT}}, `{"entrypoint":"a.js"}`, 401, [3]string{"authentication_error", "invalid_api_key", null}},
		{"key of another scope", "POST", "/v2/deployments", hdr{"Authorization": {"Bearer " + readKey}, "Content-Type": {jsonCT}}, `{"entrypoint":"a.js"}`, 403, [3]string{"permission_error", "insufficient_scope", null}},
		{"key of another scope deletes", "DELETE", "/v2/deployments/" + existing, hdr{"Authorization": {"Bearer " + readKey}}, "", 403, [3]string{"permission_error", "insufficient_scope", null}},
		{"CRLF in Idempotency-Key", "POST", "/v2/deployments", hdr{"Authorization": {bearer}, "Content-Type": {jsonCT}, "Idempotency-Key": {"k\r\nSet-Cookie: a=b"}}, `{"entrypoint":"a.js"}`, 400, [3]string{inv, "parameter_invalid", "Idempotency-Key"}},
		{"reused Idempotency-Key", "POST", "/v2/deployments", hdr{"Authorization": {bearer}, "Content-Type": {jsonCT}, "Idempotency-Key": {"used"}}, `{"entrypoint":"other.js"}`, 409, [3]string{"idempotency_error", "idempotency_key_reused", "Idempotency-Key"}},
		{"CRLF in Content-Type", "POST", "/v2/deployments", hdr{"Authorization": {bearer}, "Content-Type": {"application/json\r\nX-A: b"}}, `{"entrypoint":"a.js"}`, 415, [3]string{inv, "unsupported_media_type", null}},
		{"JSON-ish Content-Type", "POST", "/v2/deployments", hdr{"Authorization": {bearer}, "Content-Type": {"application/json-seq"}}, `{"entrypoint":"a.js"}`, 415, [3]string{inv, "unsupported_media_type", null}},
		{"query injection", "GET", "/v2/deployments?limit=1%0D%0AX-A:%20b", hdr{"Authorization": {bearer}}, "", 400, [3]string{inv, "parameter_invalid", "limit"}},
		{"semicolon query", "GET", "/v2/deployments?limit=1;status=live", hdr{"Authorization": {bearer}}, "", 400, [3]string{inv, "parameter_invalid", null}},
		{"unicode query name", "GET", "/v2/deployments?%E2%9C%93=1", hdr{"Authorization": {bearer}}, "", 400, [3]string{inv, "parameter_unknown", "✓"}},
		{"path traversal", "GET", "/_deployments/../v2/deployments", hdr{"Authorization": {bearer}}, "", 404, [3]string{inv, "resource_missing", null}},
		{"encoded traversal", "GET", "/_deployments/%2E%2E/v2/deployments", hdr{"Authorization": {bearer}}, "", 404, [3]string{inv, "resource_missing", null}},
		{"unknown method", "BREW", "/v2/deployments", hdr{"Authorization": {bearer}}, "", 405, [3]string{inv, "method_not_allowed", null}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(tt.method, "http://stub.test/", bytes.NewReader([]byte(tt.body)))
			// Set the path raw, as a hostile client can send it.
			u, err := url.ParseRequestURI(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			r.URL, r.RequestURI = u, tt.path
			r.Header = http.Header(tt.header)
			before := h.srv.snapshot()
			rec := serveDirect(t, h.srv, r)
			if got := errorTriple(t, rec); rec.Code != tt.status || got != tt.err {
				t.Errorf("got %d %v, want %d %v\nbody: %.300s", rec.Code, got, tt.status, tt.err, rec.Body.Bytes())
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q, want application/json", ct)
			}
			for k := range rec.Header() {
				if k == "X-Admin" || k == "X-A" || k == "Set-Cookie" {
					t.Errorf("an injected header %s reached the response", k)
				}
			}
			if after := h.srv.snapshot(); after != before {
				t.Errorf("state changed:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}
