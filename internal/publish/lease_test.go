package publish

import (
	"bytes"
	"context"
	"errors"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"gocloud.dev/blob"
)

// notes collects what Options.Note is told.
type notes struct {
	mu    sync.Mutex
	lines []string
}

func (n *notes) note(msg string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.lines = append(n.lines, msg)
}

func (n *notes) String() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return strings.Join(n.lines, "\n")
}

// leaseOpts are fast Options for a publish named holder, with a short
// lease (long enough for its renewals on a busy machine) and the notes
// collected into n.
func leaseOpts(holder string, n *notes) Options {
	opts := fast
	opts.Holder, opts.LeaseTTL, opts.Note = holder, 2*time.Second, n.note
	return opts
}

// head reads the newest generation of the store's lease.
func head(t *testing.T, store *fakeStore) (uint64, *leaseRecord) {
	t.Helper()
	var gen uint64
	for k := range store.snapshot() {
		if isLeaseKey(k) {
			var g uint64
			for _, c := range strings.TrimPrefix(k, LeasePrefix) {
				g = 10*g + uint64(c-'0')
			}
			gen = max(gen, g)
		}
	}
	if gen == 0 {
		return 0, nil
	}
	rec, err := parseLease(store.snapshot()[leaseKey(gen)].data)
	if err != nil {
		t.Fatal(err)
	}
	return gen, rec
}

