package publish

import (
	"context"
	"errors"
	"maps"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// releaseAt makes a release's date day.
func releaseAt(t *testing.T, day string) {
	t.Helper()
	d, err := time.Parse(time.DateOnly, day)
	if err != nil {
		t.Fatal(err)
	}
	old := now
	now = func() time.Time { return d.Add(23 * time.Hour) }
	t.Cleanup(func() { now = old })
}

func releaseOpts(version string) Options {
	opts := fast
	opts.Release, opts.BaseURL = version, testBase
	return opts
}

// TestRelease publishes two releases beside a published site: each is a
// copy of its tree under v/<version>/, cached for ever, listed newest
// first in api/releases.json, which is written last; the site and the
// other release are not touched, and a site publish leaves them alone.
func TestRelease(t *testing.T) {
	releaseAt(t, "2026-05-01")
	site := build(t, goldenSrc(t), testBase)
	store, b := publishedFake(t, site)
	before := store.content()

	v1 := build(t, goldenSrc(t), testBase+"/v/1.0.0")
	sum, err := pub(context.Background(), v1, b, releaseOpts("1.0.0"))
	if err != nil {
		t.Fatal(err)
	}
	files := published(v1)
	if sum.Uploaded != len(files)+1 || sum.Deleted != 0 || sum.Changes[len(sum.Changes)-1].Key != ReleasesKey {
		t.Errorf("summary %+v", sum)
	}
	after := store.content()
	for key, o := range files {
		o.cacheControl = ImmutableCacheControl
		if diff := cmp.Diff(o, after["v/1.0.0/"+key], cmp.AllowUnexported(fakeObject{})); diff != "" {
			t.Errorf("v/1.0.0/%s (-want +got):\n%s", key, diff)
		}
		delete(after, "v/1.0.0/"+key)
	}
	list := after[ReleasesKey]
	delete(after, ReleasesKey)
	if diff := cmp.Diff(before, after, cmp.AllowUnexported(fakeObject{})); diff != "" {
		t.Errorf("the site changed (-before +after):\n%s", diff)
	}
	want := `[
{"version":"1.0.0","date":"2026-05-01","logos":2,"index":"https://logos.example.com/v/1.0.0/api/logos.json"}
]
`
	if string(list.data) != want || list.contentType != "application/json; charset=utf-8" || list.cacheControl != "public, max-age=300, stale-while-revalidate=86400" {
		t.Errorf("%s: %q, %q\n%s\nwant\n%s", ReleasesKey, list.contentType, list.cacheControl, list.data, want)
	}
	checkOrder(t, store.log)
	if d := store.ops("start", "DELETE"); len(d) > 0 {
		t.Errorf("a release deleted %v", d)
	}

	// The next, a day later, comes first; 1.0.0 is not touched.
	releaseAt(t, "2026-05-02")
	store.log = nil
	if _, err := pub(context.Background(), build(t, goldenSrc(t), testBase+"/v/1.1.0-rc.1"), b, releaseOpts("1.1.0-rc.1")); err != nil {
		t.Fatal(err)
	}
	want = `[
{"version":"1.1.0-rc.1","date":"2026-05-02","logos":2,"index":"https://logos.example.com/v/1.1.0-rc.1/api/logos.json"}` + ",\n" + strings.TrimPrefix(want, "[\n")
	if got := string(store.content()[ReleasesKey].data); got != want {
		t.Errorf("%s:\n%s\nwant\n%s", ReleasesKey, got, want)
	}
	for _, k := range writes(store) {
		if strings.HasPrefix(k, "v/1.0.0/") {
			t.Errorf("the second release wrote %s", k)
		}
	}

	// A site publish (of a changed site) leaves the releases alone.
	src := goldenSrc(t)
	src["acme/logo.yaml"].Data = []byte(strings.Replace(string(src["acme/logo.yaml"].Data), "name: Acme & Co.", "name: Acme Inc.", 1))
	store.log = nil
	if _, err := pub(context.Background(), build(t, src, testBase), b, fast); err != nil {
		t.Fatal(err)
	}
	for _, k := range writes(store) {
		if isReleased(k) {
			t.Errorf("a site publish wrote %s", k)
		}
	}
}

// TestReleaseRefused: a listed version, a prefix holding what the tree
// would change, a tree for another URL, a site of another URL: refused,
// with nothing written, not even the lease.
func TestReleaseRefused(t *testing.T) {
	v1 := build(t, goldenSrc(t), testBase+"/v/1.0.0")
	store, b := newFake()
	if _, err := pub(context.Background(), v1, b, releaseOpts("1.0.0")); err != nil {
		t.Fatal(err)
	}
	v2 := build(t, goldenSrc(t), testBase+"/v/2.0.0")
	for _, tc := range []struct {
		name  string
		tree  fstest.MapFS
		opts  Options
		setup func()
		want  string
		force bool // Force overrides it
	}{
		{name: "listed", tree: v1, opts: releaseOpts("1.0.0"),
			want: "api/releases.json already lists release 1.0.0 (of "},
		{name: "listed, and Force", tree: v1, opts: func() Options { o := releaseOpts("1.0.0"); o.Force = true; return o }(),
			want: "api/releases.json already lists release 1.0.0 (of "},
		{name: "a foreign object in the prefix", tree: v2, opts: releaseOpts("2.0.0"),
			setup: func() { store.put("v/2.0.0/notes.txt", []byte("x"), "text/plain", "") },
			want:  "v/2.0.0/ already holds 1 object that this release would change or that it lacks (v/2.0.0/notes.txt): a pinned URL never changes. api/releases.json does not list 2.0.0"},
		{name: "other bytes in the prefix", tree: v2, opts: releaseOpts("2.0.0"),
			setup: func() {
				delete(store.objects, "v/2.0.0/notes.txt")
				store.put("v/2.0.0/api/logos.json", []byte("{}"), "application/json", "")
			},
			want: "v/2.0.0/ already holds 1 object that this release would change or that it lacks (v/2.0.0/api/logos.json)"},
		{name: "a broken list", tree: v2, opts: releaseOpts("2.0.0"),
			setup: func() {
				delete(store.objects, "v/2.0.0/api/logos.json")
				store.put(ReleasesKey, []byte(`{"version":"1.0.0"}`), "application/json", "")
			},
			want: "the bucket's api/releases.json is not a list of releases (json: cannot unmarshal object"},
		{name: "a tree for the site", tree: build(t, goldenSrc(t), testBase), opts: releaseOpts("2.0.0"), force: true,
			want: "the tree was built for https://logos.example.com, not for release 2.0.0: a release is built for https://logos.example.com/v/2.0.0"},
		{name: "a site of another URL", tree: v2, opts: releaseOpts("2.0.0"), force: true,
			setup: func() {
				data, _ := newState("https://new.example.com", nil).marshal()
				store.put(StateKey, data, "application/json", "")
			},
			want: "the bucket serves a site built for https://new.example.com (its .logoindex-publish.json says so), and this release was built for https://logos.example.com/v/2.0.0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.setup != nil {
				tc.setup()
			}
			store.log = nil
			before := store.snapshot()
			_, err := pub(context.Background(), tc.tree, b, tc.opts)
			var refused *ReleaseRefusedError
			var forceable *RefusedError
			if err == nil || !strings.Contains(err.Error(), tc.want) || errors.As(err, &refused) == tc.force || errors.As(err, &forceable) != tc.force {
				t.Fatalf("error %v\nwant one saying %q (Force overrides it: %v)", err, tc.want, tc.force)
			}
			if w := store.allOps("start", "PUT"); len(w) > 0 || !maps.EqualFunc(before, store.snapshot(), func(a, b fakeObject) bool { return string(a.data) == string(b.data) }) {
				t.Errorf("a refused release wrote %v", w)
			}
		})
	}
}

