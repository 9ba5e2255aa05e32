// Command logoindex validates a folder of logo sources and builds the static
// logo index from it. Its usage (TestUsageDocumented keeps this in step
// with the flags):
//
//	usage:
//	  logoindex build [pattern ...] [-base-url URL] [-format format] [-install-template command]
//	                                [-no-cache] [-out folder] [-src folder] [-strict]
//	                                [-workers goroutines]
//	  logoindex check [pattern ...] [-format format] [-published URL] [-src folder] [-strict]
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
	"flag"
	"fmt"
	"io"
	"logoindex/internal/cli"
	"os"
	"strings"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "publish" {
		execPublish(os.Args[2:]) // returns only when it cannot
	}
	setMemoryFloor()
	cli.Main(run)
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
	{"publish", "", func(w io.Writer) *flag.FlagSet { fs, _ := cli.PublishFlagSet(w); return fs }, runPublish},
}

// usage is the program's usage, made from the flag sets of the commands.
func usage() string {
	var b strings.Builder
	b.WriteString("usage:\n")
	for _, c := range commands {
		b.WriteString(cli.Indent(cli.Synopsis(c.flagSet(io.Discard), c.args), "  ") + "\n")
	}
	b.WriteString("\n" + cli.ExitStatusDoc + "\nRun 'logoindex <command> -h' for what each flag does.")
	return b.String()
}

// run is the whole program: only it and main touch the process.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage())
		return &cli.ExitError{Code: 2}
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
	return cli.UsageError("unknown command %q", args[0])
}
