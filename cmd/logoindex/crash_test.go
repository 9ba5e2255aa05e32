package main

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"logoindex/internal/testskip"
	"logoindex/internal/testtree"
)

// buildBinary compiles the command without the race detector, which would
// make each of the hundred builds several times slower.
func buildBinary(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		testskip.Missing(t, "go on PATH", "put the go command on PATH: the crash test compiles the command it kills")
	}
	bin := filepath.Join(t.TempDir(), "logoindex")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestKilledBuildLeavesOldOrNewTree kills builds with SIGKILL at random
// moments, a hundred times, alternating between two outputs that differ in
// every JSON file. After each kill dist/ must be exactly the old tree or
// exactly the new one, and the next build must clean up what the killed one
// left.
//
// Without a cache each build writes a new temporary tree; with one, it
// rewrites the standby (every JSON file, as the base URL alternates) and
// exchanges it with dist/, and a kill can leave the standby half updated
// and the cache describing the state before.
func TestKilledBuildLeavesOldOrNewTree(t *testing.T) {
	if testing.Short() {
		t.Skip("kills 140 builds; skipped with -short")
	}
	bin := buildBinary(t)
	t.Run("no cache", func(t *testing.T) { killBuilds(t, bin, false, 100) })
	t.Run("cache", func(t *testing.T) { killBuilds(t, bin, true, 40) })
}

func killBuilds(t *testing.T, bin string, cached bool, kills int) {
	commandFor := func(t *testing.T, dir string, args ...string) *exec.Cmd {
		if !cached {
			args = append(args, "-no-cache")
		}
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		return cmd
	}
	dir := t.TempDir()
	src, err := filepath.Abs("../../source-logos")
	if err != nil {
		t.Fatal(err)
	}
	bases := []string{"https://a.example", "https://b.example"}
	trees := make([]map[string]string, 2)
	// full is how long a build takes; write, how long it has its
	// temporary tree, from the moment the tree appears to the exit.
	var full, write time.Duration
	for i, base := range bases {
		start := time.Now()
		run := startBuild(t, commandFor(t, dir, "build", "-src", src, "-out", "dist", "-base-url", base), dir)
		appeared := run.waitForTemp()
		if err := run.wait(); err != nil {
			t.Fatalf("build: %v", err)
		}
		full = max(full, time.Since(start))
		if !appeared.IsZero() {
			write = max(write, time.Since(appeared))
		}
		trees[i] = testtree.ReadFiles(t, filepath.Join(dir, "dist"))
	}
	if write == 0 {
		write = full / 4
	}
	if len(trees[0]) < 300 || cmp.Equal(trees[0], trees[1]) {
		t.Fatalf("the two trees must be large and differ (%d, %d files)", len(trees[0]), len(trees[1]))
	}

	rng := rand.New(rand.NewPCG(1, 2))
	current := 1 // trees[1] is in dist now
	if cached {
		// The first build above made the cache and the second the
		// standby tree; each build below is a rebuild that exchanges the
		// standby, which takes a fraction of the time of either, so kills
		// timed by them would mostly come after the build had finished,
		// and too few would hit one for the check below. Time such
		// rebuilds instead, three, and take the median, so that one slowed
		// by the machine's load does not set the window.
		var took []time.Duration
		for _, next := range []int{0, 1, 0} {
			start := time.Now()
			if out, err := commandFor(t, dir, "build", "-src", src, "-out", "dist", "-base-url", bases[next]).CombinedOutput(); err != nil {
				t.Fatalf("build: %v\n%s", err, out)
			}
			took = append(took, time.Since(start))
		}
		slices.Sort(took)
		full, current = took[1], 0
	}
	killedMidway, killedWriting := 0, 0
	for i := range kills {
		next := 1 - current
		run := startBuild(t, commandFor(t, dir, "build", "-src", src, "-out", "dist", "-base-url", bases[next]), dir)
		var err error
		if i%2 == 0 || cached {
			// Anywhere in the build.
			err = run.killAfter(time.Duration(rng.Int64N(int64(full))))
		} else {
			// Aimed at the write, whatever the machine's load: wait for
			// the temporary tree to appear, then kill within the window
			// a write takes (or let the build finish).
			run.waitForTemp()
			err = run.killAfter(time.Duration(rng.Int64N(int64(write * 5 / 4))))
		}
		if run.madeTemp() {
			killedWriting++ // this build had made its temporary tree
		}
		got := testtree.ReadFiles(t, filepath.Join(dir, "dist"))
		switch {
		case cmp.Equal(got, trees[next]):
			current = next
		case cmp.Equal(got, trees[current]):
		default:
			t.Fatalf("kill %d (%v): dist is neither the old nor the new tree (%d files)", i, err, len(got))
		}
		if err != nil {
			killedMidway++
		}
	}
	// The next complete build removes every leftover.
	if out, err := commandFor(t, dir, "build", "-src", src, "-out", "dist").CombinedOutput(); err != nil {
		t.Fatalf("build after the kills: %v\n%s", err, out)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, ".dist.logoindex"))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "tmp-") || e.Name() == "old" {
			t.Errorf("leftover %s survived the next build", e.Name())
		}
	}
	if cached {
		// The tree after the kills is what a build from scratch writes.
		if out, err := commandFor(t, dir, "build", "-src", src, "-out", "fresh", "-no-cache").CombinedOutput(); err != nil {
			t.Fatalf("build from scratch: %v\n%s", err, out)
		}
		if diff := cmp.Diff(testtree.ReadFiles(t, filepath.Join(dir, "fresh")), testtree.ReadFiles(t, filepath.Join(dir, "dist"))); diff != "" {
			t.Errorf("after the kills, a cached build differs from a build from scratch:\n%s", diff)
		}
		t.Logf("%d kills: %d before the build finished", kills, killedMidway)
		if killedMidway < kills/4 {
			t.Errorf("only %d of %d kills hit a build before it finished; the test is not testing much", killedMidway, kills)
		}
		return
	}
	t.Logf("%d kills: %d before the build finished, %d of those after it had made its temporary tree", kills, killedMidway, killedWriting)
	if killedWriting < 10 {
		t.Errorf("only %d of 100 kills hit a build while it wrote; the test is not testing much", killedWriting)
	}
}

