package check_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator"
	"logoindex/generator/check"
	"logoindex/generator/problem"
	"logoindex/generator/render"
	"logoindex/generator/source"
	"logoindex/generator/svg"
	"logoindex/internal/testtree"
)

// problemStrings is each problem as a user reads it, after its code in
// brackets.
func problemStrings(l problem.List) []string {
	var out []string
	for _, p := range l {
		out = append(out, fmt.Sprintf("[%s] %s", p.Code, p.Error()))
	}
	return out
}

// checkAll reads every logo of fsys as a build does and checks each on its
// own. It returns the logos that passed, by slug, and every problem,
// sorted.
func checkAll(t *testing.T, fsys fs.FS, dir string) (map[string]*check.Logo, problem.List) {
	t.Helper()
	r := source.New(fsys, source.Options{Dir: dir})
	defer r.Close()
	top, probs := r.Scan(context.Background())
	cats := check.NewCategories(top.Categories)
	probs = append(probs, cats.Problems...)
	logos := map[string]*check.Logo{}
	for _, slug := range top.Slugs {
		l, p := check.Check(r.Logo(slug, &probs), cats)
		probs = append(probs, p...)
		if l != nil {
			logos[slug] = l
		} else if len(p.Errors()) == 0 && len(probs.Errors()) == 0 {
			t.Errorf("%s failed its checks without an error: %v", slug, p)
		}
	}
	probs.Sort()
	return logos, probs
}

// buildProblems checks fsys as a whole build does, writing nothing, and
// returns its problems: the errors when it fails, else the warnings.
func buildProblems(t *testing.T, fsys fs.FS) []string {
	t.Helper()
	res, err := generator.Build(context.Background(), fsys, generator.Options{Dir: "src"})
	var probs problem.List
	switch {
	case err == nil:
		return problemStrings(res.Warnings)
	case errors.As(err, &probs):
		return problemStrings(probs)
	}
	t.Fatalf("Build: %v", err)
	return nil
}

const (
	dark          = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="#181717"><path d="M0 0h24v24H0z"/></svg>`
	light         = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="#FFFFFF"><path d="M0 0h24v24H0z"/></svg>`
	wordmarkBlack = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 24"><path fill="#FC6D26" d="M0 0h24v24H0z"/><text x="30" y="20">GitLab</text></svg>`
)

