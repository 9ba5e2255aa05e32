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
)

// buildBinary compiles the command without the race detector, which would
// make each of the hundred builds several times slower.
func buildBinary(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go not on PATH: the crash test compiles the command it kills")
	}
	bin := filepath.Join(t.TempDir(), "logoindex")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// treeContents maps every file under dir to its content; nil if dir is
// missing.
func treeContents(t *testing.T, dir string) map[string]string {
	t.Helper()
	if _, err := os.Stat(dir); err != nil {
		return nil
	}
	out := map[string]string{}
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestKilledBuildLeavesOldOrNewTree kills builds with SIGKILL at random
// moments, a hundred times, alternating between two outputs that differ in
// every JSON file. After each kill dist/ must be exactly the old tree or
// exactly the new one, and the next build must clean up what the killed one
// left.
func TestKilledBuildLeavesOldOrNewTree(t *testing.T) {
	if testing.Short() {
		t.Skip("kills 100 builds; skipped with -short")
	}
	bin := buildBinary(t)
	commandFor := func(t *testing.T, dir string, args ...string) *exec.Cmd {
		cmd := exec.Command(bin, append(args, "-no-cache")...)
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
	var full time.Duration
	for i, base := range bases {
		start := time.Now()
		out, err := commandFor(t, dir, "build", "-src", src, "-out", "dist", "-base-url", base).CombinedOutput()
		if err != nil {
			t.Fatalf("build: %v\n%s", err, out)
		}
		full = max(full, time.Since(start))
		trees[i] = treeContents(t, filepath.Join(dir, "dist"))
	}
	if len(trees[0]) < 300 || cmp.Equal(trees[0], trees[1]) {
		t.Fatalf("the two trees must be large and differ (%d, %d files)", len(trees[0]), len(trees[1]))
	}

	rng := rand.New(rand.NewPCG(1, 2))
	current := 1 // trees[1] is in dist now
	killedMidway, killedWriting := 0, 0
	for i := range 100 {
		next := 1 - current
		cmd := commandFor(t, dir, "build", "-src", src, "-out", "dist", "-base-url", bases[next])
		before, _ := filepath.Glob(filepath.Join(dir, ".dist-tmp-*"))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Most of a build's time is reading and checking; aim most kills
		// at the second half, where it writes and swaps, and let some
		// builds finish.
		time.Sleep(full/3 + time.Duration(rng.Int64N(int64(full))))
		cmd.Process.Signal(syscall.SIGKILL)
		err := cmd.Wait()
		after, _ := filepath.Glob(filepath.Join(dir, ".dist-tmp-*"))
		for _, name := range after {
			if !slices.Contains(before, name) {
				killedWriting++ // this build had made its temporary tree
				break
			}
		}
		got := treeContents(t, filepath.Join(dir, "dist"))
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
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".dist-") {
			t.Errorf("leftover %s survived the next build", e.Name())
		}
	}
	t.Logf("100 kills: %d before the build finished, %d while it was writing", killedMidway, killedWriting)
	if killedWriting < 10 {
		t.Errorf("only %d of 100 kills hit a build while it wrote; the test is not testing much", killedWriting)
	}
}
