package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"logoindex/internal/syncio"

	"github.com/google/go-cmp/cmp"
)

const rootKey = "cmd-test-root-key-0123456789"

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// stub is a run in progress.
type stub struct {
	url    string
	stderr *syncio.Buffer
	stop   func() error
}

// start runs the command until the test stops it, and waits for its
// "listening on" line.
func start(t *testing.T, args []string, env map[string]string) *stub {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	stderr := &syncio.Buffer{}
	done := make(chan error, 1)
	go func() {
		err := run(ctx, args, pw, stderr, envOf(env))
		pw.CloseWithError(errors.New("run returned"))
		done <- err
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("no listening line: %v (run: %v)\nstderr: %s", err, <-done, stderr)
	}
	go io.Copy(io.Discard, pr)
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "deploystub listening on ")
	if !ok {
		t.Fatalf("first line %q", line)
	}
	stopped := false
	s := &stub{url: url, stderr: stderr, stop: func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		return <-done
	}}
	t.Cleanup(func() { s.stop() })
	return s
}

func call(t *testing.T, method, url, key, body string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	var v map[string]any
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" && method != "HEAD" {
		t.Errorf("%s %s: Content-Type %q", method, url, ct)
	}
	json.NewDecoder(resp.Body).Decode(&v)
	return resp.StatusCode, v
}

func TestRunServesAndStops(t *testing.T) {
	s := start(t, []string{"-addr", "127.0.0.1:0", "-root-key", rootKey, "-build-delay", "0s", "-verbose"}, nil)
	if !strings.HasPrefix(s.url, "http://127.0.0.1:") {
		t.Fatalf("listening on %s", s.url)
	}
	status, dep := call(t, "POST", s.url+"/v2/deployments", rootKey, `{"entrypoint":"index.js"}`)
	if status != 200 || dep["status"] != "building" {
		t.Fatalf("create: %d %v", status, dep)
	}
	// The deployment URL is on the real listener.
	if want := s.url + "/_deployments/" + dep["id"].(string) + "/"; dep["url"] != want {
		t.Errorf("url %v, want %s", dep["url"], want)
	}
	if status, body := call(t, "GET", dep["url"].(string), "", ""); status != 200 || body["entrypoint"] != "index.js" {
		t.Errorf("serve: %d %v", status, body)
	}
	if status, _ := call(t, "GET", s.url+"/v2/deployments", "", ""); status != 401 {
		t.Errorf("without a key: %d", status)
	}
	if err := s.stop(); err != nil {
		t.Errorf("run after cancel: %v", err)
	}
	logs := s.stderr.String()
	if !strings.Contains(logs, "msg=request") || strings.Contains(logs, rootKey) {
		t.Errorf("verbose log: want request lines and no root key:\n%s", logs)
	}
	if _, err := net.Dial("tcp", strings.TrimPrefix(s.url, "http://")); err == nil {
		t.Error("still listening after the context ended")
	}
}

func TestGeneratedRootKeyPrintedOnce(t *testing.T) {
	s := start(t, []string{"-addr", "127.0.0.1:0"}, nil)
	var key string
	n := 0
	for _, line := range strings.Split(s.stderr.String(), "\n") {
		if k, ok := strings.CutPrefix(line, "deploystub: root key (shown once, kept only in memory): "); ok {
			key, n = k, n+1
		}
	}
	if n != 1 {
		t.Fatalf("the root key was printed %d times:\n%s", n, s.stderr)
	}
	if status, _ := call(t, "GET", s.url+"/v2/deployments", key, ""); status != 200 {
		t.Errorf("the printed key: %d", status)
	}
	call(t, "GET", s.url+"/v2/deployments", key, "")
	s.stop()
	if strings.Count(s.stderr.String(), key) != 1 {
		t.Errorf("the key appears again on stderr:\n%s", s.stderr)
	}

	// A given key is never printed.
	s = start(t, []string{"-addr", "127.0.0.1:0", "-root-key", rootKey}, nil)
	s.stop()
	if strings.Contains(s.stderr.String(), rootKey) || strings.Contains(s.stderr.String(), "root key") {
		t.Errorf("a given root key is printed:\n%s", s.stderr)
	}
}

