// Package jsonschema validates decoded JSON (or YAML) values against a
// subset of JSON Schema draft 2020-12: enough for the response schemas of an
// OpenAPI 3.1 document and for small document formats such as logo.yaml.
//
// A schema is compiled from a decoded document (map[string]any, []any,
// string, bool, nil and any Go number type, as produced by encoding/json or
// gopkg.in/yaml.v3) and a JSON pointer to the schema inside it:
//
//	s, err := jsonschema.Compile(doc, "/components/schemas/Deployment")
//	for _, err := range s.Validate(value) { ... }
//
// Supported keywords:
//
//   - type: a name or an array of names out of null, boolean, object, array,
//     number, integer, string (integer accepts any number with no fraction)
//   - enum, const (numbers compare by value: 1 equals 1.0)
//   - object: properties, required, additionalProperties (boolean or schema),
//     patternProperties, propertyNames, minProperties, maxProperties
//   - array: items (one schema for every element), minItems, maxItems,
//     uniqueItems
//   - string: minLength, maxLength (counted in Unicode code points), pattern
//     (Go RE2 syntax, unanchored as JSON Schema says), format
//   - number: minimum, maximum, exclusiveMinimum, exclusiveMaximum (numbers)
//   - format: date-time (RFC 3339), date (RFC 3339 full-date), uri (absolute
//     URI); format is asserted, not just annotated
//   - allOf, anyOf, oneOf, not
//   - $ref to a JSON pointer within the same document ("#/$defs/name",
//     "#/components/schemas/Name", "#"); sibling keywords apply as well, and
//     recursive references work
//   - boolean schemas true and false; $defs (compiled, so errors in them show)
//
// Annotations are accepted and ignored: $schema, $id, $comment, title,
// description, default, examples, deprecated, readOnly, writeOnly, and the
// OpenAPI additions example, discriminator, xml, externalDocs and any x-*
// extension. Every other keyword, and any unknown format, is a compile error,
// so that a typo in a schema cannot silently turn a check off.
package jsonschema

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Schema is a compiled schema. Its zero value accepts everything.
type Schema struct {
	ptr string // where the schema sits in its document, for messages

	always *bool // set for the boolean schemas true and false

	types []string

	enum     []any
	hasConst bool
	constVal any

	properties        map[string]*Schema
	required          []string
	additional        *Schema
	patternProperties []patternSchema
	propertyNames     *Schema
	minProperties     *int
	maxProperties     *int

	items       *Schema
	minItems    *int
	maxItems    *int
	uniqueItems bool

	minLength *int
	maxLength *int
	pattern   *regexp.Regexp
	format    string

	minimum          *float64
	maximum          *float64
	exclusiveMinimum *float64
	exclusiveMaximum *float64

	allOf []*Schema
	anyOf []*Schema
	oneOf []*Schema
	not   *Schema
	ref   *Schema
}

type patternSchema struct {
	re     *regexp.Regexp
	schema *Schema
}

// ValidationError is one failure: Path is the JSON pointer of the failing
// value inside the validated value ("" for the value itself).
type ValidationError struct {
	Path    string
	Message string
}

// Error formats the failure as "<path>: <message>", the root shown as "(root)".
func (e *ValidationError) Error() string {
	p := e.Path
	if p == "" {
		p = "(root)"
	}
	return p + ": " + e.Message
}

var typeNames = []string{"null", "boolean", "object", "array", "number", "integer", "string"}

var formats = map[string]func(string) bool{
	"date-time": func(s string) bool {
		// RFC 3339 allows a lower-case t and z; Go's parser wants upper case.
		_, err := time.Parse(time.RFC3339Nano, strings.ToUpper(s))
		return err == nil
	},
	"date": func(s string) bool {
		_, err := time.Parse(time.DateOnly, s)
		return err == nil
	},
	"uri": func(s string) bool {
		u, err := url.Parse(s)
		return err == nil && u.Scheme != "" && strings.TrimSpace(s) == s
	},
}

var ignored = map[string]bool{
	"$schema": true, "$id": true, "$comment": true, "title": true, "description": true,
	"default": true, "examples": true, "deprecated": true, "readOnly": true, "writeOnly": true,
	"example": true, "discriminator": true, "xml": true, "externalDocs": true,
}

