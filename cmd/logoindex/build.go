package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"logoindex/generator"
	"logoindex/generator/outtree"
	"logoindex/generator/render"
	"logoindex/generator/source"
	"logoindex/internal/cli"
)

// sourceFlags are the flags build and check share, and their patterns.
type sourceFlags struct {
	src    string
	strict bool
	format string
	// logos are the positional patterns that select logos by slug
	// (check 'git*'); none selects every logo.
	logos []string
}

// patternsArg is how build and check name their positional arguments.
const patternsArg = "[pattern ...]"

// patternsFlagSet is cli.NewFlagSet for build and check, whose -h also says
// what the patterns are.
func patternsFlagSet(name, what string, stderr io.Writer) *flag.FlagSet {
	fs := cli.NewFlagSet(name, patternsArg, stderr)
	flags := fs.Usage
	fs.Usage = func() {
		flags()
		fmt.Fprintf(fs.Output(), "\nPatterns select logos by slug (doublestar: *, ?, [a-z], {a,b}; quote them), as in\nlogoindex %s 'git*': %s. Without patterns, every logo.\n", name, what)
	}
	return fs
}

func (s *sourceFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&s.src, "src", "source-logos", "source `folder`: categories.yaml and one folder per logo")
	fs.BoolVar(&s.strict, "strict", false, "fail on warnings too")
	fs.StringVar(&s.format, "format", "text", "problem `format`: text (path:line:col: message), github (workflow annotations titled with the code) or json (one object a line)")
}

func (s *sourceFlags) validate() error {
	if s.format != "text" && s.format != "github" && s.format != "json" {
		return cli.UsageError("-format must be text, github or json, not %q", s.format)
	}
	if s.src == "" {
		return cli.UsageError("-src must name a folder")
	}
	for _, p := range s.logos {
		if msg := source.CheckLogoPattern(p); msg != "" {
			return cli.UsageError("%s", msg)
		}
	}
	return nil
}

// options are the generator options the flags give.
func (s *sourceFlags) options() generator.Options {
	// -strict reports ignored files (.DS_Store, swap files) so that CI
	// notices them; a local run without it stays quiet about them.
	return generator.Options{Dir: cli.DisplayDir(s.src), ReportIgnored: s.strict, Logos: s.logos}
}

// quoteList quotes patterns for a message: "git*" or "git*", "npm".
func quoteList(ps []string) string {
	q := make([]string, len(ps))
	for i, p := range ps {
		q[i] = strconv.Quote(p)
	}
	return strings.Join(q, ", ")
}

// buildFlags are the flags of a build besides the output folder: build and
// serve -watch share them, and writeBuild, so both write the same tree.
type buildFlags struct {
	sourceFlags
	baseURL string
	install string
	workers int
	noCache bool
}

// register adds the flags; outFlag names the flag of the output folder
// ("out" for build, "dir" for serve), which the cache lives beside.
func (b *buildFlags) register(fs *flag.FlagSet, outFlag string) {
	b.sourceFlags.register(fs)
	fs.StringVar(&b.baseURL, "base-url", "http://localhost:8080", "`URL` the output folder is served at, used in every link")
	fs.StringVar(&b.install, "install-template", render.DefaultInstallTemplate, "install `command` of logos that set none; {base}, {slug} and {component} are replaced")
	fs.IntVar(&b.workers, "workers", 0, "`goroutines` that check and optimise (0: one per CPU)")
	fs.BoolVar(&b.noCache, "no-cache", false, fmt.Sprintf("build every logo and write every file anew, trusting nothing the last build left (in .<%s>.logoindex beside -%s)", outFlag, outFlag))
}

// validate checks the flags and normalises the base URL.
func (b *buildFlags) validate() error {
	if err := b.sourceFlags.validate(); err != nil {
		return err
	}
	base, err := cli.CheckBaseURL(b.baseURL)
	if err != nil {
		return err
	}
	b.baseURL = base
	// The install command is shown with a Copy button: the template obeys
	// the rule of install: in logo.yaml, once filled in.
	example := strings.NewReplacer("{base}", base, "{slug}", "acme", "{component}", "AcmeIcon").Replace(b.install)
	if msg := source.CheckInstall(example); msg != "" {
		return cli.UsageError("-install-template %q gives %q: %s", b.install, example, msg)
	}
	return nil
}

