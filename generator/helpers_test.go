package generator

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"logoindex/internal/testtree"
)

var update = flag.Bool("update", false, "rewrite golden files with the current output")

// buildTree builds src into a new output folder and returns the files it
// holds, as a reader of the folder sees them.
func buildTree(t *testing.T, src fs.FS, opts Options) (map[string]string, *Result) {
	t.Helper()
	if opts.Out == "" {
		opts.Out = filepath.Join(t.TempDir(), "dist")
	}
	res, err := Build(context.Background(), src, opts)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return testtree.ReadFiles(t, opts.Out), res
}

// checkGolden compares got, whose names are relative to dir, with the
// files under dir/sub, or with -update replaces those files with got.
func checkGolden(t *testing.T, dir, sub string, got map[string]string) {
	t.Helper()
	root := filepath.Join(dir, sub)
	if *update {
		os.RemoveAll(root)
		testtree.Write(t, dir, got)
	}
	want := map[string]string{}
	for name, data := range testtree.ReadFiles(t, root) {
		want[path.Join(sub, name)] = data
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("output differs from %s (-want +got); run go test ./generator -run '^%s$' -update to accept, then read the diff:\n%s", root, t.Name(), diff)
	}
}

// only keeps the files of tree whose names keep accepts.
func only(tree map[string]string, keep func(name string) bool) map[string]string {
	out := map[string]string{}
	for name, data := range tree {
		if keep(name) {
			out[name] = data
		}
	}
	return out
}

// copyDir copies the folder src to a new temporary folder, so that a test
// can edit it and a build sees real inodes and mtimes.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "src")
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// writeFile writes name, with its folders.
func writeFile(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// editFile replaces old with new in the file name, by writing a new file
// over it (as an editor does), which fails the test when name lacks old.
func editFile(t *testing.T, name, old, new string) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s has no %q", name, old)
	}
	tmp := name + ".tmp"
	writeFile(t, tmp, []byte(strings.Replace(string(b), old, new, 1)))
	if err := os.Rename(tmp, name); err != nil {
		t.Fatal(err)
	}
}

// problemLines is the problems of a failed build, one a line, each after
// its code in brackets.
func problemLines(t *testing.T, err error) string {
	t.Helper()
	var probs ProblemList
	if !errors.As(err, &probs) {
		t.Fatalf("build failed without problems: %v", err)
	}
	var b strings.Builder
	for _, p := range probs {
		fmt.Fprintf(&b, "[%s] %s\n", p.Code, p.Error())
	}
	return b.String()
}

// buildProblems checks fsys (a build with nowhere to write), which must
// fail, and returns its problems as problemLines does. It fails the test
// if the check succeeds, takes too long, or reports a problem without a
// path or code.
func buildProblems(t *testing.T, fsys fs.FS) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := Build(ctx, fsys, Options{Dir: "src"})
	if err == nil {
		t.Fatalf("the check passed with %d logos; every case must be refused", res.Logos)
	}
	var probs ProblemList
	if !errors.As(err, &probs) {
		t.Fatalf("build failed without problems: %v", err)
	}
	if len(probs.Errors()) == 0 {
		t.Fatal("no errors, only warnings")
	}
	for _, p := range probs {
		if !strings.HasPrefix(p.Path, "src") || p.Msg == "" || p.Code == "" {
			t.Errorf("problem without a path, code or message: %#v", p)
		}
	}
	return problemLines(t, err)
}