// Compile compiles the schema found at pointer inside doc. pointer is a JSON
// pointer ("" or "/" for the whole document, "/components/schemas/Error"); a
// leading "#" is accepted too. References are resolved within doc.
func Compile(doc any, pointer string) (*Schema, error) {
	c := &compiler{doc: doc, cache: map[string]*Schema{}}
	p := strings.TrimPrefix(pointer, "#")
	if p == "/" {
		p = ""
	}
	s, err := c.compileAt(p)
	if err != nil {
		if _, ok := err.(*SchemaError); !ok {
			err = fmt.Errorf("jsonschema: %w", err)
		}
		return nil, err
	}
	return s, nil
}

// SchemaError reports a schema that cannot be compiled: Pointer is where in
// the document the fault is.
type SchemaError struct {
	Pointer string
	Message string
}

// Error formats the fault as "jsonschema: #<pointer>: <message>".
func (e *SchemaError) Error() string {
	return "jsonschema: " + where(e.Pointer) + ": " + e.Message
}

// MustCompile is Compile that panics on error, for schemas known at build time.
func MustCompile(doc any, pointer string) *Schema {
	s, err := Compile(doc, pointer)
	if err != nil {
		panic(err)
	}
	return s
}

type compiler struct {
	doc   any
	cache map[string]*Schema
}

func (c *compiler) compileAt(ptr string) (*Schema, error) {
	if s, ok := c.cache[ptr]; ok {
		return s, nil
	}
	v, err := resolve(c.doc, ptr)
	if err != nil {
		return nil, err
	}
	s := &Schema{ptr: ptr}
	// Cached before compiling so that recursive references end here.
	c.cache[ptr] = s
	if err := c.fill(s, v); err != nil {
		delete(c.cache, ptr)
		return nil, err
	}
	return s, nil
}

// resolve follows a JSON pointer (RFC 6901) through maps and slices.
func resolve(doc any, ptr string) (any, error) {
	if ptr == "" {
		return doc, nil
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, fmt.Errorf("pointer %q does not start with /", ptr)
	}
	cur := doc
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch v := cur.(type) {
		case map[string]any:
			next, ok := v[tok]
			if !ok {
				return nil, fmt.Errorf("pointer %q: no member %q", ptr, tok)
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(v) {
				return nil, fmt.Errorf("pointer %q: bad index %q", ptr, tok)
			}
			cur = v[i]
		default:
			return nil, fmt.Errorf("pointer %q: %q is inside a %s", ptr, tok, typeOf(cur))
		}
	}
	return cur, nil
}

func escape(tok string) string {
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}

func (c *compiler) sub(ptr string, v any) (*Schema, error) {
	if s, ok := c.cache[ptr]; ok {
		return s, nil
	}
	s := &Schema{ptr: ptr}
	c.cache[ptr] = s
	if err := c.fill(s, v); err != nil {
		return nil, err
	}
	return s, nil
}

func (c *compiler) fill(s *Schema, v any) error {
	if b, ok := v.(bool); ok {
		s.always = &b
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return &SchemaError{s.ptr, "a schema must be an object or a boolean, not " + typeOf(v)}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := c.keyword(s, k, m[k]); err != nil {
			if se, ok := err.(*SchemaError); ok {
				return se // already names its place
			}
			return &SchemaError{s.ptr + "/" + escape(k), err.Error()}
		}
	}
	return nil
}

func where(ptr string) string {
	if ptr == "" {
		return "#"
	}
	return "#" + ptr
}