func buildFlagSet(stderr io.Writer) (*flag.FlagSet, *buildArgs) {
	fs := patternsFlagSet("build", "only they are written, into a tree that publish refuses", stderr)
	var a buildArgs
	a.register(fs, "out")
	fs.StringVar(&a.out, "out", "dist", "output `folder`; replaced atomically")
	return fs, &a
}

// buildArgs are the flags of build.
type buildArgs struct {
	buildFlags
	out string
}

func runBuild(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, a := buildFlagSet(stderr)
	pos, err := cli.ParseFlags(fs, args)
	if err != nil {
		return err
	}
	a.logos = pos
	if err := a.validate(); err != nil {
		return err
	}
	if err := checkApart(a.src, a.out, "out"); err != nil {
		return err
	}
	return writeBuild(ctx, a.buildFlags, a.out, stdout, stderr)
}

// writeBuild builds the sources into out, printing problems to stderr and
// a summary to stdout. On any problem out is left as it was.
func writeBuild(ctx context.Context, bf buildFlags, out string, stdout, stderr io.Writer) error {
	start := time.Now()
	src, err := openSource(bf.sourceFlags)
	if err != nil {
		return err
	}
	defer src.Close()
	res, err := generator.Build(ctx, src.FS(), buildOptions(bf, out))
	var warnings generator.ProblemList
	if res != nil {
		warnings = res.Warnings
	}
	if err := reportProblems(err, warnings, bf.sourceFlags, stderr); err != nil {
		if errors.Is(err, cli.ErrFailed) || errors.Is(err, context.Canceled) {
			return err
		}
		return fmt.Errorf("writing %s: %w (the previous output is unchanged)", out, err)
	}
	if res.CacheError != nil {
		fmt.Fprintf(stderr, "logoindex: could not save the build cache (the next build will redo everything): %v\n", res.CacheError)
	}
	what := fmt.Sprintf("%d rebuilt", res.Computed)
	if res.UpToDate {
		what = "up to date"
	}
	fmt.Fprintf(stdout, "built %s (%d files) into %s in %s, %s%s\n",
		count(res.Logos, "logo", "logos"), res.Files, out, time.Since(start).Round(time.Millisecond), what, warningSummary(res.Warnings))
	if len(bf.logos) > 0 {
		fmt.Fprintf(stdout, "%s holds only the logos %s select: a partial build, which publish refuses; build without patterns for the whole collection\n", out, quoteList(bf.logos))
	}
	return nil
}

// buildOptions are the options of a build of out with the flags bf.
func buildOptions(bf buildFlags, out string) generator.Options {
	opts := bf.options()
	opts.Out = out
	opts.Render = render.Options{BaseURL: bf.baseURL, InstallTemplate: bf.install}
	opts.Workers = bf.workers
	opts.Strict = bf.strict
	opts.Rebuild = bf.noCache
	return opts
}

func checkFlagSet(stderr io.Writer) (*flag.FlagSet, *checkArgs) {
	fs := patternsFlagSet("check", "only they are checked in full, and every logo.yaml still counts for unique component names", stderr)
	var a checkArgs
	a.register(fs)
	fs.StringVar(&a.published, "published", "", "the base `URL` of the published site, or a folder holding a built tree: every logo its index names must still be a logo, or be in removed.yaml")
	return fs, &a
}

// checkArgs are the flags of check.
type checkArgs struct {
	sourceFlags
	published string
}

func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, a := checkFlagSet(stderr)
	pos, err := cli.ParseFlags(fs, args)
	if err != nil {
		return err
	}
	sf := &a.sourceFlags
	sf.logos = pos
	if err := sf.validate(); err != nil {
		return err
	}
	opts := sf.options()
	if a.published != "" {
		if opts.Published, err = publishedSlugs(ctx, a.published); err != nil {
			return err
		}
		opts.PublishedAt = a.published
	}
	res, err := checkSources(ctx, *sf, opts, stderr)
	if err != nil {
		return err
	}
	what := count(res.Logos, "logo", "logos")
	if len(sf.logos) > 0 {
		what += " matching " + quoteList(sf.logos)
	}
	fmt.Fprintf(stdout, "checked %s: no errors%s\n", what, warningSummary(res.Warnings))
	return nil
}

