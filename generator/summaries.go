package generator

import (
	"errors"
	"hash/maphash"
	"slices"
)

// summaryList is the summaries of a build's logos in slug order, as the
// checks across logos and the collection's files read them: in memory,
// or, in a clean build, each in the build's summary spill file, where
// keep put it. By heap profile the summaries were 26 of the 60 MB a
// clean build of 104,100 logos held; spilled, a logo keeps the 16 bytes
// of where its summary is, and each pass over them reads the file (in
// the page cache) 64 KB at a time.
type summaryList struct {
	mem   []*logoSummary
	logos []builtLogo // when spilled: every logo, whose summary is in memory, in file or absent
	file  *spill
	n     int
}

// memSummaries is the list of sums, held in memory.
func memSummaries(sums []*logoSummary) *summaryList {
	return &summaryList{mem: sums, n: len(sums)}
}

func (s *summaryList) len() int { return s.n }

func (s *summaryList) spilled() bool { return s.file != nil }

// each calls fn with every summary, in order, and stops at fn's first
// error. A spilled summary is decoded anew for each call, its strings in
// a buffer read for it: fn must not change it, and what it keeps of it
// keeps 64 KB of the file in memory.
func (s *summaryList) each(fn func(*logoSummary) error) error {
	if !s.spilled() {
		for _, l := range s.mem {
			if err := fn(l); err != nil {
				return err
			}
		}
		return nil
	}
	r := spillReader{s: s.file}
	for _, l := range s.logos {
		sum := l.sum()
		if sum == nil {
			if l.sumAt.n == 0 {
				continue // no summary: the logo failed its checks
			}
			entry, err := r.read(l.sumAt)
			if err != nil {
				return err
			}
			d := &decoder{s: entry}
			if sum = d.summary(); d.err != nil || d.s != "" {
				return errors.New("reading the spill file: a damaged summary")
			}
		}
		if err := fn(sum); err != nil {
			return err
		}
	}
	return nil
}

// all returns every summary in one slice, for the rare checks that want
// them at once.
func (s *summaryList) all() ([]*logoSummary, error) {
	if !s.spilled() {
		return s.mem, nil
	}
	out := make([]*logoSummary, 0, s.n)
	err := s.each(func(l *logoSummary) error {
		out = append(out, l)
		return nil
	})
	return out, err
}

// errStop ends an each early, as no error.
var errStop = errors.New("stop")

// checkAllComponents is checkComponents over the summaries of a build
// and the component names of the logos a selection left out (others).
// The names are first hashed, one by one: most builds have no two logos
// declaring one name, and then need no map of every name (a string and a
// pointer for each of 312,300 names at 104,100 logos), nor every summary
// in memory at once. With the summaries in memory too (a rebuild's): for
// 3,470 logos the hashes take 1.4 ms where the map took 3.1
// (BenchmarkCheckAllComponents).
func checkAllComponents(sums *summaryList, others []*LogoSource, used map[string]bool, suffixes []string) (ProblemList, error) {
	more := otherSummaries(others) // each logo.yaml parsed once
	suspect, err := mayShareComponent(sums, more, used, suffixes)
	if err != nil || !suspect {
		return nil, err
	}
	all, err := sums.all()
	if err != nil {
		return nil, err
	}
	return checkComponents(withSummaries(all, more), used, suffixes), nil
}

// mayShareComponent reports whether checkComponents could find a
// problem: a name some logo's component declares is one the component
// template uses, or the 64-bit hashes of two declared names are equal
// (two names that are one, or by chance; false is certain). others are
// the summaries of the logos a selection left out (otherSummaries).
func mayShareComponent(sums *summaryList, others []*logoSummary, used map[string]bool, suffixes []string) (bool, error) {
	suffixes = orNoSuffix(suffixes)
	seed := maphash.MakeSeed()
	n := (sums.len() + len(others)) * len(suffixes)
	// A sorted list of the hashes of a share of the names in each pass,
	// as mayClash: a set of them all was the most a clean build of
	// 104,100 logos held, 7.5 MB.
	return hashPasses(n, func(mine func(uint64) bool, size int) (bool, error) {
		seen := make([]uint64, 0, size)
		var name []byte // a declared name, reused
		visit := func(l *logoSummary) error {
			if l.Component == "" {
				return nil
			}
			for _, x := range suffixes {
				name = append(append(name[:0], l.Component...), x...)
				if used[string(name)] {
					return errStop
				}
				if k := maphash.Bytes(seed, name); mine(k) {
					seen = append(seen, k)
				}
			}
			return nil
		}
		err := sums.each(visit)
		for _, o := range others {
			if err == nil {
				err = visit(o)
			}
		}
		if err == errStop {
			return true, nil
		}
		slices.Sort(seen)
		for i := 1; i < len(seen); i++ {
			if seen[i] == seen[i-1] {
				return true, err
			}
		}
		return false, err
	})
}
