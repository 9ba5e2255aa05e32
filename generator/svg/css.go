package svg

import (
	"fmt"
	"strings"

	"logoindex/generator/problem"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/css"
)

// The one CSS reader. Every piece of CSS in a document, a <style> element,
// a style attribute or a presentation attribute, is read here, from the
// tokens of tdewolff/parse's CSS lexer (CSS Syntax Level 3). The reader
// accepts only the small grammar a logo needs:
//
//	stylesheet  = rule* ; rule = selectors "{" declarations "}" | "@media" prelude "{" rule* "}"
//	selectors   = compound (("" | ">") compound)* ("," ...)*   compound = [type | *] (#id | .class)*
//	declaration = property ":" value ["!important"]
//
// and refuses anything else, rather than guess how a browser's error
// recovery would read it: CSS escapes, comments-as-tokens aside, are
// refused too, so no two readers can disagree on what a name spells.

// cssToken is one token with its offset in the text it was read from.
type cssToken struct {
	tt   css.TokenType
	data string
	off  int
	args []cssToken // a function's arguments, without the closing parenthesis
	bad  bool       // lexCSS has reported it: nothing else reports it again
}

// cssDecl is one declaration.
type cssDecl struct {
	prop      string // lower case
	value     []cssToken
	important bool
	off       int // of the property name
	valOff    int
}

// cssRule is a style rule: a selector list and its declarations, with
// the prelude of the @media rule around it, if any.
type cssRule struct {
	selectors []cssSelector
	decls     []cssDecl
	media     string
	off       int
}

// cssSelector is one complex selector of a list.
type cssSelector struct {
	compounds []cssCompound
	child     []bool // child[i]: compounds[i+1] is a child of compounds[i] (">"), else a descendant
	off       int
}

// cssCompound is a compound selector: an optional element name and ids and
// classes.
type cssCompound struct {
	typ     string // "" when none, "*" for the universal selector
	ids     []cssName
	classes []cssName
}

type cssName struct {
	name string
	off  int
}

// cssError is a problem in CSS text, at an offset of it.
type cssError struct {
	off  int
	code problem.Code
	msg  string
}

type cssReader struct {
	toks []cssToken
	i    int
	errs []cssError
}

func (r *cssReader) errorf(off int, code problem.Code, format string, args ...any) {
	r.errs = append(r.errs, cssError{off, code, fmt.Sprintf(format, args...)})
}

// Nesting limits of CSS, as MaxDepth is of elements. A logo's stylesheet
// nests a rule in @media, two blocks, and its values a colour or a calc()
// in a function, two or three levels; the limits bound the recursion of
// every reader of CSS, the optimiser's and the minifier's included.
const (
	// MaxCSSBlockDepth bounds the nesting of blocks: "@media { .a { } }" is two.
	MaxCSSBlockDepth = 8
	// MaxCSSFunctionDepth bounds the nesting of functions, parentheses and
	// brackets: "rgb(calc(1))" is two.
	MaxCSSFunctionDepth = 16
)

// lexCSS splits text into tokens, dropping comments and nesting function
// arguments under their function. It refuses escapes, CDO/CDC and bad
// strings or URLs. Past a nesting limit it stops and returns no tokens,
// with the error that says so: nothing of the text is read further.
func lexCSS(text string) ([]cssToken, []cssError) {
	l := css.NewLexer(parse.NewInputString(text))
	r := &cssReader{}
	var stack [][]cssToken
	var cur []cssToken
	var open []css.TokenType // the functions, parentheses and brackets open, innermost last
	blocks := 0
	off := 0
	for {
		tt, data := l.Next()
		if tt == css.ErrorToken {
			if off != len(text) {
				r.errorf(off, problem.SVGCSSInvalid, "CSS cannot be read from here on")
			}
			break
		}
		t := cssToken{tt: tt, data: string(data), off: off}
		off += len(data)
		switch {
		case tt == css.CommentToken:
			if !strings.HasSuffix(t.data, "*/") || len(t.data) < 4 {
				r.errorf(t.off, problem.SVGCSSInvalid, "a CSS comment is not closed with */")
			}
			continue
		case strings.ContainsRune(t.data, '\\'):
			r.errorf(t.off, problem.SVGCSSNotAllowed, "CSS escapes (\\) are not allowed; write the characters themselves")
			t.bad = true
		case tt == css.CDOToken || tt == css.CDCToken:
			r.errorf(t.off, problem.SVGCSSNotAllowed, "%s is not allowed in CSS", t.data)
			t.bad = true
		case tt == css.BadStringToken:
			r.errorf(t.off, problem.SVGCSSInvalid, "a CSS string is not closed on its line")
			t.bad = true
		case tt == css.BadURLToken:
			r.errorf(t.off, problem.SVGCSSInvalid, "url( cannot be read: write it as url(#id)")
			t.bad = true
		case tt == css.StringToken && (len(t.data) < 2 || t.data[len(t.data)-1] != t.data[0]):
			r.errorf(t.off, problem.SVGCSSInvalid, "a CSS string is not closed")
			t.bad = true
		case tt == css.URLToken && !strings.HasSuffix(t.data, ")"):
			r.errorf(t.off, problem.SVGCSSInvalid, "url( is not closed with )")
			t.bad = true
		}
		if !nest(r, t, &open, &blocks) {
			return nil, r.errs
		}
		switch {
		case tt == css.FunctionToken:
			stack = append(stack, append(cur, t))
			cur = nil
			continue
		case tt == css.RightParenthesisToken && len(stack) > 0 && open[len(open)-1] == css.FunctionToken:
			open = open[:len(open)-1]
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			top[len(top)-1].args = cur
			cur = top
			continue
		}
		cur = append(cur, t)
	}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		r.errorf(top[len(top)-1].off, problem.SVGCSSInvalid, "%s is not closed with )", top[len(top)-1].data)
		stack = stack[:len(stack)-1]
		top[len(top)-1].args = cur
		cur = top
	}
	return cur, r.errs
}

