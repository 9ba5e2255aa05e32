package generator

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator/render"
	"logoindex/internal/testtree"
)

// incCrashEnv names the build a child process of TestKilledRebuilds
// makes (incCrashBuild, as JSON).
const incCrashEnv = "LOGOINDEX_TEST_KILLED_REBUILD"

// incCrashBuild is the build of a child process.
type incCrashBuild struct {
	Src, Out, Base string
}

func (b incCrashBuild) options() Options {
	return Options{Dir: "src", Out: b.Out, Render: render.Options{BaseURL: b.Base}}
}

// TestKilledRebuildsChild is the child process of TestKilledRebuilds: it
// says "building" on its standard output, then builds.
func TestKilledRebuildsChild(t *testing.T) {
	spec := os.Getenv(incCrashEnv)
	if spec == "" {
		t.Skip("the child process of TestKilledRebuilds")
	}
	var b incCrashBuild
	if err := json.Unmarshal([]byte(spec), &b); err != nil {
		t.Fatal(err)
	}
	fmt.Println("building")
	if _, err := Build(context.Background(), os.DirFS(b.Src), b.options()); err != nil {
		t.Fatal(err)
	}
}

// incCrashState is one of the trees the killed builds alternate between:
// every JSON file differs between the two base URLs (a rebuild that makes
// every logo anew), and a logo's files between the two names (a rebuild
// that makes one).
type incCrashState struct {
	base    int // index in incCrashBases
	renamed bool
}

var incCrashBases = []string{"https://a.example", "https://b.example"}

// TestKilledRebuilds runs rebuilds in a child process and kills it with
// SIGKILL at a random moment of each, many times: the output must always
// be the whole old tree or the whole new one, and the next build must
// succeed and write what a clean build writes.
func TestKilledRebuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("kills 30 builds of the shipped collection; skipped with -short")
	}
	if runtime.GOOS == "windows" {
		t.Skip("no SIGKILL")
	}
	src := copyDir(t, "../source-logos")
	out := filepath.Join(t.TempDir(), "dist")
	renamed := false
	setSources := func(s incCrashState) {
		if s.renamed != renamed {
			from, to := "name: Docker\n", "name: Docker Inc\n"
			if renamed {
				from, to = to, from
			}
			editFile(t, filepath.Join(src, "docker/logo.yaml"), from, to)
			renamed = s.renamed
		}
	}
	build := func(s incCrashState) incCrashBuild {
		return incCrashBuild{Src: src, Out: out, Base: incCrashBases[s.base]}
	}
	states := []incCrashState{{0, false}, {1, false}, {0, true}, {1, true}}
	want := map[incCrashState]string{}
	for _, s := range states {
		setSources(s)
		want[s] = incDigest(incClean(t, src, build(s).options()).tree)
	}

	// The first build, then a rebuild of each kind, timed: the kills aim
	// at the time a rebuild of the kind takes once the child started it.
	current := states[0]
	var took [2]time.Duration // a new base URL, a new name
	for i, s := range []incCrashState{states[0], states[1], states[3]} {
		setSources(s)
		d, killed, err := incRunChild(t, build(s), time.Hour)
		if killed || err != nil {
			t.Fatalf("a build not killed: %v", err)
		}
		if i > 0 {
			took[i-1] = d
		}
		current = s
	}
	rng := rand.New(rand.NewPCG(3, 5))
	kills, midway := 30, 0
	for i := range kills {
		next := states[rng.IntN(len(states))]
		for next == current {
			next = states[rng.IntN(len(states))]
		}
		setSources(next)
		kind := 1 // a new name
		if next.base != current.base {
			kind = 0
		}
		after := time.Duration(rng.Int64N(int64(took[kind] * 5 / 4)))
		d, killed, err := incRunChild(t, build(next), after)
		if err != nil {
			t.Fatalf("kill %d: the build failed: %v", i, err)
		}
		got := incDigest(testtree.Read(t, out))
		switch got {
		case want[next]:
			current = next
		case want[current]:
			if !killed {
				t.Fatalf("kill %d: a build that finished left the old tree", i)
			}
		default:
			t.Fatalf("kill %d (%v, killed %v after %v): the output is neither the old tree nor the new one", i, next, killed, d)
		}
		if killed {
			midway++
		} else {
			took[kind] = d // the window follows the machine's load
		}
	}
	t.Logf("%d kills: %d before the build finished (a rebuild took %v for a new base URL, %v for a name)", kills, midway, took[0], took[1])
	if midway < kills/4 {
		t.Errorf("only %d of %d kills came before the build finished: the test is not testing much", midway, kills)
	}

	// The next build succeeds and writes a clean build's tree, leaving
	// nothing behind; the one after it has nothing to do.
	for i, s := range []incCrashState{current, states[(slices.Index(states, current)+1)%len(states)], states[0]} {
		setSources(s)
		if _, err := Build(context.Background(), os.DirFS(src), build(s).options()); err != nil {
			t.Fatalf("build %d after the kills: %v", i, err)
		}
		if diff := cmp.Diff(incClean(t, src, build(s).options()).tree, testtree.Read(t, out)); diff != "" {
			t.Errorf("build %d after the kills differs from a clean build (-clean +got):\n%s", i, diff)
		}
		if extra := incLeftovers(t, out); len(extra) > 0 {
			t.Errorf("build %d after the kills left %q", i, extra)
		}
	}
	res, err := Build(context.Background(), os.DirFS(src), build(states[0]).options())
	if err != nil || !res.UpToDate {
		t.Errorf("the build after that: %+v, %v; want nothing to do", res, err)
	}
}

// incRunChild runs b in a child process and kills it after killAfter
// from the moment it starts building, unless it exits first. It returns
// how long the build ran, whether it was killed, and the error of a
// child that failed.
func incRunChild(t *testing.T, b incCrashBuild, killAfter time.Duration) (time.Duration, bool, error) {
	t.Helper()
	spec, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledRebuildsChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), incCrashEnv+"="+string(spec))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	var output strings.Builder
	for lines.Scan() {
		output.WriteString(lines.Text() + "\n")
		if lines.Text() == "building" {
			break
		}
	}
	started := time.Now()
	done := make(chan error, 1)
	go func() {
		for lines.Scan() {
			output.WriteString(lines.Text() + "\n")
		}
		done <- cmd.Wait()
	}()
	killed := false
	select {
	case err = <-done:
	case <-time.After(killAfter):
		cmd.Process.Signal(syscall.SIGKILL)
		err = <-done
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
				killed, err = true, nil
			}
		}
	}
	took := time.Since(started)
	if err != nil {
		return took, killed, fmt.Errorf("%v\n%s%s", err, output.String(), stderr.String())
	}
	return took, killed, nil
}
