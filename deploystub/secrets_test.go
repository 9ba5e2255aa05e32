package deploystub

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecretsNeverLeak issues a key, then uses its secret in every way a
// client might (and misuse it in ways one should not), and checks that no
// later response, no log line and no state file holds the secret, the root
// key, or an env value.
func TestSecretsNeverLeak(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "state.json")
	const envValue = "env-value-that-is-a-password-3141592653"
	h := newHarness(t, Options{StateFile: file, RateLimit: 1000, Build: func(ep string) error {
		if ep == "panic.js" {
			panic("hook panics with " + testRootKey)
		}
		return nil
	}})

	created := h.do("POST", "/v2/keys", testRootKey, `{"name":"ci"}`)
	secret := created.str("secret")
	if !strings.Contains(string(created.body), secret) || !ValidSecretChecksum(secret) {
		t.Fatalf("the creation response must carry the secret: %s", created.body)
	}
	_, readOnly := h.createKey("read", ScopeDeploymentsRead)
	secrets := map[string]string{"issued secret": secret, "read-only secret": readOnly, "root key": testRootKey, "env value": envValue}

	var later []*response
	send := func(q req) {
		r := h.send(q)
		later = append(later, r)
	}
	dep := h.do("POST", "/v2/deployments", secret, `{"entrypoint":"a.js","env":{"PASSWORD":"`+envValue+`"}}`)
	later = append(later, dep)
	id := dep.str("id")
	for _, key := range []string{secret, readOnly, testRootKey} {
		for _, q := range []req{
			{"GET", "/v2/deployments", key, "", nil},
			{"GET", "/v2/deployments?status=live&limit=1", key, "", nil},
			{"POST", "/v2/deployments", key, `{"entrypoint":"b.js","env":{"PASSWORD":"` + envValue + `"}}`, []string{"Idempotency-Key: i1"}},
			{"POST", "/v2/deployments", key, `{"entrypoint":"b.js","env":{"PASSWORD":"` + envValue + `"}}`, []string{"Idempotency-Key: i1"}},
			{"POST", "/v2/deployments", key, `{"entrypoint":"b.js","env":{"PASSWORD":1,"X":"` + envValue + `"}}`, nil},
			{"POST", "/v2/deployments", key, `{"entrypoint":"b.js","env":{"BAD-NAME":"` + envValue + `"}}`, nil},
			{"POST", "/v2/deployments", key, `{"entrypoint":"panic.js","env":{"P":"` + envValue + `"}}`, nil},
			{"POST", "/v2/keys", key, `{"name":"again"}`, []string{"Idempotency-Key: k1"}},
			{"POST", "/v2/keys", key, `{"name":"again"}`, []string{"Idempotency-Key: k1"}},
			// Secrets where they do not belong: paths, queries, names.
			{"DELETE", "/v2/deployments/" + key, key, "", nil},
			{"GET", "/v2/deployments?starting_after=" + key, key, "", nil},
			{"GET", "/v2/deployments?" + key + "=1", key, "", nil},
			{"POST", "/v2/deployments", key, `{"` + key + `":"x"}`, nil},
			{"POST", "/v2/keys", key, `{"name":"n","scopes":["` + key + `"]}`, nil},
			{"GET", "/_deployments/" + key + "/", "", "", nil},
			{"GET", "/v2/" + key, key, "", nil},
			{"PUT", "/v2/deployments", key, "", nil},
			{"GET", "/v2/deployments", "", "", []string{"Authorization: Basic " + key}},
			{"GET", "/v2/deployments", key + "x", "", nil},
			{"GET", "/_deployments/" + id + "/", "", "", nil},
		} {
			send(q)
		}
	}
	send(req{"DELETE", "/v2/deployments/" + id, secret, "", nil})

	for _, r := range later {
		text := string(r.body)
		for k, vs := range r.header {
			text += "\n" + k + ": " + strings.Join(vs, ", ")
		}
		for what, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("a response holds the %s:\n%.500s", what, text)
			}
		}
		// Keys issued during the test show their secret in their own
		// creation response, and nowhere else.
		for _, m := range SecretPattern.FindAllString(text, -1) {
			if r.str("secret") != m {
				t.Errorf("a response holds something shaped like a secret:\n%.500s", text)
			}
		}
	}
	logs := h.logs.String()
	if !strings.Contains(logs, "panic serving request") || strings.Count(logs, "msg=request") < len(later) {
		t.Fatalf("the log is missing lines; test broken?\n%s", logs)
	}
	state, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(state), `"sha256"`) {
		t.Fatalf("state file: %v\n%s", err, state)
	}
	for what, s := range secrets {
		if strings.Contains(logs, s) {
			t.Errorf("the log holds the %s", what)
		}
		if strings.Contains(string(state), s) {
			t.Errorf("the state file holds the %s", what)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		data, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		if SecretPattern.Match(data) {
			t.Errorf("%s holds something shaped like a secret", e.Name())
		}
	}
	// The stub itself keeps only hashes, except the root key it must answer
	// RootKey() with.
	h.srv.mu.Lock()
	for _, k := range h.srv.keys {
		if k.name == secret || strings.Contains(k.name, SecretPrefix) {
			t.Errorf("key %s keeps a secret in its name", k.id)
		}
	}
	h.srv.mu.Unlock()
	h.srv.idemMu.Lock()
	for _, e := range h.srv.idem.entries {
		if SecretPattern.Match(e.response) {
			t.Error("an Idempotency-Key entry keeps a secret for replay")
		}
	}
	h.srv.idemMu.Unlock()
}

// TestErrorsRedactSecrets checks the last line of defence on its own: text
// bound for a client or a log loses anything shaped like a secret.
func TestErrorsRedactSecrets(t *testing.T) {
	srv, err := NewServer(Options{RootKey: testRootKey})
	if err != nil {
		t.Fatal(err)
	}
	s := newSecret()
	got := srv.redact("a " + s + " b " + testRootKey + " c")
	if want := "a dsk_[redacted] b [redacted] c"; got != want {
		t.Errorf("redact = %q, want %q", got, want)
	}
}
