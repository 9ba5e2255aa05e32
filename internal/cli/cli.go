// Package cli is what the two programs of logoindex share: logoindex
// itself (cmd/logoindex) and logoindex-publish (cmd/logoindex-publish),
// which runs `logoindex publish`. Publishing links the clients of three
// cloud stores, whose start-up would slow every build and check; in a
// program of its own it costs only publishing.
//
// The package holds the exit statuses, the signal handling, the flag sets'
// parsing and usage, and publish's flags, which logoindex lists in its
// usage. It must stay free of heavy imports: both programs link it.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"

	"logoindex/internal/escape"
)

// Main runs a program: run with the process's arguments and standard
// files, stopped through its context by SIGINT or SIGTERM, then exits
// with the status ExitCode gives. A run has InterruptGrace to return after
// a signal.
func Main(run func(ctx context.Context, args []string, stdout, stderr io.Writer) error) {
	MainGrace(run, InterruptGrace)
}

// MainGrace is Main with another grace after a signal: publish needs a
// few seconds to release its lease on the bucket, over the network.
func MainGrace(run func(ctx context.Context, args []string, stdout, stderr io.Writer) error, grace time.Duration) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := (<-sigs).(syscall.Signal)
		// A second Ctrl-C ends the process at once, the default way.
		signal.Stop(sigs)
		cancel(&Interrupted{Sig: sig})
		// Work in flight stops at its next check of ctx; what has not
		// returned by then (removing a half-written temporary tree of
		// thousands of files can take seconds) is cut short. The output
		// tree is swapped in atomically, so stopping anywhere leaves it as
		// it was, and the next build removes what the temporary tree left.
		time.AfterFunc(grace, func() { os.Exit(ExitCode(&Interrupted{Sig: sig}, os.Stderr)) })
	}()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if errors.Is(err, context.Canceled) && context.Cause(ctx) != nil {
		err = context.Cause(ctx)
	}
	os.Exit(ExitCode(err, os.Stderr))
}

// InterruptGrace is how long a run has to return after a signal, so that
// check, build and serve end within a second of Ctrl-C or SIGTERM.
const InterruptGrace = 500 * time.Millisecond

// Interrupted is the cause of a run stopped by a signal. Like a shell, the
// command then exits with 128 plus the signal's number: 130 for SIGINT,
// 143 for SIGTERM.
type Interrupted struct {
	Sig syscall.Signal
	// Left says what the stopped run leaves behind, for the message.
	// Empty, it is "nothing was written", true of check and build, which
	// swap their output in whole or not at all; serve says its own.
	Left string
}

func (e *Interrupted) Error() string {
	name := "SIGTERM"
	if e.Sig == syscall.SIGINT {
		name = "SIGINT"
	}
	left := e.Left
	if left == "" {
		left = "nothing was written"
	}
	return "interrupted by " + name + "; " + left
}

// ExitError carries the exit status of a failed run. Its message has been
// printed already when Msg is empty.
type ExitError struct {
	Code int
	Msg  string
}

func (e *ExitError) Error() string { return e.Msg }

// UsageError is a run refused for its arguments: exit status 2.
func UsageError(format string, args ...any) error {
	return &ExitError{Code: 2, Msg: fmt.Sprintf(format, args...)}
}

// ErrFailed is a run that printed its problems and must exit 1.
var ErrFailed = &ExitError{Code: 1}

// ExitStatusDoc is said in the usage and in docs/cli.md.
const ExitStatusDoc = "Exit status: 0 on success, 1 when a logo is invalid (with -strict, also on a warning), 2 on bad usage, 130 or 143 when stopped by Ctrl-C (SIGINT) or SIGTERM."

