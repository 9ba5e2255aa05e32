package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"logoindex/internal/atomicfile"
	"logoindex/internal/par"
)

const benchBaseURL = "https://logos.example.com"

// baseTree writes simple-icons as a source folder (only the logos whose
// icon files are in only, when only is not nil), unless dir already holds
// exactly that: a stamp beside it holds the digest of its files. It returns
// the slugs and the digest.
func baseTree(modules, dir string, only map[string]bool) ([]string, string, error) {
	cats, logos, err := simpleIconsLogos(modules, only)
	if err != nil {
		return nil, "", err
	}
	files, err := sourceFiles(cats, logos)
	if err != nil {
		return nil, "", err
	}
	slugs := make([]string, len(logos))
	for i, l := range logos {
		slugs[i] = l.Slug
	}
	h := sha256.New()
	for _, f := range files {
		fmt.Fprintf(h, "%s %d\n", f.path, len(f.data))
		h.Write(f.data)
	}
	digest := hex.EncodeToString(h.Sum(nil))
	if readStamp(dir) == digest {
		return slugs, digest, nil
	}
	if err := clearStamp(dir); err != nil {
		return nil, "", err
	}
	if err := writeFiles(dir, files); err != nil {
		return nil, "", err
	}
	return slugs, digest, writeStamp(dir, digest)
}

// linkedTree makes dir a source folder of copies × the logos of base:
// the first copy under each slug, copy k under <slug>-xk, every file a hard
// link into base (the copies are the same logos under other slugs), so
// that even many copies take seconds, not minutes. It reuses dir when its
// stamp says it was made from the same base.
func linkedTree(ctx context.Context, base, dir string, slugs []string, digest string, copies int) error {
	stamp := fmt.Sprintf("%s x%d", digest, copies)
	if readStamp(dir) == stamp {
		return nil
	}
	if err := clearStamp(dir); err != nil {
		return err
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	tmp := dir + ".tmp"
	if err := os.RemoveAll(tmp); err != nil {
		return err
	}
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return err
	}
	if err := os.Link(filepath.Join(base, "categories.yaml"), filepath.Join(tmp, "categories.yaml")); err != nil {
		return err
	}
	names := make([][]string, len(slugs))
	for i, slug := range slugs {
		entries, err := os.ReadDir(filepath.Join(base, slug))
		if err != nil {
			return err
		}
		for _, e := range entries {
			names[i] = append(names[i], e.Name())
		}
	}
	st := startStage(fmt.Sprintf("link %d x %d logos into %s", copies, len(slugs), filepath.Base(dir)), copies*len(slugs))
	var mu sync.Mutex
	var firstErr error
	// Metadata operations overlap in the kernel: more workers than CPUs.
	par.For(ctx, copies*len(slugs), 4*runtime.GOMAXPROCS(0), func(i int) {
		defer st.Add(1)
		k, n := i/len(slugs)+1, i%len(slugs)
		slug := slugs[n]
		to := slug
		if k > 1 {
			to += "-x" + strconv.Itoa(k)
		}
		err := os.Mkdir(filepath.Join(tmp, to), 0o755)
		for _, name := range names[n] {
			if err == nil {
				err = os.Link(filepath.Join(base, slug, name), filepath.Join(tmp, to, name))
			}
		}
		if err != nil {
			mu.Lock()
			firstErr = cmpOr(firstErr, err)
			mu.Unlock()
		}
	})
	if err := cmpOr(firstErr, ctx.Err()); err != nil {
		st.End("stopped")
		return err
	}
	st.End("%d logos", copies*len(slugs))
	if err := os.Rename(tmp, dir); err != nil {
		return err
	}
	return writeStamp(dir, stamp)
}

