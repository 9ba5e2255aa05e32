package generator

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"logoindex/internal/par"
)

// TreeOptions configures BuildTree.
type TreeOptions struct {
	Options
	// CacheFile is where BuildTree keeps what the next build needs to
	// redo only what changed: each logo's inputs, summary and outputs, and
	// what each of the two output trees holds. Empty: build everything
	// into a new tree and remove the previous one after the swap.
	CacheFile string
	// FailOnWarnings fails the build, writing nothing, when there are
	// warnings (build -strict).
	FailOnWarnings bool
	// Memo, when set, carries the cache from one build to the next in
	// memory instead of through CacheFile (which Memo.Save writes).
	Memo *Memo
	// Changed, with a Memo that holds a build, names the logo folders
	// that may have changed since (from a file watcher); the others are
	// reused without a stat. Nil means any may have.
	Changed map[string]bool
	// FillStandby, with a cache, has a build that finds nothing to do
	// make the standby hold what the live tree holds (links to its
	// files), checked by stat and cleaned as if it were to be swapped in:
	// the next build then writes only what it changes. serve -watch runs
	// one after its first build, so that the first save does not wait
	// for 18,000 links. The live tree is never touched: a build that
	// finds a change stops before the swap and leaves the cache as it
	// was (TreeResult.UpToDate is false); the logos it computed may be
	// in the standby, which its record, checked by stat, follows.
	FillStandby bool
}

// DefaultCachePath is where build keeps its cache for the output folder
// dir: a hidden file beside it, so that it is never uploaded with it.
func DefaultCachePath(dir string) string {
	dir = filepath.Clean(dir)
	return filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+".cache")
}

// TreeResult is what BuildTree did.
type TreeResult struct {
	Logos, Files int
	// Warnings are the problems that did not fail the build.
	Warnings ProblemList
	// Computed counts the logos that were checked, optimised and rendered;
	// the others came from the cache.
	Computed int
	// Written and Linked count the files written into the new tree and
	// those linked into it from the tree it replaced.
	Written, Linked int
	// UpToDate is set when nothing changed: no file was touched.
	UpToDate bool
	// CacheError is why the cache file could not be written: the next
	// build will redo everything.
	CacheError error

	collectionReused bool // for tests: the collection was not rendered
	held             int  // for tests: logos the standby held by its record (standbyHolds)
}

