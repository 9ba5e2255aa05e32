package deploystub

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"logoindex/internal/testtree"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// readState parses the state file as the stub would.
func readState(t *testing.T, file string) *state {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	st, err := parseState(data)
	if err != nil {
		t.Fatalf("the stub wrote a state file it cannot read: %v\n%s", err, data)
	}
	return st
}

// TestIdempotencyAcrossRestart retries POSTs with their Idempotency-Keys
// after a restart on another port: each is replayed or refused as it would
// have been before, and none creates a second deployment or key.
func TestIdempotencyAcrossRestart(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	const body = `{"entrypoint":"a.js","env":{"A":"1"}}`
	// Shaped like a secret: the state file must not hold it.
	secretShaped := "dsk_" + strings.Repeat("0", 36)
	h := newHarness(t, Options{StateFile: file})
	first := h.do("POST", "/v2/deployments", testRootKey, body, "Idempotency-Key: deploy-1")
	firstKey := h.do("POST", "/v2/keys", testRootKey, `{"name":"ci"}`, "Idempotency-Key: "+secretShaped)
	_, other := h.createKey("other", ScopeDeploymentsWrite, ScopeDeploymentsRead)
	if first.status != 200 || firstKey.status != 200 {
		t.Fatalf("first requests: %d %s, %d %s", first.status, first.body, firstKey.status, firstKey.body)
	}
	h.ts.Close()

	h2 := newHarness(t, Options{StateFile: file, Clock: h.clock.Now})
	conflict := func(code string) [3]string { return [3]string{"idempotency_error", code, "Idempotency-Key"} }
	tests := []struct {
		name     string
		q        req
		status   int
		err      [3]string
		replayed string
	}{
		{"same request", req{"POST", "/v2/deployments", testRootKey, body, []string{"Idempotency-Key: deploy-1"}}, 200, [3]string{}, "true"},
		{"other body", req{"POST", "/v2/deployments", testRootKey, `{"entrypoint":"b.js"}`, []string{"Idempotency-Key: deploy-1"}}, 409, conflict("idempotency_key_reused"), ""},
		{"other endpoint", req{"POST", "/v2/keys", testRootKey, body, []string{"Idempotency-Key: deploy-1"}}, 409, conflict("idempotency_key_reused"), ""},
		{"issued key", req{"POST", "/v2/keys", testRootKey, `{"name":"ci"}`, []string{"Idempotency-Key: " + secretShaped}}, 409, conflict("key_already_issued"), ""},
		{"another API key", req{"POST", "/v2/deployments", other, body, []string{"Idempotency-Key: deploy-1"}}, 200, [3]string{}, ""},
	}
	for _, tt := range tests {
		r := h2.send(tt.q)
		got := []any{r.status, r.header.Get("Idempotent-Replayed")}
		if r.status != 200 {
			got = append(got, r.errorOf())
		}
		want := []any{tt.status, tt.replayed}
		if tt.status != 200 {
			want = append(want, tt.err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s after the restart (-want +got):\n%s\n%s", tt.name, diff, r.body)
		}
		if tt.replayed != "" && string(r.body) != string(first.body) {
			t.Errorf("%s: replayed %s, want the first answer %s", tt.name, r.body, first.body)
		}
		if tt.err[1] == "key_already_issued" && !strings.Contains(string(r.body), "issued key "+firstKey.str("id")+".") {
			t.Errorf("%s: the 409 does not name the key %s: %s", tt.name, firstKey.str("id"), r.body)
		}
	}
	if got := ids(h2.do("GET", "/v2/deployments", testRootKey, "")); len(got) != 2 {
		t.Errorf("deployments after the retries: %v, want the first and the other key's", got)
	}
	data, _ := os.ReadFile(file)
	for _, s := range []string{firstKey.str("secret"), secretShaped, testRootKey} {
		if strings.Contains(string(data), s) {
			t.Errorf("the state file holds %q", s)
		}
	}
}

// TestIdempotencyExpiresAcrossRestart restarts a day later: the key is
// forgotten, in memory and in the file, and the same request creates anew.
func TestIdempotencyExpiresAcrossRestart(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	h := newHarness(t, Options{StateFile: file})
	first := h.do("POST", "/v2/deployments", testRootKey, `{"entrypoint":"a.js"}`, "Idempotency-Key: k")
	h.clock.Add(idempotencyTTL)
	h2 := newHarness(t, Options{StateFile: file, Clock: h.clock.Now})
	if n := len(readState(t, file).Idempotency); n != 0 {
		t.Errorf("the restart kept %d expired Idempotency-Keys in the file", n)
	}
	again := h2.do("POST", "/v2/deployments", testRootKey, `{"entrypoint":"a.js"}`, "Idempotency-Key: k")
	if again.status != 200 || again.header.Get("Idempotent-Replayed") != "" || again.str("id") == first.str("id") {
		t.Errorf("after a day: %d replayed=%q %s, want a new deployment", again.status, again.header.Get("Idempotent-Replayed"), again.body)
	}
}

// TestFailedWriteKeepsNoReplay: a POST whose state write fails answers 500
// and keeps no replay, so its retry runs once the file can be written.
func TestFailedWriteKeepsNoReplay(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	os.Mkdir(dir, 0o700)
	file := filepath.Join(dir, "state.json")
	h := newHarness(t, Options{StateFile: file})
	os.RemoveAll(dir)
	q := req{"POST", "/v2/deployments", testRootKey, `{"entrypoint":"a.js"}`, []string{"Idempotency-Key: k"}}
	var got []string
	for range 2 {
		r := h.send(q)
		got = append(got, fmt.Sprint(r.status, " ", r.header.Get("Idempotent-Replayed")))
		os.Mkdir(dir, 0o700)
	}
	got = append(got, fmt.Sprint(len(readState(t, file).Idempotency), " kept"))
	r := h.send(q)
	got = append(got, fmt.Sprint(r.status, " ", r.header.Get("Idempotent-Replayed")))
	if diff := cmp.Diff([]string{"500 ", "200 ", "1 kept", "200 true"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// replayJSON is a state file record for Idempotency-Key n, expiring at exp.
func replayJSON(n int, exp time.Time) string {
	sum := hex.EncodeToString(fmt.Appendf(nil, "%032d", n))
	return fmt.Sprintf(`{"key_id":"key_root","idempotency_key_sha256":%q,"fingerprint":%q,"expires_at":%q,"response":"{}"}`,
		sum, sum, exp.Format(time.RFC3339Nano))
}

// TestReplaysBounded loads more Idempotency-Keys than the stub keeps, some
// expired: it keeps the newest unexpired ones, and writes only those back.
func TestReplaysBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 10,000 Idempotency-Keys; skipped with -short")
	}
	file := filepath.Join(t.TempDir(), "state.json")
	now := newFakeClock().Now()
	var recs []string
	for i := range maxIdempotencyEntries + 20 {
		exp := now.Add(time.Duration(i+1) * time.Second)
		if i%1000 == 0 {
			exp = now.Add(-time.Second) // expired
		}
		recs = append(recs, replayJSON(i, exp))
	}
	os.WriteFile(file, []byte(`{"version":1,"idempotency":[`+strings.Join(recs, ",")+`]}`), 0o600)
	h := newHarness(t, Options{StateFile: file})
	st := readState(t, file)
	var oldest time.Time
	for _, r := range st.Idempotency {
		if !r.ExpiresAt.After(now) {
			t.Fatalf("an expired record was kept: %+v", r)
		}
		if oldest.IsZero() || r.ExpiresAt.Before(oldest) {
			oldest = r.ExpiresAt
		}
	}
	// Of 10,020, 11 expired (0, 1000, ..., 10000) and the 9 oldest of the
	// rest (1 to 9) beyond the cap: from 10 on, 10,000 kept.
	got := []any{len(h.srv.idem.entries), len(st.Idempotency), oldest.Sub(now)}
	if diff := cmp.Diff([]any{maxIdempotencyEntries, maxIdempotencyEntries, 11 * time.Second}, got); diff != "" {
		t.Errorf("entries in memory, in the file, oldest expiry (-want +got):\n%s", diff)
	}
	// Two more POSTs: the oldest finished one makes room at the cap.
	for _, k := range []string{"x", "y"} {
		h.do("POST", "/v2/deployments", testRootKey, `{"entrypoint":"a.js"}`, "Idempotency-Key: "+k)
	}
	if n := len(readState(t, file).Idempotency); n != maxIdempotencyEntries {
		t.Errorf("%d records in the file, want %d", n, maxIdempotencyEntries)
	}
}

// TestStateFileDoesNotGrow: deleted deployments and expired Idempotency-Keys
// leave the file, which comes back to its size when empty.
func TestStateFileDoesNotGrow(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	h := newHarness(t, Options{StateFile: file})
	size := func() int64 {
		info, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		return info.Size()
	}
	h.do("DELETE", "/v2/deployments/"+h.createDeployment("first.js"), testRootKey, "")
	empty := size()
	for i := range 50 {
		r := h.do("POST", "/v2/deployments", testRootKey, `{"entrypoint":"a.js"}`, fmt.Sprint("Idempotency-Key: k", i))
		h.do("DELETE", "/v2/deployments/"+r.str("id"), testRootKey, "")
	}
	st := readState(t, file)
	got := []int{len(st.Deployments), len(st.Idempotency)}
	h.clock.Add(idempotencyTTL)
	h.do("DELETE", "/v2/deployments/"+h.createDeployment("last.js"), testRootKey, "")
	st = readState(t, file)
	got = append(got, len(st.Deployments), len(st.Idempotency), int(size()-empty))
	if diff := cmp.Diff([]int{0, 50, 0, 0, 0}, got); diff != "" {
		t.Errorf("deployments and records kept, then after a day, and the growth in bytes (-want +got):\n%s", diff)
	}
}

// TestStateFileSymlink gives the state file as a symbolic link: the stub
// writes through to the file it points at, atomically beside it, and the
// link stays a link.
func TestStateFileSymlink(t *testing.T) {
	tests := []struct {
		name string
		// setup makes the link to give, in dir, and returns it and the file
		// it stands for.
		setup func(t *testing.T, dir string) (link, target string)
	}{
		{"relative link", func(t *testing.T, dir string) (string, string) {
			mkdirs(t, dir, "real", "links")
			writeFile(t, filepath.Join(dir, "real", "state.json"), "")
			return symlink(t, "../real/state.json", filepath.Join(dir, "links", "state.json")), filepath.Join(dir, "real", "state.json")
		}},
		{"absolute link", func(t *testing.T, dir string) (string, string) {
			writeFile(t, filepath.Join(dir, "state.json"), `{"version":1}`)
			return symlink(t, filepath.Join(dir, "state.json"), filepath.Join(dir, "link.json")), filepath.Join(dir, "state.json")
		}},
		{"chain of links", func(t *testing.T, dir string) (string, string) {
			mkdirs(t, dir, "a", "b")
			symlink(t, "../b/state.json", filepath.Join(dir, "a", "second"))
			return symlink(t, "a/second", filepath.Join(dir, "first")), filepath.Join(dir, "b", "state.json")
		}},
		{"link to a file not made yet", func(t *testing.T, dir string) (string, string) {
			return symlink(t, "later.json", filepath.Join(dir, "state.json")), filepath.Join(dir, "later.json")
		}},
		{"link in a linked folder", func(t *testing.T, dir string) (string, string) {
			// ".." climbs out of the real folder, not the link's.
			mkdirs(t, dir, "real/sub", "real/other")
			symlink(t, "real/sub", filepath.Join(dir, "alias"))
			symlink(t, "../other/state.json", filepath.Join(dir, "real", "sub", "state.json"))
			return filepath.Join(dir, "alias", "state.json"), filepath.Join(dir, "real", "other", "state.json")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			link, target := tt.setup(t, dir)
			dest, _ := os.Readlink(link)
			h := newHarness(t, Options{StateFile: link})
			id := h.createDeployment("a.js")
			if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
				t.Fatalf("the link was replaced: %v %v", info.Mode(), err)
			}
			if now, _ := os.Readlink(link); now != dest {
				t.Errorf("the link points at %q, was %q", now, dest)
			}
			if st := readState(t, target); len(st.Deployments) != 1 || st.Deployments[0].ID != id {
				t.Errorf("the target holds %+v, want %s", st.Deployments, id)
			}
			if diff := cmp.Diff([]string{filepath.Base(target), filepath.Base(target) + ".lock"}, stateNames(t, filepath.Dir(target), filepath.Base(target))); diff != "" {
				t.Errorf("beside the target (-want +got):\n%s", diff)
			}
			// A restart through the link, or the target, finds the state.
			for _, name := range []string{link, target} {
				h2 := newHarness(t, Options{StateFile: name})
				if got := ids(h2.do("GET", "/v2/deployments", testRootKey, "")); len(got) != 1 || got[0] != id {
					t.Errorf("after a restart on %s: %v", name, got)
				}
			}
		})
	}
}

// stateNames lists the names in dir that start with base: the state file,
// its lock and any temporary file of it.
func stateNames(t *testing.T, dir, base string) []string {
	var out []string
	for _, n := range testtree.Names(t, dir) {
		if strings.HasPrefix(strings.TrimPrefix(n, "."), base) {
			out = append(out, n)
		}
	}
	return out
}

func mkdirs(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, n := range names {
		if err := os.MkdirAll(filepath.Join(dir, n), 0o700); err != nil {
			t.Fatal(err)
		}
	}
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, dest, link string) string {
	t.Helper()
	if err := os.Symlink(dest, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	return link
}

// TestRefusedStateFiles gives state files the stub could only replace, not
// write: each is an invalid option (exit status 2 from the command), and
// nothing is written or locked.
func TestRefusedStateFiles(t *testing.T) {
	const content = `{"version":1}`
	readOnly := func(mode os.FileMode) func(t *testing.T, dir string) string {
		return func(t *testing.T, dir string) string {
			name := filepath.Join(dir, "state.json")
			writeFile(t, name, content)
			os.Chmod(name, mode)
			return name
		}
	}
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) string
		want  string // after "deploystub: invalid option: state file <name> "
	}{
		{"read-only", readOnly(0o400), "is read-only (mode -r--------): the stub rewrites it after every change; make it writable or choose another file"},
		{"read-only for all", readOnly(0o444), "is read-only (mode -r--r--r--): the stub rewrites it after every change; make it writable or choose another file"},
		{"writable by others only", readOnly(0o066), "is read-only (mode ----rw-rw-): the stub rewrites it after every change; make it writable or choose another file"},
		{"read-only through a link", func(t *testing.T, dir string) string {
			readOnly(0o400)(t, dir)
			return symlink(t, "state.json", filepath.Join(dir, "link.json"))
		}, "is read-only (mode -r--------): the stub rewrites it after every change; make it writable or choose another file"},
		{"a folder", func(t *testing.T, dir string) string {
			mkdirs(t, dir, "state.json")
			return filepath.Join(dir, "state.json")
		}, "is not a regular file but a folder"},
		{"a named pipe", func(t *testing.T, dir string) string {
			name := filepath.Join(dir, "state.json")
			if err := mkfifo(name); err != nil {
				t.Skipf("no named pipes here: %v", err)
			}
			return name
		}, "is not a regular file but a named pipe"},
		{"a loop of links", func(t *testing.T, dir string) string {
			symlink(t, "b", filepath.Join(dir, "a"))
			return symlink(t, "a", filepath.Join(dir, "b"))
		}, "is a loop of, or a chain of more than 40, symbolic links"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			name := tt.setup(t, dir)
			before := testtree.Names(t, dir)
			_, err := NewServer(Options{StateFile: name})
			if err == nil {
				t.Fatal("NewServer accepted it")
			}
			if diff := cmp.Diff("deploystub: invalid option: state file "+name+" "+tt.want, err.Error()); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if !errors.Is(err, ErrInvalidOption) {
				t.Errorf("not an invalid option: %v", err)
			}
			if diff := cmp.Diff(before, testtree.Names(t, dir)); diff != "" {
				t.Errorf("the folder changed (-before +after):\n%s", diff)
			}
			// Read back only a regular file: a named pipe would block.
			if info, err := os.Stat(filepath.Join(dir, "state.json")); err == nil && info.Mode().IsRegular() {
				if data, _ := os.ReadFile(filepath.Join(dir, "state.json")); string(data) != content {
					t.Errorf("the state file changed: %s", data)
				}
			}
		})
	}
}

