// Command logoindex validates a folder of logo sources and builds the static
// logo index from it.
//
// Usage:
//
//	logoindex build [-src source-logos] [-out dist] [-base-url http://localhost:8080]
//	logoindex check [-src source-logos] [-strict] [-format text|github]
//	logoindex new <slug> -name "Brand" -hex "#RRGGBB" -category c [-src source-logos]
//	logoindex serve [-dir dist] [-addr 127.0.0.1:8080] [-watch -src source-logos]
//
// Exit status: 0 on success, 1 when any logo is invalid (or, with -strict,
// has a warning), 2 on bad usage, 130 or 143 when stopped by SIGINT
// (Ctrl-C) or SIGTERM, which stop every command within a second.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"logoindex/internal/escape"
)

func main() {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := (<-sigs).(syscall.Signal)
		// A second Ctrl-C ends the process at once, the default way.
		signal.Stop(sigs)
		cancel(&interrupted{sig})
		// Work in flight stops at its next check of ctx; what has not
		// returned by then (removing a half-written temporary tree of
		// thousands of files can take seconds) is cut short. The output
		// tree is swapped in atomically, so stopping anywhere leaves it as
		// it was, and the next build removes what the temporary tree left.
		time.AfterFunc(interruptGrace, func() { os.Exit(exitCode(&interrupted{sig}, os.Stderr)) })
	}()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if errors.Is(err, context.Canceled) && context.Cause(ctx) != nil {
		err = context.Cause(ctx)
	}
	os.Exit(exitCode(err, os.Stderr))
}

// interruptGrace is how long a run has to return after a signal, so that
// check, build and serve end within a second of Ctrl-C or SIGTERM.
const interruptGrace = 500 * time.Millisecond

// interrupted is the cause of a run stopped by a signal. Like a shell, the
// command then exits with 128 plus the signal's number: 130 for SIGINT,
// 143 for SIGTERM.
type interrupted struct{ sig syscall.Signal }

func (e *interrupted) Error() string {
	name := "SIGTERM"
	if e.sig == syscall.SIGINT {
		name = "SIGINT"
	}
	return "interrupted by " + name + "; nothing was written"
}

// exitError carries the exit status of a failed run. Its message has been
// printed already when msg is empty.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func usageError(format string, args ...any) error {
	return &exitError{code: 2, msg: fmt.Sprintf(format, args...)}
}

// errFailed is a run that printed its problems and must exit 1.
var errFailed = &exitError{code: 1}

func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(stderr, "logoindex: "+escape.Terminal(ee.msg))
		}
		return ee.code
	}
	var in *interrupted
	if errors.As(err, &in) {
		fmt.Fprintln(stderr, "logoindex: "+in.Error())
		return 128 + int(in.sig)
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "logoindex: interrupted; nothing was written")
		return 1
	}
	fmt.Fprintln(stderr, "logoindex: "+escape.Terminal(err.Error()))
	return 1
}

const usage = `usage:
  logoindex build [-src source-logos] [-out dist] [-base-url http://localhost:8080]
  logoindex check [-src source-logos] [-strict] [-format text|github]
  logoindex new <slug> -name "Brand" -hex "#RRGGBB" -category c [-src source-logos]
  logoindex serve [-dir dist] [-addr 127.0.0.1:8080] [-watch -src source-logos]

Run 'logoindex <command> -h' for a command's flags.`

// run is the whole program: only it and main touch the process.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return &exitError{code: 2}
	}
	switch args[0] {
	case "build":
		return runBuild(ctx, args[1:], stdout, stderr)
	case "check":
		return runCheck(ctx, args[1:], stdout, stderr)
	case "new":
		return runNew(args[1:], stdout, stderr)
	case "serve":
		return runServe(ctx, args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(stdout, usage)
		return nil
	}
	fmt.Fprintln(stderr, usage)
	return usageError("unknown command %q", args[0])
}

// newFlagSet returns a flag set that reports errors instead of exiting.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("logoindex "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseFlags parses args, allowing positional arguments between flags
// ("new github -name GitHub"), and returns the positional ones.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, &exitError{code: 0}
			}
			return nil, &exitError{code: 2}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// displayDir is how problems name the source folder: relative to the working
// directory when it is inside it, as the user typed it otherwise.
func displayDir(dir string) string {
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