// ExitCode prints err's message, if it has one to print, to stderr and
// returns the exit status for it.
func ExitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		if ee.Msg != "" {
			fmt.Fprintln(stderr, "logoindex: "+TerminalLines(ee.Msg))
		}
		return ee.Code
	}
	var in *Interrupted
	if errors.As(err, &in) {
		fmt.Fprintln(stderr, "logoindex: "+TerminalLines(in.Error()))
		return 128 + int(in.Sig)
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "logoindex: interrupted; nothing was written")
		return 1
	}
	fmt.Fprintln(stderr, "logoindex: "+escape.Terminal(err.Error()))
	return 1
}

// TerminalLines makes a message the program put together (an ExitError's)
// safe to print: the lines it is made of stay lines, and whatever each line
// holds is shown escaped (escape.Terminal), so text from a file cannot drive
// the terminal. Other errors, which can carry paths, are escaped whole.
func TerminalLines(msg string) string {
	lines := strings.Split(msg, "\n")
	for i, l := range lines {
		lines[i] = escape.Terminal(l)
	}
	return strings.Join(lines, "\n")
}

// NewFlagSet returns the flag set of the command name ("build"): it
// reports errors instead of exiting, and its -h prints the command's
// synopsis, with args, the positional arguments, and its flags.
func NewFlagSet(name, args string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("logoindex "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: %s\n\n", Synopsis(fs, args))
		fs.PrintDefaults()
	}
	return fs
}

// ParseFlags parses args, allowing positional arguments between flags
// ("new github -name GitHub"), and returns the positional ones.
func ParseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, &ExitError{Code: 0}
			}
			return nil, &ExitError{Code: 2}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// Synopsis is a command's usage line, wrapped: required flags (their usage
// says "(required)") first, then the others in brackets, each with the
// name of its value.
func Synopsis(fs *flag.FlagSet, args string) string {
	head := fs.Name()
	if args != "" {
		head += " " + args
	}
	var required, optional []string
	fs.VisitAll(func(f *flag.Flag) {
		name, help := flag.UnquoteUsage(f)
		s := "-" + f.Name
		if name != "" {
			s += " " + name
		}
		if strings.Contains(help, "(required)") {
			required = append(required, s)
		} else {
			optional = append(optional, "["+s+"]")
		}
	})
	const width = 96
	pad := strings.Repeat(" ", len(head)+1)
	var lines []string
	line := head
	for _, w := range append(required, optional...) {
		if len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = pad[:len(pad)-1]
		}
		line += " " + w
	}
	return strings.Join(append(lines, line), "\n")
}

// Indent puts prefix before each line of s.
func Indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// DisplayDir is how problems name a folder: relative to the working
// directory when it is inside it, as the user typed it otherwise.
func DisplayDir(dir string) string {
	clean := filepath.Clean(dir)
	if filepath.IsAbs(clean) {
		if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, clean); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				clean = rel
			}
		}
	}
	return filepath.ToSlash(clean)
}

// CheckBaseURL accepts an absolute http(s) URL or a root-relative path, and
// drops a trailing slash.
func CheckBaseURL(s string) (string, error) {
	s = strings.TrimRight(s, "/")
	if s == "" || strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "//") {
		return s, nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return "", UsageError("-base-url %q must be an absolute http(s) URL without query or fragment, such as https://logos.example.com", s)
	}
	return s, nil
}

// PublishArgs are the flags of publish.
type PublishArgs struct {
	Dir, To, BaseURL, Release string
	DryRun, Force, Verify     bool
	Workers                   int
	Wait                      time.Duration
}

// PublishWorkers and PublishWait are publish's default -workers and -wait:
// internal/publish's DefaultWorkers and DefaultWait, which a test of
// logoindex-publish holds them to (that package links the cloud stores'
// clients).
const (
	PublishWorkers = 8
	PublishWait    = 5 * time.Minute
)

