package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// writeSimpleIconsSource writes simple-icons as a logoindex source folder
// of copies × 3,470 logos (see simpleIconsLogos) and returns the slugs.
func writeSimpleIconsSource(modules, dir string, copies int) ([]string, error) {
	cats, logos, err := simpleIconsLogos(modules, copies)
	if err != nil {
		return nil, err
	}
	if err := writeSourceTree(dir, cats, logos); err != nil {
		return nil, err
	}
	slugs := make([]string, len(logos))
	for i, l := range logos {
		slugs[i] = l.Slug
	}
	return slugs, nil
}

// setFirstFill replaces the value of the first fill attribute, the root's
// in the files writeSimpleIconsSource writes.
func setFirstFill(svg []byte, fill string) []byte {
	i := bytes.Index(svg, []byte(` fill="`))
	if i < 0 {
		return setRootPaint(svg, fill)
	}
	i += len(` fill="`)
	j := bytes.IndexByte(svg[i:], '"')
	if j < 0 {
		return svg
	}
	out := slices.Clone(svg[:i])
	out = append(out, fill...)
	return append(out, svg[i+j:]...)
}

// run is one timed process.
type run struct {
	Wall   time.Duration
	MaxRSS int64 // bytes
}

// timed runs a command and returns its wall time and peak resident set
// size (wait4's ru_maxrss), failing with its output if it fails.
func timed(env []string, name string, args ...string) (run, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return run{}, fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, tail(out.String(), 2000))
	}
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss * 1024 // kilobytes on Linux
	}
	return run{wall, rss}, nil
}

// buildResult holds the build timings of one source folder.
type buildResult struct {
	Logos       int
	Files       int
	Full        []run
	Copy        []run
	NoOp        []run
	OneChange   []run
	Identical   bool   // the incremental output equals a clean build's, file for file
	IdenticalAt string // the first difference, when not identical
}

// benchBuild times clean builds, cp -r of their output, no-op rebuilds and
// rebuilds after one logo changed. Each clean build runs in a new folder
// with its own HOME and XDG_CACHE_HOME, so no cache a build may keep
// survives into it; the rebuilds reuse the folder of the build before.
func benchBuild(bin, src, work string, runs int, slugs []string, full bool) (*buildResult, error) {
	res := &buildResult{Logos: len(slugs)}
	var last string
	var lastEnv []string
	for i := range runs {
		dir := filepath.Join(work, fmt.Sprintf("run%d", i))
		env, err := freshWorkDir(dir)
		if err != nil {
			return nil, err
		}
		r, err := timed(env, bin, "build", "-src", src, "-out", filepath.Join(dir, "dist"), "-base-url", "https://logos.example.com")
		if err != nil {
			return nil, err
		}
		res.Full = append(res.Full, r)
		if last != "" {
			os.RemoveAll(last)
		}
		last, lastEnv = dir, env
	}
	dist := filepath.Join(last, "dist")
	n, err := countFiles(dist)
	if err != nil {
		return nil, err
	}
	res.Files = n
	if !full {
		return res, os.RemoveAll(last)
	}
	for range runs {
		dst := filepath.Join(last, "copy")
		r, err := timed(nil, "cp", "-r", dist, dst)
		if err != nil {
			return nil, err
		}
		res.Copy = append(res.Copy, r)
		if err := os.RemoveAll(dst); err != nil {
			return nil, err
		}
	}
	build := func() (run, error) {
		return timed(lastEnv, bin, "build", "-src", src, "-out", dist, "-base-url", "https://logos.example.com")
	}
	for range runs {
		r, err := build()
		if err != nil {
			return nil, err
		}
		res.NoOp = append(res.NoOp, r)
	}
	// One change: the first logo's icon swaps between two colours, so every
	// run sees a real change.
	icon := filepath.Join(src, slugs[0], "icon.svg")
	orig, err := os.ReadFile(icon)
	if err != nil {
		return nil, err
	}
	defer os.WriteFile(icon, orig, 0o644)
	for i := range runs {
		changed := setFirstFill(orig, fmt.Sprintf("#%06X", 0x102030+i))
		if err := os.WriteFile(icon, changed, 0o644); err != nil {
			return nil, err
		}
		r, err := build()
		if err != nil {
			return nil, err
		}
		res.OneChange = append(res.OneChange, r)
	}
	// The incremental output must be what a clean build writes.
	cleanDir := filepath.Join(work, "clean")
	env, err := freshWorkDir(cleanDir)
	if err != nil {
		return nil, err
	}
	if _, err := timed(env, bin, "build", "-src", src, "-out", filepath.Join(cleanDir, "dist"), "-base-url", "https://logos.example.com"); err != nil {
		return nil, err
	}
	res.IdenticalAt, err = diffTrees(dist, filepath.Join(cleanDir, "dist"))
	if err != nil {
		return nil, err
	}
	res.Identical = res.IdenticalAt == ""
	os.RemoveAll(cleanDir)
	return res, os.RemoveAll(last)
}

// freshWorkDir empties dir and returns an environment whose HOME and
// XDG_CACHE_HOME point inside it.
func freshWorkDir(dir string) ([]string, error) {
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return nil, err
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "XDG_CACHE_HOME=") {
			env = append(env, kv)
		}
	}
	return append(env, "HOME="+home, "XDG_CACHE_HOME="+filepath.Join(home, ".cache")), nil
}

func countFiles(dir string) (int, error) {
	n := 0
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			n++
		}
		return err
	})
	return n, err
}

// diffTrees returns the first path where two trees differ, or "".
func diffTrees(a, b string) (string, error) {
	read := func(root string) (map[string][32]byte, error) {
		m := map[string][32]byte{}
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			m[filepath.ToSlash(rel)] = sha256.Sum256(data)
			return nil
		})
		return m, err
	}
	ma, err := read(a)
	if err != nil {
		return "", err
	}
	mb, err := read(b)
	if err != nil {
		return "", err
	}
	var names []string
	for k := range ma {
		names = append(names, k)
	}
	for k := range mb {
		if _, ok := ma[k]; !ok {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	for _, k := range names {
		ha, oka := ma[k]
		hb, okb := mb[k]
		if !oka || !okb || ha != hb {
			return k, nil
		}
	}
	return "", nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}
