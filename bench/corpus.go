package main

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"logoindex/generator/problem"
	"logoindex/generator/svg"
	"logoindex/internal/par"
)

// corpusSpec names a corpus and where its SVGs sit in node_modules.
type corpusSpec struct {
	Name string
	Glob string // relative to node_modules
}

var corpusSpecs = []corpusSpec{
	{"simple-icons", "simple-icons/icons/*.svg"},
	{"devicon", "devicon/icons/*/*.svg"},
	{"lobehub", "@lobehub/icons-static-svg/icons/*.svg"},
}

// corpusFile is one input SVG with both tools' outputs.
type corpusFile struct {
	Name string // flat: devicon's "go/go-original.svg" is "go__go-original.svg"
	Src  []byte
	Info *svg.Info
	Ours []byte
	SVGO []byte // nil when SVGO failed on the file
}

// corpus is the files of one corpus that logoindex accepts; the same set
// goes through both optimisers, so the byte totals compare like with like.
type corpus struct {
	Name     string
	Files    []*corpusFile
	Rejected []string // files the generator's checks refuse, left out of both
	OursTime time.Duration
	SVGOTime time.Duration
	OursErr  []string // files whose optimisation failed (ours counted as the source)
	SVGOErr  []string // files SVGO wrote nothing for (counted as the source)
}

// loadCorpus reads and checks the files of spec, or only the sample of
// them when sample is above zero.
func loadCorpus(ctx context.Context, modules string, spec corpusSpec, sample int) (*corpus, error) {
	paths, err := corpusPaths(modules, spec, sample)
	if err != nil {
		return nil, err
	}
	prefix := filepath.Join(modules, filepath.FromSlash(spec.Glob[:strings.Index(spec.Glob, "*")]))
	c := &corpus{Name: spec.Name, Files: make([]*corpusFile, len(paths))}
	rejected := make([]string, len(paths))
	st := startStage("load "+spec.Name, len(paths))
	var mu sync.Mutex
	var firstErr error
	par.For(ctx, len(paths), runtime.GOMAXPROCS(0), func(i int) {
		defer st.Add(1)
		data, err := os.ReadFile(paths[i])
		if err != nil {
			mu.Lock()
			firstErr = cmpOr(firstErr, err)
			mu.Unlock()
			return
		}
		rel, _ := filepath.Rel(prefix, paths[i])
		name := strings.ReplaceAll(filepath.ToSlash(rel), "/", "__")
		info, probs := checkFile(name, data)
		if len(probs.Errors()) > 0 {
			rejected[i] = name + ": " + probs.Errors()[0].Msg
			return
		}
		c.Files[i] = &corpusFile{Name: name, Src: data, Info: info}
	})
	if err := cmpOr(firstErr, ctx.Err()); err != nil {
		st.End("stopped")
		return nil, err
	}
	c.Files = slices.DeleteFunc(c.Files, func(f *corpusFile) bool { return f == nil })
	for _, r := range rejected {
		if r != "" {
			c.Rejected = append(c.Rejected, r)
		}
	}
	slices.SortFunc(c.Files, func(a, b *corpusFile) int { return strings.Compare(a.Name, b.Name) })
	st.End("%d files (%d refused by the checks)", len(c.Files), len(c.Rejected))
	return c, nil
}

// corpusPaths lists the files of spec in name order, or sample of them
// spread evenly when sample is above zero.
func corpusPaths(modules string, spec corpusSpec, sample int) ([]string, error) {
	paths, err := filepath.Glob(filepath.Join(modules, filepath.FromSlash(spec.Glob)))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("corpus %s: no files match %s", spec.Name, spec.Glob)
	}
	slices.Sort(paths)
	if sample <= 0 {
		return paths, nil
	}
	var picked []string
	for _, i := range sampleIndices(len(paths), sample) {
		picked = append(picked, paths[i])
	}
	return picked, nil
}

// sampleIndices picks k of n indices spread evenly from the first, the
// same every run: all of them when k >= n.
func sampleIndices(n, k int) []int {
	k = min(k, n)
	idx := make([]int, k)
	for i := range k {
		idx[i] = i * n / k
	}
	return idx
}

// checkFile parses and checks one file as a colour variant.
func checkFile(name string, data []byte) (*svg.Info, problem.List) {
	d, probs := svg.Parse(name, data)
	if d == nil {
		return nil, probs
	}
	return svg.Check(d, svg.Rules{})
}