func TestEnvironment(t *testing.T) {
	env := map[string]string{
		"DEPLOYSTUB_ADDR":        "127.0.0.1:0",
		"DEPLOYSTUB_ROOT_KEY":    rootKey,
		"DEPLOYSTUB_BUILD_DELAY": "1h",
		"DEPLOYSTUB_PUBLIC_URL":  "https://stub.example.test",
		"DEPLOYSTUB_RATE_LIMIT":  "1000",
		"DEPLOYSTUB_STATE_FILE":  filepath.Join(t.TempDir(), "state.json"),
	}
	s := start(t, nil, env)
	_, dep := call(t, "POST", s.url+"/v2/deployments", rootKey, `{"entrypoint":"a.js"}`)
	if !strings.HasPrefix(dep["url"].(string), "https://stub.example.test/_deployments/") {
		t.Errorf("url %v, want the public URL from the environment", dep["url"])
	}
	if status, _ := call(t, "GET", s.url+"/_deployments/"+dep["id"].(string)+"/", "", ""); status != 503 {
		t.Errorf("with DEPLOYSTUB_BUILD_DELAY=1h: serve %d, want 503", status)
	}
	s.stop()

	// Flags win over the environment; the state file kept the deployment.
	const other = "flag-root-key-wins-0123456789"
	s = start(t, []string{"-root-key", other, "-build-delay", "0s"}, env)
	status, list := call(t, "GET", s.url+"/v2/deployments", other, "")
	if status != 200 || len(list["data"].([]any)) != 1 {
		t.Errorf("after restart with the flag key: %d %v", status, list)
	}
	if status, _ := call(t, "GET", s.url+"/v2/deployments", rootKey, ""); status != 401 {
		t.Errorf("the environment key when a flag gives another: %d, want 401", status)
	}
}

func TestUsage(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	dir := t.TempDir()
	readOnly, damaged := filepath.Join(dir, "read-only.json"), filepath.Join(dir, "damaged.json")
	os.WriteFile(readOnly, []byte(`{"version":1}`), 0o400)
	os.WriteFile(damaged, []byte("{\n  \"version\": 1,\n  \"deployments\": [\n"), 0o600)
	tests := []struct {
		name   string
		args   []string
		env    map[string]string
		code   int
		stderr string
	}{
		{"unknown flag", []string{"-port", "1"}, nil, 2, "flag provided but not defined: -port"},
		{"bad duration", []string{"-build-delay", "soon"}, nil, 2, `invalid value "soon" for flag -build-delay`},
		{"argument", []string{"serve"}, nil, 2, `unexpected argument "serve"`},
		{"bad environment", nil, map[string]string{"DEPLOYSTUB_RATE_LIMIT": "fast"}, 2, `DEPLOYSTUB_RATE_LIMIT="fast"`},
		{"short root key", []string{"-root-key", "short"}, nil, 2, "the root key must have at least 20 characters"},
		{"negative delay", []string{"-build-delay", "-1s"}, nil, 2, "negative build delay"},
		{"public URL 0.0.0.0", []string{"-public-url", "http://0.0.0.0:1"}, nil, 2, "unspecified address"},
		{"help", []string{"-h"}, nil, 0, "DEPLOYSTUB_<NAME>"},
		{"address in use", []string{"-addr", busy.Addr().String()}, nil, 1, "address already in use"},
		{"bad state file", []string{"-state-file", "/nonexistent-deploystub-dir/s.json"}, nil, 1, "no such file or directory"},
		{"read-only state file", []string{"-state-file", readOnly}, nil, 2, "state file " + readOnly + " is read-only"},
		{"state file a folder", nil, map[string]string{"DEPLOYSTUB_STATE_FILE": dir}, 2, "state file " + dir + " is not a regular file but a folder"},
		{"damaged state file", []string{"-state-file", damaged}, nil, 1, "state file " + damaged + ":4:1: unexpected end of JSON input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), tt.args, &stdout, &stderr, envOf(tt.env))
			code := exitCode(err, &stderr)
			if code != tt.code || !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d and %q", code, stderr.String(), tt.code, tt.stderr)
			}
			// An error is one line, said once, with one "deploystub: ".
			if got := stderr.String(); code != 0 && (strings.Count(got, tt.stderr) != 1 || strings.Count(got, "deploystub:") != 1 || strings.Count(got, "\n") != 1) {
				t.Errorf("the error should be printed once, on one line:\n%s", got)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout: %q", stdout.String())
			}
		})
	}
	if got := exitCode(flag.ErrHelp, io.Discard); got != 0 {
		t.Errorf("exitCode(ErrHelp) = %d", got)
	}
}