// holdPuts makes every upload of the tree wait until the returned release
// is called; entered is closed when the first one starts.
func holdPuts(store *fakeStore) (entered chan struct{}, release func()) {
	entered, gate := make(chan struct{}), make(chan struct{})
	var once sync.Once
	store.before = func(ctx context.Context, op, key string) error {
		if op != "PUT" {
			return nil
		}
		once.Do(func() { close(entered) })
		select {
		case <-gate:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	var rel sync.Once
	return entered, func() { rel.Do(func() { close(gate) }) }
}

type result struct {
	sum *Summary
	err error
}

// goPub publishes in a goroutine.
func goPub(tree fstest.MapFS, b *blob.Bucket, opts Options) chan result {
	ch := make(chan result, 1)
	go func() {
		sum, err := pub(context.Background(), tree, b, opts)
		ch <- result{sum, err}
	}()
	return ch
}

// TestLeaseSecondPublishWaits: while a publish holds the lease (and renews
// it, for longer than it lasts), a second one waits for it, then refuses
// naming the holder; with a longer wait it publishes once the first is
// done, after reading the bucket again.
func TestLeaseSecondPublishWaits(t *testing.T) {
	src := goldenSrc(t)
	first := build(t, src, testBase)
	delete(src, "night-owl/icon-dark.svg") // so the second deletes a file only the first sent
	src["night-owl/logo.yaml"].Data = append(src["night-owl/logo.yaml"].Data, "aliases: [Owl]\n"...)
	second := build(t, src, testBase)
	store, b := newFake()
	entered, release := holdPuts(store)
	defer release()
	var aNotes, bNotes notes
	a := goPub(first, b, leaseOpts("alice@ci (pid 1)", &aNotes))
	select {
	case <-entered:
	case r := <-a:
		t.Fatalf("the first publish ended before its first upload: %v", r.err)
	}

	opts := leaseOpts("bob@laptop (pid 2)", &bNotes)
	opts.Wait = 100 * time.Millisecond
	start := time.Now()
	_, err := pub(context.Background(), second, b, opts)
	var held *LeaseHeldError
	if !errors.As(err, &held) || held.Holder != "alice@ci (pid 1)" || !strings.Contains(err.Error(), "another publish holds the bucket's lease (waited 100ms): alice@ci (pid 1), since ") {
		t.Fatalf("error %v, want a LeaseHeldError naming alice", err)
	}
	if waited := time.Since(start); waited < 100*time.Millisecond {
		t.Errorf("refused after %s, before its wait", waited)
	}
	if !strings.Contains(bNotes.String(), "waiting for the bucket's lease, held by alice@ci (pid 1) since ") {
		t.Errorf("notes of the waiting publish:\n%s", bNotes.String())
	}
	// At once with no wait; alice's lease, two seconds long, is renewed
	// all along.
	opts.Wait = 0
	time.Sleep(2200 * time.Millisecond)
	if _, err := pub(context.Background(), second, b, opts); !errors.As(err, &held) || !strings.Contains(err.Error(), "holds the bucket's lease: alice") {
		t.Fatalf("with no wait, after the first lease would have expired: %v", err)
	}

	opts.Wait = 10 * time.Second
	bob := goPub(second, b, opts)
	time.Sleep(50 * time.Millisecond)
	release()
	if r := <-a; r.err != nil {
		t.Fatalf("the first publish: %v", r.err)
	}
	r := <-bob
	if r.err != nil {
		t.Fatalf("the second publish: %v", r.err)
	}
	// It read the bucket again once it had the lease: the dark icon the
	// first sent is deleted.
	checkHolds(t, store, second)
	if gen, rec := head(t, store); gen != 2 || !rec.Released || rec.Holder != "bob@laptop (pid 2)" {
		t.Errorf("lease generation %d: %+v, want bob's second generation, released", gen, rec)
	}
	if aNotes.String() != "" {
		t.Errorf("the first publish was told:\n%s", aNotes.String())
	}
}

// putLease writes generation gen of the lease as another publish would.
func putLease(store *fakeStore, gen uint64, rec leaseRecord) {
	rec.Format = leaseFormat
	if rec.Token == "" {
		rec.Token = token()
	}
	store.put(leaseKey(gen), rec.marshal(), "application/json", "no-store")
}

// TestLeaseExpiredTakenOver: a lease its holder stopped renewing is taken
// over once it has expired, with a note; the generations before are
// deleted. An unreadable one is taken over too.
func TestLeaseExpiredTakenOver(t *testing.T) {
	tree := build(t, goldenSrc(t), testBase)
	store, b := newFake()
	ago := time.Now().Add(-time.Hour)
	putLease(store, 6, leaseRecord{Holder: "old", Acquired: ago, Expires: ago, Released: true})
	putLease(store, 7, leaseRecord{Holder: "ghost@ci (pid 9)", Acquired: ago, Expires: ago.Add(2 * time.Minute)})
	var n notes
	if _, err := pub(context.Background(), tree, b, leaseOpts("me", &n)); err != nil {
		t.Fatal(err)
	}
	if want := "took over the bucket's lease from ghost@ci (pid 9), which expired at " + clock(ago.Add(2*time.Minute)); !strings.Contains(n.String(), want) {
		t.Errorf("notes:\n%s\nwant %q", n.String(), want)
	}
	checkHolds(t, store, tree)
	var leases []string
	for k := range store.snapshot() {
		if isLeaseKey(k) {
			leases = append(leases, k)
		}
	}
	if gen, rec := head(t, store); len(leases) != 1 || gen != 8 || !rec.Released || rec.Holder != "me" {
		t.Errorf("lease objects %v, newest %d %+v: want generation 8 alone, released", leases, gen, rec)
	}

	store.put(leaseKey(9), []byte("{not a lease"), "application/json", "")
	n = notes{}
	if _, err := pub(context.Background(), tree, b, leaseOpts("me", &n)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(n.String(), "took over the bucket's lease, whose object "+leaseKey(9)+" could not be read") {
		t.Errorf("notes:\n%s", n.String())
	}
	// A released lease is taken without a word.
	n = notes{}
	if _, err := pub(context.Background(), tree, b, leaseOpts("me", &n)); err != nil || n.String() != "" {
		t.Errorf("after a released lease: %v, notes:\n%s", err, n.String())
	}
}

// TestLeaseReleasedOnInterrupt: Ctrl-C in the middle of an upload stops
// the publish and releases the lease, so the next need not wait.
func TestLeaseReleasedOnInterrupt(t *testing.T) {
	tree := build(t, goldenSrc(t), testBase)
	store, b := newFake()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store.before = func(ctx context.Context, op, key string) error {
		if op == "PUT" {
			cancel()
			<-ctx.Done()
			return ctx.Err()
		}
		return nil
	}
	var n notes
	opts := leaseOpts("me", &n)
	opts.LeaseTTL = time.Hour
	tr, err := ReadTree(tree, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Publish(ctx, tr, b, opts); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want an interrupt", err)
	}
	if gen, rec := head(t, store); gen != 1 || !rec.Released {
		t.Errorf("lease %d %+v, want it released", gen, rec)
	}
	store.before = nil
	opts.Wait = 0
	if _, err := pub(context.Background(), tree, b, opts); err != nil {
		t.Errorf("the next publish: %v", err)
	}
}

// TestLeaseLost: a publish that finds its lease taken over (it could not
// renew it in time) stops before the indexes, and says why; so does one
// that cannot renew it before it runs out.
func TestLeaseLost(t *testing.T) {
	tree := build(t, goldenSrc(t), testBase)
	for _, tc := range []struct {
		name, want string
		ttl        time.Duration
		// before runs before the publish starts, during while its
		// uploads are held.
		before, during func(store *fakeStore)
	}{
		{name: "taken over", want: "stopped: the bucket's lease was taken over by mallory after this publish failed to renew it in time", ttl: 2 * time.Second,
			during: func(store *fakeStore) {
				gen, _ := head(t, store)
				putLease(store, gen+1, leaseRecord{Holder: "mallory", Acquired: time.Now(), Expires: time.Now().Add(time.Hour)})
			}},
		{name: "not renewed", want: "stopped: could not renew the bucket's lease before it expired (blob (key \"" + leaseKey(1) + "\") (code=PermissionDenied): fake: access denied), so this publish stopped", ttl: time.Second,
			before: func(store *fakeStore) {
				// The lease is created and found conditional; every write
				// after, a renewal, is denied.
				var puts atomic.Int32
				store.beforeLease = func(_ context.Context, op, _ string) error {
					if op == "PUT" && puts.Add(1) > 2 {
						return errFakeDenied
					}
					return nil
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store, b := newFake()
			entered, release := holdPuts(store)
			defer release()
			if tc.before != nil {
				tc.before(store)
			}
			var n notes
			opts := leaseOpts("me", &n)
			opts.LeaseTTL = tc.ttl
			res := goPub(tree, b, opts)
			var r result
			select {
			case <-entered:
				if tc.during != nil {
					tc.during(store)
				}
				r = <-res
			case r = <-res:
				t.Fatalf("the publish ended before its first upload: %v", r.err)
			}
			var inc *IncompleteError
			if !errors.As(r.err, &inc) || !strings.HasPrefix(r.err.Error(), tc.want) || !strings.Contains(r.err.Error(), "the bucket still serves the previous tree") {
				t.Fatalf("error %v\nwant %q", r.err, tc.want)
			}
			for _, k := range store.ops("start", "PUT") {
				if stepOf(k) == StepIndexes || k == StateKey {
					t.Errorf("%s was written after the lease was lost", k)
				}
			}
		})
	}
}

// TestLeaseWithoutConditionalWrites: a store that ignores IfNotExist is
// found out, and the lease is best-effort, with a note.
func TestLeaseWithoutConditionalWrites(t *testing.T) {
	tree := build(t, goldenSrc(t), testBase)
	for _, ignores := range []bool{false, true} {
		store, b := newFake()
		store.noConditional = ignores
		var n notes
		if _, err := pub(context.Background(), tree, b, leaseOpts("me", &n)); err != nil {
			t.Fatal(err)
		}
		warned := strings.Contains(n.String(), "the store ignored a conditional write (If-None-Match), so the bucket's lease is best-effort")
		if warned != ignores {
			t.Errorf("store ignoring conditions %v: notes:\n%s", ignores, n.String())
		}
		checkHolds(t, store, tree)
	}
}

// TestLeaseRace: two publishes that create the same generation at the same
// moment: the store lets one succeed, the other waits for it.
func TestLeaseRace(t *testing.T) {
	tree := build(t, goldenSrc(t), testBase)
	store, b := newFake()
	var arrived sync.WaitGroup
	arrived.Add(2)
	var creates atomic.Int32
	var n1, n2 notes
	store.beforeLease = func(_ context.Context, op, key string) error {
		if op != "PUT" || key != leaseKey(1) {
			return nil
		}
		// Both creations of the first generation get here before either
		// writes.
		if creates.Add(1) <= 2 {
			arrived.Done()
			arrived.Wait()
			return nil
		}
		// The winner renews or releases its lease only once the other has
		// found it held, however the two are scheduled.
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			if strings.Contains(n1.String()+n2.String(), "waiting for the bucket's lease") {
				break
			}
		}
		return nil
	}
	o1, o2 := leaseOpts("one", &n1), leaseOpts("two", &n2)
	o1.Wait, o2.Wait = 10*time.Second, 10*time.Second
	r1, r2 := goPub(tree, b, o1), goPub(tree, b, o2)
	if r := <-r1; r.err != nil {
		t.Fatal(r.err)
	}
	if r := <-r2; r.err != nil {
		t.Fatal(r.err)
	}
	waited := 0
	for _, n := range []*notes{&n1, &n2} {
		if strings.Contains(n.String(), "waiting for the bucket's lease") {
			waited++
		}
	}
	if waited != 1 {
		t.Errorf("%d publishes waited, want 1:\n%s\n%s", waited, n1.String(), n2.String())
	}
	if gen, rec := head(t, store); gen != 2 || !rec.Released {
		t.Errorf("lease %d %+v, want generation 2, released", gen, rec)
	}
	checkHolds(t, store, tree)
}

// TestLeaseHandWritten: lease objects no publish wrote, a generation at
// the top of the range (whose next would wrap to 0) and one too large to
// read, neither hang a publish nor lock the bucket.
func TestLeaseHandWritten(t *testing.T) {
	tree := build(t, goldenSrc(t), testBase)
	store, b := newFake()
	later := time.Now().Add(time.Hour)
	putLease(store, math.MaxUint64, leaseRecord{Holder: "mallory", Acquired: time.Now(), Expires: later})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var n notes
	if _, err := pub(ctx, tree, b, leaseOpts("me", &n)); err != nil {
		t.Fatalf("with a generation of %d in the bucket: %v", uint64(math.MaxUint64), err)
	}
	checkHolds(t, store, tree)

	store.put(leaseKey(1000), bytes.Repeat([]byte(" "), 65<<10), "application/json", "")
	n = notes{}
	if _, err := pub(ctx, tree, b, leaseOpts("me", &n)); err != nil {
		t.Fatalf("with a lease object of 65 KiB: %v", err)
	}
	if !strings.Contains(n.String(), "took over the bucket's lease, whose object "+leaseKey(1000)+" could not be read") {
		t.Errorf("notes:\n%s", n.String())
	}
}
