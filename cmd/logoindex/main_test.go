package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"logoindex/internal/cli"
	"logoindex/internal/testtree"

	"github.com/google/go-cmp/cmp"
)

const (
	icon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="#FC6D26"><path d="M0 0h24v24H0z"/></svg>`
	mono = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="currentColor"><path d="M0 0h24v24H0z"/></svg>`
)

func goodSource() map[string]string {
	return map[string]string{
		"source-logos/categories.yaml":      "- {slug: devtools, name: Developer tools}\n",
		"source-logos/gitlab/logo.yaml":     "name: GitLab\nhex: \"#FC6D26\"\ncategories: [devtools]\nsource: https://about.gitlab.com/press/\nlicense: CC0-1.0\n",
		"source-logos/gitlab/icon.svg":      icon,
		"source-logos/gitlab/icon-mono.svg": mono,
	}
}

// inTempDir runs the test in a fresh working directory holding files.
func inTempDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	testtree.Write(t, dir, files)
	t.Chdir(dir)
	return dir
}

// runCmd runs the program and returns its exit status and output.
func runCmd(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	err := run(context.Background(), args, &out, &errb)
	code = cli.ExitCode(err, &errb)
	return code, out.String(), errb.String()
}

func TestBuildWritesTree(t *testing.T) {
	dir := inTempDir(t, goodSource())
	code, stdout, stderr := runCmd("build", "-base-url", "https://logos.example.com/")
	if code != 0 {
		t.Fatalf("build exit %d, stderr:\n%s", code, stderr)
	}
	if !strings.HasPrefix(stdout, "built 1 logo (") || stderr != "" {
		t.Errorf("stdout %q, stderr %q", stdout, stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "dist/api/logos/gitlab.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"icon":"https://logos.example.com/logos/gitlab/icon.svg"`)) {
		t.Errorf("the trailing slash of -base-url must be dropped: %s", b)
	}
	for _, f := range []string{"dist/logos/gitlab/icon.svg", "dist/logos/gitlab/icon-mono.svg", "dist/api/logos.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
}

// TestCheckReportsEveryProblem: a broken logo prints every problem with
// its position and exits 1.
func TestCheckReportsEveryProblem(t *testing.T) {
	files := goodSource()
	files["source-logos/gitlab/logo.yaml"] = "name: GitLab\nhex: #FC6D26\ncategories: [devtools, nope]\nsource: about.gitlab.com\nlicense: Apache 2.0\n"
	files["source-logos/gitlab/icon-mono.svg"] = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="#FC6D26"><script>alert(1)</script></svg>`
	files["source-logos/gitlab/icon_dark.svg"] = icon
	inTempDir(t, files)
	code, stdout, stderr := runCmd("check")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	want := []string{
		`source-logos/gitlab/icon-mono.svg:1:61: icon-mono paints fill: #FC6D26; every paint must be currentColor, none or transparent`,
		`source-logos/gitlab/icon-mono.svg:1:76: <script> is not allowed: it can run script; remove it`,
		`source-logos/gitlab/icon_dark.svg: unexpected file; did you mean icon-dark.svg? a logo folder holds only logo.yaml, icon.svg, icon-mono.svg, icon-dark.svg, wordmark.svg and wordmark-dark.svg`,
		`source-logos/gitlab/logo.yaml:2:5: hex is empty: in YAML an unquoted # starts a comment; quote the value: hex: "#FC6D26"`,
		`source-logos/gitlab/logo.yaml:3:24: unknown category "nope"; use a slug from categories.yaml or add the category there`,
		`source-logos/gitlab/logo.yaml:4:9: source "about.gitlab.com" is not an absolute http(s) URL; write it in full, starting with https://`,
		`source-logos/gitlab/logo.yaml:5:10: license "Apache 2.0" is not an SPDX identifier; did you mean "Apache-2.0"?`,
	}
	if diff := cmp.Diff(want, strings.Split(strings.TrimSpace(stderr), "\n")); diff != "" {
		t.Errorf("stderr mismatch (-want +got):\n%s", diff)
	}
	if stdout != "" {
		t.Errorf("stdout = %q, want nothing", stdout)
	}

	// -format json: the same problems, one object a line, with the codes
	// a tool goes by.
	code, stdout, stderr = runCmd("check", "-format", "json")
	if code != 1 || stdout != "" {
		t.Errorf("-format json: exit %d, stdout %q", code, stdout)
	}
	type jsonProblem struct {
		Path, Severity, Code, Message string
		Line, Col                     int
	}
	var got []jsonProblem
	for _, line := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
		var p jsonProblem
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("-format json: %q: %v", line, err)
		}
		got = append(got, p)
	}
	wantJSON := []jsonProblem{
		{"source-logos/gitlab/icon-mono.svg", "error", "svg-mono-colour", "icon-mono paints fill: #FC6D26; every paint must be currentColor, none or transparent", 1, 61},
		{"source-logos/gitlab/icon-mono.svg", "error", "svg-element-not-allowed", "<script> is not allowed: it can run script; remove it", 1, 76},
		{"source-logos/gitlab/icon_dark.svg", "error", "file-unexpected", "unexpected file; did you mean icon-dark.svg? a logo folder holds only logo.yaml, icon.svg, icon-mono.svg, icon-dark.svg, wordmark.svg and wordmark-dark.svg", 0, 0},
		{"source-logos/gitlab/logo.yaml", "error", "value-empty", `hex is empty: in YAML an unquoted # starts a comment; quote the value: hex: "#FC6D26"`, 2, 5},
		{"source-logos/gitlab/logo.yaml", "error", "category-unknown", `unknown category "nope"; use a slug from categories.yaml or add the category there`, 3, 24},
		{"source-logos/gitlab/logo.yaml", "error", "url-invalid", `source "about.gitlab.com" is not an absolute http(s) URL; write it in full, starting with https://`, 4, 9},
		{"source-logos/gitlab/logo.yaml", "error", "license-invalid", `license "Apache 2.0" is not an SPDX identifier; did you mean "Apache-2.0"?`, 5, 10},
	}
	if diff := cmp.Diff(wantJSON, got); diff != "" {
		t.Errorf("-format json mismatch (-want +got):\n%s", diff)
	}
}

