package publish

import (
	"context"
	"errors"
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

// TestPublishVerify changes objects behind publish's back, each a way the
// listing and the record cannot see, and one each way they can: a verify
// finds every one, repairs them in the usual order, and writes nothing
// else.
func TestPublishVerify(t *testing.T) {
	tree := build(t, goldenSrc(t), testBase)
	store, b := publishedFake(t, tree)
	files := published(tree)
	sameSize := func(key string) []byte {
		return []byte(strings.Replace(string(files[key].data), "<svg", "<SVG", 1))
	}
	store.mu.Lock()
	for key, o := range map[string]fakeObject{
		// The same bytes again, with another Content-Type.
		"logos/acme/icon.svg": {data: files["logos/acme/icon.svg"].data, contentType: "text/plain", cacheControl: files["logos/acme/icon.svg"].cacheControl},
		// Another Cache-Control.
		"api/logos.json": {data: files["api/logos.json"].data, contentType: files["api/logos.json"].contentType, cacheControl: "no-cache"},
		// Other bytes of the same size, replaced so that the store gives
		// no MD5 for them.
		"logos/night-owl/icon.svg": {data: sameSize("logos/night-owl/icon.svg"), contentType: files["logos/night-owl/icon.svg"].contentType, cacheControl: files["logos/night-owl/icon.svg"].cacheControl, noMD5: true},
		// Other bytes, which the listing shows.
		"logos/acme/wordmark.svg": {data: sameSize("logos/acme/wordmark.svg"), contentType: files["logos/acme/wordmark.svg"].contentType, cacheControl: files["logos/acme/wordmark.svg"].cacheControl},
		// The same bytes without an MD5: read back, and left alone.
		"api/logos/acme.json": {data: files["api/logos/acme.json"].data, contentType: files["api/logos/acme.json"].contentType, cacheControl: files["api/logos/acme.json"].cacheControl, noMD5: true},
	} {
		store.objects[key] = o
	}
	delete(store.objects, "r/acme.json")
	store.log = nil
	store.mu.Unlock()

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

	want := map[string]string{
		"logos/acme/icon.svg":      `Content-Type "text/plain", not "image/svg+xml"`,
		"api/logos.json":           `Cache-Control "no-cache", not "public, max-age=300, stale-while-revalidate=86400"`,
		"logos/night-owl/icon.svg": "other bytes (read back: the store gives no MD5)",
		"logos/acme/wordmark.svg":  "other bytes",
		"r/acme.json":              "missing",
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
		if !dryRun && !slices.Equal(slices.Sorted(slices.Values(w)), slices.Sorted(func(yield func(string) bool) {
			for k := range want {
				yield(k)
			}
		})) {
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