// nest keeps count of the blocks and of the functions, parentheses and
// brackets open before t, and reports a nesting limit passed at t, which
// ends the lexing (false). A ")" that closes a function is left for
// lexCSS to pop, with the function's arguments.
func nest(r *cssReader, t cssToken, open *[]css.TokenType, blocks *int) bool {
	switch t.tt {
	case css.LeftBraceToken:
		if *blocks++; *blocks > MaxCSSBlockDepth {
			r.errorf(t.off, problem.SVGCSSTooDeep, "CSS blocks are nested more than %d levels deep (@media in @media ...); a logo's stylesheet needs two: flatten the rules", MaxCSSBlockDepth)
			return false
		}
	case css.RightBraceToken:
		*blocks = max(*blocks-1, 0)
	case css.FunctionToken, css.LeftParenthesisToken, css.LeftBracketToken:
		if *open = append(*open, t.tt); len(*open) > MaxCSSFunctionDepth {
			r.errorf(t.off, problem.SVGCSSTooDeep, "CSS functions and parentheses are nested more than %d levels deep; a logo's values need two or three: write the value out", MaxCSSFunctionDepth)
			return false
		}
	case css.RightParenthesisToken, css.RightBracketToken:
		want := css.LeftBracketToken
		if t.tt == css.RightParenthesisToken {
			want = css.LeftParenthesisToken
		}
		if n := len(*open); n > 0 && ((*open)[n-1] == want) {
			*open = (*open)[:n-1]
		}
	}
	return true
}

// readStylesheet reads the text of a <style> element.
func readStylesheet(text string) ([]cssRule, []cssError) {
	toks, errs := lexCSS(text)
	r := &cssReader{toks: toks, errs: errs}
	rules := r.ruleList("", false)
	return rules, r.errs
}

// readDeclarations reads a style attribute.
func readDeclarations(text string) ([]cssDecl, []cssError) {
	toks, errs := lexCSS(text)
	r := &cssReader{toks: toks, errs: errs}
	decls := r.declarations(false)
	return decls, r.errs
}

// readValue reads a presentation attribute: one property value.
func readValue(text string) ([]cssToken, []cssError) {
	toks, errs := lexCSS(text)
	r := &cssReader{toks: toks, errs: errs}
	var out []cssToken
	for _, t := range toks {
		switch t.tt {
		case css.SemicolonToken, css.LeftBraceToken, css.RightBraceToken, css.ColonToken:
			r.errorf(t.off, problem.SVGCSSInvalid, "%q cannot appear in a value", t.data)
			return nil, r.errs
		}
		out = append(out, t)
	}
	return trimSpace(out), r.errs
}

func (r *cssReader) peek() *cssToken {
	if r.i < len(r.toks) {
		return &r.toks[r.i]
	}
	return nil
}

func (r *cssReader) skipSpace() {
	for r.i < len(r.toks) && r.toks[r.i].tt == css.WhitespaceToken {
		r.i++
	}
}

func (r *cssReader) end() int {
	if len(r.toks) == 0 {
		return 0
	}
	t := r.toks[len(r.toks)-1]
	return t.off + len(t.data)
}

