package escape

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestControl(t *testing.T) {
	for _, tc := range []struct {
		r    rune
		want bool
	}{
		{'a', false}, {' ', false}, {'é', false}, {'轩', false}, {'\u200d', false}, // ZWJ joins emoji and scripts
		{0, true}, {'\t', true}, {'\n', true}, {'\r', true}, {0x1b, true}, {0x7f, true}, {0x85, true}, {0x9f, true},
		{'\u061c', true}, {'\u200e', true}, {'\u200f', true},
		{'\u202a', true}, {'\u202e', true}, {'\u2066', true}, {'\u2069', true},
		{'\u2028', true}, {'\u2029', true},
	} {
		if got := Control(tc.r); got != tc.want {
			t.Errorf("Control(%U) = %v, want %v", tc.r, got, tc.want)
		}
	}
	// The ASCII fast path against the definition, for every character.
	for r := rune(0); r <= unicode.MaxRune; r++ {
		want := unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029'
		if Control(r) != want {
			t.Fatalf("Control(%U) = %v, want %v", r, !want, want)
		}
	}
	if r, i, ok := FirstControl("ab\u200fc\x1b"); !ok || r != '\u200f' || i != 2 {
		t.Errorf("FirstControl = %U, %d, %v; want U+200F, 2, true", r, i, ok)
	}
	if _, _, ok := FirstControl("GitHub 轩辕"); ok {
		t.Error("FirstControl found a control character in plain text")
	}
}

func TestEncoders(t *testing.T) {
	for _, tc := range []struct {
		name string
		fn   func(string) string
		in   string
		want string
	}{
		{"comment end", JSComment, "Bad */ globalThis.pwned = 1 /*", `Bad *\/ globalThis.pwned = 1 /*`},
		{"comment JSDoc tags", JSComment, "Acme @deprecated {@link https://x.example}", `Acme \@deprecated {\@link https://x.example}`},
		{"comment controls", JSComment, "a\nb\u2028c\u200fd\x00", `a\u000ab\u2028c\u200fd\u0000`},
		{"comment keeps slashes", JSComment, "https://a.example/b/*", `https://a.example/b/*`},
		{"string", JSString, `He said "hi" \ ${x} ` + "`", `"He said \"hi\" \\ ${x} ` + "`\""},
		{"string controls", JSString, "a\nb\tc\u2028d\u202ee\x1b\x7f", `"a\nb\tc\u2028d\u202ee\u001b\u007f"`},
		{"string script", JSString, "</script><!--", `"</script><!--"`},
		{"jsx", JSX, `a"b{c}<d>`, `{"a\"b{c}<d>"}`},
		{"terminal", Terminal, "x\nINJECTED: checked 2 logos: no errors", `x\nINJECTED: checked 2 logos: no errors`},
		{"terminal escape", Terminal, "\x1b[31mred\x1b[0m \u200fq \xff", `\x1b[31mred\x1b[0m \u200fq \xff`},
		{"terminal keeps text", Terminal, `"quoted" \path 轩辕 é`, `"quoted" \path 轩辕 é`},
		{"github data", GitHubData, "50% done\n\x1b[2J::error::x", `50%25 done\n\x1b[2J::error::x`},
		{"github property", GitHubProperty, "src/a,b:c%\r.svg", `src/a%2Cb%3Ac%25\r.svg`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.fn(tc.in)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzEncoders checks the promise of each encoder on any input: a JS
// string reads back as the value (JSString's output is JSON too), a comment
// never ends early or starts a tag, and terminal text has nothing that is
// not printable.
func FuzzEncoders(f *testing.F) {
	for _, s := range []string{"", "*/", "**/", "@x", "a\nb", "\x1b[0m", "\u2028", "\u200f", "\xff\xfe", `"\`, "${`}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var back string
		if err := json.Unmarshal([]byte(JSString(s)), &back); err != nil {
			t.Fatalf("JSString(%q) = %s is not a string literal: %v", s, JSString(s), err)
		}
		if want := strings.ToValidUTF8(s, "\uFFFD"); utf8.ValidString(s) && back != want {
			t.Errorf("JSString(%q) reads back as %q", s, back)
		}
		// The plain ASCII path writes what the general one would.
		if plainASCII(s) && JSString(s) != strconv.Quote(s) {
			t.Errorf("JSString(%q) = %s, want %s", s, JSString(s), strconv.Quote(s))
		}
		if c := JSComment(s); strings.Contains(c, "*/") || strings.Contains(strings.ReplaceAll(c, `\@`, ""), "@") {
			t.Errorf("JSComment(%q) = %q ends the comment or starts a tag", s, c)
		}
		for _, enc := range []func(string) string{JSComment, JSString, Terminal, GitHubData, GitHubProperty} {
			if _, _, bad := FirstControl(enc(s)); bad {
				t.Errorf("%q encodes to %q, which holds a control character", s, enc(s))
			}
		}
		for _, r := range Terminal(s) {
			if !strconv.IsPrint(r) {
				t.Errorf("Terminal(%q) holds %U", s, r)
			}
		}
	})
}