// warmTree lists every folder of the source tree dir and reads every
// file, so that a build of it finds them in the kernel's caches, as a
// build of a fresh checkout does and as the cp -r it is compared with
// finds the tree it copies. A tree made by an earlier run (or before a
// reboot) is read from disk otherwise, which slows the first timed build
// and not the others.
func warmTree(ctx context.Context, dir string, logos int) error {
	st := startStage("read the source tree "+filepath.Base(dir), logos+1)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			st.Add(1)
			return ctx.Err()
		}
		_, err = os.ReadFile(p)
		return err
	})
	if err != nil {
		st.End("stopped")
		return err
	}
	st.End("%d folders", logos+1)
	return nil
}

// readStamp returns the stamp of dir, or "" when dir or its stamp is
// missing. A stamp is the file <dir>.stamp beside a generated tree, naming
// what the tree holds; it is removed before the tree changes and written
// after.
func readStamp(dir string) string {
	data, _ := os.ReadFile(dir + ".stamp")
	if _, err := os.Stat(dir); err != nil {
		return ""
	}
	return string(data)
}

func writeStamp(dir, s string) error { return atomicfile.Write(dir+".stamp", []byte(s), 0o644) }

func clearStamp(dir string) error {
	if err := os.Remove(dir + ".stamp"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// setFirstFill replaces the value of the first fill attribute, the root's
// in the files baseTree writes.
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

// appendToName appends suffix (plain text) to the value of the name key
// of a logo.yaml as the corpus conversion writes it: on a line of its own.
func appendToName(meta []byte, suffix string) []byte {
	lines := bytes.SplitAfter(meta, []byte("\n"))
	for i, l := range lines {
		v, ok := bytes.CutPrefix(l, []byte("name: "))
		if !ok {
			continue
		}
		v = bytes.TrimRight(v, "\r\n")
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			// Before the closing quote: the escapes stay as they were.
			lines[i] = fmt.Appendf(nil, "name: %s%s%c\n", v[:len(v)-1], suffix, v[0])
		} else {
			lines[i] = fmt.Appendf(nil, "name: %s%s\n", v, suffix)
		}
		break
	}
	return bytes.Join(lines, nil)
}

// run is one timed process.
type run struct {
	Wall time.Duration
	// CPU is its user and system time: unlike the wall time, it hardly
	// moves with what other users run on a shared machine.
	CPU    time.Duration
	MaxRSS int64 // bytes
}

// errMemory is a process killed for passing the memory limit.
var errMemory = errors.New("killed: its resident memory passed the limit (-max-rss)")

// timed runs a command and returns its wall time, CPU time and peak
// resident set size (wait4's rusage), failing with its output if it fails. Four
// times a second it shows the process's resident memory after label, and
// kills it when that passes limit bytes: one build of 100,000 logos that
// keeps everything in memory must not take the machine down with it.
//
// The command runs under a copy of the bench itself (runMeasured), which
// reports the command's ru_maxrss and CPU time: Linux carries a process's high-water
// mark across fork and exec, so a build started straight from the bench
// would report at least the bench's own memory (librsvg, the corpora).
func timed(ctx context.Context, st *stage, label string, env []string, limit int64, name string, args ...string) (run, error) {
	self, err := os.Executable()
	if err != nil {
		return run{}, err
	}
	cmd := exec.CommandContext(ctx, self, append([]string{measureArg, name}, args...)...)
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	peak, w, err := os.Pipe()
	if err != nil {
		return run{}, err
	}
	defer peak.Close()
	cmd.ExtraFiles = []*os.File{w}
	st.Describe(label)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		w.Close()
		return run{}, err
	}
	w.Close()
	var killed bool
	stop := poll(func() bool {
		rss := residentBytes(childOf(cmd.Process.Pid))
		st.Describe(fmt.Sprintf("%s, %.0f MB", label, mb(rss)))
		if limit > 0 && rss > limit {
			killed = true
			cmd.Process.Kill()
			return false
		}
		return true
	})
	err = cmd.Wait()
	wall := time.Since(start)
	stop()
	r := run{Wall: wall}
	if b, rerr := io.ReadAll(peak); rerr == nil {
		var cpu, childWall int64
		if n, _ := fmt.Sscan(string(b), &r.MaxRSS, &cpu, &childWall); n == 3 {
			r.Wall = time.Duration(childWall) // without the wrapper's own start
		}
		r.CPU = time.Duration(cpu)
	}
	switch {
	case ctx.Err() != nil:
		return run{}, ctx.Err()
	case killed:
		return r, fmt.Errorf("%s %s: %w (%.0f MB)", filepath.Base(name), args[0], errMemory, mb(limit))
	case err != nil:
		return run{}, fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, tail(out.String(), 2000))
	}
	return r, nil
}

