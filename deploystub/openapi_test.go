package deploystub

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"logoindex/internal/schematest"
)

// TestOpenAPIDocument checks openapi.yaml itself: it is OpenAPI 3.1, every
// schema compiles, and its operations and scopes are exactly the routes.
func TestOpenAPIDocument(t *testing.T) {
	sp, err := loadSpec()
	if err != nil {
		t.Fatalf("openapi.yaml: %v", err)
	}
	if v := sp.doc["openapi"]; v != "3.1.0" {
		t.Errorf("openapi: %v, want 3.1.0", v)
	}
	schemas := sp.doc["components"].(map[string]any)["schemas"].(map[string]any)
	for name := range schemas {
		if _, err := schematest.Compile("openapi.yaml", sp.doc, "/components/schemas/"+name); err != nil {
			t.Errorf("schema %s: %v", name, err)
		}
	}

	// Routes and scopes, both ways.
	var fromCode, fromDoc []string
	srv, _ := NewServer(Options{})
	for _, rt := range srv.apiRoutes() {
		scope := rt.scope
		switch {
		case rt.public:
			scope = "(public)"
		case scope == "":
			scope = "(any key)"
		}
		fromCode = append(fromCode, rt.pattern+" "+scope)
	}
	for p, item := range sp.doc["paths"].(map[string]any) {
		if !strings.HasPrefix(p, "/v2/") {
			continue
		}
		for method, op := range item.(map[string]any) {
			opm := op.(map[string]any)
			scope, ok := opm["x-required-scope"].(string)
			if sec, set := opm["security"].([]any); set && len(sec) == 0 {
				scope = "(public)" // security: [] overrides the document's bearerAuth
			} else if !ok {
				scope = "(any key)"
			}
			fromDoc = append(fromDoc, strings.ToUpper(method)+" "+p+" "+scope)
			// Every response schema and header compiles.
			for code, r := range opm["responses"].(map[string]any) {
				obj, ptr := sp.deref(r, "/paths/"+escapeToken(p)+"/"+method+"/responses/"+code)
				for mt := range obj["content"].(map[string]any) {
					if _, err := sp.schema(ptr + "/content/" + escapeToken(mt) + "/schema"); err != nil {
						t.Errorf("%s %s %s: %v", method, p, code, err)
					}
				}
			}
		}
	}
	sort.Strings(fromCode)
	sort.Strings(fromDoc)
	if diff := cmp.Diff(fromCode, fromDoc); diff != "" {
		t.Errorf("routes in the code (-) and operations in openapi.yaml (+):\n%s", diff)
	}
}

// TestSpecChecker makes sure the response checker the other tests rely on
// does reject what it should.
func TestSpecChecker(t *testing.T) {
	sp := spec()
	json := map[string][]string{"Content-Type": {"application/json"}}
	tests := []struct {
		name, method, path string
		status             int
		header             map[string][]string
		body               string
		wantErr            string
	}{
		{"good list", "GET", "/v2/deployments", 200, json, `{"data":[],"has_more":false}`, ""},
		{"list missing has_more", "GET", "/v2/deployments", 200, json, `{"data":[]}`, `body (root): missing property 'has_more'`},
		{"bad status value", "GET", "/v2/deployments", 200, json,
			`{"data":[{"id":"dep_0000000000000aaaaaaaa","status":"x","url":"http://127.0.0.1:1/_deployments/dep_0000000000000aaaaaaaa/","entrypoint":"a","created_at":"2025-01-01T00:00:00Z"}],"has_more":false}`,
			`body /data/0/status: value must be one of 'live', 'building', 'failed'`},
		{"url on 0.0.0.0", "GET", "/v2/deployments", 200, json,
			`{"data":[{"id":"dep_0000000000000aaaaaaaa","status":"live","url":"http://0.0.0.0:1/_deployments/dep_0000000000000aaaaaaaa/","entrypoint":"a","created_at":"2025-01-01T00:00:00Z"}],"has_more":false}`,
			`body /data/0/url: 'not' failed`},
		{"failed without error", "GET", "/v2/deployments", 200, json,
			`{"data":[{"id":"dep_0000000000000aaaaaaaa","status":"failed","url":"http://127.0.0.1:1/_deployments/dep_0000000000000aaaaaaaa/","entrypoint":"a","created_at":"2025-01-01T00:00:00Z"}],"has_more":false}`,
			`body /data/0: missing property 'error'`},
		{"undocumented status", "GET", "/v2/deployments", 418, json, `{}`, "status 418 is not documented"},
		{"text/plain error", "GET", "/v2/deployments", 400, map[string][]string{"Content-Type": {"text/plain"}}, "bad", `Content-Type "text/plain"`},
		{"401 without WWW-Authenticate", "GET", "/v2/deployments", 401, json,
			`{"error":{"type":"authentication_error","code":"missing_api_key","message":"m","param":null}}`, "missing header WWW-Authenticate"},
		{"wrong code for status", "GET", "/v2/deployments", 400, json,
			`{"error":{"type":"invalid_request_error","code":"resource_missing","message":"m","param":null}}`, `body /error/code: value must be one of 'invalid_json'`},
		{"unknown route not 404", "GET", "/v9", 200, json, `{}`, "no path of the document matches; want 404, got 200"},
		{"405 without Allow", "PUT", "/v2/keys", 405, json,
			`{"error":{"type":"invalid_request_error","code":"method_not_allowed","message":"m","param":null}}`, "missing header Allow"},
		{"created not building", "POST", "/v2/deployments", 200, json,
			`{"id":"dep_0000000000000aaaaaaaa","status":"live","url":"http://127.0.0.1:1/_deployments/dep_0000000000000aaaaaaaa/","entrypoint":"a","created_at":"2025-01-01T00:00:00Z"}`,
			`body /status: value must be 'building'`},
		{"key with extra member", "POST", "/v2/keys", 200, json, `{"id":"key_0000000000000000","secret":"dsk_000000000000000000000000000000000000","name":"n"}`, `body (root): additional properties 'name' not allowed`},
		{"Retry-After not a number", "GET", "/_deployments/x/", 503, map[string][]string{"Content-Type": {"application/json"}, "Retry-After": {"soon"}},
			`{"error":{"type":"deployment_error","code":"deployment_building","message":"m","param":null}}`, `header Retry-After: "soon" is not an integer`},
	}
	for _, tt := range tests {
		sp.mu.Lock()
		saved := sp.seen
		sp.seen = map[string]bool{} // these fake responses prove no coverage
		sp.mu.Unlock()
		errs := sp.check(tt.method, tt.path, tt.status, tt.header, []byte(tt.body))
		sp.mu.Lock()
		sp.seen = saved
		sp.mu.Unlock()
		joined := strings.Join(errs, "\n")
		if tt.wantErr == "" && joined != "" || tt.wantErr != "" && !strings.Contains(joined, tt.wantErr) {
			t.Errorf("%s: errors %q, want one containing %q", tt.name, joined, tt.wantErr)
		}
	}
}
