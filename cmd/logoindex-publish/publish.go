// Command logoindex-publish uploads a built tree to a bucket: it is
// `logoindex publish`, which runs it, in a program of its own (see
// internal/cli). Its flags are publish's:
//
//	logoindex-publish -to URL [-base-url URL] [-dir folder] [-dry-run] [-force] [-release version]
//	                  [-verify] [-wait duration] [-workers objects]
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"gocloud.dev/blob"
	_ "gocloud.dev/blob/azureblob" // azblob://
	_ "gocloud.dev/blob/fileblob"  // file://
	_ "gocloud.dev/blob/gcsblob"   // gs://
	_ "gocloud.dev/blob/s3blob"    // s3://
	"golang.org/x/term"

	"logoindex/internal/cli"
	"logoindex/internal/escape"
	"logoindex/internal/publish"
)

// run is the program: `logoindex publish` with args, its flags. It
// uploads a built tree to a bucket (see internal/publish).
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, a := cli.PublishFlagSet(stderr)
	pos, err := cli.ParseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return cli.UsageError("publish takes no arguments, got %q", pos)
	}
	scheme, err := checkArgs(a)
	if err != nil {
		return err
	}
	start := time.Now()
	opts := publish.Options{DryRun: a.DryRun, Force: a.Force, Verify: a.Verify, ReadBack: scheme == "file", Release: a.Release, BaseURL: a.BaseURL, Workers: a.Workers, Wait: a.Wait,
		Note: func(msg string) { fmt.Fprintln(stderr, "logoindex: "+escape.Terminal(msg)) }}
	// The tree first: its problems need no bucket and no credentials. It
	// is read whole between two builds, and uploaded from memory.
	unlock, err := lockBuild(a.Dir, func() { opts.Note("waiting for the build of " + a.Dir + " to finish") })
	if err != nil {
		return err
	}
	root, err := os.OpenRoot(a.Dir)
	if err != nil {
		unlock()
		return err
	}
	tree, err := publish.ReadTree(root.FS(), opts)
	root.Close()
	unlock()
	if err != nil {
		return publishError(ctx, err, a.Dir, scheme, stderr)
	}

	bucket, err := blob.OpenBucket(ctx, a.To)
	if err != nil {
		return fmt.Errorf("opening %s: %w%s", a.To, err, credentialHint(scheme))
	}
	defer bucket.Close()

	rep := newReporter(stdout, stderr, a.DryRun)
	opts.Reporter = rep
	sum, err := publish.Publish(ctx, tree, bucket, opts)
	rep.finish()
	if sum != nil {
		fmt.Fprintln(stdout, summary(sum, a, err != nil, time.Since(start).Round(time.Millisecond)))
	}
	return publishError(ctx, err, a.Dir, scheme, stderr)
}

// checkArgs checks the flags, normalising the base URL and the version,
// and returns the bucket URL's scheme.
func checkArgs(a *cli.PublishArgs) (scheme string, err error) {
	if scheme, err = cli.CheckBucketURL("publish", a.To); err != nil {
		return "", err
	}
	if a.Workers < 1 {
		return "", cli.UsageError("-workers must be at least 1")
	}
	if a.Wait < 0 {
		return "", cli.UsageError("-wait must not be negative; 0 refuses at once while another publish holds the bucket")
	}
	if a.Release != "" {
		if a.Release, err = cli.CheckVersion("-release", a.Release); err != nil {
			return "", err
		}
		if a.Verify {
			return "", cli.UsageError("-verify does not go with -release: a release never changes; verify the site without -release")
		}
	}
	if a.BaseURL != "" {
		if a.BaseURL, err = cli.CheckBaseURL(a.BaseURL); err != nil {
			return "", err
		}
	}
	if info, err := os.Stat(a.Dir); err != nil || !info.IsDir() {
		return "", cli.UsageError("-dir %s is not a folder; build it first: make build BASE_URL=https://logos.example.com", a.Dir)
	}
	return scheme, nil
}

