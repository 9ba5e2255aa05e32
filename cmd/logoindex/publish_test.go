package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"logoindex/internal/headers"
	"logoindex/internal/testtree"
)

// TestMain builds logoindex-publish, the program `logoindex publish`
// runs, and points the command at it.
func TestMain(m *testing.M) {
	os.Exit(func() int {
		dir, err := os.MkdirTemp("", "logoindex-publish-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		bin := filepath.Join(dir, publishProgram)
		if out, err := exec.Command("go", "build", "-o", bin, "../logoindex-publish").CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "building %s: %v\n%s", publishProgram, err, out)
			return 1
		}
		os.Setenv(publishProgramEnv, bin)
		return m.Run()
	}())
}

// TestPublishProgramMissing: without logoindex-publish, publish says
// where it looked and how to get it; its -h needs no second program.
func TestPublishProgramMissing(t *testing.T) {
	t.Setenv(publishProgramEnv, "")
	t.Setenv("PATH", t.TempDir())
	code, _, stderr := runCmd("publish", "-to", "file:///tmp/bucket")
	if want := "logoindex: publish is done by the program logoindex-publish, which is neither in "; code != 1 || !strings.HasPrefix(stderr, want) || !strings.Contains(stderr, "go run ./cmd/logoindex-publish -to URL") {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and %q", code, stderr, want)
	}
	code, _, stderr = runCmd("publish", "-h")
	if want := "usage: logoindex publish -to URL [-base-url URL]"; code != 0 || !strings.HasPrefix(stderr, want) {
		t.Errorf("-h: exit %d, stderr:\n%s\nwant exit 0 and %q", code, stderr, want)
	}
}

// TestPublishBuildsProgram: with no logoindex-publish to run, publish
// in logoindex's source (as `go run ./cmd/logoindex publish` is) builds
// one and runs it.
func TestPublishBuildsProgram(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	src, err := filepath.Abs("../../generator/testdata/golden/src")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	dist := filepath.Join(dir, "dist")
	if code, _, stderr := runCmd("build", "-src", src, "-out", dist, "-base-url", "https://logos.example.com"); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	// go and the C compiler (without it go turns cgo off and compiles
	// everything anew, which is slow), and no logoindex-publish.
	path := []string{filepath.Dir(goTool)}
	if cc, err := exec.LookPath("gcc"); err == nil {
		path = append(path, filepath.Dir(cc))
	}
	t.Setenv(publishProgramEnv, "")
	t.Setenv("PATH", strings.Join(path, string(os.PathListSeparator)))
	to := "file://" + filepath.ToSlash(filepath.Join(dir, "bucket")) + "?create_dir=1"
	code, stdout, stderr := runCmd("publish", "-dir", dist, "-to", to, "-dry-run")
	if code != 0 || !strings.Contains(stderr, "logoindex: logoindex-publish is not installed; building it from ./cmd/logoindex-publish") || !strings.Contains(stdout, "dry run: would upload ") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// TestPublishBeside runs the built logoindex with logoindex-publish beside
// it, as make and go install leave them: publish replaces the process
// with the second program, whose output and exit status are the
// command's.
func TestPublishBeside(t *testing.T) {
	bin := buildBinary(t)
	helper, err := os.ReadFile(os.Getenv(publishProgramEnv))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(bin), publishProgram), helper, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(publishProgramEnv, "")
	t.Setenv("PATH", t.TempDir()) // not found there
	src, err := filepath.Abs("../../generator/testdata/golden/src")
	if err != nil {
		t.Fatal(err)
	}
	dir := inTempDir(t, nil)
	run := func(args ...string) (int, string) {
		cmd := exec.Command(bin, args...)
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatal(err)
		}
		return cmd.ProcessState.ExitCode(), string(out)
	}
	if code, out := run("build", "-src", src, "-out", "dist", "-base-url", "https://logos.example.com"); code != 0 {
		t.Fatalf("build: exit %d\n%s", code, out)
	}
	to := "file://" + filepath.ToSlash(filepath.Join(dir, "bucket")) + "?create_dir=1"
	if code, out := run("publish", "-to", to, "-dry-run"); code != 0 || !strings.Contains(out, "dry run: would upload ") {
		t.Errorf("publish -dry-run: exit %d\n%s", code, out)
	}
	if code, out := run("publish", "-to", "ftp://host/x"); code != 2 || !strings.Contains(out, `logoindex: -to "ftp://host/x": unknown scheme "ftp"`) {
		t.Errorf("publish -to ftp://: exit %d\n%s\nwant exit 2", code, out)
	}
}

