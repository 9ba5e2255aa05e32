package generator

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"logoindex/generator/render"
)

// incBenchLogos is the size of the generated collection BenchmarkBuild
// builds.
const incBenchLogos = 1000

// incBenchMeta is the logo.yaml of generated logo i, named name.
func incBenchMeta(i int, name string) []byte {
	return fmt.Appendf(nil, "name: %s\nhex: \"#%06X\"\ncategories: [tools]\nsource: https://brand%d.example/press\nlicense: CC0-1.0\naliases: [B%d]\n",
		name, incBenchHex(i), i, i)
}

func incBenchHex(i int) int { return (i * 7919) % 0x1000000 & 0x7F7F7F }

// incBenchIcon is the icon.svg of generated logo i, whose shape moves
// with k.
func incBenchIcon(i int, k float64) []byte {
	return fmt.Appendf(nil, `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24">
  <title>Brand %d</title>
  <path fill="#%06X" d="M 12.000 2.000 C 6.477 2.000 2.000 6.477 2.000 12.000 C 2.000 17.523 6.477 22.000 12.000 22.000 C 17.523 22.000 22.000 17.523 22.000 12.000 C 22.000 6.477 17.523 2.000 12.000 2.000 Z M %.3f 7.000 L 17.000 %.3f L 12.000 17.000 L 7.000 12.000 Z"/>
</svg>
`, i, incBenchHex(i), 12+k/10, 12-k/10)
}

// incBenchFiles is a generated collection of incBenchLogos logos, each
// with an icon, a mono icon and a wordmark whose shapes differ from logo
// to logo, so that no build can share work between them.
var incBenchFiles = sync.OnceValue(func() map[string][]byte {
	files := map[string][]byte{"categories.yaml": []byte("- {slug: tools, name: Tools}\n- {slug: social, name: Social}\n")}
	for i := range incBenchLogos {
		slug := fmt.Sprintf("brand-%04d", i)
		k := float64(i%97) / 10
		files[slug+"/logo.yaml"] = incBenchMeta(i, fmt.Sprint("Brand ", i))
		files[slug+"/icon.svg"] = incBenchIcon(i, k)
		files[slug+"/icon-mono.svg"] = fmt.Appendf(nil,
			`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="currentColor"><path d="M2 2h20v20H2z M%.2f 6h4v4h-4z"/></svg>`, 6+k)
		files[slug+"/wordmark.svg"] = fmt.Appendf(nil,
			`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 24"><g fill="#%06X"><rect x="0" y="2" width="%.1f" height="20" rx="3"/><circle cx="60" cy="12" r="%.2f"/><path d="M80 2l10 20 10-20z"/></g></svg>`,
			incBenchHex(i), 40+k, 8+k/10)
	}
	return files
})

// incBenchSource writes the generated collection to a new folder.
func incBenchSource(b *testing.B) string {
	b.Helper()
	src := filepath.Join(b.TempDir(), "src")
	for name, data := range incBenchFiles() {
		incWriteFile(b, filepath.Join(src, filepath.FromSlash(name)), data)
	}
	return src
}

// incWriteFile writes name, with its folders.
func incWriteFile(tb testing.TB, name string, data []byte) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkBuild builds a generated collection of 1,000 logos into a
// folder on disk: from scratch (Rebuild: every logo made and every file
// written), with nothing to do, and after an edit of one logo's artwork
// or of its name (which changes the collection's files too). Each
// iteration of an edit is a new edit.
func BenchmarkBuild(b *testing.B) {
	for _, bc := range []struct {
		name string
		edit func(b *testing.B, src string, n int) // before build n of the loop
		// opts changes the loop's builds; check tells a wrong one.
		opts  func(o *Options)
		check func(res *Result) bool
	}{
		{"clean", nil, func(o *Options) { o.Rebuild = true }, func(res *Result) bool { return res.Computed == incBenchLogos }},
		{"noop", nil, nil, func(res *Result) bool { return res.UpToDate }},
		{"artwork", func(b *testing.B, src string, n int) {
			incWriteFile(b, filepath.Join(src, "brand-0000/icon.svg"), incBenchIcon(0, 100+float64(n)))
		}, nil, func(res *Result) bool { return res.Computed == 1 && !res.UpToDate }},
		{"name", func(b *testing.B, src string, n int) {
			incWriteFile(b, filepath.Join(src, "brand-0000/logo.yaml"), incBenchMeta(0, fmt.Sprint("Brand 0, take ", n)))
		}, nil, func(res *Result) bool { return res.Computed == 1 && !res.UpToDate }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			src := incBenchSource(b)
			opts := Options{Dir: "src", Out: filepath.Join(b.TempDir(), "dist"), Render: render.Options{BaseURL: "https://logos.example"}}
			// Two builds first, outside the timing: the log, the live
			// tree and its standby.
			for range 2 {
				if _, err := Build(context.Background(), os.DirFS(src), opts); err != nil {
					b.Fatal(err)
				}
			}
			if bc.opts != nil {
				bc.opts(&opts)
			}
			n := 0
			for b.Loop() {
				if bc.edit != nil {
					bc.edit(b, src, n)
				}
				res, err := Build(context.Background(), os.DirFS(src), opts)
				if err != nil {
					b.Fatal(err)
				}
				if !bc.check(res) {
					b.Fatalf("build %d: %+v is not a %s build", n, res, bc.name)
				}
				n++
			}
		})
	}
}
