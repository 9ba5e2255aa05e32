// Package generator turns a folder of logo sources into the static logo
// index of Interface B: dist/api/logos.json, dist/api/logos/<slug>.json and
// optimised SVGs at dist/logos/<slug>/<variant>.svg.
//
// The pipeline has one stage a file, passing plain data:
//
//	Load      (load.go)      fs.FS          -> *Source
//	Validate  (validate.go)  *Source        -> *Collection    checks each logo (metadata.go, svgcheck.go)
//	                                                           and optimises it (optimise.go)
//	Render    (render.go)    *Collection    -> []OutFile       (site.go, registry.go)
//	WriteTree (write.go)     []OutFile      -> the output folder, swapped in atomically
//
// Validate works a logo at a time on every CPU, and a Cache (cache.go) lets
// it skip logos whose files did not change. Input comes through io/fs, so
// tests run on fstest.MapFS; only WriteTree and the Cache touch the real
// file system.
package generator

import (
	"context"
	"io/fs"
)

// Options configures Build. The zero value builds with root-relative URLs,
// the default install template and one worker per CPU.
type Options struct {
	// Dir is how the user named the source folder; it prefixes the paths
	// in problems ("source-logos/github/logo.yaml").
	Dir string
	// Render holds the base URL and install template.
	Render RenderOptions
	// Workers bounds the goroutines that check and optimise; 0 means one
	// per CPU.
	Workers int
	// Cache, if not nil, remembers checked and optimised logos between
	// builds. The output is the same with or without it.
	Cache *Cache
}

// Result is what a build produced.
type Result struct {
	Collection *Collection
	Files      []OutFile
	// Warnings are the problems that did not fail the build.
	Warnings ProblemList
}

// Build reads, checks and optimises every logo in src and renders the
// output tree in memory. When any logo is invalid it returns the problems
// of every logo as a ProblemList error (warnings included, sorted) and no
// files. It writes nothing: pass Result.Files to WriteTree.
func Build(ctx context.Context, src fs.FS, opts Options) (*Result, error) {
	source, probs := Load(src, opts.Dir)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	col, p := Validate(ctx, source, opts)
	probs = append(probs, p...)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	probs.Sort()
	if err := probs.Err(); err != nil {
		return nil, err
	}
	ro := opts.Render
	ro.cache = opts.Cache
	files, err := Render(col, ro)
	if err != nil {
		return nil, err
	}
	return &Result{Collection: col, Files: files, Warnings: probs.Warnings()}, nil
}
