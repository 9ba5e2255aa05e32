// Package schematest checks values against JSON Schemas in tests, with
// github.com/santhosh-tekuri/jsonschema/v6 (draft 2020-12, formats asserted).
//
// It adds one rule the library leaves out: a keyword outside JSON Schema
// 2020-12 is an error, not an annotation, so that a typo in a schema
// ("maxLenght") cannot silently turn a check off.
//
//	s, err := schematest.Compile("openapi.yaml", doc, "/components/schemas/Key")
//	for _, msg := range schematest.Validate(s, value) { ... }
package schematest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Compile compiles the schema at the JSON pointer ptr ("" for the root) of
// doc, a value decoded from JSON or YAML. name names doc in messages. The
// schema must use only JSON Schema 2020-12 keywords and be valid against
// its meta-schema.
func Compile(name string, doc any, ptr string) (*jsonschema.Schema, error) {
	sub, err := resolve(doc, ptr)
	if err != nil {
		return nil, fmt.Errorf("%s#%s: %v", name, ptr, err)
	}
	if bad := UnknownKeywords(sub, ptr); len(bad) > 0 {
		return nil, fmt.Errorf("%s: unknown keywords %s; JSON Schema 2020-12 has no such keyword, so it would check nothing", name, strings.Join(bad, ", "))
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource(name, doc); err != nil {
		return nil, err
	}
	// The library checks a document's root against the meta-schema; a
	// schema deeper inside another document (OpenAPI's components) is
	// checked here.
	meta, err := c.Compile("https://json-schema.org/draft/2020-12/schema")
	if err != nil {
		return nil, err
	}
	if msgs := Validate(meta, sub); len(msgs) > 0 {
		return nil, fmt.Errorf("%s#%s is not a valid schema: %s", name, ptr, strings.Join(msgs, "; "))
	}
	return c.Compile(name + "#" + ptr)
}

// Validate returns what is wrong with v, one "<pointer>: <message>" a
// failed keyword ("(root)" for v itself), sorted, or nothing when v is
// valid. v must hold JSON types: map[string]any, []any, string, bool, nil
// and numbers (json.Number, float64 or int).
func Validate(s *jsonschema.Schema, v any) []string {
	err := s.Validate(v)
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return []string{err.Error()}
	}
	var out []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		switch e.ErrorKind.(type) {
		case *kind.Schema, *kind.Reference, *kind.Group:
			// wrappers: their causes say what failed
		default:
			p := "(root)"
			for i, tok := range e.InstanceLocation {
				if i == 0 {
					p = ""
				}
				p += "/" + escapeToken(tok)
			}
			out = append(out, p+": "+e.ErrorKind.LocalizedString(english))
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	slices.Sort(out) // the library meets properties in map order
	return out
}

var english = message.NewPrinter(language.English)

// Keywords of JSON Schema 2020-12, by what their value holds.
var (
	schemaKeywords = []string{ // one schema
		"items", "contains", "additionalProperties", "propertyNames", "if", "then", "else", "not",
		"unevaluatedItems", "unevaluatedProperties", "contentSchema",
	}
	schemaListKeywords = []string{"prefixItems", "allOf", "anyOf", "oneOf"}
	schemaMapKeywords  = []string{"$defs", "properties", "patternProperties", "dependentSchemas"}
	valueKeywords      = []string{ // anything else: no schema inside
		"$schema", "$id", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary", "$comment",
		"type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
		"maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains", "minContains",
		"maxProperties", "minProperties", "required", "dependentRequired",
		"title", "description", "default", "deprecated", "readOnly", "writeOnly", "examples",
		"format", "contentEncoding", "contentMediaType",
	}
)

// UnknownKeywords walks the schema s, found at the JSON pointer at, and
// returns the pointer of every keyword that is not JSON Schema 2020-12's,
// sorted. Values of enum, const, default and the like are not walked.
func UnknownKeywords(s any, at string) []string {
	var bad []string
	var walk func(s any, at string)
	walk = func(s any, at string) {
		obj, ok := s.(map[string]any)
		if !ok {
			return // a boolean schema, or a type error the meta-schema reports
		}
		for k, v := range obj {
			p := at + "/" + escapeToken(k)
			switch {
			case slices.Contains(schemaKeywords, k):
				walk(v, p)
			case slices.Contains(schemaListKeywords, k):
				list, _ := v.([]any)
				for i, sub := range list {
					walk(sub, p+"/"+strconv.Itoa(i))
				}
			case slices.Contains(schemaMapKeywords, k):
				m, _ := v.(map[string]any)
				for name, sub := range m {
					walk(sub, p+"/"+escapeToken(name))
				}
			case slices.Contains(valueKeywords, k):
			default:
				bad = append(bad, p)
			}
		}
	}
	walk(s, at)
	slices.Sort(bad)
	return bad
}

// resolve returns the value at the JSON pointer ptr of doc.
func resolve(doc any, ptr string) (any, error) {
	if ptr == "" {
		return doc, nil
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, fmt.Errorf("%q is not a JSON pointer", ptr)
	}
	cur := doc
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[tok]
			if !ok {
				return nil, fmt.Errorf("no member %q", tok)
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, fmt.Errorf("no element %q", tok)
			}
			cur = c[i]
		default:
			return nil, fmt.Errorf("nothing inside at %q", tok)
		}
	}
	return cur, nil
}

// escapeToken escapes one reference token of a JSON pointer (RFC 6901).
func escapeToken(tok string) string {
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}