// ruleList reads rules up to the end, or up to "}" when nested.
func (r *cssReader) ruleList(media string, nested bool) []cssRule {
	var rules []cssRule
	for {
		r.skipSpace()
		t := r.peek()
		switch {
		case t == nil:
			if nested {
				r.errorf(r.end(), problem.SVGCSSInvalid, "the @media block is not closed with }")
			}
			return rules
		case t.tt == css.RightBraceToken:
			if nested {
				r.i++
				return rules
			}
			r.errorf(t.off, problem.SVGCSSInvalid, "} without a rule to close")
			r.i++
		case t.tt == css.AtKeywordToken && t.bad:
			r.skipBlock()
		case t.tt == css.AtKeywordToken:
			rules = append(rules, r.atRule(media)...)
		default:
			if rule, ok := r.styleRule(media); ok {
				rules = append(rules, rule)
			}
		}
	}
}

// atRules says why each at-rule other than @media is refused.
var atRules = map[string]string{
	"import":    "loads another stylesheet",
	"font-face": "loads fonts",
	"keyframes": "animates the logo",
	"namespace": "changes what selectors match",
	"charset":   "changes how the text is read",
	"page":      "styles printed pages",
	"property":  "declares custom properties",
	"layer":     "reorders the cascade",
	"supports":  "makes the logo depend on the browser",
	"container": "makes the logo depend on the page",
	"document":  "makes the logo depend on the page",
	"scope":     "changes what selectors match",
}

func (r *cssReader) atRule(media string) []cssRule {
	t := r.toks[r.i]
	r.i++
	name := strings.ToLower(t.data[1:])
	if name != "media" {
		base := name
		if strings.HasPrefix(base, "-") {
			if i := strings.IndexByte(base[1:], '-'); i >= 0 {
				base = base[i+2:]
			}
		}
		why := atRules[base]
		if why == "" {
			why = "is not one a logo needs"
		}
		r.errorf(t.off, problem.SVGCSSNotAllowed, "%s is not allowed in a logo's CSS: it %s; only @media is", t.data, why)
		r.skipBlock()
		return nil
	}
	start := r.i
	for r.i < len(r.toks) && r.toks[r.i].tt != css.LeftBraceToken && r.toks[r.i].tt != css.SemicolonToken {
		switch p := r.toks[r.i]; p.tt {
		case css.IdentToken, css.WhitespaceToken, css.ColonToken, css.NumberToken, css.DimensionToken,
			css.PercentageToken, css.CommaToken, css.LeftParenthesisToken, css.RightParenthesisToken:
		case css.DelimToken:
			if !strings.ContainsAny(p.data, "/<>=") {
				r.errorf(p.off, problem.SVGCSSNotAllowed, "%q is not allowed in a @media condition", p.data)
			}
		default:
			r.errorf(p.off, problem.SVGCSSNotAllowed, "%q is not allowed in a @media condition", p.data)
		}
		r.i++
	}
	var prelude strings.Builder
	for _, p := range r.toks[start:r.i] {
		prelude.WriteString(p.data)
	}
	if r.i >= len(r.toks) || r.toks[r.i].tt != css.LeftBraceToken {
		r.errorf(t.off, problem.SVGCSSInvalid, "@media without a block of rules")
		r.i = min(r.i+1, len(r.toks))
		return nil
	}
	r.i++
	m := strings.TrimSpace(prelude.String())
	if media != "" {
		m = media + " and " + m
	}
	return r.ruleList(m, true)
}

// skipBlock skips to the end of an at-rule: its ";" or its block.
func (r *cssReader) skipBlock() {
	depth := 0
	for ; r.i < len(r.toks); r.i++ {
		switch r.toks[r.i].tt {
		case css.LeftBraceToken:
			depth++
		case css.RightBraceToken:
			depth--
			if depth <= 0 {
				r.i++
				return
			}
		case css.SemicolonToken:
			if depth == 0 {
				r.i++
				return
			}
		}
	}
}

func (r *cssReader) styleRule(media string) (cssRule, bool) {
	rule := cssRule{media: media, off: r.toks[r.i].off}
	start := r.i
	for r.i < len(r.toks) && r.toks[r.i].tt != css.LeftBraceToken {
		if tt := r.toks[r.i].tt; tt == css.RightBraceToken || tt == css.SemicolonToken {
			r.errorf(r.toks[start].off, problem.SVGCSSInvalid, "a selector without a block of declarations")
			r.i++
			return rule, false
		}
		r.i++
	}
	if r.i >= len(r.toks) {
		r.errorf(r.toks[start].off, problem.SVGCSSInvalid, "a selector without a block of declarations")
		return rule, false
	}
	sel := r.toks[start:r.i]
	r.i++ // {
	rule.selectors = r.selectorList(sel)
	rule.decls = r.declarations(true)
	return rule, true
}