// reporter is what publish reports to: a progress bar on a terminal,
// lines otherwise.
type reporter interface {
	publish.Reporter
	publish.VerifyReporter
	finish()
}

func newReporter(stdout, stderr io.Writer, dryRun bool) reporter {
	if f, ok := stderr.(*os.File); ok && !dryRun && term.IsTerminal(int(f.Fd())) {
		return &barReporter{w: stderr}
	}
	return &lineReporter{w: stdout, dryRun: dryRun}
}

// summary is the last line: what was done, or would be.
func summary(sum *publish.Summary, a *cli.PublishArgs, failed bool, elapsed time.Duration) string {
	switch {
	case a.Verify:
		return verifySummary(sum, a.Dir, a.To, a.DryRun, failed, elapsed)
	case a.Release != "":
		return releaseSummary(sum, a.Release, a.To, a.DryRun, failed, elapsed)
	}
	return summaryLine(sum, a.Dir, a.To, a.DryRun, failed, elapsed)
}

// publishError turns an error of the publish package into the command's
// message and exit status 1.
func publishError(ctx context.Context, err error, dir, scheme string, stderr io.Writer) error {
	var (
		tree       *publish.TreeError
		refused    *publish.RefusedError
		pinned     *publish.ReleaseRefusedError
		incomplete *publish.IncompleteError
		held       *publish.LeaseHeldError
	)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.Canceled):
		// The signal's: it says what the bucket serves now, when objects
		// were sent.
		var in *cli.Interrupted
		if errors.As(context.Cause(ctx), &in) && errors.As(err, &incomplete) {
			return &cli.Interrupted{Sig: in.Sig, Left: strings.TrimSpace(strings.TrimPrefix(incomplete.Error(), "interrupted"))}
		}
		return err
	case errors.As(err, &tree):
		for _, p := range tree.Problems {
			fmt.Fprintln(stderr, escape.Terminal(cli.DisplayDir(dir)+"/"+p))
		}
		return &cli.ExitError{Code: 1, Msg: fmt.Sprintf("%s cannot be published; nothing was sent", dir)}
	case errors.As(err, &refused):
		return &cli.ExitError{Code: 1, Msg: "refusing to publish: " + err.Error()}
	case errors.As(err, &pinned):
		return &cli.ExitError{Code: 1, Msg: "refusing to release: " + err.Error()}
	case errors.As(err, &incomplete), errors.As(err, &held):
		return &cli.ExitError{Code: 1, Msg: err.Error()}
	}
	if scheme == "file" && (errors.Is(err, syscall.EXDEV) || strings.Contains(err.Error(), "cross-device link")) {
		return &cli.ExitError{Code: 1, Msg: err.Error() + "\n(the bucket's folder is on another file system than the temporary folder; add no_tmp_dir=1 to the file:// URL, as in file:///srv/logos?no_tmp_dir=1)"}
	}
	return &cli.ExitError{Code: 1, Msg: err.Error() + credentialHint(scheme)}
}

// credentialHint says where each store's client looks for credentials.
func credentialHint(scheme string) string {
	switch scheme {
	case "s3":
		return "\n(S3 credentials come from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE and ~/.aws, or the machine's role; the region from ?region= or AWS_REGION)"
	case "gs":
		return "\n(GCS credentials come from GOOGLE_APPLICATION_CREDENTIALS, gcloud auth application-default login, or the machine's service account)"
	case "azblob":
		return "\n(Azure credentials come from AZURE_STORAGE_ACCOUNT with AZURE_STORAGE_KEY or AZURE_STORAGE_SAS_TOKEN, or the Azure CLI login)"
	}
	return ""
}