// measureArg makes the bench run the rest of its arguments as a command
// and write the command's peak resident memory, in bytes, and its user
// and system time and its wall time, in nanoseconds, to file 3. The wall
// time is the command's alone, without the start of the wrapper, which
// links librsvg and would weigh on a no-op build's time.
const measureArg = "-measure-rss"

// runMeasured is the bench run as a small process whose only child is the
// measured command: the child's ru_maxrss then starts from this process's
// few megabytes. The command dies with it (a limit, Ctrl-C).
func runMeasured(args []string) error {
	if len(args) == 0 {
		return errors.New(measureArg + " needs a command")
	}
	report := os.NewFile(3, "peak")
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = dieWithParent()
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if cmd.ProcessState == nil {
		return err
	}
	if peak, cpu, ok := usage(cmd.ProcessState); ok && report != nil {
		fmt.Fprintln(report, peak, int64(cpu), int64(wall))
	}
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		os.Exit(ee.ExitCode())
	}
	return err
}

// childOf is the first child of a process (the command under
// runMeasured), or pid itself while it has none.
func childOf(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
	if err != nil {
		return pid
	}
	if f := strings.Fields(string(b)); len(f) > 0 {
		if c, err := strconv.Atoi(f[0]); err == nil {
			return c
		}
	}
	return pid
}

// residentBytes is VmRSS of a process, or 0.
func residentBytes(pid int) int64 {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb * 1024
		}
	}
	return 0
}

// memoryLimit is the default -max-rss: four fifths of the memory
// available when the run starts, or none where /proc/meminfo is missing.
func memoryLimit() int64 {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "MemAvailable:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb * 1024 * 4 / 5
		}
	}
	return 0
}

// builder times the real binary.
type builder struct {
	bin   string
	limit int64 // bytes of resident memory, 0 for none
	runs  int
	trash *trash
}

// discard notes that dir is to be removed, once no timed run follows.
func (b *builder) discard(dir string) { b.trash.add(dir) }

// trash is the folders a run removes once no timed run follows. A
// removal before a timed run makes the run pay for it: on ext4 without a
// journal the inode allocator skips every inode freed in the last 60 s
// (360 s while the inode table is not written back), reading the inode
// of each (find_inode_bit, recently_deleted), so creating files right
// after a large removal is many times slower.
type trash struct{ dirs []string }

// add notes that dir is to be removed by remove.
func (t *trash) add(dir string) { t.dirs = append(t.dirs, dir) }

// remove removes the folders, and says that the removal slows what
// creates files on this machine for a while: a second run started right
// away measures it.
func (t *trash) remove() {
	if len(t.dirs) == 0 {
		return
	}
	st := startStage("remove the build trees", -1)
	for _, dir := range t.dirs {
		os.RemoveAll(dir)
	}
	t.dirs = nil
	st.End("removed; wait ten minutes before timing anything that writes files on this machine (docs/performance.md)")
}

// build times one build of src into out after a write-back of what came
// before, as every timed run: the no-op and one-change rebuilds run right
// after a cp -r or a clean build of the whole tree.
func (b *builder) build(ctx context.Context, st *stage, label string, env []string, src, out string) (run, error) {
	writeBack()
	return timed(ctx, st, label, env, b.limit, b.bin, "build", "-src", src, "-out", out, "-base-url", benchBaseURL)
}

