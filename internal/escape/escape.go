// Package escape encodes text from contributors for each place it lands,
// one function a context, so that a value stays data wherever it goes:
//
//	JSComment   inside a JS block or JSDoc comment
//	JSString    a JS string literal
//	JSX         a JSX child or attribute value
//	Terminal    a line printed to a terminal
//	GitHubData, GitHubProperty   a GitHub Actions workflow command
//
// HTML is html/template's job and JSON encoding/json's. Control reports the
// characters no text field of a logo may hold at all; the encoders still
// handle them, so an encoder never depends on a check made elsewhere.
package escape

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Control reports whether r is a character no text field accepts: a
// control character (C0, DEL, C1: tab and newline included), a Unicode
// Bidi_Control character (U+061C, U+200E, U+200F, U+202A to U+202E,
// U+2066 to U+2069), which can make text read in another order than it is
// stored, or a line or paragraph separator (U+2028, U+2029), which ends a
// line in JavaScript.
func Control(r rune) bool {
	if r < utf8.RuneSelf { // the common case, without a table search
		return r < 0x20 || r == 0x7f
	}
	return unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029'
}

// FirstControl returns the first character of s that Control refuses and
// its index in runes (0-based), or ok false.
func FirstControl(s string) (r rune, index int, ok bool) {
	i := 0
	for _, c := range s {
		if Control(c) {
			return c, i, true
		}
		i++
	}
	return 0, 0, false
}

// JSComment makes s safe as text inside a JS block comment, including a
// JSDoc comment: "*/" cannot end the comment, "@" cannot start a JSDoc tag
// (TypeScript reads "@deprecated" after a space, or "{@link}" anywhere, as
// a tag; "\@" is TSDoc's escape and renders as "@"), and a control,
// bidirectional or line-breaking character is shown as \uXXXX, so the
// text stays on its line and reads as stored.
func JSComment(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '/' && i > 0 && s[i-1] == '*':
			b.WriteString(`\/`)
		case r == '@':
			b.WriteString(`\@`)
		case Control(r), r == utf8.RuneError:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// JSString returns s as a double-quoted JS string literal. Besides the
// quote and the backslash, every control, bidirectional and line-breaking
// character is written as an escape, so the literal is one line and shows
// in an editor what it holds.
func JSString(s string) string {
	if plainASCII(s) {
		return `"` + s + `"`
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case Control(r), r == utf8.RuneError:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// plainASCII reports whether s is printable ASCII without '"' or '\\':
// a JS string literal of it is s in quotes. Most values of an SVG are.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// JSX returns s as a JSX child or attribute value: a string literal in
// braces, {"..."}. JSX text and quoted attribute values know no backslash
// escapes, and text may not hold { } < >, so only an expression carries
// any string exactly.
func JSX(s string) string { return "{" + JSString(s) + "}" }

// Terminal makes s safe to print on a terminal: every character that is
// not printable (controls such as ESC, newlines, bidirectional and other
// invisible format characters) and every byte that is not UTF-8 is shown
// escaped, as %q would, so printed text cannot forge a line or drive the
// terminal. Printable text, quotes and backslashes are left as they are.
func Terminal(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case strconv.IsPrint(r): // which Control characters never are
			b.WriteString(s[i : i+size])
		default:
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
}

// GitHub's runner undoes %25 (and %0D, %0A) in the message of a workflow
// command, and also %3A and %2C in its properties, which ":" and ","
// separate. CR and LF never reach them: Terminal has escaped them.
var (
	githubData     = strings.NewReplacer("%", "%25")
	githubProperty = strings.NewReplacer("%", "%25", ":", "%3A", ",", "%2C")
)

// GitHubData encodes s as the message of a GitHub Actions workflow command
// ("::error file=...::message"). It is Terminal first: the log shows ESC
// sequences as colours, and GitHub has escapes for CR and LF only.
func GitHubData(s string) string { return githubData.Replace(Terminal(s)) }

// GitHubProperty encodes s as a property value of a workflow command
// (file=..., title=...).
func GitHubProperty(s string) string { return githubProperty.Replace(Terminal(s)) }
