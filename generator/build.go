// Package generator turns a folder of logo sources into the static logo
// index of Interface B: dist/api/logos.json, dist/api/logos/<slug>.json and
// optimised SVGs at dist/logos/<slug>/<variant>.svg.
//
// The pipeline has one stage a file, passing plain data:
//
//	Load      (load.go)      fs.FS          -> *Source
//	Validate  (validate.go)  *Source        -> *Collection    (metadata.go, svgcheck.go)
//	optimise  (optimise.go)  *Collection    -> optimised bytes, verified
//	Render    (render.go)    *Collection    -> []OutFile
//	WriteTree (write.go)     []OutFile      -> the output folder, swapped in atomically
//
// Input comes through io/fs, so tests run on fstest.MapFS; only WriteTree
// touches the real file system.
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
	col, p := Validate(ctx, source, opts.Workers)
	probs = append(probs, p...)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(probs.Errors()) == 0 {
		probs = append(probs, optimiseAll(ctx, NewOptimiser(), col.Logos, opts.Workers)...)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	probs.Sort()
	if err := probs.Err(); err != nil {
		return nil, err
	}
	files, err := Render(col, opts.Render)
	if err != nil {
		return nil, err
	}
	return &Result{Collection: col, Files: files, Warnings: probs.Warnings()}, nil
}