func summaryLine(s *publish.Summary, dir, to string, dryRun, failed bool, elapsed time.Duration) string {
	switch {
	case dryRun:
		return fmt.Sprintf("dry run: would upload %d %s (%s) and delete %d; %d unchanged; nothing was changed (%s)",
			s.Uploaded, plural(s.Uploaded, "file", "files"), byteSize(s.Bytes), s.Deleted, s.Skipped, elapsed)
	case !failed && s.Uploaded == 0 && s.Deleted == 0:
		return fmt.Sprintf("nothing to publish: %s already holds %s (%d files unchanged), checked in %s", to, dir, s.Skipped, elapsed)
	}
	verb := "published"
	if failed {
		verb = "stopped publishing"
	}
	return fmt.Sprintf("%s %s to %s: uploaded %d %s (%s), deleted %d, skipped %d unchanged, in %s",
		verb, dir, to, s.Uploaded, plural(s.Uploaded, "file", "files"), byteSize(s.Bytes), s.Deleted, s.Skipped, elapsed)
}

// releaseSummary is summaryLine for -release. The list of releases is
// the last upload, counted apart.
func releaseSummary(s *publish.Summary, version, to string, dryRun, failed bool, elapsed time.Duration) string {
	prefix, files := publish.ReleasePrefix(version), max(s.Uploaded-1, 0)
	switch {
	case dryRun:
		return fmt.Sprintf("dry run: would release %s to %s: upload %d %s (%s) under %s, then list %s in %s; nothing was changed (%s)",
			version, to, files, plural(files, "file", "files"), byteSize(s.Bytes), prefix, version, publish.ReleasesKey, elapsed)
	case failed:
		return fmt.Sprintf("stopped releasing %s to %s: uploaded %d %s (%s) under %s, and %s does not list it yet, in %s",
			version, to, s.Uploaded, plural(s.Uploaded, "file", "files"), byteSize(s.Bytes), prefix, publish.ReleasesKey, elapsed)
	}
	return fmt.Sprintf("released %s to %s: uploaded %d %s (%s) under %s, and listed %s in %s, in %s",
		version, to, files, plural(files, "file", "files"), byteSize(s.Bytes), prefix, version, publish.ReleasesKey, elapsed)
}

// verifySummary is summaryLine for -verify.
func verifySummary(s *publish.Summary, dir, to string, dryRun, failed bool, elapsed time.Duration) string {
	differed := fmt.Sprintf("%d differed from %s", s.Differed, dir)
	switch {
	case dryRun:
		return fmt.Sprintf("dry run: verified %d objects of %s (%s): would upload %d %s (%s) and delete %d; nothing was changed (%s)",
			s.Verified, to, differed, s.Uploaded, plural(s.Uploaded, "file", "files"), byteSize(s.Bytes), s.Deleted, elapsed)
	case !failed && s.Uploaded == 0 && s.Deleted == 0:
		return fmt.Sprintf("verified %s: its %d objects match %s, checked in %s", to, s.Verified, dir, elapsed)
	}
	verb := "verified"
	if failed {
		verb = "stopped repairing"
	}
	return fmt.Sprintf("%s %d objects of %s (%s): uploaded %d %s (%s), deleted %d, in %s",
		verb, s.Verified, to, differed, s.Uploaded, plural(s.Uploaded, "file", "files"), byteSize(s.Bytes), s.Deleted, elapsed)
}

