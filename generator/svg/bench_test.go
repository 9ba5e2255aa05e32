package svg

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusFiles reads the icon.svg of every logo of simple-icons as `make
// bench` converts it (bench/README.md): 3,470 files, enough to profile.
func corpusFiles(b *testing.B) (srcs [][]byte, size int64) {
	b.Helper()
	base := os.Getenv("XDG_CACHE_HOME")
	if base == "" {
		home, _ := os.UserHomeDir()
		base = filepath.Join(home, ".cache")
	}
	paths, _ := filepath.Glob(filepath.Join(base, "logoindex-bench/corpus/simple-icons/source-logos/*/icon.svg"))
	if len(paths) == 0 {
		b.Skip("no simple-icons corpus: run `make bench` once to convert it")
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		srcs, size = append(srcs, src), size+int64(len(src))
	}
	return srcs, size
}

// benchFiles reads the shipped collection: 265 files, icons from
// simple-icons and wordmarks from devicon.
func benchFiles(b *testing.B) (srcs [][]byte, mono []bool, size int64) {
	b.Helper()
	paths, _ := filepath.Glob("../../source-logos/*/*.svg")
	if len(paths) == 0 {
		b.Skip("no source-logos")
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		srcs, mono, size = append(srcs, src), append(mono, strings.HasSuffix(p, "icon-mono.svg")), size+int64(len(src))
	}
	return srcs, mono, size
}

func BenchmarkParse(b *testing.B) {
	srcs, _, size := benchFiles(b)
	b.SetBytes(size)
	for b.Loop() {
		for _, src := range srcs {
			if d, probs := Parse("x.svg", src); d == nil {
				b.Fatal(probs)
			}
		}
	}
}

// BenchmarkCheck is Parse and Check of every file, what a build does to
// each source.
func BenchmarkCheck(b *testing.B) {
	srcs, mono, size := benchFiles(b)
	b.SetBytes(size)
	for b.Loop() {
		for i, src := range srcs {
			d, _ := Parse("x.svg", src)
			if _, probs := Check(d, Rules{Mono: mono[i]}); probs.Err() != nil {
				b.Fatal(probs)
			}
		}
	}
}

// BenchmarkOptimise is Optimise of every file: the parse and check of the
// source, the minifier, the parse of its output, rounding and ids, and the
// re-check of the result.
func BenchmarkOptimise(b *testing.B) {
	srcs, mono, size := benchFiles(b)
	b.SetBytes(size)
	for b.Loop() {
		for i, src := range srcs {
			if _, err := Optimise(src, Options{Rules: Rules{Mono: mono[i]}, Title: "Logo", IDPrefix: "logo-icon-"}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkOptimiseCorpus is Optimise of the icons of simple-icons, the
// largest corpus of `make bench`.
func BenchmarkOptimiseCorpus(b *testing.B) {
	srcs, size := corpusFiles(b)
	b.SetBytes(size)
	for b.Loop() {
		for _, src := range srcs {
			if _, err := Optimise(src, Options{Title: "Logo", IDPrefix: "logo-icon-"}); err != nil {
				b.Fatal(err)
			}
		}
	}
}