// buildRun is one build process being watched for its temporary tree.
type buildRun struct {
	cmd *exec.Cmd
	dir string
	// before are the inodes of the standby tree and of dist when the
	// build started (0 for none): after a swap, the standby is the old
	// dist.
	before  [2]uint64
	started time.Time
	done    chan error
	err     error
	exited  bool
}

// inode is the inode of the folder dir/name, 0 when there is none, and
// when it last changed.
func inode(dir, name string) (uint64, time.Time) {
	info, err := os.Stat(filepath.Join(dir, name))
	if err != nil {
		return 0, time.Time{}
	}
	st := info.Sys().(*syscall.Stat_t)
	return st.Ino, time.Unix(st.Ctim.Unix())
}

// standby is where the standby tree of dir/dist is, which a build with
// -no-cache makes anew.
const standby = ".dist.logoindex/standby"

func startBuild(t *testing.T, cmd *exec.Cmd, dir string) *buildRun {
	t.Helper()
	r := &buildRun{cmd: cmd, dir: dir, done: make(chan error, 1)}
	r.before[0], _ = inode(dir, standby)
	r.before[1], _ = inode(dir, "dist")
	r.started = time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { r.done <- cmd.Wait() }()
	return r
}

// madeTemp reports whether the build made its tree: a standby tree that
// was not there when the build started.
// A folder made anew may take the number of the one the build removed
// before it: it is told by its change time.
func (r *buildRun) madeTemp() bool {
	ino, changed := inode(r.dir, standby)
	return ino != 0 && ino != r.before[1] && (ino != r.before[0] || !changed.Before(r.started))
}

// waitForTemp polls until the build's temporary tree appears, returning
// when it saw it, or the zero time if the build exited first.
func (r *buildRun) waitForTemp() time.Time {
	for {
		if r.madeTemp() {
			return time.Now()
		}
		select {
		case r.err = <-r.done:
			r.exited = true
			return time.Time{}
		case <-time.After(200 * time.Microsecond):
		}
	}
}

// killAfter sends SIGKILL after d unless the build exits first, and
// returns how it ended.
func (r *buildRun) killAfter(d time.Duration) error {
	if r.exited {
		return r.err
	}
	select {
	case r.err = <-r.done:
	case <-time.After(d):
		r.cmd.Process.Signal(syscall.SIGKILL)
		r.err = <-r.done
	}
	r.exited = true
	return r.err
}

func (r *buildRun) wait() error { return r.killAfter(time.Hour) }