// selectorList reads a selector list from its tokens.
func (r *cssReader) selectorList(toks []cssToken) []cssSelector {
	var out []cssSelector
	for len(toks) > 0 {
		n := 0
		for n < len(toks) && toks[n].tt != css.CommaToken {
			n++
		}
		part := trimSpace(toks[:n])
		if len(part) == 0 {
			off := 0
			if n < len(toks) {
				off = toks[n].off
			} else if len(toks) > 0 {
				off = toks[0].off
			}
			r.errorf(off, problem.SVGCSSInvalid, "an empty selector in a list")
		} else if s, ok := r.selector(part); ok {
			out = append(out, s)
		}
		if n == len(toks) {
			break
		}
		toks = toks[n+1:]
	}
	return out
}

func (r *cssReader) selector(toks []cssToken) (cssSelector, bool) {
	s := cssSelector{off: toks[0].off}
	var c cssCompound
	have := false    // c holds something
	child := false   // the next compound follows ">"
	pending := false // white space seen since the last compound
	finish := func() {
		if have {
			if len(s.compounds) > 0 {
				s.child = append(s.child, child)
			}
			s.compounds = append(s.compounds, c)
		}
		c, have, child, pending = cssCompound{}, false, false, false
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.bad {
			return s, false
		}
		switch {
		case t.tt == css.WhitespaceToken:
			if have {
				pending = true
			}
			continue
		case t.tt == css.DelimToken && t.data == ">":
			if !have && (len(s.compounds) == 0 || child) {
				r.errorf(t.off, problem.SVGCSSInvalid, "%q needs an element on each side", ">")
				return s, false
			}
			finish()
			child = true
			continue
		}
		if pending {
			finish() // white space between two compounds: a descendant
		}
		switch {
		case t.tt == css.IdentToken && !have:
			c.typ, have = t.data, true
		case t.tt == css.DelimToken && t.data == "*" && !have:
			c.typ, have = "*", true
		case t.tt == css.HashToken && len(t.data) > 1 && css.IsIdent([]byte(t.data[1:])):
			c.ids, have = append(c.ids, cssName{t.data[1:], t.off + 1}), true
		case t.tt == css.DelimToken && t.data == "." && i+1 < len(toks) && toks[i+1].tt == css.IdentToken:
			c.classes, have = append(c.classes, cssName{toks[i+1].data, toks[i+1].off}), true
			i++
		case t.tt == css.ColonToken:
			r.errorf(t.off, problem.SVGCSSNotAllowed, "pseudo-classes and pseudo-elements are not allowed in a logo's CSS; select by class or id")
			return s, false
		case t.tt == css.LeftBracketToken:
			r.errorf(t.off, problem.SVGCSSNotAllowed, "attribute selectors are not allowed in a logo's CSS; select by class or id")
			return s, false
		case t.tt == css.DelimToken && (t.data == "+" || t.data == "~"):
			r.errorf(t.off, problem.SVGCSSNotAllowed, "the %q combinator is not allowed: it selects siblings, which can be outside the logo; use a descendant or > selector", t.data)
			return s, false
		default:
			r.errorf(t.off, problem.SVGCSSInvalid, "%q cannot be read as a selector; use element names, classes and ids", t.data)
			return s, false
		}
	}
	if child && !have {
		r.errorf(toks[len(toks)-1].off, problem.SVGCSSInvalid, "%q needs an element on each side", ">")
		return s, false
	}
	finish()
	return s, len(s.compounds) > 0
}

