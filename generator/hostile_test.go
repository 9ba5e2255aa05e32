package generator

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"golang.org/x/net/html"

	"logoindex/generator/problem"
	"logoindex/generator/render"
	"logoindex/internal/escape"
	"logoindex/internal/testtree"
)

// hostileValues end comments, strings, template literals, elements and
// lines in every language of the outputs, start JSDoc tags, decode as
// entities, and hold the characters no text may hold. Each tries to set
// globalThis.pwned where it would run.
var hostileValues = []string{
	`Bad */ globalThis.pwned = 1 /*`,
	`*/Object.assign(globalThis,{pwned:1});/*`, // type-checks, so only running it shows it
	`</script><script>globalThis.pwned = 1</script>`,
	`<!-- x --> <b onmouseover="globalThis.pwned=1">x</b> -->`,
	`${globalThis.pwned = 1}`,
	`${globalThis.pwned=1}`,
	"`+(globalThis.pwned = 1)+`",
	`"); globalThis.pwned = 1; ("`,
	`'); globalThis.pwned = 1; ('`,
	`\"\u0022 \\ \`,
	`{globalThis.pwned = 1} }{ <X/>`,
	`@deprecated {@link https://evil.example}`,
	`@deprecated{@link}`,
	`&amp; &lt;x&gt; &#x3C; %22`,
	`&amp;&lt;x&gt;&#x3C;%22%3E%3Cscript%3E`,
	"A\u2028B", "A\u2029B", "A\u200fB", "A\u061cB", "A\u202eB", "A\x1b[2JB", "A\x00B", "A\x7fB",
}

// hostileField is a field of logo.yaml or categories.yaml whose value
// reaches an output, or that must refuse a hostile value.
type hostileField struct {
	name   string
	file   string // the file a refusal must name
	benign string // its value in the benign build
	wrap   func(v string) string
	// text fields must accept every value without a control character.
	text bool
}

var hostileFields = []hostileField{
	{name: "name", file: "acme/logo.yaml", benign: "Acme", text: true},
	{name: "alias", file: "acme/logo.yaml", benign: "Acme Corp", text: true},
	{name: "category", file: "categories.yaml", benign: "Tools", text: true},
	{name: "source", file: "acme/logo.yaml", benign: "https://acme.example/press", wrap: hostileEvilURL},
	{name: "license_url", file: "acme/logo.yaml", benign: "https://acme.example/license", wrap: hostileEvilURL},
	{name: "guidelines", file: "acme/logo.yaml", benign: "https://acme.example/brand", wrap: hostileEvilURL},
	{name: "file_source", file: "acme/logo.yaml", benign: "https://acme.example/icon", wrap: hostileEvilURL},
	{name: "file_license_url", file: "acme/logo.yaml", benign: "https://acme.example/icon-license", wrap: hostileEvilURL},
	{name: "install", file: "acme/logo.yaml", benign: "npx shadcn@latest add https://acme.example/r/acme.json", wrap: func(v string) string { return "npx shadcn@latest add " + v }},
	{name: "component", file: "acme/logo.yaml", benign: "AcmeIcon"},
	{name: "license", file: "acme/logo.yaml", benign: "LicenseRef-Acme"},
	{name: "hex", file: "acme/logo.yaml", benign: "#FF5500"},
}

func hostileEvilURL(v string) string { return "https://evil.example/" + v }

// hostileSource is the source tree with every field at its benign value
// but one.
func hostileSource(field, value string) fstest.MapFS {
	v := map[string]string{}
	for _, f := range hostileFields {
		v[f.name] = f.benign
	}
	v[field] = value
	q := func(name string) string { b, _ := json.Marshal(v[name]); return string(b) } // a JSON string is YAML
	meta := fmt.Sprintf(`name: %s
hex: %s
categories: [tools]
source: %s
license: %s
license_url: %s
guidelines: %s
aliases: [%s]
files:
  icon: {source: %s, license: LicenseRef-Icon, license_url: %s}
install: %s
component: %s
`, q("name"), q("hex"), q("source"), q("license"), q("license_url"), q("guidelines"), q("alias"),
		q("file_source"), q("file_license_url"), q("install"), q("component"))
	return fstest.MapFS{
		"categories.yaml":    {Data: []byte("- {slug: tools, name: " + q("category") + "}\n")},
		"acme/logo.yaml":     {Data: []byte(meta)},
		"acme/icon.svg":      {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="#FF5500"><path d="M2 2h20v20H2z"/></svg>`)},
		"acme/icon-mono.svg": {Data: []byte(testtree.Mono)},
	}
}

// hostileCase is one build of the test.
type hostileCase struct {
	field hostileField
	value string            // as the field holds it
	tree  map[string]string // the files the build wrote
	dir   string            // of its TSX in the TypeScript project
}

// TestHostileValues feeds every hostile value through every field that
// reaches an output, builds, and parses every output as its reader would:
// JSON with encoding/json, pages with an HTML5 parser, SVGs with an XML
// parser, components with the TypeScript compiler (then compiled, imported
// and rendered in Node). A value is either refused with a problem naming
// its file, or it comes back as data, exactly, wherever its benign twin
// shows, and every output has the structure of the benign build: no value
// ends a comment, a string or an element.
func TestHostileValues(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the tree once for each hostile value in each field, which takes a while; run without -short")
	}
	// Each build writes into a folder of its own, read back whole.
	build := func(field, value string) (map[string]string, error) {
		out := filepath.Join(t.TempDir(), "dist")
		_, err := Build(context.Background(), hostileSource(field, value), Options{Dir: "src", Out: out, Render: render.Options{BaseURL: "https://logos.example.com"}})
		if err != nil {
			return nil, err
		}
		return testtree.ReadFiles(t, out), nil
	}
	benign, err := build("", "")
	if err != nil {
		t.Fatalf("the benign build fails: %v", err)
	}
	benignOut := hostileParseOutputs(t, "benign", benign)

	var cases []*hostileCase
	for _, f := range hostileFields {
		for _, raw := range hostileValues {
			value := raw
			if f.wrap != nil {
				value = f.wrap(raw)
			}
			tree, err := build(f.name, value)
			_, _, control := escape.FirstControl(value)
			var probs ProblemList
			switch {
			case errors.As(err, &probs):
				if !slices.ContainsFunc(probs.Errors(), func(p *Problem) bool { return p.Path == "src/"+f.file }) {
					t.Errorf("%s = %q: refused, but no error names src/%s:\n%s", f.name, value, f.file, probs.Error())
				}
				if f.text && !control {
					t.Errorf("%s = %q: refused, but it is text without control characters:\n%s", f.name, value, probs.Error())
				}
				// Refused by the text rule, or by YAML, which takes some
				// control characters for none of its own.
				if f.text && control && !slices.ContainsFunc(probs, func(p *Problem) bool { return p.Code == problem.TextInvalid || p.Code == problem.YAMLInvalid }) {
					t.Errorf("%s = %q: refused, but not as %s or %s:\n%s", f.name, value, problem.TextInvalid, problem.YAMLInvalid, probs.Error())
				}
				continue
			case err != nil:
				t.Fatalf("%s = %q: %v", f.name, value, err)
			case control:
				t.Errorf("%s = %q: accepted a control or bidirectional character", f.name, value)
			}
			c := &hostileCase{field: f, value: value, tree: tree, dir: fmt.Sprintf("case%d", len(cases))}
			cases = append(cases, c)
			what := fmt.Sprintf("%s = %q", f.name, value)
			out := hostileParseOutputs(t, what, tree)
			out.compare(t, what, benignOut, f.benign, value)
		}
	}
	accepted := map[string]int{}
	for _, c := range cases {
		accepted[c.field.name]++
	}
	t.Logf("%d hostile builds accepted, by field: %v; every other one refused", len(cases), accepted)
	for _, f := range hostileFields {
		if f.wrap != nil && accepted[f.name] == 0 && f.name != "install" {
			t.Errorf("no hostile value reached the outputs through %s: the test tests nothing there", f.name)
		}
	}

	t.Run("tsx", func(t *testing.T) {
		hostileTSX(t, benign, cases)
	})
}

// hostileOutputs is what a build's files say when parsed.
type hostileOutputs struct {
	jsonStrings []string            // every string in every JSON file
	pages       map[string]string   // page -> structure: elements, attribute names, comments
	pageText    []string            // every text and attribute value of every page, and URLs' unescaped values
	svgText     []string            // every character data of every SVG
	tsx         map[string][]string // r/<slug>.json -> its component source, in a slice of one
}

func hostileParseOutputs(t *testing.T, what string, tree map[string]string) *hostileOutputs {
	t.Helper()
	o := &hostileOutputs{pages: map[string]string{}, tsx: map[string][]string{}}
	for _, name := range slices.Sorted(maps.Keys(tree)) {
		data := []byte(tree[name])
		switch {
		case strings.HasSuffix(name, ".json"):
			var v any
			if err := json.Unmarshal(data, &v); err != nil {
				t.Errorf("%s: %s is not JSON: %v", what, name, err)
				continue
			}
			o.jsonStrings = hostileAppendStrings(o.jsonStrings, v)
			if strings.HasPrefix(name, "r/") && name != "r/registry.json" {
				var item render.RegistryItem
				json.Unmarshal(data, &item)
				o.tsx[name] = []string{item.Files[0].Content}
			}
		case strings.HasSuffix(name, ".html"):
			doc, err := html.Parse(bytes.NewReader(data))
			if err != nil {
				t.Errorf("%s: %s: %v", what, name, err)
				continue
			}
			var shape strings.Builder
			for n := range doc.Descendants() {
				switch n.Type {
				case html.ElementNode:
					// A URL shown as text is a run of spans, one for
					// each part up to a slash (wrapURL): its length
					// follows the value, and the run is one element of
					// the structure, its text one text.
					if urlPart(n) && urlPart(n.PrevSibling) {
						continue
					}
					if urlPart(n) {
						o.pageText = append(o.pageText, urlPartsText(n))
					}
					fmt.Fprintf(&shape, "<%s", n.Data)
					for _, a := range n.Attr {
						shape.WriteString(" " + a.Key)
						o.pageText = append(o.pageText, a.Val)
						if a.Key == "href" || a.Key == "src" {
							// html/template percent-encodes what a URL
							// may not hold raw ({ } and the like).
							if u, err := url.PathUnescape(a.Val); err == nil {
								o.pageText = append(o.pageText, u)
							}
						}
					}
					shape.WriteString(">")
				case html.CommentNode:
					shape.WriteString("<!---->")
				case html.TextNode:
					o.pageText = append(o.pageText, n.Data)
				}
			}
			o.pages[name] = shape.String()
		case strings.HasSuffix(name, ".svg"):
			d := xml.NewDecoder(bytes.NewReader(data))
			for {
				tok, err := d.Token()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Errorf("%s: %s is not XML: %v", what, name, err)
					break
				}
				if cd, ok := tok.(xml.CharData); ok {
					o.svgText = append(o.svgText, string(cd))
				}
			}
		}
	}
	return o
}

// urlPart reports whether n is a span of the parts of a URL wrapURL
// writes: no attributes, and text alone in it.
func urlPart(n *html.Node) bool {
	return n != nil && n.Type == html.ElementNode && n.Data == "span" && len(n.Attr) == 0 &&
		n.FirstChild != nil && n.FirstChild == n.LastChild && n.FirstChild.Type == html.TextNode
}

// urlPartsText is the text of the run of URL parts that starts at n.
func urlPartsText(n *html.Node) string {
	var b strings.Builder
	for ; urlPart(n); n = n.NextSibling {
		b.WriteString(n.FirstChild.Data)
	}
	return b.String()
}

func hostileAppendStrings(out []string, v any) []string {
	switch v := v.(type) {
	case string:
		out = append(out, v)
	case []any:
		for _, e := range v {
			out = hostileAppendStrings(out, e)
		}
	case map[string]any:
		for k, e := range v {
			out = hostileAppendStrings(append(out, k), e)
		}
	}
	return out
}

func hostileContainsIn(list []string, s string) bool {
	return slices.ContainsFunc(list, func(e string) bool { return strings.Contains(e, s) })
}

// compare checks a hostile build's outputs against the benign build's:
// the same pages with the same structure, and the value back as data
// wherever the benign value is.
func (o *hostileOutputs) compare(t *testing.T, what string, benign *hostileOutputs, benignValue, value string) {
	t.Helper()
	for name, shape := range benign.pages {
		if o.pages[name] != shape {
			t.Errorf("%s: %s has another structure than the benign page:\nhostile: %s\nbenign:  %s", what, name, o.pages[name], shape)
		}
	}
	for _, c := range []struct {
		kind           string
		hostile, plain []string
	}{
		{"JSON", o.jsonStrings, benign.jsonStrings},
		{"page", o.pageText, benign.pageText},
		{"SVG", o.svgText, benign.svgText},
	} {
		if hostileContainsIn(c.plain, benignValue) && !hostileContainsIn(c.hostile, value) {
			t.Errorf("%s: the value does not come back from the %s outputs as it was written", what, c.kind)
		}
	}
}

// hostileTSX compiles, parses and runs the components of every accepted
// hostile build.
func hostileTSX(t *testing.T, benign map[string]string, cases []*hostileCase) {
	node, tools := regNeedNode(t)
	proj := t.TempDir()
	writeFile(t, filepath.Join(proj, "package.json"), []byte(`{"type": "module"}`))
	writeFile(t, filepath.Join(proj, "tsconfig.json"), []byte(regTSConfig))
	if err := os.Symlink(filepath.Join(tools, "node_modules"), filepath.Join(proj, "node_modules")); err != nil {
		t.Fatal(err)
	}
	source := func(tree map[string]string) []byte {
		var item render.RegistryItem
		if err := json.Unmarshal([]byte(tree["r/acme.json"]), &item); err != nil {
			t.Fatal(err)
		}
		return []byte(item.Files[0].Content)
	}
	writeFile(t, filepath.Join(proj, "src", "benign", "acme.tsx"), source(benign))
	for _, c := range cases {
		writeFile(t, filepath.Join(proj, "src", c.dir, "acme.tsx"), source(c.tree))
	}
	if out, err := exec.CommandContext(t.Context(), node, filepath.Join(tools, "node_modules/typescript/bin/tsc"), "-p", proj).CombinedOutput(); err != nil {
		t.Fatalf("tsc --strict fails on a hostile component: %v\n%s", err, out)
	}
	type parsed struct {
		Diagnostics []string
		Shape       string
		Comments    []string
	}
	var files map[string]parsed
	regRunJSON(t, &files, node, filepath.Join(tools, "check.mjs"), "ast", proj)
	want, ok := files["benign/acme.tsx"]
	if !ok || len(want.Diagnostics) > 0 {
		t.Fatalf("the benign component did not parse: %v", want.Diagnostics)
	}
	// Comments show a value with "*/" as "*\/" and "@" as "\@"; undone,
	// the value is there as written.
	unescape := strings.NewReplacer(`*\/`, `*/`, `\@`, `@`)
	benignInComments := func(v string) bool { return hostileContainsIn(want.Comments, v) }
	var jobs []regRenderJob
	for _, c := range cases {
		what := fmt.Sprintf("%s = %q", c.field.name, c.value)
		got := files[c.dir+"/acme.tsx"]
		if len(got.Diagnostics) > 0 {
			t.Errorf("%s: syntax errors: %v", what, got.Diagnostics)
		}
		if got.Shape != want.Shape {
			t.Errorf("%s: the component's code differs from the benign one's: a value left its comment or string", what)
		}
		if benignInComments(c.field.benign) {
			var comments []string
			for _, cm := range got.Comments {
				comments = append(comments, unescape.Replace(cm))
			}
			if !hostileContainsIn(comments, c.value) {
				t.Errorf("%s: the value is not in the component's comments as written:\n%s", what, strings.Join(got.Comments, "\n"))
			}
		}
		jobs = append(jobs, regRenderJob{Module: filepath.Join(proj, "out", c.dir, "acme.js"), Component: "AcmeIcon",
			Props: map[string]any{"title": c.value}, what: what})
	}
	jobFile := filepath.Join(proj, "jobs.json")
	data, err := json.Marshal(jobs)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, jobFile, data)
	var results []struct {
		Markup, Error string
		Pwned         bool
	}
	regRunJSON(t, &results, node, filepath.Join(tools, "check.mjs"), "render", jobFile)
	if len(results) != len(jobs) {
		t.Fatalf("%d results for %d jobs", len(results), len(jobs))
	}
	for i, r := range results {
		if r.Error != "" || r.Pwned || !strings.HasPrefix(r.Markup, "<svg") {
			t.Errorf("%s: import and render: pwned %v, error %s, markup %.80s", jobs[i].what, r.Pwned, r.Error, r.Markup)
		}
	}
	t.Logf("%d hostile components compile, parse to the benign code and run without injected code", len(cases))
}
