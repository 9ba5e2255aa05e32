package deploystub_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"logoindex/deploystub"
)

// A client test starts the stub with a fixed root key, calls the API as it
// would call the real service, and decides how builds end.
func Example() {
	srv, err := deploystub.NewServer(deploystub.Options{
		RootKey: "test-root-key-0123456789",
		Build: func(entrypoint string) error {
			if entrypoint == "broken.js" {
				return errors.New("SyntaxError: unexpected token")
			}
			return nil
		},
	})
	if err != nil {
		panic(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()

	call := func(method, path, body string) (int, map[string]any) {
		req, _ := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+srv.RootKey())
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			panic(err)
		}
		defer resp.Body.Close()
		var v map[string]any
		json.NewDecoder(resp.Body).Decode(&v)
		return resp.StatusCode, v
	}

	status, created := call("POST", "/v2/deployments", `{"entrypoint":"broken.js"}`)
	fmt.Println(status, created["status"])

	_, list := call("GET", "/v2/deployments?status=failed", "")
	first := list["data"].([]any)[0].(map[string]any)
	fmt.Println(first["id"] == created["id"], first["status"], first["error"])

	status, failure := call("POST", "/v2/deployments", `{"entrypoint":7}`)
	fmt.Println(status, failure["error"].(map[string]any)["code"], failure["error"].(map[string]any)["param"])

	resp, _ := http.Get(created["url"].(string))
	fmt.Println(resp.StatusCode)
	resp.Body.Close()
	// Output:
	// 200 building
	// true failed SyntaxError: unexpected token
	// 400 parameter_invalid entrypoint
	// 502
}
