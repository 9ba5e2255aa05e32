package jsonschema

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
)

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad test JSON %s: %v", s, err)
	}
	return v
}

func messages(errs []error) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		value  string
		want   []string
	}{
		{"true schema", `true`, `{"a":1}`, nil},
		{"false schema", `false`, `1`, []string{"(root): no value is allowed here"}},
		{"empty schema", `{}`, `[1,"x",null]`, nil},

		{"type ok", `{"type":"string"}`, `"x"`, nil},
		{"type bad", `{"type":"string"}`, `1`, []string{`(root): 1 is an integer, want string`}},
		{"type array with null", `{"type":["string","null"]}`, `null`, nil},
		{"type array bad", `{"type":["string","null"]}`, `true`, []string{`(root): true is a boolean, want string or null`}},
		{"integer accepts 2.0", `{"type":"integer"}`, `2.0`, nil},
		{"integer rejects 2.5", `{"type":"integer"}`, `2.5`, []string{`(root): 2.5 is a number, want integer`}},
		{"number accepts integer", `{"type":"number"}`, `3`, nil},
		{"object type", `{"type":"object"}`, `[]`, []string{`(root): [] is an array, want object`}},
		{"array type", `{"type":"array"}`, `{}`, []string{`(root): {} is an object, want array`}},
		{"null type", `{"type":"null"}`, `0`, []string{`(root): 0 is an integer, want null`}},

		{"enum ok", `{"enum":["live","building","failed"]}`, `"live"`, nil},
		{"enum bad", `{"enum":["live","building","failed"]}`, `"x"`, []string{`(root): "x" is not one of [live building failed]`}},
		{"enum numbers by value", `{"enum":[1,2]}`, `1.0`, nil},
		{"enum objects", `{"enum":[{"a":[1]}]}`, `{"a":[1]}`, nil},
		{"enum objects differ", `{"enum":[{"a":[1]}]}`, `{"a":[2]}`, []string{`(root): {"a":[2]} is not one of [map[a:[1]]]`}},
		{"const ok", `{"const":true}`, `true`, nil},
		{"const bad", `{"const":"a"}`, `"b"`, []string{`(root): "b" is not "a"`}},
		{"const null", `{"const":null}`, `false`, []string{`(root): false is not null`}},

		{"required", `{"required":["a","b"]}`, `{"a":1}`, []string{`(root): missing required property "b"`}},
		{"required ignores non-objects", `{"required":["a"]}`, `"x"`, nil},
		{"properties nested path", `{"properties":{"data":{"items":{"properties":{"status":{"enum":["live","building","failed"]}}}}}}`,
			`{"data":[{"status":"live"},{"status":"x"}]}`,
			[]string{`/data/1/status: "x" is not one of [live building failed]`}},
		{"additionalProperties false", `{"properties":{"a":{}},"additionalProperties":false}`, `{"a":1,"b":2,"c":3}`,
			[]string{`/b: property "b" is not allowed`, `/c: property "c" is not allowed`}},
		{"additionalProperties schema", `{"additionalProperties":{"type":"string"}}`, `{"a":"x","b":2}`,
			[]string{`/b: 2 is an integer, want string`}},
		{"additionalProperties true", `{"additionalProperties":true}`, `{"a":1}`, nil},
		{"pointer escaping", `{"additionalProperties":{"type":"string"}}`, `{"a/b~c":1}`,
			[]string{`/a~1b~0c: 1 is an integer, want string`}},
		{"patternProperties", `{"patternProperties":{"^x-":{"type":"integer"}},"additionalProperties":false}`, `{"x-a":1,"x-b":"s","y":1}`,
			[]string{`/x-b: "s" is a string, want integer`, `/y: property "y" is not allowed`}},
		{"propertyNames", `{"propertyNames":{"pattern":"^[a-z]+$"}}`, `{"ok":1,"NO":2}`,
			[]string{`/NO: property name: "NO" does not match pattern "^[a-z]+$"`}},
		{"minProperties", `{"minProperties":2}`, `{"a":1}`, []string{`(root): has 1 properties, want at least 2`}},
		{"maxProperties", `{"maxProperties":1}`, `{"a":1,"b":2}`, []string{`(root): has 2 properties, want at most 1`}},

		{"items", `{"items":{"type":"integer"}}`, `[1,"a",2,null]`,
			[]string{`/1: "a" is a string, want integer`, `/3: null is a null, want integer`}},
		{"minItems", `{"minItems":1}`, `[]`, []string{`(root): has 0 items, want at least 1`}},
		{"maxItems", `{"maxItems":1}`, `[1,2]`, []string{`(root): has 2 items, want at most 1`}},
		{"uniqueItems ok", `{"uniqueItems":true}`, `[1,"1",[1]]`, nil},
		{"uniqueItems bad", `{"uniqueItems":true}`, `["a","b","a"]`, []string{`/2: "a" repeats item 0`}},

		{"minLength counts code points", `{"minLength":2}`, `"é"`, []string{`(root): "é" has 1 characters, want at least 2`}},
		{"maxLength", `{"maxLength":3}`, `"abcd"`, []string{`(root): "abcd" has 4 characters, want at most 3`}},
		{"maxLength ok unicode", `{"maxLength":3}`, `"日本語"`, nil},
		{"pattern unanchored", `{"pattern":"b+"}`, `"abbc"`, nil},
		{"pattern bad", `{"pattern":"^[a-z_]+$"}`, `"A"`, []string{`(root): "A" does not match pattern "^[a-z_]+$"`}},
		{"string keywords ignore numbers", `{"minLength":3,"pattern":"x"}`, `1`, nil},

		{"minimum", `{"minimum":1}`, `0`, []string{`(root): 0 is less than the minimum 1`}},
		{"minimum equal ok", `{"minimum":1}`, `1`, nil},
		{"maximum", `{"maximum":100}`, `100.5`, []string{`(root): 100.5 is more than the maximum 100`}},
		{"exclusiveMinimum", `{"exclusiveMinimum":0}`, `0`, []string{`(root): 0 is not more than 0`}},
		{"exclusiveMaximum", `{"exclusiveMaximum":1}`, `1`, []string{`(root): 1 is not less than 1`}},

		{"date-time ok", `{"format":"date-time"}`, `"2024-05-01T10:00:00.123Z"`, nil},
		{"date-time offset", `{"format":"date-time"}`, `"2024-05-01T10:00:00+02:00"`, nil},
		{"date-time lower case", `{"format":"date-time"}`, `"2024-05-01t10:00:00z"`, nil},
		{"date-time bad", `{"format":"date-time"}`, `"2024-05-01 10:00"`, []string{`(root): "2024-05-01 10:00" is not a valid date-time`}},
		{"date ok", `{"format":"date"}`, `"2024-02-29"`, nil},
		{"date bad", `{"format":"date"}`, `"2023-02-29"`, []string{`(root): "2023-02-29" is not a valid date`}},
		{"uri ok", `{"format":"uri"}`, `"http://127.0.0.1:8787/_deployments/x/"`, nil},
		{"uri relative", `{"format":"uri"}`, `"/a/b"`, []string{`(root): "/a/b" is not a valid uri`}},
		{"uri junk", `{"format":"uri"}`, `"http://[::1"`, []string{`(root): "http://[::1" is not a valid uri`}},

		{"allOf", `{"allOf":[{"minimum":1},{"maximum":2}]}`, `3`, []string{`(root): 3 is more than the maximum 2`}},
		{"anyOf ok", `{"anyOf":[{"type":"string"},{"type":"integer"}]}`, `1`, nil},
		{"anyOf bad", `{"anyOf":[{"type":"string"},{"type":"integer"}]}`, `true`,
			[]string{`(root): true matches no schema of anyOf ((root): true is a boolean, want string; (root): true is a boolean, want integer)`}},
		{"oneOf ok", `{"oneOf":[{"type":"string"},{"type":"integer"}]}`, `"a"`, nil},
		{"oneOf two", `{"oneOf":[{"type":"number"},{"type":"integer"}]}`, `1`, []string{`(root): 1 matches 2 schemas of oneOf, want exactly 1`}},
		{"oneOf none", `{"oneOf":[{"const":1}]}`, `2`, []string{`(root): 2 matches no schema of oneOf ((root): 2 is not 1)`}},
		{"not", `{"not":{"type":"null"}}`, `null`, []string{`(root): null matches a schema it must not match`}},

		{"ref to $defs", `{"$defs":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/s"}}}`, `{"a":1}`,
			[]string{`/a: 1 is an integer, want string`}},
		{"ref with sibling", `{"$defs":{"s":{"type":"string"}},"$ref":"#/$defs/s","maxLength":1}`, `"ab"`,
			[]string{`(root): "ab" has 2 characters, want at most 1`}},
		{"recursive ref", `{"properties":{"v":{"type":"integer"},"next":{"$ref":"#"}},"additionalProperties":false}`,
			`{"v":1,"next":{"v":2,"next":{"v":"x","z":0}}}`,
			[]string{`/next/next/v: "x" is a string, want integer`, `/next/next/z: property "z" is not allowed`}},
		{"annotations ignored", `{"title":"t","description":"d","default":1,"examples":[1],"x-go":"y","deprecated":true,"$comment":"c"}`, `2`, nil},
		{"multiple errors", `{"type":"object","required":["id"],"properties":{"n":{"type":"integer","minimum":1}}}`, `{"n":0}`,
			[]string{`(root): missing required property "id"`, `/n: 0 is less than the minimum 1`}},
		{"long values are cut", `{"type":"integer"}`, `"` + strings.Repeat("a", 100) + `"`,
			[]string{`(root): "` + strings.Repeat("a", 56) + `... is a string, want integer`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Compile(decode(t, tt.schema), "")
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			if diff := cmp.Diff(tt.want, messages(s.Validate(decode(t, tt.value)))); diff != "" {
				t.Errorf("Validate(%s) errors (-want +got):\n%s", tt.value, diff)
			}
		})
	}
}

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		name, schema, pointer, want string
	}{
		{"unknown keyword", `{"tpye":"string"}`, "", `jsonschema: #/tpye: unsupported keyword`},
		{"openapi 3.0 nullable", `{"nullable":true}`, "", `jsonschema: #/nullable: unsupported keyword`},
		{"unknown type", `{"type":"str"}`, "", `jsonschema: #/type: unknown type "str"`},
		{"type not string", `{"type":1}`, "", `jsonschema: #/type: must be a string or an array of strings`},
		{"empty type array", `{"type":[]}`, "", `jsonschema: #/type: empty type array`},
		{"bad pattern", `{"pattern":"("}`, "", "jsonschema: #/pattern: error parsing regexp: missing closing ): `(`"},
		{"unknown format", `{"format":"email"}`, "", `jsonschema: #/format: unsupported format "email"`},
		{"negative minLength", `{"minLength":-1}`, "", `jsonschema: #/minLength: must be a non-negative integer`},
		{"fractional maxItems", `{"maxItems":1.5}`, "", `jsonschema: #/maxItems: must be a non-negative integer`},
		{"minimum not number", `{"minimum":"1"}`, "", `jsonschema: #/minimum: must be a number`},
		{"required not strings", `{"required":[1]}`, "", `jsonschema: #/required: must be an array of strings`},
		{"enum not array", `{"enum":"a"}`, "", `jsonschema: #/enum: must be an array`},
		{"empty anyOf", `{"anyOf":[]}`, "", `jsonschema: #/anyOf: must be a non-empty array of schemas`},
		{"schema not object", `{"properties":{"a":1}}`, "", `jsonschema: #/properties/a: a schema must be an object or a boolean, not integer`},
		{"tuple items not supported", `{"items":[{}]}`, "", `jsonschema: #/items: a schema must be an object or a boolean, not array`},
		{"external ref", `{"$ref":"other.json#/a"}`, "", `jsonschema: #/$ref: only references within the document (#...) are supported, not "other.json#/a"`},
		{"dangling ref", `{"$ref":"#/$defs/missing"}`, "", `jsonschema: #/$ref: pointer "/$defs/missing": no member "$defs"`},
		{"error inside ref target", `{"$defs":{"a":{"type":"nope"}},"$ref":"#/$defs/a"}`, "", `jsonschema: #/$defs/a/type: unknown type "nope"`},
		{"bad pointer", `{}`, "/nope", `jsonschema: pointer "/nope": no member "nope"`},
		{"pointer not slash", `{}`, "nope", `jsonschema: pointer "nope" does not start with /`},
		{"bad patternProperties", `{"patternProperties":{"[":{}}}`, "", "jsonschema: #/patternProperties: pattern \"[\": error parsing regexp: missing closing ]: `[`"},
		{"uniqueItems not bool", `{"uniqueItems":1}`, "", `jsonschema: #/uniqueItems: must be a boolean`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compile(decode(t, tt.schema), tt.pointer)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("Compile error:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestOpenAPIStyleDocument compiles schemas out of a YAML document the way an
// OpenAPI 3.1 checker does: pointers into components, YAML-decoded ints.
func TestOpenAPIStyleDocument(t *testing.T) {
	const doc = `
openapi: 3.1.0
components:
  schemas:
    List:
      type: object
      required: [data, has_more]
      additionalProperties: false
      properties:
        data:
          type: array
          maxItems: 2
          items: {$ref: '#/components/schemas/Item'}
        has_more: {type: boolean}
    Item:
      type: object
      required: [id, status]
      properties:
        id: {type: string, pattern: '^dep_'}
        status: {enum: [live, building, failed]}
        error: {type: [string, "null"]}
        created_at: {type: string, format: date-time}
        count: {type: integer, minimum: 0, maximum: 10}
`
	var v any
	if err := yaml.Unmarshal([]byte(doc), &v); err != nil {
		t.Fatal(err)
	}
	s, err := Compile(v, "#/components/schemas/List")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		value string
		want  []string
	}{
		{"valid", `{"data":[{"id":"dep_1","status":"live","error":null,"created_at":"2024-01-01T00:00:00Z","count":3}],"has_more":false}`, nil},
		{"many faults", `{"data":[{"id":"x","status":"gone","count":11},{}, {}],"has_more":"no","extra":1}`, []string{
			`/data: has 3 items, want at most 2`,
			`/data/0/count: 11 is more than the maximum 10`,
			`/data/0/id: "x" does not match pattern "^dep_"`,
			`/data/0/status: "gone" is not one of [live building failed]`,
			`/data/1: missing required property "id"`,
			`/data/1: missing required property "status"`,
			`/data/2: missing required property "id"`,
			`/data/2: missing required property "status"`,
			`/extra: property "extra" is not allowed`,
			`/has_more: "no" is a string, want boolean`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, messages(s.Validate(decode(t, tt.value)))); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGoValues checks values that were not decoded from JSON: YAML ints,
// json.Number, typed Go numbers.
func TestGoValues(t *testing.T) {
	s := MustCompile(decode(t, `{"type":"integer","minimum":1,"enum":[1,2,3]}`), "")
	for _, v := range []any{int(2), int64(3), uint8(1), json.Number("2"), float32(3)} {
		if errs := s.Validate(v); errs != nil {
			t.Errorf("Validate(%T %v) = %v, want no errors", v, v, errs)
		}
	}
	if errs := s.Validate(json.Number("2.5")); len(errs) != 1 {
		t.Errorf("Validate(json.Number 2.5) = %v, want one error", errs)
	}
	if errs := s.Validate(struct{}{}); len(errs) != 1 {
		t.Errorf("Validate(struct{}) = %v, want one error", errs)
	}
}

func TestValidationErrorPath(t *testing.T) {
	s := MustCompile(decode(t, `{"items":{"type":"string"}}`), "")
	errs := s.Validate([]any{"a", 1})
	if len(errs) != 1 {
		t.Fatalf("got %v, want one error", errs)
	}
	ve, ok := errs[0].(*ValidationError)
	if !ok {
		t.Fatalf("error is %T, want *ValidationError", errs[0])
	}
	if diff := cmp.Diff(ValidationError{Path: "/1", Message: "1 is an integer, want string"}, *ve); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestMustCompilePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustCompile of a bad schema did not panic")
		}
	}()
	MustCompile(map[string]any{"type": "bogus"}, "")
}

func TestSchemaErrorType(t *testing.T) {
	_, err := Compile(decode(t, `{"properties":{"a":{"minimum":"x"}}}`), "")
	var se *SchemaError
	if !errors.As(err, &se) || se.Pointer != "/properties/a/minimum" || se.Message != "must be a number" {
		t.Errorf("Compile error %#v, want a *SchemaError at /properties/a/minimum", err)
	}
}
