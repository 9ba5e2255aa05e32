package render

import (
	"strings"
	"unicode/utf8"
)

// Where the page templates put a value decides what html/template and the
// minifier make of it. A value is filled into a skeleton (skeleton.go)
// only where they would leave it as it is, but for html/template's
// escaping, which fillIn repeats.

// valueKind is where a page puts a value, which decides what the
// minifier does to it.
type valueKind uint8

const (
	inText      valueKind = iota // text, or a quoted attribute of the HTML
	inPre                        // text in a <pre>, which the minifier keeps as it is
	inSVG                        // text or an attribute of an inline SVG
	inSVGColour                  // a colour attribute of an inline SVG
	inURL                        // a URL attribute
	inURLQuery                   // a URL attribute, after its "?"
	inSrcset                     // a srcset attribute
)

// plainURL reports whether html/template writes s, in a URL attribute,
// escaped as in any other attribute: its scheme, if any, is http, https or
// mailto (urlFilter), and every byte is one its normaliser keeps (a
// letter, a digit, -._~!#$&*+,/:;=?@[] or % and two hex digits).
func plainURL(s string) bool {
	if scheme, _, ok := strings.Cut(s, ":"); ok && !strings.Contains(scheme, "/") &&
		!strings.EqualFold(scheme, "http") && !strings.EqualFold(scheme, "https") && !strings.EqualFold(scheme, "mailto") {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("-._~!#$&*+,/:;=?@[]", c) >= 0:
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
		default:
			return false
		}
	}
	return true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// plainQuery reports whether html/template writes s after a "?" in a URL
// attribute as it is (its urlEscaper keeps only unreserved bytes).
func plainQuery(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '.', c == '_', c == '~':
		default:
			return false
		}
	}
	return true
}

// fits reports whether the minified page holds s as the minified
// skeleton holds its placeholder, but for what fill writes in its place,
// and whether the placeholder needs a space. In text and attributes the
// minifier turns html/template's &#39; &#43; and &gt; back into ' + and >,
// and quotes an attribute with a space, ' = > or `. It would change other
// values: " < & (entities it keeps or requotes), other white space, a
// space at either end or two together (trimmed or collapsed), invalid
// UTF-8 and an http or data: scheme at the start of a URL (which it
// lower-cases or rewrites). In a <pre> it changes nothing. In the
// swatch's SVG a value is a colour: # and hex digits.
func fits(s string, k valueKind) (spaced, ok bool) {
	switch k {
	case inPre:
		return false, true
	case inSVG, inSVGColour:
		if len(s) < 2 || s[0] != '#' {
			return false, false
		}
		for i := 1; i < len(s); i++ {
			if !isHex(s[i]) {
				return false, false
			}
		}
		return false, true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false, false
	}
	ascii := true
	for i := 0; i < len(s); i++ {
		switch textBytes[s[i]] {
		case byteOdd:
			return false, false
		case byteSpace:
			if s[i+1] == ' ' {
				return false, false
			}
			spaced = true
		case byteQuoted:
			spaced = true
		case byteHigh:
			ascii = false
		}
	}
	if !ascii && !utf8.ValidString(s) {
		return false, false
	}
	if len(s) > 5 && (strings.EqualFold(s[:5], "data:") || strings.EqualFold(s[:4], "http") && s[:5] != strings.ToLower(s[:5])) {
		return false, false
	}
	return spaced, true
}

// textBytes sorts the bytes of a value in text for fits.
var textBytes = func() (t [256]uint8) {
	for c := range t {
		switch {
		case c < 0x20 || c == 0x7f || c == '"' || c == '&' || c == '<':
			t[c] = byteOdd
		case c == ' ':
			t[c] = byteSpace
		case c == '\'' || c == '=' || c == '>' || c == '`':
			t[c] = byteQuoted
		case c >= 0x80:
			t[c] = byteHigh
		}
	}
	return t
}()

const (
	bytePlain  = iota
	byteOdd    // the minifier changes it
	byteSpace  // makes the minifier quote an attribute, and must be alone
	byteQuoted // makes the minifier quote an attribute
	byteHigh   // part of a UTF-8 sequence, which must be valid
)