// BuildTree builds the sources in src into the folder dir, streaming: each
// logo is read, checked, optimised and rendered by one of opts.Workers
// goroutines, its files go straight into the new tree, and only its
// summary stays in memory for the files of the whole collection (what it
// gives the cache, and the record of each file, wait in spill files beside
// dir until the end; a rebuild holds the cache it read). The new
// tree replaces dir as WriteTree does, in one atomic swap, so a reader (or
// a crash) sees the whole old tree or the whole new one.
//
// With a cache file, BuildTree keeps the tree it replaced beside dir, as
// the standby (.<dir>-standby), and remembers what each tree holds. The
// next build reads the stat of each logo's sources (size, mtime, inode, as
// git's index does), reuses what did not change, and brings the standby
// up to date with only the files that differ before swapping it in: a
// changed logo costs its own files and the collection's, not a copy of
// the tree. When nothing changed, and the live tree still holds what the
// cache says, nothing is touched at all.
//
// On any problem BuildTree returns the problems of every logo as a
// ProblemList error and leaves dir as it was. Its output is byte for byte
// what Build and WriteTree write.
func BuildTree(ctx context.Context, src fs.FS, dir string, opts TreeOptions) (*TreeResult, error) {
	started := time.Now()
	ro := opts.Render
	ro.logos = opts.Logos
	// The templates are parsed while the source folder is listed and the
	// cache file read, which is most of a no-op build's first 80 ms: after
	// the cache's read has started, which takes longest (with two cores,
	// the parse started first held up the read by 1 to 2 ms).
	type made struct {
		r   *renderer
		err error
	}
	out, err := openOutput(dir)
	if err != nil {
		return nil, err
	}
	defer out.unlock()

	b := &treeBuild{ctx: ctx, src: src, opts: opts, out: out}
	b.cached = (opts.CacheFile != "" || opts.Memo != nil) && opts.Render.Templates == nil
	// The cache file is read while the source folder is listed.
	var read chan *treeCache
	if b.cached {
		b.program = programID()
		if m := opts.Memo; m.current(out.dir, opts.CacheFile) {
			b.old, b.trusted = m.cache, true
		} else if opts.CacheFile != "" {
			b.cacheStamp = stampOf(opts.CacheFile)
			read = make(chan *treeCache, 1)
			go func() { read <- readTreeCache(opts.CacheFile, b.program, opts.Memo == nil) }()
		}
	}
	defer b.discard()
	rendered := make(chan made, 1)
	go func() {
		r, err := newRenderer(ro)
		rendered <- made{r, err}
	}()

	b.source = newSourceDir(src, opts.Options)
	if b.cached {
		b.source.stats = openStatRoot(src)
		defer b.source.stats.close()
	}
	cats, slugs, probs := b.source.scan(ctx)
	if read != nil {
		b.old = <-read
	}
	if err := b.openTrees(); err != nil {
		return nil, err
	}
	m := <-rendered
	if m.err != nil {
		return nil, m.err
	}
	r := m.r
	b.r = r
	b.cs = newCategorySet(cats)
	b.catNames = map[string]string{}
	for _, c := range b.cs.list {
		b.catNames[c.Slug] = c.Name
	}
	probs = append(probs, b.cs.probs...)
	// A logo's checks and page depend on the categories, the flags and
	// the program besides its own files: a change to any redoes all.
	var catData []byte
	if cats != nil {
		catData = cats.Data
	}
	// The ignore patterns are part of it too: restat trusts a folder
	// whose names did not change to hold the inputs it held.
	// opts.Dir is not: it only prefixes the paths of problems, which
	// rebase changes.
	b.settings = fmt.Sprintf("%q %q %q %t %q %x", r.base, r.installTmpl, opts.Logos, opts.ReportIgnored, b.source.ignore.Key(), hashOf(catData))
	if b.old != nil && (b.old.Program != b.program || b.old.Settings != b.settings) {
		b.old.Logos, b.old.Collection, b.old.CollectionFiles = nil, hash{}, nil
	}
	if b.old != nil && b.old.Dir != opts.Dir {
		b.old.rebase(opts.Dir)
	}
	// A build with no cache to go by computes every logo into an empty
	// tree: what each logo gives the cache, and each file's record, wait
	// on disk for the end, so that only the summaries stay in memory. A
	// memo keeps them in memory for the next build.
	if b.old == nil && opts.Memo == nil {
		if b.logoSpill, err = out.newSpill(); err != nil {
			return nil, err
		}
		defer b.logoSpill.close()
		if b.sumSpill, err = out.newSpill(); err != nil {
			return nil, err
		}
		defer b.sumSpill.close()
	}

	// A hint that names anything but a logo folder (categories.yaml,
	// .logoindexignore) is no hint: every folder is looked at.
	for name := range b.opts.Changed {
		if _, found := slices.BinarySearch(slugs, name); !found && CheckSlug(name) != "" {
			b.opts.Changed = nil
			break
		}
	}

	// Logos a selection leaves out give only their component names.
	var others []*LogoSource
	slugs = slices.DeleteFunc(slugs, func(slug string) bool {
		if b.source.selected(slug) {
			return false
		}
		others = append(others, b.source.meta(slug))
		return true
	})

	// Phase one: every logo, from the cache or computed; computed files
	// go into the standby at once.
	b.slugs, b.logos = packStrings(slugs), make([]builtLogo, len(slugs))
	par.For(ctx, len(b.logos), opts.Workers, func(i int) { b.logos[i] = b.logo(b.slugs.at(i)) })
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := b.failed(); err != nil {
		return nil, err
	}
	for _, l := range b.logos {
		probs = append(probs, l.probs()...)
	}
	sums, err := b.summaries()
	if err != nil {
		return nil, err
	}
	used, suffixes, _ := templateNames(opts.Render.Templates)
	dupes, err := checkAllComponents(sums, others, used, suffixes)
	if err != nil {
		return nil, err
	}
	probs = append(probs, dupes...)
	probs.Sort()
	if err := probs.Err(); err != nil {
		return nil, err
	}
	if opts.FailOnWarnings && len(probs) > 0 {
		return nil, probs
	}
	counts, err := b.cs.counts(sums)
	if err != nil {
		return nil, err
	}
	res := &TreeResult{Logos: sums.len(), Warnings: probs.Warnings()}

	digest, err := b.collectionDigest(counts, sums)
	if err != nil {
		return nil, err
	}
	if b.upToDate(digest) {
		res.Files = b.live.rec.fileCount()
		res.UpToDate = true
		if opts.FillStandby && b.cached {
			if err := b.fillStandby(digest); err != nil {
				return nil, err
			}
			// The build that read the sources started then: a source
			// written in its clock tick is still hashed next time.
			res.CacheError = b.saveCache(digest, time.Unix(0, b.old.Started))
		}
		return res, nil
	}
	if opts.FillStandby {
		// Something changed since: the build that change starts makes
		// the new tree, and reports it. This one stops here.
		return res, nil
	}

	// Phase two: the collection's files, each written as it is made, the
	// clash check over every output name (before the swap, so a clash
	// leaves dir as it was), then the logos that came from the cache.
	if b.standbyTree() == nil {
		return nil, b.failed()
	}
	// The logos from the cache go into the standby while the
	// collection's files are made: the one waits on stats and links, the
	// other on the CPU.
	hits := make(chan error, 1)
	go func() { hits <- b.placeCachedLogos() }()
	var coll []OutFile // names only
	if res.collectionReused = b.reuseCollection(digest); res.collectionReused {
		for _, f := range b.collection {
			coll = append(coll, OutFile{Name: f.Name})
		}
	} else {
		b.collection = nil
		var mu sync.Mutex
		err = r.collectionFiles(counts, sums, func(name string, write func(io.Writer) error) error {
			h, err := b.placeStream(name, write)
			mu.Lock()
			b.collection = append(b.collection, fileHash{name, h})
			mu.Unlock()
			return err
		})
		if err != nil {
			<-hits
			return nil, err
		}
		// In name order, whatever order they were made in: sameNames
		// compares the lists by position.
		slices.SortFunc(b.collection, func(a, b fileHash) int { return strings.Compare(a.Name, b.Name) })
		for _, f := range b.collection {
			coll = append(coll, OutFile{Name: f.Name})
		}
	}
	if err := <-hits; err != nil {
		return nil, err
	}
	if err := b.clashes(coll); err != nil {
		return nil, err
	}
	if err := b.prune(); err != nil {
		return nil, err
	}
	if err := b.swap(); err != nil {
		return nil, err
	}
	res.Files = b.live.rec.fileCount()
	if b.cached {
		if err := b.live.recordDirs(); err != nil {
			b.live.rec.spilled.close() // discard no longer finds it
			b.live.rec = nil
		}
		res.CacheError = b.saveCache(digest, started)
	}

	for _, l := range b.logos {
		if l.hasSummary() && !l.hit() {
			res.Computed++
		}
	}
	res.Written, res.Linked, res.held = int(b.written.Load()), int(b.linked.Load()), int(b.held.Load())
	return res, nil
}