func byteSize(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f kB", float64(n)/1000)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1000/1000)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// lineReporter prints a line per change: for CI logs, pipes and dry runs.
// A verify prints each object that differs, and its progress every tenth
// when it checks many.
type lineReporter struct {
	w             io.Writer
	dryRun        bool
	total, tested int
}

func (r *lineReporter) VerifyStart(objects int) {
	r.total = objects
	fmt.Fprintf(r.w, "verifying %d objects\n", objects)
}

func (r *lineReporter) Verified(key, diff string, err error) {
	r.tested++
	switch {
	case err != nil:
		fmt.Fprintf(r.w, "FAILED check %s: %v\n", key, err)
	case diff != "":
		fmt.Fprintf(r.w, "differs %s: %s\n", key, diff)
	}
	if r.total >= 100 && r.tested*10/r.total != (r.tested-1)*10/r.total {
		fmt.Fprintf(r.w, "checked %d of %d objects\n", r.tested, r.total)
	}
}

func (r *lineReporter) Plan(changes []publish.Change, skipped int) {
	if r.dryRun {
		for _, c := range changes {
			fmt.Fprintln(r.w, "would "+describe(c))
		}
		return
	}
	if len(changes) > 0 {
		uploads, deletes, bytes := 0, 0, int64(0)
		for _, c := range changes {
			if c.Action == publish.Upload {
				uploads++
				bytes += c.Size
			} else {
				deletes++
			}
		}
		fmt.Fprintf(r.w, "to do: upload %d %s (%s), delete %d; %d unchanged\n", uploads, plural(uploads, "file", "files"), byteSize(bytes), deletes, skipped)
	}
}

func (r *lineReporter) Retry(c publish.Change, err error, attempt int) {
	fmt.Fprintf(r.w, "retrying %s %s (attempt %d failed: %v)\n", c.Action, c.Key, attempt, err)
}

func (r *lineReporter) Done(c publish.Change, err error) {
	if err != nil {
		fmt.Fprintf(r.w, "FAILED %s %s: %v\n", c.Action, c.Key, err)
		return
	}
	fmt.Fprintln(r.w, past(c.Action)+" "+strings.TrimPrefix(describe(c), string(c.Action)+" "))
}

func (r *lineReporter) finish() {}

func describe(c publish.Change) string {
	if c.Action == publish.Delete {
		return fmt.Sprintf("delete %s (%s)", c.Key, c.Reason)
	}
	return fmt.Sprintf("upload %s (%s, %s)", c.Key, byteSize(c.Size), c.Reason)
}

func past(a publish.Action) string {
	if a == publish.Delete {
		return "deleted"
	}
	return "uploaded"
}

// barReporter draws a progress bar on a terminal; retries and failures
// are printed above it.
type barReporter struct {
	w   io.Writer
	bar *progressbar.ProgressBar
}

func (r *barReporter) VerifyStart(objects int) { r.bar = r.newBar(objects, "verifying") }

func (r *barReporter) Verified(key, diff string, err error) {
	switch {
	case err != nil:
		r.above(fmt.Sprintf("FAILED check %s: %v", key, err))
	case diff != "":
		r.above(fmt.Sprintf("differs %s: %s", key, diff))
	}
	r.bar.Add(1)
}

func (r *barReporter) Plan(changes []publish.Change, skipped int) {
	r.finish() // the verify's
	r.bar = nil
	if len(changes) == 0 {
		return
	}
	r.bar = r.newBar(len(changes), "publishing")
}

func (r *barReporter) newBar(n int, what string) *progressbar.ProgressBar {
	return progressbar.NewOptions(n,
		progressbar.OptionSetWriter(r.w),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(65*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetRenderBlankState(true),
	)
}

func (r *barReporter) Retry(c publish.Change, err error, attempt int) {
	r.above(fmt.Sprintf("retrying %s %s (attempt %d failed: %v)", c.Action, c.Key, attempt, err))
}

func (r *barReporter) Done(c publish.Change, err error) {
	if err != nil {
		r.above(fmt.Sprintf("FAILED %s %s: %v", c.Action, c.Key, err))
	}
	if r.bar != nil {
		r.bar.Add(1)
	}
}

func (r *barReporter) above(line string) {
	if r.bar != nil {
		r.bar.Clear()
	}
	fmt.Fprintln(r.w, line)
}

func (r *barReporter) finish() {
	if r.bar != nil {
		r.bar.Finish()
	}
}

// interruptGrace is how long publish has after Ctrl-C or SIGTERM to stop
// its requests and release the bucket's lease, over the network. A second
// Ctrl-C ends it at once.
const interruptGrace = 10 * time.Second

func main() { cli.MainGrace(run, interruptGrace) }