// runOurs optimises every file in memory with svg.Optimise on one worker
// per CPU, as a build does, and keeps the median time of runs.
func runOurs(ctx context.Context, c *corpus, runs int) error {
	st := startStage("optimise "+c.Name, runs*len(c.Files))
	var times []time.Duration
	for range runs {
		c.OursErr = c.OursErr[:0]
		var mu sync.Mutex
		start := time.Now()
		par.For(ctx, len(c.Files), runtime.GOMAXPROCS(0), func(i int) {
			defer st.Add(1)
			f := c.Files[i]
			// No title: the optimiser would add one to files that lack it, and
			// SVGO adds none, so bytes compare the same content.
			out, err := svg.Optimise(f.Src, svg.Options{})
			if err != nil {
				mu.Lock()
				c.OursErr = append(c.OursErr, f.Name+": "+err.Error())
				mu.Unlock()
				out = f.Src
			}
			f.Ours = out
		})
		if ctx.Err() != nil {
			st.End("stopped")
			return ctx.Err()
		}
		times = append(times, time.Since(start))
	}
	slices.Sort(c.OursErr)
	c.OursTime = median(times)
	st.End("median %s of %d runs", roundDuration(c.OursTime), runs)
	return nil
}

// runSVGO runs SVGO's CLI with its default preset on a folder holding the
// corpus, as peers run it, and keeps the median time of runs. Each run
// writes into a new folder, and all go to the trash: a removal between
// runs would slow the next one (see trash), and the builds timed after.
// The bar counts the files SVGO has written.
func runSVGO(ctx context.Context, c *corpus, cache, modules string, runs int, t *trash) error {
	dir := filepath.Join(cache, "corpora", c.Name)
	src := filepath.Join(dir, "src")
	if err := os.RemoveAll(dir); err != nil { // left by a run that died
		return err
	}
	t.add(dir)
	if err := os.MkdirAll(src, 0o755); err != nil {
		return err
	}
	for _, f := range c.Files {
		if err := os.WriteFile(filepath.Join(src, f.Name), f.Src, 0o644); err != nil {
			return err
		}
	}
	svgo := filepath.Join(modules, "svgo", "bin", "svgo")
	st := startStage("svgo "+c.Name, runs*len(c.Files))
	var times []time.Duration
	var out string
	for i := range runs {
		out = filepath.Join(dir, fmt.Sprintf("svgo%d", i))
		cmd := exec.CommandContext(ctx, "node", svgo, "--quiet", "-f", src, "-o", out)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		start := time.Now()
		stop := poll(func() bool { st.Set(i*len(c.Files) + countEntries(out)); return true })
		err := cmd.Run()
		times = append(times, time.Since(start))
		stop()
		if ctx.Err() != nil {
			st.End("stopped")
			return ctx.Err()
		}
		if err != nil {
			// SVGO exits non-zero when one file fails; the others are written.
			st.Logf("svgo on %s: %v: %s", c.Name, err, firstLine(stderr.String()))
		}
	}
	c.SVGOTime = median(times)
	c.SVGOErr = c.SVGOErr[:0]
	for _, f := range c.Files {
		data, err := os.ReadFile(filepath.Join(out, f.Name))
		if err != nil || len(data) == 0 {
			c.SVGOErr = append(c.SVGOErr, f.Name)
			f.SVGO = nil
			continue
		}
		f.SVGO = data
	}
	st.End("median %s of %d runs", roundDuration(c.SVGOTime), runs)
	return nil
}

func countEntries(dir string) int {
	f, err := os.Open(dir)
	if err != nil {
		return 0
	}
	defer f.Close()
	names, _ := f.Readdirnames(-1)
	return len(names)
}

// byteTotals is the size of a corpus as written by one tool.
type byteTotals struct{ Raw, Gzip int64 }

func totals(ctx context.Context, c *corpus, pick func(*corpusFile) []byte) byteTotals {
	var t byteTotals
	var mu sync.Mutex
	par.For(ctx, len(c.Files), runtime.GOMAXPROCS(0), func(i int) {
		data := pick(c.Files[i])
		g := gzipSize(data)
		mu.Lock()
		t.Raw += int64(len(data))
		t.Gzip += g
		mu.Unlock()
	})
	return t
}

// gzipSize is the size of data compressed alone at level 9, as a CDN
// serves each file.
func gzipSize(data []byte) int64 {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(data)
	w.Close()
	return int64(buf.Len())
}

func srcOf(f *corpusFile) []byte  { return f.Src }
func oursOf(f *corpusFile) []byte { return f.Ours }

// svgoOf is SVGO's output, or the source where SVGO failed.
func svgoOf(f *corpusFile) []byte {
	if f.SVGO == nil {
		return f.Src
	}
	return f.SVGO
}

// median is the middle value, or the upper of the two middle ones.
func median[T cmp.Ordered](xs []T) T {
	var zero T
	if len(xs) == 0 {
		return zero
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
