package generator

import (
	"io"
	"slices"
	"strings"
	"sync"

	"logoindex/generator/internal/digest"
	"logoindex/generator/internal/spill"
	"logoindex/generator/render"
	"logoindex/internal/par"
)

// summaries is the list of the build's logos' summaries, in slug order.
// Those of records in memory are decoded once (loadSummaries); those in
// the spill file for each pass.
func (b *build) summaries() *render.Summaries {
	n := 0
	for _, l := range b.logos {
		if l.ok() {
			n++
		}
	}
	return &render.Summaries{N: n, Each: func(fn func(*render.Summary) error) error {
		r := spill.NewReader(b.records)
		for _, l := range b.logos {
			if !l.ok() {
				continue
			}
			sum, err := b.summaryOf(l, r)
			if err != nil {
				return err
			}
			if err := fn(sum); err != nil {
				return err
			}
		}
		return nil
	}}
}

// summaryOf is a logo's summary, from memory or its record in the spill.
func (b *build) summaryOf(l logoSlot, r *spill.Reader) (*render.Summary, error) {
	if l.kept != nil && l.kept.sum != nil {
		return l.kept.sum, nil
	}
	rec, err := b.recordOf(l, r)
	if err != nil {
		return nil, err
	}
	return rec.sum, nil
}

// recordOf decodes a logo's record.
func (b *build) recordOf(l logoSlot, r *spill.Reader) (*logoRecord, error) {
	s, err := b.encodedRecord(l, r)
	if err != nil {
		return nil, err
	}
	return decodeRecord(s, b.opts.Dir)
}

// encodedRecord is a logo's record as encoded: valid while r is, for one
// in the spill file.
func (b *build) encodedRecord(l logoSlot, r *spill.Reader) (string, error) {
	if l.at.N > 0 {
		return r.Read(l.at)
	}
	return l.kept.record, nil
}

// loadSummaries decodes the summaries of the records held in memory, on
// every CPU, before the passes that read them all.
func (b *build) loadSummaries() error {
	errs := make([]error, len(b.logos))
	par.For(b.ctx, len(b.logos), b.opts.Workers, func(i int) {
		if k := b.logos[i].kept; k != nil && k.record != "" && k.sum == nil {
			var rec *logoRecord
			if rec, errs[i] = decodeRecord(k.record, b.opts.Dir); rec != nil {
				k.sum = rec.sum
			}
		}
	})
	return b.join(errs)
}

// join is the first error of errs, or of the context.
func (b *build) join(errs []error) error {
	if err := b.ctx.Err(); err != nil {
		return err
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// collectionDigest is a digest of what the collection's files are made
// of: every logo's summary, in order, the removed logos and the static
// files. The flags and the categories are the build log's key.
func (b *build) collectionDigest() (digest.Sum, error) {
	h := digest.New()
	r := spill.NewReader(b.records)
	for _, l := range b.logos {
		if !l.ok() {
			continue
		}
		s, err := b.encodedRecord(l, r)
		if err != nil {
			return digest.Sum{}, err
		}
		head, err := readRecordHead(s)
		if err != nil {
			return digest.Sum{}, err
		}
		h.Write(head.summary[:])
	}
	if err := b.digestRemoved(h, r); err != nil {
		return digest.Sum{}, err
	}
	b.digestStatic(h)
	return h.Sum(), nil
}

// collection makes the collection's files (the index, the gallery, the
// registry's index, the sitemaps), or keeps the last build's when what
// they are made of did not change and the standby holds them.
func (b *build) collection() error {
	d, err := b.collectionDigest()
	if err != nil {
		return err
	}
	out, err := b.writer()
	if err != nil {
		return err
	}
	b.coll.digest = d
	if d == b.prev.digest && len(b.prev.files) > 0 && b.holdsAll(out, b.prev.files) {
		b.coll.files = b.prev.files
		return nil
	}
	if err := b.loadSummaries(); err != nil {
		return err
	}
	c := render.Collection{Logos: b.summaries()}
	if c.Categories, err = render.CountCategories(b.cats.List, c.Logos); err != nil {
		return err
	}
	if c.Removed, err = b.removedLogos(); err != nil {
		return err
	}
	for _, f := range b.static {
		c.Static = append(c.Static, f.name)
	}
	slices.Sort(c.Static)
	var mu sync.Mutex
	b.coll.files = nil
	err = b.r.CollectionFiles(c, func(name string, write func(io.Writer) error) error {
		sum, err := out.PutStream(name, write)
		mu.Lock()
		b.coll.files = append(b.coll.files, fileDigest{name: name, sum: sum})
		mu.Unlock()
		return err
	})
	if err == nil {
		err = b.copyReplacements(out)
	}
	if err == nil {
		err = b.putStatic(out)
	}
	slices.SortFunc(b.coll.files, func(x, y fileDigest) int { return strings.Compare(x.name, y.name) })
	return err
}

// holdsAll reports whether the output holds every file of files, by the
// standby's record: through the records when the live tree was as the
// last build left it (none lost), else file by file.
func (b *build) holdsAll(out output, files []fileDigest) bool {
	if b.fastPath() {
		for _, f := range files {
			if slices.Contains(out.Lost(), f.name) {
				return false
			}
		}
		return true
	}
	for _, f := range files {
		if !out.Has(f.name, f.sum) {
			return false
		}
	}
	return true
}
