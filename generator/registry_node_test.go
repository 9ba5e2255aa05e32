package generator

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"logoindex/generator/check"
	"logoindex/generator/render"
	"logoindex/internal/svgtest"
	"logoindex/internal/testskip"
)

// regNodeTools is the folder of the Node tooling: package.json, the lockfile
// and check.mjs.
const regNodeTools = "../tests/registry"

// regNeedNode returns the node binary and the absolute tools folder, or skips
// the test when Node or the installed modules are missing.
func regNeedNode(t *testing.T) (node, tools string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		testskip.Missing(t, "node", "apt-get install nodejs npm, then npm ci --prefix tests/registry (Node 20 or later)")
	}
	tools, err = filepath.Abs(regNodeTools)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"typescript", "react", "react-dom", "@types/react", "shadcn", "zod", "ajv", "ajv-formats"} {
		if _, err := os.Stat(filepath.Join(tools, "node_modules", m, "package.json")); err != nil {
			testskip.Missing(t, "tests/registry/node_modules", "npm ci --prefix tests/registry (make test runs it where npm is installed)")
		}
	}
	return node, tools
}

// regRunJSON runs a command and decodes its standard output as JSON into v.
func regRunJSON(t *testing.T, v any, name string, args ...string) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), name, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s%s", filepath.Base(name), strings.Join(args, " "), err, errb.String(), out.String())
	}
	if err := json.Unmarshal(out.Bytes(), v); err != nil {
		t.Fatalf("%s %s: decoding the output: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out.String())
	}
}

