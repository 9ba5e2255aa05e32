package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"logoindex/internal/syncio"
	"logoindex/internal/testskip"
)

// buildStub compiles the command, without the race detector, for the tests
// that run it as a process of its own.
func buildStub(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		testskip.Missing(t, "go on PATH", "put the go command on PATH: the test compiles the command it runs")
	}
	bin := filepath.Join(t.TempDir(), "deploystub")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// process is the stub running as a process.
type process struct {
	cmd    *exec.Cmd
	url    string
	stderr *syncio.Buffer
	exited chan error
}

// startProcess runs bin on a free port with the given state file and
// waits for its listening line; with listens false it expects none and
// returns once the process has exited.
func startProcess(t *testing.T, bin, stateFile string, listens bool) *process {
	t.Helper()
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-root-key", rootKey, "-state-file", stateFile)
	p := &process{cmd: cmd, stderr: &syncio.Buffer{}, exited: make(chan error, 1)}
	cmd.Stderr = p.stderr
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); <-p.exited })
	lines := bufio.NewScanner(stdout)
	var once sync.Once
	wait := func() { once.Do(func() { p.exited <- cmd.Wait() }) }
	if !listens {
		got := []string{}
		for lines.Scan() {
			got = append(got, lines.Text())
		}
		wait()
		if len(got) != 0 {
			t.Errorf("stdout %q, want nothing: it must not listen", got)
		}
		return p
	}
	if !lines.Scan() {
		wait()
		t.Fatalf("no listening line; stderr:\n%s", p.stderr)
	}
	p.url, _ = strings.CutPrefix(lines.Text(), "deploystub listening on ")
	go func() {
		for lines.Scan() {
		}
		wait()
	}()
	return p
}

// kill ends the process with SIGKILL: nothing of it runs after.
func (p *process) kill(t *testing.T) {
	t.Helper()
	p.cmd.Process.Kill()
	select {
	case <-p.exited:
	case <-time.After(10 * time.Second):
		t.Fatal("a killed stub did not exit")
	}
	p.exited <- nil // for the cleanup
}

// TestProcessStateFile runs the stub as a process: every POST it answered
// survives kill -9, a retry with the same Idempotency-Key after the restart
// is replayed, a second stub on the same state file is refused while the
// first runs, and a read-only state file is refused before listening.
func TestProcessStateFile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs it as processes; skipped with -short")
	}
	bin := buildStub(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "state.json")

	a := startProcess(t, bin, file, true)
	first := map[string]string{}
	for i := range 20 {
		key, body := fmt.Sprint("deploy-", i), fmt.Sprintf(`{"entrypoint":"f%d.js"}`, i)
		status, _, resp := post(t, a.url+"/v2/deployments", rootKey, body, key)
		if status != 200 {
			t.Fatalf("POST %s: %d %s", key, status, resp)
		}
		first[key] = resp
	}
	a.kill(t)

	b := startProcess(t, bin, file, true)
	var mismatched []string
	for i := range 20 {
		key, body := fmt.Sprint("deploy-", i), fmt.Sprintf(`{"entrypoint":"f%d.js"}`, i)
		if status, replayed, resp := post(t, b.url+"/v2/deployments", rootKey, body, key); status != 200 || replayed != "true" || resp != first[key] {
			mismatched = append(mismatched, fmt.Sprintf("%s: %d replayed=%q %s", key, status, replayed, resp))
		}
	}
	if len(mismatched) > 0 {
		t.Errorf("retries after kill -9 and a restart, want each replayed:\n%s", strings.Join(mismatched, "\n"))
	}
	if _, list := call(t, "GET", b.url+"/v2/deployments?limit=100", rootKey, ""); len(list["data"].([]any)) != 20 {
		t.Errorf("%d deployments after the restart, want the 20 acknowledged", len(list["data"].([]any)))
	}

	readOnly := filepath.Join(dir, "read-only.json")
	os.WriteFile(readOnly, []byte(`{"version":1}`), 0o444)
	d := startProcess(t, bin, readOnly, false)
	want := "deploystub: invalid option: state file " + readOnly + " is read-only (mode -r--r--r--): the stub rewrites it after every change; make it writable or choose another file\n"
	got := []any{d.cmd.ProcessState.ExitCode(), d.stderr.String()}
	if diff := cmp.Diff([]any{2, want}, got); diff != "" {
		t.Errorf("a read-only state file: exit status and stderr (-want +got):\n%s", diff)
	}

	// A second stub on the same file, while b runs.
	if runtime.GOOS == "windows" || runtime.GOOS == "solaris" || runtime.GOOS == "illumos" || runtime.GOOS == "aix" {
		t.Skip("no flock on this system: a second stub is not detected")
	}
	c := startProcess(t, bin, file, false)
	want = fmt.Sprintf("deploystub: state file in use: %s is used by process %d (lock %[1]s.lock); stop it or choose another file\n", file, b.cmd.Process.Pid)
	got = []any{c.cmd.ProcessState.ExitCode(), c.stderr.String()}
	if diff := cmp.Diff([]any{1, want}, got); diff != "" {
		t.Errorf("a second stub on the state file: exit status and stderr (-want +got):\n%s", diff)
	}
	if status, _ := call(t, "GET", b.url+"/v2/deployments", rootKey, ""); status != 200 {
		t.Errorf("the first stub after the second was refused: %d", status)
	}
}