// PublishFlagSet registers publish's flags on a new set.
func PublishFlagSet(stderr io.Writer) (*flag.FlagSet, *PublishArgs) {
	fs := NewFlagSet("publish", "", stderr)
	var a PublishArgs
	fs.StringVar(&a.Dir, "dir", "dist", "`folder` to publish: the output of build")
	fs.StringVar(&a.To, "to", "", "bucket `URL` (required): s3://bucket?region=r, gs://bucket, azblob://container, file:///path (credentials come from each store's environment and config files, never from flags)")
	fs.BoolVar(&a.DryRun, "dry-run", false, "list what would change, change nothing")
	fs.BoolVar(&a.Force, "force", false, "publish a tree built for localhost, for another base URL than the bucket's, or without a build manifest; or into a bucket holding objects logoindex did not publish (they are deleted)")
	fs.StringVar(&a.BaseURL, "base-url", "", "`URL` the bucket is served at: refuse a tree built for another (optional)")
	fs.IntVar(&a.Workers, "workers", PublishWorkers, "`objects` uploaded or deleted at once")
	fs.StringVar(&a.Release, "release", "", "publish the tree, built for BASE/v/`version`, as that pinned release: under v/version/ of the bucket, cached for ever, then listed in api/releases.json (logoindex release builds and publishes one)")
	fs.BoolVar(&a.Verify, "verify", false, "trust neither the bucket's listing nor publish's record: check every object's size, checksum, Content-Type and Cache-Control (reading back those without a checksum), and repair what differs")
	fs.DurationVar(&a.Wait, "wait", PublishWait, "how long to wait while another publish holds the bucket's lease, then refuse (`duration`; 0 refuses at once)")
	return fs, &a
}

// BucketSchemes are the schemes of the bucket URLs logoindex-publish
// opens, sorted; a test of it holds this list to the stores it links.
var BucketSchemes = []string{"azblob", "file", "gs", "s3"}

// CheckBucketURL checks the -to of command (publish, release): a URL of
// one of BucketSchemes, without credentials. It returns its scheme.
func CheckBucketURL(command, to string) (string, error) {
	if to == "" {
		return "", UsageError("%s needs -to, the bucket URL, such as -to s3://my-bucket?region=eu-west-1 (see docs/publishing.md)", command)
	}
	u, err := url.Parse(to)
	if err != nil || u.Scheme == "" {
		return "", UsageError("-to %q is not a bucket URL; use s3://bucket, gs://bucket, azblob://container or file:///path", to)
	}
	if !slices.Contains(BucketSchemes, u.Scheme) {
		return "", UsageError("-to %q: unknown scheme %q; use s3://, gs://, azblob:// or file://", to, u.Scheme)
	}
	if u.User != nil {
		return "", UsageError("-to must not hold credentials; they come from the store's environment (AWS_ACCESS_KEY_ID, GOOGLE_APPLICATION_CREDENTIALS, AZURE_STORAGE_KEY, ...)")
	}
	return u.Scheme, nil
}

// semver is the pattern of Semantic Versioning 2.0.0 without build
// metadata.
var semver = regexp.MustCompile(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-(0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)(\.(0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*))*)?$`)

// CheckVersion accepts the version of a release, the value of the flag
// name, which names its URLs
// (BASE/v/1.2.3/): a semantic version (1.0.0, 1.2.3-rc.1) or a date
// (2026-05-01). A leading v, as git tags have it, is dropped: v1.2.3 is
// 1.2.3. Build metadata (1.0.0+build.5) is refused: a + in a URL path is
// read as a space by some servers.
func CheckVersion(name, v string) (string, error) {
	if semver.MatchString(strings.TrimPrefix(v, "v")) {
		return strings.TrimPrefix(v, "v"), nil
	}
	if d, err := time.Parse(time.DateOnly, v); err == nil && d.Format(time.DateOnly) == v {
		return v, nil
	}
	hint := ""
	if strings.Contains(v, "+") {
		hint = " (without build metadata: a + in a URL path is read as a space by some servers)"
	}
	return "", UsageError("%s %q is neither a semantic version, such as 1.0.0 or 1.2.3-rc.1%s, nor a date, such as 2026-05-01", name, v, hint)
}