// TestComponentsJSONDocumented checks the components.json that
// docs/registry.md gives a new Vite app: the shadcn package's schema takes
// it, its empty baseColor keeps shadcn add offline, and its components
// alias puts the logos in src/components/logos, as the page says.
func TestComponentsJSONDocumented(t *testing.T) {
	page, err := os.ReadFile("../docs/registry.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(page), "cat > components.json <<'EOF'\n")
	body, _, ok2 := strings.Cut(rest, "\nEOF\n")
	if !ok || !ok2 {
		t.Fatal("docs/registry.md has no cat > components.json <<'EOF' ... EOF")
	}
	var cfg struct {
		Tailwind struct{ BaseColor *string }
		Aliases  struct{ Components string }
	}
	if err := json.Unmarshal([]byte(body), &cfg); err != nil {
		t.Fatalf("the components.json of docs/registry.md: %v\n%s", err, body)
	}
	if cfg.Tailwind.BaseColor == nil || *cfg.Tailwind.BaseColor != "" || cfg.Aliases.Components != "@/components" {
		t.Errorf("the components.json of docs/registry.md wants tailwind.baseColor \"\" and aliases.components \"@/components\":\n%s", body)
	}
	node, tools := regNeedNode(t)
	file := filepath.Join(t.TempDir(), "components.json")
	writeFile(t, file, []byte(body))
	var rep struct {
		Shadcn string
		Issues []json.RawMessage
	}
	regRunJSON(t, &rep, node, filepath.Join(tools, "check.mjs"), "config", file)
	for _, issue := range rep.Issues {
		t.Errorf("the components.json of docs/registry.md fails the schema of shadcn %s: %s", rep.Shadcn, issue)
	}
}

// regNodeBuild is one built source tree, written for the Node tools.
type regNodeBuild struct {
	name  string            // subfolder of the work folder
	tree  map[string]string // the files it wrote
	logos []*check.Logo     // its logos, as the build checked them
}

// TestRegistryNode is the proof that the registry installs and draws the
// logos: it builds the shipped collection (and the registry test tree) and
//
//  1. validates every r/<slug>.json and r/registry.json against the schemas
//     of the shadcn npm package;
//  2. compiles every component with tsc in strict mode (and the checks of
//     Vite's React template on top);
//  3. renders every variant of every logo with react-dom/server and checks
//     that the markup draws what the variant file draws: the same elements,
//     attributes and path data once ids are prefixed, and the same pixels
//     through rsvg-convert when it is installed; and checks the props
//     (title, aria-label, className, style, variant) and that two instances
//     on one page share no id.
func TestRegistryNode(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles and renders every component in Node, which takes a while; run without -short")
	}
	node, tools := regNeedNode(t)
	work := t.TempDir()
	var builds []regNodeBuild
	for _, b := range []struct{ name, src string }{{"collection", "../source-logos"}, {"testdata", "testdata/registry/src"}} {
		src := os.DirFS(b.src)
		tree, _ := buildTree(t, src, Options{Render: render.Options{BaseURL: "http://127.0.0.1:8080"}})
		for name, data := range regFiles(tree) {
			writeFile(t, filepath.Join(work, b.name, "dist", name), []byte(data))
		}
		logos, _ := siteCheckedLogos(t, src)
		builds = append(builds, regNodeBuild{b.name, tree, logos})
	}

	t.Run("schema", func(t *testing.T) {
		for _, b := range builds {
			var rep struct {
				Shadcn string
				Items  int
				Errors []struct {
					File, How string
					Errors    json.RawMessage
				}
			}
			regRunJSON(t, &rep, node, filepath.Join(tools, "check.mjs"), "schema", filepath.Join(work, b.name, "dist"))
			if rep.Items != len(b.logos) {
				t.Errorf("%s: %d items validated, want %d", b.name, rep.Items, len(b.logos))
			}
			for _, e := range rep.Errors {
				t.Errorf("%s: %s fails the shadcn %s schema (%s): %s", b.name, e.File, rep.Shadcn, e.How, e.Errors)
			}
			t.Logf("%s: %d items and the index valid against shadcn %s", b.name, rep.Items, rep.Shadcn)
		}
	})

	// Compile every component; the emitted JavaScript is what the render
	// step imports, so one tsc run both type-checks and builds.
	ts := filepath.Join(work, "ts")
	for _, b := range builds {
		for _, l := range b.logos {
			var item render.RegistryItem
			if err := json.Unmarshal([]byte(b.tree["r/"+l.Slug+".json"]), &item); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(ts, "src", b.name, l.Slug+".tsx"), []byte(item.Files[0].Content))
		}
	}
	writeFile(t, filepath.Join(ts, "package.json"), []byte(`{"type": "module"}`))
	writeFile(t, filepath.Join(ts, "tsconfig.json"), []byte(regTSConfig))
	if err := os.Symlink(filepath.Join(tools, "node_modules"), filepath.Join(ts, "node_modules")); err != nil {
		t.Fatal(err)
	}
	ok := t.Run("tsc", func(t *testing.T) {
		cmd := exec.CommandContext(t.Context(), node, filepath.Join(tools, "node_modules/typescript/bin/tsc"), "-p", ts)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("tsc --strict fails on the generated components: %v\n%s", err, out)
		}
		n := 0
		for _, b := range builds {
			n += len(b.logos)
		}
		t.Logf("%d components compile", n)
	})
	if !ok {
		t.Fatal("the components do not compile; not rendering them")
	}

	// The names a component must not take are derived from the template
	// (render.TemplateNames); TypeScript's parse of every generated component
	// shows that they are every name the code binds or uses.
	t.Run("names", func(t *testing.T) {
		used, suffixes, err := render.TemplateNames(nil)
		if err != nil {
			t.Fatal(err)
		}
		var files map[string]struct{ Free []string }
		regRunJSON(t, &files, node, filepath.Join(tools, "check.mjs"), "ast", ts)
		n := 0
		for _, b := range builds {
			for _, l := range b.logos {
				f, ok := files[b.name+"/"+l.Slug+".tsx"]
				if !ok {
					t.Fatalf("check.mjs ast did not parse %s/%s.tsx", b.name, l.Slug)
				}
				for _, id := range f.Free {
					if x, own := strings.CutPrefix(id, l.Component); own && slices.Contains(suffixes, x) {
						continue
					}
					if !used[id] {
						t.Errorf("%s: the component uses %s, which render.TemplateNames does not list", l.Slug, id)
					}
				}
				n++
			}
		}
		t.Logf("%d components use only the names render.TemplateNames lists (%d)", n, len(used))
	})

	t.Run("render", func(t *testing.T) {
		var jobs []regRenderJob
		for _, b := range builds {
			for _, l := range b.logos {
				jobs = append(jobs, regLogoJobs(filepath.Join(ts, "out", b.name, l.Slug+".js"), l, b.tree)...)
			}
		}
		jobFile := filepath.Join(work, "jobs.json")
		data, err := json.Marshal(jobs)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, jobFile, data)
		var results []struct{ Markup, Error string }
		regRunJSON(t, &results, node, filepath.Join(tools, "check.mjs"), "render", jobFile)
		if len(results) != len(jobs) {
			t.Fatalf("%d results for %d jobs", len(results), len(jobs))
		}
		var pixels []regPixelJob
		for i, j := range jobs {
			if results[i].Error != "" {
				t.Errorf("%s: rendering failed: %s", j.what, results[i].Error)
				continue
			}
			if p := j.check(t, results[i].Markup); p != nil {
				pixels = append(pixels, *p)
			}
		}
		regComparePixels(t, pixels)
		t.Logf("%d renders checked, %d compared in pixels", len(jobs), len(pixels))
	})
}

