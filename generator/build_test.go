package generator

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"unsafe"

	"logoindex/internal/testtree"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files with the current output")

// coreOutput keeps the files of the JSON API, the SVGs and the build
// manifest: the stages this file tests. Pages and registry items have
// golden tests of their own.
func coreOutput(files []OutFile) map[string]string {
	out := map[string]string{}
	for _, f := range files {
		if f.Name == ManifestFile || strings.HasPrefix(f.Name, "api/") || strings.HasPrefix(f.Name, "logos/") && strings.HasSuffix(f.Name, ".svg") {
			out[f.Name] = string(f.Data)
		}
	}
	return out
}

func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkGolden compares got, whose names are relative to dir, with the
// files under dir/sub, or with -update replaces those files with got.
func checkGolden(t *testing.T, dir, sub string, got map[string]string) {
	t.Helper()
	root := filepath.Join(dir, sub)
	if *update {
		os.RemoveAll(root)
		testtree.Write(t, dir, got)
	}
	want := map[string]string{}
	for name, data := range readTree(t, root) {
		want[path.Join(sub, name)] = data
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("output differs from %s (-want +got); run go test ./generator -run '^%s$' -update to accept, then read the diff:\n%s", root, t.Name(), diff)
	}
}

// TestGolden builds testdata/golden/src and compares the JSON API and SVGs
// with testdata/golden/dist. Run with -update to accept new output, then
// read the diff.
func TestGolden(t *testing.T) {
	res, err := Build(context.Background(), os.DirFS("testdata/golden/src"), Options{
		Dir:    "testdata/golden/src",
		Render: RenderOptions{BaseURL: "https://logos.example.com"},
	})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	checkGolden(t, "testdata/golden/dist", "", coreOutput(res.Files))
	if len(res.Warnings) > 0 {
		t.Errorf("unexpected warnings:\n%s", res.Warnings.Error())
	}
}

// TestDetailShape decodes the golden output to check the pinned JSON
// shapes independently of the bytes.
func TestDetailShape(t *testing.T) {
	res, err := Build(context.Background(), os.DirFS("testdata/golden/src"), Options{Render: RenderOptions{BaseURL: "https://cdn.example/x"}})
	if err != nil {
		t.Fatal(err)
	}
	files := coreOutput(res.Files)
	var keys []string
	for k := range files {
		keys = append(keys, k)
	}
	wantFiles := []string{
		ManifestFile, "api/logos.json", "api/logos/acme.json", "api/logos/night-owl.json",
		"logos/acme/icon-mono.svg", "logos/acme/icon.svg", "logos/acme/wordmark.svg",
		"logos/night-owl/icon-dark.svg", "logos/night-owl/icon.svg",
	}
	if diff := cmp.Diff(wantFiles, slices.Sorted(maps.Keys(files))); diff != "" {
		t.Errorf("files mismatch (-want +got):\n%s", diff)
	}
	var d LogoDetail
	if err := json.Unmarshal([]byte(files["api/logos/acme.json"]), &d); err != nil {
		t.Fatal(err)
	}
	want := LogoDetail{
		LogoCard: LogoCard{
			Slug: "acme", Name: "Acme & Co.", Categories: []string{"tools"}, Hex: "#FF5500",
			Page: "https://cdn.example/x/logos/acme/",
			SVG: VariantURLs{
				"icon":      "https://cdn.example/x/logos/acme/icon.svg",
				"icon-mono": "https://cdn.example/x/logos/acme/icon-mono.svg",
				"wordmark":  "https://cdn.example/x/logos/acme/wordmark.svg",
			},
		},
		Component: "AcmeLogo",
		Install:   "npx shadcn@latest add https://cdn.example/x/r/acme.json",
		Files: VariantFiles{
			"icon":      {Source: "https://acme.example/press", License: "LicenseRef-Acme-Brand", LicenseURL: "https://acme.example/brand-terms"},
			"icon-mono": {Source: "https://acme.example/press", License: "LicenseRef-Acme-Brand", LicenseURL: "https://acme.example/brand-terms"},
			"wordmark":  {Source: "https://github.com/acme/wordmark", License: "MIT"},
		},
		Aliases:    []string{"Acme", "ACME Corp"},
		Guidelines: "https://acme.example/brand",
	}
	if diff := cmp.Diff(want, d); diff != "" {
		t.Errorf("detail mismatch (-want +got):\n%s", diff)
	}
	// Key order is part of the contract: icon first, as the spec lists them.
	if !strings.Contains(files["api/logos/night-owl.json"], `"svg":{"icon":"https://cdn.example/x/logos/night-owl/icon.svg","icon-dark":`) {
		t.Errorf("svg keys not in variant order: %s", files["api/logos/night-owl.json"])
	}
}