// TestReleaseResumes: a release that stopped before its end is not
// listed; the same release again keeps what is there and finishes.
func TestReleaseResumes(t *testing.T) {
	v1 := build(t, goldenSrc(t), testBase+"/v/1.0.0")
	store, b := newFake()
	store.before = func(_ context.Context, op, key string) error {
		if op == "PUT" && key == "v/1.0.0/api/logos.json" {
			return errFakeDenied
		}
		return nil
	}
	_, err := pub(context.Background(), v1, b, releaseOpts("1.0.0"))
	var inc *IncompleteError
	if !errors.As(err, &inc) || !strings.Contains(err.Error(), "api/releases.json does not list release 1.0.0 yet, so no one has been told of it. Run the same release again to finish") {
		t.Fatalf("error %v", err)
	}
	if _, ok := store.content()[ReleasesKey]; ok {
		t.Fatalf("the list of releases was written after a failure")
	}
	store.before, store.log = nil, nil
	sum, err := pub(context.Background(), v1, b, releaseOpts("1.0.0"))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Skipped == 0 || sum.Uploaded >= len(published(v1)) {
		t.Errorf("the second run uploaded %d and kept %d", sum.Uploaded, sum.Skipped)
	}
	if !strings.Contains(string(store.content()[ReleasesKey].data), `"version":"1.0.0"`) {
		t.Errorf("1.0.0 is not listed")
	}
}

// TestReleaseTreeProblems: a tree may not hold the list of releases.
func TestReleaseTreeProblems(t *testing.T) {
	tree := build(t, goldenSrc(t), testBase)
	tree[ReleasesKey] = &fstest.MapFile{Data: []byte("[]")}
	_, err := ReadTree(tree, fast)
	var te *TreeError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "api/releases.json: the list of releases, which only logoindex release writes into the bucket; remove it from the tree") {
		t.Errorf("error %v", err)
	}
}
