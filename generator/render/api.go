package render

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"logoindex/generator/source"
	"slices"
	"strings"
)

// The JSON API: the shapes of dist/api/logos.json (Index) and
// dist/api/logos/<slug>.json (LogoDetail). Field order is key order in
// the files, which clients and the golden tests read: add fields at the
// end of a struct.

// Index is dist/api/logos.json.
type Index struct {
	Categories []IndexCategory `json:"categories"`
	// Removed are the logos of removed.yaml, so that a client refreshing
	// its copy of the index learns what went away and what to use instead.
	Removed []Tombstone `json:"removed,omitempty"`
	Logos   []IndexLogo `json:"logos"`
}

// Tombstone is dist/api/logos/<slug>.json of a removed logo, and its
// entry in the index's removed list.
type Tombstone struct {
	Slug       string `json:"slug"`
	Removed    string `json:"removed"` // YYYY-MM-DD
	ReplacedBy string `json:"replaced_by,omitempty"`
	// Replacement is the URL of the replacement's detail JSON.
	Replacement string `json:"replacement,omitempty"`
	Reason      string `json:"reason,omitempty"`
}

// IndexCategory is a category with its logo count.
type IndexCategory struct {
	Slug  string `json:"slug"`
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// LogoCard is what the index and a logo's detail both say of a logo:
// enough for a gallery card and search.
type LogoCard struct {
	Slug       string      `json:"slug"`
	Name       string      `json:"name"`
	Categories []string    `json:"categories"`
	Hex        string      `json:"hex"`
	Page       string      `json:"page"` // URL of the logo's page
	SVG        VariantURLs `json:"svg"`
}

// IndexLogo is one logo in the index. Aliases is not in LogoCard because
// the detail has it after its own fields.
type IndexLogo struct {
	LogoCard
	Aliases []string `json:"aliases,omitempty"`
}

// LogoDetail is dist/api/logos/<slug>.json.
type LogoDetail struct {
	LogoCard
	Component  string       `json:"component"`
	Install    string       `json:"install"`
	Files      VariantFiles `json:"files"`
	Aliases    []string     `json:"aliases,omitempty"`
	Guidelines string       `json:"guidelines,omitempty"`
}

// VariantURLs maps variant names to the URLs of their SVGs. It marshals
// its keys in the order of source.Variants (icon first), not alphabetically.
type VariantURLs map[string]string

// MarshalJSON writes the keys in the order of Variants.
func (m VariantURLs) MarshalJSON() ([]byte, error) { return orderedJSON(m) }

// UnmarshalJSON reads any JSON object of strings.
func (m *VariantURLs) UnmarshalJSON(b []byte) error {
	return json.Unmarshal(b, (*map[string]string)(m))
}

// VariantFiles maps variant names to the provenance of their files, in the
// order of Variants.
type VariantFiles map[string]source.FileMeta

// MarshalJSON writes the keys in the order of Variants.
func (m VariantFiles) MarshalJSON() ([]byte, error) { return orderedJSON(m) }

// UnmarshalJSON reads any JSON object of file provenance.
func (m *VariantFiles) UnmarshalJSON(b []byte) error {
	return json.Unmarshal(b, (*map[string]source.FileMeta)(m))
}

func orderedJSON[V any](m map[string]V) ([]byte, error) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		ia, ib := slices.Index(source.Variants, a), slices.Index(source.Variants, b)
		if ia < 0 || ib < 0 || ia == ib {
			return strings.Compare(a, b)
		}
		return ia - ib
	})
	// One encoder for every key and value: a new one each (marshal) was
	// most of the time of an item of the index.
	var buf bytes.Buffer
	enc := newJSONEncoder("", "")
	buf.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, err := enc.encode(k)
		if err != nil {
			return nil, err
		}
		buf.Write(kb)
		buf.WriteByte(':')
		vb, err := enc.encode(m[k])
		if err != nil {
			return nil, err
		}
		buf.Write(vb)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// jsonEncoder encodes values as the build writes JSON, without HTML
