// Command bench is `make bench`: the benchmark of the optimiser and the
// build against their goals. It compares the generator's optimiser with SVGO's default preset on three
// real corpora (simple-icons, devicon, @lobehub/icons-static-svg), renders
// every source and both outputs to count visual changes, times the real
// logoindex binary on simple-icons turned into logo folders (clean build,
// cp -r of its output, no-op and one-change rebuilds, peak RSS, 4 copies
// and, with -scale, more), prints one table with each goal met or not, and
// writes it to bench/results.json after every step, so that Ctrl-C keeps
// what was measured. -quick does all of it on a sample of simple-icons.
//
// `bench corpus` (make corpus) converts the three corpora into
// source-logos trees and runs check and build on each (corpuscheck.go).
//
// Everything it downloads (npm ci of bench/package-lock.json), renders and
// generates lives in a cache folder outside the repository: see
// docs/performance.md. Run it from the repository root.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"logoindex/internal/atomicfile"
)

func main() {
	run := runBench
	if len(os.Args) > 1 && os.Args[1] == "corpus" {
		run = func() error { return runCorpusCheck(os.Args[2:]) }
	}
	if len(os.Args) > 1 && os.Args[1] == measureArg {
		run = func() error { return runMeasured(os.Args[2:]) }
	}
	err := run()
	if errors.Is(err, context.Canceled) {
		os.Exit(130) // as a shell reports Ctrl-C
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type config struct {
	repo, cache, out string
	runs             int
	render, build    bool
	renderer         string
	corpora          map[string]bool
	sample           int    // files of simple-icons in a quick run; 0 for a full run
	scale            int    // copies of the scale run; 0 for none
	maxRSS           int64  // bytes; a build over it is killed
	trash            *trash // removed after the table is printed
}

// runBench is the bench itself: it reads the flags, runs every step under
// a context that Ctrl-C cancels, and writes and prints what was measured,
// also after an error or an interruption.
func runBench() error {
	cfg, err := parseFlags()
	if err != nil {
		return err
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	start := time.Now()
	res := newResults(cfg)
	save := resultSaver(cfg.out, res, start)
	cfg.trash = &trash{}
	defer cfg.trash.remove() // a scale run's, after its table
	err = measure(ctx, cfg, res, save)
	if ctx.Err() != nil {
		res.Interrupted = true
		err = context.Canceled
	} else if err != nil {
		res.Error = err.Error()
	}
	stop() // a second Ctrl-C ends the bench at once
	// The run's time, which a goal holds to 10 minutes (2 with -quick),
	// counts the removal of its trees. A scale run has no such goal, and
	// its trees (over a million files at 30x) take minutes to remove:
	// it prints its table first.
	if res.Build == nil || res.Build.Scale == nil {
		cfg.trash.remove()
	}
	res.finish(start)
	if werr := writeResults(cfg.out, res); werr != nil {
		return werr
	}
	printTable(os.Stdout, res)
	if res.Interrupted {
		logf("interrupted: the figures above, measured so far, are in %s", cfg.out)
	}
	return err
}

// parseFlags reads the command line into a config, with what -quick
// implies and the defaults that depend on other flags, and checks that
// the bench runs from the repository root.
func parseFlags() (config, error) {
	var cfg config
	var corpora string
	var quick bool
	var maxRSS int64
	flag.StringVar(&cfg.repo, "repo", ".", "repository root")
	flag.StringVar(&cfg.cache, "cache", defaultCache(), "cache `folder` for node modules, render results and source trees (outside the repository)")
	flag.StringVar(&cfg.out, "out", "", "JSON results `file` (default bench/results.json, or bench/results-quick.json with -quick)")
	flag.IntVar(&cfg.runs, "runs", 3, "runs per timing; the median is reported")
	flag.BoolVar(&cfg.render, "render", true, "render and compare, to count visual changes")
	flag.BoolVar(&cfg.build, "build", true, "time the logoindex binary on simple-icons")
	flag.StringVar(&cfg.renderer, "renderer", "auto", "`renderer`: librsvg (in process), rsvg-convert (a process a render), or auto (librsvg when it draws a sample exactly as rsvg-convert does)")
	flag.StringVar(&corpora, "corpora", "simple-icons,devicon,lobehub", "comma-separated corpora")
	flag.BoolVar(&quick, "quick", false, "every figure on a sample of simple-icons (-sample files), in about a minute")
	flag.IntVar(&cfg.sample, "sample", 300, "`files` of simple-icons in the sample of -quick, spread evenly by name")
	flag.IntVar(&cfg.scale, "scale", 0, "also build `N` copies of the logos (simple-icons x N) and compare time and memory with one copy")
	flag.Int64Var(&maxRSS, "max-rss", 0, "kill a build whose resident memory passes `MB` (0: four fifths of the memory available at the start)")
	flag.Parse()
	cfg.corpora = map[string]bool{}
	for _, c := range strings.Split(corpora, ",") {
		cfg.corpora[strings.TrimSpace(c)] = true
	}
	if quick {
		cfg.corpora = map[string]bool{"simple-icons": true}
	} else {
		cfg.sample = 0
	}
	if cfg.out == "" {
		cfg.out = filepath.Join(cfg.repo, "bench", "results.json")
		if quick {
			cfg.out = filepath.Join(cfg.repo, "bench", "results-quick.json")
		}
	}
	cfg.runs = max(1, cfg.runs)
	cfg.maxRSS = maxRSS << 20
	if maxRSS == 0 {
		cfg.maxRSS = memoryLimit()
	}
	if _, err := os.Stat(filepath.Join(cfg.repo, "bench", "package-lock.json")); err != nil {
		return cfg, fmt.Errorf("run from the repository root (or pass -repo): %w", err)
	}
	return cfg, nil
}

// newResults is the results of a run of cfg before its first step: the
// date, the machine, its load and the mode.
func newResults(cfg config) *Results {
	res := &Results{
		Date: time.Now().UTC().Format("2006-01-02"), Machine: machine(), Mode: "full",
		LoadStart: loadAverage(), Runs: cfg.runs,
	}
	if cfg.sample > 0 {
		res.Mode = "quick"
		res.Sample = fmt.Sprintf("%d files of simple-icons spread evenly by name, and their logos", cfg.sample)
	}
	return res
}

// resultSaver returns the save of the steps: it records the step's time
// since the previous one (or start) and writes res to out, so that an
// interrupted run keeps what it measured. A failed write is only logged.
func resultSaver(out string, res *Results, start time.Time) func(step string) {
	last := start
	return func(step string) {
		res.Steps = append(res.Steps, Step{step, time.Since(last).Seconds()})
		last = time.Now()
		res.finish(start)
		if err := writeResults(out, res); err != nil {
			logf("%v", err)
		}
	}
}

// measure runs every step that cfg asks for, filling res.
func measure(ctx context.Context, cfg config, res *Results, save func(string)) error {
	if cfg.render {
		if err := ensureRsvg(ctx); err != nil {
			return err
		}
	}
	if err := ensureNodeModules(ctx, cfg.repo, cfg.cache); err != nil {
		return err
	}
	modules := filepath.Join(cfg.cache, "node_modules")
	res.Versions = versions(modules)
	var bin string
	if cfg.build && cfg.corpora["simple-icons"] {
		var err error
		if bin, err = buildBinary(ctx, cfg.repo, cfg.cache); err != nil {
			return err
		}
	}
	save("setup")

	// Bytes first: they are quick and matter most.
	var corpora []*corpus
	for _, spec := range corpusSpecs {
		if !cfg.corpora[spec.Name] {
			continue
		}
		c, err := loadCorpus(ctx, modules, spec, cfg.sample)
		if err != nil {
			return err
		}
		if err := runOurs(ctx, c, cfg.runs); err != nil {
			return err
		}
		// SVGO's time matters on simple-icons; one run of the others saves
		// time. On a sample, Node's start takes most of its time.
		svgoRuns := cfg.runs
		if c.Name != "simple-icons" || cfg.sample > 0 {
			svgoRuns = 1
		}
		if err := runSVGO(ctx, c, cfg.cache, modules, svgoRuns, cfg.trash); err != nil {
			return err
		}
		row := CorpusRow{
			Corpus: c.Name, Files: len(c.Files), Rejected: c.Rejected,
			Source: totals(ctx, c, srcOf), SVGO: totals(ctx, c, svgoOf), Ours: totals(ctx, c, oursOf),
			OursSeconds: c.OursTime.Seconds(), SVGOSeconds: c.SVGOTime.Seconds(),
			OursErrors: c.OursErr, SVGOErrors: c.SVGOErr,
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		row.Ratio = float64(row.Ours.Raw) / float64(row.SVGO.Raw)
		row.GzipRatio = float64(row.Ours.Gzip) / float64(row.SVGO.Gzip)
		res.Corpora = append(res.Corpora, row)
		corpora = append(corpora, c)
		save("bytes " + c.Name)
	}

	if cfg.render && len(corpora) > 0 {
		if err := renderCorpora(ctx, cfg, corpora, res, save); err != nil {
			return err
		}
	}
	if bin != "" {
		return benchBuilds(ctx, cfg, bin, modules, res, save)
	}
	return nil
}

// renderCorpora counts the visual changes of our outputs and SVGO's.
func renderCorpora(ctx context.Context, cfg config, corpora []*corpus, res *Results, save func(string)) error {
	start := time.Now()
	st := startStage("check the renderer", -1)
	r, err := chooseRenderer(ctx, cfg.renderer, corpora)
	if err != nil {
		st.End("failed")
		return err
	}
	st.End("%s", r)
	cache, err := openVisualCache(filepath.Join(cfg.cache, "visual"), newRsvgConvert(ctx).String())
	if err != nil {
		return err
	}
	stats := &renderStats{Renderer: r.String()}
	res.Render = stats
	v := &visual{r: r, cache: cache, stats: stats}
	for i, c := range corpora {
		st := startStage("render "+c.Name, len(c.Files))
		got, err := v.compare(ctx, c, st, oursOf, svgoOf)
		if err != nil {
			st.End("stopped")
			cache.close(false)
			return err
		}
		row := &res.Corpora[i]
		row.Rendered = true
		row.OursChanged, row.SVGOChanged, row.Unrenderable = got[0].Changed, got[1].Changed, got[0].Unrenderable
		stats.Seconds = time.Since(start).Seconds()
		st.End("visual changes: ours %d, SVGO %d; %d renders so far", len(row.OursChanged), len(row.SVGOChanged), stats.Renders)
		save("visual " + c.Name)
	}
	// A run over every corpus knows every entry still of use.
	return cache.close(cfg.sample == 0 && len(corpora) == len(corpusSpecs))
}

// Results is bench/results.json.
type Results struct {
	Date        string            `json:"date"`
	Machine     string            `json:"machine"`
	Versions    map[string]string `json:"versions"`
	Mode        string            `json:"mode"` // full or quick
	Sample      string            `json:"sample,omitempty"`
	Runs        int               `json:"runs"` // medians of
	LoadStart   string            `json:"load_average_start"`
	LoadEnd     string            `json:"load_average_end"`
	Steps       []Step            `json:"steps"` // done, in order
	Interrupted bool              `json:"interrupted,omitempty"`
	Error       string            `json:"error,omitempty"`
	Corpora     []CorpusRow       `json:"corpora"`
	Render      *renderStats      `json:"render,omitempty"`
	Build       *BuildRow         `json:"build,omitempty"`
	Goals       []Goal            `json:"goals"`
	Seconds     float64           `json:"total_seconds"`
}

// Step is one finished step of a run and how long it took.
type Step struct {
	Name    string  `json:"step"`
	Seconds float64 `json:"seconds"`
}

func (r *Results) finish(start time.Time) {
	r.Seconds = time.Since(start).Seconds()
	r.LoadEnd = loadAverage()
	r.Goals = goals(r)
}

func writeResults(file string, r *Results) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(file, append(data, '\n'), 0o644)
}

// CorpusRow is one corpus: bytes, visual changes and optimiser speed.
type CorpusRow struct {
	Corpus       string     `json:"corpus"`
	Files        int        `json:"files"`
	Rejected     []string   `json:"rejected,omitempty"`
	Source       byteTotals `json:"source_bytes"`
	SVGO         byteTotals `json:"svgo_bytes"`
	Ours         byteTotals `json:"our_bytes"`
	Ratio        float64    `json:"ratio"`      // ours / SVGO, raw
	GzipRatio    float64    `json:"gzip_ratio"` // ours / SVGO, gzip -9 per file
	Rendered     bool       `json:"rendered"`
	OursChanged  []string   `json:"our_visual_changes"`
	SVGOChanged  []string   `json:"svgo_visual_changes"`
	Unrenderable []string   `json:"unrenderable_sources,omitempty"`
	OursSeconds  float64    `json:"our_optimise_seconds"` // in-process, all CPUs
	SVGOSeconds  float64    `json:"svgo_cli_seconds"`
	OursErrors   []string   `json:"our_errors,omitempty"`
	SVGOErrors   []string   `json:"svgo_errors,omitempty"`
}

// BuildRow is the build of simple-icons (or of the sample) as logo
// folders: medians of runs in seconds, ratios, megabytes. A zero is a
// figure not measured (the run was interrupted first).
type BuildRow struct {
	Logos               int       `json:"logos"`
	Files               int       `json:"files"`
	Runs                int       `json:"runs"`
	Clean               float64   `json:"clean_build_seconds"`
	CleanRuns           []float64 `json:"clean_build_runs"`
	Copy                float64   `json:"cp_r_seconds"`
	CopyRuns            []float64 `json:"cp_r_runs,omitempty"` // in turn with the clean builds
	CopyRatio           float64   `json:"clean_build_over_cp_r"`
	NoOp                float64   `json:"noop_rebuild_seconds"`
	NoOpRuns            []float64 `json:"noop_rebuild_runs"`
	NoOpRatio           float64   `json:"noop_over_clean"`
	NoOpUnchanged       string    `json:"noop_tree_against_clean,omitempty"` // "identical" or where it differs
	OneChangeFirst      float64   `json:"one_change_first_seconds"`
	OneChangeFirstRatio float64   `json:"one_change_first_over_clean"`
	OneChange           float64   `json:"one_change_rebuild_seconds"` // median of the runs after the first
	OneChangeRuns       []float64 `json:"one_change_rebuild_runs"`    // the first included
	OneChangeRatio      float64   `json:"one_change_over_clean"`
	// A change of the logo's name, which changes the collection's files
	// too (an artwork change leaves them as they were): median of runs
	// after the artwork changes.
	OneChangeName      float64   `json:"one_change_name_seconds,omitempty"`
	OneChangeNameRuns  []float64 `json:"one_change_name_runs,omitempty"`
	OneChangeNameRatio float64   `json:"one_change_name_over_clean,omitempty"`
	RebuildEqualsClean string    `json:"rebuild_against_clean,omitempty"` // "identical" or where it differs
	PeakRSSMB          float64   `json:"peak_rss_mb"`
	X4                 *ScaleRow `json:"x4,omitempty"`
	Scale              *ScaleRow `json:"scale,omitempty"`

	// The medians of the same runs' CPU time (user and system), and the
	// ratios of those to a clean build's: figures that other users' load
	// on a shared machine moves far less than it moves the wall times,
	// which a loaded clean build inflates. The goals stay in wall time.
	CleanCPU              float64 `json:"clean_build_cpu_seconds,omitempty"`
	CopyCPU               float64 `json:"cp_r_cpu_seconds,omitempty"`
	NoOpCPU               float64 `json:"noop_cpu_seconds,omitempty"`
	NoOpCPURatio          float64 `json:"noop_cpu_over_clean,omitempty"`
	OneChangeCPU          float64 `json:"one_change_cpu_seconds,omitempty"`
	OneChangeCPURatio     float64 `json:"one_change_cpu_over_clean,omitempty"`
	OneChangeNameCPU      float64 `json:"one_change_name_cpu_seconds,omitempty"`
	OneChangeNameCPURatio float64 `json:"one_change_name_cpu_over_clean,omitempty"`
}

// ScaleRow is a clean build of copies × the logos, against one copy.
type ScaleRow struct {
	Copies       int       `json:"copies"`
	Logos        int       `json:"logos"`
	Files        int       `json:"files"`
	Seconds      float64   `json:"clean_build_seconds"`
	Runs         []float64 `json:"clean_build_runs"`
	PeakRSSMB    float64   `json:"peak_rss_mb"`
	TimeRatio    float64   `json:"time_over_1x"`
	PerLogoRatio float64   `json:"time_per_logo_over_1x"` // 1: linear
	// CPU and CPUPerLogoRatio are the build's own CPU time (user and
	// system): what is left of the time per logo once the kernel's
	// write-back of the files, which only a large tree waits on, is not.
	CPU             float64 `json:"clean_build_cpu_seconds,omitempty"`
	CPUPerLogoRatio float64 `json:"cpu_per_logo_over_1x,omitempty"`
	RSSRatio        float64 `json:"rss_over_1x"` // 1: flat
	// Copy is one cp -r of the tree the build wrote, and
	// CopyPerFileRatio its time per file over the 1x copy's: how far
	// the file system's own work grows with the tree, which bounds how
	// linear a build that writes the same files can be.
	Copy             float64 `json:"cp_r_seconds,omitempty"`
	CopyPerFileRatio float64 `json:"cp_r_time_per_file_over_1x,omitempty"`
	Error            string  `json:"error,omitempty"`
}

// Goal is one goal of the bench and whether this run met it.
type Goal struct {
	Goal string `json:"goal"`
	Met  bool   `json:"met"`
	Got  string `json:"got"`
}

// The goals of the bench (docs/performance.md says what each means).
const (
	goalCopyRatio   = 1.5  // clean build / cp -r
	goalNoOp        = 0.05 // of a clean build
	goalOneChange   = 0.05
	goalRSSMB       = 150 // at 3,470 logos
	goalRSSGrowth   = 1.3 // peak RSS of N copies / 1 copy
	goalLinear      = 1.2 // time per logo of N copies / 1 copy: linear, give or take the noise of a shared machine
	goalFullMinutes = 10  // a first full run
	goalQuickMinute = 2   // -quick
)

func goals(r *Results) []Goal {
	var g []Goal
	add := func(goal string, met bool, format string, args ...any) {
		g = append(g, Goal{goal, met, fmt.Sprintf(format, args...)})
	}
	for _, c := range r.Corpora {
		add("SVG bytes <= SVGO's, raw and gzip, "+c.Corpus, c.Ratio <= 1 && c.GzipRatio <= 1, "raw %.3f, gzip %.3f", c.Ratio, c.GzipRatio)
		if c.Rendered {
			add("zero visual changes, "+c.Corpus, len(c.OursChanged) == 0, "ours %d, SVGO %d", len(c.OursChanged), len(c.SVGOChanged))
		}
	}
	if b := r.Build; b != nil {
		if b.Copy > 0 {
			add(fmt.Sprintf("clean build <= %gx cp -r of its output", goalCopyRatio), b.CopyRatio <= goalCopyRatio,
				"%.2fs vs %.2fs: %.2fx", b.Clean, b.Copy, b.CopyRatio)
		}
		if b.NoOp > 0 {
			add(fmt.Sprintf("no-op rebuild <= %.0f%% of a clean build", 100*goalNoOp), b.NoOpRatio <= goalNoOp,
				"%.2fs: %.1f%%", b.NoOp, 100*b.NoOpRatio)
			add("no-op rebuild leaves the tree as it was", b.NoOpUnchanged == "identical", "%s", b.NoOpUnchanged)
		}
		if b.OneChange > 0 {
			add(fmt.Sprintf("one-change rebuild <= %.0f%% of a clean build", 100*goalOneChange), max(b.OneChangeRatio, b.OneChangeNameRatio) <= goalOneChange,
				"artwork %.2fs: %.1f%% (median of %d after the first; the first %.2fs: %.1f%%); name %.2fs: %.1f%%",
				b.OneChange, 100*b.OneChangeRatio, len(b.OneChangeRuns)-1, b.OneChangeFirst, 100*b.OneChangeFirstRatio,
				b.OneChangeName, 100*b.OneChangeNameRatio)
			add("a rebuild's output equals a clean build's, file by file", b.RebuildEqualsClean == "identical", "%s", b.RebuildEqualsClean)
		}
		if b.Clean > 0 {
			goal := fmt.Sprintf("peak RSS <= %d MB at 3,470 logos", goalRSSMB)
			if r.Mode == "quick" {
				goal += fmt.Sprintf(" (here %d)", b.Logos)
			}
			add(goal, b.PeakRSSMB <= goalRSSMB, "%.0f MB", b.PeakRSSMB)
		}
		for _, s := range []*ScaleRow{b.X4, b.Scale} {
			if s == nil {
				continue
			}
			name := fmt.Sprintf("%dx (%d logos)", s.Copies, s.Logos)
			if s.Error != "" {
				add(name+": builds", false, "%s", s.Error)
				continue
			}
			if s.Seconds == 0 {
				continue
			}
			add(fmt.Sprintf("%s: peak RSS <= %gx the 1x figure", name, goalRSSGrowth), s.RSSRatio <= goalRSSGrowth,
				"%.0f MB vs %.0f MB: %.2fx", s.PeakRSSMB, b.PeakRSSMB, s.RSSRatio)
			add(fmt.Sprintf("%s: time linear (time per logo <= %gx the 1x figure)", name, goalLinear), s.PerLogoRatio <= goalLinear,
				"%.1fs vs %.2fs: %.2fx the time for %dx the logos, %.2fx per logo (CPU %.2fx per logo)%s", s.Seconds, b.Clean, s.TimeRatio, s.Copies, s.PerLogoRatio, s.CPUPerLogoRatio, s.copyNote())
		}
	}
	// The run's own time, for a run of every step and no scale run.
	complete := !r.Interrupted && r.Error == "" && (r.Build == nil || r.Build.Scale == nil)
	if complete && r.Mode == "quick" {
		add(fmt.Sprintf("make bench QUICK=1 <= %d minutes", goalQuickMinute), r.Seconds <= 60*goalQuickMinute, "%s", roundDuration(time.Duration(r.Seconds*float64(time.Second))))
	} else if complete && len(r.Corpora) == len(corpusSpecs) && r.Render != nil && r.Build != nil {
		add(fmt.Sprintf("make bench <= %d minutes on a first run", goalFullMinutes), r.Seconds <= 60*goalFullMinutes,
			"%s, %d renders (%d comparisons from the cache)", roundDuration(time.Duration(r.Seconds*float64(time.Second))), r.Render.Renders, r.Render.Cached)
	}
	return g
}

func printTable(w io.Writer, r *Results) {
	fmt.Fprintf(w, "\nlogoindex bench, %s, %s\n", r.Date, r.Machine)
	if r.Sample != "" {
		fmt.Fprintf(w, "quick run: %s\n", r.Sample)
	}
	fmt.Fprintf(w, "load average (1, 5, 15 min): %s at the start, %s at the end; medians of %d runs\n", r.LoadStart, r.LoadEnd, r.Runs)
	if r.Interrupted {
		fmt.Fprintln(w, "INTERRUPTED: the figures measured before Ctrl-C")
	}
	if r.Error != "" {
		fmt.Fprintf(w, "FAILED: %s\n", firstLine(r.Error))
	}
	if len(r.Corpora) > 0 {
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "corpus\tfiles\tsource B\tSVGO B\tour B\tratio\tgzip ratio\tvisual ours/SVGO\tour opt s\tSVGO s\t")
		for _, c := range r.Corpora {
			visual := "-"
			if c.Rendered {
				visual = fmt.Sprintf("%d/%d", len(c.OursChanged), len(c.SVGOChanged))
			}
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.3f\t%.3f\t%s\t%.2f\t%.2f\t\n",
				c.Corpus, c.Files, c.Source.Raw, c.SVGO.Raw, c.Ours.Raw, c.Ratio, c.GzipRatio, visual, c.OursSeconds, c.SVGOSeconds)
		}
		tw.Flush()
	}
	if s := r.Render; s != nil {
		fmt.Fprintf(w, "\nrenders: %d this run, %d comparisons from the cache, %d outputs equal to their source; %s; %.0fs\n",
			s.Renders, s.Cached, s.Identical, s.Renderer, s.Seconds)
	}
	if b := r.Build; b != nil && b.Clean > 0 {
		fmt.Fprintf(w, "\nbuild of %d logos (%d files)\n", b.Logos, b.Files)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		line := func(name string, secs float64, format string, args ...any) {
			if secs > 0 {
				fmt.Fprintf(tw, "  %s\t%7.2fs\t%s\n", name, secs, fmt.Sprintf(format, args...))
			}
		}
		line("clean build", b.Clean, "CPU %.2fs; peak RSS %.0f MB", b.CleanCPU, b.PeakRSSMB)
		line("cp -r of its output", b.Copy, "CPU %.2fs; clean build / cp -r: %.2fx", b.CopyCPU, b.CopyRatio)
		line("no-op rebuild", b.NoOp, "CPU %.2fs; %.1f%% of a clean build (CPU %.1f%%); tree %s", b.NoOpCPU, 100*b.NoOpRatio, 100*b.NoOpCPURatio, b.NoOpUnchanged)
		line("one change, first rebuild", b.OneChangeFirst, "%.1f%%", 100*b.OneChangeFirstRatio)
		line("one change (artwork), the next ones", b.OneChange, "CPU %.2fs; %.1f%% (CPU %.1f%%)", b.OneChangeCPU, 100*b.OneChangeRatio, 100*b.OneChangeCPURatio)
		line("one change (name)", b.OneChangeName, "CPU %.2fs; %.1f%% (CPU %.1f%%); output against a clean build: %s", b.OneChangeNameCPU, 100*b.OneChangeNameRatio, 100*b.OneChangeNameCPURatio, b.RebuildEqualsClean)
		for _, s := range []*ScaleRow{b.X4, b.Scale} {
			switch {
			case s == nil:
			case s.Error != "":
				fmt.Fprintf(tw, "  %dx: %d logos\t\t%s\n", s.Copies, s.Logos, s.Error)
			default:
				line(fmt.Sprintf("%dx: %d logos, %d files", s.Copies, s.Logos, s.Files), s.Seconds,
					"%.2fx the time (%.2fx per logo; CPU %.2fs, %.2fx per logo), peak RSS %.0f MB (%.2fx)", s.TimeRatio, s.PerLogoRatio, s.CPU, s.CPUPerLogoRatio, s.PeakRSSMB, s.RSSRatio)
				line(fmt.Sprintf("%dx: cp -r of its output", s.Copies), s.Copy, "%.2fx the time per file of the 1x cp -r", s.CopyPerFileRatio)
			}
		}
		tw.Flush()
	}
	fmt.Fprintln(w)
	for _, g := range r.Goals {
		mark := "MET    "
		if !g.Met {
			mark = "NOT MET"
		}
		fmt.Fprintf(w, "%s %s: %s\n", mark, g.Goal, g.Got)
	}
	var steps []string
	for _, s := range r.Steps {
		steps = append(steps, fmt.Sprintf("%s %s", s.Name, roundDuration(time.Duration(s.Seconds*float64(time.Second)))))
	}
	fmt.Fprintf(w, "\nsteps: %s\nthe whole run: %s\n", strings.Join(steps, ", "), roundDuration(time.Duration(r.Seconds*float64(time.Second))))
}

// machine describes this machine: CPU model, cores and memory.
func machine() string {
	cpu := "unknown CPU"
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	mem := ""
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb int64
		if _, err := fmt.Sscanf(string(data), "MemTotal: %d kB", &kb); err == nil {
			mem = fmt.Sprintf(", %.0f GiB", float64(kb)/(1<<20))
		}
	}
	return fmt.Sprintf("%s/%s, %d CPUs (%s)%s", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), cpu, mem)
}

// versions lists the pinned tools and corpora as installed.
func versions(modules string) map[string]string {
	v := map[string]string{"go": runtime.Version()}
	for _, p := range []string{"svgo", "simple-icons", "devicon", "@lobehub/icons-static-svg"} {
		var pkg struct{ Version string }
		if data, err := os.ReadFile(filepath.Join(modules, filepath.FromSlash(p), "package.json")); err == nil {
			json.Unmarshal(data, &pkg)
		}
		v[p] = pkg.Version
	}
	if out, err := exec.Command("rsvg-convert", "--version").Output(); err == nil {
		v["rsvg-convert"] = strings.TrimSpace(strings.TrimPrefix(string(out), "rsvg-convert version"))
	}
	return v
}

// copyNote gives the cp -r of the scaled tree beside its build's time.
func (s *ScaleRow) copyNote() string {
	if s.Copy == 0 {
		return ""
	}
	return fmt.Sprintf("; cp -r of it: %.2fx the time per file of the 1x cp -r", s.CopyPerFileRatio)
}