// cleanBuilds times n clean builds of src, each in a new folder under work
// with its own HOME and XDG_CACHE_HOME, so that no cache a build may keep
// survives into the next. After each, then (when not nil) is called with
// the run's number and folder. It returns the folder of the last with its
// environment; every one stays until the caller removes work (see
// builder.trash).
func (b *builder) cleanBuilds(ctx context.Context, st *stage, src, work string, n int, then func(i int, dir string) error) (runs []run, dir string, env []string, err error) {
	for i := range n {
		dir = filepath.Join(work, fmt.Sprintf("run%d", i))
		if env, err = freshWorkDir(dir); err != nil {
			return runs, "", nil, err
		}
		r, err := b.build(ctx, st, fmt.Sprintf("run %d of %d", i+1, n), env, src, filepath.Join(dir, "dist"))
		if err != nil {
			os.RemoveAll(dir)
			return runs, "", nil, err
		}
		runs = append(runs, r)
		st.Add(1)
		if then != nil {
			if err := then(i, dir); err != nil {
				return runs, "", nil, err
			}
		}
	}
	return runs, dir, env, nil
}

// benchBuilds measures the builds of simple-icons (or of the sample): at
// 1x the clean build, cp -r of its output, no-op and one-change rebuilds
// and whether a rebuild's output equals a clean build's; then clean builds
// of 4 copies, and of cfg.scale copies when set. It fills res.Build as it
// goes and calls save after each step.
func benchBuilds(ctx context.Context, cfg config, bin, modules string, res *Results, save func(step string)) error {
	bb, err := prepareSource(ctx, cfg, modules)
	if err != nil {
		return err
	}
	bb.b = &builder{bin: bin, limit: cfg.maxRSS, runs: cfg.runs, trash: cfg.trash}
	bb.row = &BuildRow{Logos: len(bb.slugs), Runs: cfg.runs}
	res.Build = bb.row
	bb.label = fmt.Sprintf("build %d", len(bb.slugs))

	if err := bb.cleanAndCopy(); err != nil {
		return err
	}
	save("build: clean and cp -r")
	if err := bb.noOp(); err != nil {
		return err
	}
	save("build: no-op")
	if err := bb.oneChange(); err != nil {
		return err
	}
	save("build: one change")
	return bb.scaleBuilds(save)
}

// buildBench is what the stages of benchBuilds share: the 1x source tree,
// the builder and the row they fill, and, once cleanAndCopy has run, the
// last clean build that the rebuilds update.
type buildBench struct {
	ctx    context.Context
	cfg    config
	b      *builder
	row    *BuildRow
	work   string   // the cache folder of the source trees and builds
	name   string   // the source tree's name: src-1x or src-sample-N
	src    string   // the source tree, work/name
	slugs  []string // its logos
	digest string   // its digest, from baseTree
	label  string   // "build N", the start of each stage's name

	dir     string   // the last clean build's folder; rebuilds write its dist
	env     []string // that build's environment
	copyDir string   // the cp -r of that build's output
}

// prepareSource writes the 1x source tree (of the sample's logos in a
// quick run) under the cache, unless it is already there, and reads it
// into the kernel's caches, so that the first timed build finds it as the
// others do.
func prepareSource(ctx context.Context, cfg config, modules string) (*buildBench, error) {
	work := filepath.Join(cfg.cache, "build")
	var only map[string]bool
	name := "src-1x"
	if cfg.sample > 0 {
		paths, err := corpusPaths(modules, corpusSpecs[0], cfg.sample)
		if err != nil {
			return nil, err
		}
		only = map[string]bool{}
		for _, p := range paths {
			only[filepath.Base(p)] = true
		}
		name = fmt.Sprintf("src-sample-%d", cfg.sample)
	}
	src := filepath.Join(work, name)
	st := startStage("write the source tree "+name, -1)
	slugs, digest, err := baseTree(modules, src, only)
	if err != nil {
		st.End("failed")
		return nil, err
	}
	st.End("%d logos in %s", len(slugs), src)
	if err := warmTree(ctx, src, len(slugs)); err != nil {
		return nil, err
	}
	return &buildBench{ctx: ctx, cfg: cfg, work: work, name: name, src: src, slugs: slugs, digest: digest}, nil
}

