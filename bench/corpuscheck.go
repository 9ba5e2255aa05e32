package main

// `make corpus`: the three corpora converted into source-logos trees
// (convert.go), then `logoindex check` and `logoindex build` on each, as a
// newcomer would run them, and one table of their problems by kind.

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"
)

// corpusConverters are the corpora of `make corpus`, in table order.
var corpusConverters = []struct {
	name    string
	convert func(modules string) ([]category, []sourceLogo, error)
}{
	{"simple-icons", func(m string) ([]category, []sourceLogo, error) { return simpleIconsLogos(m, nil) }},
	{"devicon", deviconLogos},
	{"lobehub", lobehubLogos},
}

// corpusRun is what check and build said about one converted corpus.
type corpusRun struct {
	name           string
	logos          int
	problems       []problemLine
	check, build   string // the last line each printed, with the exit status
	checkOK, built bool
}

// problemLine is one problem as check prints it.
type problemLine struct {
	path, severity, msg string
}

var problemRE = regexp.MustCompile(`^(.+?)(?::\d+(?::\d+)?)?: (warning: )?(.*)$`)

func runCorpusCheck(args []string) error {
	fs := flag.NewFlagSet("bench corpus", flag.ContinueOnError)
	repo := fs.String("repo", ".", "repository root")
	cache := fs.String("cache", defaultCache(), "cache `folder` for node modules and the converted trees (outside the repository)")
	only := fs.String("corpora", "simple-icons,devicon,lobehub", "comma-separated corpora")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := ensureNodeModules(ctx, *repo, *cache); err != nil {
		return err
	}
	bin, err := buildBinary(ctx, *repo, *cache)
	if err != nil {
		return err
	}
	modules := filepath.Join(*cache, "node_modules")
	work := filepath.Join(*cache, "corpus")
	var runs []*corpusRun
	var report bytes.Buffer
	for _, c := range corpusConverters {
		if !slices.Contains(strings.Split(*only, ","), c.name) {
			continue
		}
		st := startStage(c.name+": convert", -1)
		cats, logos, err := c.convert(modules)
		if err != nil {
			st.End("failed")
			return err
		}
		src := filepath.Join(work, c.name, "source-logos")
		if err := writeSourceTree(src, cats, logos); err != nil {
			st.End("failed")
			return err
		}
		st.End("%d logos in %s", len(logos), src)
		r := &corpusRun{name: c.name, logos: len(logos)}
		var stderr string
		st = startStage(c.name+": logoindex check", -1)
		r.check, stderr, r.checkOK = runLogoindex(ctx, bin, "check", "-src", src)
		st.End("%s", r.check)
		st = startStage(c.name+": logoindex build", -1)
		r.build, _, r.built = runLogoindex(ctx, bin, "build", "-src", src, "-out", filepath.Join(work, c.name, "dist"), "-no-cache", "-base-url", benchBaseURL)
		st.End("%s", r.build)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		fmt.Fprintf(&report, "== %s\n%s", c.name, stderr)
		for _, line := range strings.Split(stderr, "\n") {
			if m := problemRE.FindStringSubmatch(line); m != nil && !strings.HasPrefix(line, "logoindex: ") {
				sev := "error"
				if m[2] != "" {
					sev = "warning"
				}
				r.problems = append(r.problems, problemLine{m[1], sev, m[3]})
			}
		}
		runs = append(runs, r)
	}
	reportFile := filepath.Join(work, "problems.txt")
	if err := os.WriteFile(reportFile, report.Bytes(), 0o644); err != nil {
		return err
	}
	printCorpusTable(os.Stdout, runs)
	fmt.Printf("\nEvery problem, one a line: %s\n", reportFile)
	for _, r := range runs {
		if !r.checkOK || !r.built {
			return errors.New("a corpus does not build")
		}
	}
	return nil
}

// runLogoindex runs the binary and returns a summary (its line on stdout,
// or its exit status and number of errors), its stderr, and whether it
// succeeded.
func runLogoindex(ctx context.Context, bin string, args ...string) (summary, stderr string, ok bool) {
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start).Round(100 * time.Millisecond)
	var ee *exec.ExitError
	switch {
	case err == nil:
		return fmt.Sprintf("%s (%s)", strings.TrimSpace(out.String()), took), errb.String(), true
	case errors.As(err, &ee):
		errs := strings.Count(errb.String(), "\n") - strings.Count(errb.String(), ": warning: ")
		return fmt.Sprintf("exit %d: %d errors (%s)", ee.ExitCode(), errs, took), errb.String(), false
	}
	return err.Error(), errb.String(), false
}

// Values inside messages, replaced so that problems group by the rule
// that found them. Problems carry no code yet; when they do, the code is
// the kind.
var kindReplacements = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`\(it paints [^)]*\)`), `(it paints …)`},
	{regexp.MustCompile(`"(?:[^"\\]|\\.)*"`), `"…"`},
	{regexp.MustCompile(`'(?:[^'\\]|\\.)*'`), `'…'`},
	{regexp.MustCompile(`#[0-9A-Fa-f]{3,8}\b`), `#RRGGBB`},
	{regexp.MustCompile(`\b(fill|stroke|stop-color|color): [^;,]+`), `$1: …`},
	{regexp.MustCompile(`\bwordmark paints (rgb\([^)]*\)|[^,]+),`), `wordmark paints …,`},
	{regexp.MustCompile(`\b[A-Z][A-Za-z0-9]*Icon\b`), `…Icon`},
	{regexp.MustCompile(`\b[a-z0-9-]+'s\b`), `…'s`},
	{regexp.MustCompile(`U\+[0-9A-F]{4,6}`), `U+…`},
	{regexp.MustCompile(`\d+(\.\d+)?`), `N`},
}

// problemKind is a problem's severity and message with its values
// replaced.
func problemKind(p problemLine) string {
	msg := p.msg
	for _, r := range kindReplacements {
		msg = r.re.ReplaceAllString(msg, r.with)
	}
	return p.severity + ": " + msg
}

func printCorpusTable(w io.Writer, runs []*corpusRun) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "corpus\tlogos\tcheck\tbuild")
	for _, r := range runs {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", r.name, r.logos, r.check, r.build)
	}
	tw.Flush()

	counts := map[string]map[string]int{}
	for _, r := range runs {
		for _, p := range r.problems {
			k := problemKind(p)
			if counts[k] == nil {
				counts[k] = map[string]int{}
			}
			counts[k][r.name]++
		}
	}
	kinds := sortedKeys(counts)
	total := func(k string) (n int) {
		for _, c := range counts[k] {
			n += c
		}
		return n
	}
	slices.SortStableFunc(kinds, func(a, b string) int {
		// Errors first, then by count.
		if ea, eb := strings.HasPrefix(a, "error"), strings.HasPrefix(b, "error"); ea != eb {
			if ea {
				return -1
			}
			return 1
		}
		return total(b) - total(a)
	})
	fmt.Fprintln(w)
	for _, r := range runs {
		fmt.Fprintf(w, "%*s  ", len(r.name), r.name)
	}
	fmt.Fprintln(w, "problems by kind")
	if len(kinds) == 0 {
		kinds = []string{"(none)"}
	}
	for _, k := range kinds {
		for _, r := range runs {
			fmt.Fprintf(w, "%*d  ", len(r.name), counts[k][r.name])
		}
		fmt.Fprintln(w, k)
	}
}