// declarations reads a declaration list, up to "}" when inBlock, else to
// the end.
func (r *cssReader) declarations(inBlock bool) []cssDecl {
	var out []cssDecl
	for {
		r.skipSpace()
		t := r.peek()
		switch {
		case t == nil:
			if inBlock {
				r.errorf(r.end(), problem.SVGCSSInvalid, "a block of declarations is not closed with }")
			}
			return out
		case t.tt == css.RightBraceToken:
			r.i++
			if !inBlock {
				r.errorf(t.off, problem.SVGCSSInvalid, "} in a style attribute")
				continue
			}
			return out
		case t.tt == css.SemicolonToken:
			r.i++
			continue
		case t.bad:
			r.skipDecl()
			continue
		case t.tt == css.CustomPropertyNameToken:
			r.errorf(t.off, problem.SVGCSSNotAllowed, "custom property %s is not allowed in a logo's CSS; write the values themselves", t.data)
			r.skipDecl()
			continue
		case t.tt != css.IdentToken:
			r.errorf(t.off, problem.SVGCSSInvalid, "%q cannot start a declaration; write property: value", t.data)
			r.skipDecl()
			continue
		}
		d := cssDecl{prop: strings.ToLower(t.data), off: t.off}
		r.i++
		r.skipSpace()
		if c := r.peek(); c == nil || c.tt != css.ColonToken {
			r.errorf(t.off, problem.SVGCSSInvalid, "declaration %s has no colon; write %s: value", t.data, t.data)
			r.skipDecl()
			continue
		}
		r.i++
		start := r.i
		for r.i < len(r.toks) {
			tt := r.toks[r.i].tt
			if tt == css.SemicolonToken || tt == css.RightBraceToken {
				break
			}
			if tt == css.LeftBraceToken {
				r.errorf(r.toks[r.i].off, problem.SVGCSSNotAllowed, "nested rules are not allowed in a logo's CSS")
				r.skipBlock()
				start = r.i
				continue
			}
			r.i++
		}
		v := trimSpace(r.toks[start:r.i])
		if n := len(v); n >= 2 && v[n-1].tt == css.IdentToken && strings.EqualFold(v[n-1].data, "important") {
			k := n - 2
			for k >= 0 && v[k].tt == css.WhitespaceToken {
				k--
			}
			if k >= 0 && v[k].tt == css.DelimToken && v[k].data == "!" {
				d.important = true
				v = trimSpace(v[:k])
			}
		}
		if len(v) == 0 {
			r.errorf(d.off, problem.SVGCSSInvalid, "declaration %s has no value", d.prop)
			continue
		}
		d.value, d.valOff = v, v[0].off
		out = append(out, d)
	}
}

func (r *cssReader) skipDecl() {
	for r.i < len(r.toks) {
		switch r.toks[r.i].tt {
		case css.SemicolonToken:
			r.i++
			return
		case css.RightBraceToken:
			return
		}
		r.i++
	}
}

func trimSpace(toks []cssToken) []cssToken {
	for len(toks) > 0 && toks[0].tt == css.WhitespaceToken {
		toks = toks[1:]
	}
	for len(toks) > 0 && toks[len(toks)-1].tt == css.WhitespaceToken {
		toks = toks[:len(toks)-1]
	}
	return toks
}

// cssText writes tokens back as CSS.
func cssText(toks []cssToken) string {
	var b strings.Builder
	writeCSS(&b, toks)
	return b.String()
}

func writeCSS(b *strings.Builder, toks []cssToken) {
	for _, t := range toks {
		if t.tt == css.WhitespaceToken {
			b.WriteByte(' ')
			continue
		}
		b.WriteString(t.data)
		if t.tt == css.FunctionToken {
			writeCSS(b, t.args)
			b.WriteByte(')')
		}
	}
}

// urlTarget returns what a url() token points at: the text between the
// parentheses, unquoted.
func urlTarget(t cssToken) string {
	s := strings.TrimSpace(strings.TrimSuffix(t.data[len("url("):], ")"))
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		s = s[1 : len(s)-1]
	}
	return s
}

// forEachToken calls fn for each token of toks and of the arguments of
// its functions, depth first.
func forEachToken(toks []cssToken, fn func(t cssToken)) {
	for _, t := range toks {
		fn(t)
		if t.tt == css.FunctionToken {
			forEachToken(t.args, fn)
		}
	}
}

// hasURL reports whether v holds "url(" in any case, as a url() token
// needs (the checker refuses CSS escapes), without lower-casing a copy of
// v: a path's data, kilobytes of it, is an attribute value like any other.
func hasURL(v string) bool {
	for i := 3; i < len(v); i++ {
		j := strings.IndexByte(v[i:], '(')
		if j < 0 {
			return false
		}
		i += j
		if lowerASCII(v[i-3]) == 'u' && lowerASCII(v[i-2]) == 'r' && lowerASCII(v[i-1]) == 'l' {
			return true
		}
	}
	return false
}

// containsFold reports whether s holds sub, lower-case ASCII, in any case
// of its ASCII letters: how CSS matches a name.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if lowerASCII(s[i]) != sub[0] {
			continue
		}
		k := 1
		for k < len(sub) && lowerASCII(s[i+k]) == sub[k] {
			k++
		}
		if k == len(sub) {
			return true
		}
	}
	return false
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