// cleanAndCopy times the clean builds, and cp -r of what each wrote into
// a new folder beside it (the copies go with out), in turn: whatever slows
// the machine's file system for a while (a removal by anything, the
// write-back of what came before) then weighs on both alike, where five
// builds followed by five copies would give it all to whichever came
// first. It keeps the last build for the rebuilds, and its copy to compare
// with the tree after the no-op rebuilds.
func (bb *buildBench) cleanAndCopy() error {
	row, runs := bb.row, bb.cfg.runs
	st := startStage(bb.label+": clean build and cp -r, in turn", 2*runs)
	out := filepath.Join(bb.work, "out-"+bb.name)
	bb.b.discard(out) // with the runs done before a failure or Ctrl-C
	var copies []run
	copyOf := func(i int, dir string) error {
		dist, err := filepath.EvalSymlinks(filepath.Join(dir, "dist"))
		if err != nil {
			return err
		}
		bb.copyDir = filepath.Join(dir, "copy")
		writeBack()
		r, err := timed(bb.ctx, st, fmt.Sprintf("cp -r %d of %d", i+1, runs), nil, 0, "cp", "-r", dist, bb.copyDir)
		if err != nil {
			return err
		}
		copies = append(copies, r)
		st.Add(1)
		return nil
	}
	full, dir, env, err := bb.b.cleanBuilds(bb.ctx, st, bb.src, out, runs, copyOf)
	if err != nil {
		st.End("stopped")
		return err
	}
	bb.dir, bb.env = dir, env
	_, files, err := output(dir)
	if err != nil {
		return err
	}
	row.Files = files
	row.Clean, row.CleanRuns, row.CleanCPU = secs(full), runSecs(full), cpuSecs(full)
	row.PeakRSSMB = mb(maxRSS(full))
	row.Copy, row.CopyRuns, row.CopyCPU = secs(copies), runSecs(copies), cpuSecs(copies)
	row.CopyRatio = row.Clean / row.Copy
	st.End("%d files; clean build median %.2fs, peak RSS %.0f MB; cp -r median %.2fs: the build takes %.2fx",
		row.Files, row.Clean, row.PeakRSSMB, row.Copy, row.CopyRatio)
	return nil
}

// rebuild times one build of the source tree into the last clean build's
// output, which the build updates in place.
func (bb *buildBench) rebuild(st *stage, label string) (run, error) {
	return bb.b.build(bb.ctx, st, label, bb.env, bb.src, filepath.Join(bb.dir, "dist"))
}

// noOp times rebuilds with nothing changed, then compares the tree they
// leave with the copy of the clean one: a no-op rebuild must not touch it.
func (bb *buildBench) noOp() error {
	row, runs := bb.row, bb.cfg.runs
	st := startStage(bb.label+": no-op", runs)
	var noop []run
	for i := range runs {
		r, err := bb.rebuild(st, fmt.Sprintf("run %d of %d", i+1, runs))
		if err != nil {
			st.End("stopped")
			return err
		}
		noop = append(noop, r)
		st.Add(1)
	}
	row.NoOp, row.NoOpRuns, row.NoOpCPU = secs(noop), runSecs(noop), cpuSecs(noop)
	row.NoOpRatio, row.NoOpCPURatio = row.NoOp/row.Clean, row.NoOpCPU/row.CleanCPU
	row.PeakRSSMB = max(row.PeakRSSMB, mb(maxRSS(noop)))
	diff, err := diffTrees(filepath.Join(bb.dir, "dist"), bb.copyDir)
	if err != nil {
		return err
	}
	row.NoOpUnchanged = check(diff)
	st.End("median %.2fs, %.1f%% of a clean build (CPU %.2fs, %.1f%%); the tree %s", row.NoOp, 100*row.NoOpRatio, row.NoOpCPU, 100*row.NoOpCPURatio, row.NoOpUnchanged)
	return nil
}