// TestErrorMessages pins whole messages: each printed once, with the
// program's name once.
func TestErrorMessages(t *testing.T) {
	readOnly := filepath.Join(t.TempDir(), "state.json")
	os.WriteFile(readOnly, []byte(`{"version":1}`), 0o444)
	for _, tt := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"-build-delay", "abc"}, nil, `deploystub: invalid value "abc" for flag -build-delay: parse error (deploystub -h lists the flags)` + "\n"},
		{[]string{"-root-key", "short"}, nil, "deploystub: invalid option: the root key must have at least 20 characters\n"},
		{nil, map[string]string{"DEPLOYSTUB_ROOT_KEY": "has a space 0123456789"}, "deploystub: invalid option: the root key must be printable ASCII without spaces\n"},
		{nil, map[string]string{"DEPLOYSTUB_BUILD_DELAY": "abc"}, `deploystub: DEPLOYSTUB_BUILD_DELAY="abc": parse error` + "\n"},
		{[]string{"-state-file", readOnly}, nil, "deploystub: invalid option: state file " + readOnly + " is read-only (mode -r--r--r--): the stub rewrites it after every change; make it writable or choose another file\n"},
	} {
		var stdout, stderr bytes.Buffer
		code := exitCode(run(context.Background(), tt.args, &stdout, &stderr, envOf(tt.env)), &stderr)
		if code != 2 || stderr.String() != tt.want {
			t.Errorf("%q %v: exit %d, stderr:\n%s\nwant exit 2 and:\n%s", tt.args, tt.env, code, stderr.String(), tt.want)
		}
	}
}

// TestRootKeyOfSecretShapeFromEnvironment: DEPLOYSTUB_ROOT_KEY shaped like
// an issued secret ("dsk_" and 36 characters, checksum wrong) works.
func TestRootKeyOfSecretShapeFromEnvironment(t *testing.T) {
	const key = "dsk_local0root0key0of0secret0shape000000"
	s := start(t, []string{"-addr", "127.0.0.1:0"}, map[string]string{"DEPLOYSTUB_ROOT_KEY": key})
	if status, body := call(t, "GET", s.url+"/v2/deployments", key, ""); status != 200 {
		t.Errorf("GET /v2/deployments with the root key: %d %v", status, body)
	}
	// The description is public.
	res, err := http.Get(s.url + "/v2/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("GET /v2/openapi.yaml without a key: %s", res.Status)
	}
}

func TestEnvName(t *testing.T) {
	got := []string{envName("addr"), envName("root-key"), envName("state-file"), envName("build-delay")}
	want := []string{"DEPLOYSTUB_ADDR", "DEPLOYSTUB_ROOT_KEY", "DEPLOYSTUB_STATE_FILE", "DEPLOYSTUB_BUILD_DELAY"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestListenURL(t *testing.T) {
	tests := []struct {
		addr *net.TCPAddr
		want string
	}{
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8787}, "http://127.0.0.1:8787"},
		{&net.TCPAddr{IP: net.IPv4zero, Port: 1}, "http://127.0.0.1:1"},
		{&net.TCPAddr{IP: net.IPv6unspecified, Port: 2}, "http://127.0.0.1:2"},
		{&net.TCPAddr{IP: net.IPv6loopback, Port: 3}, "http://[::1]:3"},
	}
	for _, tt := range tests {
		if got := listenURL(tt.addr); got != tt.want {
			t.Errorf("listenURL(%v) = %q, want %q", tt.addr, got, tt.want)
		}
	}
}

// post sends a POST with an Idempotency-Key and returns the status, the
// Idempotent-Replayed header and the body.
func post(t *testing.T, url, key, body, idemKey string) (int, string, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", idemKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Idempotent-Replayed"), string(data)
}

// TestIdempotencyKeyAcrossRestart stops the stub and starts it again on its
// state file: the retried POST is replayed, not run twice.
func TestIdempotencyKeyAcrossRestart(t *testing.T) {
	args := []string{"-addr", "127.0.0.1:0", "-root-key", rootKey, "-state-file", filepath.Join(t.TempDir(), "state.json")}
	const body = `{"entrypoint":"index.js"}`
	s := start(t, args, nil)
	status, _, first := post(t, s.url+"/v2/deployments", rootKey, body, "deploy-1")
	if err := s.stop(); err != nil || status != 200 {
		t.Fatalf("first POST: %d %s; stop: %v", status, first, err)
	}
	s = start(t, args, nil)
	status, replayed, again := post(t, s.url+"/v2/deployments", rootKey, body, "deploy-1")
	_, list := call(t, "GET", s.url+"/v2/deployments", rootKey, "")
	got := []any{status, replayed, again, len(list["data"].([]any))}
	if diff := cmp.Diff([]any{200, "true", first, 1}, got); diff != "" {
		t.Errorf("status, Idempotent-Replayed, body, deployments after the restart (-want +got):\n%s", diff)
	}
}
