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
// Build runs the first three in memory. BuildTree (tree.go) runs the same
// stages a logo at a time on every CPU and streams each logo's files into
// the output tree, keeping only a summary of each logo; with a cache
// (treecache.go) it redoes only the logos that changed and writes only
// the files that differ. Input comes through io/fs, so tests run on
// fstest.MapFS; only WriteTree and BuildTree touch the real file system.
package generator

import (
	"context"
	"fmt"
	"io/fs"
	"path"

	"logoindex/generator/problem"
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
	// ReportIgnored reports each file that .logoindexignore or a default
	// pattern skips as a warning (check -strict), so that CI notices
	// editor and system files committed by mistake. Without it they are
	// skipped silently: they are everyday local clutter.
	ReportIgnored bool
	// Logos selects, by doublestar patterns on slugs ("git*"), the logos
	// to check and build; none selects every logo. The others are read
	// only as far as the rules across logos need: their logo.yaml, for
	// unique component names. A pattern that selects nothing is an error.
	Logos []string
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
	source, probs := Load(ctx, src, opts)
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
	ro.logos = opts.Logos
	files, err := Render(ctx, col, ro)
	if err != nil {
		return nil, err
	}
	if err := clashProblems(col, files); err != nil {
		return nil, err
	}
	return &Result{Collection: col, Files: files, Warnings: probs.Warnings()}, nil
}

// clashProblems turns outputs that would land on one path into problems of
// the logos that own them: a slug can name a path the build uses for
// something else (slug "registry" gives r/registry.json, the registry
// index). The paths come from the rendered files themselves, so every
// output of every kind is covered. A clash between two files of the
// collection is a bug of the build, returned as an internal error.
func clashProblems(col *Collection, files []OutFile) error {
	dirs := map[string]string{}
	for _, l := range col.Logos {
		dirs[l.Slug] = path.Dir(l.MetaPath)
	}
	return clashErrors(files, dirs)
}

// clashErrors is clashProblems on the output names alone; dirs maps each
// slug to the display path of its folder.
func clashErrors(files []OutFile, dirs map[string]string) error {
	var probs ProblemList
	for _, c := range findClashes(files) {
		if c.A.Logo == "" && c.B.Logo == "" {
			return c
		}
		for _, own := range [][2]OutFile{{c.A, c.B}, {c.B, c.A}} {
			f, other := own[0], own[1]
			if f.Logo == "" {
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
