// Package publish uploads a built logo index to a bucket through
// gocloud.dev/blob (S3 and S3-compatible stores, Google Cloud Storage,
// Azure Blob Storage, a local folder), so that no reader ever meets a
// broken reference. It works in steps, and starts a step only when every
// object of the one before is in place:
//
//  1. files that name no other: SVGs and hashed assets;
//  2. files only the indexes point to: per-logo JSON, pages and registry
//     items;
//  3. the indexes: api/logos.json, r/registry.json, the gallery;
//  4. the bucket's record of what it holds (StateKey);
//  5. deletions of what the tree no longer has, in the reverse order.
//
// A failed object or an interrupt stops before the next step, so the
// bucket always serves a whole tree, the old or the new one, plus at most
// files nothing points to. Unchanged objects (same size, MD5 and headers)
// are skipped: a second publish of the same tree writes nothing. Every
// object gets the Content-Type and Cache-Control of the site's rules
// (internal/headers), the same the build writes into _headers.
//
// A publish holds the bucket's lease while it writes (lease.go), so that
// two publishes never interleave. Options.Verify checks every object
// against the tree rather than trusting the listing and the record
// (verify.go). Options.Release publishes a pinned release under its own
// prefix instead of the site (release.go).
//
// Stages pass plain data: tree.go reads the tree into files, remote.go
// lists the bucket and its record, plan.go compares them into changes, and
// Publish (this file) checks the addresses and carries the changes out.
package publish

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	buildmanifest "logoindex/generator/manifest"
)

// Defaults of the zero Options.
const (
	DefaultWorkers   = 8
	DefaultAttempts  = 4
	DefaultRetryWait = 500 * time.Millisecond
	maxRetryWait     = 10 * time.Second
)

// Options configures Publish. The zero value publishes for real, with
// DefaultWorkers objects at a time and DefaultAttempts tries per object,
// refuses the trees and buckets described at Force, and reports nothing.
type Options struct {
	// DryRun plans and reports the changes but writes nothing.
	DryRun bool
	// Verify trusts neither the listing nor the record: it asks the
	// bucket for every object's size, MD5, Content-Type and Cache-Control
	// (reading back those the store gives no MD5 for), and uploads every
	// one that differs from the tree, in the usual order. It repairs what
	// was changed behind publish's back.
	Verify bool
	// ReadBack has Verify read every object back, whatever MD5 the store
	// gives: a folder's (file://) MD5 is what was noted at upload, and an
	// edit of the file does not change it.
	ReadBack bool
	// Force publishes what Publish otherwise refuses: a tree built for a
	// local address (localhost, 127.0.0.1, ...), a tree without a build
	// manifest, a tree built for another base URL than BaseURL or than the
	// one the bucket's record names, a bucket that holds objects but no
	// record (publish deletes what the tree lacks, so a mistyped bucket
	// would lose its content), and a tree that drops a logo the bucket
	// serves (see checkDropped).
	Force bool
	// BaseURL, when set, is the URL the bucket is served at: a tree built
	// for another is refused.
	BaseURL string
	// Workers bounds the objects written or deleted at once; 0 means
	// DefaultWorkers.
	Workers int
	// Attempts is how often an object is tried before it counts as failed
	// (only transient errors are retried); 0 means DefaultAttempts. The
	// store's own client may retry each request too: the AWS SDK's
	// standard retryer makes up to 3 attempts, the GCS client retries no
	// upload without a precondition.
	Attempts int
	// RetryWait is the wait before the first retry, doubled after each
	// (with jitter, at most 10 s); 0 means DefaultRetryWait.
	RetryWait time.Duration
	// Reporter, if not nil, is told the plan and every finished object.
	Reporter Reporter
	// Note, if not nil, is told what a user should know that is not a
	// change: waiting for the lease, taking over an expired one, a store
	// that ignores conditional writes.
	Note func(msg string)

	// Wait is how long to wait for the bucket's lease while another
	// publish holds it, before refusing (LeaseHeldError); 0 refuses at
	// once. A dry run neither takes nor waits for the lease.
	Wait time.Duration
	// LeaseTTL is how long the lease lasts unless renewed (it is renewed
	// every quarter of it); 0 means DefaultLeaseTTL.
	LeaseTTL time.Duration
	// Holder names this publish in the lease; "" means DefaultHolder().
	Holder string

	// Release, when set, publishes the tree as the pinned release of that
	// version (release.go): under ReleasePrefix(Release), every object
	// with ImmutableCacheControl, then listed in ReleasesKey; nothing is
	// deleted. The tree must be built for BaseURL/v/Release. The caller
	// checks the version (semver or a date); it must be one path segment.
	Release string
}