// TestHelperHoldStateFile is not a test: TestStateFileInUse runs the test
// binary with it as another process that holds a state file until its
// standard input ends.
func TestHelperHoldStateFile(t *testing.T) {
	file := os.Getenv("DEPLOYSTUB_TEST_HOLD")
	if file == "" {
		t.Skip("a helper process of TestStateFileInUse")
	}
	srv, err := NewServer(Options{StateFile: file, RootKey: testRootKey})
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	fmt.Println("holding")
	io.Copy(io.Discard, os.Stdin)
	srv.Close()
	os.Exit(0)
}

// holdInAnotherProcess starts a process that holds file; kill ends it.
func holdInAnotherProcess(t *testing.T, file string) (pid int, kill func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperHoldStateFile$")
	cmd.Env = append(os.Environ(), "DEPLOYSTUB_TEST_HOLD="+file)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() })
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if line != "holding\n" {
		t.Fatalf("the other process: %q", line)
	}
	return cmd.Process.Pid, func() {
		cmd.Process.Kill() // SIGKILL: nothing of it runs after
		cmd.Wait()
	}
}

// TestStateFileInUse starts a second stub on a state file another process
// holds: it is refused, naming the process, and the file is untouched;
// once that process is killed, the lock is gone with it.
func TestStateFileInUse(t *testing.T) {
	if !fileLocks {
		t.Skip("no flock on this system: a second process is not detected")
	}
	file := filepath.Join(t.TempDir(), "state.json")
	pid, kill := holdInAnotherProcess(t, file)
	before, _ := os.ReadFile(file)
	_, err := NewServer(Options{StateFile: file})
	want := fmt.Sprintf("deploystub: state file in use: %s is used by process %d (lock %[1]s.lock); stop it or choose another file", file, pid)
	if err == nil || err.Error() != want || !errors.Is(err, ErrStateFileInUse) || errors.Is(err, ErrInvalidOption) {
		t.Fatalf("NewServer on a held state file: %v\nwant %s", err, want)
	}
	if after, _ := os.ReadFile(file); string(after) != string(before) {
		t.Errorf("the refused stub changed the state file")
	}
	kill()
	h := newHarness(t, Options{StateFile: file})
	h.createDeployment("a.js")
}

