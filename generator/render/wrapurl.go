package render

import (
	htmltemplate "html/template"
	"iter"
)

// A URL shown as text wraps only after its slashes: the pages write it
// through the template function wrapURL, which puts each part of it, up to
// and with a slash, in a <span> of its own, and the stylesheet lays such
// spans out as inline blocks, which a line breaks between and not inside.
// A narrow screen then breaks ".../logos/" "github/" "icon.svg" and never
// "example-" "brand" as it would break text at its hyphens, nor "g" "ithub"
// as overflow-wrap does once a line is full. A part longer than a line
// still wraps inside its block rather than stretch the page.

// urlBreakAfter reports whether wrapURL ends a part of s after its byte
// i: a slash with something before and after it, neither of them a slash,
// so that the "//" of "https://" stays whole and no part is a lone slash.
func urlBreakAfter(s string, i int) bool {
	return s[i] == '/' && i > 0 && i+1 < len(s) && s[i-1] != '/' && s[i+1] != '/'
}

// urlParts yields the parts of s that wrapURL writes, in order: s whole
// when it has no slash to break after.
func urlParts(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		start := 0
		for i := range len(s) {
			if urlBreakAfter(s, i) {
				if !yield(s[start : i+1]) {
					return
				}
				start = i + 1
			}
		}
		yield(s[start:])
	}
}

// appendURLParts appends s to b as wrapURL writes it, with each part's
// text written by write.
func appendURLParts(b []byte, s string, write func(b []byte, part string) []byte) []byte {
	for part := range urlParts(s) {
		if len(part) == len(s) {
			return write(b, s) // one part: no span
		}
		b = append(write(append(b, "<span>"...), part), "</span>"...)
	}
	return b
}

// wrapURL is the template function: s as HTML text, escaped as
// html/template escapes text, a span for each of its parts.
func wrapURL(s string) htmltemplate.HTML {
	b := appendURLParts(nil, s, func(b []byte, part string) []byte {
		return append(b, htmlEscaper.Replace(part)...)
	})
	return htmltemplate.HTML(b)
}

// markingWrapURL is wrapURL as a skeleton is made: a placeholder comes
// out with the mark "wrapurl", which the skeleton's fill reads back
// (fillHTML), anything else as wrapURL writes it.
func markingWrapURL(s string) htmltemplate.HTML {
	if m, ok := marked(s, "wrapurl"); ok {
		return htmltemplate.HTML(m)
	}
	return wrapURL(s)
}
