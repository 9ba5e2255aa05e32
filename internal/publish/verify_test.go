package publish

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// verifyReporter records a verify's checks besides the plan.
type verifyReporter struct {
	recordingReporter
	vmu      sync.Mutex
	total    int
	verified map[string]string
}

func (r *verifyReporter) VerifyStart(n int) { r.total, r.verified = n, map[string]string{} }
func (r *verifyReporter) Verified(key, diff string, err error) {
	r.vmu.Lock()
	defer r.vmu.Unlock()
	if err != nil {
		diff = "error: " + err.Error()
	}
	r.verified[key] = diff
}

// alterBehind changes objects of the bucket behind publish's back, each
// a way the listing and the record cannot see, and one each way they can,
// and returns how a verify finds each differs.
func alterBehind(store *fakeStore, files map[string]fakeObject) map[string]string {
	with := func(key string, change func(*fakeObject)) {
		o := files[key]
		change(&o)
		store.objects[key] = o
	}
	sameSize := func(o *fakeObject) { o.data = []byte(strings.Replace(string(o.data), "<svg", "<SVG", 1)) }
	store.mu.Lock()
	defer store.mu.Unlock()
	// The same bytes again, with another Content-Type; another
	// Cache-Control.
	with("logos/acme/icon.svg", func(o *fakeObject) { o.contentType = "text/plain" })
	with("api/logos.json", func(o *fakeObject) { o.cacheControl = "no-cache" })
	// Other bytes of the same size, replaced so that the store gives no
	// MD5 for them; other bytes the listing shows.
	with("logos/night-owl/icon.svg", func(o *fakeObject) { sameSize(o); o.noMD5 = true })
	with("logos/acme/wordmark.svg", sameSize)
	// The same bytes without an MD5: read back, and left alone.
	with("api/logos/acme.json", func(o *fakeObject) { o.noMD5 = true })
	delete(store.objects, "r/acme.json")
	store.log = nil
	return map[string]string{
		"logos/acme/icon.svg":      `Content-Type "text/plain", not "image/svg+xml"`,
		"api/logos.json":           `Cache-Control "no-cache", not "public, max-age=300, stale-while-revalidate=86400"`,
		"logos/night-owl/icon.svg": "other bytes (read back: the store gives no MD5)",
		"logos/acme/wordmark.svg":  "other bytes",
		"r/acme.json":              "missing",
	}
}

// TestPublishVerify changes objects behind publish's back (alterBehind):
// a verify finds every one, repairs them in the usual order, and writes
// nothing else.
func TestPublishVerify(t *testing.T) {
	tree := build(t, goldenSrc(t), testBase)
	store, b := publishedFake(t, tree)
	files := published(tree)
	want := alterBehind(store, files)

	// A plain publish trusts its record: it sees only what the listing shows.
	dry := fast
	dry.DryRun = true
	sum, err := pub(context.Background(), tree, b, dry)
	if err != nil {
		t.Fatal(err)
	}
	if got := keysOf(sum.Changes); !slices.Equal(got, []string{"logos/acme/wordmark.svg", "r/acme.json"}) {
		t.Errorf("a plain publish would upload %v", got)
	}

	for _, dryRun := range []bool{true, false} {
		store.log = nil
		rep := &verifyReporter{}
		opts := fast
		opts.Verify, opts.DryRun, opts.Reporter = true, dryRun, rep
		sum, err := pub(context.Background(), tree, b, opts)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, c := range sum.Changes {
			got[c.Key] = c.Reason
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("dry run %v: changes (-want +got):\n%s", dryRun, diff)
		}
		if rep.total != len(files) || len(rep.verified) != len(files) || sum.Verified != len(files) || sum.Differed != len(want) {
			t.Errorf("dry run %v: %d of %d objects checked, summary %d checked, %d differed", dryRun, len(rep.verified), rep.total, sum.Verified, sum.Differed)
		}
		if heads := store.ops("start", "HEAD"); len(heads) != len(files) {
			t.Errorf("dry run %v: %d HEAD requests for %d files", dryRun, len(heads), len(files))
		}
		if gets := store.ops("start", "GET"); !slices.Contains(gets, "logos/night-owl/icon.svg") || !slices.Contains(gets, "api/logos/acme.json") {
			t.Errorf("dry run %v: the objects without an MD5 were not read back: GET %v", dryRun, gets)
		}
		w := writes(store)
		if dryRun && len(w) > 0 {
			t.Errorf("a dry run wrote %v", w)
		}
		if !dryRun && !slices.Equal(slices.Sorted(slices.Values(w)), slices.Sorted(maps.Keys(want))) {
			t.Errorf("a verify wrote %v, want exactly %v", w, want)
		}
	}
	checkOrder(t, store.log)
	// The object without an MD5 but with the right bytes was left alone.
	store.mu.Lock()
	o := store.objects["api/logos/acme.json"]
	if !o.noMD5 {
		t.Errorf("api/logos/acme.json was written again")
	}
	o.noMD5 = false
	store.objects["api/logos/acme.json"] = o
	store.mu.Unlock()
	checkHolds(t, store, tree)

	// All repaired: a verify now writes nothing.
	store.log = nil
	opts := fast
	opts.Verify = true
	if sum, err := pub(context.Background(), tree, b, opts); err != nil || sum.Differed != 0 || len(writes(store)) > 0 {
		t.Errorf("verify of a repaired bucket: %+v, %v, wrote %v", sum, err, writes(store))
	}
}

// TestPublishVerifyFails: objects that cannot be checked stop the verify
// before anything is written, naming them.
func TestPublishVerifyFails(t *testing.T) {
	tree := build(t, goldenSrc(t), testBase)
	store, b := publishedFake(t, tree)
	store.before = func(_ context.Context, op, key string) error {
		if op == "HEAD" && strings.HasPrefix(key, "r/") {
			return errFakeDenied
		}
		return nil
	}
	opts := fast
	opts.Verify = true
	_, err := pub(context.Background(), tree, b, opts)
	var ve *VerifyError
	if !errors.As(err, &ve) || len(ve.Failed) != 3 || !strings.HasPrefix(err.Error(), "could not check 3 objects, so nothing was written:\n  check r/acme.json: ") {
		t.Fatalf("error %v", err)
	}
	if w := writes(store); len(w) > 0 {
		t.Errorf("a failed verify wrote %v", w)
	}
}

func keysOf(changes []Change) []string {
	var out []string
	for _, c := range changes {
		out = append(out, c.Key)
	}
	slices.Sort(out)
	return out
}