// oneChange times rebuilds after one logo's icon changed, then after its
// name changed (which changes the collection's files too), then compares
// the output with a clean build of the changed source, file by file. The
// first logo's icon fill alternates, so that every rebuild sees a real
// change. Its files are put back afterwards.
func (bb *buildBench) oneChange() error {
	n := bb.b.runs + 1
	st := startStage(bb.label+": one change", 2*n+2)
	slug := bb.slugs[0]
	icon := filepath.Join(bb.src, slug, "icon.svg")
	meta := filepath.Join(bb.src, slug, "logo.yaml")
	origIcon, err := os.ReadFile(icon)
	if err != nil {
		return err
	}
	origMeta, err := os.ReadFile(meta)
	if err != nil {
		return err
	}
	if bytes.Equal(appendToName(origMeta, " 1"), origMeta) {
		return fmt.Errorf("%s has no name: line to change", meta)
	}
	// Files are replaced, never written in place: the copies of the tree
	// are hard links to these.
	if err := clearStamp(bb.src); err != nil {
		return err
	}
	defer func() {
		if atomicfile.Write(icon, origIcon, 0o644) == nil && atomicfile.Write(meta, origMeta, 0o644) == nil {
			writeStamp(bb.src, bb.digest) // the tree is what baseTree wrote again
		}
	}()
	artworkDiff, err := bb.artworkChanges(st, n, icon, origIcon)
	if err != nil {
		return err
	}
	nameDiff, err := bb.nameChanges(st, n, meta, origMeta)
	if err != nil {
		return err
	}
	row := bb.row
	row.RebuildEqualsClean = rebuildVerdict(artworkDiff, nameDiff)
	st.End("artwork: first %.2fs (%.1f%%), then median %.2fs (%.1f%% of a clean build; CPU %.1f%%); name: median %.2fs (%.1f%%; CPU %.1f%%); output %s",
		row.OneChangeFirst, 100*row.OneChangeFirstRatio, row.OneChange, 100*row.OneChangeRatio, 100*row.OneChangeCPURatio,
		row.OneChangeName, 100*row.OneChangeNameRatio, 100*row.OneChangeNameCPURatio, row.RebuildEqualsClean)
	return nil
}

// artworkChanges times n rebuilds, each after a new fill in the icon
// file, and returns where the output then differs from a clean build's.
// The first rebuild after a clean build may do a one-time job (set up a
// second tree), so it is reported apart from the median of the others.
func (bb *buildBench) artworkChanges(st *stage, n int, icon string, origIcon []byte) (string, error) {
	runs, err := bb.changeSeries(st, n, "artwork", icon, func(i int) []byte { return setFirstFill(origIcon, fmt.Sprintf("#%06X", 0x102030+i)) })
	if err != nil {
		return "", err
	}
	row := bb.row
	row.OneChangeFirst = runs[0].Wall.Seconds()
	row.OneChangeFirstRatio = row.OneChangeFirst / row.Clean
	row.OneChange, row.OneChangeRuns, row.OneChangeCPU = secs(runs[1:]), runSecs(runs), cpuSecs(runs[1:])
	row.OneChangeRatio, row.OneChangeCPURatio = row.OneChange/row.Clean, row.OneChangeCPU/row.CleanCPU
	row.PeakRSSMB = max(row.PeakRSSMB, mb(maxRSS(runs)))
	return bb.compareClean(st, "artwork edits")
}

// nameChanges times n rebuilds, each after a new suffix on the logo's
// name in meta, and returns where the output then differs from a clean
// build's.
func (bb *buildBench) nameChanges(st *stage, n int, meta string, origMeta []byte) (string, error) {
	runs, err := bb.changeSeries(st, n, "name", meta, func(i int) []byte { return appendToName(origMeta, fmt.Sprintf(" %d", i+1)) })
	if err != nil {
		return "", err
	}
	row := bb.row
	row.OneChangeName, row.OneChangeNameRuns, row.OneChangeNameCPU = secs(runs), runSecs(runs), cpuSecs(runs)
	row.OneChangeNameRatio, row.OneChangeNameCPURatio = row.OneChangeName/row.Clean, row.OneChangeNameCPU/row.CleanCPU
	row.PeakRSSMB = max(row.PeakRSSMB, mb(maxRSS(runs)))
	return bb.compareClean(st, "name edits")
}

