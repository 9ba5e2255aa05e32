package generator

import (
	"io"
	"slices"

	"logoindex/generator/buildcache"
	"logoindex/generator/internal/digest"
	"logoindex/generator/internal/spill"
	"logoindex/generator/outtree"
	"logoindex/generator/source"
)

// output is where a build puts its files: the standby of an output tree
// (outtree.Writer), or nowhere (discard).
type output interface {
	// Put makes the output hold data, whose digest is sum, at name.
	Put(name string, sum digest.Sum, data []byte) error
	// PutStream makes it hold name as write writes it, and gives its digest.
	PutStream(name string, write func(io.Writer) error) (digest.Sum, error)
	// Copy makes it hold at name the file it holds at from, of digest sum.
	Copy(from, name string, sum digest.Sum) error
	// Has makes it hold name with digest sum if either tree does, and
	// reports whether it does.
	Has(name string, sum digest.Sum) bool
	// Lost names the files the live tree no longer holds.
	Lost() []string
	// Strays names what the live tree holds that no build wrote.
	Strays() []string
	// Finish removes every file but the n that names gives.
	Finish(n int, names func(yield func(string) bool)) error
	// Commit swaps the new tree in; Abort leaves the live tree as it was.
	Commit() error
	Abort() error
}

// discard is the output of check: it writes nothing.
type discard struct{}

func (discard) Put(string, digest.Sum, []byte) error { return nil }
func (discard) PutStream(_ string, write func(io.Writer) error) (digest.Sum, error) {
	h := digest.New()
	err := write(h)
	return h.Sum(), err
}
func (discard) Copy(string, string, digest.Sum) error           { return nil }
func (discard) Has(string, digest.Sum) bool                     { return false }
func (discard) Lost() []string                                  { return nil }
func (discard) Strays() []string                                { return nil }
func (discard) Finish(int, func(yield func(string) bool)) error { return nil }
func (discard) Commit() error                                   { return nil }
func (discard) Abort() error                                    { return nil }

// fastPath reports whether the live tree was, by its record, what the
// last build left: then the standby, brought up to date with it, holds
// every file of the last build but those Lost, and each logo taken from
// the build log needs no look-up of its files.
func (b *build) fastPath() bool {
	return b.liveOK && b.prev.treeN > 0 && b.liveN == b.prev.treeN && b.liveSum == b.prev.treeSum
}

// upToDate reports whether the live tree already holds this build: every
// logo came from the build log, the collection's files are made of the
// same summaries, and the tree holds the files of both, by its record
// and the stat of its folders.
func (b *build) upToDate() bool {
	if b.tree == nil || b.computed.Load() > 0 || b.opts.Rebuild || !b.fastPath() {
		return false
	}
	d, err := b.collectionDigest()
	if err != nil || d != b.prev.digest {
		return false
	}
	n, sum, err := b.treeCount(b.prev.files)
	if err != nil || !b.tree.Current(n, sum) {
		return false
	}
	b.coll = b.prev
	b.upToDateResult = true
	return true
}

// treeCount returns the number of files of a tree holding the
// collection's files and those of every good logo, and the sum of their
// names and digests (digest.NameSum), from the logos' records.
func (b *build) treeCount(collection []fileDigest) (n int, sum uint64, err error) {
	n, sum = len(collection), filesNameSum(collection)
	r := spill.NewReader(b.records)
	for _, l := range b.logos {
		if !l.ok() {
			continue
		}
		s, err := b.encodedRecord(l, r)
		if err != nil {
			return 0, 0, err
		}
		head, err := readRecordHead(s)
		if err != nil {
			return 0, 0, err
		}
		n, sum = n+head.n, sum+head.namesum
	}
	return n, sum, nil
}

// filesNameSum is the sum of digest.NameSum over files.
func filesNameSum(files []fileDigest) uint64 {
	var sum uint64
	for _, f := range files {
		sum += digest.NameSum(f.name, f.sum)
	}
	return sum
}

// repair makes again the logos taken from the build log whose files the
// output no longer holds: files lost from the live tree, or, when the
// live tree was not as the last build left it, any file neither tree
// holds.
func (b *build) repair() error {
	out, err := b.writer()
	if err != nil {
		return err
	}
	strays := out.Strays()
	b.reportStrays(strays)
	if b.opts.Strict && len(strays) > 0 {
		return b.warnings // -strict: the live tree, with its strays, stays as it was
	}
	lost := map[string]bool{}
	for _, name := range out.Lost() {
		lost[name] = true
	}
	fast := b.fastPath()
	if fast && len(lost) == 0 {
		return nil
	}
	for i, l := range b.logos {
		if !l.hit() {
			continue
		}
		files, err := decodeRecordFiles(l.kept.record)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(files, func(f fileDigest) bool {
			if fast {
				return lost[f.name]
			}
			return !out.Has(f.name, f.sum)
		}) {
			b.logos[i] = b.compute(b.slugs.at(i))
		}
	}
	return b.failed()
}

// commit checks every output name, removes from the new tree what this
// build does not make, swaps it in and saves the build log.
func (b *build) commit() error {
	if err := b.checkClashes(); err != nil {
		return err
	}
	out, err := b.writer()
	if err != nil {
		return err
	}
	if b.coll.treeN, b.coll.treeSum, err = b.treeCount(b.coll.files); err != nil {
		return err
	}
	if err := out.Finish(b.coll.treeN, b.eachName); err != nil {
		return err
	}
	if err := out.Commit(); err != nil {
		return err
	}
	b.cacheDirty.Store(true)
	if err := b.saveCache(); err != nil {
		b.cacheErr = err
	}
	return nil
}

// eachName gives the name of every file of the build.
func (b *build) eachName(yield func(string) bool) {
	b.eachFile(func(name, _ string) bool { return yield(name) })
}

// eachFile gives the name of every file of the build with the slug of the
// logo it belongs to ("" for the collection's); a name of a record in the
// spill file is valid only during the call. It stops at a damaged record
// (which the phases before have read already) or when fn returns false.
func (b *build) eachFile(fn func(name, slug string) bool) {
	r := spill.NewReader(b.records)
	for i, l := range b.logos {
		if !l.ok() {
			continue
		}
		s, err := b.encodedRecord(l, r)
		if err != nil {
			return
		}
		files, err := decodeRecordFiles(s)
		if err != nil {
			return
		}
		for _, f := range files {
			if !fn(f.name, b.slugs.at(i)) {
				return
			}
		}
	}
	for _, f := range b.coll.files {
		owner := ""
		if f.static {
			owner = source.StaticDir
		}
		if !fn(f.name, owner) {
			return
		}
	}
}

// saveCache writes the build log, when this build changed it. A log that
// cannot be written costs the next build time, not correctness: the error
// is reported as a warning.
func (b *build) saveCache() error {
	if _, ok := b.cache.(buildcache.None); ok || !b.cacheDirty.Load() {
		return nil
	}
	if err := b.cache.Put("", buildcache.Entry{Data: b.coll.encode()}); err != nil {
		return err
	}
	return b.cache.Save(b.started)
}

// PrepareStandby makes the standby tree of the output folder out hold
// what out holds, so that the next build writes only what it changes:
// serve -watch calls it after its first build, so that the first save
// does not wait for it.
func PrepareStandby(out string) error {
	t, err := outtree.Open(out, outtree.Options{Marker: "api/logos.json"})
	if err != nil {
		return err
	}
	defer t.Close()
	return t.PrepareStandby()
}
