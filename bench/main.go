// Command bench is `make bench`: the benchmark of issue 6. It compares the
// generator's optimiser with SVGO's default preset on three real corpora
// (simple-icons, devicon, @lobehub/icons-static-svg), renders every source
// and both outputs with rsvg-convert to count visual changes, times the real
// logoindex binary on simple-icons turned into logo folders (full build,
// cp -r of its output, no-op and one-change rebuilds, peak RSS, and a 4x
// synthetic corpus), prints one table and writes it to bench/results.json.
//
// `bench corpus` (make corpus) converts the three corpora into
// source-logos trees and runs check and build on each (corpuscheck.go).
//
// Everything it downloads (npm ci of bench/package-lock.json) and renders
// lives in a cache folder outside the repository: see README.md beside this
// file. Run it from the repository root.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"
)

func main() {
	run := runBench
	if len(os.Args) > 1 && os.Args[1] == "corpus" {
		run = func() error { return runCorpusCheck(os.Args[2:]) }
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type config struct {
	repo, cache, out string
	runs             int
	render, build    bool
	corpora          map[string]bool
}

func runBench() error {
	var cfg config
	var corpora string
	flag.StringVar(&cfg.repo, "repo", ".", "repository root")
	flag.StringVar(&cfg.cache, "cache", defaultCache(), "cache `folder` for node modules, renders and build trees (outside the repository)")
	flag.StringVar(&cfg.out, "out", "bench/results.json", "JSON results `file`")
	flag.IntVar(&cfg.runs, "runs", 3, "runs per timing; the median is reported")
	flag.BoolVar(&cfg.render, "render", true, "render and compare (the slow part)")
	flag.BoolVar(&cfg.build, "build", true, "time the logoindex binary on simple-icons")
	flag.StringVar(&corpora, "corpora", "simple-icons,devicon,lobehub", "comma-separated corpora")
	flag.Parse()
	cfg.corpora = map[string]bool{}
	for _, c := range strings.Split(corpora, ",") {
		cfg.corpora[strings.TrimSpace(c)] = true
	}
	cfg.runs = max(1, cfg.runs)
	start := time.Now()

	if _, err := os.Stat(filepath.Join(cfg.repo, "bench", "package-lock.json")); err != nil {
		return fmt.Errorf("run from the repository root (or pass -repo): %w", err)
	}
	if cfg.render {
		if err := ensureRsvg(); err != nil {
			return err
		}
	}
	if err := ensureNodeModules(cfg.repo, cfg.cache); err != nil {
		return err
	}
	modules := filepath.Join(cfg.cache, "node_modules")
	res := &Results{Date: time.Now().UTC().Format("2006-01-02"), Machine: machine(), Versions: versions(modules)}
	r := &renderer{dir: filepath.Join(cfg.cache, "renders")}
	var renderTime time.Duration

	for _, spec := range corpusSpecs {
		if !cfg.corpora[spec.Name] {
			continue
		}
		c, err := loadCorpus(modules, spec)
		if err != nil {
			return err
		}
		logf("%s: %d files (%d refused by the checks)", c.Name, len(c.Files), len(c.Rejected))
		runOurs(c, cfg.runs)
		// SVGO's time matters for goal 3, on simple-icons; one run of the
		// others saves a minute or two.
		svgoRuns := cfg.runs
		if c.Name != "simple-icons" {
			svgoRuns = 1
		}
		if err := runSVGO(c, cfg.cache, modules, svgoRuns); err != nil {
			return err
		}
		row := CorpusRow{
			Corpus: c.Name, Files: len(c.Files), Rejected: c.Rejected,
			Source: totals(c, srcOf), SVGO: totals(c, svgoOf), Ours: totals(c, oursOf),
			OursSeconds: c.OursTime.Seconds(), SVGOSeconds: c.SVGOTime.Seconds(),
			OursErrors: c.OursErr, SVGOErrors: c.SVGOErr,
		}
		row.Ratio = float64(row.Ours.Raw) / float64(row.SVGO.Raw)
		row.GzipRatio = float64(row.Ours.Gzip) / float64(row.SVGO.Gzip)
		if cfg.render {
			t := time.Now()
			before := r.rendered.Load()
			ours, err := compareVisual(c, r, oursOf)
			if err != nil {
				return err
			}
			svgo, err := compareVisual(c, r, svgoOf)
			if err != nil {
				return err
			}
			row.OursChanged, row.SVGOChanged, row.Unrenderable = ours.Changed, svgo.Changed, ours.Unrenderable
			row.Rendered = true
			renderTime += time.Since(t)
			logf("%s: rendered %d files in %s (%d not cached); visual changes: ours %d, SVGO %d",
				c.Name, len(c.Files), time.Since(t).Round(time.Second), r.rendered.Load()-before, len(ours.Changed), len(svgo.Changed))
		}
		res.Corpora = append(res.Corpora, row)
	}

	if cfg.build && cfg.corpora["simple-icons"] {
		b, err := buildBenchmarks(cfg, modules)
		if err != nil {
			return err
		}
		res.Build = b
	}
	res.RenderSeconds = renderTime.Seconds()
	res.TotalSeconds = time.Since(start).Seconds()
	res.Goals = goals(res)

	printTable(os.Stdout, res)
	data, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(cfg.out, append(data, '\n'), 0o644)
}

// buildBenchmarks times the real binary on simple-icons as 3,470 logo
// folders and on the 4x synthetic corpus.
func buildBenchmarks(cfg config, modules string) (*BuildRow, error) {
	bin, err := buildBinary(cfg.repo, cfg.cache)
	if err != nil {
		return nil, err
	}
	work := filepath.Join(cfg.cache, "build")
	src1 := filepath.Join(work, "src-1x")
	slugs, err := writeSimpleIconsSource(modules, src1, 1)
	if err != nil {
		return nil, err
	}
	logf("build: %d logos; timing %d clean builds, cp -r, no-op and one-change rebuilds", len(slugs), cfg.runs)
	one, err := benchBuild(bin, src1, filepath.Join(work, "out-1x"), cfg.runs, slugs, true)
	if err != nil {
		return nil, err
	}
	src4 := filepath.Join(work, "src-4x")
	slugs4, err := writeSimpleIconsSource(modules, src4, 4)
	if err != nil {
		return nil, err
	}
	logf("build: %d logos (4x); timing %d clean builds", len(slugs4), cfg.runs)
	four, err := benchBuild(bin, src4, filepath.Join(work, "out-4x"), cfg.runs, slugs4, false)
	if err != nil {
		return nil, err
	}
	os.RemoveAll(src4)
	b := &BuildRow{
		Logos: one.Logos, Files: one.Files,
		Full: secs(one.Full), Copy: secs(one.Copy), NoOp: secs(one.NoOp), OneChange: secs(one.OneChange),
		PeakRSSMB:      mb(maxRSS(one.Full, one.NoOp, one.OneChange)),
		IncrementalOK:  one.Identical,
		IncrementalDif: one.IdenticalAt,
		Logos4x:        four.Logos,
		Full4x:         secs(four.Full),
		PeakRSS4xMB:    mb(maxRSS(four.Full)),
	}
	b.CopyRatio = b.Full / b.Copy
	b.NoOpRatio = b.NoOp / b.Full
	b.OneChangeRatio = b.OneChange / b.Full
	b.TimeRatio4x = b.Full4x / b.Full
	b.RSSRatio4x = b.PeakRSS4xMB / b.PeakRSSMB
	return b, nil
}

// Results is bench/results.json.
type Results struct {
	Date          string            `json:"date"`
	Machine       string            `json:"machine"`
	Versions      map[string]string `json:"versions"`
	Corpora       []CorpusRow       `json:"corpora"`
	Build         *BuildRow         `json:"build,omitempty"`
	Goals         []Goal            `json:"goals"`
	RenderSeconds float64           `json:"render_seconds"`
	TotalSeconds  float64           `json:"total_seconds"`
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

// BuildRow is the build timing of simple-icons as logo folders, in seconds
// (medians) and megabytes.
type BuildRow struct {
	Logos          int     `json:"logos"`
	Files          int     `json:"files"`
	Full           float64 `json:"full_build_seconds"`
	Copy           float64 `json:"cp_r_seconds"`
	CopyRatio      float64 `json:"full_build_over_cp_r"`
	NoOp           float64 `json:"noop_rebuild_seconds"`
	NoOpRatio      float64 `json:"noop_over_full"`
	OneChange      float64 `json:"one_change_rebuild_seconds"`
	OneChangeRatio float64 `json:"one_change_over_full"`
	IncrementalOK  bool    `json:"rebuild_equals_clean_build"`
	IncrementalDif string  `json:"rebuild_first_difference,omitempty"`
	PeakRSSMB      float64 `json:"peak_rss_mb"`
	Logos4x        int     `json:"logos_4x"`
	Full4x         float64 `json:"full_build_4x_seconds"`
	PeakRSS4xMB    float64 `json:"peak_rss_4x_mb"`
	TimeRatio4x    float64 `json:"time_ratio_4x"`
	RSSRatio4x     float64 `json:"rss_ratio_4x"`
}

// Goal is one goal of issue 6 and whether this run met it.
type Goal struct {
	Goal string `json:"goal"`
	Met  bool   `json:"met"`
	Got  string `json:"got"`
}

func goals(r *Results) []Goal {
	var g []Goal
	add := func(goal string, met bool, format string, args ...any) {
		g = append(g, Goal{goal, met, fmt.Sprintf(format, args...)})
	}
	for _, c := range r.Corpora {
		add("1. bytes <= SVGO, "+c.Corpus, c.Ratio <= 1 && c.GzipRatio <= 1, "raw %.3f, gzip %.3f", c.Ratio, c.GzipRatio)
		if c.Rendered {
			add("2. zero visual changes, "+c.Corpus, len(c.OursChanged) == 0, "ours %d, SVGO %d", len(c.OursChanged), len(c.SVGOChanged))
		}
	}
	if b := r.Build; b != nil {
		add("3. full build <= 1.5x cp -r", b.CopyRatio <= 1.5, "%.2fs vs %.2fs: %.1fx", b.Full, b.Copy, b.CopyRatio)
		for _, c := range r.Corpora {
			if c.Corpus == "simple-icons" {
				add("3. full build >= 3x faster than SVGO CLI", c.SVGOSeconds >= 3*b.Full, "%.2fs vs %.2fs: %.1fx", b.Full, c.SVGOSeconds, c.SVGOSeconds/b.Full)
			}
		}
		add("4. no-op rebuild <= 10% of full", b.NoOpRatio <= 0.10, "%.0f%%", 100*b.NoOpRatio)
		add("4. one-change rebuild <= 20% of full", b.OneChangeRatio <= 0.20, "%.0f%%", 100*b.OneChangeRatio)
		add("4. rebuild output == clean build", b.IncrementalOK, "%v %s", b.IncrementalOK, b.IncrementalDif)
		add("5. peak RSS <= 200 MB", b.PeakRSSMB <= 200, "%.0f MB", b.PeakRSSMB)
		add("5. 4x corpus grows at most linearly", b.TimeRatio4x <= 4 && b.RSSRatio4x <= 4, "time %.2fx, RSS %.2fx", b.TimeRatio4x, b.RSSRatio4x)
	}
	return g
}

func printTable(w io.Writer, r *Results) {
	fmt.Fprintf(w, "logoindex bench, %s, %s\n\n", r.Date, r.Machine)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "corpus\tfiles\tsource B\tSVGO B\tour B\tratio\tgzip ratio\tvisual ours/SVGO\tour opt s\tSVGO s\tfull build s\tcp -r s\tratio\tno-op s\tone-change s\tpeak RSS MB\t4x time\t4x RSS\t")
	for _, c := range r.Corpora {
		visual := "-"
		if c.Rendered {
			visual = fmt.Sprintf("%d/%d", len(c.OursChanged), len(c.SVGOChanged))
		}
		build := "-\t-\t-\t-\t-\t-\t-\t-"
		if b := r.Build; b != nil && c.Corpus == "simple-icons" {
			build = fmt.Sprintf("%.2f\t%.2f\t%.1fx\t%.2f (%.0f%%)\t%.2f (%.0f%%)\t%.0f\t%.2fx\t%.2fx",
				b.Full, b.Copy, b.CopyRatio, b.NoOp, 100*b.NoOpRatio, b.OneChange, 100*b.OneChangeRatio, b.PeakRSSMB, b.TimeRatio4x, b.RSSRatio4x)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.3f\t%.3f\t%s\t%.2f\t%.2f\t%s\t\n",
			c.Corpus, c.Files, c.Source.Raw, c.SVGO.Raw, c.Ours.Raw, c.Ratio, c.GzipRatio, visual, c.OursSeconds, c.SVGOSeconds, build)
	}
	tw.Flush()
	fmt.Fprintln(w)
	for _, g := range r.Goals {
		mark := "MET    "
		if !g.Met {
			mark = "NOT MET"
		}
		fmt.Fprintf(w, "%s %s: %s\n", mark, g.Goal, g.Got)
	}
	fmt.Fprintf(w, "\nrendering took %.0fs; the whole run %.0fs\n", r.RenderSeconds, r.TotalSeconds)
}

func secs(rs []run) float64 {
	ds := make([]time.Duration, len(rs))
	for i, r := range rs {
		ds[i] = r.Wall
	}
	return median(ds).Seconds()
}

func maxRSS(groups ...[]run) int64 {
	var m int64
	for _, g := range groups {
		for _, r := range g {
			m = max(m, r.MaxRSS)
		}
	}
	return m
}

func mb(b int64) float64 { return float64(b) / (1 << 20) }

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
