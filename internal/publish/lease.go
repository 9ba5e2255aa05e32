package publish

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"logoindex/internal/escape"
)

// The lease keeps two publishes from writing to one bucket at once: two
// trees uploaded together would leave the bucket matching neither, its
// indexes naming files the other deleted. A publish holds the lease from
// before it reads the bucket until it has written its last object.
//
// The lease is a series of small objects under LeasePrefix, one per
// generation, numbered. The newest generation names the holder, a token
// only the holder knows, and an expiry. Each generation is created with a
// conditional write that fails when the object exists (If-None-Match: *
// on S3, a DoesNotExist precondition on GCS, If-None-Match on Azure):
// of two publishes that create the next generation at once, the store
// lets exactly one succeed. The holder renews its expiry every quarter of
// the lease's lifetime by rewriting its own generation, which no one else
// writes; a publish that crashed stops renewing, and the next one takes
// the lease over once it has expired, by creating the next generation.
// Taking over never deletes or rewrites another's object, so it needs no
// compare-and-swap, which gocloud does not offer. The holder releases the
// lease at the end, Ctrl-C included, by marking its generation released,
// and the next holder deletes the generations before its own.
//
// A store that ignores the condition (some S3-compatible servers) is
// found out on taking the lease: its second conditional write of the same
// object succeeds. The lease is then best-effort (the holder reads it back
// after a pause, which catches most overlaps) and Options.Note says so.

// LeasePrefix is the folder, at the root of the bucket (or of the -to
// URL's prefix), of the lease's objects. Publish neither lists them as
// content nor deletes them as objects the tree lacks.
const LeasePrefix = ".logoindex-publish.lease/"

// Lease timings of the zero Options.
const (
	// DefaultLeaseTTL is how long a lease lasts unless renewed: how long
	// a crashed publish keeps others out. Its holder renews it every
	// quarter of it.
	DefaultLeaseTTL = 2 * time.Minute
	// DefaultWait is the wait for a held lease that logoindex-publish's
	// -wait gives; the zero Options refuses at once.
	DefaultWait = 5 * time.Minute
)

// leaseFormat is the version of a lease object's layout.
const leaseFormat = 1

// leaseRecord is the content of one generation of the lease.
type leaseRecord struct {
	Format   int       `json:"format"`
	Holder   string    `json:"holder"` // who publishes: user@host, pid, CI run
	Token    string    `json:"token"`  // random: tells the holder its own lease
	Acquired time.Time `json:"acquired"`
	Expires  time.Time `json:"expires"`
	Released bool      `json:"released,omitempty"`
}

func (r *leaseRecord) marshal() []byte {
	b, _ := json.Marshal(r) // cannot fail: strings, ints and times
	return append(b, '\n')
}

func parseLease(data []byte) (*leaseRecord, error) {
	var r leaseRecord
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, err
	}
	if r.Format != leaseFormat || r.Token == "" {
		return nil, fmt.Errorf("not a lease of this version of logoindex publish (format %d)", r.Format)
	}
	return &r, nil
}

func leaseKey(gen uint64) string { return fmt.Sprintf("%s%020d", LeasePrefix, gen) }

// isLeaseKey reports whether key is one of the lease's objects.
func isLeaseKey(key string) bool { return strings.HasPrefix(key, LeasePrefix) }

// leaseHead is the newest generation of the lease, as listed and read.
type leaseHead struct {
	gen  uint64       // 0: no lease was ever taken
	rec  *leaseRecord // nil when there is none or it cannot be read
	bad  error        // why rec could not be read
	gens []uint64     // every generation listed, for the clean-up
}

// free reports whether the lease can be taken: never taken, released,
// expired, or unreadable.
func (h *leaseHead) free(now time.Time) bool {
	return h.rec == nil || h.rec.Released || !now.Before(h.rec.Expires)
}

// LeaseHeldError is a publish that found the bucket's lease held by
// another and did not get it within Options.Wait. Nothing was written.
type LeaseHeldError struct {
	Holder            string
	Acquired, Expires time.Time
	Waited            time.Duration
}

func (e *LeaseHeldError) Error() string {
	waited := ""
	if e.Waited > 0 {
		waited = fmt.Sprintf(" (waited %s)", e.Waited)
	}
	return fmt.Sprintf("another publish holds the bucket's lease%s: %s, since %s, until %s, and it renews the lease while it runs. "+
		"Run publish again when it has finished, or let it wait longer (-wait 15m). A publish that crashed keeps the lease until it expires",
		waited, who(e.Holder), clock(e.Acquired), clock(e.Expires))
}

