package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"logoindex/deploystub"
)

func TestPercentile(t *testing.T) {
	var lat []time.Duration
	for i := 1; i <= 100; i++ {
		lat = append(lat, time.Duration(i)*time.Millisecond)
	}
	tests := []struct {
		in   []time.Duration
		p    float64
		want time.Duration
	}{
		{lat, 50, 50 * time.Millisecond},
		{lat, 90, 90 * time.Millisecond},
		{lat, 99, 99 * time.Millisecond},
		{lat, 100, 100 * time.Millisecond},
		{lat[:1], 99, time.Millisecond},
		{lat[:3], 50, 2 * time.Millisecond},
		{nil, 50, 0},
	}
	for _, tt := range tests {
		if got := percentile(tt.in, tt.p); got != tt.want {
			t.Errorf("percentile(%d values, %v) = %v, want %v", len(tt.in), tt.p, got, tt.want)
		}
	}
}

func TestCheckLoopback(t *testing.T) {
	tests := map[string]bool{
		"http://127.0.0.1:8787":  true,
		"http://127.0.0.2:1":     true,
		"http://[::1]:8787":      true,
		"http://localhost:8787":  true,
		"http://0.0.0.0:8787":    false,
		"http://192.168.1.2:80":  false,
		"http://example.com":     false,
		"https://127.0.0.1:8787": false,
		"127.0.0.1:8787":         false,
	}
	for u, ok := range tests {
		if err := checkLoopback(u); (err == nil) != ok {
			t.Errorf("checkLoopback(%q) = %v, want ok=%v", u, err, ok)
		}
	}
}

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestBurstAgainstStub(t *testing.T) {
	const key = "load-test-root-key-0123456789"
	srv, err := deploystub.NewServer(deploystub.Options{RootKey: key})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	var out, errOut bytes.Buffer
	err = run(context.Background(), []string{"-url", ts.URL, "-n", "400", "-c", "4"}, &out, &errOut, envOf(map[string]string{"DEPLOYSTUB_ROOT_KEY": key}))
	if err != nil {
		t.Fatalf("run: %v\n%s%s", err, out.String(), errOut.String())
	}
	for _, want := range []string{"400 requests, 4 clients", "requests/s", "p50", "p99", "failures  0", "create: ", "delete: ", "serve: ", "bad-key: "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}

func TestBurstFailsOn5xx(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == "DELETE" {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("Authorization") == "Bearer not-a-key-of-this-stub-000" {
			w.WriteHeader(401)
			return
		}
		if r.Method == "POST" {
			w.Write([]byte(`{"id":"dep_x"}`))
		}
	}))
	defer ts.Close()
	var out, errOut bytes.Buffer
	err := run(context.Background(), []string{"-url", ts.URL, "-n", "100", "-c", "2"}, &out, &errOut, envOf(map[string]string{"DEPLOYSTUB_ROOT_KEY": "k"}))
	if err == nil || !strings.Contains(err.Error(), "failed requests") || !strings.Contains(errOut.String(), ": 502") {
		t.Errorf("run against a server answering 502: err %v\n%s", err, errOut.String())
	}
}

func TestUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"neither", nil, nil, "give exactly one of -stub and -url"},
		{"both", []string{"-stub", "x", "-url", "http://127.0.0.1:1"}, nil, "give exactly one of -stub and -url"},
		{"zero requests", []string{"-url", "http://127.0.0.1:1", "-n", "0"}, nil, "must be positive"},
		{"no key", []string{"-url", "http://127.0.0.1:1"}, nil, "DEPLOYSTUB_ROOT_KEY"},
		{"not loopback", []string{"-url", "http://10.0.0.1:8787"}, map[string]string{"DEPLOYSTUB_ROOT_KEY": "k"}, "not on loopback"},
		{"argument", []string{"go"}, nil, `unexpected argument "go"`},
	}
	for _, tt := range tests {
		err := run(context.Background(), tt.args, &bytes.Buffer{}, &bytes.Buffer{}, envOf(tt.env))
		if _, ok := err.(usageError); !ok || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want a usage error with %q", tt.name, err, tt.want)
		}
	}
}

// TestStartStub drives the child-process handling with stand-in scripts.
func TestStartStub(t *testing.T) {
	dir := t.TempDir()
	write := func(name, script string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+script), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good", `[ -n "$DEPLOYSTUB_ROOT_KEY" ] || exit 9
trap 'exit 0' INT
echo "deploystub listening on http://127.0.0.1:4242"
while :; do sleep 0.05; done
`)
	c, url, err := startStub(context.Background(), good, "k")
	if err != nil || url != "http://127.0.0.1:4242" {
		t.Fatalf("startStub = %q, %v", url, err)
	}
	if err := c.stop(); err != nil {
		t.Errorf("stop: %v", err)
	}
	bad := write("bad", "echo broken >&2\nexit 3\n")
	if _, _, err := startStub(context.Background(), bad, "k"); err == nil || !strings.Contains(err.Error(), "did not start") {
		t.Errorf("startStub(failing binary) = %v", err)
	}
}