// changeSeries times n rebuilds, the i-th after file is replaced with
// edit(i), naming each run after what changed.
func (bb *buildBench) changeSeries(st *stage, n int, what, file string, edit func(i int) []byte) ([]run, error) {
	var runs []run
	for i := range n {
		if err := atomicfile.Write(file, edit(i), 0o644); err != nil {
			return nil, err
		}
		r, err := bb.rebuild(st, fmt.Sprintf("%s %d of %d", what, i+1, n))
		if err != nil {
			st.End("stopped")
			return nil, err
		}
		runs = append(runs, r)
		st.Add(1)
	}
	return runs, nil
}

// compareClean builds the changed source clean, in a folder of its own,
// and returns the first file where the rebuilt output differs from it, or
// "": the incremental output must be what a clean build writes, after
// each kind of change (an artwork edit reuses the collection's files).
func (bb *buildBench) compareClean(st *stage, what string) (string, error) {
	clean := filepath.Join(bb.work, "clean-"+bb.name) + "-" + strings.ReplaceAll(what, " ", "-")
	env, err := freshWorkDir(clean)
	if err != nil {
		return "", err
	}
	bb.b.discard(clean)
	if _, err := bb.b.build(bb.ctx, st, "a clean build to compare after the "+what, env, bb.src, filepath.Join(clean, "dist")); err != nil {
		st.End("stopped")
		return "", err
	}
	st.Add(1)
	return diffTrees(filepath.Join(bb.dir, "dist"), filepath.Join(clean, "dist"))
}

// rebuildVerdict is the outcome of both comparisons with a clean build:
// the first difference, after the change that showed it, or "identical".
func rebuildVerdict(artworkDiff, nameDiff string) string {
	switch {
	case artworkDiff != "":
		return "after the artwork edits, " + check(artworkDiff)
	case nameDiff != "":
		return "after the name edits, " + check(nameDiff)
	default:
		return check("")
	}
}

// scaleBuilds times clean builds of 4 copies of the logos, and of
// cfg.scale copies when set, against the 1x build, to see time and memory
// grow. A scale killed for its memory is recorded in its row, not failed.
func (bb *buildBench) scaleBuilds(save func(step string)) error {
	scales := []int{4}
	if bb.cfg.scale > 1 {
		scales = append(scales, bb.cfg.scale)
	}
	for _, copies := range scales {
		s := &ScaleRow{Copies: copies, Logos: copies * len(bb.slugs)}
		if copies == 4 {
			bb.row.X4 = s
		} else {
			bb.row.Scale = s
		}
		runs := bb.cfg.runs
		if copies != 4 {
			runs = 1 // minutes each
		}
		err := bb.scaleBuild(s, runs)
		if errors.Is(err, errMemory) {
			s.Error = err.Error()
			err = nil
		}
		if err != nil {
			return err
		}
		save(fmt.Sprintf("build: %dx", copies))
	}
	return nil
}

