//go:build unix

package main

// Tests of the Makefile targets a newcomer runs first, run through make
// itself: make new, and make s3-local with a publish to it as
// docs/publishing.md tells.

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"logoindex/internal/testskip"
	"logoindex/internal/testtree"
)

// makeCommand is make run in the repository's root with args, in an
// environment without the MAKEFLAGS of a make test around it. It skips
// in short mode, where building the command is too slow, and without
// make or go.
func makeCommand(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	if testing.Short() {
		t.Skip("make builds the command: skipped in short mode")
	}
	if _, err := exec.LookPath("make"); err != nil {
		testskip.Missing(t, "make", "apt-get install make")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go not on PATH: make runs it")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("make", append([]string{"--no-print-directory", "-C", root, "GO=" + goBin}, args...)...)
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k != "MAKEFLAGS" && k != "MFLAGS" && k != "MAKELEVEL" {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	return cmd
}

// TestMakeNew runs make new as the README's contributing section does,
// with a name that needs quoting, then without the variables it needs.
func TestMakeNew(t *testing.T) {
	src := filepath.Join(t.TempDir(), "source-logos")
	testtree.Write(t, src, map[string]string{"categories.yaml": "- {slug: devtools, name: Developer tools}\n- {slug: social, name: Social}\n"})
	cmd := makeCommand(t, "new", "SRC="+src, "SLUG=acme-corp", `NAME=Acme & Co's "best" $$x`, "HEX=#FF5500",
		"CATEGORY=devtools,social", "SOURCE=https://acme.example/press", "LICENSE=CC0-1.0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make new: %v\n%s", err, out)
	}
	if want := "created " + src + "/acme-corp/logo.yaml\n"; !strings.Contains(string(out), want) {
		t.Errorf("make new printed:\n%s\nwant %q", out, want)
	}
	data, err := os.ReadFile(filepath.Join(src, "acme-corp", "logo.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`name: "Acme & Co's \"best\" $x"`, `hex: "#FF5500"`, "categories: [devtools, social]",
		`source: "https://acme.example/press"`, `license: "CC0-1.0"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("logo.yaml lacks %s:\n%s", want, data)
		}
	}

	cmd = makeCommand(t, "new", "SRC="+src, "SLUG=other")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(stderr.String(), "make new needs NAME, HEX, CATEGORY; for example: make new SLUG=acme") {
		t.Errorf("make new without NAME, HEX, CATEGORY: %v, stderr:\n%s", err, &stderr)
	}
	if _, err := os.Stat(filepath.Join(src, "other")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("make new without its variables made a folder: %v", err)
	}
}

// s3Local is what make s3-local prints: the folder, the keys and the -to
// URL of its bucket.
type s3Local struct {
	dir, access, secret, to string
}

var (
	s3LocalDirRE  = regexp.MustCompile(`, from (\S+); Ctrl-C`)
	s3LocalKeysRE = regexp.MustCompile(`export AWS_ACCESS_KEY_ID=(\S+) AWS_SECRET_ACCESS_KEY=(\S+)`)
	s3LocalToRE   = regexp.MustCompile(`make publish BASE_URL=\S+ TO='([^']+)'`)
)

// readS3Local reads make s3-local's output up to its last line.
func readS3Local(t *testing.T, r io.Reader) s3Local {
	t.Helper()
	var got s3Local
	var all strings.Builder
	sc := bufio.NewScanner(r)
	for got.to == "" && sc.Scan() {
		line := sc.Text()
		all.WriteString(line + "\n")
		if m := s3LocalDirRE.FindStringSubmatch(line); m != nil {
			got.dir = m[1]
		}
		if m := s3LocalKeysRE.FindStringSubmatch(line); m != nil {
			got.access, got.secret = m[1], m[2]
		}
		if m := s3LocalToRE.FindStringSubmatch(line); m != nil {
			got.to = m[1]
		}
	}
	if got.dir == "" || got.access == "" || got.to == "" {
		t.Fatalf("make s3-local printed:\n%s", &all)
	}
	go io.Copy(io.Discard, r)
	return got
}

// TestMakeS3Local starts make s3-local, publishes a tree to the bucket it
// prints with the keys it prints and no region in the environment, reads
// an object's headers back with the curl line of docs/publishing.md, and
// stops it as Ctrl-C does: its folder is gone, and so is the server.
func TestMakeS3Local(t *testing.T) {
	bin := versitygwBinary(t)
	if _, err := exec.LookPath("curl"); err != nil {
		testskip.Missing(t, "curl", "apt-get install curl")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := makeCommand(t, "s3-local", "S3_ADDR="+addr, "TOOLS_BIN="+filepath.Dir(bin))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // a group of its own, as a terminal's job
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	})
	s3 := readS3Local(t, stdout)

	dir := inTempDir(t, goodSource())
	if code, _, stderr := runCmd("build", "-base-url", "https://logos.example.com"); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, nil, 0o600)
	for k, v := range map[string]string{
		"AWS_ACCESS_KEY_ID": s3.access, "AWS_SECRET_ACCESS_KEY": s3.secret, "AWS_REGION": "", "AWS_DEFAULT_REGION": "",
		"AWS_CONFIG_FILE": empty, "AWS_SHARED_CREDENTIALS_FILE": empty, "AWS_PROFILE": "",
		"AWS_SESSION_TOKEN": "", "AWS_EC2_METADATA_DISABLED": "true", "AWS_ENDPOINT_URL": "",
	} {
		t.Setenv(k, v)
	}
	if code, stdout, stderr := runCmd("publish", "-to", s3.to, "-base-url", "https://logos.example.com"); code != 0 {
		t.Fatalf("publish to %s: exit %d\n%s%s", s3.to, code, stdout, stderr)
	}
	url := "http://" + addr + "/logos/api/logos.json"
	head, err := exec.Command("curl", "-sI", "--aws-sigv4", "aws:amz:us-east-1:s3", "--user", s3.access+":"+s3.secret,
		"-H", "x-amz-content-sha256: UNSIGNED-PAYLOAD", url).CombinedOutput()
	if err != nil || !bytes.HasPrefix(head, []byte("HTTP/1.1 200")) ||
		!bytes.Contains(head, []byte("Content-Type: application/json; charset=utf-8")) ||
		!bytes.Contains(head, []byte("Cache-Control: public, max-age=300, stale-while-revalidate=86400")) {
		t.Errorf("curl -sI %s: %v\n%s", url, err, head)
	}

	// Ctrl-C: SIGINT to the whole group.
	syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
	select {
	case <-done:
		stopped = true
	case <-time.After(30 * time.Second):
		t.Fatalf("make s3-local still runs 30 s after SIGINT; stderr:\n%s", &stderr)
	}
	if _, err := os.Stat(s3.dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("after Ctrl-C, %s is still there: %v", s3.dir, err)
	}
	if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		c.Close()
		t.Errorf("after Ctrl-C, something still listens on %s", addr)
	}
}
