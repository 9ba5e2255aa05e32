//go:build unix

package main

// Tests of the Makefile targets a newcomer runs first, run through make
// itself.

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

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