// LeaseLostError stops a publish whose lease ran out: it could not renew
// it in time, and another publish may have taken it over.
type LeaseLostError struct {
	Holder string // the new holder, if there is one
	Err    error  // why renewing failed, if it did
}

func (e *LeaseLostError) Error() string {
	if e.Holder != "" {
		return fmt.Sprintf("the bucket's lease was taken over by %s after this publish failed to renew it in time, so this publish stopped", who(e.Holder))
	}
	return fmt.Sprintf("could not renew the bucket's lease before it expired (%v), so this publish stopped before another could take it over", e.Err)
}

func (e *LeaseLostError) Unwrap() error { return e.Err }

func clock(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") }

// who shows a holder read from the bucket, which anyone who can write
// there chose, as one line of plain text.
func who(holder string) string { return escape.Terminal(holder) }

// leaseConfig is what the lease takes from Options.
type leaseConfig struct {
	opts   Options // Attempts and RetryWait, for its own requests
	holder string
	ttl    time.Duration
	wait   time.Duration
	note   func(string)
}

func newLeaseConfig(opts Options) leaseConfig {
	c := leaseConfig{opts: opts, holder: opts.Holder, ttl: opts.LeaseTTL, wait: max(opts.Wait, 0), note: opts.Note}
	if c.holder == "" {
		c.holder = DefaultHolder()
	}
	if c.ttl <= 0 {
		c.ttl = DefaultLeaseTTL
	}
	if c.note == nil {
		c.note = func(string) {}
	}
	return c
}

// poll is how often a waiting publish looks at the lease again.
func (c leaseConfig) poll() time.Duration { return min(2*time.Second, c.ttl/4) }

// DefaultHolder names this publish in its lease: user@host and process,
// and the run on GitHub Actions, so that a refused publish can say who
// holds the bucket.
func DefaultHolder() string {
	user := os.Getenv("USER")
	if user == "" {
		user = os.Getenv("USERNAME")
	}
	host, _ := os.Hostname()
	h := fmt.Sprintf("%s@%s (pid %d)", user, host, os.Getpid())
	if os.Getenv("GITHUB_ACTIONS") == "true" && os.Getenv("GITHUB_RUN_ID") != "" {
		h += fmt.Sprintf(", %s/%s/actions/runs/%s", os.Getenv("GITHUB_SERVER_URL"), os.Getenv("GITHUB_REPOSITORY"), os.Getenv("GITHUB_RUN_ID"))
	}
	return h
}

// peekLease lists the lease's generations and reads the newest. A
// generation deleted between the two is looked for again.
func peekLease(ctx context.Context, b *blob.Bucket, c leaseConfig) (*leaseHead, error) {
	var h *leaseHead
	err := retry(ctx, c.opts, func(ctx context.Context) error {
		var err error
		for range 3 {
			if h, err = peekOnce(ctx, b); gcerrors.Code(err) != gcerrors.NotFound {
				break
			}
		}
		return err
	}, nil)
	if err != nil {
		return nil, fmt.Errorf("reading the bucket's lease (%s): %w", LeasePrefix, err)
	}
	return h, nil
}

func peekOnce(ctx context.Context, b *blob.Bucket) (*leaseHead, error) {
	h := &leaseHead{}
	it := b.List(&blob.ListOptions{Prefix: LeasePrefix})
	for {
		obj, err := it.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		gen, err := strconv.ParseUint(strings.TrimPrefix(obj.Key, LeasePrefix), 10, 64)
		if err != nil || obj.IsDir || gen > maxGeneration {
			continue // not a generation: none of publish's business
		}
		h.gens = append(h.gens, gen)
		h.gen = max(h.gen, gen)
	}
	if h.gen == 0 {
		return h, nil
	}
	data, err := readSmall(ctx, b, leaseKey(h.gen), 64<<10)
	if errors.Is(err, errTooLarge) {
		h.bad = err // no lease publish wrote: unreadable, and taken over
		return h, nil
	}
	if err != nil {
		return nil, err
	}
	h.rec, h.bad = parseLease(data)
	return h, nil
}

// maxGeneration is the largest generation publish counts. Publish adds
// one a lease, so it never comes near; an object past it was written by
// hand, and would make the next generation wrap to 0.
const maxGeneration = 1 << 53

// readSmall reads an object of at most limit bytes.
func readSmall(ctx context.Context, b *blob.Bucket, key string, limit int64) ([]byte, error) {
	r, err := b.NewReader(ctx, key, nil)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err == nil && int64(len(data)) > limit {
		err = fmt.Errorf("%s is larger than %d bytes: %w", key, limit, errTooLarge)
	}
	return data, err
}

// errTooLarge is readSmall's error for an object over its limit.
var errTooLarge = errors.New("too large")

// lease is a lease this publish holds.
type lease struct {
	b   *blob.Bucket
	c   leaseConfig
	gen uint64

	mu      sync.Mutex
	rec     leaseRecord // as last written
	lastErr error       // of the last renewal
}

// acquireLease takes the bucket's lease, head being its newest generation
// as last read. While another holds it, it waits up to c.wait, telling
// c.note once per holder, then returns a LeaseHeldError.
func acquireLease(ctx context.Context, b *blob.Bucket, c leaseConfig, head *leaseHead) (*lease, error) {
	deadline := time.Now().Add(c.wait)
	told := ""
	for {
		now := time.Now()
		switch {
		case head.free(now):
			l, err := tryLease(ctx, b, c, head)
			if l != nil || err != nil {
				return l, err
			}
			if !now.Before(deadline) {
				// Another took the free lease first: it holds it now.
				if head, err = peekLease(ctx, b, c); err != nil {
					return nil, err
				}
				return nil, &LeaseHeldError{Holder: head.rec.Holder, Acquired: head.rec.Acquired, Expires: head.rec.Expires, Waited: c.wait}
			}
		case !now.Before(deadline):
			return nil, &LeaseHeldError{Holder: head.rec.Holder, Acquired: head.rec.Acquired, Expires: head.rec.Expires, Waited: c.wait}
		default:
			if head.rec.Token != told {
				told = head.rec.Token
				c.note(fmt.Sprintf("waiting for the bucket's lease, held by %s since %s until %s (renewed while it runs); waiting up to %s",
					who(head.rec.Holder), clock(head.rec.Acquired), clock(head.rec.Expires), time.Until(deadline).Round(time.Second)))
			}
			if err := sleep(ctx, min(c.poll(), time.Until(deadline))); err != nil {
				return nil, err
			}
		}
		var err error
		if head, err = peekLease(ctx, b, c); err != nil {
			return nil, err
		}
	}
}

// tryLease creates the generation after head. It returns nil and no error
// when another publish created it first.
func tryLease(ctx context.Context, b *blob.Bucket, c leaseConfig, head *leaseHead) (*lease, error) {
	now := time.Now().UTC()
	l := &lease{b: b, c: c, gen: head.gen + 1, rec: leaseRecord{
		Format: leaseFormat, Holder: c.holder, Token: token(), Acquired: now, Expires: now.Add(c.ttl),
	}}
	data := l.rec.marshal()
	err := retry(ctx, c.opts, func(ctx context.Context) error {
		return b.WriteAll(ctx, leaseKey(l.gen), data, leaseWriteOptions(true))
	}, nil)
	// A failed precondition is another's lease, or this one's own earlier
	// attempt whose answer was lost: the read below tells.
	if err != nil && gcerrors.Code(err) != gcerrors.FailedPrecondition {
		return nil, fmt.Errorf("taking the bucket's lease (%s): %w", leaseKey(l.gen), err)
	}
	if won, err := l.holds(ctx); !won || err != nil {
		return nil, err
	}
	if !l.conditional(ctx, data) {
		// Best-effort: a rival's write made together may have replaced this
		// one; wait for it to land, then look again.
		if err := sleep(ctx, c.poll()); err != nil {
			l.release() // it is this publish's, interrupted
			return nil, err
		}
		if won, err := l.holds(ctx); !won || err != nil {
			return nil, err
		}
	}
	switch {
	case head.bad != nil:
		c.note(fmt.Sprintf("took over the bucket's lease, whose object %s could not be read (%v)", leaseKey(head.gen), head.bad))
	case head.rec != nil && !head.rec.Released:
		c.note(fmt.Sprintf("took over the bucket's lease from %s, which expired at %s without being released (that publish stopped without finishing?)", who(head.rec.Holder), clock(head.rec.Expires)))
	}
	l.cleanUp(ctx, head.gens)
	return l, nil
}

// holds reports whether the newest generation is this lease's.
func (l *lease) holds(ctx context.Context) (bool, error) {
	h, err := peekLease(ctx, l.b, l.c)
	if err != nil {
		return false, err
	}
	return h.gen == l.gen && h.rec != nil && h.rec.Token == l.rec.Token, nil
}

// conditional writes the lease again, under the same condition as it was
// created: a store that honours conditional writes refuses. One that does
// not is noted, and the lease is best-effort.
func (l *lease) conditional(ctx context.Context, data []byte) bool {
	err := retry(ctx, l.c.opts, func(ctx context.Context) error {
		return l.b.WriteAll(ctx, leaseKey(l.gen), data, leaseWriteOptions(true))
	}, nil)
	if err != nil {
		return true // refused, as it should be, or unknown: assume so
	}
	l.c.note("the store ignored a conditional write (If-None-Match), so the bucket's lease is best-effort: two publishes started at the same moment may both run. Run one publish at a time on this store")
	return false
}

// cleanUp deletes the generations before this one, which no one reads
// any more. It is best-effort: leftovers are deleted next time.
func (l *lease) cleanUp(ctx context.Context, gens []uint64) {
	for _, g := range gens {
		if g < l.gen {
			_ = l.b.Delete(ctx, leaseKey(g))
		}
	}
}

func leaseWriteOptions(ifNotExist bool) *blob.WriterOptions {
	return &blob.WriterOptions{ContentType: "application/json; charset=utf-8", CacheControl: "no-store", IfNotExist: ifNotExist}
}

func token() string {
	b := make([]byte, 16)
	rand.Read(b) // never fails
	return hex.EncodeToString(b)
}

// sleep waits for d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(max(d, 0))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// keep renews the lease every quarter of its lifetime until stop is
// called. The context it returns is cancelled, with a LeaseLostError as
// its cause, when the lease is lost: taken over, or not renewed by an
// eighth of its lifetime before it expires (a watchdog of its own, which
// a renewal stuck on the network cannot hold up). The publish then stops
// at once.
func (l *lease) keep(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	watchdog := time.AfterFunc(l.margin(), func() {
		l.mu.Lock()
		err := l.lastErr
		l.mu.Unlock()
		if err == nil {
			err = errors.New("no renewal came back in time")
		}
		cancel(&LeaseLostError{Err: err})
	})
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(l.c.ttl / 4)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if err := l.renew(ctx); err != nil {
				cancel(err)
				return
			}
			watchdog.Reset(l.margin())
		}
	}()
	return ctx, func() { close(quit); <-done; watchdog.Stop() }
}