// treeBuild is the state of one BuildTree.
type treeBuild struct {
	ctx      context.Context
	src      fs.FS
	source   *sourceDir
	opts     TreeOptions
	r        *renderer
	out      *output
	cs       *categorySet
	catNames map[string]string

	cached            bool       // a cache file or memo is read and written
	program, settings string     // what the cache's logos are valid for
	old               *treeCache // the cache as the last build left it; nil when none
	// trusted is set when old comes from a Memo: this process wrote the
	// trees it describes, so their files are not checked by stat.
	trusted bool
	// cacheStamp is the cache file as this build read it.
	cacheStamp fileStat
	// live is the tree at dir; standby the one being made, which becomes
	// live at the swap. Without a cache the standby is a new temporary
	// folder and the old tree is removed after the swap.
	live, standby *tree
	standbyOnce   sync.Once

	slugs      packedStrings // of the logos built, in order
	logos      []builtLogo   // each of slugs
	collection []fileHash
	// sumSpill, beside logoSpill, holds the logos' summaries
	// (summaryList).
	sumSpill *spill
	// logoSpill, in a build with no cache to go by, holds the cache
	// entries of the logos it computed, which keep only their summaries.
	logoSpill *spill

	written, linked, held atomic.Int64
	mu                    sync.Mutex
	errs                  []error // internal errors: writing, rendering
}

// packedStrings is a list of strings kept as one, so that the collector
// has nothing to trace in it. The slugs of a clean build of 104,100 logos
// as a []string were 104,100 pointers to follow in each of its 1,470
// collections: its user CPU was 88 s with them, 81 s without.
type packedStrings struct {
	all  string
	ends []int // where each string ends in all
}

func packStrings(list []string) packedStrings {
	var b strings.Builder
	ends := make([]int, len(list))
	for i, s := range list {
		b.WriteString(s)
		ends[i] = b.Len()
	}
	return packedStrings{b.String(), ends}
}

func (p packedStrings) at(i int) string {
	start := 0
	if i > 0 {
		start = p.ends[i-1]
	}
	return p.all[start:p.ends[i]]
}

// builtLogo is one logo of a build, kept until its end. A clean build
// keeps 24 bytes for a logo that passed with no warning: its summary and
// its cache entry are in the spills. It was 88, with the slug, and of
// the 13 MB held at the peak of a clean build of 104,100 logos, 9 were
// these.
type builtLogo struct {
	sumAt spillRef   // where the summary is in the build's sumSpill; n is 0 when it is not
	more  *logoState // nil when nothing else is kept
}

// logoState is what a logo keeps in memory besides where its summary is.
type logoState struct {
	hit   bool         // from the cache; its files are not in the standby yet
	sum   *logoSummary // nil when it failed, or when in the build's sumSpill
	probs ProblemList
	// in is what else the cache keeps of the logo: nil when it failed,
	// or once its entry went to the build's logoSpill.
	in *logoInputs
	// replaced: the live tree lacked one of the files of a logo from
	// the cache, which was computed again into the standby.
	replaced bool
}

func (l builtLogo) hit() bool { return l.more != nil && l.more.hit }

// sum is the logo's summary when it is in memory.
func (l builtLogo) sum() *logoSummary {
	if l.more == nil {
		return nil
	}
	return l.more.sum
}

func (l builtLogo) probs() ProblemList {
	if l.more == nil {
		return nil
	}
	return l.more.probs
}

// files are the logo's output files, unless they went to the spill.
func (l builtLogo) files() []fileHash {
	if l.more == nil || l.more.in == nil {
		return nil
	}
	return l.more.in.files
}

// logoInputs is what the cache keeps of a logo but its summary and
// warnings.
type logoInputs struct {
	folder inputStat // the stat of its folder, before inputs
	inputs []inputStat
	files  []fileHash
	entry  string // cachedLogo.encoded, when this is the entry it was read from
}

// hasSummary reports whether the logo passed its checks: its summary is
// in memory or spilled.
func (l builtLogo) hasSummary() bool { return l.sumAt.n > 0 || l.sum() != nil }

// summaries is the list of the summaries of the build's logos, in slug
// order.
func (b *treeBuild) summaries() (*summaryList, error) {
	n := 0
	for _, l := range b.logos {
		if l.hasSummary() {
			n++
		}
	}
	if b.sumSpill == nil {
		sums := make([]*logoSummary, 0, n)
		for _, l := range b.logos {
			if sum := l.sum(); sum != nil {
				sums = append(sums, sum)
			}
		}
		return memSummaries(sums), nil
	}
	if err := b.sumSpill.flush(); err != nil {
		return nil, err
	}
	return &summaryList{logos: b.logos, file: b.sumSpill, n: n}, nil
}

// keep is what the build keeps of a logo: its summary goes to the
// build's sumSpill, when it has one, and its state only when something
// else is left in it.
func (b *treeBuild) keep(m *logoState) builtLogo {
	var l builtLogo
	if b.sumSpill != nil && m.sum != nil {
		ref, err := b.sumSpill.addWith(func(e *encoder) { e.summary(m.sum) })
		if err != nil {
			b.fail(err)
		} else {
			l.sumAt, m.sum = ref, nil
		}
	}
	if m.hit || m.sum != nil || len(m.probs) > 0 || m.in != nil {
		l.more = m
	}
	return l
}

func (b *treeBuild) fail(err error) {
	b.mu.Lock()
	b.errs = append(b.errs, err)
	b.mu.Unlock()
}

func (b *treeBuild) failed() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return errors.Join(b.errs...)
}

