// Package textenc names the Unicode encoding a text file is saved in when
// it is not UTF-8: UTF-16 or UTF-32, with or without a byte-order mark.
// The readers of SVG and YAML files take UTF-8 only; this lets them tell
// the author how the file was saved instead of pointing at a NUL byte.
package textenc

// Sniff returns the encoding data is saved in, "UTF-16LE", "UTF-16BE",
// "UTF-32LE" or "UTF-32BE", from its byte-order mark or, without one, from
// the zero bytes around its first character, as XML 1.0 appendix F reads
// the start of a document. It returns "" for anything else, UTF-8 with or
// without a BOM included.
func Sniff(data []byte) string {
	if len(data) < 2 {
		return ""
	}
	var b [4]byte
	copy(b[:], data)
	switch {
	case len(data) >= 4 && b == [4]byte{0x00, 0x00, 0xFE, 0xFF}:
		return "UTF-32BE"
	case len(data) >= 4 && b == [4]byte{0xFF, 0xFE, 0x00, 0x00}:
		return "UTF-32LE"
	case b[0] == 0xFE && b[1] == 0xFF:
		return "UTF-16BE"
	case b[0] == 0xFF && b[1] == 0xFE:
		return "UTF-16LE"
	case len(data) < 4:
		return ""
	case b[0] == 0 && b[1] == 0 && b[2] == 0 && b[3] != 0:
		return "UTF-32BE"
	case b[0] != 0 && b[1] == 0 && b[2] == 0 && b[3] == 0:
		return "UTF-32LE"
	case b[0] == 0 && b[1] != 0 && b[2] == 0 && b[3] != 0:
		return "UTF-16BE"
	case b[0] != 0 && b[1] == 0 && b[2] != 0 && b[3] == 0:
		return "UTF-16LE"
	}
	return ""
}

// Describe returns how a message names an encoding Sniff returned:
// "UTF-16 (little-endian)".
func Describe(enc string) string {
	switch enc {
	case "UTF-16LE":
		return "UTF-16 (little-endian)"
	case "UTF-16BE":
		return "UTF-16 (big-endian)"
	case "UTF-32LE":
		return "UTF-32 (little-endian)"
	case "UTF-32BE":
		return "UTF-32 (big-endian)"
	}
	return enc
}
