package generator

import (
	"bytes"
	"encoding/json"
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
	Logos      []IndexLogo     `json:"logos"`
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
// its keys in the order of Variants (icon first), not alphabetically.
type VariantURLs map[string]string

// MarshalJSON writes the keys in the order of Variants.
func (m VariantURLs) MarshalJSON() ([]byte, error) { return orderedJSON(m) }

// UnmarshalJSON reads any JSON object of strings.
func (m *VariantURLs) UnmarshalJSON(b []byte) error {
	return json.Unmarshal(b, (*map[string]string)(m))
}

// VariantFiles maps variant names to the provenance of their files, in the
// order of Variants.
type VariantFiles map[string]FileMeta

// MarshalJSON writes the keys in the order of Variants.
func (m VariantFiles) MarshalJSON() ([]byte, error) { return orderedJSON(m) }

// UnmarshalJSON reads any JSON object of file provenance.
func (m *VariantFiles) UnmarshalJSON(b []byte) error {
	return json.Unmarshal(b, (*map[string]FileMeta)(m))
}

func orderedJSON[V any](m map[string]V) ([]byte, error) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		ia, ib := slices.Index(Variants, a), slices.Index(Variants, b)
		if ia < 0 || ib < 0 || ia == ib {
			return strings.Compare(a, b)
		}
		return ia - ib
	})
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, err := marshal(k)
		if err != nil {
			return nil, err
		}
		vb, err := marshal(m[k])
		if err != nil {
			return nil, err
		}
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(vb)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// marshal is json.Marshal without HTML escaping: the files are JSON, not
// HTML, and "<" should read as "<".
func marshal(v any) ([]byte, error) {
	b, err := encodeJSON(v, "")
	return bytes.TrimSuffix(b, []byte("\n")), err
}

// marshalIndent is marshal with two-space indentation and a final newline,
// the way registry files are usually published.
func marshalIndent(v any) ([]byte, error) { return encodeJSON(v, "  ") }

func encodeJSON(v any, indent string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
