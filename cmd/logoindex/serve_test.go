package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator/render"
	"logoindex/internal/cli"
	"logoindex/internal/testtree"
)

func TestServeUsageErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		want string // in stderr
	}{
		{[]string{"serve", "extra"}, 2, `logoindex: serve takes no arguments, got ["extra"]`},
		{[]string{"serve", "-dir", ""}, 2, "logoindex: -dir must name a folder"},
		{[]string{"serve", "-watch", "-src", filepath.Join(dir, "missing")}, 2, "is not a folder"},
		{[]string{"serve", "-watch", "-src", dir, "-base-url", "ftp://x"}, 2, "-base-url"},
		{[]string{"serve", "-addr", "nonsense"}, 1, "logoindex: serve: listen tcp: address nonsense: missing port in address"},
	} {
		code, _, stderr := runCmd(tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit %d and %q", tc.args, code, stderr, tc.code, tc.want)
		}
	}
}

// serving runs `logoindex serve` until the test ends and returns its URL
// and output.
func serving(t *testing.T, args ...string) (base string, stdout, stderr *lineLog) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	stdout, stderr = newLineLog(), newLineLog()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"serve", "-addr", "127.0.0.1:0"}, args...), stdout, stderr)
	}()
	t.Cleanup(func() {
		cancel()
		// Serve ends only when stopped, and says so: main turns the
		// signal that stopped it into the exit status.
		if err := <-done; err != context.Cause(ctx) {
			t.Errorf("serve returned %v, want %v", err, context.Cause(ctx))
		}
	})
	m, err := stdout.waitFor(ctx, regexp.MustCompile(`^serving .* at (http://127\.0\.0\.1:\d+)/ `))
	if err != nil {
		t.Fatal(err)
	}
	return m[1], stdout, stderr
}

// watching runs `logoindex serve -watch` on a copy of goodSource until the
// test ends, with args added, and returns once the first build is served
// (failing the test if ctx ends first): its URL, its source and output
// folders, and its output.
func watching(t *testing.T, ctx context.Context, args ...string) (base, src, dist string, stdout, stderr *lineLog) {
	t.Helper()
	dir := t.TempDir()
	testtree.Write(t, dir, goodSource())
	src, dist = filepath.Join(dir, "source-logos"), filepath.Join(dir, "dist")
	base, stdout, stderr = serving(t, append([]string{"-dir", dist, "-watch", "-src", src}, args...)...)
	if _, err := stdout.waitFor(ctx, regexp.MustCompile(`^built 1 logo `)); err != nil {
		t.Fatal(err)
	}
	return base, src, dist, stdout, stderr
}

func fetchIndex(t *testing.T, base string) (names []string) {
	t.Helper()
	res, err := http.Get(base + "/api/logos.json")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("GET /api/logos.json: %s", res.Status)
	}
	var idx render.Index
	if err := json.NewDecoder(res.Body).Decode(&idx); err != nil {
		t.Fatal(err)
	}
	for _, l := range idx.Logos {
		names = append(names, l.Name)
	}
	return names
}

// touch saves a source file as an editor does, whole in one rename, with
// a fresh modification time, so the watcher sees it whatever the file
// system's clock resolution, and a build never reads it half written.
func touch(t *testing.T, name, data string, n int) {
	t.Helper()
	tmp := filepath.Join(t.TempDir(), filepath.Base(name))
	if err := os.WriteFile(tmp, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	mt := time.Date(2030, 1, 1, 0, 0, n, 0, time.UTC)
	if err := os.Chtimes(tmp, mt, mt); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, name); err != nil {
		t.Fatal(err)
	}
}

// addLogo moves a whole logo folder into src at once, as a checkout does,
// so no build sees it without its logo.yaml.
func addLogo(t *testing.T, src, slug string, files map[string]string) {
	t.Helper()
	tmp := t.TempDir()
	testtree.Write(t, tmp, files)
	if err := os.Rename(tmp, filepath.Join(src, slug)); err != nil {
		t.Fatal(err)
	}
}

