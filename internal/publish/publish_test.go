package publish

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"gocloud.dev/blob"

	"logoindex/generator"
	buildmanifest "logoindex/generator/manifest"
	"logoindex/generator/render"
	"logoindex/internal/headers"
)

const testBase = "https://logos.example.com"

// goldenSrc is a copy of the generator's golden sources that a test may
// change.
func goldenSrc(t *testing.T) fstest.MapFS {
	t.Helper()
	src := fstest.MapFS{}
	dir := os.DirFS("../../generator/testdata/golden/src")
	err := fs.WalkDir(dir, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(dir, name)
		src[name] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// build builds src for base into a tree in memory.
func build(t *testing.T, src fs.FS, base string) fstest.MapFS {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "dist")
	_, err := generator.Build(context.Background(), src, generator.Options{Out: dir, Render: render.Options{BaseURL: base}})
	if err != nil {
		t.Fatal(err)
	}
	tree := fstest.MapFS{}
	err = fs.WalkDir(os.DirFS(dir), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(filepath.Join(dir, name))
		tree[name] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// published are the files of a tree a bucket should hold.
func published(tree fstest.MapFS) map[string]fakeObject {
	m, _ := buildmanifest.Read(tree)
	out := map[string]fakeObject{}
	for name, f := range tree {
		if slices.Contains(m.Static, name) {
			ctype, cache := headers.Site.StaticObject(name)
			out[name] = fakeObject{data: f.Data, contentType: ctype, cacheControl: cache}
			continue
		}
		if name == "_headers" || name == "_redirects" || strings.HasPrefix(name, ".") || strings.Contains(name, "/.") {
			continue
		}
		ctype, cache := headers.Site.Object(name)
		out[name] = fakeObject{data: f.Data, contentType: ctype, cacheControl: cache}
	}
	return out
}

// pub reads the tree and publishes it.
func pub(ctx context.Context, fsys fs.FS, b *blob.Bucket, opts Options) (*Summary, error) {
	tree, err := ReadTree(fsys, opts)
	if err != nil {
		return nil, err
	}
	return Publish(ctx, tree, b, opts)
}

// publishedFake is a fake bucket holding tree as published, with an empty
// log.
func publishedFake(t *testing.T, tree fs.FS) (*fakeStore, *blob.Bucket) {
	t.Helper()
	store, b := newFake()
	if _, err := pub(context.Background(), tree, b, fast); err != nil {
		t.Fatal(err)
	}
	store.log = nil
	return store, b
}

// fast are Options that do not make tests wait between retries.
var fast = Options{RetryWait: time.Millisecond}

// checkHolds compares the bucket with the tree: the same objects, bytes
// and headers, plus the record.
func checkHolds(t *testing.T, store *fakeStore, tree fstest.MapFS) {
	t.Helper()
	got := store.content()
	if _, ok := got[StateKey]; !ok {
		t.Errorf("the bucket has no %s", StateKey)
	}
	delete(got, StateKey)
	if diff := cmp.Diff(published(tree), got, cmp.AllowUnexported(fakeObject{})); diff != "" {
		t.Errorf("bucket (-want +got):\n%s", diff)
	}
}

// rank is the order an operation must keep: the upload steps, the record,
// then deletions of indexes, pages and leaves.
func rank(op, key string) int {
	if rest, ok := strings.CutPrefix(key, "v/"); ok {
		key = rest[strings.Index(rest, "/")+1:] // a release's, ranked as the tree's
	}
	switch {
	case isLeaseKey(key):
		return -1
	case op == "PUT" && (key == StateKey || key == ReleasesKey):
		return int(StepRecord)
	case op == "PUT":
		return int(stepOf(key))
	case op == "DELETE":
		return int(StepDelete) + int(StepIndexes-stepOf(key))
	}
	return -1
}

// checkOrder asserts that every write or delete of a rank ended before
// any of a later rank started.
func checkOrder(t *testing.T, log []string) {
	t.Helper()
	lastEnd := map[int]int{}
	firstStart := map[int]int{}
	for i, l := range log {
		parts := strings.SplitN(l, " ", 3)
		r := rank(parts[1], parts[2])
		if r < 0 {
			continue
		}
		if parts[0] == "end" {
			lastEnd[r] = i
		} else if _, ok := firstStart[r]; !ok {
			firstStart[r] = i
		}
	}
	for a, end := range lastEnd {
		for b, start := range firstStart {
			if a < b && end > start {
				t.Errorf("an operation of rank %d started (log line %d) before all of rank %d ended (line %d):\n%s", b, start, a, end, strings.Join(log, "\n"))
			}
		}
	}
}

func TestPublishInOrder(t *testing.T) {
	tree := build(t, goldenSrc(t), testBase)
	store, b := newFake()
	sum, err := pub(context.Background(), tree, b, fast)
	if err != nil {
		t.Fatal(err)
	}
	checkHolds(t, store, tree)
	checkOrder(t, store.log)
	want := len(published(tree))
	if sum.Uploaded != want || sum.Skipped != 0 || sum.Deleted != 0 || sum.BaseURL != testBase {
		t.Errorf("summary %+v, want %d uploads", sum, want)
	}
	// Each step is there: a test of the order needs all of them.
	steps := map[Step]int{}
	for _, c := range sum.Changes {
		steps[c.Step]++
	}
	// The indexes: logos.json, registry.json, the gallery and the sitemap.
	if steps[StepLeaves] == 0 || steps[StepPages] == 0 || steps[StepIndexes] != 4 {
		t.Errorf("steps %v", steps)
	}

	// Again: nothing to do, and nothing written.
	store.log = nil
	sum, err = pub(context.Background(), tree, b, fast)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Uploaded != 0 || sum.Deleted != 0 || sum.Skipped != want || len(sum.Changes) != 0 {
		t.Errorf("second publish: %+v", sum)
	}
	if puts, dels := store.ops("start", "PUT"), store.ops("start", "DELETE"); len(puts)+len(dels) > 0 {
		t.Errorf("second publish wrote %v and deleted %v", puts, dels)
	}
}

// writes are the objects written or deleted at the store.
func writes(store *fakeStore) []string {
	return append(store.ops("start", "PUT"), store.ops("start", "DELETE")...)
}

// changedKeys are the files whose bytes differ between two trees or that
// only the second has.
func changedKeys(a, b fstest.MapFS) []string {
	var out []string
	for name, f := range published(b) {
		if old, ok := published(a)[name]; !ok || string(old.data) != string(f.data) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

func TestPublishChangedLogo(t *testing.T) {
	src := goldenSrc(t)
	before := build(t, src, testBase)
	src["acme/logo.yaml"].Data = []byte(strings.Replace(string(src["acme/logo.yaml"].Data), "name: Acme & Co.", "name: Acme Inc.", 1))
	src["acme/icon.svg"].Data = []byte(strings.Replace(string(src["acme/icon.svg"].Data), "<svg ", "<svg id=\"changed\" ", 1))
	after := build(t, src, testBase)

	store, b := publishedFake(t, before)
	sum, err := pub(context.Background(), after, b, fast)
	if err != nil {
		t.Fatal(err)
	}
	want := changedKeys(before, after)
	for _, k := range want {
		if !strings.Contains(k, "acme") && stepOf(k) != StepIndexes {
			t.Errorf("%s changed, but it is neither acme's nor an index", k)
		}
	}
	if len(want) < 5 {
		t.Fatalf("the change should reach acme's files and the indexes, changed only %v", want)
	}
	var got []string
	for _, c := range sum.Changes {
		got = append(got, c.Key)
		if c.Action != Upload || c.Reason != "changed" {
			t.Errorf("%+v, want an upload of a changed file", c)
		}
	}
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("uploads (-changed files +uploaded):\n%s", diff)
	}
	puts := store.ops("start", "PUT")
	if diff := cmp.Diff(slices.Sorted(slices.Values(append(slices.Clone(want), StateKey))), slices.Sorted(slices.Values(puts))); diff != "" {
		t.Errorf("PUTs at the store (-want +got):\n%s", diff)
	}
	checkHolds(t, store, after)
	checkOrder(t, store.log)
}

// tombstone is the detail a build keeps for a logo removed on purpose.
func tombstone(slug string) *fstest.MapFile {
	return &fstest.MapFile{Data: []byte(`{"slug":"` + slug + `","removed":true}` + "\n")}
}

// withoutLogo builds the golden sources without the logo slug.
func withoutLogo(t *testing.T, slug string) fstest.MapFS {
	src := goldenSrc(t)
	for name := range src {
		if strings.HasPrefix(name, slug+"/") {
			delete(src, name)
		}
	}
	return build(t, src, testBase)
}

// TestPublishRefusesDroppedLogo: a tree that lacks the detail of a logo
// the bucket serves is refused, naming the logo and the fix, with nothing
// written; its tombstone, or Force, lets it through.
func TestPublishRefusesDroppedLogo(t *testing.T) {
	before := build(t, goldenSrc(t), testBase)
	after := withoutLogo(t, "night-owl")
	store, b := publishedFake(t, before)
	_, err := pub(context.Background(), after, b, fast)
	var refused *RefusedError
	want := "the tree drops 1 logo the bucket serves, and every URL of it would stop working: night-owl. To remove a logo on purpose, add it to source-logos/removed.yaml, with replaced_by if it has a successor"
	if !errors.As(err, &refused) || !strings.Contains(err.Error(), want) || !strings.HasSuffix(err.Error(), "pass -force if this is what you want") {
		t.Fatalf("error %v\nwant a refusal saying %q", err, want)
	}
	if w := writes(store); len(w) > 0 {
		t.Errorf("a refused publish wrote %v", w)
	}
	// Both logos gone: each is named.
	empty := withoutLogo(t, "night-owl")
	for name := range empty {
		if strings.Contains(name, "acme") {
			delete(empty, name)
		}
	}
	if _, err := pub(context.Background(), empty, b, fast); err == nil || !strings.Contains(err.Error(), "the tree drops 2 logos the bucket serves, and every URL of them would stop working: acme, night-owl.") {
		t.Errorf("two logos dropped: %v", err)
	}
	opts := fast
	opts.Force = true
	if _, err := pub(context.Background(), after, b, opts); err != nil {
		t.Fatalf("with Force: %v", err)
	}
	checkHolds(t, store, after)
}

func TestPublishRemovedLogo(t *testing.T) {
	before := build(t, goldenSrc(t), testBase)
	after := withoutLogo(t, "night-owl")
	after["api/logos/night-owl.json"] = tombstone("night-owl")

	store, b := publishedFake(t, before)
	sum, err := pub(context.Background(), after, b, fast)
	if err != nil {
		t.Fatal(err)
	}
	var gone []string
	for name := range published(before) {
		if _, ok := after[name]; !ok {
			gone = append(gone, name)
		}
	}
	slices.Sort(gone)
	if diff := cmp.Diff(gone, slices.Sorted(slices.Values(store.ops("start", "DELETE")))); diff != "" {
		t.Errorf("deletions (-want +got):\n%s", diff)
	}
	if sum.Deleted != len(gone) || len(gone) < 4 {
		t.Errorf("deleted %d of %v", sum.Deleted, gone)
	}
	for _, k := range gone {
		if !strings.Contains(k, "night-owl") {
			t.Errorf("deleted %s, which is not night-owl's", k)
		}
	}
	if got := store.snapshot()["api/logos/night-owl.json"].data; string(got) != string(after["api/logos/night-owl.json"].Data) {
		t.Errorf("the tombstone is not in the bucket: %s", got)
	}
	checkHolds(t, store, after)
	// The indexes and the record come first, then the page, then its SVGs.
	checkOrder(t, store.log)
}

func TestPublishHeadersChanged(t *testing.T) {
	tree := build(t, goldenSrc(t), testBase)
	store, b := newFake()
	// Another tool uploaded the same bytes with its own headers, and
	// wrote no record.
	for name, o := range published(tree) {
		store.put(name, o.data, "text/plain", "")
	}
	if _, err := pub(context.Background(), tree, b, fast); err == nil || !strings.Contains(err.Error(), "no "+StateKey) {
		t.Fatalf("a bucket with objects and no record: %v", err)
	}
	opts := fast
	opts.Force = true
	sum, err := pub(context.Background(), tree, b, opts)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Uploaded != len(published(tree)) {
		t.Errorf("uploaded %d, want every file", sum.Uploaded)
	}
	for _, c := range sum.Changes {
		if c.Reason != "headers changed" {
			t.Errorf("%+v: want headers changed", c)
		}
	}
	checkHolds(t, store, tree)

	// A record naming other headers for one file sends that file again.
	var st state
	if err := json.Unmarshal(store.snapshot()[StateKey].data, &st); err != nil {
		t.Fatal(err)
	}
	o := st.Objects["api/logos.json"]
	o.Headers = len(st.Headers)
	st.Headers = append(st.Headers, [2]string{"application/json", "no-cache"})
	st.Objects["api/logos.json"] = o
	data, _ := st.marshal()
	store.put(StateKey, data, "application/json", "no-store")
	sum, err = pub(context.Background(), tree, b, fast)
	if err != nil {
		t.Fatal(err)
	}
	want := []Change{{Key: "api/logos.json", Action: Upload, Reason: "headers changed", Size: int64(len(tree["api/logos.json"].Data)), Step: StepIndexes}}
	if diff := cmp.Diff(want, sum.Changes); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
}

// TestPublishWithoutListedMD5 is a store that lists no MD5s (multipart
// uploads on S3, some S3-compatible stores): the record decides.
func TestPublishWithoutListedMD5(t *testing.T) {
	tree := build(t, goldenSrc(t), testBase)
	store, b := newFake()
	store.noMD5 = true
	if _, err := pub(context.Background(), tree, b, fast); err != nil {
		t.Fatal(err)
	}
	sum, err := pub(context.Background(), tree, b, fast)
	if err != nil || sum.Uploaded != 0 {
		t.Fatalf("unchanged tree: %+v, %v", sum, err)
	}
	// Same size, other bytes, and the record knows it.
	key := "logos/acme/icon.svg"
	data := tree[key].Data
	changed := fstest.MapFS{}
	maps.Copy(changed, tree)
	changed[key] = &fstest.MapFile{Data: []byte(strings.Replace(string(data), "<svg", "<SVG", 1))}
	sum, err = pub(context.Background(), changed, b, fast)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Changes) != 1 || sum.Changes[0].Key != key || sum.Changes[0].Reason != "changed" {
		t.Errorf("changes %+v, want %s changed", sum.Changes, key)
	}
}

type recordingReporter struct {
	mu      sync.Mutex
	plan    []Change
	retries []string
	done    []string
}

func (r *recordingReporter) Plan(c []Change, _ int) { r.plan = c }
func (r *recordingReporter) Retry(c Change, err error, attempt int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.retries = append(r.retries, c.Key)
}
func (r *recordingReporter) Done(c Change, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done = append(r.done, c.Key)
}

// TestPublishRetries fails one request in ten and the first attempt at the
// record: publish retries and ends complete.
func TestPublishRetries(t *testing.T) {
	tree := build(t, goldenSrc(t), testBase)
	store, b := newFake()
	var n atomic.Int64
	var recordFailed atomic.Bool
	store.before = func(_ context.Context, op, key string) error {
		if op == "PUT" && key == StateKey && !recordFailed.Swap(true) {
			return errFakeFlaky
		}
		if n.Add(1)%10 == 0 {
			return errFakeFlaky
		}
		return nil
	}
	rep := &recordingReporter{}
	opts := fast
	opts.Reporter = rep
	if _, err := pub(context.Background(), tree, b, opts); err != nil {
		t.Fatal(err)
	}
	checkHolds(t, store, tree)
	checkOrder(t, store.log)
	if len(rep.retries) < 3 || !slices.Contains(rep.retries, StateKey) {
		t.Errorf("retries %v, want several and the record's", rep.retries)
	}
	if len(rep.done) != len(rep.plan) {
		t.Errorf("%d objects reported done of %d planned", len(rep.done), len(rep.plan))
	}
}

// TestPublishFailure: an object that keeps failing stops the publish
// before the indexes, and the error names it.
func TestPublishFailure(t *testing.T) {
	src := goldenSrc(t)
	before := build(t, src, testBase)
	delete(src, "night-owl/icon-dark.svg") // so the next publish has a deletion too
	src["night-owl/logo.yaml"].Data = append(src["night-owl/logo.yaml"].Data, "aliases: [Owl]\n"...)
	after := build(t, src, testBase)
	for _, tc := range []struct {
		name     string
		err      error
		attempts int
	}{
		{"transient", errFakeFlaky, DefaultAttempts},
		{"denied", errFakeDenied, 1}, // not worth a retry
	} {
		t.Run(tc.name, func(t *testing.T) {
			store, b := publishedFake(t, before)
			const bad = "api/logos/night-owl.json"
			store.before = func(_ context.Context, op, key string) error {
				if op == "PUT" && key == bad {
					return tc.err
				}
				return nil
			}
			_, err := pub(context.Background(), after, b, fast)
			var inc *IncompleteError
			if !errors.As(err, &inc) || len(inc.Failed) != 1 || inc.Failed[0].Change.Key != bad || inc.Step != StepPages {
				t.Fatalf("error %v, want %s to fail in the pages step", err, bad)
			}
			if msg := err.Error(); !strings.Contains(msg, "upload "+bad+": ") || !strings.Contains(msg, "still serves the previous tree") {
				t.Errorf("message:\n%s", msg)
			}
			if n := len(slices.DeleteFunc(store.ops("start", "PUT"), func(k string) bool { return k != bad })); n != tc.attempts {
				t.Errorf("%d attempts, want %d", n, tc.attempts)
			}
			for _, k := range store.ops("start", "PUT") {
				if stepOf(k) == StepIndexes || k == StateKey {
					t.Errorf("%s was written after a failure", k)
				}
			}
			if d := store.ops("start", "DELETE"); len(d) > 0 {
				t.Errorf("deleted %v after a failure", d)
			}
		})
	}
}

// TestPublishInterrupt cancels a publish while an upload hangs: it returns
// at once, says so, and has written no index and deleted nothing.
func TestPublishInterrupt(t *testing.T) {
	src := goldenSrc(t)
	before := build(t, src, testBase)
	delete(src, "night-owl/icon-dark.svg")
	src["night-owl/logo.yaml"].Data = append(src["night-owl/logo.yaml"].Data, "aliases: [Owl]\n"...)
	after := build(t, src, testBase)
	store, b := publishedFake(t, before)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store.before = func(ctx context.Context, op, key string) error {
		if op == "PUT" && stepOf(key) == StepPages {
			cancel() // Ctrl-C while this upload is under way
			<-ctx.Done()
			return ctx.Err()
		}
		return nil
	}
	_, err := pub(ctx, after, b, fast)
	if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "interrupted") {
		t.Fatalf("error %v, want an interrupt", err)
	}
	for _, k := range store.ops("start", "PUT") {
		if stepOf(k) == StepIndexes || k == StateKey {
			t.Errorf("%s was written after the interrupt", k)
		}
	}
	if d := store.ops("start", "DELETE"); len(d) > 0 {
		t.Errorf("deleted %v after the interrupt", d)
	}
	// The old indexes are still there, and everything they name.
	if got := store.snapshot()["api/logos.json"].data; string(got) != string(before["api/logos.json"].Data) {
		t.Errorf("the index changed")
	}
}

// TestPublishSkipsHostFiles: _headers and _redirects are read by Netlify
// and Cloudflare Pages only; a bucket never gets them.
func TestPublishSkipsHostFiles(t *testing.T) {
	tree := build(t, goldenSrc(t), testBase)
	tree["_redirects"] = &fstest.MapFile{Data: []byte("/logos/old/ /logos/new/ 301\n")}
	if _, ok := tree["_headers"]; !ok {
		t.Fatal("the build wrote no _headers")
	}
	store, b := newFake()
	if _, err := pub(context.Background(), tree, b, fast); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"_headers", "_redirects"} {
		if _, ok := store.snapshot()[k]; ok {
			t.Errorf("%s was uploaded", k)
		}
	}
	checkHolds(t, store, tree)
}

// TestPublishStaticFiles: the files of the source's _static/ are
// uploaded, hidden ones included, with the type of their extension; a
// hidden file the build did not copy is not.
func TestPublishStaticFiles(t *testing.T) {
	src := goldenSrc(t)
	for name, data := range map[string]string{
		"_static/CNAME":                    "logos.example.com",
		"_static/.well-known/security.txt": "Contact: mailto:security@example.com\n",
		"_static/brand/kit.zip":            "PK",
	} {
		src[name] = &fstest.MapFile{Data: []byte(data)}
	}
	tree := build(t, src, testBase)
	tree[".git/config"] = &fstest.MapFile{Data: []byte("[core]\n")}
	tree[".well-known/other.txt"] = &fstest.MapFile{Data: []byte("not copied by the build")}
	store, b := newFake()
	if _, err := pub(context.Background(), tree, b, fast); err != nil {
		t.Fatal(err)
	}
	got := store.snapshot()
	want := map[string][2]string{
		"CNAME":                    {"text/plain; charset=utf-8", "public, max-age=300"},
		".well-known/security.txt": {"text/plain; charset=utf-8", "public, max-age=300"},
		"brand/kit.zip":            {"application/zip", "public, max-age=300"},
	}
	for name, h := range want {
		if o, ok := got[name]; !ok || o.contentType != h[0] || o.cacheControl != h[1] {
			t.Errorf("%s: uploaded %v with %q, %q; want %q, %q", name, ok, o.contentType, o.cacheControl, h[0], h[1])
		}
	}
	for _, name := range []string{".git/config", ".well-known/other.txt"} {
		if _, ok := got[name]; ok {
			t.Errorf("%s was uploaded", name)
		}
	}
}

func TestPublishDryRun(t *testing.T) {
	tree := build(t, goldenSrc(t), testBase)
	store, b := newFake()
	opts := fast
	opts.DryRun = true
	sum, err := pub(context.Background(), tree, b, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(store.ops("start", "PUT")) > 0 || len(store.snapshot()) > 0 {
		t.Errorf("a dry run wrote to the bucket")
	}
	if sum.Uploaded != len(published(tree)) || len(sum.Changes) != sum.Uploaded {
		t.Errorf("dry run summary %+v", sum)
	}
}

func TestPublishRefuses(t *testing.T) {
	good := build(t, goldenSrc(t), testBase)
	for _, tc := range []struct {
		name  string
		tree  fstest.MapFS
		opts  Options
		setup func(*fakeStore)
		want  string
	}{
		{name: "localhost", tree: build(t, goldenSrc(t), "http://localhost:8080"),
			want: "the tree was built for http://localhost:8080, and localhost is this machine"},
		{name: "loopback", tree: build(t, goldenSrc(t), "http://127.0.0.2:8080/x"), want: "127.0.0.2 is this machine"},
		{name: "ipv6 loopback", tree: build(t, goldenSrc(t), "http://[::1]:8080"), want: "::1 is this machine"},
		{name: "subdomain of localhost", tree: build(t, goldenSrc(t), "http://logos.localhost"), want: "logos.localhost is this machine"},
		{name: "unspecified", tree: build(t, goldenSrc(t), "http://0.0.0.0:8080"), want: "0.0.0.0 is this machine"},
		{name: "partial build", tree: func() fstest.MapFS {
			tree := maps.Clone(good)
			tree[buildmanifest.File] = &fstest.MapFile{Data: []byte(`{"format":1,"generator":"logoindex","base_url":"https://logos.example.com","logos":["git*"]}`)}
			return tree
		}(), want: `the tree holds only the logos that ["git*"] select (a partial build)`},
		{name: "other base URL", tree: good, opts: Options{BaseURL: "https://cdn.example.org/"},
			want: "the tree was built for https://logos.example.com, not for https://cdn.example.org"},
		{name: "bucket of another base URL", tree: build(t, goldenSrc(t), "https://new.example.com"),
			setup: func(s *fakeStore) {
				data, _ := newState(testBase, nil).marshal()
				s.put(StateKey, data, "application/json", "")
			},
			want: "the bucket serves a tree built for https://logos.example.com (its .logoindex-publish.json says so), and this tree was built for https://new.example.com"},
		{name: "foreign bucket", tree: good,
			setup: func(s *fakeStore) { s.put("family/photo.jpg", []byte("x"), "image/jpeg", "") },
			want:  "the bucket holds 1 object but no .logoindex-publish.json"},
		{name: "broken record", tree: good,
			setup: func(s *fakeStore) { s.put(StateKey, []byte("{"), "application/json", "") },
			want:  "the bucket's .logoindex-publish.json is not a record publish can read"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store, b := newFake()
			if tc.setup != nil {
				tc.setup(store)
			}
			store.log = nil
			_, err := pub(context.Background(), tc.tree, b, tc.opts)
			var refused *RefusedError
			if !errors.As(err, &refused) || !strings.Contains(err.Error(), tc.want) || !strings.HasSuffix(err.Error(), "pass -force if this is what you want") {
				t.Fatalf("error %v, want a refusal saying %q", err, tc.want)
			}
			if len(store.ops("start", "PUT"))+len(store.ops("start", "DELETE")) > 0 {
				t.Errorf("a refused publish wrote: %v", store.log)
			}
			if strings.Contains(tc.name, "local") || tc.name == "loopback" || tc.name == "unspecified" || tc.name == "other base URL" || tc.name == "partial build" {
				if len(store.log) > 0 {
					t.Errorf("a tree refused for its own sake must not touch the bucket: %v", store.log)
				}
			}
			// -force publishes, and the bucket then holds the tree.
			opts := tc.opts
			opts.Force, opts.RetryWait = true, time.Millisecond
			if _, err := pub(context.Background(), tc.tree, b, opts); err != nil {
				t.Fatalf("with Force: %v", err)
			}
			checkHolds(t, store, tc.tree)
		})
	}
}

func TestPublishTreeProblems(t *testing.T) {
	tree := build(t, goldenSrc(t), testBase)
	delete(tree, buildmanifest.File)
	tree["notes.txt"] = &fstest.MapFile{Data: []byte("x")}
	tree["logos/acme/README.md"] = &fstest.MapFile{Data: []byte("x")}
	tree["logos/acme/link.svg"] = &fstest.MapFile{Data: []byte("icon.svg"), Mode: fs.ModeSymlink}
	// Hidden files are no problem: they are never uploaded.
	tree[".DS_Store"] = &fstest.MapFile{Data: []byte("x")}
	tree["_redirects"] = &fstest.MapFile{Data: []byte("/old /new 301\n")}
	tree[".git/config"] = &fstest.MapFile{Data: []byte("x")}
	store, b := newFake()
	_, err := pub(context.Background(), tree, b, fast)
	var te *TreeError
	if !errors.As(err, &te) {
		t.Fatalf("error %v, want a TreeError", err)
	}
	want := []string{
		".logoindex-build.json: missing, so the tree was not written by logoindex build (or by a version before it); build it again (make build BASE_URL=https://logos.example.com)",
		"logos/acme/README.md: no header rule covers it, so it is not a file logoindex build writes; remove it, or build the tree again",
		"logos/acme/link.svg: not a regular file (L---------); publish uploads files only, so replace it with the file or remove it",
		"notes.txt: no header rule covers it, so it is not a file logoindex build writes; remove it, or build the tree again",
	}
	if diff := cmp.Diff(want, te.Problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if len(store.log) > 0 {
		t.Errorf("a tree with problems touched the bucket: %v", store.log)
	}
	if _, err := pub(context.Background(), fstest.MapFS{}, b, fast); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("an empty tree: %v", err)
	}
}

// TestPublishPrefix publishes under a prefix of a bucket that holds other
// things: they are neither counted nor touched.
func TestPublishPrefix(t *testing.T) {
	tree := build(t, goldenSrc(t), testBase)
	store, b := newFake()
	store.put("other/thing.txt", []byte("keep me"), "text/plain", "")
	pb := blob.PrefixedBucket(b, "logos/v1/")
	if _, err := pub(context.Background(), tree, pb, fast); err != nil {
		t.Fatal(err)
	}
	got := store.snapshot()
	if string(got["other/thing.txt"].data) != "keep me" {
		t.Errorf("the object outside the prefix changed")
	}
	if _, ok := got["logos/v1/"+StateKey]; !ok || got["logos/v1/api/logos.json"].contentType != "application/json; charset=utf-8" {
		t.Errorf("the tree is not under the prefix: %v", slices.Sorted(maps.Keys(got)))
	}
}

// TestStepsFollowReferences reads every reference of a built tree (the
// URLs under the base URL in any file, and href and src in the pages) and
// checks that each file is uploaded after the files it names, or in the
// same step when both are files of one logo that only the indexes name.
// Naming an index is always safe: every tree has them, so once published
// the bucket always holds one, old or new.
func TestStepsFollowReferences(t *testing.T) {
	tree := build(t, goldenSrc(t), testBase)
	files := published(tree)
	absolute := regexp.MustCompile(regexp.QuoteMeta(testBase) + `(/[^"'\s<>\\)]*)`)
	attr := regexp.MustCompile(`\s(?:href|src)=("[^"]*"|'[^']*'|[^\s>]+)`)
	slug := func(key string) string {
		parts := strings.Split(strings.TrimSuffix(key, ".json"), "/")
		return parts[len(parts)-1-boolInt(strings.HasPrefix(key, "logos/"))]
	}
	refs := 0
	for key, f := range files {
		var targets []string
		for _, m := range absolute.FindAllStringSubmatch(string(f.data), -1) {
			targets = append(targets, m[1])
		}
		if strings.HasSuffix(key, ".html") {
			page, _ := url.Parse(testBase + "/" + key)
			for _, m := range attr.FindAllStringSubmatch(string(f.data), -1) {
				u, err := url.Parse(strings.Trim(m[1], `"'`))
				if err != nil || u.Scheme == "data" || (u.Host != "" && u.Host != page.Host) {
					continue
				}
				targets = append(targets, page.ResolveReference(u).Path)
			}
		}
		for _, p := range targets {
			p = strings.TrimPrefix(strings.SplitN(p, "#", 2)[0], "/")
			if p == "" || strings.HasSuffix(p, "/") {
				p += "index.html"
			}
			if strings.HasPrefix(p, "logos/") == false && path.Ext(p) == "" {
				continue
			}
			if _, ok := files[p]; !ok {
				t.Errorf("%s names %s, which the tree does not have", key, p)
				continue
			}
			if p == key {
				continue
			}
			refs++
			from, to := stepOf(key), stepOf(p)
			if to < from || to == StepIndexes || to == from && to == StepPages && slug(p) == slug(key) {
				continue
			}
			t.Errorf("%s (step %d) names %s (step %d): it could be uploaded first", key, from, p, to)
		}
	}
	if refs < 20 {
		t.Errorf("found only %d references: the reader of references is broken", refs)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestLocalHost(t *testing.T) {
	for base, want := range map[string]bool{
		"http://localhost:8080": true, "http://LOCALHOST.": true, "http://a.b.localhost": true,
		"http://127.0.0.1": true, "http://127.1.2.3:9": true, "http://[::1]": true, "http://0.0.0.0": true, "http://[::]:80": true,
		"https://logos.example.com": false, "": false, "/logos": false, "http://localhost.example.com": false,
		"http://10.0.0.1": false, "https://mylocalhost": false,
	} {
		if _, got := localHost(base); got != want {
			t.Errorf("localHost(%q) = %v, want %v", base, got, want)
		}
	}
}

func TestParseState(t *testing.T) {
	tree := build(t, goldenSrc(t), testBase)
	files, _, err := readTree(tree, false)
	if err != nil {
		t.Fatal(err)
	}
	s := newState(testBase, files)
	data, err := s.marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := parseState(data)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(s, back); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	for _, tc := range []struct{ in, want string }{
		{`{"format":2,"generator":"logoindex publish","headers":[],"objects":{}}`, "not a record of this version"},
		{`{"format":1,"generator":"logoindex publish","headers":[],"objects":{"a":{"md5":"00","size":1,"headers":0}}}`, `object "a": md5 "00" is not 32 hex digits`},
		{`{"format":1,"generator":"logoindex publish","headers":[],"objects":{"a":{"md5":"00000000000000000000000000000000","size":1,"headers":0}}}`, `object "a": headers 0 or size 1 out of range`},
		{`{"format":1,"generator":"logoindex publish","extra":1}`, `unknown field "extra"`},
	} {
		if _, err := parseState([]byte(tc.in)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("parseState(%s) = %v, want %q", tc.in, err, tc.want)
		}
	}
}

// FuzzParseState: the record comes from the bucket, which others can
// write. No input may panic, and an accepted record must be usable.
func FuzzParseState(f *testing.F) {
	f.Add([]byte(`{"format":1,"generator":"logoindex publish","base_url":"x","headers":[["a","b"]],"objects":{"k":{"md5":"00000000000000000000000000000000","size":1,"headers":0}}}`))
	f.Add([]byte(`{"format":1,"generator":"logoindex publish","headers":null,"objects":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := parseState(data)
		if err != nil {
			return
		}
		for key := range s.Objects {
			s.headersOf(key)
		}
		if _, err := s.marshal(); err != nil {
			t.Fatal(err)
		}
	})
}
