package generator

import (
	"fmt"
	"hash/maphash"
	"path"
	"slices"
	"strings"

	"logoindex/generator/check"
	"logoindex/generator/internal/dupes"
	"logoindex/generator/internal/spill"
	"logoindex/generator/problem"
	"logoindex/generator/render"
	"logoindex/generator/source"
)

// checkAcross gathers the problems of every logo and checks the rules
// across logos: unique component names. It fails the build on any error,
// or on any warning with Strict. A build whose logos declare the
// components they declared in the last build, which passed, or fewer,
// has no clash.
func (b *build) checkAcross() error {
	probs := b.probs
	r := spill.NewReader(b.records)
	for _, l := range b.logos {
		switch {
		case l.kept != nil && len(l.kept.probs) > 0:
			probs = append(probs, l.kept.probs...)
		case l.ok():
			s, err := b.encodedRecord(l, r)
			if err != nil {
				return err
			}
			if head, err := readRecordHead(s); err != nil || head.warnings == 0 {
				continue
			}
			rec, err := decodeRecord(s, b.opts.Dir)
			if err != nil {
				return err
			}
			probs = append(probs, rec.warnings...)
		}
	}
	if b.componentsChanged.Load() || len(b.others) > 0 {
		if err := b.loadSummaries(); err != nil {
			return err
		}
		used, suffixes, _ := render.TemplateNames(b.opts.Render.Templates)
		sums := b.summaries()
		decls := func(yield func(*check.Declaration) error) error {
			return sums.Each(func(s *render.Summary) error {
				return yield(&check.Declaration{Slug: s.Slug, Component: s.Component, At: s.ComponentAt, Path: s.MetaPath})
			})
		}
		clashes, err := check.Components(sums.N+len(b.others), check.Others(decls, b.others), used, suffixes)
		if err != nil {
			return err
		}
		probs = append(probs, clashes...)
	}
	probs = append(probs, b.checkRemoved()...)
	probs.Sort()
	if err := probs.Err(); err != nil {
		return err
	}
	if b.opts.Strict && len(probs) > 0 {
		return probs
	}
	b.warnings = probs.Warnings()
	return nil
}

// checkClashes checks every output name of the build, of the logos and
// the collection, for two outputs on one path: a slug can name a path the
// build uses for something else (slug "registry" gives r/registry.json,
// the registry's index). Unless a logo writes other names than it did,
// the names are the last build's, which passed.
func (b *build) checkClashes() error {
	if !b.namesChanged.Load() && slices.EqualFunc(b.coll.files, b.prev.files, func(x, y fileDigest) bool { return x.name == y.name }) {
		return nil
	}
	n := len(b.coll.files)
	for _, l := range b.logos {
		if l.ok() {
			n += 5
		}
	}
	suspect, err := mayClash(n, func(fn func(string)) error {
		b.eachFile(func(name, _ string) bool { fn(name); return true })
		return nil
	})
	if err != nil || !suspect {
		return err
	}
	var files []render.File
	b.eachFile(func(name, slug string) bool {
		files = append(files, render.File{Name: strings.Clone(name), Logo: slug})
		return true
	})
	dirs := map[string]string{source.StaticDir: source.DisplayPath(b.opts.Dir, source.StaticDir)}
	err = b.summaries().Each(func(s *render.Summary) error {
		dirs[strings.Clone(s.Slug)] = strings.Clone(path.Dir(s.MetaPath))
		return nil
	})
	if err != nil {
		return err
	}
	return clashErrors(files, dirs)
}

// mayClash reports whether two of the names each gives may be one, or
// one a folder of another, by 64-bit hashes of the names and their
// folders: false is certain; true, which a clash gives and two hashes
// that collide by chance could, asks for the exact check. n is about
// how many names each gives.
func mayClash(n int, each func(fn func(name string)) error) (bool, error) {
	// Sorted lists of the hashes, not sets, and a share of them in each
	// pass (dupes.Passes): for a large collection a map of every name
	// would be the most memory the end of the build holds, and a list of
	// them all half of that. A folder is listed once with its parents, and
	// not again while it is among the last few listed: the names of a logo
	// share theirs, and most logos the shared ones (logos, api/logos).
	seed := maphash.MakeSeed()
	return dupes.Passes(n, func(mine func(uint64) bool, size int) (bool, error) {
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

// clashErrors turns outputs that would land on one path into problems of
// the logos that own them; dirs maps each slug to the display path of its
// folder. A clash between two files of the collection is a bug of the
// build, returned as an internal error.
func clashErrors(files []render.File, dirs map[string]string) error {
	var probs ProblemList
	for _, c := range findClashes(files) {
		if c.A.Logo == "" && c.B.Logo == "" {
			return c
		}
		for _, own := range [][2]render.File{{c.A, c.B}, {c.B, c.A}} {
			f, other := own[0], own[1]
			if f.Logo == "" || other.Logo == source.StaticDir {
				continue // a static file is blamed, not what it shadows
			}
			if f.Logo == source.StaticDir {
				probs.Errorf(problem.StaticCollision, dirs[f.Logo]+"/"+f.Name, 0, 0, "has the path of the build's own %s; rename or remove it", other.Name)
				continue
			}
			with := "the collection's " + other.Name
			if other.Logo != "" {
				with = fmt.Sprintf("logo %q's %s", other.Logo, other.Name)
			}
			probs.Errorf(problem.SlugCollision, dirs[f.Logo], 0, 0, "slug %q would write %s, which collides with %s; rename the folder", f.Logo, f.Name, with)
		}
	}
	probs.Sort()
	return probs.Err()
}

// outputClash is two outputs that would land on one path: they have the
// same name, or B's name is a folder in A's.
type outputClash struct{ A, B render.File }

func (c outputClash) Error() string {
	if c.A.Name == c.B.Name {
		return fmt.Sprintf("internal error: two outputs are named %s", c.A.Name)
	}
	return fmt.Sprintf("internal error: output %s is also a folder of %s", c.B.Name, c.A.Name)
}

// findClashes returns every pair of files that cannot both be written, in
// the order of files.
func findClashes(files []render.File) []outputClash {
	byName := make(map[string]int, len(files))
	var clashes []outputClash
	for i, f := range files {
		if j, dup := byName[f.Name]; dup {
			clashes = append(clashes, outputClash{files[j], f})
		} else {
			byName[f.Name] = i
		}
	}
	for _, f := range files {
		for d := path.Dir(f.Name); d != "."; d = path.Dir(d) {
			if j, ok := byName[d]; ok {
				clashes = append(clashes, outputClash{f, files[j]})
			}
		}
	}
	return clashes
}