// regTSConfig compiles with strict on and the extra checks of Vite's React
// TypeScript template (noUnused*, verbatimModuleSyntax, erasableSyntaxOnly)
// and two stricter ones, since an installed component must compile in the
// app's settings, whatever they are.
const regTSConfig = `{
  "compilerOptions": {
    "strict": true,
    "jsx": "react-jsx",
    "target": "es2022",
    "lib": ["es2022", "dom"],
    "module": "esnext",
    "moduleResolution": "bundler",
    "rootDir": "src",
    "outDir": "out",
    "types": [],
    "skipLibCheck": true,
    "noEmitOnError": true,
    "isolatedModules": true,
    "verbatimModuleSyntax": true,
    "erasableSyntaxOnly": true,
    "noUnusedLocals": true,
    "noUnusedParameters": true,
    "noFallthroughCasesInSwitch": true,
    "exactOptionalPropertyTypes": true,
    "noUncheckedIndexedAccess": true
  },
  "include": ["src"]
}
`

// regRenderJob is one render for check.mjs, with the Go check of its markup.
type regRenderJob struct {
	Module    string         `json:"module"`
	Component string         `json:"component"`
	Props     map[string]any `json:"props"`
	Count     int            `json:"count,omitempty"`

	what  string
	check func(t *testing.T, markup string) *regPixelJob
}

// regPixelJob is a file and the markup that must paint the same.
type regPixelJob struct {
	what         string
	file, markup []byte
}

