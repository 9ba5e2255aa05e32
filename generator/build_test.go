package generator

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator/manifest"
	"logoindex/generator/render"
	"logoindex/generator/source"
	"logoindex/internal/testtree"
)

// coreOutput keeps the files of the JSON API, the SVGs and the build
// manifest: the golden output this file tests. Pages and registry items
// have golden tests of their own.
func coreOutput(tree map[string]string) map[string]string {
	return only(tree, func(name string) bool {
		return name == manifest.File || strings.HasPrefix(name, "api/") || strings.HasPrefix(name, "logos/") && strings.HasSuffix(name, ".svg")
	})
}

// TestGolden builds testdata/golden/src and compares the JSON API and SVGs
// with testdata/golden/dist. Run with -update to accept new output, then
// read the diff.
func TestGolden(t *testing.T) {
	tree, res := buildTree(t, os.DirFS("testdata/golden/src"), Options{
		Dir:    "testdata/golden/src",
		Render: render.Options{BaseURL: "https://logos.example.com"},
	})
	checkGolden(t, "testdata/golden/dist", "", coreOutput(tree))
	if len(res.Warnings) > 0 {
		t.Errorf("unexpected warnings:\n%s", res.Warnings.Error())
	}
}

// TestDetailShape decodes the golden output to check the pinned JSON
// shapes independently of the bytes.
func TestDetailShape(t *testing.T) {
	tree, _ := buildTree(t, os.DirFS("testdata/golden/src"), Options{Render: render.Options{BaseURL: "https://cdn.example/x"}})
	files := coreOutput(tree)
	wantFiles := []string{
		manifest.File, "api/logos.json", "api/logos/acme.json", "api/logos/night-owl.json",
		"logos/acme/icon-mono.svg", "logos/acme/icon.svg", "logos/acme/wordmark.svg",
		"logos/night-owl/icon-dark.svg", "logos/night-owl/icon.svg",
	}
	if diff := cmp.Diff(wantFiles, slices.Sorted(maps.Keys(files))); diff != "" {
		t.Errorf("files mismatch (-want +got):\n%s", diff)
	}
	var d render.LogoDetail
	if err := json.Unmarshal([]byte(files["api/logos/acme.json"]), &d); err != nil {
		t.Fatal(err)
	}
	kit := &source.Via{Name: "acme-brand-kit", Version: "2024.1", URL: "https://acme.example/press/brand-kit-2024.1.zip"}
	want := render.LogoDetail{
		LogoCard: render.LogoCard{
			Slug: "acme", Name: "Acme & Co.", Categories: []string{"tools"}, Hex: "#FF5500",
			Page: "https://cdn.example/x/logos/acme/",
			SVG: render.VariantURLs{
				"icon":      "https://cdn.example/x/logos/acme/icon.svg",
				"icon-mono": "https://cdn.example/x/logos/acme/icon-mono.svg",
				"wordmark":  "https://cdn.example/x/logos/acme/wordmark.svg",
			},
		},
		Component: "AcmeLogo",
		Install:   "npx shadcn@latest add https://cdn.example/x/r/acme.json",
		Files: render.VariantFiles{
			"icon":      {Source: "https://acme.example/press", License: "LicenseRef-Acme-Brand", LicenseURL: "https://acme.example/brand-terms", Via: kit},
			"icon-mono": {Source: "https://acme.example/press", License: "LicenseRef-Acme-Brand", LicenseURL: "https://acme.example/brand-terms", Via: kit},
			"wordmark": {Source: "https://github.com/acme/wordmark", License: "MIT",
				Via: &source.Via{Name: "acme-wordmark", Version: "v3.0.1", URL: "https://github.com/acme/wordmark/releases/tag/v3.0.1"}},
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
	// via follows a file's other fields, and is absent where not set.
	if want := `"license_url":"https://acme.example/brand-terms","via":{"name":"acme-brand-kit","version":"2024.1","url":`; !strings.Contains(files["api/logos/acme.json"], want) {
		t.Errorf("acme.json: via is not after license_url as %s: %s", want, files["api/logos/acme.json"])
	}
	if strings.Contains(files["api/logos/night-owl.json"], `"via"`) {
		t.Errorf("night-owl.json has a via, which its logo.yaml does not set: %s", files["api/logos/night-owl.json"])
	}
}

// digestOf is a digest of a whole tree: every name and its bytes.
func digestOf(tree map[string]string) string {
	h := sha256.New()
	for _, name := range slices.Sorted(maps.Keys(tree)) {
		fmt.Fprintf(h, "%q %d\n%s", name, len(tree[name]), tree[name])
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// TestOutputModes builds the golden sources and the shipped collection
// from scratch on one worker, then on eight, with the build log, twice
// (the second from the log), and without it: every tree must be the
// same, byte for byte. The shipped collection builds without a warning.
func TestOutputModes(t *testing.T) {
	for _, src := range []string{"testdata/golden/src", "../source-logos"} {
		base := Options{Render: render.Options{BaseURL: "https://logos.example.com"}}
		ref := base
		ref.Workers, ref.Rebuild = 1, true
		want, res := buildTree(t, os.DirFS(src), ref)
		if len(res.Warnings) > 0 {
			t.Errorf("%s: warnings:\n%s", src, res.Warnings.Error())
		}
		out := filepath.Join(t.TempDir(), "dist")
		for _, mode := range []struct {
			name    string
			workers int
			rebuild bool
		}{{"cache, 8 workers", 8, false}, {"from the cache", 8, false}, {"no cache, 8 workers", 8, true}, {"cache, 1 worker", 1, false}} {
			opts := base
			opts.Out, opts.Workers, opts.Rebuild = out, mode.workers, mode.rebuild
			got, _ := buildTree(t, os.DirFS(src), opts)
			if digestOf(got) != digestOf(want) {
				t.Errorf("%s, %s: the tree differs from a build from scratch on one worker:\n%s", src, mode.name, cmp.Diff(want, got))
			}
		}
	}
}

// TestInvalidWritesNothing breaks a logo of a built tree: the build fails
// with its problems and the tree is as it was.
func TestInvalidWritesNothing(t *testing.T) {
	src := testtree.Sources()
	out := filepath.Join(t.TempDir(), "dist")
	want, _ := buildTree(t, src, Options{Out: out})
	src["gitlab/icon.svg"] = &fstest.MapFile{Data: []byte("<svg>")}
	src["gitea/logo.yaml"] = &fstest.MapFile{Data: []byte(testtree.Meta("Gitea 2", "#FC6D26"))}
	res, err := Build(context.Background(), src, Options{Out: out})
	var probs ProblemList
	if !errors.As(err, &probs) || res != nil {
		t.Fatalf("Build of an invalid tree: res %v, err %v; want only problems", res, err)
	}
	if diff := cmp.Diff(want, testtree.ReadFiles(t, out)); diff != "" {
		t.Errorf("the output changed (-before +after):\n%s", diff)
	}
}

func TestBuildCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Build(ctx, testtree.Sources(), Options{}); err != context.Canceled {
		t.Errorf("Build with a cancelled context: %v, want context.Canceled", err)
	}
}

func TestRootRelative(t *testing.T) {
	files, _ := buildTree(t, testtree.Sources(), Options{})
	if !strings.Contains(files["api/logos.json"], `"page":"/logos/gitea/"`) {
		t.Errorf("an empty base URL must give root-relative links: %s", files["api/logos.json"])
	}
	if !strings.Contains(files["api/logos/gitea.json"], `"icon":"/logos/gitea/icon.svg"`) {
		t.Errorf("detail SVG URLs must be root-relative: %s", files["api/logos/gitea.json"])
	}
}

// TestSlugClashesWithOutput: the slug "registry" gives the registry item
// r/registry.json, the registry index's path. Derived from the rendered
// outputs, the clash is a problem of the logo, naming both.
func TestSlugClashesWithOutput(t *testing.T) {
	m := testtree.Sources()
	m["registry/logo.yaml"] = &fstest.MapFile{Data: []byte(testtree.Meta("Registry", "#FC6D26"))}
	m["registry/icon.svg"] = &fstest.MapFile{Data: []byte(testtree.Icon)}
	got := buildProblems(t, m)
	want := "[slug-collision] src/registry: slug \"registry\" would write r/registry.json, which collides with the collection's r/registry.json; rename the folder\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if why := ReservedSlug("registry"); why != "it would write r/registry.json, which the build writes for the collection" {
		t.Errorf("ReservedSlug(registry) = %q", why)
	}
	if why := ReservedSlug("github"); why != "" {
		t.Errorf("ReservedSlug(github) = %q, want none", why)
	}
}