// TestServeWatch edits the sources under a running `serve -watch`: a good
// edit is rebuilt and served, a bad one is reported while the last good
// tree stays served, and fixing it rebuilds again.
func TestServeWatch(t *testing.T) {
	base, src, dist, stdout, stderr := watching(t, t.Context(), "-interval", "5ms", "-base-url", "https://logos.example.com")
	wait := func(log *lineLog, re string) {
		t.Helper()
		if _, err := log.waitFor(t.Context(), regexp.MustCompile(re)); err != nil {
			t.Fatal(err)
		}
	}
	wait(stdout, `^built 1 logo \(\d+ files\) into .*dist in `)
	if diff := cmp.Diff([]string{"GitLab"}, fetchIndex(t, base)); diff != "" {
		t.Errorf("first build (-want +got):\n%s", diff)
	}
	// Open pages listen for rebuilds and failed builds (the browser half
	// is TestLiveReload and TestErrorOverlay).
	// "built" is printed before the pages are told, so the stream may
	// start with the version before the first build; the first build's
	// version is the one the failed build must keep.
	events := eventData(t, base+"/.preview/events")
	first := <-events
	for !strings.HasSuffix(first, "-1") {
		select {
		case first = <-events:
		case <-time.After(10 * time.Second):
			t.Fatalf("the pages were not told of the first build; last version %q", first)
		}
	}

	// A broken edit: the problem is printed, and sent to the pages; the
	// old tree stays.
	touch(t, filepath.Join(src, "gitlab", "logo.yaml"), strings.Replace(goodSource()["source-logos/gitlab/logo.yaml"], `"#FC6D26"`, `"#FC6D2"`, 1), 1)
	wait(stderr, `^logoindex: build failed; still serving the last good .*dist\. Watching .*source-logos for changes\.$`)
	if !strings.Contains(stderr.String(), `source-logos/gitlab/logo.yaml:2:6: hex "#FC6D2" is not a colour`) {
		t.Errorf("the problem is not reported with its position:\n%s", stderr)
	}
	if diff := cmp.Diff([]string{"GitLab"}, fetchIndex(t, base)); diff != "" {
		t.Errorf("after a failed build (-want +got):\n%s", diff)
	}
	if v, p := <-events, <-events; v != first || !strings.Contains(p, `"path":"`+filepath.ToSlash(src)+`/gitlab/logo.yaml","line":2,"col":6,"severity":"error","code":"hex-invalid"`) {
		t.Errorf("after a failed build the pages got %q and %q; want the same version, then the problem", v, p)
	}

	// Fixed, with a second logo: rebuilt and served.
	// The fix may be built apart from the new logo, so the pages may be
	// told twice; either way they get a new version.
	touch(t, filepath.Join(src, "gitlab", "logo.yaml"), goodSource()["source-logos/gitlab/logo.yaml"], 2)
	addLogo(t, src, "gitea", map[string]string{
		"icon.svg":  icon,
		"logo.yaml": strings.Replace(goodSource()["source-logos/gitlab/logo.yaml"], "GitLab", "Gitea", 1),
	})
	wait(stdout, `^built 2 logos `)
	if diff := cmp.Diff([]string{"Gitea", "GitLab"}, fetchIndex(t, base)); diff != "" {
		t.Errorf("after the fix (-want +got):\n%s", diff)
	}
	select {
	case v := <-events:
		if v == first || strings.HasPrefix(v, "{") {
			t.Errorf("the event after a rebuild is %q; want a version other than %q", v, first)
		}
	case <-time.After(10 * time.Second):
		t.Error("no event after the rebuild")
	}
	// The pages link through the build's base URL only in what they show.
	res, err := http.Get(base + "/logos/gitea/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(page), "https://logos.example.com/logos/gitea/icon.svg") {
		t.Errorf("GET /logos/gitea/: %s\n%s", res.Status, page)
	}
	// A preview shows what was saved: nothing is cached, and the page loads
	// the reload script, which the built file does not hold.
	built, err := os.ReadFile(filepath.Join(dist, "logos", "gitea", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if cc := res.Header.Get("Cache-Control"); cc != "no-store" || !strings.Contains(string(page), "../../.preview/reload.js") || strings.Contains(string(built), "reload.js") {
		t.Errorf("GET /logos/gitea/: Cache-Control %q, reload script in the page: %v, in dist: %v",
			cc, strings.Contains(string(page), "reload.js"), strings.Contains(string(built), "reload.js"))
	}
}

// eventData reads a server-sent event stream until the test ends and
// sends the data of each event.
func eventData(t *testing.T, url string) <-chan string {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), "GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("GET %s: %s %s", url, res.Status, res.Header.Get("Content-Type"))
	}
	out := make(chan string, 16)
	go func() {
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				out <- v
			}
		}
	}()
	return out
}

// TestServeWithoutBuild warns that the folder is empty and serves 404s
// until a build appears.
func TestServeWithoutBuild(t *testing.T) {
	dist := filepath.Join(t.TempDir(), "dist")
	base, _, stderr := serving(t, "-dir", dist, "-log")
	if _, err := stderr.waitFor(t.Context(), regexp.MustCompile(`holds no build yet; run logoindex build -out `)); err != nil {
		t.Fatal(err)
	}
	res, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 404 {
		t.Errorf("GET / before a build: %s, want 404", res.Status)
	}
}

// TestServeInterrupted: a signal ends serve with the signal's exit status
// and a message that says what serve leaves of its folder, not the
// "nothing was written" of check and build.
func TestServeInterrupted(t *testing.T) {
	dir := t.TempDir()
	testtree.Write(t, dir, goodSource())
	broken := filepath.Join(dir, "broken")
	testtree.Write(t, broken, map[string]string{"categories.yaml": "not: [a list"})
	dist := filepath.Join(dir, "dist")
	for _, tc := range []struct {
		args       []string
		after, say string // a line of output to wait for, and the message
	}{
		{[]string{"-dir", dist}, `^serving `, "stopped serving " + dist},
		{[]string{"-dir", dist, "-watch", "-src", filepath.Join(dir, "source-logos")}, `^built 1 logo`, "stopped serving " + dist + ", which holds the last good build"},
		{[]string{"-dir", dist, "-watch", "-src", broken}, `build failed`, "stopped serving " + dist + "; no build succeeded, so it is as it was"},
	} {
		ctx, cancel := context.WithCancelCause(t.Context())
		out := newLineLog()
		done := make(chan error, 1)
		go func() { done <- run(ctx, append([]string{"serve", "-addr", "127.0.0.1:0"}, tc.args...), out, out) }()
		if _, err := out.waitFor(t.Context(), regexp.MustCompile(tc.after)); err != nil {
			t.Fatal(err)
		}
		cancel(&cli.Interrupted{Sig: syscall.SIGINT})
		var msg bytes.Buffer
		if code := cli.ExitCode(<-done, &msg); code != 130 || msg.String() != "logoindex: interrupted by SIGINT; "+tc.say+"\n" {
			t.Errorf("serve %q stopped by SIGINT: exit %d, %q; want 130 and %q", tc.args, code, msg.String(), tc.say)
		}
	}
}