func (c *compiler) keyword(s *Schema, k string, v any) error {
	at := s.ptr + "/" + escape(k)
	switch k {
	case "type":
		switch t := v.(type) {
		case string:
			if !slices.Contains(typeNames, t) {
				return fmt.Errorf("unknown type %q", t)
			}
			s.types = []string{t}
		case []any:
			if len(t) == 0 {
				return fmt.Errorf("empty type array")
			}
			for _, e := range t {
				name, ok := e.(string)
				if !ok || !slices.Contains(typeNames, name) {
					return fmt.Errorf("unknown type %v", e)
				}
				s.types = append(s.types, name)
			}
		default:
			return fmt.Errorf("must be a string or an array of strings")
		}
	case "enum":
		a, ok := v.([]any)
		if !ok {
			return fmt.Errorf("must be an array")
		}
		s.enum = a
	case "const":
		s.hasConst, s.constVal = true, v
	case "properties":
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("must be an object")
		}
		s.properties = map[string]*Schema{}
		for name, ps := range m {
			sub, err := c.sub(at+"/"+escape(name), ps)
			if err != nil {
				return err
			}
			s.properties[name] = sub
		}
	case "required":
		a, ok := v.([]any)
		if !ok {
			return fmt.Errorf("must be an array of strings")
		}
		for _, e := range a {
			name, ok := e.(string)
			if !ok {
				return fmt.Errorf("must be an array of strings")
			}
			s.required = append(s.required, name)
		}
	case "additionalProperties", "propertyNames", "items", "not":
		sub, err := c.sub(at, v)
		if err != nil {
			return err
		}
		switch k {
		case "additionalProperties":
			s.additional = sub
		case "propertyNames":
			s.propertyNames = sub
		case "items":
			s.items = sub
		case "not":
			s.not = sub
		}
	case "patternProperties":
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("must be an object")
		}
		pats := make([]string, 0, len(m))
		for p := range m {
			pats = append(pats, p)
		}
		sort.Strings(pats)
		for _, p := range pats {
			re, err := regexp.Compile(p)
			if err != nil {
				return fmt.Errorf("pattern %q: %v", p, err)
			}
			sub, err := c.sub(at+"/"+escape(p), m[p])
			if err != nil {
				return err
			}
			s.patternProperties = append(s.patternProperties, patternSchema{re, sub})
		}
	case "minProperties", "maxProperties", "minItems", "maxItems", "minLength", "maxLength":
		n, ok := toFloat(v)
		if !ok || n < 0 || n != math.Trunc(n) || n > math.MaxInt32 {
			return fmt.Errorf("must be a non-negative integer")
		}
		i := int(n)
		switch k {
		case "minProperties":
			s.minProperties = &i
		case "maxProperties":
			s.maxProperties = &i
		case "minItems":
			s.minItems = &i
		case "maxItems":
			s.maxItems = &i
		case "minLength":
			s.minLength = &i
		case "maxLength":
			s.maxLength = &i
		}
	case "uniqueItems":
		b, ok := v.(bool)
		if !ok {
			return fmt.Errorf("must be a boolean")
		}
		s.uniqueItems = b
	case "pattern":
		p, ok := v.(string)
		if !ok {
			return fmt.Errorf("must be a string")
		}
		re, err := regexp.Compile(p)
		if err != nil {
			return err
		}
		s.pattern = re
	case "format":
		f, ok := v.(string)
		if !ok {
			return fmt.Errorf("must be a string")
		}
		if formats[f] == nil {
			return fmt.Errorf("unsupported format %q", f)
		}
		s.format = f
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		n, ok := toFloat(v)
		if !ok {
			return fmt.Errorf("must be a number")
		}
		switch k {
		case "minimum":
			s.minimum = &n
		case "maximum":
			s.maximum = &n
		case "exclusiveMinimum":
			s.exclusiveMinimum = &n
		case "exclusiveMaximum":
			s.exclusiveMaximum = &n
		}
	case "allOf", "anyOf", "oneOf":
		a, ok := v.([]any)
		if !ok || len(a) == 0 {
			return fmt.Errorf("must be a non-empty array of schemas")
		}
		var list []*Schema
		for i, e := range a {
			sub, err := c.sub(at+"/"+strconv.Itoa(i), e)
			if err != nil {
				return err
			}
			list = append(list, sub)
		}
		switch k {
		case "allOf":
			s.allOf = list
		case "anyOf":
			s.anyOf = list
		case "oneOf":
			s.oneOf = list
		}
	case "$ref":
		r, ok := v.(string)
		if !ok {
			return fmt.Errorf("must be a string")
		}
		if !strings.HasPrefix(r, "#") {
			return fmt.Errorf("only references within the document (#...) are supported, not %q", r)
		}
		p, err := url.PathUnescape(r[1:])
		if err != nil {
			return fmt.Errorf("bad reference %q: %v", r, err)
		}
		target, err := c.compileAt(p)
		if err != nil {
			return err
		}
		s.ref = target
	case "$defs":
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("must be an object")
		}
		for name := range m {
			if _, err := c.compileAt(at + "/" + escape(name)); err != nil {
				return err
			}
		}
	default:
		if ignored[k] || strings.HasPrefix(k, "x-") {
			return nil
		}
		return fmt.Errorf("unsupported keyword")
	}
	return nil
}