// scaleBuild times clean builds of s.Copies × the logos of the source
// tree (runs of them), then one cp -r of the output when the 1x one was
// timed.
func (bb *buildBench) scaleBuild(s *ScaleRow, runs int) error {
	ctx, b, row, work, name := bb.ctx, bb.b, bb.row, bb.work, bb.name
	tree := filepath.Join(work, fmt.Sprintf("%s-x%d", name, s.Copies))
	if err := linkedTree(ctx, bb.src, tree, bb.slugs, bb.digest, s.Copies); err != nil {
		return err
	}
	if err := warmTree(ctx, tree, s.Logos); err != nil {
		return err
	}
	st := startStage(fmt.Sprintf("build %d: clean", s.Logos), runs)
	out := filepath.Join(work, fmt.Sprintf("out-%s-x%d", name, s.Copies))
	b.discard(out)
	full, dir, _, err := b.cleanBuilds(ctx, st, tree, out, runs, nil)
	if err != nil {
		if errors.Is(err, errMemory) {
			s.PeakRSSMB = mb(b.limit)
		}
		st.End("stopped")
		return err
	}
	dist, files, err := output(dir)
	if err != nil {
		return err
	}
	s.Files = files
	s.Seconds, s.Runs = secs(full), runSecs(full)
	s.PeakRSSMB = mb(maxRSS(full))
	s.TimeRatio = s.Seconds / row.Clean
	s.PerLogoRatio = s.TimeRatio * float64(row.Logos) / float64(s.Logos)
	s.CPU = cpuSecs(full)
	if row.CleanCPU > 0 {
		s.CPUPerLogoRatio = s.CPU / row.CleanCPU * float64(row.Logos) / float64(s.Logos)
	}
	s.RSSRatio = s.PeakRSSMB / row.PeakRSSMB
	st.End("%d files, median %.1fs (%.2fx the time per logo of %d logos; CPU %.2fx per logo), peak RSS %.0f MB (%.2fx)",
		s.Files, s.Seconds, s.PerLogoRatio, row.Logos, s.CPUPerLogoRatio, s.PeakRSSMB, s.RSSRatio)

	// One cp -r of the tree, beside the 1x copy: the file system's share
	// of what does not stay linear. The copy goes with out.
	if row.Copy == 0 || row.Files == 0 {
		return nil
	}
	st = startStage(fmt.Sprintf("build %d: cp -r", s.Logos), 1)
	writeBack()
	r, err := timed(ctx, st, "run 1 of 1", nil, 0, "cp", "-r", dist, filepath.Join(dir, "copy"))
	if err != nil {
		st.End("stopped")
		return err
	}
	s.Copy = r.Wall.Seconds()
	s.CopyPerFileRatio = s.Copy / row.Copy * float64(row.Files) / float64(s.Files)
	st.End("%.1fs: %.2fx the time per file of the 1x cp -r", s.Copy, s.CopyPerFileRatio)
	return nil
}

// check is the outcome of comparing two trees: "identical", or where they
// first differ.
func check(firstDifference string) string {
	if firstDifference == "" {
		return "identical"
	}
	return "differs at " + firstDifference
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

// output is the tree a build wrote into dir/dist (through a symbolic
// link, if dist is one) and its number of files.
func output(dir string) (dist string, files int, err error) {
	if dist, err = filepath.EvalSymlinks(filepath.Join(dir, "dist")); err != nil {
		return "", 0, err
	}
	files, err = countFiles(dist)
	return dist, files, err
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

// diffTrees returns the first path where two trees differ, or "". Either
// root may be a symbolic link to the tree (an output swapped by link).
func diffTrees(a, b string) (string, error) {
	read := func(root string) (map[string][32]byte, error) {
		root, err := filepath.EvalSymlinks(root)
		if err != nil {
			return nil, err
		}
		m := map[string][32]byte{}
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
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

// secs is the median wall time of rs, cpuSecs their median CPU time.
func secs(rs []run) float64    { return medianSecs(rs, func(r run) time.Duration { return r.Wall }) }
func cpuSecs(rs []run) float64 { return medianSecs(rs, func(r run) time.Duration { return r.CPU }) }

func medianSecs(rs []run, of func(run) time.Duration) float64 {
	ds := make([]time.Duration, len(rs))
	for i, r := range rs {
		ds[i] = of(r)
	}
	return median(ds).Seconds()
}

func runSecs(rs []run) []float64 {
	s := make([]float64, len(rs))
	for i, r := range rs {
		s[i] = r.Wall.Seconds()
	}
	return s
}

func maxRSS(rs []run) int64 {
	var m int64
	for _, r := range rs {
		m = max(m, r.MaxRSS)
	}
	return m
}

func mb(b int64) float64 { return float64(b) / (1 << 20) }

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}
