// Command logoindex validates a folder of logo sources and builds the static
// logo index from it. Its usage (TestUsageDocumented keeps this in step
// with the flags):
//
//	usage:
//	  logoindex build [pattern ...] [-base-url URL] [-format format] [-install-template command]
//	                                [-no-cache] [-out folder] [-src folder] [-strict]
//	                                [-workers goroutines]
//	  logoindex check [pattern ...] [-format format] [-src folder] [-strict]
//	  logoindex new <slug> -category slug -hex colour -name name [-license identifier] [-source URL]
//	                       [-src folder]
//	  logoindex serve [-addr address] [-base-url URL] [-dir folder] [-format format]
//	                  [-install-template command] [-interval duration] [-log] [-no-cache]
//	                  [-src folder] [-strict] [-watch] [-workers goroutines]
//	  logoindex publish -to URL [-base-url URL] [-dir folder] [-dry-run] [-force] [-workers objects]
//
//	Exit status: 0 on success, 1 when a logo is invalid (with -strict, also on a warning), 2 on bad usage, 130 or 143 when stopped by Ctrl-C (SIGINT) or SIGTERM.
//	Run 'logoindex <command> -h' for what each flag does.
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

// terminalLines makes a message the program put together (an exitError's)
// safe to print: the lines it is made of stay lines, and whatever each line
// holds is shown escaped (escape.Terminal), so text from a file cannot drive
// the terminal. Other errors, which can carry paths, are escaped whole.
func terminalLines(msg string) string {
	lines := strings.Split(msg, "\n")
	for i, l := range lines {
		lines[i] = escape.Terminal(l)
	}
	return strings.Join(lines, "\n")
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
			fmt.Fprintln(stderr, "logoindex: "+terminalLines(ee.msg))
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

// commands are the subcommands, in the order the usage lists them.
var commands = []struct {
	name, args string
	// flagSet returns the command's flags, registered on a new set; the
	// usage is made from it, so it always lists every flag.
	flagSet func(stderr io.Writer) *flag.FlagSet
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}{
	{"build", patternsArg, func(w io.Writer) *flag.FlagSet { fs, _ := buildFlagSet(w); return fs }, runBuild},
	{"check", patternsArg, func(w io.Writer) *flag.FlagSet { fs, _ := checkFlagSet(w); return fs }, runCheck},
	{"new", "<slug>", func(w io.Writer) *flag.FlagSet { fs, _ := scaffoldFlagSet(w); return fs }, runNew},
	{"serve", "", func(w io.Writer) *flag.FlagSet { fs, _ := serveFlagSet(w); return fs }, runServe},
	{"publish", "", func(w io.Writer) *flag.FlagSet { fs, _ := publishFlagSet(w); return fs }, runPublish},
}

// usage is the program's usage, made from the flag sets of the commands.
func usage() string {
	var b strings.Builder
	b.WriteString("usage:\n")
	for _, c := range commands {
		b.WriteString(indent(synopsis(c.flagSet(io.Discard), c.args), "  ") + "\n")
	}
	b.WriteString("\n" + exitStatusDoc + "\nRun 'logoindex <command> -h' for what each flag does.")
	return b.String()
}

// exitStatusDoc is said in the usage and the README.
const exitStatusDoc = "Exit status: 0 on success, 1 when a logo is invalid (with -strict, also on a warning), 2 on bad usage, 130 or 143 when stopped by Ctrl-C (SIGINT) or SIGTERM."

// synopsis is a command's usage line, wrapped: required flags (their usage
// says "(required)") first, then the others in brackets, each with the
// name of its value.
func synopsis(fs *flag.FlagSet, args string) string {
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

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// run is the whole program: only it and main touch the process.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage())
		return &exitError{code: 2}
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(ctx, args[1:], stdout, stderr)
		}
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(stdout, usage())
		return nil
	}
	fmt.Fprintln(stderr, usage())
	return usageError("unknown command %q", args[0])
}

// newFlagSet returns a flag set that reports errors instead of exiting,
// and whose -h prints the command's synopsis and flags.
func newFlagSet(name, args string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("logoindex "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: %s\n\n", synopsis(fs, args))
		fs.PrintDefaults()
	}
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
