package generator

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"gopkg.in/yaml.v3"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"logoindex/generator/render"
	"logoindex/generator/source"
	"logoindex/internal/schematest"
)

// srcGoodMeta is a valid logo.yaml with the required keys only.
const srcGoodMeta = `name: GitHub
hex: "#181717"
categories: [devtools, social]
source: https://github.com/logos
license: CC0-1.0
`

// srcComponentRE is the shape of a component name, as logo.yaml's
// component: must have it.
var srcComponentRE = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)

func srcCompileSchema(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("schema", name))
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	s, err := schematest.Compile(name, doc, "")
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

func srcYAMLValue(t *testing.T, data []byte) any {
	t.Helper()
	v, err := srcYAMLToJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// srcYAMLToJSON decodes YAML and turns it into the JSON value an editor's
// YAML language server validates: keys become strings, numbers json.Number.
func srcYAMLToJSON(data []byte) (any, error) {
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	b, err := json.Marshal(srcStringKeys(v))
	if err != nil {
		return nil, err
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(b))
}

// srcStringKeys turns the map[any]any yaml.v3 makes of a mapping with a
// non-string key (1: x) into map[string]any, as JSON has it.
func srcStringKeys(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = srcStringKeys(e)
		}
	case time.Time:
		// A date YAML 1.1 reads as a timestamp is a string to editors,
		// which read YAML 1.2, and to the build.
		return v.Format(time.DateOnly)
	case map[any]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[fmt.Sprint(k)] = srcStringKeys(e)
		}
		return m
	case []any:
		for i, e := range v {
			v[i] = srcStringKeys(e)
		}
	}
	return v
}

// TestShippedLogosNameTheSchema checks that each shipped logo.yaml points
// its editor at the schema; TestSchemasAgreeWithRules validates them.
func TestShippedLogosNameTheSchema(t *testing.T) {
	const first = "# yaml-language-server: $schema=../../generator/schema/logo.schema.json\n"
	paths, _ := filepath.Glob("../source-logos/*/logo.yaml")
	if len(paths) < 60 {
		t.Fatalf("found %d logos, want the whole collection (60+)", len(paths))
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(b), first) {
			t.Errorf("%s: the first line must be %s", p, first)
		}
	}
}

// TestSchemasRejectBadFiles shows the schema test can fail, and that the
// schema agrees with the generator on the rules it can express.
func TestSchemasRejectBadFiles(t *testing.T) {
	logo := srcCompileSchema(t, "logo.schema.json")
	for _, tc := range []struct{ name, yaml string }{
		{"unknown key", srcGoodMeta + "colour: red\n"},
		{"missing license", strings.Replace(srcGoodMeta, "license: CC0-1.0\n", "", 1)},
		{"bad hex", strings.Replace(srcGoodMeta, `"#181717"`, `"#18171"`, 1)},
		{"relative source", strings.Replace(srcGoodMeta, "https://github.com/logos", "github.com/logos", 1)},
		{"six categories", strings.Replace(srcGoodMeta, "[devtools, social]", "[a, b, c, d, e, f]", 1)},
		{"bad variant in files", srcGoodMeta + "files:\n  icon_dark: {license: MIT}\n"},
		{"variant pattern with a foreign character", srcGoodMeta + "files:\n  wordmark_*: {license: MIT}\n"},
		{"variant pattern with a bad override", srcGoodMeta + "files:\n  wordmark*: {license: LicenseRef-X}\n"},
		{"bad component", srcGoodMeta + "component: github-icon\n"},
		{"install with a shell operator", srcGoodMeta + "install: npx x; curl evil | sh\n"},
		{"install too long", srcGoodMeta + "install: npx " + strings.Repeat("a", 509) + "\n"},
		{"bidi mark in name", strings.Replace(srcGoodMeta, "GitHub", "\"Git\\u200fHub\"", 1)},
		{"ESC in an alias", srcGoodMeta + "aliases: [\"a\\eb\"]\n"},
		{"bidi mark in a URL", strings.Replace(srcGoodMeta, "https://github.com/logos", "\"https://github.com/\\u202elogos\"", 1)},
		{"LicenseRef without license_url", strings.Replace(srcGoodMeta, "CC0-1.0", "LicenseRef-Brand", 1)},
		{"override LicenseRef without license_url", srcGoodMeta + "files:\n  wordmark: {license: LicenseRef-X}\n"},
		{"via as text", srcGoodMeta + "via: simple-icons 16.37.0\n"},
		{"via without a version", srcGoodMeta + "via: {name: simple-icons, url: https://x.example}\n"},
		{"via with an unknown key", srcGoodMeta + "via: {name: x, version: 1.0.0, url: https://x.example, file: x.svg}\n"},
		{"via with a relative url", srcGoodMeta + "via: {name: x, version: 1.0.0, url: x.example}\n"},
		{"via with an empty name", srcGoodMeta + "via: {name: \"\", version: 1.0.0, url: https://x.example}\n"},
		{"via at latest", srcGoodMeta + "via: {name: x, version: Latest, url: https://x.example}\n"},
		{"via at a branch", srcGoodMeta + "via: {name: x, version: master, url: https://x.example}\n"},
		{"via at a caret range", srcGoodMeta + "via: {name: x, version: ^16.37.0, url: https://x.example}\n"},
		{"via at a hyphen range", srcGoodMeta + "via: {name: x, version: 1.0 - 2.0, url: https://x.example}\n"},
		{"via at a wildcard", srcGoodMeta + "via: {name: x, version: 16.x, url: https://x.example}\n"},
		{"via at any version", srcGoodMeta + "via: {name: x, version: \"*\", url: https://x.example}\n"},
		{"override via without a url", srcGoodMeta + "files:\n  wordmark: {via: {name: devicon, version: 2.17.0}}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if errs := schematest.Validate(logo, srcYAMLValue(t, []byte(tc.yaml))); len(errs) == 0 {
				t.Errorf("schema accepted:\n%s", tc.yaml)
			}
			// The generator rejects it too.
			if _, probs := source.ParseMeta(&source.File{Path: "l.yaml", Data: []byte(tc.yaml)}); len(probs) == 0 {
				t.Errorf("generator accepted:\n%s", tc.yaml)
			}
		})
	}
	cats := srcCompileSchema(t, "categories.schema.json")
	if errs := schematest.Validate(cats, srcYAMLValue(t, []byte("- {slug: Dev Tools, name: X}\n"))); len(errs) == 0 {
		t.Error("categories schema accepted a bad slug")
	}
	if errs := schematest.Validate(cats, srcYAMLValue(t, []byte("- {slug: ai, name: \"A\\u200fI\"}\n"))); len(errs) == 0 {
		t.Error("categories schema accepted a bidi mark in a name")
	}
}

