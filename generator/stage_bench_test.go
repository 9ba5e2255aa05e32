package generator

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"testing/fstest"
)

// benchLogos is the size of the generated collection the stage benchmarks
// run on.
const benchLogos = 1000

// benchSource is a generated collection of benchLogos logos, each with an
// icon, a mono icon and a wordmark whose shapes differ from logo to logo,
// so that no stage can share work between them.
var benchSource = sync.OnceValue(func() fstest.MapFS {
	fsys := fstest.MapFS{"categories.yaml": {Data: []byte("- {slug: tools, name: Tools}\n- {slug: social, name: Social}\n")}}
	for i := range benchLogos {
		slug := fmt.Sprintf("brand-%04d", i)
		k := float64(i%97) / 10
		fsys[slug+"/logo.yaml"] = &fstest.MapFile{Data: fmt.Appendf(nil,
			"name: Brand %d\nhex: \"#%06X\"\ncategories: [tools]\nsource: https://brand%d.example/press\nlicense: CC0-1.0\naliases: [B%d]\n", i, (i*7919)%0x1000000&0x7F7F7F, i, i)}
		fsys[slug+"/icon.svg"] = &fstest.MapFile{Data: fmt.Appendf(nil,
			`<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24">
  <title>Brand %d</title>
  <path fill="#%06X" d="M 12.000 2.000 C 6.477 2.000 2.000 6.477 2.000 12.000 C 2.000 17.523 6.477 22.000 12.000 22.000 C 17.523 22.000 22.000 17.523 22.000 12.000 C 22.000 6.477 17.523 2.000 12.000 2.000 Z M %.3f 7.000 L 17.000 %.3f L 12.000 17.000 L 7.000 12.000 Z"/>
</svg>
`, i, (i*7919)%0x1000000&0x7F7F7F, 12+k/10, 12-k/10)}
		fsys[slug+"/icon-mono.svg"] = &fstest.MapFile{Data: fmt.Appendf(nil,
			`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="currentColor"><path d="M2 2h20v20H2z M%.2f 6h4v4h-4z"/></svg>`, 6+k)}
		fsys[slug+"/wordmark.svg"] = &fstest.MapFile{Data: fmt.Appendf(nil,
			`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 24"><g fill="#%06X"><rect x="0" y="2" width="%.1f" height="20" rx="3"/><circle cx="60" cy="12" r="%.2f"/><path d="M80 2l10 20 10-20z"/></g></svg>`,
			(i*7919)%0x1000000&0x7F7F7F, 40+k, 8+k/10)}
	}
	return fsys
})

// benchStages runs the stages up to the one measured.
func benchStages(b *testing.B) (*Source, *Collection, []OutFile) {
	b.Helper()
	ctx := context.Background()
	src, probs := Load(ctx, benchSource(), Options{Dir: "src"})
	col, p := Validate(ctx, src, Options{})
	probs = append(probs, p...)
	if err := probs.Err(); err != nil {
		b.Fatal(err)
	}
	files, err := Render(ctx, col, RenderOptions{BaseURL: "https://logos.example"})
	if err != nil {
		b.Fatal(err)
	}
	return src, col, files
}

func BenchmarkLoad(b *testing.B) {
	fsys := benchSource()
	for b.Loop() {
		if _, probs := Load(context.Background(), fsys, Options{Dir: "src"}); len(probs) > 0 {
			b.Fatal(probs)
		}
	}
}

func BenchmarkValidate(b *testing.B) {
	src, _, _ := benchStages(b)
	for b.Loop() {
		if _, probs := Validate(context.Background(), src, Options{}); probs.Err() != nil {
			b.Fatal(probs)
		}
	}
}

func BenchmarkRender(b *testing.B) {
	_, col, _ := benchStages(b)
	for b.Loop() {
		if _, err := Render(context.Background(), col, RenderOptions{BaseURL: "https://logos.example"}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWriteTree(b *testing.B) {
	_, _, files := benchStages(b)
	out := filepath.Join(b.TempDir(), "dist")
	b.ReportMetric(float64(len(files)), "files/op")
	for b.Loop() {
		if err := WriteTree(context.Background(), out, files); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuildTree is the whole streamed build from a folder, without a
// cache (every logo computed, a new tree each time) and with one (each
// build a no-op, after a first one outside the timing).
func BenchmarkBuildTree(b *testing.B) {
	src := filepath.Join(b.TempDir(), "src")
	if err := os.CopyFS(src, benchSource()); err != nil {
		b.Fatal(err)
	}
	for _, cached := range []bool{false, true} {
		b.Run(fmt.Sprintf("cache=%v", cached), func(b *testing.B) {
			out := filepath.Join(b.TempDir(), "dist")
			opts := TreeOptions{Options: Options{Render: RenderOptions{BaseURL: "https://logos.example"}}}
			if cached {
				opts.CacheFile = DefaultCachePath(out)
				// The first build fills the cache; the loop times no-ops.
				if _, err := BuildTree(context.Background(), os.DirFS(src), out, opts); err != nil {
					b.Fatal(err)
				}
			}
			for b.Loop() {
				if _, err := BuildTree(context.Background(), os.DirFS(src), out, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