// TestStateFileHandover starts Servers on one state file in one process,
// as a test that restarts the stub does: the newest owns the file, an
// older one's changes fail without writing it, and a damaged file leaves
// the owner as it was.
func TestStateFileHandover(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	old := newHarness(t, Options{StateFile: file})
	a := old.createDeployment("a.js")
	writeFile(t, file, "{damaged")
	if _, err := NewServer(Options{StateFile: file}); err == nil {
		t.Fatal("NewServer accepted a damaged file")
	}
	b := old.createDeployment("b.js") // the old Server still owns the file, and mends it

	h := newHarness(t, Options{StateFile: file})
	written, _ := os.ReadFile(file)
	create := func(h *harness) int {
		return h.do("POST", "/v2/deployments", testRootKey, `{"entrypoint":"c.js"}`).status
	}
	got := []any{ids(h.do("GET", "/v2/deployments", testRootKey, "")), create(old)}
	if now, _ := os.ReadFile(file); string(now) != string(written) {
		t.Error("the older Server wrote the state file")
	}
	old.srv.Close() // not its file any more: no effect
	got = append(got, create(h))
	h.srv.Close()
	got = append(got, create(h), h.srv.Close())
	h3 := newHarness(t, Options{StateFile: file})
	got = append(got, len(ids(h3.do("GET", "/v2/deployments", testRootKey, ""))))
	if diff := cmp.Diff([]any{[]string{b, a}, 500, 200, 500, nil, 3}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if !strings.Contains(old.logs.String(), "newer Server of this process") {
		t.Errorf("the older Server's failed write was not logged:\n%s", old.logs)
	}
}

// TestLeftoversOfKilledWrites starts on a state file beside the temporary
// files of writes killed before their rename: the state is the last one
// renamed, never a leftover, and the leftovers are removed.
func TestLeftoversOfKilledWrites(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "state.json")
	writeFile(t, file, `{"version":1,"deployments":[`+goodDep+`]}`)
	writeFile(t, filepath.Join(dir, ".state.json.tmp-1"), `{"version":1,"deployments":[`)
	writeFile(t, filepath.Join(dir, ".state.json.tmp-2"), `{"version":1,"deployments":[]}`)
	h := newHarness(t, Options{StateFile: file})
	if got := ids(h.do("GET", "/v2/deployments", testRootKey, "")); len(got) != 1 {
		t.Errorf("deployments %v, want the one renamed in place", got)
	}
	if diff := cmp.Diff([]string{"state.json", "state.json.lock"}, testtree.Names(t, dir)); diff != "" {
		t.Errorf("folder (-want +got):\n%s", diff)
	}
}

