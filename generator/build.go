// Package generator builds the static logo index of Interface B from a
// folder of logo sources: api/logos.json, api/logos/<slug>.json and the
// optimised SVGs at logos/<slug>/<variant>.svg, with the site and the
// component registry.
//
// Build is the one pipeline, a short list of phases (this file). Each logo
// goes from its folder to its files on one of several goroutines
// (logos.go), then the rules across logos run, the collection's files are
// made from each logo's summary (collection.go), and the new tree is
// swapped in (commit.go). The build log (package buildcache) lets a
// rebuild take the logos whose sources did not change from the last
// build; the output tree (package outtree) writes only the files that
// differ. check is the same Build with nowhere to write.
package generator

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sync"
	"sync/atomic"
	"time"

	"logoindex/generator/buildcache"
	"logoindex/generator/check"
	"logoindex/generator/internal/digest"
	"logoindex/generator/internal/spill"
	"logoindex/generator/outtree"
	"logoindex/generator/render"
	"logoindex/generator/source"
)

// Options configures Build. The zero value checks the sources with
// root-relative URLs, the default install template and one worker per
// CPU, and writes nothing.
type Options struct {
	// Dir is how the user named the source folder; it prefixes the paths
	// in problems ("source-logos/github/logo.yaml").
	Dir string
	// Out is the output folder, replaced whole by the new tree; empty
	// writes nothing (check).
	Out string
	// Render holds the base URL, install template and templates.
	Render render.Options
	// Workers bounds the goroutines that check, optimise and render; 0
	// means one per CPU.
	Workers int
	// ReportIgnored reports each file that .logoindexignore or a default
	// pattern skips as a warning (check -strict), so that CI notices
	// editor and system files committed by mistake.
	ReportIgnored bool
	// Logos selects, by doublestar patterns on slugs ("git*"), the logos
	// to check and build; none selects every logo. The others are read
	// only for the rules across logos (unique component names). A partial
	// build neither reads nor writes the build log.
	Logos []string
	// Strict fails the build on warnings too, writing nothing.
	Strict bool
	// Rebuild trusts nothing a build left: every logo is made and every
	// file written anew, and the build log is neither read nor written.
	// The output is the same.
	Rebuild bool
	// Published are the slugs of a published index (check -published), at
	// PublishedAt: each must still be a logo, or be in removed.yaml, or
	// its URLs would stop answering.
	Published   []string
	PublishedAt string
}

// Result is what Build did.
type Result struct {
	Logos, Files int
	// Warnings are the problems that did not fail the build.
	Warnings ProblemList
	// Computed counts the logos made anew; the others came from the log.
	Computed int
	// UpToDate is set when the output already held the build: nothing was
	// written.
	UpToDate bool
	// CacheError is why the build log or the trees' records could not be
	// saved: the next build redoes more, but writes the same.
	CacheError error
}

// Build checks every logo of src and writes the output tree to opts.Out.
// When any logo is invalid it returns the problems of every logo as a
// ProblemList error (warnings included, sorted) and the output is left as
// it was.
func Build(ctx context.Context, src fs.FS, opts Options) (*Result, error) {
	b, err := start(ctx, src, opts)
	if err != nil {
		return nil, err
	}
	defer b.close()
	if err := b.eachLogo(); err != nil {
		return nil, b.abort(err)
	}
	if err := b.checkAcross(); err != nil {
		return nil, b.abort(err)
	}
	if b.upToDate() {
		b.cacheErr = b.saveCache()
		return b.result(), nil
	}
	if err := b.repair(); err != nil {
		return nil, b.abort(err)
	}
	if err := ctx.Err(); err != nil {
		return nil, b.abort(err)
	}
	if err := b.collection(); err != nil {
		return nil, b.abort(err)
	}
	// The last moment a signal can stop the build with the output as it
	// was.
	if err := ctx.Err(); err != nil {
		return nil, b.abort(err)
	}
	if err := b.commit(); err != nil {
		return nil, b.abort(err)
	}
	return b.result(), nil
}

// build is the state of one Build.
type build struct {
	ctx     context.Context
	opts    Options
	started time.Time
	src     *source.Reader
	cats    *check.Categories
	r       *render.Renderer
	cache   buildcache.Cache
	tree    *outtree.Tree // nil: nothing is written
	// liveN and liveSum are what the live tree's record held when the
	// build started, which the last build's log should say too.
	liveN   int
	liveSum uint64
	liveOK  bool

	outOnce sync.Once
	out     output
	outErr  error

	prev collectionRecord // the last build's, from the log
	// removed are the entries of removed.yaml, which is removedFile;
	// removedDigest is its content's, which the collection's files
	// depend on.
	removed        []source.Removal
	removedFile    string
	removedDigest  digest.Sum
	static         []staticFile // the source's StaticDir, copied as they are
	slugs          packedStrings
	logos          []logoSlot
	records        *spill.File // computed logos' records, in a build that keeps them on disk
	others         []*source.Logo
	probs          ProblemList
	coll           collectionRecord // this build's
	warnings       ProblemList
	upToDateResult bool
	cacheErr       error

	computed          atomic.Int64
	namesChanged      atomic.Bool
	componentsChanged atomic.Bool
	cacheDirty        atomic.Bool
	mu                sync.Mutex
	errs              []error // internal errors: writing, rendering
}

// fail records an internal error of a logo's goroutine, once: every
// logo that meets one broken output (a full disk, a folder it may not
// write) reports the same error.
func (b *build) fail(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.errs {
		if e == err || e.Error() == err.Error() {
			return
		}
	}
	b.errs = append(b.errs, err)
}

func (b *build) failed() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return errors.Join(b.errs...)
}

// abort leaves the live tree as it was, recording what the build wrote
// into the standby, and returns err.
func (b *build) abort(err error) error {
	if b.out != nil {
		if aerr := b.out.Abort(); aerr != nil && !isProblems(err) {
			err = errors.Join(err, aerr)
		}
	}
	return err
}

func isProblems(err error) bool {
	var probs ProblemList
	return errors.As(err, &probs)
}

func (b *build) close() {
	b.cache.Close()
	b.records.Close()
	if b.tree != nil {
		b.tree.Close()
	}
}

// result is what the build did.
func (b *build) result() *Result {
	res := &Result{Warnings: b.warnings, Computed: int(b.computed.Load()), UpToDate: b.upToDateResult, CacheError: b.cacheErr}
	for _, l := range b.logos {
		if l.ok() {
			res.Logos++
		}
	}
	res.Files = b.coll.treeN
	return res
}

// writer returns the output, opened on first use: a build that changes
// nothing never opens the standby.
func (b *build) writer() (output, error) {
	b.outOnce.Do(func() {
		switch {
		case b.tree == nil:
			b.out = discard{}
		case b.opts.Rebuild:
			b.out, b.outErr = b.tree.BeginEmpty()
		default:
			b.out, b.outErr = b.tree.Begin()
		}
		if b.outErr != nil {
			b.out = nil
			b.outErr = fmt.Errorf("preparing the new tree: %w", b.outErr)
		}
	})
	return b.out, b.outErr
}