// Validate checks v against the schema and returns every failure, each a
// *ValidationError; nil means v is valid.
func (s *Schema) Validate(v any) []error {
	var errs []error
	s.validate(v, "", &errs)
	return errs
}

func (s *Schema) fail(errs *[]error, path, format string, args ...any) {
	*errs = append(*errs, &ValidationError{Path: path, Message: fmt.Sprintf(format, args...)})
}

func (s *Schema) validate(v any, path string, errs *[]error) {
	if s.always != nil {
		if !*s.always {
			s.fail(errs, path, "no value is allowed here")
		}
		return
	}
	if s.ref != nil {
		s.ref.validate(v, path, errs)
	}
	if len(s.types) > 0 && !typeMatches(s.types, v) {
		want := strings.Join(s.types, " or ")
		s.fail(errs, path, "%s is %s, want %s", show(v), article(typeOf(v)), want)
		return // the other keywords would only repeat the type error
	}
	if s.enum != nil && !slices.ContainsFunc(s.enum, func(e any) bool { return equal(e, v) }) {
		s.fail(errs, path, "%s is not one of %v", show(v), s.enum)
	}
	if s.hasConst && !equal(s.constVal, v) {
		s.fail(errs, path, "%s is not %s", show(v), show(s.constVal))
	}
	switch t := v.(type) {
	case map[string]any:
		s.validateObject(t, path, errs)
	case []any:
		s.validateArray(t, path, errs)
	case string:
		s.validateString(t, path, errs)
	default:
		if n, ok := toFloat(v); ok {
			s.validateNumber(n, v, path, errs)
		}
	}
	for _, sub := range s.allOf {
		sub.validate(v, path, errs)
	}
	if len(s.anyOf) > 0 {
		var branches []string
		matched := false
		for _, sub := range s.anyOf {
			e := sub.Validate(v)
			if len(e) == 0 {
				matched = true
				break
			}
			branches = append(branches, e[0].Error())
		}
		if !matched {
			s.fail(errs, path, "%s matches no schema of anyOf (%s)", show(v), strings.Join(branches, "; "))
		}
	}
	if len(s.oneOf) > 0 {
		var branches []string
		n := 0
		for _, sub := range s.oneOf {
			e := sub.Validate(v)
			if len(e) == 0 {
				n++
			} else {
				branches = append(branches, e[0].Error())
			}
		}
		switch {
		case n == 0:
			s.fail(errs, path, "%s matches no schema of oneOf (%s)", show(v), strings.Join(branches, "; "))
		case n > 1:
			s.fail(errs, path, "%s matches %d schemas of oneOf, want exactly 1", show(v), n)
		}
	}
	if s.not != nil && len(s.not.Validate(v)) == 0 {
		s.fail(errs, path, "%s matches a schema it must not match", show(v))
	}
}

func (s *Schema) validateObject(m map[string]any, path string, errs *[]error) {
	for _, name := range s.required {
		if _, ok := m[name]; !ok {
			s.fail(errs, path, "missing required property %q", name)
		}
	}
	if s.minProperties != nil && len(m) < *s.minProperties {
		s.fail(errs, path, "has %d properties, want at least %d", len(m), *s.minProperties)
	}
	if s.maxProperties != nil && len(m) > *s.maxProperties {
		s.fail(errs, path, "has %d properties, want at most %d", len(m), *s.maxProperties)
	}
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		p := path + "/" + escape(name)
		if s.propertyNames != nil {
			var sub []error
			s.propertyNames.validate(name, p, &sub)
			for _, e := range sub {
				s.fail(errs, p, "property name: %s", e.(*ValidationError).Message)
			}
		}
		known := false
		if ps, ok := s.properties[name]; ok {
			known = true
			ps.validate(m[name], p, errs)
		}
		for _, pp := range s.patternProperties {
			if pp.re.MatchString(name) {
				known = true
				pp.schema.validate(m[name], p, errs)
			}
		}
		if !known && s.additional != nil {
			if s.additional.always != nil && !*s.additional.always {
				s.fail(errs, p, "property %q is not allowed", name)
				continue
			}
			s.additional.validate(m[name], p, errs)
		}
	}
}

