package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"logoindex/internal/testtree"
)

// TestNewScaffoldFillCheckBuild follows the README's contributor steps.
func TestNewScaffoldFillCheckBuild(t *testing.T) {
	dir := inTempDir(t, goodSource())
	code, stdout, stderr := runCmd("new", "acme-corp", "-name", "Acme Corp", "-hex", "ff5500", "-category", "devtools")
	if code != 0 {
		t.Fatalf("new: exit %d, stderr %s", code, stderr)
	}
	if !strings.Contains(stdout, "created source-logos/acme-corp/logo.yaml") {
		t.Errorf("stdout %q", stdout)
	}
	data, err := os.ReadFile(filepath.Join(dir, "source-logos/acme-corp/logo.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# yaml-language-server: $schema=../../generator/schema/logo.schema.json",
		`name: "Acme Corp"`, `hex: "#FF5500"`, "categories: [devtools]", `source: ""`, `license: ""`,
		"# via: {name: simple-icons, version: 16.37.0, url: https://github.com/simple-icons/simple-icons}",
		"# guidelines:", "# aliases:", "# files:", "# component: AcmeCorpIcon", "# install:",
	} {
		if !strings.Contains(string(data), want) {
			t.Errorf("scaffold lacks %q:\n%s", want, data)
		}
	}

	// Unfilled, check names exactly what is left to do.
	testtree.Write(t, dir, map[string]string{"source-logos/acme-corp/icon.svg": icon})
	code, _, stderr = runCmd("check")
	if code != 1 || !strings.Contains(stderr, "source-logos/acme-corp/logo.yaml:11:9: source is empty; it is required: give it a value") ||
		!strings.Contains(stderr, "source-logos/acme-corp/logo.yaml:13:10: license is empty; it is required: give it a value") {
		t.Errorf("check of the scaffold: exit %d, stderr:\n%s", code, stderr)
	}

	// Filled in, with the commented via as it is, it builds.
	filled := strings.Replace(string(data), `source: ""`, "source: https://acme.example/press", 1)
	filled = strings.Replace(filled, `license: ""`, "license: CC0-1.0", 1)
	filled = strings.Replace(filled, "\n# via: ", "\nvia: ", 1)
	testtree.Write(t, dir, map[string]string{
		"source-logos/acme-corp/logo.yaml": filled,
		"source-logos/acme-corp/icon.svg":  strings.Replace(icon, "#FC6D26", "#FF5500", 1),
	})
	if code, _, stderr := runCmd("check", "-strict"); code != 0 {
		t.Fatalf("check after filling in: exit %d, stderr:\n%s", code, stderr)
	}
	if code, stdout, stderr := runCmd("build"); code != 0 || !strings.HasPrefix(stdout, "built 2 logos") {
		t.Fatalf("build: exit %d, %s %s", code, stdout, stderr)
	}
	detail, err := os.ReadFile(filepath.Join(dir, "dist/api/logos/acme-corp.json"))
	if want := `"via":{"name":"simple-icons","version":"16.37.0","url":"https://github.com/simple-icons/simple-icons"}`; err != nil || !strings.Contains(string(detail), want) {
		t.Errorf("the detail JSON lacks %s: %v\n%s", want, err, detail)
	}
}

// TestNewNextSteps: the steps printed after new ask only for what the
// flags did not give.
func TestNewNextSteps(t *testing.T) {
	inTempDir(t, goodSource())
	for _, tc := range []struct {
		slug  string
		flags []string
		want  string // the second step
	}{
		{"one", nil, "  2. fill in source and license in source-logos/one/logo.yaml\n"},
		{"two", []string{"-source", "https://two.example/press"}, "  2. fill in license in source-logos/two/logo.yaml\n"},
		{"three", []string{"-source", "https://three.example/press", "-license", "CC0-1.0"}, "  2. make check\n"},
	} {
		args := append([]string{"new", tc.slug, "-name", "X", "-hex", "#FC6D26", "-category", "devtools"}, tc.flags...)
		code, stdout, stderr := runCmd(args...)
		want := "created source-logos/" + tc.slug + "/logo.yaml\nnext:\n" +
			"  1. add source-logos/" + tc.slug + `/icon.svg (required, in the brand colour) and icon-mono.svg (fill="currentColor")` + "\n" + tc.want
		if code != 0 || !strings.HasPrefix(stdout, want) || stderr != "" {
			t.Errorf("new %s %q: exit %d, stdout:\n%s\nwant it to start:\n%s\nstderr: %s", tc.slug, tc.flags, code, stdout, want, stderr)
		}
	}
}

func TestNewRefuses(t *testing.T) {
	inTempDir(t, goodSource())
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"new", "gitlab", "-name", "GitLab", "-hex", "#FC6D26", "-category", "devtools"}, "logoindex: source-logos/gitlab already exists; edit its logo.yaml instead"},
		{[]string{"new", "Acme", "-name", "Acme", "-hex", "#FC6D26", "-category", "devtools"}, `logoindex: "Acme" is not a valid slug: use lower-case letters a-z, digits and single hyphens, at most 64 characters, for example "acme"` + "\n"},
		{[]string{"new", "Bad_Slug", "-name", "Bad", "-hex", "#FC6D26", "-category", "devtools"}, `logoindex: "Bad_Slug" is not a valid slug: use lower-case letters a-z, digits and single hyphens, at most 64 characters, for example "bad-slug"` + "\n"},
		{[]string{"new", "__", "-name", "Bad", "-hex", "#FC6D26", "-category", "devtools"}, `logoindex: "__" is not a valid slug: use lower-case letters a-z, digits and single hyphens, at most 64 characters` + "\n"},
		{[]string{"new", "registry", "-name", "Registry", "-hex", "#FC6D26", "-category", "devtools"}, `logoindex: the slug "registry" is reserved (it would write r/registry.json, which the build writes for the collection); choose another` + "\n"},
		{[]string{"new", "acme", "-name", "Acme", "-hex", "#FC6D2", "-category", "devtools"}, `logoindex: hex "#FC6D2" is not a colour`},
		{[]string{"new", "acme", "-name", "Acme", "-hex", "#FC6D26", "-category", "tools"}, `logoindex: unknown category "tools"; the categories are devtools` + "\n"},
		{[]string{"new", "acme", "-name", "Acme", "-hex", "#FC6D26", "-category", "devtool"}, `logoindex: unknown category "devtool"; did you mean "devtools"? the categories are devtools` + "\n"},
	} {
		code, _, stderr := runCmd(tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "logoindex:") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
	if _, err := os.Stat("source-logos/acme"); !os.IsNotExist(err) {
		t.Errorf("a refused new must create nothing: %v", err)
	}
}
