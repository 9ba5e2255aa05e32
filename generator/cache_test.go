package generator

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// buildInto builds src into out, with the cache file at cachePath ("" for
// none), the way cmd/logoindex does.
func buildInto(t *testing.T, src, out, cachePath string) {
	t.Helper()
	var cache *Cache
	if cachePath != "" {
		cache = LoadCache(cachePath)
	}
	res, err := Build(context.Background(), os.DirFS(src), Options{Dir: "src", Cache: cache})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	if err := WriteTreeCached(context.Background(), out, res.Files, cache); err != nil {
		t.Fatal(err)
	}
	if cache != nil {
		if err := cache.Save(cachePath); err != nil {
			t.Fatal(err)
		}
	}
}

func inodes(t *testing.T, dir string) map[string]uint64 {
	t.Helper()
	out := map[string]uint64{}
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out[rel] = info.Sys().(*syscall.Stat_t).Ino
		}
		return err
	})
	return out
}

// TestIncrementalBuildMatchesCleanBuild is the contract of the cache: a
// no-op rebuild touches nothing, a rebuild after a change rewrites only
// what changed, and the output is always byte-identical to a clean build.
func TestIncrementalBuildMatchesCleanBuild(t *testing.T) {
	tmp := t.TempDir()
	src := filepath.Join(tmp, "src")
	if err := os.CopyFS(src, os.DirFS("../source-logos")); err != nil {
		t.Fatal(err)
	}
	out, cachePath := filepath.Join(tmp, "dist"), filepath.Join(tmp, ".dist.cache")

	buildInto(t, src, out, cachePath)
	clean := filepath.Join(tmp, "clean")
	buildInto(t, src, clean, "")
	if diff := cmp.Diff(readTree(t, clean), readTree(t, out)); diff != "" {
		t.Fatalf("cached build differs from a clean build (-clean +cached):\n%s", diff)
	}

	// No-op: nothing is rewritten, not even the swap.
	before := inodes(t, out)
	outInfo, _ := os.Stat(out)
	buildInto(t, src, out, cachePath)
	if diff := cmp.Diff(before, inodes(t, out)); diff != "" {
		t.Errorf("a no-op rebuild rewrote files (-before +after):\n%s", diff)
	}
	if info, _ := os.Stat(out); !os.SameFile(info, outInfo) {
		t.Error("a no-op rebuild swapped the output folder")
	}

	// One logo changes: the new tree equals a clean build of the new
	// source, and the unchanged files are the old inodes (linked).
	icon := filepath.Join(src, "github", "icon.svg")
	b, _ := os.ReadFile(icon)
	os.WriteFile(icon, []byte(strings.Replace(string(b), "<title>", "<desc>changed</desc><title>", 1)), 0o644)
	buildInto(t, src, out, cachePath)
	clean2 := filepath.Join(tmp, "clean2")
	buildInto(t, src, clean2, "")
	if diff := cmp.Diff(readTree(t, clean2), readTree(t, out)); diff != "" {
		t.Fatalf("incremental build differs from a clean build (-clean +incremental):\n%s", diff)
	}
	after := inodes(t, out)
	kept := 0
	for name, ino := range after {
		if before[name] == ino {
			kept++
		}
	}
	t.Logf("%d of %d files kept (linked) after one icon changed", kept, len(after))
	if changed := len(after) - kept; changed == 0 || changed > 10 {
		t.Errorf("%d of %d files rewritten after one icon changed; want the icon and what embeds it", changed, len(after))
	}

	// A file edited by hand in dist/ is noticed and put right.
	page := filepath.Join(out, "api", "logos.json")
	os.WriteFile(page, []byte("tampered"), 0o644)
	buildInto(t, src, out, cachePath)
	if diff := cmp.Diff(readTree(t, clean2), readTree(t, out)); diff != "" {
		t.Errorf("a tampered file survived the rebuild (-clean +got):\n%s", diff)
	}

	// A stray file in dist/ is removed, as a clean build would.
	os.WriteFile(filepath.Join(out, "stray.txt"), []byte("x"), 0o644)
	buildInto(t, src, out, cachePath)
	if _, err := os.Stat(filepath.Join(out, "stray.txt")); !os.IsNotExist(err) {
		t.Error("a stray file survived the rebuild")
	}

	// A corrupt cache file is ignored, not trusted.
	os.WriteFile(cachePath, []byte("garbage"), 0o644)
	buildInto(t, src, out, cachePath)
	if diff := cmp.Diff(readTree(t, clean2), readTree(t, out)); diff != "" {
		t.Errorf("build with a corrupt cache differs (-clean +got):\n%s", diff)
	}
}

// TestCacheKeepsProblemsExact checks that warnings come back from the cache
// unchanged and that an invalid logo is never served from it.
func TestCacheKeepsProblemsExact(t *testing.T) {
	cache := LoadCache(filepath.Join(t.TempDir(), "none"))
	m := testTree()
	m["gitlab/logo.yaml"].Data = []byte(testMeta("GitLab", "#181717"))
	m["gitlab/icon.svg"].Data = []byte(strings.Replace(testIcon, "#FC6D26", "#181717", 1))
	first, err := Build(context.Background(), m, Options{Dir: "src", Cache: cache})
	if err != nil {
		t.Fatal(err)
	}
	second, err := Build(context.Background(), m, Options{Dir: "src", Cache: cache})
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Warnings) != 1 || !cmp.Equal(first.Warnings, second.Warnings) {
		t.Errorf("warnings: first %v, second %v", first.Warnings, second.Warnings)
	}
	m["gitlab/icon.svg"].Data = []byte("<svg")
	if _, err := Build(context.Background(), m, Options{Dir: "src", Cache: cache}); err == nil {
		t.Error("a broken file passed because its logo was cached")
	}
}