func (s *Schema) validateArray(a []any, path string, errs *[]error) {
	if s.minItems != nil && len(a) < *s.minItems {
		s.fail(errs, path, "has %d items, want at least %d", len(a), *s.minItems)
	}
	if s.maxItems != nil && len(a) > *s.maxItems {
		s.fail(errs, path, "has %d items, want at most %d", len(a), *s.maxItems)
	}
	if s.uniqueItems {
	outer:
		for i := range a {
			for j := range i {
				if equal(a[i], a[j]) {
					s.fail(errs, path+"/"+strconv.Itoa(i), "%s repeats item %d", show(a[i]), j)
					break outer
				}
			}
		}
	}
	if s.items != nil {
		for i, e := range a {
			s.items.validate(e, path+"/"+strconv.Itoa(i), errs)
		}
	}
}

func (s *Schema) validateString(str, path string, errs *[]error) {
	n := utf8.RuneCountInString(str)
	if s.minLength != nil && n < *s.minLength {
		s.fail(errs, path, "%s has %d characters, want at least %d", show(str), n, *s.minLength)
	}
	if s.maxLength != nil && n > *s.maxLength {
		s.fail(errs, path, "%s has %d characters, want at most %d", show(str), n, *s.maxLength)
	}
	if s.pattern != nil && !s.pattern.MatchString(str) {
		s.fail(errs, path, "%s does not match pattern %q", show(str), s.pattern.String())
	}
	if s.format != "" && !formats[s.format](str) {
		s.fail(errs, path, "%s is not a valid %s", show(str), s.format)
	}
}

func (s *Schema) validateNumber(n float64, v any, path string, errs *[]error) {
	if s.minimum != nil && n < *s.minimum {
		s.fail(errs, path, "%s is less than the minimum %v", show(v), *s.minimum)
	}
	if s.maximum != nil && n > *s.maximum {
		s.fail(errs, path, "%s is more than the maximum %v", show(v), *s.maximum)
	}
	if s.exclusiveMinimum != nil && n <= *s.exclusiveMinimum {
		s.fail(errs, path, "%s is not more than %v", show(v), *s.exclusiveMinimum)
	}
	if s.exclusiveMaximum != nil && n >= *s.exclusiveMaximum {
		s.fail(errs, path, "%s is not less than %v", show(v), *s.exclusiveMaximum)
	}
}

func typeMatches(types []string, v any) bool {
	t := typeOf(v)
	for _, want := range types {
		if want == t || want == "number" && t == "integer" {
			return true
		}
	}
	return false
}

// typeOf names the JSON type of a decoded value; "integer" for numbers with
// no fraction, "unknown" for Go values JSON has no type for.
func typeOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	if n, ok := toFloat(v); ok {
		if n == math.Trunc(n) && !math.IsInf(n, 0) {
			return "integer"
		}
		return "number"
	}
	return "unknown"
}

func article(t string) string {
	switch t[0] {
	case 'a', 'i', 'o', 'u':
		return "an " + t
	}
	return "a " + t
}

// toFloat converts any Go number, including json.Number, to float64.
func toFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(rv.Uint()), true
	}
	return 0, false
}

// equal compares decoded JSON values, numbers by value.
func equal(a, b any) bool {
	if x, ok := toFloat(a); ok {
		y, ok := toFloat(b)
		return ok && x == y
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equal(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

// show renders a value for a message, JSON-encoded and cut to a readable length.
func show(v any) string {
	b, err := json.Marshal(v)
	s := string(b)
	if err != nil {
		s = fmt.Sprint(v)
	}
	if utf8.RuneCountInString(s) > 60 {
		r := []rune(s)
		s = string(r[:57]) + "..."
	}
	return s
}