// margin is the time left until the lease, as last renewed, is an eighth
// of its lifetime from expiring.
func (l *lease) margin() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return time.Until(l.rec.Expires.Add(-l.c.ttl / 8))
}

// renew pushes the lease's expiry back, after checking that no one has
// taken it over (then it returns a LeaseLostError). A renewal that fails
// is tried again at the next tick; the watchdog of keep stops the publish
// if none succeeds in time.
func (l *lease) renew(ctx context.Context) error {
	l.mu.Lock()
	rec := l.rec
	l.mu.Unlock()
	h, err := peekLease(ctx, l.b, l.c)
	if err == nil && (h.gen != l.gen || h.rec == nil || h.rec.Token != rec.Token) {
		lost := &LeaseLostError{Holder: "another publish"}
		if h.rec != nil {
			lost.Holder = h.rec.Holder
		}
		return lost
	}
	if err == nil {
		rec.Expires = time.Now().UTC().Add(l.c.ttl)
		err = retry(ctx, l.c.opts, func(ctx context.Context) error {
			return l.b.WriteAll(ctx, leaseKey(l.gen), rec.marshal(), leaseWriteOptions(false))
		}, nil)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err == nil {
		l.rec = rec
	}
	l.lastErr = err
	return nil
}

// release marks the lease released, so the next publish need not wait
// for it to expire. It runs after ctx is cancelled too (Ctrl-C), on a
// context of its own.
func (l *lease) release() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	l.mu.Lock()
	rec := l.rec
	l.mu.Unlock()
	rec.Released, rec.Expires = true, time.Now().UTC()
	err := retry(ctx, l.c.opts, func(ctx context.Context) error {
		return l.b.WriteAll(ctx, leaseKey(l.gen), rec.marshal(), leaseWriteOptions(false))
	}, nil)
	if err != nil {
		l.mu.Lock()
		until := l.rec.Expires
		l.mu.Unlock()
		l.c.note(fmt.Sprintf("could not release the bucket's lease (%v); it expires by itself at %s", err, clock(until)))
	}
}

// lostCause returns the LeaseLostError that cancelled ctx, if one did.
func lostCause(ctx context.Context) *LeaseLostError {
	var lost *LeaseLostError
	if errors.As(context.Cause(ctx), &lost) {
		return lost
	}
	return nil
}
