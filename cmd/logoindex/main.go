// Command logoindex validates a folder of logo sources and builds the static
// logo index from it.
//
// Usage:
//
//	logoindex build [-src source-logos] [-out dist] [-base-url http://localhost:8080]
//	logoindex check [-src source-logos] [-strict] [-format text|github]
//	logoindex new <slug> -name "Brand" -hex "#RRGGBB" -category c [-src source-logos]
//	logoindex serve [-dir dist] [-addr 127.0.0.1:8080] [-watch -src source-logos]
//	logoindex publish [-dir dist] -to URL [-dry-run] [-force] [-base-url URL]
//
// Exit status: 0 on success, 1 when any logo is invalid (or, with -strict,
// has a warning), 2 on bad usage.
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
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err, os.Stderr))
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
			fmt.Fprintln(stderr, "logoindex: "+ee.msg)
		}
		return ee.code
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "logoindex: interrupted; nothing was written")
		return 1
	}
	fmt.Fprintln(stderr, "logoindex: "+err.Error())
	return 1
}

const usage = `usage:
  logoindex build [-src source-logos] [-out dist] [-base-url http://localhost:8080]
  logoindex check [-src source-logos] [-strict] [-format text|github]
  logoindex new <slug> -name "Brand" -hex "#RRGGBB" -category c [-src source-logos]
  logoindex serve [-dir dist] [-addr 127.0.0.1:8080] [-watch -src source-logos]
  logoindex publish [-dir dist] -to s3://bucket|gs://bucket|azblob://container|file:///path
                    [-dry-run] [-force] [-base-url URL] [-workers 8]

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
	case "publish":
		return runPublish(ctx, args[1:], stdout, stderr)
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
