package textenc

import (
	"testing"
	"unicode/utf16"

	"github.com/google/go-cmp/cmp"
)

func utf16Bytes(s string, big, bom bool) []byte {
	var out []byte
	units := utf16.Encode([]rune(s))
	if bom {
		units = append([]uint16{0xFEFF}, units...)
	}
	for _, u := range units {
		if big {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

func utf32Bytes(s string, big, bom bool) []byte {
	var out []byte
	rs := []rune(s)
	if bom {
		rs = append([]rune{0xFEFF}, rs...)
	}
	for _, r := range rs {
		if big {
			out = append(out, byte(r>>24), byte(r>>16), byte(r>>8), byte(r))
		} else {
			out = append(out, byte(r), byte(r>>8), byte(r>>16), byte(r>>24))
		}
	}
	return out
}

func TestSniff(t *testing.T) {
	const doc = `<?xml version="1.0" encoding="UTF-16"?><svg/>`
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"UTF-16LE with a BOM", utf16Bytes(doc, false, true), "UTF-16LE"},
		{"UTF-16LE without a BOM", utf16Bytes(doc, false, false), "UTF-16LE"},
		{"UTF-16BE with a BOM", utf16Bytes(doc, true, true), "UTF-16BE"},
		{"UTF-16BE without a BOM", utf16Bytes(doc, true, false), "UTF-16BE"},
		{"UTF-32LE with a BOM", utf32Bytes(doc, false, true), "UTF-32LE"},
		{"UTF-32LE without a BOM", utf32Bytes(doc, false, false), "UTF-32LE"},
		{"UTF-32BE with a BOM", utf32Bytes(doc, true, true), "UTF-32BE"},
		{"UTF-32BE without a BOM", utf32Bytes(doc, true, false), "UTF-32BE"},
		{"YAML in UTF-16LE", utf16Bytes("name: Acme\n", false, false), "UTF-16LE"},
		{"UTF-8", []byte(doc), ""},
		{"UTF-8 with a BOM", append([]byte("\xEF\xBB\xBF"), doc...), ""},
		{"a BOM alone", []byte{0xFF, 0xFE}, "UTF-16LE"},
		{"empty", nil, ""},
		{"one byte", []byte("<"), ""},
		{"a NUL byte in UTF-8 text", []byte("<svg\x00/>"), ""},
		{"Latin-1", []byte("<svg>caf\xe9</svg>"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Sniff(tc.data); got != tc.want {
				t.Errorf("Sniff(% x...) = %q, want %q", tc.data[:min(len(tc.data), 8)], got, tc.want)
			}
		})
	}
	got := []string{Describe("UTF-16LE"), Describe("UTF-16BE"), Describe("UTF-32LE"), Describe("UTF-32BE")}
	want := []string{"UTF-16 (little-endian)", "UTF-16 (big-endian)", "UTF-32 (little-endian)", "UTF-32 (big-endian)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Describe (-want +got):\n%s", diff)
	}
}
