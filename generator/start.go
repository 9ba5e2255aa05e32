package generator

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"logoindex/generator/buildcache"
	"logoindex/generator/check"
	"logoindex/generator/internal/digest"
	"logoindex/generator/internal/spill"
	"logoindex/generator/outtree"
	"logoindex/generator/render"
	"logoindex/generator/source"
)

// cacheFile is the build log's name in the output's state folder.
const cacheFile = "cache"

// start opens what a build reads and writes: the output folder (locked),
// the build log, the renderer and the top of the source folder.
func start(ctx context.Context, src fs.FS, opts Options) (*build, error) {
	b := &build{ctx: ctx, opts: opts, started: time.Now(), cache: buildcache.None{}}
	type made struct {
		r   *render.Renderer
		err error
	}
	rendered := make(chan made, 1)
	go func() {
		ro := opts.Render
		ro.Logos = opts.Logos
		r, err := render.New(ro)
		rendered <- made{r, err}
	}()
	if opts.Out != "" {
		t, err := outtree.Open(opts.Out, outtree.Options{Marker: "api/logos.json", Workers: opts.Workers})
		if err != nil {
			<-rendered
			return nil, err
		}
		b.tree = t
		b.liveN, b.liveSum, b.liveOK = t.LiveFiles()
	}
	b.src = source.New(src, source.Options{Dir: opts.Dir, ReportIgnored: opts.ReportIgnored, Logos: opts.Logos})
	top, probs := b.src.Scan(ctx)
	m := <-rendered
	if m.err != nil {
		b.close()
		return nil, m.err
	}
	b.r = m.r
	b.cats = check.NewCategories(top.Categories)
	b.probs = append(probs, b.cats.Problems...)
	if f := top.Removed; f != nil {
		var p ProblemList
		b.removed, p = source.ParseRemoved(f)
		b.removedFile, b.removedDigest = f.Path, digest.Of(f.Data)
		b.probs = append(b.probs, p...)
	}
	b.readStatic(top.Static)
	b.openCache(top.Categories)
	if err := b.selectLogos(top.Slugs); err != nil {
		b.close()
		return nil, err
	}
	return b, nil
}

// openCache opens the build log, for a full build of the embedded
// templates into an output folder; any other keeps none.
func (b *build) openCache(cats *source.File) {
	if b.tree == nil || b.opts.Rebuild || len(b.opts.Logos) > 0 || b.opts.Render.Templates != nil {
		return
	}
	c := buildcache.Open(filepath.Join(b.tree.State(), cacheFile), b.cacheKey(cats))
	b.cache = c
	if e, ok := c.Get(""); ok {
		b.prev, _ = decodeCollection(e.Data)
	}
}

// cacheKey is what the logs of this build are valid for: the program, the
// flags, the categories and the ignore patterns, on which a logo's checks
// and files depend besides its own folder. The source folder's name is
// not part of it: records hold paths relative to it.
func (b *build) cacheKey(cats *source.File) string {
	var catData []byte
	if cats != nil {
		catData = cats.Data
	}
	return fmt.Sprintf("%s %q %q %t %q %x", buildcache.Program(), b.r.Base(), b.r.InstallTemplate(), b.opts.ReportIgnored, b.src.IgnoreKey(), digest.Of(catData))
}

// selectLogos keeps the slugs the patterns select and reads the others'
// logo.yaml, for the rules across logos; in a build without a log to go
// by, it opens the spill file where the logos' records wait.
func (b *build) selectLogos(slugs []string) error {
	slugs = slices.DeleteFunc(slugs, func(slug string) bool {
		if b.src.Selected(slug) {
			return false
		}
		b.others = append(b.others, b.src.Meta(slug))
		return true
	})
	b.slugs, b.logos = packStrings(slugs), make([]logoSlot, len(slugs))
	if _, hasLog := b.cache.(*buildcache.File); hasLog && b.prev.digest != (digest.Sum{}) {
		return nil
	}
	dir := os.TempDir()
	if b.tree != nil {
		dir = b.tree.State()
	}
	var err error
	b.records, err = spill.New(dir, "tmp-records-")
	return err
}