// checkSources builds the source folder with nowhere to write and prints
// its problems.
func checkSources(ctx context.Context, sf sourceFlags, opts generator.Options, stderr io.Writer) (*generator.Result, error) {
	src, err := openSource(sf)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	res, err := generator.Build(ctx, src.FS(), opts)
	var warnings generator.ProblemList
	if res != nil {
		warnings = res.Warnings
	}
	if err := reportProblems(err, warnings, sf, stderr); err != nil {
		return nil, err
	}
	return res, nil
}

// openSource opens the source folder, so that no path in it can lead
// outside.
func openSource(sf sourceFlags) (*os.Root, error) {
	info, err := os.Stat(sf.src)
	if err != nil || !info.IsDir() {
		return nil, cli.UsageError("-src %s is not a folder", sf.src)
	}
	return os.OpenRoot(sf.src)
}

// reportProblems prints the problems of a failed build (err) or the
// warnings of a good one, and turns them into a *failedRun.
func reportProblems(err error, warnings generator.ProblemList, sf sourceFlags, stderr io.Writer) error {
	var probs generator.ProblemList
	if errors.As(err, &probs) {
		printProblems(stderr, probs, sf.format)
		if len(probs.Errors()) == 0 { // warnings under -strict
			fmt.Fprintf(stderr, "logoindex: %s and -strict is set\n", count(len(probs), "warning", "warnings"))
		}
		return &failedRun{probs}
	}
	if err != nil {
		return err
	}
	printProblems(stderr, warnings, sf.format)
	if sf.strict && len(warnings) > 0 {
		fmt.Fprintf(stderr, "logoindex: %s and -strict is set\n", count(len(warnings), "warning", "warnings"))
		return &failedRun{warnings}
	}
	return nil
}

// failedRun is a check or build that failed for the problems it printed.
// It is cli.ErrFailed (exit status 1, nothing more to print) that keeps
// the problems, which serve -watch also shows in the open pages.
type failedRun struct{ problems generator.ProblemList }

func (e *failedRun) Error() string {
	return fmt.Sprintf("%s and %s", count(len(e.problems.Errors()), "error", "errors"), count(len(e.problems.Warnings()), "warning", "warnings"))
}

func (e *failedRun) Unwrap() error { return cli.ErrFailed }

// printProblems prints one problem a line in the -format asked for.
func printProblems(w io.Writer, probs generator.ProblemList, format string) {
	for _, p := range probs {
		switch format {
		case "github":
			fmt.Fprintln(w, p.GitHub())
		case "json":
			b, _ := p.MarshalJSON() // cannot fail: strings and ints
			fmt.Fprintf(w, "%s\n", b)
		default:
			fmt.Fprintln(w, p.Error())
		}
	}
}

func warningSummary(w generator.ProblemList) string {
	if len(w) == 0 {
		return ""
	}
	return " (" + count(len(w), "warning", "warnings") + ")"
}

// count is n and the noun, singular or plural: "1 warning", "2 warnings".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// checkApart refuses an output folder (outFlag names its flag) that is in
// the source folder or holds it: the build would read its own output and
// state as logos, or replace the sources. Both are compared as absolute
// paths with their links resolved as far as they exist.
func checkApart(src, out, outFlag string) error {
	s, o := realPath(src), realPath(out)
	state := realPath(outtree.StateDir(out))
	for _, p := range []string{o, state} {
		if within(p, s) {
			return cli.UsageError("-%s %s is inside the source folder %s: the build would read its output and its state (%s) as logos; choose a folder outside it, such as dist beside it", outFlag, out, src, outtree.StateDir(out))
		}
	}
	if within(s, o) {
		return cli.UsageError("-%s %s holds the source folder %s, which a build would replace; choose a folder of its own, such as dist", outFlag, out, src)
	}
	return nil
}

// realPath is p made absolute, with the links of its longest existing
// part resolved.
func realPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	rest := ""
	for dir := abs; ; dir = filepath.Dir(dir) {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(r, rest)
		}
		if filepath.Dir(dir) == dir {
			return abs
		}
		rest = filepath.Join(filepath.Base(dir), rest)
	}
}

// within reports whether path p is dir or inside it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