// TestStateRoundTrip writes a state with every kind of record and reads it
// back the same.
func TestStateRoundTrip(t *testing.T) {
	var st state
	content := `{"version":1,"last_id_time":7,"deployments":[` + goodDep + `],"keys":[` + goodKey + `],"idempotency":[` + goodReplay + `]}`
	if err := json.Unmarshal([]byte(content), &st); err != nil {
		t.Fatal(err)
	}
	data, err := encodeState(&st)
	if err != nil {
		t.Fatal(err)
	}
	back, err := parseState(data)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&st, back, cmp.AllowUnexported(deployment{})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestLockFileRemoved: with its lock file removed by hand and a second
// stub holding a new one, a stub answers its changes with 500 and writes
// nothing, so no change the other acknowledges is overwritten; once no one
// holds the new lock, it takes it and writes again.
func TestLockFileRemoved(t *testing.T) {
	if !fileLocks {
		t.Skip("no flock on this system")
	}
	file := filepath.Join(t.TempDir(), "state.json")
	h := newHarness(t, Options{StateFile: file})
	h.createDeployment("a.js")
	if err := os.Remove(file + ".lock"); err != nil {
		t.Fatal(err)
	}
	_, kill := holdInAnotherProcess(t, file)
	before, _ := os.ReadFile(file)
	r := h.do("POST", "/v2/deployments", testRootKey, `{"entrypoint":"b.js"}`)
	if r.status != 500 {
		t.Errorf("POST while another process holds the new lock file: %d %s, want 500", r.status, r.body)
	}
	if after, _ := os.ReadFile(file); string(after) != string(before) {
		t.Errorf("the stub wrote the state file another process holds")
	}
	if got := ids(h.do("GET", "/v2/deployments", testRootKey, "")); len(got) != 1 {
		t.Errorf("deployments: %v, want the first alone (the refused one rolled back)", got)
	}
	kill()
	h.createDeployment("c.js")
	if got := len(readState(t, file).Deployments); got != 2 {
		t.Errorf("after the other process ended, the state file holds %d deployments, want 2", got)
	}
}