// published maps the files of a built tree that a bucket should hold
// (all but _headers, _redirects and hidden files, those in hidden folders
// included) to their content. Of a folder bucket, it is what the bucket
// holds but its record and lease.
func published(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name, data := range testtree.ReadFiles(t, dir) {
		name = filepath.ToSlash(name)
		if name == "_headers" || name == "_redirects" || hidden(name) {
			continue
		}
		out[name] = data
	}
	return out
}

// hidden reports whether a slash-separated path has a part that starts
// with a dot.
func hidden(name string) bool {
	return strings.HasPrefix(name, ".") || strings.Contains(name, "/.")
}

// TestPublishToFolder publishes the golden sources through the command to
// a file:// bucket and reads the objects and the headers fileblob keeps
// beside them.
func TestPublishToFolder(t *testing.T) {
	src, err := filepath.Abs("../../generator/testdata/golden/src")
	if err != nil {
		t.Fatal(err)
	}
	dir := inTempDir(t, nil)
	if code, _, stderr := runCmd("build", "-src", src, "-out", "dist", "-base-url", "https://logos.example.com"); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	bucket := filepath.Join(dir, "bucket")
	to := "file://" + filepath.ToSlash(bucket) + "?create_dir=1"

	code, stdout, stderr := runCmd("publish", "-to", to, "-dry-run")
	if code != 0 || !strings.Contains(stdout, "would upload api/logos.json (") || !strings.Contains(stdout, "dry run: would upload ") {
		t.Fatalf("dry run: exit %d\n%s%s", code, stdout, stderr)
	}
	if _, err := os.Stat(bucket); err == nil {
		if entries, _ := os.ReadDir(bucket); len(entries) > 0 {
			t.Fatalf("a dry run wrote %v", entries)
		}
	}

	code, stdout, stderr = runCmd("publish", "-to", to)
	want := published(t, "dist")
	if code != 0 || !strings.Contains(stdout, "published dist to "+to+": uploaded ") || stderr != "" {
		t.Fatalf("publish: exit %d\n%s%s", code, stdout, stderr)
	}
	// The plan, one line per file, the indexes last, and the summary.
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if !strings.HasPrefix(lines[0], fmt.Sprintf("to do: upload %d files (", len(want))) || len(lines) != len(want)+2 {
		t.Errorf("%d lines for %d files:\n%s", len(lines), len(want), stdout)
	}
	// The indexes: logos.json, registry.json, the gallery and the sitemap.
	for _, l := range lines[len(lines)-5 : len(lines)-1] {
		if !strings.Contains(l, "api/logos.json") && !strings.Contains(l, "r/registry.json") && !strings.Contains(l, "uploaded index.html") && !strings.Contains(l, "uploaded sitemap.xml") {
			t.Errorf("the indexes should come last, got %q", l)
		}
	}
	got := published(t, bucket)
	delete(got, filepath.ToSlash(filepath.Base(bucket)))
	for name := range got {
		if strings.HasSuffix(name, ".attrs") {
			delete(got, name)
		}
	}
	if !mapsEqual(want, got) {
		t.Errorf("bucket holds %v\nwant %v", slices.Sorted(keys(got)), slices.Sorted(keys(want)))
	}
	for name := range want {
		var attrs struct {
			ContentType  string `json:"user.content_type"`
			CacheControl string `json:"user.cache_control"`
		}
		data, err := os.ReadFile(filepath.Join(bucket, filepath.FromSlash(name)) + ".attrs")
		if err == nil {
			err = json.Unmarshal(data, &attrs)
		}
		ctype, cache := headers.Site.Object(name)
		if err != nil || attrs.ContentType != ctype || attrs.CacheControl != cache {
			t.Errorf("%s: headers %+v (%v), want %q, %q", name, attrs, err, ctype, cache)
		}
	}

	code, stdout, _ = runCmd("publish", "-to", to)
	if code != 0 || !strings.HasPrefix(stdout, "nothing to publish: "+to+" already holds dist (") {
		t.Errorf("second publish: exit %d\n%s", code, stdout)
	}

	// A file of the folder edited in place, same size: its .attrs keeps
	// the MD5 of the upload, so -verify reads every object back.
	icon := filepath.Join(bucket, "logos", "acme", "icon.svg")
	data, err := os.ReadFile(icon)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(icon, []byte(strings.Replace(string(data), "<svg", "<SVG", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runCmd("publish", "-to", to, "-verify")
	if code != 0 || !strings.Contains(stdout+stderr, "logos/acme/icon.svg: other bytes (read back)") {
		t.Errorf("publish -verify after an edit in the folder: exit %d\n%s%s", code, stdout, stderr)
	}
	if got, _ := os.ReadFile(icon); string(got) != string(data) {
		t.Errorf("publish -verify left %s as %q", icon, got)
	}
}

func TestPublishRefusesLocalhostTree(t *testing.T) {
	src, err := filepath.Abs("../../generator/testdata/golden/src")
	if err != nil {
		t.Fatal(err)
	}
	dir := inTempDir(t, nil)
	// The default base URL, which the old workflow published.
	if code, _, stderr := runCmd("build", "-src", src); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	bucket := filepath.Join(dir, "bucket")
	if err := os.Mkdir(bucket, 0o755); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd("publish", "-to", "file://"+bucket)
	if code != 1 || stdout != "" || !strings.HasPrefix(stderr, "logoindex: refusing to publish: the tree was built for http://localhost:8080, and localhost is this machine") {
		t.Errorf("exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
	if entries, _ := os.ReadDir(bucket); len(entries) > 0 {
		t.Errorf("a refused publish wrote %v", entries)
	}
	if code, _, stderr := runCmd("publish", "-to", "file://"+bucket, "-force"); code != 0 {
		t.Errorf("with -force: exit %d: %s", code, stderr)
	}
}

func TestPublishUsageErrors(t *testing.T) {
	inTempDir(t, map[string]string{"dist/index.html": "x", "notes.txt": "x"})
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"publish"}, 2, "logoindex: publish needs -to, the bucket URL"},
		{[]string{"publish", "-to", "s3://KEY:SECRET@bucket"}, 2, "logoindex: -to must not hold credentials"},
		{[]string{"publish", "-to", "ftp://host/x"}, 2, `logoindex: -to "ftp://host/x": unknown scheme "ftp"`},
		{[]string{"publish", "-to", "bucket"}, 2, `logoindex: -to "bucket" is not a bucket URL`},
		{[]string{"publish", "-to", "file:///tmp", "-dir", "nope"}, 2, "logoindex: -dir nope is not a folder"},
		{[]string{"publish", "-to", "file:///tmp", "-dir", "notes.txt"}, 2, "logoindex: -dir notes.txt is not a folder"},
		{[]string{"publish", "-to", "file:///tmp", "-workers", "0"}, 2, "logoindex: -workers must be at least 1"},
		{[]string{"publish", "-to", "file:///tmp", "-base-url", "logos.example.com"}, 2, `logoindex: -base-url "logos.example.com" must be an absolute http(s) URL`},
		{[]string{"publish", "-to", "file:///tmp", "extra"}, 2, `logoindex: publish takes no arguments`},
		// A tree that build did not write: every problem, nothing sent.
		{[]string{"publish", "-to", "file:///nonexistent-bucket"}, 1, "dist/.logoindex-build.json: missing, so the tree was not written by logoindex build"},
	} {
		code, _, stderr := runCmd(tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr:\n%s\nwant exit %d and %q", tc.args, code, stderr, tc.code, tc.want)
		}
	}
}

func keys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