// escaping, indented by indent with prefix before every line but the
// first, one after another through one encoder and buffer: a result is
// good until the next call.
type jsonEncoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

func newJSONEncoder(prefix, indent string) *jsonEncoder {
	e := &jsonEncoder{}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	e.enc.SetIndent(prefix, indent)
	return e
}

// encode gives v's JSON without the newline json.Encoder ends it with.
func (e *jsonEncoder) encode(v any) ([]byte, error) {
	e.buf.Reset()
	if err := e.enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(e.buf.Bytes(), []byte("\n")), nil
}

// marshal is json.Marshal without HTML escaping: the files are JSON, not
// HTML, and "<" should read as "<".
func marshal(v any) ([]byte, error) { return newJSONEncoder("", "").encode(v) }

// writeJSONList writes v as encodeJSON does, with its last field, a list
// that v holds empty, filled with the values items gives to yield, in
// order: one item at a time, so that the list of a large collection is
// never in memory whole, nor copied each time its buffer grows.
// The list must be a field of the top-level object, as Index.Logos and
// Registry.Items are. An error of items, or of yield, ends the writing.
func writeJSONList(w io.Writer, v any, items func(yield func(any) error) error, indent string) error {
	head, err := encodeJSON(v, indent)
	if err != nil {
		return err
	}
	at := bytes.LastIndex(head, []byte("[]"))
	if at < 0 || strings.Trim(string(head[at+2:]), " \n}") != "" {
		return errors.New("writeJSONList: the list is not the last field of the object")
	}
	bw, ok := w.(*bufio.Writer)
	if !ok {
		bw = bufio.NewWriterSize(w, 64<<10)
	}
	// An item of the list is at depth 2: its first line goes after the
	// separator, the others carry the indentation of that depth.
	first, sep, closing := "", ",", "]"
	if indent != "" {
		first, sep, closing = "\n"+indent+indent, ",\n"+indent+indent, "\n"+indent+"]"
	}
	enc := newJSONEncoder(indent+indent, indent)
	n := 0
	err = items(func(v any) error {
		b, ok := v.(preEncoded)
		if !ok {
			var err error
			if b, err = enc.encode(v); err != nil {
				return err
			}
		}
		if n == 0 {
			bw.Write(head[:at+1])
			bw.WriteString(first)
		} else {
			bw.WriteString(sep)
		}
		n++
		_, err := bw.Write(b)
		return err
	})
	if err != nil {
		return err
	}
	if n == 0 {
		bw.Write(head) // the empty list as encodeJSON writes it
	} else {
		bw.WriteString(closing)
		bw.Write(head[at+2:])
	}
	return bw.Flush()
}

// preEncoded is an item of writeJSONList that is JSON already, as the
// list writes its items, indentation and all: it is written as it is.
type preEncoded []byte

// appendJSONString appends s as encoding/json writes it without HTML
// escaping: ASCII as it is but for quotes, backslashes, and the control
// characters it writes \n, \r, \t, \b and \f; a string with any other
// byte goes through enc, encoding/json itself. A component's source, in a
// registry item, has quotes on every line.
func appendJSONString[S string | []byte](b []byte, s S, enc *jsonEncoder) []byte {
	start := len(b)
	b = slices.Grow(b, len(s)+2)
	b = append(b, '"')
	run := 0 // s[run:i] is as it is
	for i := 0; i < len(s); i++ {
		c := s[i]
		if jsonPlain[c] {
			continue
		}
		b = append(b, s[run:i]...)
		run = i + 1
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			q, _ := enc.encode(string(s)) // a string cannot fail
			return append(b[:start], q...)
		}
	}
	b = append(b, s[run:]...)
	return append(b, '"')
}

// jsonPlain is the bytes encoding/json writes as they are.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendJSONStrings appends list as encoding/json writes a []string.
func appendJSONStrings(b []byte, list []string, enc *jsonEncoder) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, s, enc)
	}
	return append(b, ']')
}

func encodeJSON(v any, indent string) ([]byte, error) {
	b, err := newJSONEncoder("", indent).encode(v)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
