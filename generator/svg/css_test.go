package svg

import (
	"fmt"
	"strings"
	"testing"
)

// asciiLower is strings.ToLower for ASCII letters only, as CSS matches
// names.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		b[i] = lowerASCII(c)
	}
	return string(b)
}

func TestHasURLAndContainsFold(t *testing.T) {
	tests := []struct {
		v               string
		url, dash, mark bool
	}{
		{"", false, false, false},
		{"url(#a)", true, false, false},
		{"URL(#a)", true, false, false},
		{"fill: uRl( #a )", true, false, false},
		{"(url", false, false, false},
		{"ur(l(", false, false, false},
		{"M0 0L1 1Z", false, false, false},
		{"stroke-DashArray:1", false, true, false},
		{"marker-start:url(#m)", true, false, true},
		{"mar\u212Aer", false, false, false}, // a Kelvin sign is no k to CSS
		{"url", false, false, false},
	}
	for _, tt := range tests {
		got := [3]bool{hasURL(tt.v), containsFold(tt.v, "dasharray"), containsFold(tt.v, "marker")}
		if want := [3]bool{tt.url, tt.dash, tt.mark}; got != want {
			t.Errorf("%q: hasURL, dasharray, marker = %v, want %v", tt.v, got, want)
		}
	}
}

// FuzzContainsFold holds hasURL and containsFold to strings.Contains of
// the ASCII-lowered text.
func FuzzContainsFold(f *testing.F) {
	f.Add("fill:URL(#a)", "url(")
	f.Add("stroke-dasharray", "dasharray")
	f.Fuzz(func(t *testing.T, s, sub string) {
		if want := strings.Contains(asciiLower(s), "url("); hasURL(s) != want {
			t.Errorf("hasURL(%q) = %t, want %t", s, !want, want)
		}
		sub = asciiLower(sub)
		if sub == "" {
			return
		}
		if want := strings.Contains(asciiLower(s), sub); containsFold(s, sub) != want {
			t.Errorf("containsFold(%q, %q) = %t, want %t", s, sub, !want, want)
		}
	})
}

// TestSelectorCombinators reads selectors into compounds and combinators,
// written back with " " for a descendant and " > " for a child.
func TestSelectorCombinators(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{".a", ".a"},
		{".a path", ".a path"},
		{".a > path", ".a > path"},
		{".a>path", ".a > path"},
		{".a > g > path", ".a > g > path"},
		{".a > g path", ".a > g path"},
		{".a g > path", ".a g > path"},
		{"svg  >  .b   .c", "svg > .b .c"},
		{"g#x.a.b path", "g#x.a.b path"},
		{"> .a", `error: ">" needs an element on each side`},
		{".a >", `error: ">" needs an element on each side`},
		{".a > > .b", `error: ">" needs an element on each side`},
	} {
		rules, errs := readStylesheet(tc.in + "{fill:red}")
		var got string
		switch {
		case len(errs) > 0:
			got = "error: " + errs[0].msg
		case len(rules) != 1 || len(rules[0].selectors) != 1:
			got = fmt.Sprintf("%d rules", len(rules))
		default:
			got = selectorText(rules[0].selectors[0])
		}
		if got != tc.want {
			t.Errorf("%q reads as %q, want %q", tc.in, got, tc.want)
		}
	}
}