// TestBuildDeterministic builds the shipped collection twice, with
// different worker counts, and wants the same bytes.
func TestBuildDeterministic(t *testing.T) {
	src := os.DirFS("../source-logos")
	a, err := Build(context.Background(), src, Options{Workers: 1})
	if err != nil {
		t.Fatalf("the shipped collection must build: %v", err)
	}
	b, err := Build(context.Background(), src, Options{Workers: 8})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Files) == 0 {
		t.Fatal("no output")
	}
	if diff := cmp.Diff(a.Files, b.Files); diff != "" {
		t.Errorf("two builds differ (-first +second):\n%s", diff)
	}
	if len(a.Warnings) > 0 {
		t.Errorf("the shipped collection must build without warnings (check -strict):\n%s", a.Warnings.Error())
	}
}

func TestWriteTreeReplacesAtomically(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "dist")
	first := []OutFile{{Name: "api/logos.json", Data: []byte("{}\n")}, {Name: "logos/a/icon.svg", Data: []byte("<svg/>")}}
	if err := WriteTree(context.Background(), out, first); err != nil {
		t.Fatal(err)
	}
	second := []OutFile{{Name: "api/logos.json", Data: []byte(`{"v":2}` + "\n")}, {Name: "logos/b/icon.svg", Data: []byte("<svg/>")}}
	if err := WriteTree(context.Background(), out, second); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"api/logos.json": `{"v":2}` + "\n", "logos/b/icon.svg": "<svg/>"}
	if diff := cmp.Diff(want, readTree(t, out)); diff != "" {
		t.Errorf("tree mismatch (-want +got); stale files must go:\n%s", diff)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if diff := cmp.Diff([]string{".dist.lock", "dist"}, names); diff != "" {
		t.Errorf("leftovers beside the output (-want +got):\n%s", diff)
	}
	info, err := os.Stat(out)
	if err != nil || info.Mode().Perm() != 0o755 {
		t.Errorf("output folder mode = %v, %v; want 0755 so a web server can read it", info.Mode().Perm(), err)
	}
}

func TestWriteTreeCleansLeftovers(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "dist")
	if err := WriteTree(context.Background(), out, []OutFile{{Name: "api/logos.json", Data: []byte("old")}}); err != nil {
		t.Fatal(err)
	}
	// What a build killed while writing leaves behind.
	stale := filepath.Join(dir, ".dist-tmp-123")
	os.MkdirAll(filepath.Join(stale, "api"), 0o755)
	os.WriteFile(filepath.Join(stale, "api", "logos.json"), []byte("half"), 0o644)
	if err := WriteTree(context.Background(), out, []OutFile{{Name: "api/logos.json", Data: []byte("new")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale temporary folder survived: %v", err)
	}
	if got := readTree(t, out); got["api/logos.json"] != "new" {
		t.Errorf("got %v", got)
	}
}

func TestWriteTreeRestoresAfterCrashBetweenRenames(t *testing.T) {
	// Without an atomic exchange, a crash between the two renames leaves
	// the old tree under .dist-old-*; the next build must put it back before
	// anything else, so that dist/ is never lost.
	dir := t.TempDir()
	old := filepath.Join(dir, ".dist-old-42")
	os.MkdirAll(filepath.Join(old, "api"), 0o755)
	os.WriteFile(filepath.Join(old, "api", "logos.json"), []byte("old"), 0o644)
	if err := cleanLeftovers(dir, "dist"); err != nil {
		t.Fatal(err)
	}
	if got := readTree(t, filepath.Join(dir, "dist")); got["api/logos.json"] != "old" {
		t.Errorf("old tree not restored: %v", got)
	}
}

func TestWriteTreeRefusesForeignFolders(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "thesis.tex"), []byte("years of work"), 0o644)
	err := WriteTree(context.Background(), dir, []OutFile{{Name: "api/logos.json", Data: []byte("{}")}})
	if err == nil || !strings.Contains(err.Error(), "refusing to replace") {
		t.Fatalf("WriteTree over a non-output folder: err = %v, want a refusal", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "thesis.tex")); string(b) != "years of work" {
		t.Error("the folder was touched")
	}
	for _, bad := range []string{".", "/", ".."} {
		if err := WriteTree(context.Background(), bad, nil); err == nil {
			t.Errorf("WriteTree(%q) must refuse", bad)
		}
	}
}

func TestBuildInvalidWritesNothing(t *testing.T) {
	m := testTree()
	m["gitlab/icon.svg"] = &fstest.MapFile{Data: []byte("<svg>")}
	res, err := Build(context.Background(), m, Options{Dir: "src"})
	if err == nil || res != nil {
		t.Fatalf("Build of an invalid tree: res %v, err %v; want only an error", res, err)
	}
}

func TestBuildCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Build(ctx, testTree(), Options{}); err != context.Canceled {
		t.Errorf("Build with a cancelled context: %v, want context.Canceled", err)
	}
}

func TestRenderRootRelative(t *testing.T) {
	res, err := Build(context.Background(), testTree(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	files := coreOutput(res.Files)
	if !strings.Contains(files["api/logos.json"], `"page":"/logos/gitea/"`) {
		t.Errorf("an empty base URL must give root-relative links: %s", files["api/logos.json"])
	}
	if !strings.Contains(files["api/logos/gitea.json"], `"icon":"/logos/gitea/icon.svg"`) {
		t.Errorf("detail SVG URLs must be root-relative: %s", files["api/logos/gitea.json"])
	}
}

// TestWriteTreeRefusesClashingOutputs: two outputs with one path would be
// written in parallel, one over the other. The writer refuses them before
// it writes anything.
func TestWriteTreeRefusesClashingOutputs(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files []OutFile
		want  string
	}{
		{"one name twice", []OutFile{
			{Name: "api/logos.json", Data: []byte("{}")},
			{Name: "r/registry.json", Data: []byte("index")},
			{Name: "r/registry.json", Data: []byte("item"), Logo: "registry"},
		}, "internal error: two outputs are named r/registry.json"},
		{"a file and a folder", []OutFile{
			{Name: "api/logos.json", Data: []byte("{}")},
			{Name: "logos/x", Data: []byte("file")},
			{Name: "logos/x/icon.svg", Data: []byte("<svg/>")},
		}, "internal error: output logos/x is also a folder of logos/x/icon.svg"},
		{"not a clean path", []OutFile{{Name: "../escape", Data: []byte("x")}},
			`internal error: output name "../escape" is not a clean relative path`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			err := WriteTree(context.Background(), filepath.Join(parent, "dist"), tc.files)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if entries, _ := os.ReadDir(parent); len(entries) > 0 {
				t.Errorf("wrote %s before refusing", entries[0].Name())
			}
		})
	}
}

// TestSlugClashesWithOutput: the slug "registry" gives the registry item
// r/registry.json, the registry index's path. Derived from the rendered
// outputs, the clash is a problem of the logo, naming both.
func TestSlugClashesWithOutput(t *testing.T) {
	m := testTree()
	m["registry/logo.yaml"] = &fstest.MapFile{Data: []byte(testMeta("Registry", "#FC6D26"))}
	m["registry/icon.svg"] = &fstest.MapFile{Data: []byte(testIcon)}
	_, err := Build(context.Background(), m, Options{Dir: "src"})
	want := []string{`src/registry: slug "registry" would write r/registry.json, which collides with the collection's r/registry.json; rename the folder`}
	var probs ProblemList
	if !errors.As(err, &probs) {
		t.Fatalf("Build: %v, want problems", err)
	}
	if diff := cmp.Diff(want, problemStrings(probs)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestSharedVariants: summaries with the same variants share one list,
// equal to theirs; a list with a name that is no variant (a cache file
// could hold one) is returned as it is, not kept.
func TestSharedVariants(t *testing.T) {
	a := sharedVariants([]string{"icon", "wordmark"})
	b := sharedVariants([]string{"icon", "wordmark"})
	if diff := cmp.Diff([]string{"icon", "wordmark"}, a); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if &a[0] != &b[0] {
		t.Error("two lists of the same variants are not shared")
	}
	if c := sharedVariants([]string{"icon"}); len(c) != 1 || &c[0] == &a[0] {
		t.Errorf("sharedVariants([icon]) = %q, shared with [icon wordmark]", c)
	}
	odd := []string{"icon", "logo"}
	if got := sharedVariants(odd); &got[0] != &odd[0] {
		t.Error("a list with an unknown name was replaced")
	}
	if _, kept := variantLists.Load("icon logo"); kept {
		t.Error("a list with an unknown name was kept")
	}

	// A decoded cache's names point into the file's bytes: nothing kept
	// may, or the file would stay in memory (and a spill's buffer is
	// reused). One name joined is that name, uncopied.
	buf := []byte("icon-mono")
	sharedVariants([]string{unsafe.String(&buf[0], len(buf))})
	inBuf := func(s string) bool {
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		start := uintptr(unsafe.Pointer(&buf[0]))
		return len(s) > 0 && p >= start && p < start+uintptr(len(buf))
	}
	variantLists.Range(func(k, v any) bool {
		if inBuf(k.(string)) || slices.ContainsFunc(v.([]string), inBuf) {
			t.Errorf("the kept list %q points into the bytes it was read from", k)
		}
		return true
	})
}