// logo builds one logo: from the cache when its sources did not change,
// else by checking, optimising and rendering it into the standby.
func (b *treeBuild) logo(slug string) builtLogo {
	if !b.cached {
		return b.compute(slug, inputStat{}, nil, nil) // no cache to fill
	}
	if b.old == nil {
		folder, inputs, entries := b.source.statInputs(slug, false)
		return b.compute(slug, folder, inputs, entries)
	}
	c := b.old.Logos[slug]
	hit := func(folder inputStat, inputs []inputStat) builtLogo {
		in := &logoInputs{folder: folder, inputs: inputs, files: c.Files}
		if folder == c.Folder && slices.Equal(inputs, c.Inputs) {
			in.entry = c.encoded
		}
		return builtLogo{more: &logoState{hit: true, sum: c.Summary, probs: c.Warnings, in: in}}
	}
	if c != nil && b.trusted && b.opts.Changed != nil && !b.opts.Changed[slug] {
		// The watcher saw nothing change in this folder.
		return hit(c.Folder, c.Inputs)
	}
	var folder inputStat
	var inputs []inputStat
	var entries []fs.DirEntry
	if c != nil {
		folder, inputs = b.restat(slug, c)
	}
	if inputs == nil {
		folder, inputs, entries = b.source.statInputs(slug, true)
	}
	if inputs != nil && c != nil {
		if in, ok := b.sameInputs(slug, c.Inputs, inputs); ok {
			return hit(folder, in)
		}
	}
	return b.compute(slug, folder, inputs, entries)
}

// compute checks, optimises and renders a logo and writes its files into
// the standby.
func (b *treeBuild) compute(slug string, folder inputStat, inputs []inputStat, entries []fs.DirEntry) builtLogo {
	return b.keep(b.computeState(slug, folder, inputs, entries))
}

// computeState is compute, with what it knows of the logo all in memory.
func (b *treeBuild) computeState(slug string, folder inputStat, inputs []inputStat, entries []fs.DirEntry) *logoState {
	l := &logoState{}
	ls := b.source.logoListed(slug, entries, &l.probs)
	logo, p := checkLogo(ls, b.cs)
	l.probs = append(l.probs, p...)
	if logo == nil {
		return l
	}
	files, err := b.r.logoFiles(logo, b.catNames)
	if err != nil {
		b.fail(err)
		return l
	}
	// The summary goes to the spill in keep, after the cache's entry
	// below is made of it.
	l.sum = summarize(logo)
	in := &logoInputs{folder: folder, files: make([]fileHash, 0, len(files))} // no slack
	// A tree the build made empty lacks the logo's folder: made first, it
	// saves each logo a create that fails for want of it.
	if s := b.standbyTree(); s != nil && s.empty {
		if err := s.mkdirs(logoDir(slug)); err != nil {
			b.fail(err)
			return l
		}
	}
	for _, f := range files {
		h := hashOf(f.Data)
		in.files = append(in.files, fileHash{f.Name, h})
		b.place(f.Name, h, f.Data)
	}
	l.in = in
	// The stat of each input was taken before it was read (by name, or
	// on the open file), so an edit made meanwhile shows as a changed
	// stat next time.
	read := map[string]*SourceFile{}
	if ls.Meta != nil {
		read["logo.yaml"] = ls.Meta
	}
	for v, f := range ls.Variants {
		read[v+".svg"] = f
	}
	for i := range inputs {
		f, ok := read[inputs[i].Name]
		if !ok {
			return l // not all read: not cached, nor spilled
		}
		if inputs[i].Ino == 0 { // listed only (statInputs)
			if f.stat.ino == 0 || !f.stat.mode.IsRegular() {
				return l
			}
			inputs[i] = f.stat.input(inputs[i].Name)
		}
		inputs[i].Hash = hashOf(f.Data)
	}
	if len(inputs) == len(read) {
		in.inputs = inputs
	}
	if b.logoSpill != nil && (in.inputs != nil || !b.cached) {
		if _, err := b.logoSpill.addWith(func(e *encoder) { e.logo(slug, l.cached()) }); err != nil {
			b.fail(err)
			return l
		}
		l.in = nil
	}
	return l
}

// cached is the logo's entry of the cache; l.in is set.
func (l *logoState) cached() *cachedLogo {
	return &cachedLogo{Folder: l.in.folder, Inputs: l.in.inputs, Summary: l.sum, Warnings: l.probs, Files: l.in.files, encoded: l.in.entry}
}

// fillStandby makes the standby hold the live tree's files, the last
// build's, as the phase two of a build that changed nothing would.
func (b *treeBuild) fillStandby(digest hash) error {
	if b.standbyTree() == nil {
		return b.failed()
	}
	if !b.reuseCollection(digest) {
		return errors.New("the collection's files changed during the build; build again")
	}
	if err := b.placeHits(); err != nil {
		return err
	}
	return b.standby.recordDirs()
}

// placeHits puts the files of the logos that came from the cache into
// the standby, and removes from it the files this build does not make.
func (b *treeBuild) placeHits() error {
	if err := b.placeCachedLogos(); err != nil {
		return err
	}
	return b.prune()
}

// placeCachedLogos puts the files of the logos that came from the cache
// into the standby.
func (b *treeBuild) placeCachedLogos() error {
	held := b.standbyHolds()
	par.For(b.ctx, len(b.logos), b.opts.Workers, func(i int) {
		if l := b.logos[i]; l.hit() && !held(b.slugs.at(i), l) {
			b.placeCached(b.slugs.at(i), l)
		}
	})
	if err := b.ctx.Err(); err != nil {
		return err
	}
	return b.failed()
}

// standbyHolds returns a function that tells whether the standby holds
// the files of a logo from the cache by its record's holdsLogos: the logo
// is not one it lacks and the record stands for each of its files'
// folders (recordStands), which is what holds would find of each file,
// without looking each up in the record (13 of a one-change build's
// 80 ms, by pairs of runs).
func (b *treeBuild) standbyHolds() func(slug string, l builtLogo) bool {
	s := b.standby
	if !s.holdsLogos || !s.trusted && !s.dirsChecked {
		return func(string, builtLogo) bool { return false }
	}
	return func(slug string, l builtLogo) bool {
		if _, lacks := slices.BinarySearch(s.lacks, slug); lacks {
			return false
		}
		last := "" // a logo's files share a few folders, in runs
		for _, f := range l.files() {
			d := path.Dir(f.Name)
			if d == last {
				continue
			}
			if !s.recordStands(d) {
				return false
			}
			last = d
		}
		b.held.Add(1)
		return true
	}
}