// TestCheckRules covers the checks of one logo that need more than one
// file: categories, file overrides and the dark-background warnings.
func TestCheckRules(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(fstest.MapFS)
		want   []string
	}{
		{"valid tree", func(fstest.MapFS) {}, nil},
		{"unknown category", func(m fstest.MapFS) {
			m["gitlab/logo.yaml"].Data = []byte(strings.Replace(testtree.Meta("GitLab", "#FC6D26"), "[devtools]", "[devtools, dev-tools]", 1))
		}, []string{`[category-unknown] src/gitlab/logo.yaml:3:24: unknown category "dev-tools"; did you mean "devtools"? Use a slug from categories.yaml or add the category there`}},
		{"unknown category far from any", func(m fstest.MapFS) {
			m["gitlab/logo.yaml"].Data = []byte(strings.Replace(testtree.Meta("GitLab", "#FC6D26"), "[devtools]", "[devtools, games]", 1))
		}, []string{`[category-unknown] src/gitlab/logo.yaml:3:24: unknown category "games"; use a slug from categories.yaml or add the category there`}},
		{"override for a missing file", func(m fstest.MapFS) {
			m["gitlab/logo.yaml"].Data = []byte(testtree.Meta("GitLab", "#FC6D26") + "files:\n  wordmark: {license: MIT}\n")
		}, []string{"[files-unused] src/gitlab/logo.yaml:7:3: files.wordmark describes wordmark.svg, which this logo does not have; add the file or remove the entry"}},
		{"a variant glob that matches none of the files", func(m fstest.MapFS) {
			m["gitlab/logo.yaml"].Data = []byte(testtree.Meta("GitLab", "#FC6D26") + "files:\n  wordmark*: {license: MIT}\n")
		}, []string{"[files-unused] src/gitlab/logo.yaml:7:3: files.wordmark* matches none of this logo's files (it has icon.svg, icon-mono.svg); add the file or remove the entry"}},
		{"two keys describe one variant", func(m fstest.MapFS) {
			m["gitlab/logo.yaml"].Data = []byte(testtree.Meta("GitLab", "#FC6D26") + "files:\n  icon*: {license: MIT}\n  icon-mono: {license: MIT}\n  \"{icon,wordmark}\": {license: MIT}\n")
		}, []string{
			"[value-duplicate] src/gitlab/logo.yaml:8:3: files.icon* and files.icon-mono both describe icon-mono.svg; keep one entry for each file",
			"[value-duplicate] src/gitlab/logo.yaml:9:3: files.icon* and files.{icon,wordmark} both describe icon.svg; keep one entry for each file",
		}},
		{"dark brand colour without icon-dark", func(m fstest.MapFS) {
			m["gitlab/logo.yaml"].Data = []byte(testtree.Meta("GitLab", "#181717"))
			m["gitlab/icon.svg"].Data = []byte(dark)
		}, []string{"[contrast-low] src/gitlab/logo.yaml:2:6: warning: brand colour #181717 has a contrast ratio of 1.06:1 against a dark page (#0D1117), below 3:1; add icon-dark.svg, a variant that reads on dark backgrounds"}},
		{"dark brand colour with icon-dark", func(m fstest.MapFS) {
			m["gitlab/logo.yaml"].Data = []byte(testtree.Meta("GitLab", "#181717"))
			m["gitlab/icon.svg"].Data = []byte(dark)
			m["gitlab/icon-dark.svg"] = &fstest.MapFile{Data: []byte(light)}
		}, nil},
		{"wordmark black text without wordmark-dark", func(m fstest.MapFS) {
			m["gitlab/wordmark.svg"] = &fstest.MapFile{Data: []byte(wordmarkBlack)}
		}, []string{"[contrast-low] src/gitlab/wordmark.svg:1:102: warning: wordmark paints (default black), contrast 1.11:1 against a dark page (#0D1117), below 3:1; add wordmark-dark.svg, a variant that reads on dark backgrounds"}},
		{"wordmark with wordmark-dark", func(m fstest.MapFS) {
			m["gitlab/wordmark.svg"] = &fstest.MapFile{Data: []byte(wordmarkBlack)}
			m["gitlab/wordmark-dark.svg"] = &fstest.MapFile{Data: []byte(light)}
		}, nil},
		{"icon never paints the brand colour", func(m fstest.MapFS) {
			m["gitlab/icon.svg"].Data = []byte(light)
		}, []string{"[hex-unused] src/gitlab/logo.yaml:2:6: warning: icon.svg never paints the brand colour #FC6D26 (it paints #FFFFFF); check hex or the artwork"}},
		{"SVGs of a logo without logo.yaml are checked", func(m fstest.MapFS) {
			delete(m, "gitlab/logo.yaml")
			m["gitlab/icon-mono.svg"].Data = []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1" fill="red"/>`)
		}, []string{
			"[svg-mono-colour] src/gitlab/icon-mono.svg:1:59: icon-mono paints fill: red; every paint must be currentColor, none or transparent",
			"[file-missing] src/gitlab/logo.yaml: missing; every logo folder needs a logo.yaml (run: logoindex new gitlab -name ... -hex ... -category ...)",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := testtree.Sources()
			tc.change(m)
			_, probs := checkAll(t, m, "src")
			if diff := cmp.Diff(tc.want, problemStrings(probs)); diff != "" {
				t.Errorf("problems mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRulesAcrossLogos covers the rules that compare logos, and that a
// build reports every problem of every logo at once.
func TestRulesAcrossLogos(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(fstest.MapFS)
		want   []string
	}{
		{"valid tree", func(fstest.MapFS) {}, nil},
		{"reserved slug", func(m fstest.MapFS) {
			for name, f := range m {
				if rest, ok := strings.CutPrefix(name, "gitlab/"); ok {
					m["registry/"+rest] = f
					delete(m, name)
				}
			}
		}, []string{`[slug-collision] src/registry: slug "registry" would write r/registry.json, which collides with the collection's r/registry.json; rename the folder`}},
		{"two logos with one name", func(m fstest.MapFS) {
			m["gitea/logo.yaml"].Data = []byte(testtree.Meta("GitLab", "#FC6D26")) // GiteaIcon: the name does not spell the slug
		}, nil},
		{"component set to another's default", func(m fstest.MapFS) {
			m["gitea/logo.yaml"].Data = []byte(testtree.Meta("Gitea", "#FC6D26") + "component: GitLabIcon\n")
		}, []string{"[component-duplicate] src/gitlab/logo.yaml: default component name GitLabIcon is also gitea's; set component: to a unique name, for example GitlabIcon"}},
		{"two defaults from slugs that differ in hyphens", func(m fstest.MapFS) {
			m["git-lab/logo.yaml"] = &fstest.MapFile{Data: []byte(testtree.Meta("Git Lab", "#FC6D26"))}
			m["git-lab/icon.svg"] = &fstest.MapFile{Data: []byte(testtree.Icon)}
		}, []string{"[component-duplicate] src/gitlab/logo.yaml: default component name GitLabIcon is also git-lab's; set component: to a unique name, for example GitlabIcon"}},
		{"the suggestion is free", func(m fstest.MapFS) {
			m["git-lab/logo.yaml"] = &fstest.MapFile{Data: []byte(testtree.Meta("Git Lab", "#FC6D26"))}
			m["git-lab/icon.svg"] = &fstest.MapFile{Data: []byte(testtree.Icon)}
			m["gitea/logo.yaml"].Data = []byte(testtree.Meta("Gitea", "#FC6D26") + "component: GitlabIcon\n")
		}, []string{"[component-duplicate] src/gitlab/logo.yaml: default component name GitLabIcon is also git-lab's; set component: to a unique name, for example Gitlab2Icon"}},
		{"component named like the template's React", func(m fstest.MapFS) {
			m["gitlab/logo.yaml"].Data = []byte(testtree.Meta("GitLab", "#FC6D26") + "component: React\n")
		}, []string{"[component-duplicate] src/gitlab/logo.yaml:6:12: component name React is a name the component template uses; set component: to a unique name, for example GitlabIcon"}},
		{"component named like a global the template uses", func(m fstest.MapFS) {
			m["gitlab/logo.yaml"].Data = []byte(testtree.Meta("GitLab", "#FC6D26") + "component: Boolean\n")
		}, []string{"[component-duplicate] src/gitlab/logo.yaml:6:12: component name Boolean is a name the component template uses; set component: to a unique name, for example GitlabIcon"}},
		{"component whose Props type is the template's", func(m fstest.MapFS) {
			m["gitlab/logo.yaml"].Data = []byte(testtree.Meta("GitLab", "#FC6D26") + "component: SVG\n")
		}, []string{"[component-duplicate] src/gitlab/logo.yaml:6:12: component name SVG declares SVGProps, which is a name the component template uses; set component: to a unique name, for example GitlabIcon"}},
		{"component whose Props type is another's component", func(m fstest.MapFS) {
			m["gitea/logo.yaml"].Data = []byte(testtree.Meta("Gitea", "#FC6D26") + "component: GitProps\n")
			m["gitlab/logo.yaml"].Data = []byte(testtree.Meta("GitLab", "#FC6D26") + "component: Git\n")
		}, []string{"[component-duplicate] src/gitlab/logo.yaml:6:12: component name Git declares GitProps, which is also gitea's; set component: to a unique name, for example GitlabIcon"}},
		{"every problem of every logo at once", func(m fstest.MapFS) {
			m["gitlab/icon.svg"].Data = []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1" onload="x()"><script/></svg>`)
			m["gitlab/icon-mono.svg"].Data = []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1" fill="red"/>`)
			m["gitea/logo.yaml"].Data = []byte(strings.Replace(testtree.Meta("Gitea", "#FC6D26"), "CC0-1.0", "Apache 2.0", 1))
		}, []string{
			`[license-invalid] src/gitea/logo.yaml:5:10: license "Apache 2.0" is not an SPDX identifier; did you mean "Apache-2.0"?`,
			"[svg-mono-colour] src/gitlab/icon-mono.svg:1:59: icon-mono paints fill: red; every paint must be currentColor, none or transparent",
			"[svg-attribute-not-allowed] src/gitlab/icon.svg:1:59: event handler attribute onload is not allowed on <svg>; remove it",
			"[svg-element-not-allowed] src/gitlab/icon.svg:1:72: <script> is not allowed: it can run script; remove it",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := testtree.Sources()
			tc.change(m)
			if diff := cmp.Diff(tc.want, buildProblems(t, m)); diff != "" {
				t.Errorf("problems mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestVariantGlobs: a files: key that is a glob gives its override to
// every variant of the logo it matches, and to no other.
func TestVariantGlobs(t *testing.T) {
	m := testtree.Sources()
	m["gitlab/wordmark.svg"] = &fstest.MapFile{Data: []byte(testtree.Icon)}
	m["gitlab/wordmark-dark.svg"] = &fstest.MapFile{Data: []byte(testtree.Icon)}
	m["gitlab/logo.yaml"].Data = []byte(testtree.Meta("GitLab", "#FC6D26") + "files:\n  wordmark*: {source: https://example.com/wordmark, license: MIT}\n  \"icon-m?no\": {license: Apache-2.0}\n")
	logos, probs := checkAll(t, m, "src")
	if len(probs.Errors()) > 0 {
		t.Fatal(probs)
	}
	got := map[string]source.FileMeta{}
	for _, v := range logos["gitlab"].Variants {
		got[v.Name] = v.Meta
	}
	def := source.FileMeta{Source: "https://example.com/press", License: "CC0-1.0"}
	want := map[string]source.FileMeta{
		"icon":          def,
		"icon-mono":     {Source: "https://example.com/press", License: "Apache-2.0"},
		"wordmark":      {Source: "https://example.com/wordmark", License: "MIT"},
		"wordmark-dark": {Source: "https://example.com/wordmark", License: "MIT"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("file metadata of gitlab (-want +got):\n%s", diff)
	}
}

// TestViaPerFile: a file has the logo's via unless its files: entry sets
// a via, which replaces it, or a source, which brings its own via or none.
func TestViaPerFile(t *testing.T) {
	const logoVia = "via: {name: simple-icons, version: 16.37.0, url: https://example.com/si}\n"
	si := &source.Via{Name: "simple-icons", Version: "16.37.0", URL: "https://example.com/si"}
	dev := &source.Via{Name: "devicon", Version: "2.17.0", URL: "https://example.com/dev"}
	const devVia = "via: {name: devicon, version: 2.17.0, url: https://example.com/dev}"
	for _, tc := range []struct {
		name, yaml string
		want       map[string]*source.Via // by variant; icon, icon-mono and wordmark
	}{
		{"none", "", map[string]*source.Via{}},
		{"the logo's", logoVia, map[string]*source.Via{"icon": si, "icon-mono": si, "wordmark": si}},
		{"a file's own", "files:\n  wordmark: {" + devVia + "}\n", map[string]*source.Via{"wordmark": dev}},
		{"a file's in place of the logo's", logoVia + "files:\n  wordmark: {" + devVia + "}\n", map[string]*source.Via{"icon": si, "icon-mono": si, "wordmark": dev}},
		{"a file's source and via", logoVia + "files:\n  wordmark: {source: https://example.com/w, " + devVia + "}\n", map[string]*source.Via{"icon": si, "icon-mono": si, "wordmark": dev}},
		{"a file's source alone drops the logo's", logoVia + "files:\n  wordmark: {source: https://example.com/w}\n", map[string]*source.Via{"icon": si, "icon-mono": si}},
		{"a file's licence keeps it", logoVia + "files:\n  wordmark: {license: MIT}\n", map[string]*source.Via{"icon": si, "icon-mono": si, "wordmark": si}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := testtree.Sources()
			m["gitlab/wordmark.svg"] = &fstest.MapFile{Data: []byte(testtree.Icon)}
			m["gitlab/logo.yaml"].Data = []byte(testtree.Meta("GitLab", "#FC6D26") + tc.yaml)
			logos, probs := checkAll(t, m, "src")
			if len(probs.Errors()) > 0 {
				t.Fatal(probs)
			}
			got := map[string]*source.Via{}
			for _, v := range logos["gitlab"].Variants {
				if v.Meta.Via != nil {
					got[v.Name] = v.Meta.Via
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("via of each file (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDefaultComponent(t *testing.T) {
	for _, tc := range []struct{ name, slug, want string }{
		{"GitHub", "github", "GitHubIcon"},                  // the name spells the slug: its capitals stay
		{"Next.js", "nextjs", "NextJsIcon"},                 // symbols separate words
		{"Google Cloud", "google-cloud", "GoogleCloudIcon"}, // hyphens of the slug are ignored
		{"C++", "cplusplus", "CplusplusIcon"},               // otherwise the slug
		{"C", "c", "CIcon"},
		{"Backstage", "backstage", "BackstageIcon"},
		{"Backstage", "backstage-casting", "BackstageCastingIcon"},
		{"Hedra", "happyhorse", "HappyhorseIcon"},
		{"Stellar & Co.", "stellar", "StellarIcon"},
		{"日本", "nihon", "NihonIcon"},
		{"1Password", "1password", "Logo1PasswordIcon"}, // an identifier cannot start with a digit
		{"42", "42", "Logo42Icon"},
		{"", "acme-two", "AcmeTwoIcon"},
	} {
		if got := check.DefaultComponent(tc.name, tc.slug); got != tc.want {
			t.Errorf("DefaultComponent(%q, %q) = %q, want %q", tc.name, tc.slug, got, tc.want)
		}
	}
}

// TestParsesPerVariant counts how often checking and rendering the shipped
// collection reads each SVG: once for its source, once for what the
// minifier wrote, and once for the safety re-check of the bytes
// published, whose parse also feeds the component's JSX. Nothing else
// parses a file again (no test in this package runs in parallel, so the
// counter is this test's alone).
func TestParsesPerVariant(t *testing.T) {
	r, err := render.New(render.Options{})
	if err != nil {
		t.Fatal(err)
	}
	before := svg.ParseCount()
	logos, probs := checkAll(t, os.DirFS("../../source-logos"), "source-logos")
	if len(probs.Errors()) > 0 {
		t.Fatal(probs)
	}
	variants := 0
	for _, l := range logos {
		variants += len(l.Variants)
		if _, err := r.LogoFiles(l, nil); err != nil {
			t.Fatal(err)
		}
	}
	parses := svg.ParseCount() - before
	if variants < 200 {
		t.Fatalf("only %d variants; the shipped collection has hundreds", variants)
	}
	if want := int64(3 * variants); parses != want {
		t.Errorf("checking and rendering %d variants parsed %d times, want %d (3 a variant)", variants, parses, want)
	}
}

// TestIDPrefixIsUnique publishes names from slugs, variants and class
// names chosen to meet under a looser prefix ("bad" with "icon-x", and
// "bad-icon" with "x"), and finds every published name made once.
func TestIDPrefixIsUnique(t *testing.T) {
	slugs := []string{"bad", "bad-icon", "bad-icon-icon", "icon", "a-icon-mono", "a", "a-icon", "1password", "x-wordmark", "x"}
	names := []string{"x", "icon-x", "icon--x", "-x", "--icon--x", "mono--x", "a", "dark--a", "_1password--icon--a"}
	seen := map[string]string{}
	for _, slug := range slugs {
		for _, variant := range source.Variants {
			for _, name := range names {
				got := check.IDPrefix(slug, variant) + name
				what := slug + " " + variant + " " + name
				if first, dup := seen[got]; dup {
					t.Errorf("%s and %s both publish %q", first, what, got)
				}
				seen[got] = what
			}
		}
	}
	if got, want := check.IDPrefix("github", "icon-mono"), "github--icon-mono--"; got != want {
		t.Errorf("IDPrefix(github, icon-mono) = %q, want %q", got, want)
	}
	if got, want := check.IDPrefix("1password", "icon"), "_1password--icon--"; got != want {
		t.Errorf("IDPrefix(1password, icon) = %q, want %q", got, want)
	}
}
