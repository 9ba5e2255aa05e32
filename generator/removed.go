package generator

import (
	"encoding/binary"
	"strings"

	"logoindex/generator/check"
	"logoindex/generator/internal/digest"
	"logoindex/generator/internal/spill"
	"logoindex/generator/problem"
	"logoindex/generator/render"
	"logoindex/generator/source"
)

// The logos of removed.yaml are part of the collection: their tombstones,
// their pages and _redirects come with the collection's files, and a
// replaced logo's address serves its replacement's artwork.

// isLogo reports whether slug is a logo folder of the collection, selected
// or not.
func (b *build) isLogo(slug string) bool {
	if _, ok := b.slugs.find(slug); ok {
		return true
	}
	for _, o := range b.others {
		if o.Slug == slug {
			return true
		}
	}
	return false
}

// checkRemoved is the problems of removed.yaml's entries, against each
// other and the collection, and of the published logos it lacks.
func (b *build) checkRemoved() ProblemList {
	var probs ProblemList
	if len(b.removed) > 0 {
		probs = check.Removals(b.removed, b.removedFile, b.isLogo)
	}
	removed := map[string]bool{}
	for _, rm := range b.removed {
		removed[rm.Slug] = true
	}
	path := source.DisplayPath(b.opts.Dir, source.RemovedFile)
	for _, slug := range b.opts.Published {
		if !b.isLogo(slug) && !removed[slug] {
			probs.Errorf(problem.LogoDropped, path, 0, 0, "%s is published (%s) but is neither a logo folder nor in %s, so its URLs would stop answering; add it: - {slug: %s, removed: YYYY-MM-DD, replaced_by: <the logo that takes its place, if any>}", slug, b.opts.PublishedAt, source.RemovedFile, slug)
		}
	}
	return probs
}

// replacement is the slot of the logo that replaces a removed one, when
// it was built.
func (b *build) replacement(slug string) (logoSlot, bool) {
	i, ok := b.slugs.find(slug)
	if !ok || !b.logos[i].ok() {
		return logoSlot{}, false
	}
	return b.logos[i], true
}

// digestRemoved adds to h what the removed logos' files are made of:
// removed.yaml, and each replacement's summary and files.
func (b *build) digestRemoved(h *digest.Hasher, r *spill.Reader) error {
	if len(b.removed) == 0 {
		return nil
	}
	h.Write(b.removedDigest[:])
	return b.eachReplaced(r, func(_ source.Removal, rec string) error {
		head, err := readRecordHead(rec)
		if err != nil {
			return err
		}
		h.Write(head.summary[:])
		h.Write(binary.LittleEndian.AppendUint64(nil, head.namesum))
		return nil
	})
}

// eachReplaced calls fn with each removed logo whose replacement is live,
// and the replacement's encoded record.
func (b *build) eachReplaced(r *spill.Reader, fn func(rm source.Removal, rec string) error) error {
	for _, rm := range b.removed {
		l, ok := b.replacement(rm.ReplacedBy)
		if !ok {
			continue
		}
		rec, err := b.encodedRecord(l, r)
		if err != nil {
			return err
		}
		if err := fn(rm, rec); err != nil {
			return err
		}
	}
	return nil
}

// removedLogos are the removed logos as the collection's files say them.
func (b *build) removedLogos() ([]render.Removed, error) {
	var out []render.Removed
	r := spill.NewReader(b.records)
	for _, rm := range b.removed {
		x := render.Removed{Removal: rm}
		if l, ok := b.replacement(rm.ReplacedBy); ok {
			sum, err := b.summaryOf(l, r)
			if err != nil {
				return nil, err
			}
			x.ReplacementName = strings.Clone(sum.Name)
		}
		out = append(out, x)
	}
	return out, nil
}

// copyReplacements makes the address of each replaced logo's SVGs serve
// its replacement's, and adds them to the collection's files.
func (b *build) copyReplacements(out output) error {
	return b.eachReplaced(spill.NewReader(b.records), func(rm source.Removal, rec string) error {
		files, err := decodeRecordFiles(rec)
		if err != nil {
			return err
		}
		from := "logos/" + rm.ReplacedBy + "/"
		for _, f := range files {
			if !strings.HasPrefix(f.name, from) || !strings.HasSuffix(f.name, ".svg") {
				continue
			}
			name := "logos/" + rm.Slug + "/" + strings.TrimPrefix(f.name, from)
			if err := out.Copy(f.name, name, f.sum); err != nil {
				return err
			}
			b.coll.files = append(b.coll.files, fileDigest{name: name, sum: f.sum})
		}
		return nil
	})
}