// standbyLacks gives, for the tree that is the standby after this build,
// what its record's holdsLogos and lacks are to be: the logos of c it
// does not hold as c lists them are those the build did not take from
// the cache, and those it computed again (placeCached), whether the
// standby is the tree the swap replaced, which holds the last build's
// files, or the tree FillStandby filled. Past an eighth of the logos
// (every logo, when the program changed) the list is not kept, nor for a
// build with no cache to go by, whose logos wait in its spill.
func (b *treeBuild) standbyLacks(c *treeCache) (bool, []string) {
	if c.spilled != nil {
		return false, nil
	}
	var lacks []string
	for i, l := range b.logos {
		slug := b.slugs.at(i)
		if (!l.hit() || l.more.replaced) && c.Logos[slug] != nil {
			lacks = append(lacks, slug)
			if len(lacks) > 16+len(b.logos)/8 {
				return false, nil
			}
		}
	}
	return true, lacks // in order, as b.slugs are
}

// reuseCollection puts the last build's collection files into the
// standby, from the standby or the live tree, when what they are made of
// did not change: an edit to a logo's artwork leaves its summary as it
// was, and re-rendering the collection's JSON and pages (120 ms for 3,470
// logos) would give the same bytes. It reports false when one of them
// is in neither tree; the collection is then rendered.
func (b *treeBuild) reuseCollection(digest hash) bool {
	if b.old == nil || digest != b.old.Collection || len(b.old.CollectionFiles) == 0 {
		return false
	}
	for _, f := range b.old.CollectionFiles {
		if !b.place(f.Name, f.Hash, nil) {
			return false
		}
	}
	b.collection = b.old.CollectionFiles
	return true
}

// placeCached puts the files of a logo from the cache into the standby,
// computing the logo again when neither tree holds one of them.
func (b *treeBuild) placeCached(slug string, l builtLogo) {
	for _, f := range l.files() {
		if !b.place(f.Name, f.Hash, nil) {
			l.more.replaced = true
			folder, inputs, entries := b.source.statInputs(slug, true)
			c := b.compute(slug, folder, inputs, entries)
			if !c.hasSummary() {
				b.fail(fmt.Errorf("logo %s changed during the build; build again", slug))
			}
			return
		}
	}
}

// place makes the standby hold data (whose hash is h) at name: it keeps
// the file there if it already holds it, links the live tree's copy if
// that one does, or writes data. With no data and no copy it reports
// false.
func (b *treeBuild) place(name string, h hash, data []byte) bool {
	s := b.standbyTree()
	if s == nil || s.holds(name, h) {
		return true
	}
	dst := filepath.Join(s.dir, filepath.FromSlash(name))
	if data == nil && (b.live == nil || !b.live.holds(name, h)) {
		return false
	}
	// Never write into the file at dst: it may be a link to the live
	// tree's copy. Unlink it and make a new one. A name the record lacks
	// is not there (a new tree is empty, and clean removed what the record
	// does not name), which saves an unlink a file in a clean build; the
	// exclusive create below makes sure.
	s.mu.Lock()
	_, there := s.rec.Files[name]
	s.mu.Unlock()
	if there {
		if err := os.Remove(dst); err != nil && !errors.Is(err, fs.ErrNotExist) {
			b.fail(err)
			return true
		}
		s.mu.Lock()
		s.rec.deleteFile(name) // gone, until the new file is recorded
		s.mu.Unlock()
	}
	var st *fileStat // of the new file, when writeNew gives it
	create := func() (err error) {
		if data == nil {
			return os.Link(filepath.Join(b.live.dir, filepath.FromSlash(name)), dst)
		}
		at, rel := s.at(name)
		st, err = writeNew(at, rel, dst, data)
		return err
	}
	err := create()
	if errors.Is(err, fs.ErrNotExist) { // its folder, made on demand
		if err = s.mkdirs(path.Dir(name)); err == nil {
			err = create()
		}
	}
	if errors.Is(err, fs.ErrExist) {
		if err = os.Remove(dst); err == nil {
			err = create()
		}
	}
	if data == nil {
		b.linked.Add(1)
	} else {
		b.written.Add(1)
	}
	if err == nil {
		err = s.record(name, h, st)
	}
	if err != nil {
		b.fail(err)
	}
	return true
}

// placeStream makes the standby hold the file name as write writes it:
// into a new file beside it, hashed as it is written, which then replaces
// the standby's copy unless that holds the same bytes. The collection's
// files are made this way, never whole in memory. It returns the hash.
func (b *treeBuild) placeStream(name string, write func(io.Writer) error) (hash, error) {
	s := b.standbyTree()
	if s == nil {
		return hash{}, b.failed()
	}
	dst := filepath.Join(s.dir, filepath.FromSlash(name))
	f, err := createNew(filepath.Dir(dst))
	if errors.Is(err, fs.ErrNotExist) { // its folder, made on demand
		if err = s.mkdirs(path.Dir(name)); err == nil {
			f, err = createNew(filepath.Dir(dst))
		}
	}
	if err != nil {
		return hash{}, err
	}
	sum := newHasher()
	bw := bufio.NewWriterSize(io.MultiWriter(f, sum), 64<<10)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	var info fs.FileInfo
	if err == nil {
		info, err = f.Stat()
	}
	if err = errors.Join(err, f.Close()); err != nil {
		os.Remove(f.Name())
		return hash{}, err
	}
	h := sum.sum()
	s.mu.Lock()
	s.touch(path.Dir(name)) // by the new file, at least
	s.mu.Unlock()
	if s.holds(name, h) {
		return h, os.Remove(f.Name())
	}
	s.mu.Lock()
	s.rec.deleteFile(name) // replaced, until the new file is recorded
	s.mu.Unlock()
	if err := os.Rename(f.Name(), dst); err != nil {
		os.Remove(f.Name())
		return h, err
	}
	b.written.Add(1)
	st := statOfInfo(info)
	return h, s.record(name, h, &st)
}

