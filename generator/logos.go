package generator

import (
	"logoindex/generator/buildcache"
	"logoindex/generator/check"
	"logoindex/generator/internal/digest"
	"logoindex/generator/internal/spill"
	"logoindex/generator/render"
	"logoindex/internal/par"
	"slices"
)

// logoSlot is what a build keeps of one logo until its end: where its
// record is in the build's spill file, or the record itself. A clean
// build of a large collection keeps 24 bytes a logo.
type logoSlot struct {
	at   spill.Ref // n is 0 when the record is not in the spill
	kept *keptLogo // nil when nothing else is kept
}

// keptLogo is what a logo keeps in memory besides where its record is.
type keptLogo struct {
	record string // the encoded record, when it is not in the spill
	hit    bool   // from the build log
	sum    *render.Summary
	// probs are the problems of a logo that failed its checks, which has
	// no record.
	probs ProblemList
}

// ok reports whether the logo passed its checks: it has a record.
func (l logoSlot) ok() bool { return l.at.N > 0 || l.kept != nil && l.kept.record != "" }

func (l logoSlot) hit() bool { return l.kept != nil && l.kept.hit }

// eachLogo takes each logo from the build log when its sources did not
// change, and makes the others anew, writing their files, on every CPU.
func (b *build) eachLogo() error {
	par.For(b.ctx, len(b.logos), b.opts.Workers, func(i int) { b.logos[i] = b.logo(b.slugs.at(i)) })
	if err := b.ctx.Err(); err != nil {
		return err
	}
	if err := b.records.Flush(); err != nil {
		return err
	}
	return b.failed()
}

// logo builds one logo.
func (b *build) logo(slug string) logoSlot {
	e, ok := b.cache.Get(slug)
	if !ok {
		return b.compute(slug)
	}
	in, same := b.currentInputs(slug, e)
	if in == nil {
		return b.compute(slug)
	}
	if err := checkRecordFiles(e.Data); err != nil {
		return b.compute(slug)
	}
	if same {
		b.cache.Keep(slug)
	} else {
		b.cacheDirty.Store(true)
		if err := b.cache.Put(slug, buildcache.Entry{Folder: in.folder, Inputs: in.files, Data: e.Data}); err != nil {
			b.fail(err)
		}
	}
	return logoSlot{kept: &keptLogo{record: e.Data, hit: true}}
}

// compute checks, optimises and renders a logo, writes its files and
// records it. The folder's stat is taken before it is listed, so that a
// file added meanwhile shows as a changed folder next time.
func (b *build) compute(slug string) logoSlot {
	b.computed.Add(1)
	folder, listed := b.src.FolderStat(slug)
	var probs ProblemList
	ls := b.src.Logo(slug, &probs)
	logo, p := check.Check(ls, b.cats)
	probs = append(probs, p...)
	if logo == nil {
		return logoSlot{kept: &keptLogo{probs: probs}}
	}
	files, err := b.r.LogoFiles(logo, b.cats.Names)
	if err != nil {
		b.fail(err)
		return logoSlot{}
	}
	out, err := b.writer()
	if err != nil {
		b.fail(err)
		return logoSlot{}
	}
	rec := &logoRecord{sum: render.Summarize(logo), warnings: probs}
	for _, f := range files {
		sum := digest.Of(f.Data)
		rec.files = append(rec.files, fileDigest{name: f.Name, sum: sum})
		if err := out.Put(f.Name, sum, f.Data); err != nil {
			b.fail(err)
			return logoSlot{}
		}
	}
	b.noteNames(slug, rec)
	data, err := rec.encode(b.opts.Dir)
	if err != nil {
		b.fail(err)
		return logoSlot{}
	}
	if in := b.readInputs(ls, folder, listed); in != nil {
		b.cacheDirty.Store(true)
		if err := b.cache.Put(slug, buildcache.Entry{Folder: in.folder, Inputs: in.files, Data: string(data)}); err != nil {
			b.fail(err)
		}
	}
	return b.keep(data, rec.sum)
}

// keep is the slot of a logo made anew: its record goes to the spill file
// in a build that keeps records on disk.
func (b *build) keep(data []byte, sum *render.Summary) logoSlot {
	if b.records == nil {
		return logoSlot{kept: &keptLogo{record: string(data), sum: sum}}
	}
	at, err := b.records.Add(data)
	if err != nil {
		b.fail(err)
		return logoSlot{}
	}
	return logoSlot{at: at}
}

// noteNames notes whether the logo writes other file names, or declares
// another component, than it did in the last build: only then can two
// outputs or two components clash where none did.
func (b *build) noteNames(slug string, rec *logoRecord) {
	e, ok := b.cache.Get(slug)
	if !ok {
		b.namesChanged.Store(true)
		b.componentsChanged.Store(true)
		return
	}
	old, err := decodeRecord(e.Data, b.opts.Dir)
	if err != nil || !slices.EqualFunc(old.files, rec.files, func(x, y fileDigest) bool { return x.name == y.name }) {
		b.namesChanged.Store(true)
	}
	if err != nil || old.sum.Component != rec.sum.Component {
		b.componentsChanged.Store(true)
	}
}