// Reporter follows a publish. Its methods are called one at a time.
type Reporter interface {
	// Plan is called once, before the first write, with the changes in
	// the order they will be made and the number of unchanged files.
	Plan(changes []Change, skipped int)
	// Retry is called when an operation failed and will be tried again.
	Retry(c Change, err error, attempt int)
	// Done is called when an operation ended; err is nil on success.
	Done(c Change, err error)
}

// Action is what a change does to an object.
type Action string

// The actions.
const (
	Upload Action = "upload"
	Delete Action = "delete"
	// Check is verify's read of an object; it is only ever retried
	// (Reporter.Retry) or failed (VerifyError), never planned.
	Check Action = "check"
)

// Change is one object to write or delete.
type Change struct {
	Key    string // the object's key, relative to the bucket (and its prefix)
	Action Action
	Reason string // "new", "changed", "headers changed", "not in the tree"
	Size   int64  // bytes to upload; 0 for a deletion
	Step   Step
}

// Step is one of the ordered steps of a publish.
type Step int

// The steps, in order.
const (
	StepLeaves  Step = iota // SVGs and hashed assets, which name no other file
	StepPages               // per-logo JSON, pages and registry items, named by the indexes
	StepIndexes             // api/logos.json, r/registry.json, index.html
	StepRecord              // the bucket's record, StateKey
	StepDelete              // deletions of what the tree no longer has
)

// Summary is what a publish did, or would do with DryRun.
type Summary struct {
	// Changes are the planned changes, in order.
	Changes []Change
	// Uploaded, Deleted and Skipped count files; Bytes is what was
	// uploaded. With DryRun they count what would be done.
	Uploaded, Deleted, Skipped int
	Bytes                      int64
	// Verified counts the objects Options.Verify checked, and Differed
	// those of them that differed from the tree.
	Verified, Differed int
	// BaseURL is what the tree was built for.
	BaseURL string
}

// RefusedError is a publish that Options.Force would allow.
type RefusedError struct{ Reason string }

func (e *RefusedError) Error() string { return e.Reason + "; pass -force if this is what you want" }

// TreeError lists every problem of the tree; nothing was published.
type TreeError struct{ Problems []string }

func (e *TreeError) Error() string { return strings.Join(e.Problems, "\n") }

// ObjectError is an object that failed after every attempt.
type ObjectError struct {
	Change Change
	Err    error
}

func (e *ObjectError) Error() string {
	return fmt.Sprintf("%s %s: %v", e.Change.Action, e.Change.Key, e.Err)
}

func (e *ObjectError) Unwrap() error { return e.Err }

// IncompleteError is a publish that stopped before its end: objects
// failed, ctx was cancelled (then it matches ctx.Err() with errors.Is), or
// the lease was lost (a LeaseLostError). Its message says what the bucket
// serves now.
type IncompleteError struct {
	Failed  []*ObjectError
	Cause   error  // ctx.Err() for an interrupt, a LeaseLostError, else nil
	Step    Step   // the step that did not finish
	Release string // the version, for a release
}

func (e *IncompleteError) Error() string {
	var b strings.Builder
	var lost *LeaseLostError
	switch {
	case errors.As(e.Cause, &lost):
		b.WriteString("stopped: " + lost.Error())
	case e.Cause != nil:
		b.WriteString("interrupted")
	default:
		fmt.Fprintf(&b, "%d %s failed", len(e.Failed), plural(len(e.Failed), "object", "objects"))
	}
	for _, f := range e.Failed {
		b.WriteString("\n  " + f.Error())
	}
	b.WriteString("\n")
	if e.Release != "" {
		fmt.Fprintf(&b, "%s does not list release %s yet, so no one has been told of it. Run the same release again to finish: the objects already under %s are the same, and are kept.", ReleasesKey, e.Release, ReleasePrefix(e.Release))
		return b.String()
	}
	switch e.Step {
	case StepLeaves, StepPages:
		b.WriteString("The indexes were not updated and nothing was deleted: the bucket still serves the previous tree, plus new files nothing points to yet.")
	case StepIndexes:
		b.WriteString("Some indexes are new and some old; every file either one names is in the bucket, and nothing was deleted.")
	case StepRecord:
		b.WriteString("The bucket serves the new tree, but its record is old, so the next publish sends some files again; nothing was deleted.")
	case StepDelete:
		b.WriteString("The bucket serves the new tree; some files it no longer has are still there.")
	}
	b.WriteString(" Run publish again to finish.")
	return b.String()
}

