package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestReleaseUsageErrors(t *testing.T) {
	inTempDir(t, goodSource())
	ok := []string{"release", "-version", "1.0.0", "-base-url", "https://logos.example.com", "-to", "file:///tmp/bucket"}
	with := func(flag, value string) []string {
		args := append([]string{}, ok...)
		for i := range args {
			if args[i] == flag {
				args[i+1] = value
				return args
			}
		}
		return append(args, flag, value)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"release"}, "logoindex: release needs -version, such as -version 1.0.0 or -version 2026-05-01"},
		{with("-version", "1.0"), `logoindex: -version "1.0" is neither a semantic version, such as 1.0.0 or 1.2.3-rc.1, nor a date, such as 2026-05-01`},
		{with("-version", "2026-02-30"), `logoindex: -version "2026-02-30" is neither a semantic version`},
		{with("-version", "1.0.0+build.5"), `(without build metadata: a + in a URL path is read as a space by some servers)`},
		{with("-version", "latest"), `logoindex: -version "latest" is neither`},
		{with("-base-url", ""), "logoindex: release needs -base-url, the absolute URL the bucket is served at"},
		{with("-base-url", "/logos"), "logoindex: release needs -base-url, the absolute URL the bucket is served at"},
		{with("-base-url", "logos.example.com"), `logoindex: -base-url "logos.example.com" must be an absolute http(s) URL`},
		{with("-to", ""), "logoindex: release needs -to, the bucket URL"},
		{with("-to", "s3://KEY:SECRET@bucket"), "logoindex: -to must not hold credentials"},
		{with("-to", "ftp://host/x"), `logoindex: -to "ftp://host/x": unknown scheme "ftp"`},
		{with("-workers", "0"), "logoindex: -workers must be at least 1"},
		{with("-wait", "-1s"), "logoindex: -wait must not be negative"},
		{with("-format", "xml"), `logoindex: -format must be text, github or json, not "xml"`},
		{append(ok, "extra"), `logoindex: release takes no arguments, got ["extra"]`},
	} {
		code, stdout, stderr := runCmd(tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) || stdout != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr:\n%s\nwant exit 2 and %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
}

// TestReleaseToFolder releases the golden sources into a file:// bucket
// twice: the second is refused, with the bucket as it was; then a
// broken source is reported as build reports it, and nothing is sent.
func TestReleaseToFolder(t *testing.T) {
	src, err := filepath.Abs("../../generator/testdata/golden/src")
	if err != nil {
		t.Fatal(err)
	}
	dir := inTempDir(t, nil)
	bucket := filepath.Join(dir, "bucket")
	to := "file://" + filepath.ToSlash(bucket) + "?create_dir=1"
	args := []string{"release", "-version", "v1.0.0", "-src", src, "-base-url", "https://logos.example.com/", "-to", to}
	code, stdout, stderr := runCmd(args...)
	if code != 0 || !strings.HasPrefix(stdout, "releasing 1.0.0 (the v of v1.0.0 is dropped): https://logos.example.com/v/1.0.0/\nbuilt 2 logos (") ||
		!strings.Contains(stdout, "\nreleased 1.0.0 to "+to+": uploaded ") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	var attrs struct {
		ContentType  string `json:"user.content_type"`
		CacheControl string `json:"user.cache_control"`
	}
	data, err := os.ReadFile(filepath.Join(bucket, "v", "1.0.0", "logos", "acme", "icon.svg.attrs"))
	if err == nil {
		err = json.Unmarshal(data, &attrs)
	}
	if err != nil || attrs.ContentType != "image/svg+xml" || attrs.CacheControl != "public, max-age=31536000, immutable" {
		t.Errorf("v/1.0.0/logos/acme/icon.svg: %+v, %v", attrs, err)
	}
	index, err := os.ReadFile(filepath.Join(bucket, "v", "1.0.0", "api", "logos.json"))
	if err != nil || !strings.Contains(string(index), `"icon":"https://logos.example.com/v/1.0.0/logos/acme/icon.svg"`) {
		t.Errorf("the release's index is not built for its URL: %v\n%.300s", err, index)
	}
	var list []map[string]any
	data, err = os.ReadFile(filepath.Join(bucket, "api", "releases.json"))
	if err == nil {
		err = json.Unmarshal(data, &list)
	}
	today := time.Now().UTC().Format(time.DateOnly)
	if err != nil || len(list) != 1 || list[0]["version"] != "1.0.0" || list[0]["logos"] != 2.0 || list[0]["index"] != "https://logos.example.com/v/1.0.0/api/logos.json" ||
		(list[0]["date"] != today && list[0]["date"] != time.Now().UTC().Add(-time.Minute).Format(time.DateOnly)) {
		t.Errorf("api/releases.json: %v\n%s", err, data)
	}
	before := published(t, bucket)

	code, _, stderr = runCmd(args...)
	if want := "logoindex: refusing to release: api/releases.json already lists release 1.0.0 (of "; code != 1 || !strings.HasPrefix(stderr, want) {
		t.Errorf("again: exit %d, stderr:\n%s\nwant %q", code, stderr, want)
	}
	if !mapsEqual(before, published(t, bucket)) {
		t.Errorf("a refused release changed the bucket")
	}

	broken := filepath.Join(dir, "broken")
	if err := os.CopyFS(broken, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(broken, "acme", "logo.yaml"), []byte("name: Acme\nhex: nope\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runCmd("release", "-version", "2.0.0", "-src", broken, "-base-url", "https://logos.example.com", "-to", to)
	if code != 1 || !strings.Contains(stderr, "broken/acme/logo.yaml:2:6: hex \"nope\"") || stdout != "" {
		t.Errorf("a broken source: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(bucket, "v", "2.0.0")); err == nil {
		t.Errorf("a broken release was published")
	}
}