func TestCheckGitHubFormat(t *testing.T) {
	files := goodSource()
	files["source-logos/gitlab/logo.yaml"] = strings.Replace(files["source-logos/gitlab/logo.yaml"], "CC0-1.0", "mit", 1)
	inTempDir(t, files)
	code, _, stderr := runCmd("check", "-format", "github")
	want := "::error file=source-logos/gitlab/logo.yaml,line=5,col=10,title=license-invalid::license \"mit\" is not an SPDX identifier; did you mean \"MIT\"?\n"
	if code != 1 || stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant:\n%s", code, stderr, want)
	}
}

func TestStrictFailsOnWarnings(t *testing.T) {
	files := goodSource()
	files["source-logos/gitlab/logo.yaml"] = strings.Replace(files["source-logos/gitlab/logo.yaml"], "#FC6D26", "#181717", 1)
	files["source-logos/gitlab/icon.svg"] = strings.Replace(icon, "#FC6D26", "#181717", 1)
	inTempDir(t, files)
	wantWarning := "source-logos/gitlab/logo.yaml:2:6: warning: brand colour #181717 has a contrast ratio of 1.06:1 against a dark page (#0D1117), below 3:1; add icon-dark.svg, a variant that reads on dark backgrounds\n"

	code, stdout, stderr := runCmd("check")
	if code != 0 || stderr != wantWarning || stdout != "checked 1 logo: no errors (1 warning)\n" {
		t.Errorf("check: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, _, stderr = runCmd("check", "-strict")
	if code != 1 || stderr != wantWarning+"logoindex: 1 warning and -strict is set\n" {
		t.Errorf("check -strict: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runCmd("check", "-strict", "-format", "github")
	if code != 1 || !strings.HasPrefix(stderr, "::warning file=source-logos/gitlab/logo.yaml,line=2,col=6,title=contrast-low::brand colour #181717") {
		t.Errorf("check -strict -format github: exit %d, stderr %q", code, stderr)
	}
}

// TestFailedBuildLeavesDistUntouched breaks a logo after a good build and
// checks that the second build writes nothing at all.
func TestFailedBuildLeavesDistUntouched(t *testing.T) {
	dir := inTempDir(t, goodSource())
	if code, _, stderr := runCmd("build"); code != 0 {
		t.Fatalf("first build: %s", stderr)
	}
	before := snapshot(t, filepath.Join(dir, "dist"))
	testtree.Write(t, dir, map[string]string{
		"source-logos/gitlab/icon.svg":     `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><image href="https://x.example/a.png"/></svg>`,
		"source-logos/newlogo/logo.yaml":   "name: New\n",
		"source-logos/categories.yaml":     "- {slug: devtools, name: Developer tools}\n- {slug: more, name: More}\n",
		"source-logos/gitlab/wordmark.svg": icon,
	})
	code, _, stderr := runCmd("build")
	if code != 1 || !strings.Contains(stderr, "source-logos/gitlab/icon.svg:1:61: <image> is not allowed") {
		t.Fatalf("second build: exit %d, stderr:\n%s", code, stderr)
	}
	if diff := cmp.Diff(before, snapshot(t, filepath.Join(dir, "dist"))); diff != "" {
		t.Errorf("dist changed after a failed build (-before +after):\n%s", diff)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		// The state folder holds the next build's standby tree, kept on
		// purpose, and nothing else is made beside the output.
		if name := e.Name(); name != "dist" && name != ".dist.logoindex" && name != "source-logos" {
			t.Errorf("left beside the output: %s", name)
		}
	}
	state, _ := os.ReadDir(filepath.Join(dir, ".dist.logoindex"))
	for _, e := range state {
		if strings.HasPrefix(e.Name(), "tmp-") {
			t.Errorf("temporary file left in the state folder: %s", e.Name())
		}
	}
}

// snapshot maps every file under dir to its content and mode.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		info, _ := d.Info()
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			out[rel+"/"] = info.Mode().String()
			return nil
		}
		b, _ := os.ReadFile(p)
		out[rel] = info.Mode().String() + " " + info.ModTime().String() + " " + string(b)
		return nil
	})
	return out
}