func (e *IncompleteError) Unwrap() error { return e.Cause }

// Tree is a built tree read into memory and checked, ready to publish.
// Holding the bytes means what is hashed is what is uploaded, even if a
// build replaces the folder meanwhile.
type Tree struct {
	files    map[string]*file
	manifest buildmanifest.Manifest
}

// ReadTree reads and checks the tree a build wrote. It reports every
// problem of the tree at once (TreeError), and refuses (RefusedError) a
// tree built for a local address or for another URL than opts.BaseURL,
// unless opts.Force is set. It never touches a bucket.
func ReadTree(fsys fs.FS, opts Options) (*Tree, error) {
	files, manifest, err := readTree(fsys, opts.Force)
	if err != nil {
		return nil, err
	}
	if err := checkTree(manifest, opts); err != nil {
		return nil, err
	}
	return &Tree{files: files, manifest: manifest}, nil
}

// Publish makes the bucket hold exactly the tree (less _headers,
// _redirects and hidden files), in the order described in the package
// comment. It refuses (RefusedError) a bucket whose record names another
// base URL, that holds objects but no record, or whose logos the tree
// drops, unless opts.Force is set. It holds the bucket's lease (lease.go)
// while it writes, and waits up to opts.Wait for one another publish
// holds (then LeaseHeldError). Once the plan is made the Summary is not
// nil, even with an error (IncompleteError).
func Publish(ctx context.Context, tree *Tree, b *blob.Bucket, opts Options) (*Summary, error) {
	var j job = &siteJob{tree: tree, b: b, opts: opts}
	if opts.Release != "" {
		if opts.Verify {
			return nil, errors.New("a release is never changed, so there is nothing to verify: verify the site without -release")
		}
		if v := opts.Release; strings.ContainsAny(v, `/\`) || v == "." || v == ".." {
			return nil, fmt.Errorf("release %q is not a version: it must be one segment of a path", v)
		}
		j = &releaseJob{tree: tree, b: b, opts: opts, version: opts.Release}
	}
	if opts.DryRun {
		if err := j.inspect(ctx); err != nil {
			return nil, err
		}
		return j.execute(ctx)
	}
	c := newLeaseConfig(opts)
	head, err := peekLease(ctx, b, c)
	if err != nil {
		return nil, err
	}
	wasFree := head.free(time.Now())
	// Refusals first: they write nothing, and need not wait for the lease.
	if err := j.inspect(ctx); err != nil {
		return nil, err
	}
	l, err := acquireLease(ctx, b, c, head)
	if err != nil {
		return nil, err
	}
	defer l.release()
	ctx, stop := l.keep(ctx)
	defer stop()
	if !wasFree || l.gen != head.gen+1 {
		// Another publish held the lease since the bucket was read, and
		// may have changed it: read it again.
		if err := j.inspect(ctx); err != nil {
			return nil, err
		}
	}
	sum, err := j.execute(ctx)
	return sum, withLostLease(ctx, err)
}

// withLostLease makes err, when the lease was lost under it, say so.
func withLostLease(ctx context.Context, err error) error {
	lost := lostCause(ctx)
	if lost == nil || err == nil {
		return err
	}
	var inc *IncompleteError
	if errors.As(err, &inc) {
		inc.Cause = lost
		return inc
	}
	return lost
}

// job is one kind of publish, which Publish runs under the lease.
type job interface {
	// inspect reads the bucket and returns a refusal, if any. It writes
	// nothing.
	inspect(ctx context.Context) error
	// execute plans the changes against what inspect read, reports them,
	// and carries them out unless Options.DryRun is set.
	execute(ctx context.Context) (*Summary, error)
}

// siteJob publishes the site: the bucket ends holding exactly the tree.
type siteJob struct {
	tree   *Tree
	b      *blob.Bucket
	opts   Options
	remote *remote // what inspect read
}

func (j *siteJob) inspect(ctx context.Context) error {
	remote, err := readRemote(ctx, j.b, j.opts.Force)
	if err != nil {
		return err
	}
	if err := checkBucket(remote, j.tree.manifest.BaseURL, j.opts.Force); err != nil {
		return err
	}
	if err := checkDropped(j.tree.files, remote.state, j.opts.Force); err != nil {
		return err
	}
	j.remote = remote
	return nil
}

func (j *siteJob) execute(ctx context.Context) (*Summary, error) {
	files, base := j.tree.files, j.tree.manifest.BaseURL
	r := &reporter{r: j.opts.Reporter}
	var checked map[string]string
	if j.opts.Verify {
		var err error
		if checked, err = verify(ctx, j.b, files, j.opts, r); err != nil {
			return nil, err
		}
	}
	p := plan(files, j.remote, checked)
	sum := startSummary(p, base, j.opts, r)
	if checked != nil {
		sum.Verified, sum.Differed = len(files), len(checked)
	}
	if j.opts.DryRun {
		return sum, nil
	}
	run := &runner{b: j.b, opts: j.opts, r: r, sum: sum}
	return sum, run.all(ctx, p.changes, files, func(ctx context.Context) *IncompleteError {
		return run.writeState(ctx, j.remote.stateData, newState(base, files))
	})
}

// startSummary reports the plan to r and returns the summary of what it
// would do. The counts restart from zero for a real run, to count what
// was done.
func startSummary(p changes, base string, opts Options, r *reporter) *Summary {
	sum := &Summary{Changes: p.changes, Skipped: p.skipped, BaseURL: base}
	for _, c := range p.changes {
		if c.Action == Upload {
			sum.Uploaded++
			sum.Bytes += c.Size
		} else {
			sum.Deleted++
		}
	}
	r.Plan(p.changes, p.skipped)
	if !opts.DryRun {
		sum.Uploaded, sum.Deleted, sum.Bytes = 0, 0, 0
	}
	return sum
}

// all carries out the changes batch by batch; record writes the record
// of the publish in its own step (StepRecord).
func (run *runner) all(ctx context.Context, changes []Change, files map[string]*file, record func(context.Context) *IncompleteError) error {
	for _, batch := range batches(changes) {
		var err *IncompleteError
		if batch.step == StepRecord {
			err = record(ctx)
		} else {
			err = run.step(ctx, batch.changes, files)
		}
		if err != nil {
			err.Step = batch.step
			return err
		}
	}
	return nil
}

// batch is changes that may run together: each waits for the one before.
type batch struct {
	step    Step
	changes []Change
}

// batches cuts the ordered changes at every step, and the deletions at
// every step of the files deleted, so that a page is gone before the SVGs
// it shows. The record has a batch of its own, after the indexes.
func batches(changes []Change) []batch {
	var out []batch
	for _, step := range []Step{StepLeaves, StepPages, StepIndexes, StepRecord} {
		b := batch{step: step}
		for _, c := range changes {
			if c.Step == step {
				b.changes = append(b.changes, c)
			}
		}
		out = append(out, b)
	}
	for _, of := range []Step{StepIndexes, StepPages, StepLeaves} {
		b := batch{step: StepDelete}
		for _, c := range changes {
			if c.Step == StepDelete && stepOf(c.Key) == of {
				b.changes = append(b.changes, c)
			}
		}
		if len(b.changes) > 0 {
			out = append(out, b)
		}
	}
	return out
}

// checkTree refuses a tree built for a local address or for another URL
// than opts.BaseURL.
func checkTree(m buildmanifest.Manifest, opts Options) error {
	if opts.Force {
		return nil
	}
	if len(m.Logos) > 0 {
		return &RefusedError{fmt.Sprintf("the tree holds only the logos that %q select (a partial build), and publish deletes from the bucket every object the tree lacks. Build every logo: logoindex build without patterns", m.Logos)}
	}
	if host, ok := localHost(m.BaseURL); ok {
		return &RefusedError{fmt.Sprintf("the tree was built for %s, and %s is this machine: every URL in it would point there. Build it for the URL the bucket is served at (make build BASE_URL=https://logos.example.com)", m.BaseURL, host)}
	}
	want := strings.TrimRight(opts.BaseURL, "/")
	if opts.Release != "" {
		return checkReleaseBase(m.BaseURL, want, opts.Release)
	}
	if want != "" && want != m.BaseURL {
		return &RefusedError{fmt.Sprintf("the tree was built for %s, not for %s; build it with BASE_URL=%s", describeBase(m.BaseURL), want, want)}
	}
	return nil
}

// checkReleaseBase refuses a release tree not built for site/v/version
// (site is "" when not given), whose every URL would point elsewhere.
func checkReleaseBase(base, site, version string) error {
	got, ok := siteBase(base, version)
	if ok && (site == "" || got == site) {
		return nil
	}
	if site == "" {
		site = "BASE"
	}
	return &RefusedError{fmt.Sprintf("the tree was built for %s, not for release %s: a release is built for %s/v/%s (logoindex release -version %s does it)", describeBase(base), version, site, version, version)}
}

// checkBucket refuses a bucket that serves another base URL, and one with
// objects but no record of a publish.
func checkBucket(remote *remote, base string, force bool) error {
	if force {
		return nil
	}
	if remote.state == nil && len(remote.objects) > 0 {
		return &RefusedError{fmt.Sprintf("the bucket holds %d %s but no %s, so logoindex has not published there before. Publish deletes every object the tree does not have: check the bucket URL", len(remote.objects), plural(len(remote.objects), "object", "objects"), StateKey)}
	}
	if remote.state != nil && remote.state.BaseURL != base {
		return &RefusedError{fmt.Sprintf("the bucket serves a tree built for %s (its %s says so), and this tree was built for %s. Build for %s, or move the bucket to the new URL", describeBase(remote.state.BaseURL), StateKey, describeBase(base), describeBase(remote.state.BaseURL))}
	}
	return nil
}

// checkDropped refuses a tree that lacks the detail of a logo the bucket
// serves, api/logos/<slug>.json. A logo removed on purpose keeps that file
// as a tombstone (the build writes one for every slug listed in
// source-logos/removed.yaml), so a tree without it has lost the logo by
// mistake: a source folder deleted or renamed, or a bad merge. Every URL
// of the logo would stop working for those who use it.
func checkDropped(files map[string]*file, s *state, force bool) error {
	if force || s == nil {
		return nil
	}
	var dropped []string
	for key := range s.Objects {
		if slug, ok := logoDetail(key); ok && files[key] == nil {
			dropped = append(dropped, slug)
		}
	}
	if len(dropped) == 0 {
		return nil
	}
	slices.Sort(dropped)
	return &RefusedError{fmt.Sprintf("the tree drops %d %s the bucket serves, and every URL of %s would stop working: %s. "+
		"To remove a logo on purpose, add it to source-logos/removed.yaml, with replaced_by if it has a successor, and build again: "+
		"the build then keeps api/logos/<slug>.json as a tombstone. If the logo should stay, restore its folder in source-logos",
		len(dropped), plural(len(dropped), "logo", "logos"), plural(len(dropped), "it", "them"), strings.Join(dropped, ", "))}
}

// logoDetail returns the slug of a logo's detail, api/logos/<slug>.json.
func logoDetail(key string) (string, bool) {
	rest, ok := strings.CutPrefix(key, "api/logos/")
	if !ok {
		return "", false
	}
	slug, ok := strings.CutSuffix(rest, ".json")
	return slug, ok && slug != "" && !strings.Contains(slug, "/")
}

func describeBase(base string) string {
	if base == "" {
		return "root-relative URLs (an empty base URL)"
	}
	return base
}

// localHost reports whether base names this machine: localhost and its
// subdomains, loopback and unspecified addresses. Such a tree works only
// on the machine that built it.
func localHost(base string) (string, bool) {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return "", false
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return host, true
	}
	if ip := net.ParseIP(host); ip != nil && (ip.IsLoopback() || ip.IsUnspecified()) {
		return host, true
	}
	return "", false
}

// runner carries out the changes.
type runner struct {
	b    *blob.Bucket
	opts Options
	r    *reporter
	sum  *Summary
	mu   sync.Mutex // guards sum
}

// step runs changes with up to Workers at once. It returns when all have
// ended, or when ctx is done and the ones under way have stopped.
func (run *runner) step(ctx context.Context, changes []Change, files map[string]*file) *IncompleteError {
	workers := run.opts.Workers
	if workers <= 0 {
		workers = DefaultWorkers
	}
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		failed []*ObjectError
	)
	sem := make(chan struct{}, workers)
loop:
	for _, c := range changes {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			break loop
		}
		wg.Go(func() {
			defer func() { <-sem }()
			var err error
			if c.Action == Upload {
				f := files[c.Key]
				err = run.retry(ctx, c, func(ctx context.Context) error {
					return run.b.WriteAll(ctx, c.Key, f.data, &blob.WriterOptions{
						ContentType:  f.contentType,
						CacheControl: f.cacheControl,
						ContentMD5:   f.md5[:],
					})
				})
			} else {
				err = run.retry(ctx, c, func(ctx context.Context) error {
					err := run.b.Delete(ctx, c.Key)
					if gcerrors.Code(err) == gcerrors.NotFound {
						return nil // gone already: what we wanted
					}
					return err
				})
			}
			if err != nil && ctx.Err() != nil {
				return // interrupted: reported once, below
			}
			run.r.Done(c, err)
			if err != nil {
				mu.Lock()
				failed = append(failed, &ObjectError{Change: c, Err: err})
				mu.Unlock()
				return
			}
			run.mu.Lock()
			if c.Action == Upload {
				run.sum.Uploaded++
				run.sum.Bytes += c.Size
			} else {
				run.sum.Deleted++
			}
			run.mu.Unlock()
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return &IncompleteError{Failed: failed, Cause: err}
	}
	if len(failed) > 0 {
		return &IncompleteError{Failed: failed}
	}
	return nil
}

// retry runs op until it succeeds, fails for good, or runs out of
// attempts, waiting longer before each new attempt.
func (run *runner) retry(ctx context.Context, c Change, op func(context.Context) error) error {
	return retry(ctx, run.opts, op, func(err error, attempt int) { run.r.Retry(c, err, attempt) })
}

// retry runs op as runner.retry does, telling onRetry, if not nil, of
// each failed attempt that will be tried again.
func retry(ctx context.Context, opts Options, op func(context.Context) error, onRetry func(err error, attempt int)) error {
	attempts := opts.Attempts
	if attempts <= 0 {
		attempts = DefaultAttempts
	}
	wait := opts.RetryWait
	if wait <= 0 {
		wait = DefaultRetryWait
	}
	for attempt := 1; ; attempt++ {
		err := op(ctx)
		if err == nil || ctx.Err() != nil || attempt >= attempts || !transient(err) {
			return err
		}
		if onRetry != nil {
			onRetry(err, attempt)
		}
		// Equal jitter: half the wait fixed, half random, so workers that
		// failed together do not retry together.
		t := time.NewTimer(wait/2 + rand.N(wait/2+1))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		wait = min(2*wait, maxRetryWait)
	}
}

// transient reports whether an error may go away on its own: server
// errors, throttling, timeouts and broken connections, but not a missing
// bucket, a denied permission or a bad request.
func transient(err error) bool {
	switch gcerrors.Code(err) {
	case gcerrors.Unknown, gcerrors.Internal, gcerrors.ResourceExhausted, gcerrors.DeadlineExceeded:
		return !errors.Is(err, context.Canceled)
	}
	return false
}

// reporter serialises calls to a Reporter, which may be nil.
type reporter struct {
	mu sync.Mutex
	r  Reporter
}

func (r *reporter) Plan(changes []Change, skipped int) {
	if r.r != nil {
		r.r.Plan(changes, skipped)
	}
}

func (r *reporter) Retry(c Change, err error, attempt int) {
	if r.r != nil {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.r.Retry(c, err, attempt)
	}
}

func (r *reporter) VerifyStart(objects int) {
	if v, ok := r.r.(VerifyReporter); ok {
		v.VerifyStart(objects)
	}
}

func (r *reporter) Verified(key, diff string, err error) {
	if v, ok := r.r.(VerifyReporter); ok {
		r.mu.Lock()
		defer r.mu.Unlock()
		v.Verified(key, diff, err)
	}
}

func (r *reporter) Done(c Change, err error) {
	if r.r != nil {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.r.Done(c, err)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