// regLogoJobs are the renders that check one logo's component against
// the variants' files in tree.
func regLogoJobs(module string, l *check.Logo, tree map[string]string) []regRenderJob {
	file := func(v *check.Variant) []byte { return []byte(tree["logos/"+l.Slug+"/"+v.Name+".svg"]) }
	job := func(what string, props map[string]any, count int, check func(*testing.T, []*svgtest.Elem, string) *regPixelJob) regRenderJob {
		what = l.Slug + ": " + what
		return regRenderJob{Module: module, Component: l.Component, Props: props, Count: count, what: what,
			check: func(t *testing.T, markup string) *regPixelJob {
				t.Helper()
				svgs, err := regParseElems(markup)
				if err != nil {
					t.Errorf("%s: the markup is not XML: %v\n%s", what, err, markup)
					return nil
				}
				if len(svgs) != max(count, 1) {
					t.Errorf("%s: %d <svg> elements, want %d", what, len(svgs), max(count, 1))
					return nil
				}
				return check(t, svgs, markup)
			}}
	}
	var jobs []regRenderJob
	for _, v := range l.Variants {
		w, h := v.Info.ViewBox[2], v.Info.ViewBox[3]
		shipped := file(v)
		jobs = append(jobs, job(v.Name+" paints like "+v.Name+".svg", map[string]any{"variant": v.Name, "width": w, "height": h}, 0,
			func(t *testing.T, svgs []*svgtest.Elem, markup string) *regPixelJob {
				what := l.Slug + ": " + v.Name
				root := svgs[0]
				if root.Attrs["aria-hidden"] != "true" || root.Attrs["role"] != "" {
					t.Errorf("%s: without a title the logo is decorative: want aria-hidden=true and no role, got %v", what, root.Attrs)
				}
				if root.Attrs["width"] != regFmtNum(w) || root.Attrs["height"] != regFmtNum(h) {
					t.Errorf("%s: width/height props not applied: %v", what, root.Attrs)
				}
				prefix, err := regIDPrefix(shipped, root)
				if err != nil {
					t.Errorf("%s: %v", what, err)
					return nil
				}
				// The file's ids already start with the slug and variant;
				// the component adds useId's.
				if prefix != "" && !regexp.MustCompile(`^[\w-]+_$`).MatchString(prefix) {
					t.Errorf("%s: id prefix %q is not <useId>_", what, prefix)
				}
				if diff := svgtest.Compare(shipped, []byte(markup), prefix); diff != "" {
					t.Errorf("%s: the rendered component differs from %s (-file +component):\n%s", what, "logos/"+l.Slug+"/"+v.Name+".svg", diff)
				}
				return &regPixelJob{what: what, file: shipped, markup: []byte(markup)}
			}))
		if regHasIDs(shipped) {
			jobs = append(jobs, job(v.Name+" twice on a page", map[string]any{"variant": v.Name}, 2,
				func(t *testing.T, svgs []*svgtest.Elem, _ string) *regPixelJob {
					a, b := regElemIDs(svgs[0]), regElemIDs(svgs[1])
					if len(a) == 0 || len(a) != len(b) {
						t.Errorf("%s %s: ids %v and %v", l.Slug, v.Name, a, b)
					}
					for id := range a {
						if b[id] {
							t.Errorf("%s %s: two instances share the id %q", l.Slug, v.Name, id)
						}
					}
					return nil
				}))
		}
	}
	icon := l.Variant("icon")
	iconFile, want := file(icon), icon.JSX
	jobs = append(jobs,
		job("default props", map[string]any{}, 0, func(t *testing.T, svgs []*svgtest.Elem, _ string) *regPixelJob {
			root := svgs[0]
			if root.Attrs["width"] != want.Width || root.Attrs["height"] != "1em" || root.Attrs["viewBox"] != regAttrOf(iconFile, "viewBox") {
				t.Errorf("%s: default render: want the icon at %s x 1em, got %v", l.Slug, want.Width, root.Attrs)
			}
			return nil
		}),
		job("unknown variant", map[string]any{"variant": "nope"}, 0, func(t *testing.T, svgs []*svgtest.Elem, _ string) *regPixelJob {
			if svgs[0].Attrs["viewBox"] != regAttrOf(iconFile, "viewBox") {
				t.Errorf("%s: an unknown variant should fall back to the icon, got %v", l.Slug, svgs[0].Attrs)
			}
			return nil
		}),
		job("title", map[string]any{"title": l.Name + ` <&> "logo"`}, 0, func(t *testing.T, svgs []*svgtest.Elem, _ string) *regPixelJob {
			root := svgs[0]
			if root.Attrs["role"] != "img" || root.Attrs["aria-hidden"] != "" || len(root.Children) == 0 || root.Children[0].Name != "title" ||
				root.Children[0].Text != l.Name+` <&> "logo"` || root.Attrs["aria-labelledby"] == "" ||
				root.Attrs["aria-labelledby"] != root.Children[0].Attrs["id"] {
				t.Errorf("%s: with a title: want role=img, aria-labelledby naming a first-child <title>, got %v and %d children", l.Slug, root.Attrs, len(root.Children))
			}
			return nil
		}),
		job("aria-label", map[string]any{"aria-label": "Logo"}, 0, func(t *testing.T, svgs []*svgtest.Elem, _ string) *regPixelJob {
			if a := svgs[0].Attrs; a["role"] != "img" || a["aria-hidden"] != "" || a["aria-label"] != "Logo" {
				t.Errorf("%s: with aria-label: want role=img, not hidden, got %v", l.Slug, a)
			}
			return nil
		}),
		job("svg props", map[string]any{"className": "size-6 text-red-500", "style": map[string]any{"color": "red"}, "data-x": "1", "id": "mine"}, 0,
			func(t *testing.T, svgs []*svgtest.Elem, _ string) *regPixelJob {
				a := svgs[0].Attrs
				if !strings.Contains(" "+a["class"]+" ", " size-6 text-red-500 ") || !strings.Contains(a["style"], "color:red") || a["data-x"] != "1" || a["id"] != "mine" {
					t.Errorf("%s: className, style, data-* and id should reach the <svg>, got %v", l.Slug, a)
				}
				return nil
			}),
	)
	return jobs
}