func TestUsageErrors(t *testing.T) {
	inTempDir(t, goodSource())
	for _, tc := range []struct {
		args []string
		want string // in stderr
	}{
		{nil, "usage:"},
		{[]string{"frobnicate"}, `logoindex: unknown command "frobnicate"`},
		{[]string{"build", "-nope"}, "flag provided but not defined: -nope"},
		{[]string{"build", "git/*"}, `logoindex: logo pattern "git/*" is not a doublestar pattern on slugs: use *, ?, [a-z] and {a,b} on folder names, as in 'git*', without /`},
		{[]string{"check", "-strict", "git{lab"}, `logoindex: logo pattern "git{lab" is not a doublestar pattern on slugs`},
		{[]string{"check", "-format", "xml"}, `logoindex: -format must be text, github or json, not "xml"`},
		{[]string{"build", "-base-url", "logos.example.com"}, `logoindex: -base-url "logos.example.com" must be an absolute http(s) URL without query or fragment, such as https://logos.example.com`},
		{[]string{"check", "-src", "missing"}, "logoindex: -src missing is not a folder"},
		{[]string{"new"}, "logoindex: new takes exactly one slug"},
		{[]string{"new", "acme"}, "logoindex: new needs -category, -hex, -name"},
	} {
		code, _, stderr := runCmd(tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}

// withLogos adds to goodSource the logos of slugs, each a copy of gitlab
// with its own name.
func withLogos(slugs ...string) map[string]string {
	files := goodSource()
	for _, s := range slugs {
		files["source-logos/"+s+"/logo.yaml"] = strings.Replace(files["source-logos/gitlab/logo.yaml"], "GitLab", s, 1)
		files["source-logos/"+s+"/icon.svg"] = icon
	}
	return files
}

func TestCheckPatterns(t *testing.T) {
	files := withLogos("github", "npm", "broken")
	files["source-logos/broken/icon.svg"] = "<svg"
	// docker is not selected, but its component name still counts.
	files["source-logos/docker/logo.yaml"] = "name: Docker\nhex: \"#FC6D26\"\ncategories: [devtools]\nsource: https://docker.com/\nlicense: CC0-1.0\ncomponent: NpmIcon\n"
	inTempDir(t, files)
	for _, tc := range []struct {
		args           []string
		code           int
		stdout, stderr string
	}{
		{[]string{"check", "git*"}, 0, "checked 2 logos matching \"git*\": no errors\n", ""},
		{[]string{"check", "-strict", "gitlab", "git?ub"}, 0, "checked 2 logos matching \"gitlab\", \"git?ub\": no errors\n", ""},
		{[]string{"check", "npm"}, 1, "", "source-logos/npm/logo.yaml: default component name NpmIcon is also docker's; set component: to a unique name, for example Npm2Icon\n"},
		{[]string{"check", "gti*", "{git,x}lab"}, 1, "", "source-logos: logo pattern \"gti*\" selects no logo; patterns match folder names (slugs), such as git* for github and gitlab\n"},
		{[]string{"check", "b*"}, 1, "", "source-logos/broken/icon.svg:1:1: "},
	} {
		code, stdout, stderr := runCmd(tc.args...)
		if code != tc.code || stdout != tc.stdout || !strings.HasPrefix(stderr, tc.stderr) || (tc.stderr == "" && stderr != "") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr starting %q", tc.args, code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
		}
	}
}

// TestBuildPatterns: a partial build writes a whole site of the selected
// logos, says so, records it in the manifest, and leaves the build log of
// the full build alone.
func TestBuildPatterns(t *testing.T) {
	dir := inTempDir(t, withLogos("github", "npm"))
	if code, _, stderr := runCmd("build"); code != 0 {
		t.Fatalf("full build: exit %d\n%s", code, stderr)
	}
	cache, err := os.ReadFile(filepath.Join(dir, ".dist.logoindex", "cache"))
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd("build", "git*")
	if code != 0 || stderr != "" {
		t.Fatalf("build git*: exit %d\n%s", code, stderr)
	}
	if want := "dist holds only the logos \"git*\" select: a partial build, which publish refuses; build without patterns for the whole collection\n"; !strings.HasPrefix(stdout, "built 2 logos (") || !strings.HasSuffix(stdout, want) {
		t.Errorf("stdout %q", stdout)
	}
	entries, err := os.ReadDir(filepath.Join(dir, "dist/logos"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if diff := cmp.Diff([]string{"github", "gitlab"}, got); diff != "" {
		t.Errorf("dist/logos (-want +got):\n%s", diff)
	}
	manifest, err := os.ReadFile(filepath.Join(dir, "dist/.logoindex-build.json"))
	if err != nil || !strings.Contains(string(manifest), `"logos":["git*"]`) {
		t.Errorf("manifest %s, %v", manifest, err)
	}
	if after, err := os.ReadFile(filepath.Join(dir, ".dist.logoindex", "cache")); err != nil || !bytes.Equal(after, cache) {
		t.Errorf("the partial build changed the cache (%v)", err)
	}
}

// TestIgnoredFiles: editor and system files do not fail check; -strict
// names each, so CI notices them.
func TestIgnoredFiles(t *testing.T) {
	files := goodSource()
	files["source-logos/.DS_Store"] = "x"
	files["source-logos/gitlab/.icon.svg.swp"] = "x"
	files["source-logos/.logoindexignore"] = "# local\n*.orig\n"
	files["source-logos/gitlab/icon.svg.orig"] = "x"
	dir := inTempDir(t, files)
	if err := os.Symlink("user@host.1:1", filepath.Join(dir, "source-logos/gitlab/.#logo.yaml")); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := runCmd("check"); code != 0 || stdout != "checked 1 logo: no errors\n" || stderr != "" {
		t.Errorf("check: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, _, stderr := runCmd("check", "-strict")
	want := `source-logos/.DS_Store: warning: ignored by default pattern "**/.DS_Store"; remove it from the repository
source-logos/gitlab/.#logo.yaml: warning: ignored by default pattern "**/.#*"; remove it from the repository
source-logos/gitlab/.icon.svg.swp: warning: ignored by default pattern "**/.*.sw?"; remove it from the repository
source-logos/gitlab/icon.svg.orig: warning: ignored by source-logos/.logoindexignore:2 pattern "*.orig"; remove it from the repository
logoindex: 4 warnings and -strict is set
`
	if diff := cmp.Diff(want, stderr); code != 1 || diff != "" {
		t.Errorf("check -strict: exit %d, stderr (-want +got):\n%s", code, diff)
	}
	testtree.Write(t, dir, map[string]string{"source-logos/.logoindexignore": "*.orig\n  [x\n"})
	if code, _, stderr := runCmd("build"); code != 1 || !strings.Contains(stderr, "source-logos/.logoindexignore:2:3: pattern \"[x\" has a [ without its closing ]") {
		t.Errorf("build with a bad pattern: exit %d, stderr %q", code, stderr)
	}
}

// TestIgnoredFilesKeepTheCache: an editor's file appearing in a logo
// folder leaves the build up to date; with -strict it fails the build.
func TestIgnoredFilesKeepTheCache(t *testing.T) {
	dir := inTempDir(t, goodSource())
	if code, _, stderr := runCmd("build"); code != 0 {
		t.Fatalf("build: exit %d\n%s", code, stderr)
	}
	testtree.Write(t, dir, map[string]string{"source-logos/gitlab/.icon.svg.swp": "x", "source-logos/gitlab/.DS_Store": "x"})
	if code, stdout, stderr := runCmd("build"); code != 0 || !strings.Contains(stdout, "up to date") {
		t.Errorf("build after an editor's files appeared: exit %d, stdout %q, stderr %q; want up to date", code, stdout, stderr)
	}
	code, _, stderr := runCmd("build", "-strict")
	if code != 1 || !strings.Contains(stderr, `source-logos/gitlab/.icon.svg.swp: warning: ignored by default pattern "**/.*.sw?"; remove it from the repository`) {
		t.Errorf("build -strict: exit %d, stderr %q", code, stderr)
	}
}

// TestUsageDocumented: the usage is made from the flag sets, and the
// package documentation and docs/cli.md show it as it is.
func TestUsageDocumented(t *testing.T) {
	u := usage()
	fs, _ := buildFlagSet(io.Discard)
	fs.VisitAll(func(f *flag.Flag) {
		if !strings.Contains(u, "-"+f.Name) {
			t.Errorf("the usage lacks build's -%s", f.Name)
		}
	})
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	if doc := f.Doc.Text(); !strings.Contains(doc, strings.ReplaceAll(cli.Indent(u, "\t"), "\n\t\n", "\n\n")) {
		t.Errorf("the doc comment of main.go does not show the usage; paste the output of logoindex help:\n%s", doc)
	}
	doc, err := os.ReadFile(filepath.Join(moduleRoot(t), "docs", "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "\n"+u+"\n") {
		t.Errorf("docs/cli.md does not show the usage; paste the output of logoindex help:\n%s", u)
	}
}

func TestHelpExitsZero(t *testing.T) {
	if code, stdout, _ := runCmd("help"); code != 0 || !strings.Contains(stdout, "logoindex build") {
		t.Errorf("help: exit %d, stdout %q", code, stdout)
	}
	if code, _, stderr := runCmd("build", "-h"); code != 0 || !strings.Contains(stderr, "-base-url") ||
		!strings.HasPrefix(stderr, "usage: logoindex build [pattern ...] [-base-url URL]") || !strings.Contains(stderr, ".<out>.logoindex beside -out") {
		t.Errorf("build -h: exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := runCmd("check", "-h"); code != 0 || !strings.Contains(stderr, "logoindex check 'git*': only they are checked in full") {
		t.Errorf("check -h: exit %d, stderr %q", code, stderr)
	}
	// serve has no -out: its state folder is named after -dir.
	if code, _, stderr := runCmd("serve", "-h"); code != 0 || !strings.Contains(stderr, ".<dir>.logoindex beside -dir") || strings.Contains(stderr, "<out>") {
		t.Errorf("serve -h: exit %d, stderr %q", code, stderr)
	}
}

func TestRefusesToReplaceForeignOut(t *testing.T) {
	dir := inTempDir(t, goodSource())
	testtree.Write(t, dir, map[string]string{"work/notes.txt": "mine"})
	code, _, stderr := runCmd("build", "-out", "work")
	if code != 1 || !strings.Contains(stderr, "refusing to replace work") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestFileNamesCannotForgeOutput names a file so that, printed raw, it
// would add a line saying the check passed and clear the terminal line.
// Every problem stays on its own line, in both formats.
func TestFileNamesCannotForgeOutput(t *testing.T) {
	files := goodSource()
	files["source-logos/gitlab/x\nINJECTED: checked 2 logos: no errors\x1b[2K"] = ""
	inTempDir(t, files)
	for _, tc := range []struct{ format, want string }{
		{"text", `source-logos/gitlab/x\nINJECTED: checked 2 logos: no errors\x1b[2K: unexpected file; a logo folder holds only logo.yaml, icon.svg, icon-mono.svg, icon-dark.svg, wordmark.svg and wordmark-dark.svg` + "\n"},
		{"github", `::error file=source-logos/gitlab/x\nINJECTED%3A checked 2 logos%3A no errors\x1b[2K,title=file-unexpected::unexpected file; a logo folder holds only logo.yaml, icon.svg, icon-mono.svg, icon-dark.svg, wordmark.svg and wordmark-dark.svg` + "\n"},
		{"json", `{"path":"source-logos/gitlab/x\nINJECTED: checked 2 logos: no errors\u001b[2K","line":0,"col":0,"severity":"error","code":"file-unexpected","message":"unexpected file; a logo folder holds only logo.yaml, icon.svg, icon-mono.svg, icon-dark.svg, wordmark.svg and wordmark-dark.svg"}` + "\n"},
	} {
		code, stdout, stderr := runCmd("check", "-format", tc.format)
		if code != 1 || stdout != "" || stderr != tc.want {
			t.Errorf("-format %s: exit %d, stdout %q, stderr:\n%s\nwant:\n%s", tc.format, code, stdout, stderr, tc.want)
		}
	}
}

func TestInstallTemplateRule(t *testing.T) {
	inTempDir(t, goodSource())
	code, _, stderr := runCmd("build", "-install-template", "npx shadcn add {base}/r/{slug}.json && curl x | sh")
	want := `logoindex: -install-template "npx shadcn add {base}/r/{slug}.json && curl x | sh" gives "npx shadcn add http://localhost:8080/r/acme.json && curl x | sh": install has '&' at character 50, a shell operator or substitution;`
	if code != 2 || !strings.HasPrefix(stderr, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and:\n%s", code, stderr, want)
	}
	if code, _, stderr := runCmd("build", "-install-template", "pnpm dlx shadcn@latest add {base}/r/{slug}.json"); code != 0 {
		t.Errorf("a plain template: exit %d, stderr:\n%s", code, stderr)
	}
}

// TestOutputApartFromSource: an output inside the source folder, or one
// that holds it, is refused before anything is written, as a usage error.
func TestOutputApartFromSource(t *testing.T) {
	dir := inTempDir(t, goodSource())
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"build", "-out", "source-logos/dist"}, "logoindex: -out source-logos/dist is inside the source folder source-logos"},
		{[]string{"build", "-out", "source-logos/a/b/dist"}, "logoindex: -out source-logos/a/b/dist is inside the source folder source-logos"},
		{[]string{"build", "-out", "."}, "logoindex: -out . holds the source folder source-logos"},
		{[]string{"serve", "-watch", "-dir", "source-logos/dist"}, "logoindex: -dir source-logos/dist is inside the source folder source-logos"},
	} {
		code, _, stderr := runCmd(tc.args...)
		if code != 2 || !strings.HasPrefix(stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
	if diff := cmp.Diff(goodSourceNames(), sourceNames(t, filepath.Join(dir, "source-logos"))); diff != "" {
		t.Errorf("the source folder changed (-want +got):\n%s", diff)
	}
}

// goodSourceNames are the files of goodSource under source-logos.
func goodSourceNames() []string {
	var names []string
	for name := range goodSource() {
		if rel, ok := strings.CutPrefix(name, "source-logos/"); ok {
			names = append(names, rel)
		}
	}
	slices.Sort(names)
	return names
}

// sourceNames lists every file and folder under dir, hidden ones too.
func sourceNames(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		names = append(names, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(names)
	return names
}