// TestSchemaAcceptsVia: the versions the build takes as one release, the
// schema takes too, at the top level and in a files: entry.
func TestSchemaAcceptsVia(t *testing.T) {
	logo := srcCompileSchema(t, "logo.schema.json")
	for _, version := range []string{"16.37.0", "v2.17.0", "\"2.0\"", "3.0.0-beta.2", "5dee713", "2024-05-01", "r8", "latest-2", "xenial", "1.x1", "main.1"} {
		for _, yaml := range []string{
			srcGoodMeta + "via: {name: x, version: " + version + ", url: https://x.example}\n",
			srcGoodMeta + "files:\n  wordmark: {source: https://x.example, via: {name: x, version: " + version + ", url: https://x.example}}\n",
		} {
			if errs := schematest.Validate(logo, srcYAMLValue(t, []byte(yaml))); len(errs) > 0 {
				t.Errorf("schema refused:\n%s%q", yaml, errs)
			}
			if _, probs := source.ParseMeta(&source.File{Path: "l.yaml", Data: []byte(yaml)}); len(probs) > 0 {
				t.Errorf("generator refused:\n%s%s", yaml, probs.Error())
			}
		}
	}
}

// TestSchemaComponentNames keeps the schema's list of names a component
// cannot take in step with the template the build derives it from.
func TestSchemaComponentNames(t *testing.T) {
	b, err := os.ReadFile("schema/logo.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Properties struct {
			Component struct {
				Not struct{ Enum []string }
			}
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	used, _, err := render.TemplateNames(nil)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for name := range used {
		if srcComponentRE.MatchString(name) {
			want = append(want, name)
		}
	}
	slices.Sort(want)
	if diff := cmp.Diff(want, doc.Properties.Component.Not.Enum); diff != "" {
		t.Errorf("logo.schema.json: component.not.enum differs from the names the template uses (-template +schema):\n%s", diff)
	}
	if errs := schematest.Validate(srcCompileSchema(t, "logo.schema.json"), srcYAMLValue(t, []byte(srcGoodMeta+"component: React\n"))); len(errs) == 0 {
		t.Error("the schema accepts component: React")
	}
}

// srcSchemaExceptions are the files of testdata/bad that the schemas and the
// build's rules judge differently, by "<case>/<path>", each with why a JSON
// Schema cannot agree. Every other file must be refused by both or by
// neither.
var srcSchemaExceptions = map[string]string{
	// removed.yaml's rules across entries and logos: a schema sees one
	// file alone.
	"removed-live/removed.yaml":                "the slug is a logo folder of the source tree",
	"removed-replacement-unknown/removed.yaml": "replaced_by must be a logo folder of the source tree",
	"removed-chain/removed.yaml":               "replaced_by must not be another entry's slug",
	"removed-duplicate/removed.yaml":           "a slug twice: uniqueItems compares whole entries, not their slugs",
	// Not YAML a schema can read: there is no JSON value to validate, and
	// the editor's YAML parser, not the schema, reports these.
	"yaml-tabs/acme/logo.yaml":           "not valid YAML (a tab in the indentation)",
	"yaml-not-utf8/acme/logo.yaml":       "not UTF-8 text",
	"yaml-utf16-no-bom/acme/logo.yaml":   "UTF-16 text, which a YAML parser reads as control characters",
	"yaml-duplicate-keys/acme/logo.yaml": "a key twice in one mapping: YAML forbids it and a JSON object cannot hold it",
	"yaml-alias-bomb/acme/logo.yaml":     "an alias bomb: YAML decoders give up before a JSON value exists",
	// YAML structure that is gone by the time a JSON value exists.
	"yaml-anchors-aliases/acme/logo.yaml": "aliases are expanded into the JSON value; the schema cannot see that a value was an alias",
	"yaml-document-list/acme/logo.yaml":   "more than one YAML document: a schema validates one document at a time",
	// Rules that need another file than the one the schema sees.
	"categories-unknown-used/acme/logo.yaml":             "categories must be listed in categories.yaml, which the logo schema does not know",
	"yaml-files-override-missing-variant/acme/logo.yaml": "files: names a variant whose SVG file is missing: the rule looks at the folder",
	"component-collision/acme-two/logo.yaml":             "two logos declare one component name: the rule compares logos",
	"component-default-collision/gitlab/logo.yaml":       "two logos' default component names collide: the rule compares logos",
	"yaml-license-not-spdx/acme/logo.yaml":               "the SPDX licence list is in the build (generator/internal/spdx), not in the schema, which checks only the shape of an identifier",
}

// TestSchemasAgreeWithRules runs every logo.yaml and categories.yaml of
// the bad-input corpus and of the shipped collection through both the JSON
// Schemas editors use and the build's rules (a Build that writes nothing,
// errors only): a file one refuses the other must refuse, except the
// srcSchemaExceptions. The shipped files must pass both.
func TestSchemasAgreeWithRules(t *testing.T) {
	schemas := map[string]*jsonschema.Schema{
		"logo.yaml":       srcCompileSchema(t, "logo.schema.json"),
		"categories.yaml": srcCompileSchema(t, "categories.schema.json"),
		"removed.yaml":    srcCompileSchema(t, "removed.schema.json"),
	}
	dirs, _ := filepath.Glob("testdata/bad/*/src")
	if len(dirs) < 60 { // a moved corpus must not pass by checking nothing
		t.Fatalf("the corpus has %d cases, want at least 60", len(dirs))
	}
	seen := map[string]bool{}
	for _, dir := range append(dirs, "../source-logos") {
		name := filepath.Base(filepath.Dir(dir))
		shipped := dir == "../source-logos"
		if shipped {
			name = "source-logos"
		}
		t.Run(name, func(t *testing.T) {
			fsys := os.DirFS(dir)
			refused := srcRuleRefusals(t, fsys)
			files, _ := fs.Glob(fsys, "*/logo.yaml")
			files = append(files, "categories.yaml", "removed.yaml")
			if shipped && len(files) < 60 {
				t.Fatalf("found %d files, want the whole collection (60+)", len(files))
			}
			for _, file := range files {
				data, err := fs.ReadFile(fsys, file)
				if errors.Is(err, fs.ErrNotExist) {
					continue
				} else if err != nil {
					t.Fatal(err)
				}
				var schemaSays []string
				v, yamlErr := srcYAMLToJSON(data)
				if yamlErr == nil {
					schemaSays = schematest.Validate(schemas[path.Base(file)], v)
				}
				rules := refused[file]
				key := name + "/" + file
				reason, excepted := srcSchemaExceptions[key]
				seen[key] = true
				// A file that is no JSON value gets no verdict from the schema.
				agree := yamlErr == nil && (len(schemaSays) > 0) == (len(rules) > 0)
				switch {
				case shipped && (len(schemaSays) > 0 || len(rules) > 0 || yamlErr != nil):
					t.Errorf("%s: a shipped file must pass both; the rules say %q, the schema says %q (YAML: %v)", file, rules, schemaSays, yamlErr)
				case agree && excepted:
					t.Errorf("%s: the schema and the rules agree now; remove it from srcSchemaExceptions (%s)", key, reason)
				case !agree && !excepted:
					t.Errorf("%s: the schema and the rules disagree; fix the schema, or list the file in srcSchemaExceptions with why a JSON Schema cannot say so\nrules:  %q\nschema: %q\nYAML:   %v", key, rules, schemaSays, yamlErr)
				}
			}
		})
	}
	for key := range srcSchemaExceptions {
		if !seen[key] {
			t.Errorf("srcSchemaExceptions lists %s, which is not in the corpus", key)
		}
	}
}

// srcRuleRefusals checks the source tree fsys as a build does, writing
// nothing, and returns the errors the rules give each file, by path.
func srcRuleRefusals(t *testing.T, fsys fs.FS) map[string][]string {
	t.Helper()
	_, err := Build(context.Background(), fsys, Options{})
	var probs ProblemList
	if err != nil && !errors.As(err, &probs) {
		t.Fatalf("Build: %v", err)
	}
	out := map[string][]string{}
	for _, pr := range probs.Errors() {
		out[pr.Path] = append(out[pr.Path], pr.Msg)
	}
	return out
}