func regFmtNum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// regIDPrefix finds the prefix the component gave the file's ids by matching
// the first id of the file with the first of the markup's root.
func regIDPrefix(file []byte, root *svgtest.Elem) (string, error) {
	fileRoot, err := regParseElems(string(file))
	if err != nil || len(fileRoot) != 1 {
		return "", fmt.Errorf("parsing the file: %v", err)
	}
	fid, mid := regFirstID(fileRoot[0]), regFirstID(root)
	switch {
	case fid == "" && mid == "":
		return "", nil
	case fid == "" || !strings.HasSuffix(mid, fid) || mid == fid:
		return "", fmt.Errorf("first id %q of the file is %q in the markup, not prefixed", fid, mid)
	}
	return strings.TrimSuffix(mid, fid), nil
}

func regFirstID(e *svgtest.Elem) string {
	if id := e.Attrs["id"]; id != "" && e.Name != "title" {
		return id
	}
	for _, c := range e.Children {
		if id := regFirstID(c); id != "" {
			return id
		}
	}
	return ""
}

func regElemIDs(e *svgtest.Elem) map[string]bool {
	ids := map[string]bool{}
	var walk func(*svgtest.Elem)
	walk = func(e *svgtest.Elem) {
		if id := e.Attrs["id"]; id != "" {
			ids[id] = true
		}
		for _, c := range e.Children {
			walk(c)
		}
	}
	walk(e)
	return ids
}

func regHasIDs(svg []byte) bool {
	roots, err := regParseElems(string(svg))
	return err == nil && len(roots) == 1 && len(regElemIDs(roots[0])) > 0
}

func regAttrOf(svg []byte, name string) string {
	roots, err := regParseElems(string(svg))
	if err != nil || len(roots) == 0 {
		return ""
	}
	return roots[0].Attrs[name]
}

// regParseElems parses a sequence of XML elements, keeping every attribute
// (with its prefix) and the text of every element.
func regParseElems(markup string) ([]*svgtest.Elem, error) {
	d := xml.NewDecoder(strings.NewReader("<r>" + markup + "</r>"))
	var roots []*svgtest.Elem
	var stack []*svgtest.Elem
	for {
		tok, err := d.RawToken()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			e := &svgtest.Elem{Name: regXMLName(t.Name), Attrs: map[string]string{}}
			for _, a := range t.Attr {
				e.Attrs[regXMLName(a.Name)] = a.Value
			}
			switch {
			case len(stack) == 1:
				roots = append(roots, e)
			case len(stack) > 1:
				p := stack[len(stack)-1]
				p.Children = append(p.Children, e)
			}
			stack = append(stack, e)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 1 {
				stack[len(stack)-1].Text += string(t)
			}
		}
	}
	return roots, nil
}

// regComparePixels renders each file and its markup with rsvg-convert and
// fails when more than 0.1% of the pixels differ.
func regComparePixels(t *testing.T, jobs []regPixelJob) {
	t.Helper()
	if _, err := exec.LookPath("rsvg-convert"); err != nil {
		t.Log("rsvg-convert not found: the pixel comparison is skipped (apt-get install librsvg2-bin; .ci/run installs it)")
		return
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	var mu sync.Mutex
	for _, j := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			a, b := rsvgRender(t, j.file, 128), rsvgRender(t, j.markup, 128)
			if a == nil || b == nil {
				return
			}
			if d := pixelDiff(a, b); d > 0.001 {
				mu.Lock()
				t.Errorf("%s: %.2f%% of the pixels differ from the file's", j.what, 100*d)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

func regXMLName(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}
