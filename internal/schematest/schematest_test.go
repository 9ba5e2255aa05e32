package schematest

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCompileRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, ptr, want string
		doc             any
	}{
		{"typo in a keyword", "", "unknown keywords /properties/a/maxLenght",
			map[string]any{"properties": map[string]any{"a": map[string]any{"maxLenght": 3}}}},
		{"unknown keyword in allOf", "", "unknown keywords /allOf/0/nullable",
			map[string]any{"allOf": []any{map[string]any{"nullable": true}}}},
		{"OpenAPI keyword", "/components/schemas/A", "unknown keywords /components/schemas/A/example",
			map[string]any{"components": map[string]any{"schemas": map[string]any{"A": map[string]any{"type": "string", "example": "x"}}}}},
		{"bad type deep in a document", "/components/schemas/A", "is not a valid schema",
			map[string]any{"components": map[string]any{"schemas": map[string]any{"A": map[string]any{"type": "strng"}}}}},
		{"bad pointer", "/nowhere", `no member "nowhere"`, map[string]any{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compile("doc.json", tc.doc, tc.ptr)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Compile: %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	doc := map[string]any{
		"type":                 "object",
		"required":             []any{"a"},
		"additionalProperties": false,
		"properties": map[string]any{
			"a":   map[string]any{"$ref": "#/$defs/slug"},
			"b/c": map[string]any{"type": "integer"},
		},
		"$defs": map[string]any{"slug": map[string]any{"type": "string", "pattern": "^[a-z]+$"}},
	}
	s, err := Compile("doc.json", doc, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := Validate(s, map[string]any{"a": "ok", "b/c": 1}); got != nil {
		t.Errorf("valid value: %q", got)
	}
	got := Validate(s, map[string]any{"a": "Not", "b/c": "x", "d": true})
	want := []string{
		"(root): additional properties 'd' not allowed",
		"/a: 'Not' does not match pattern '^[a-z]+$'",
		"/b~1c: got string, want integer",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Validate (-want +got):\n%s", diff)
	}
}
