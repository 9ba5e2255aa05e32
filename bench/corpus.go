package main

import (
	"bytes"
	"compress/gzip"
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

func loadCorpus(modules string, spec corpusSpec) (*corpus, error) {
	paths, err := filepath.Glob(filepath.Join(modules, filepath.FromSlash(spec.Glob)))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("corpus %s: no files match %s", spec.Name, spec.Glob)
	}
	prefix := filepath.Join(modules, filepath.FromSlash(spec.Glob[:strings.Index(spec.Glob, "*")]))
	c := &corpus{Name: spec.Name}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		rel, _ := filepath.Rel(prefix, p)
		name := strings.ReplaceAll(filepath.ToSlash(rel), "/", "__")
		info, probs := checkFile(name, data)
		if len(probs.Errors()) > 0 {
			c.Rejected = append(c.Rejected, name+": "+probs.Errors()[0].Msg)
			continue
		}
		c.Files = append(c.Files, &corpusFile{Name: name, Src: data, Info: info})
	}
	slices.SortFunc(c.Files, func(a, b *corpusFile) int { return strings.Compare(a.Name, b.Name) })
	return c, nil
}

// checkFile parses and checks one file as a colour variant.
func checkFile(name string, data []byte) (*svg.Info, problem.List) {
	d, probs := svg.Parse(name, data)
	if d == nil {
		return nil, probs
	}
	return svg.Check(d, svg.Rules{})
}

// runOurs parses, checks and optimises every file in memory with
// svg.Optimise on one worker per CPU, as a build does, and keeps the median
// time of runs.
func runOurs(c *corpus, runs int) {
	var times []time.Duration
	for range runs {
		c.OursErr = c.OursErr[:0]
		var mu sync.Mutex
		start := time.Now()
		forEach(len(c.Files), runtime.GOMAXPROCS(0), func(i int) {
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
		times = append(times, time.Since(start))
	}
	slices.Sort(c.OursErr)
	c.OursTime = median(times)
}

// runSVGO runs SVGO's CLI with its default preset on a folder holding the
// corpus, as peers run it, and keeps the median time of runs.
func runSVGO(c *corpus, cache, modules string, runs int) error {
	dir := filepath.Join(cache, "corpora", c.Name)
	src, out := filepath.Join(dir, "src"), filepath.Join(dir, "svgo")
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(src, 0o755); err != nil {
		return err
	}
	for _, f := range c.Files {
		if err := os.WriteFile(filepath.Join(src, f.Name), f.Src, 0o644); err != nil {
			return err
		}
	}
	svgo := filepath.Join(modules, "svgo", "bin", "svgo")
	var times []time.Duration
	for range runs {
		if err := os.RemoveAll(out); err != nil {
			return err
		}
		cmd := exec.Command("node", svgo, "--quiet", "-f", src, "-o", out)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		start := time.Now()
		err := cmd.Run()
		times = append(times, time.Since(start))
		if err != nil {
			// SVGO exits non-zero when one file fails; the others are written.
			logf("svgo on %s: %v: %s", c.Name, err, firstLine(stderr.String()))
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
	return nil
}

// byteTotals is the size of a corpus as written by one tool.
type byteTotals struct{ Raw, Gzip int64 }

func totals(c *corpus, pick func(*corpusFile) []byte) byteTotals {
	var t byteTotals
	var mu sync.Mutex
	forEach(len(c.Files), runtime.GOMAXPROCS(0), func(i int) {
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

// forEach calls fn(0..n-1) on workers goroutines.
func forEach(n, workers int, fn func(i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(1, min(workers, n)) {
		wg.Go(func() {
			for i := range next {
				fn(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
