package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator/source"
)

// TestLogoYAMLVia: the logo.yaml of a converted logo names the package
// its files were taken from, as via, in a form the build reads; a logo
// without one has no via key.
func TestLogoYAMLVia(t *testing.T) {
	modules := t.TempDir()
	pkg := filepath.Join(modules, "@lobehub", "icons-static-svg")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name": "@lobehub/icons-static-svg", "version": "1.95.1"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	via, err := npmPackage(modules, "@lobehub/icons-static-svg")
	if err != nil {
		t.Fatal(err)
	}
	l := sourceLogo{Slug: "openai", Name: "OpenAI", Hex: "000000", Categories: []string{"ai"},
		Source: "https://github.com/lobehub/lobe-icons", License: "MIT", Via: via}
	m, probs := source.ParseMeta(&source.File{Path: "logo.yaml", Data: l.yaml()})
	if len(probs) > 0 {
		t.Fatalf("%s\n%s", l.yaml(), probs.Error())
	}
	want := &source.Via{Name: "@lobehub/icons-static-svg", Version: "1.95.1", URL: "https://www.npmjs.com/package/@lobehub/icons-static-svg/v/1.95.1"}
	if diff := cmp.Diff(want, m.Via); diff != "" {
		t.Errorf("via (-want +got):\n%s", diff)
	}
	l.Via = distribution{}
	if m, _ := source.ParseMeta(&source.File{Path: "logo.yaml", Data: l.yaml()}); m.Via != nil {
		t.Errorf("a logo without a distribution has via %+v:\n%s", m.Via, l.yaml())
	}
	if _, err := npmPackage(modules, "devicon"); err == nil {
		t.Error("npmPackage of a package that is not installed: no error")
	}
}