// createNew creates a file of a new name in dir, with the mode writeNew
// gives (0644 less the umask: os.CreateTemp's 0600 and a chmod would
// ignore the umask).
func createNew(dir string) (*os.File, error) {
	for {
		name := filepath.Join(dir, ".new-"+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
}

// clashes checks every output name of the build, from the logos and the
// collection, for two outputs on one path.
func (b *treeBuild) clashes(coll []OutFile) error {
	if b.sameNames(coll) {
		return nil // as the last build's, which passed
	}
	// Every name, a logo's (from memory or the spill) with its slug, then
	// the collection's. A spilled name is valid only during the call.
	each := func(fn func(name, logo string)) error {
		for i, l := range b.logos {
			if l.hasSummary() {
				for _, f := range l.files() {
					fn(f.Name, b.slugs.at(i))
				}
			}
		}
		err := b.logoSpill.each(func(entry string) error {
			d := &decoder{s: entry}
			d.logoFiles(func(slug, name string) { fn(name, slug) })
			return d.err
		})
		for _, f := range coll {
			fn(f.Name, "")
		}
		return err
	}
	// Most builds have no clash: a pass over hashes of the names shows
	// it without a list of them all (554,413 at 104,100 logos).
	n := len(coll)
	if s := b.standbyTree(); s != nil && s.rec != nil {
		n += s.rec.fileCount() // about the logos' files
	}
	if suspect, err := mayClash(n, func(fn func(string)) error {
		return each(func(name, _ string) { fn(name) })
	}); err != nil || !suspect {
		return err
	}
	var files []OutFile
	order := map[string]int{"": len(b.logos)} // the collection's last
	for i, l := range b.logos {
		if l.hasSummary() {
			order[b.slugs.at(i)] = i
		}
	}
	dirs := map[string]string{}
	sums, err := b.summaries()
	if err == nil {
		err = sums.each(func(s *logoSummary) error {
			dirs[strings.Clone(s.Slug)] = strings.Clone(path.Dir(s.MetaPath))
			return nil
		})
	}
	if err != nil {
		return err
	}
	err = each(func(name, logo string) {
		files = append(files, OutFile{Name: strings.Clone(name), Logo: strings.Clone(logo)})
	})
	if err != nil {
		return err
	}
	// In slug order, as the logos are, whatever order the spill has.
	slices.SortStableFunc(files, func(x, y OutFile) int { return order[x.Logo] - order[y.Logo] })
	return clashErrors(files, dirs)
}

// mayClash reports whether two of the names each gives may be one, or
// one a folder of another, by 64-bit hashes of the names and their
// folders: false is certain; true, which a clash gives and two hashes
// that collide by chance could, asks for the exact check. n is about
// how many names each gives.
func mayClash(n int, each func(fn func(name string)) error) (bool, error) {
	// Sorted lists of the hashes, not sets, and a share of them in each
	// pass (hashPasses): maps took 10 MB for the 554,413 names of
	// 104,100 logos, the most the end of that build held, and one list
	// 4.4 MB. A folder is listed once with its parents, and not again
	// while it is among the last few listed: the names of a logo share
	// theirs, and most logos the shared ones (logos, api/logos).
	seed := maphash.MakeSeed()
	return hashPasses(n, func(mine func(uint64) bool, size int) (bool, error) {
		names := make([]uint64, 0, size) // no list grown by doubling
		var folders []uint64
		var recent [8]uint64
		k := 0
		listed := func(h uint64) bool { return slices.Contains(recent[:min(k, len(recent))], h) }
		err := each(func(name string) {
			if h := maphash.String(seed, name); mine(h) {
				names = append(names, h)
			}
			for d := path.Dir(name); d != "."; d = path.Dir(d) {
				h := maphash.String(seed, d)
				if listed(h) {
					break // and so are its parents
				}
				if mine(h) {
					folders = append(folders, h)
				}
				recent[k%len(recent)] = h
				k++
			}
		})
		slices.Sort(names)
		slices.Sort(folders)
		// A name twice, or a name that is a folder.
		for i, j := 0, 0; i < len(names); i++ {
			if i > 0 && names[i] == names[i-1] {
				return true, err
			}
			for j < len(folders) && folders[j] < names[i] {
				j++
			}
			if j < len(folders) && folders[j] == names[i] {
				return true, err
			}
		}
		return false, err
	})
}

// passHashes is the most hashes a pass of hashPasses keeps: 1 MB.
const passHashes = 1 << 17

// hashPasses runs pass once for each share of n hashes (about), until one
// reports true or an error: mine tells the hashes of its share, and size
// is about how many they are. Two equal hashes are in one share. A check
// for two equal hashes among n then keeps at most about passHashes of
// them at once, at the cost of a pass more over its input for each
// (which is in the page cache).
func hashPasses(n int, pass func(mine func(h uint64) bool, size int) (bool, error)) (bool, error) {
	p := uint64(max(1, (n+passHashes-1)/passHashes))
	for i := range p {
		found, err := pass(func(h uint64) bool { return h%p == i }, n/int(p)+1)
		if found || err != nil {
			return found, err
		}
	}
	return false, nil
}

// sameNames reports whether the build's output names are the last
// build's: the same logos, each with the same files, and the same
// collection files.
func (b *treeBuild) sameNames(coll []OutFile) bool {
	if b.old == nil || len(b.old.CollectionFiles) != len(coll) {
		return false
	}
	for i, f := range coll {
		if b.old.CollectionFiles[i].Name != f.Name {
			return false
		}
	}
	n := 0
	for i, l := range b.logos {
		if !l.hasSummary() {
			continue
		}
		n++
		c := b.old.Logos[b.slugs.at(i)]
		if c == nil || len(c.Files) != len(l.files()) {
			return false
		}
		for i, f := range l.files() {
			if c.Files[i].Name != f.Name {
				return false
			}
		}
	}
	return n == len(b.old.Logos)
}

// collectionDigest is a hash of everything the collection's files are made
// of, so that a build where no logo changed need not render them to know
// they did not change.
func (b *treeBuild) collectionDigest(counts []CategoryCount, sums *summaryList) (hash, error) {
	if b.allHits() {
		// The summaries are the cached ones, of the same logos, and the
		// categories are in the settings: the digest is the cached one.
		return b.old.Collection, nil
	}
	var err error
	h := digestOf(func(e *encoder) {
		e.uint(uint64(len(counts)))
		for _, c := range counts {
			e.str(c.Slug)
			e.str(c.Name)
			e.int(int64(c.Pos.Line))
			e.int(int64(c.Pos.Col))
			e.int(int64(c.Count))
		}
		e.uint(uint64(sums.len()))
		err = sums.each(func(s *logoSummary) error {
			e.summary(s)
			return nil
		})
	})
	return h, err
}

// allHits reports whether every logo of the last build, and no other,
// came from the cache.
func (b *treeBuild) allHits() bool {
	if b.old == nil || len(b.logos) != len(b.old.Logos) {
		return false
	}
	for _, l := range b.logos {
		if !l.hit() {
			return false
		}
	}
	return true
}

// upToDate reports whether the live tree is what this build would write:
// every logo and the collection came from the cache, the live tree's
// record names as many files and has the same sum of names and hashes
// (filesSum) as they do, and the tree is as recorded. The stat of its
// folders stands for its files' (tree.holds), but in another boot.
func (b *treeBuild) upToDate(digest hash) bool {
	if b.old == nil || b.live == nil || b.live.rec == nil || digest != b.old.Collection {
		return false
	}
	n, sum := len(b.old.CollectionFiles), filesSum(b.old.CollectionFiles)
	for _, l := range b.logos {
		if !l.hit() {
			return false
		}
		n += len(l.files())
		sum += filesSum(l.files())
	}
	if n != b.live.rec.fileCount() || sum != b.live.rec.filesSum() {
		return false
	}
	if b.trusted {
		return true
	}
	if len(b.live.checkDirs()) > 0 {
		return false
	}
	if b.live.dirsChecked {
		return true
	}
	// A stat a file, on every CPU.
	for _, f := range b.old.CollectionFiles {
		if !b.live.holds(f.Name, f.Hash) {
			return false
		}
	}
	var changed atomic.Bool
	ctx, cancel := context.WithCancel(b.ctx)
	defer cancel()
	par.For(ctx, len(b.logos), b.opts.Workers, func(i int) {
		for _, f := range b.logos[i].files() {
			if !b.live.holds(f.Name, f.Hash) {
				changed.Store(true)
				cancel()
				return
			}
		}
	})
	return !changed.Load() && ctx.Err() == nil
}

// prune removes from the standby the files of the last build this one does
// not make (a removed logo or variant) and the folders they leave empty.
// A standby this build made empty holds only what it placed: nothing to
// remove, and no map of every output name to make (554,413 of them at
// 104,100 logos).
func (b *treeBuild) prune() error {
	if b.standby.empty {
		return nil
	}
	// Every file this build makes is in the record by now, each under a
	// name of its own (the clash check passed): a record that holds no
	// more holds nothing to remove, and most rebuilds end here.
	n := len(b.collection)
	for _, l := range b.logos {
		n += len(l.files())
	}
	if len(b.standby.rec.Files) == n {
		return nil
	}
	want := map[string]bool{}
	for _, l := range b.logos {
		for _, f := range l.files() {
			want[f.Name] = true
		}
	}
	for _, f := range b.collection {
		want[f.Name] = true
	}
	s := b.standby
	var dirs []string
	for name := range s.rec.Files {
		if want[name] {
			continue
		}
		if err := os.Remove(filepath.Join(s.dir, filepath.FromSlash(name))); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		s.rec.deleteFile(name)
		dirs = append(dirs, path.Dir(name))
		s.touch(path.Dir(name))
	}
	// Longest first, so a folder goes before its parent.
	slices.SortFunc(dirs, func(a, b string) int { return len(b) - len(a) })
	for _, d := range dirs {
		for ; d != "."; d = path.Dir(d) {
			if os.Remove(filepath.Join(s.dir, filepath.FromSlash(d))) != nil {
				break // not empty, or gone already
			}
			s.rec.deleteDir(d)
			delete(s.touched, d)
			s.touch(path.Dir(d))
		}
	}
	return nil
}

// swap makes the standby the live tree. Without a cache the old tree is
// removed; with one it stays as the next build's standby.
func (b *treeBuild) swap() error {
	s := b.standby
	old, err := b.out.exchange(s.dir)
	if err != nil {
		return err
	}
	s.dir = b.out.dir
	switch {
	case old == "": // there was no live tree
		b.live, b.standby = s, nil
	case !b.cached:
		if b.live != nil {
			b.live.closeStats()
		}
		b.live, b.standby = s, nil
		return os.RemoveAll(old)
	default:
		standby := standbyDir(b.out)
		if old != standby { // the fallback's -old- folder
			if err := os.Rename(old, standby); err != nil {
				return err
			}
		}
		b.live.dir = standby
		b.live, b.standby = s, b.live
	}
	return nil
}

// discard removes the temporary tree of a build without a cache that
// did not reach the swap. A standby stays: the next build finds what
// this one wrote there by the stat of each file.
func (b *treeBuild) discard() {
	for _, t := range []*tree{b.live, b.standby} {
		if t != nil {
			t.closeStats()
			if t.rec != nil {
				t.rec.spilled.close()
			}
		}
	}
	if !b.cached && b.standby != nil {
		os.RemoveAll(b.standby.dir)
	}
}

func standbyDir(out *output) string {
	return filepath.Join(out.parent, "."+out.base+"-standby")
}

// openTrees finds the live tree.
func (b *treeBuild) openTrees() error {
	var err error
	if b.live, err = openTree(b.out.dir, b.old, false); err != nil {
		return err
	}
	if b.live != nil {
		b.live.trusted = b.trusted
	}
	return nil
}

// standbyTree returns the standby, made ready on first use: a no-op build
// never opens it. It returns nil, and the build fails, when it cannot be.
func (b *treeBuild) standbyTree() *tree {
	b.standbyOnce.Do(func() {
		if err := b.openStandby(); err != nil {
			b.fail(err)
			b.standby = nil
		}
	})
	return b.standby
}

// openStandby makes the standby ready: without a cache a new temporary
// folder; with one, the standby the cache knows, cleaned of what it does
// not name, or else a new empty folder.
func (b *treeBuild) openStandby() error {
	if !b.cached {
		dir, err := b.out.tempTree()
		if err != nil {
			return err
		}
		if err := b.emptyStandby(dir); err != nil {
			os.RemoveAll(dir) // discard removes only a standby it has
			return err
		}
		return nil
	}
	dir := standbyDir(b.out)
	var err error
	if b.standby, err = openTree(dir, b.old, true); err != nil {
		return err
	}
	// A record that does not decode is damaged: the standby is made anew.
	if s := b.standby; s != nil && s.rec != nil && s.rec.decode() == nil {
		// A memo's standby may be one this process never opened, only
		// read of: FillStandby checks it.
		s.trusted = b.trusted && !b.opts.FillStandby
		if s.trusted || s.clean() == nil {
			// The record's claim ends as the build writes into the
			// tree: one that fails leaves the record, with the files it
			// wrote, to a memo.
			s.holdsLogos, s.lacks = s.rec.holdsLogos, s.rec.lacks
			s.rec.holdsLogos, s.rec.lacks = false, nil
			return nil
		}
	}
	if b.standby != nil {
		b.standby.closeStats()
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return err
	}
	return b.emptyStandby(dir)
}

// emptyStandby makes the empty folder dir the standby; in a build that
// spills, its record goes to a spill file.
func (b *treeBuild) emptyStandby(dir string) error {
	t := emptyTree(dir)
	if b.logoSpill != nil {
		var err error
		if t.rec.spilled, err = b.out.newSpill(); err != nil {
			return err
		}
	}
	b.standby = t
	return nil
}

// saveCache writes what the next build needs. A cache that cannot be
// written costs the next build time, not correctness: the error is
// returned for a warning.
func (b *treeBuild) saveCache(digest hash, started time.Time) error {
	if !b.cached {
		return nil
	}
	c := &treeCache{
		Program: b.program, Settings: b.settings, Dir: b.opts.Dir, Started: started.UnixNano(), Boot: bootID(),
		Logos: map[string]*cachedLogo{}, Collection: digest, CollectionFiles: b.collection,
		spilled: b.logoSpill,
	}
	for i, l := range b.logos {
		if m := l.more; m != nil && m.sum != nil && m.in != nil && m.in.inputs != nil {
			c.Logos[b.slugs.at(i)] = m.cached()
			c.order = append(c.order, b.slugs.at(i))
		}
	}
	for _, t := range []*tree{b.live, b.standby} {
		if t != nil && t.rec != nil {
			t.rec.holdsLogos, t.rec.lacks = false, nil
			c.Trees = append(c.Trees, t.rec)
		}
	}
	if s := b.standby; s != nil && s.rec != nil {
		s.rec.holdsLogos, s.rec.lacks = b.standbyLacks(c)
	}
	if m := b.opts.Memo; m != nil {
		if !b.trusted {
			m.stamp = b.cacheStamp // the file this build started from
		}
		m.cache, m.out, m.file = c, b.out.dir, b.opts.CacheFile
		return nil
	}
	return writeTreeCache(b.opts.CacheFile, c)
}

// Memo keeps what a build knows in memory for the next build of the same
// output in the same process (serve -watch): the cache is not read from
// its file, and the trees this process wrote are trusted without a stat
// of each file. A Memo is not safe for concurrent builds.
type Memo struct {
	cache     *treeCache
	out, file string
	// stamp is the cache file as this memo last read or wrote it: another
	// process that builds the same output replaces it, and the memo is
	// no longer trusted.
	stamp fileStat
}

// Save writes the memo's cache to the cache file, for the next process.
func (m *Memo) Save() error {
	if m.cache == nil || m.file == "" {
		return nil
	}
	if err := writeTreeCache(m.file, m.cache); err != nil {
		m.cache = nil // the file may be either; read it next time
		return err
	}
	m.stamp = stampOf(m.file)
	return nil
}

// current reports whether the memo describes the trees of out: it holds
// a build of out, and no other process has built out since.
func (m *Memo) current(out, file string) bool {
	return m != nil && m.cache != nil && m.out == out && m.file == file && stampOf(file) == m.stamp
}

// stampOf is the stat of the file name; the zero value is no file.
func stampOf(name string) fileStat {
	info, err := os.Lstat(name)
	if err != nil {
		return fileStat{}
	}
	st := statOfInfo(info)
	st.mtime |= 1 // never zero, where the system gives no inode either
	return st
}
