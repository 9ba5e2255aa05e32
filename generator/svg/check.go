package svg

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tdewolff/parse/v2/css"

	"logoindex/generator/problem"
)

// MaxNumber bounds every number of a document. Coordinates of a logo are
// a few thousand at most; numbers near the float limits overflow when a
// renderer or the optimiser adds them up (1.7e308 - -1.7e308 is +Inf).
const MaxNumber = 1e9

// Rules selects the checks that depend on the variant.
type Rules struct {
	// Mono requires the logo to paint with currentColor only: every paint
	// none, transparent or currentColor, including what shapes paint by
	// default, what <use> draws, gradient stops and filter primitives.
	Mono bool
}

// PaintUse is one fixed colour a logo paints.
type PaintUse struct {
	Value  string // as written: "#181717", "black", or "(default black)" for a shape that sets no fill
	Colour RGB
	Pos    problem.Pos
}

// Info is what Check learns about a document it accepts.
type Info struct {
	ViewBox [4]float64
	// HasTitle is true when a <title> is a child of the root.
	HasTitle bool
	// HasText is true when the logo draws text.
	HasText bool
	// Paints lists the fixed colours the logo paints, as drawn: through
	// <use>, gradients and patterns, but not inside masks and clip paths.
	Paints []PaintUse
	// Expansion is the number of elements a renderer draws, each <use> and
	// each reference to a pattern, marker, mask, clip path or filter counted
	// as a copy of what it refers to.
	Expansion int
	// Names counts the ids, references to ids, classes of class
	// attributes and names in selectors: at most how many names a
	// prefix (Options.IDPrefix) is added to when the file is published.
	Names int
}

// Check checks that d is a safe, self-contained, static SVG logo, against
// the allowlist (allow.go), and reports every problem with its position.
// It reads the document a browser reads: comments, CDATA and references
// are resolved by Parse.
func Check(d *Document, rules Rules) (*Info, problem.List) {
	return CheckMemo(d, rules, nil)
}

// CheckMemo is Check with the path data's checks remembered in m (see
// Memo); m may be nil.
func CheckMemo(d *Document, rules Rules, m *Memo) (*Info, problem.List) {
	return checkWithin(d, rules, m, MaxResolveSteps)
}

// checkWithin is CheckMemo with a budget of steps of its own: the re-check
// of what the optimiser writes gets more than its source had, so that a
// source accepted near the budget is never refused as published.
func checkWithin(d *Document, rules Rules, m *Memo, steps int) (*Info, problem.List) {
	c := &checker{d: d, rules: rules, memo: m, info: &Info{}, ids: map[string]*Node{}, decls: map[*Node][]applied{},
		orig: map[*Node]props{}, acyclic: map[*Node]bool{}, servers: map[serverOf]*Node{}, checked: map[gradientUse]bool{},
		maxSteps: steps}
	c.check()
	return c.info, c.probs
}

type checker struct {
	d     *Document
	rules Rules
	memo  *Memo
	info  *Info
	probs problem.List

	ids    map[string]*Node // the first element with each id
	sheets []sheet          // the <style> elements
	// selectorIDs are the ids <style> selectors name, to check once every
	// id of the document is known.
	selectorIDs []selectorID
	decls       map[*Node][]applied // presentation attributes and style declarations of each element
	refs        []reference         // every reference, checked once all ids are known
	order       int                 // declarations in document order

	monoDefaultReported bool
	expansionReported   bool

	steps         int  // of resolving styles and references: see spend
	maxSteps      int  // the budget of steps
	stepsReported bool // MaxResolveSteps are spent
	// Memos of the walk that draws the document (refs.go), so that what an
	// element or a chain of references gives is worked out once.
	orig    map[*Node]props    // origProps
	acyclic map[*Node]bool     // elements whose href chain ends without a cycle
	servers map[serverOf]*Node // the element of a href chain whose children serve a gradient or pattern
	checked map[gradientUse]bool
}

type sheet struct {
	text  *Node
	rules []sheetRule
}

// sheetRule is a rule of a <style> element with its checked declarations.
type sheetRule struct {
	selectors []cssSelector
	decls     []*decl
}

// reference is one use of "#id".
type reference struct {
	from *Node
	id   string
	pos  problem.Pos
	what string // for messages: "href", "url()" ...
}

func (c *checker) errorf(pos problem.Pos, code problem.Code, format string, args ...any) {
	c.probs.Errorf(code, c.d.Path, pos.Line, pos.Col, format, args...)
}

func (c *checker) warnf(pos problem.Pos, code problem.Code, format string, args ...any) {
	c.probs.Warnf(code, c.d.Path, pos.Line, pos.Col, format, args...)
}

func (c *checker) check() {
	root := c.d.Root
	if !c.checkRoot(root) {
		return
	}
	c.element(root, false)
	c.info.Names += len(c.ids) + len(c.refs)
	c.checkSelectorIDs()
	if len(c.probs.Errors()) > 0 {
		return // references and paint mean little in a document that is refused anyway
	}
	c.resolveSelectors()
	c.sortDecls()
	c.checkRootStyle()
	c.checkReferences()
	if len(c.probs.Errors()) > 0 {
		return
	}
	c.render()
}

// checkRoot checks the root element; false stops the check, as nothing
// further would make sense.
func (c *checker) checkRoot(n *Node) bool {
	pos := c.d.Pos(n)
	if n.Local != "svg" || n.Space != NSSVG {
		switch {
		case strings.EqualFold(n.Local, "html"):
			c.errorf(pos, problem.SVGInvalid, "is an HTML document, not an SVG; export the logo as SVG")
		case n.Local == "svg":
			c.errorf(pos, problem.SVGInvalid, `root <svg> is not in the SVG namespace; add xmlns="http://www.w3.org/2000/svg"`)
		default:
			c.errorf(pos, problem.SVGInvalid, `root element is <%s>; an SVG logo's root is <svg xmlns="http://www.w3.org/2000/svg">`, n.Name())
		}
		return false
	}
	if n.Prefix != "" {
		c.errorf(pos, problem.SVGInvalid, `root element <%s> uses a namespace prefix; write <svg xmlns="http://www.w3.org/2000/svg"> and drop the prefix`, n.Name())
		return false
	}
	viewBox, hasViewBox := n.Attr("viewBox")
	if !hasViewBox {
		w, _ := n.Attr("width")
		h, _ := n.Attr("height")
		hint := ""
		if pw, ph := plainNumber(w), plainNumber(h); pw > 0 && ph > 0 {
			// The numbers alone: a viewBox takes no units ("24px" is not one).
			hint = fmt.Sprintf(`, for example viewBox="0 0 %s %s" from its width and height`, formatNumber(pw), formatNumber(ph))
		}
		c.errorf(pos, problem.SVGViewBoxInvalid, `root <svg> has no viewBox; add viewBox="0 0 <width> <height>"%s`, hint)
		return true
	}
	vb, msg := parseViewBox(viewBox)
	if msg != "" {
		c.errorf(pos, problem.SVGViewBoxInvalid, "viewBox=%q %s", truncate(viewBox, 60), msg)
	}
	c.info.ViewBox = vb
	return true
}

// ParseViewBox reads a viewBox attribute's four numbers.
func ParseViewBox(s string) ([4]float64, bool) {
	vb, msg := parseViewBox(s)
	return vb, msg == ""
}

func parseViewBox(s string) (vb [4]float64, msg string) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || isSpaceRune(r) })
	if len(fields) != 4 {
		return vb, "must be four numbers: min-x min-y width height"
	}
	for i, f := range fields {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) || math.Abs(v) > MaxNumber {
			return vb, fmt.Sprintf("has %q, which is not a number within ±1e9", f)
		}
		vb[i] = v
	}
	if vb[2] <= 0 || vb[3] <= 0 {
		return vb, "must have a positive width and height"
	}
	return vb, ""
}

// plainNumber reads a width or height in user units ("24" or "24px"),
// or returns 0.
func plainNumber(s string) float64 {
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "px"), 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) || v > MaxNumber {
		return 0
	}
	return v
}

// formatNumber writes v as a viewBox takes it: the shortest decimal, no
// exponent, no unit.
func formatNumber(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// element checks n and its content. preserve says xml:space="preserve" is
// in effect.
func (c *checker) element(n *Node, preserve bool) {
	pos := c.d.Pos(n)
	switch {
	case editorNamespaces[n.Space]:
		return // editor metadata: never published, see allow.go
	case n.Space != NSSVG:
		c.foreignElement(n, pos)
		return
	case n.Prefix != "" && n.Parent != nil:
		c.errorf(pos, problem.SVGElementNotAllowed, "element <%s> uses a namespace prefix for SVG; write <%s> in the default namespace", n.Name(), n.Local)
		return
	case !allowedElement(n.Local):
		if why, ok := refusedElements[strings.ToLower(n.Local)]; ok {
			c.errorf(pos, problem.SVGElementNotAllowed, "<%s> is not allowed: %s; remove it", n.Name(), why)
		} else {
			c.errorf(pos, problem.SVGElementNotAllowed, "<%s> is not an element a logo may use (see the allowlist in docs/security.md); remove it", n.Name())
		}
		return
	}
	if n.Parent == c.d.Root && n.Local == "title" {
		c.info.HasTitle = true
	}
	for i := range n.Attrs {
		if a := &n.Attrs[i]; a.Space == NSXML && a.Local == "space" {
			preserve = a.Value == "preserve"
		}
	}
	for i := range n.Attrs {
		c.attr(n, &n.Attrs[i])
	}
	if n.Local == "metadata" {
		return // dropped with its content, which is RDF in practice
	}
	textOnly := n.Local == "title" || n.Local == "desc" || n.Local == "style"
	for _, k := range n.Children {
		if k.Type == ElementNode {
			if textOnly {
				// In a page, <title> and <desc> of an inline SVG hold HTML:
				// an element there would be an HTML element.
				c.errorf(c.d.Pos(k), problem.SVGElementNotAllowed, "<%s> may hold only text, not <%s>; remove the element", n.Local, k.Name())
				continue
			}
			c.element(k, preserve)
			continue
		}
		c.text(n, k, preserve)
	}
}

func (c *checker) foreignElement(n *Node, pos problem.Pos) {
	switch n.Space {
	case NSXHTML:
		c.errorf(pos, problem.SVGElementNotAllowed, "HTML element <%s> is not allowed in an SVG logo; remove it", n.Name())
	case "":
		c.errorf(pos, problem.SVGElementNotAllowed, `element <%s> is in no namespace (xmlns=""); an SVG logo holds only SVG elements`, n.Name())
	default:
		c.errorf(pos, problem.SVGElementNotAllowed, "element <%s> is in the namespace %q; an SVG logo holds only SVG elements (and editor metadata, which is dropped)", n.Name(), truncate(n.Space, 60))
	}
}

func (c *checker) text(parent, t *Node, preserve bool) {
	switch parent.Local {
	case "style":
		c.stylesheet(parent, t)
		return
	case "text", "tspan", "textPath":
		if strings.TrimSpace(t.Text) != "" {
			c.info.HasText = true
		}
	}
	if preserve && whitespaceMatters(t.Text) && drawsText(parent) {
		c.errorf(c.d.TextPos(t, 0), problem.SVGSpacePreserve, `text under xml:space="preserve" has spaces that the optimiser would collapse; convert the text to paths or remove the extra spaces`)
	}
}

func drawsText(n *Node) bool {
	for ; n != nil; n = n.Parent {
		if n.IsSVG("text") {
			return true
		}
	}
	return false
}

// whitespaceMatters reports whether collapsing white space would change
// text: runs of spaces, tabs or line breaks, or space at either end.
func whitespaceMatters(s string) bool {
	if strings.TrimSpace(s) == "" {
		return len(s) > 0 && s != " "
	}
	return s != strings.Join(strings.Fields(s), " ")
}

// attr checks one attribute of n against the allowlist and reads its value.
func (c *checker) attr(n *Node, a *Attr) {
	if kind := c.attrKind(n, a); kind != 0 {
		c.attrValue(n, a, kind)
	}
}

// attrKind returns what kind of value attribute a of n holds, or 0, having
// said why, when a is not allowed or is left unchecked (a namespace
// declaration, editor metadata).
func (c *checker) attrKind(n *Node, a *Attr) attrKind {
	pos := c.d.AttrPos(a)
	name := a.Name()
	lower := strings.ToLower(a.Local)
	if strings.HasPrefix(lower, "on") && a.Space == "" {
		c.errorf(pos, problem.SVGAttributeNotAllowed, "event handler attribute %s is not allowed on <%s>; remove it", name, n.Name())
		return 0
	}
	var kind attrKind
	switch {
	case a.Space == NSXMLNS:
		return 0 // a namespace declaration: what it declares is checked where it is used
	case editorNamespaces[a.Space]:
		return 0 // editor metadata, dropped
	case a.Space == "":
		kind = attributes[a.Local]
		if kind == 0 && strings.HasPrefix(a.Local, "data-") {
			kind = kindText
		}
	case a.Space == NSXML || a.Space == NSXLink:
		kind = namespacedAttributes[[2]string{a.Space, a.Local}]
	default:
		c.errorf(pos, problem.SVGAttributeNotAllowed, "attribute %s is in the namespace %q; only xml:space, xml:lang, xlink:href and xlink:title are allowed besides SVG's own", name, truncate(a.Space, 60))
		return 0
	}
	if kind == 0 {
		if why, ok := refusedAttributes[lower]; ok || strings.HasPrefix(lower, "aria-") {
			if !ok {
				why = "of the aria- attributes a logo may have only aria-label, aria-labelledby, aria-describedby, aria-hidden, aria-roledescription and aria-description, which describe the logo itself and nothing of the page around it"
			}
			c.errorf(pos, problem.SVGAttributeNotAllowed, "attribute %s is not allowed on <%s>: %s; remove it", name, n.Name(), why)
		} else {
			c.errorf(pos, problem.SVGAttributeNotAllowed, "attribute %s is not an attribute a logo may use (see the allowlist in docs/security.md); remove it", name)
		}
		return 0
	}
	if hasJavascriptURL(a.Value) {
		c.errorf(pos, problem.SVGAttributeNotAllowed, "attribute %s on <%s> contains javascript:; remove it", name, n.Name())
		return 0
	}
	return kind
}

// attrValue checks the value of attribute a of n, of the given kind.
func (c *checker) attrValue(n *Node, a *Attr, kind attrKind) {
	pos := c.d.AttrPos(a)
	name := a.Name()
	switch kind {
	case kindText:
		if n.Local == "style" && a.Local == "type" && strings.TrimSpace(a.Value) != "" && !strings.EqualFold(strings.TrimSpace(a.Value), "text/css") {
			c.errorf(pos, problem.SVGValueInvalid, "<style type=%q> is not CSS; only text/css is allowed", a.Value)
		}
		if a.Space == "" && idListAttrs[a.Local] {
			for _, id := range strings.Fields(a.Value) {
				c.refs = append(c.refs, reference{nil, id, pos, name})
			}
		}
	case kindSpace:
		if a.Value != "default" && a.Value != "preserve" {
			c.errorf(pos, problem.SVGValueInvalid, `xml:space must be "default" or "preserve", not %q`, a.Value)
		}
	case kindID:
		if a.Value == "" {
			c.errorf(pos, problem.SVGValueInvalid, "id is empty; give it a name or remove it")
		} else if first, dup := c.ids[a.Value]; dup {
			c.errorf(pos, problem.SVGIDDuplicate, "id %q is also used at line %d; ids must be unique", a.Value, c.d.Pos(first).Line)
		} else if n.Local != "metadata" {
			// <metadata> is never published: nothing may refer to it.
			c.ids[a.Value] = n
		}
	case kindClass:
		c.info.Names += len(strings.Fields(a.Value))
	case kindHref:
		v := strings.TrimSpace(a.Value)
		if !strings.HasPrefix(v, "#") || len(v) == 1 || strings.ContainsAny(v, " \t\r\n") {
			c.errorf(pos, problem.SVGReferenceExternal, "%s=%q on <%s> points outside the document; only local references like \"#id\" are allowed", name, truncate(a.Value, 60), n.Name())
			return
		}
		if _, ok := refTargets[n.Local]; !ok {
			c.warnf(pos, problem.SVGAttributeUnused, "%s on <%s> does nothing, so it is not published; remove it", name, n.Name())
			return
		}
		c.refs = append(c.refs, reference{n, v[1:], pos, name})
	case kindStyle:
		decls, errs := readDeclarations(a.Value)
		for _, e := range errs {
			c.errorf(c.d.ValuePos(a, e.off), e.code, "style attribute: %s", e.msg)
		}
		for _, d := range decls {
			c.declaration(n, d, func(off int) problem.Pos { return c.d.ValuePos(a, off) }, originInline, nil)
		}
	case kindPath:
		if msg, off := c.memo.checkPath(a.Value); msg != "" {
			c.errorf(c.d.ValuePos(a, off), problem.SVGValueInvalid, "%s on <%s>: %s", name, n.Name(), msg)
		}
	case kindNumbers:
		c.numbers(n, a, pos)
	case kindViewBox:
		if _, msg := parseViewBox(a.Value); msg != "" && n != c.d.Root {
			c.errorf(pos, problem.SVGViewBoxInvalid, "viewBox=%q %s", truncate(a.Value, 60), msg)
		}
	case kindTransform:
		if _, msg := parseTransform(a.Value); msg != "" {
			c.errorf(pos, problem.SVGValueInvalid, "%s=%q %s", name, truncate(a.Value, 60), msg)
		}
	default: // a presentation attribute: a CSS value
		toks, errs := readValue(a.Value)
		for _, e := range errs {
			c.errorf(c.d.ValuePos(a, e.off), e.code, "attribute %s: %s", name, e.msg)
		}
		if len(errs) == 0 {
			// The declaration is the attribute: it is at the attribute's
			// name (offset -1), its value where the value is.
			d := cssDecl{prop: a.Local, value: toks, off: -1}
			if len(toks) > 0 {
				d.valOff = toks[0].off
			}
			c.declaration(n, d, func(off int) problem.Pos {
				if off < 0 {
					return c.d.AttrPos(a)
				}
				return c.d.ValuePos(a, off)
			}, originAttr, nil)
		}
	}
}

// numbers checks a list of numbers and lengths.
func (c *checker) numbers(n *Node, a *Attr, pos problem.Pos) {
	for _, f := range strings.FieldsFunc(a.Value, func(r rune) bool { return r == ',' || isSpaceRune(r) }) {
		num := strings.TrimRightFunc(f, func(r rune) bool { return r == '%' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' })
		if num == "" && (a.Local == "orient" || f == "auto") {
			continue
		}
		v, err := strconv.ParseFloat(num, 64)
		switch {
		case err != nil && num == "":
			// A keyword (auto, userSpaceOnUse ...): nothing to bound.
		case err != nil && !strings.Contains(err.Error(), "range"):
			c.errorf(pos, problem.SVGValueInvalid, "%s=%q on <%s> has %q, which is not a number", a.Name(), truncate(a.Value, 60), n.Name(), truncate(f, 30))
			return
		case err != nil || math.IsInf(v, 0) || math.IsNaN(v) || math.Abs(v) > MaxNumber:
			c.errorf(pos, problem.SVGValueInvalid, "%s=%q on <%s> has %s, beyond ±1e9; no logo needs numbers that large, and they overflow when added up", a.Name(), truncate(a.Value, 60), n.Name(), truncate(f, 30))
			return
		}
	}
}

// The origins of a declaration, in the order the cascade ranks them.
const (
	originAttr   = iota // a presentation attribute
	originSheet         // a rule of a <style> element
	originInline        // a style attribute
)

// decl is one declaration, checked.
type decl struct {
	prop      string
	text      string // the value as written
	p         paint  // for paint and colour properties
	ref       string // the id a url() refers to, for paint and reference properties
	pos       problem.Pos
	important bool
	origin    int
	order     int
	media     string // the @media condition it depends on, "" for none
}

// applied is a declaration that applies to an element: a rule's is shared
// by every element the rule matches, each with the specificity of the
// rule's most specific selector that matches it.
type applied struct {
	*decl
	spec [3]int // ids, classes, types; zero but for a rule's
}

// outranks reports whether d wins over e in the cascade.
func (d applied) outranks(e applied) bool {
	if d.important != e.important {
		return d.important
	}
	if d.origin != e.origin {
		return d.origin > e.origin
	}
	if d.spec != e.spec {
		return moreSpecific(d.spec, e.spec)
	}
	return d.order > e.order
}

// declaration checks one property and value, from any origin, and records
// it on n (for a style attribute or presentation attribute) or returns it
// for a rule to record on the elements it matches. at maps offsets of the
// CSS text to positions in the file.
func (c *checker) declaration(n *Node, d cssDecl, at func(int) problem.Pos, origin int, rule *cssRule) *decl {
	pos := at(d.off)
	what := "attribute " + d.prop
	switch origin {
	case originInline:
		what = "style attribute"
	case originSheet:
		what = "<style>"
	}
	kind := propertyKind(d.prop)
	if kind == 0 {
		c.errorf(pos, problem.SVGCSSNotAllowed, "%s: the CSS property %s is not one a logo may use (see the allowlist in docs/security.md); remove it", what, d.prop)
		return nil
	}
	if !c.checkValue(d, at, what) {
		return nil
	}
	out := &decl{prop: d.prop, text: cssText(d.value), pos: pos, important: d.important, origin: origin, order: c.order}
	if rule != nil {
		out.media = rule.media
	}
	c.order++
	switch kind {
	case kindPaint, kindColour:
		p, msg := parsePaint(d.value, kind == kindColour)
		if msg != "" {
			c.errorf(at(d.valOff), problem.SVGValueInvalid, "%s: %s: %s %s; write a colour such as #1A2B3C%s", what, d.prop, out.text, msg, map[bool]string{true: ", currentColor, none or url(#id)"}[kind == kindPaint])
			return nil
		}
		out.p = p
		if c.rules.Mono && p.fixed() || c.rules.Mono && p.fallback != nil && p.fallback.fixed() {
			where := ""
			if origin == originSheet {
				where = " in <style>"
			}
			c.errorf(pos, problem.SVGMonoColour, "icon-mono paints %s: %s%s; every paint must be currentColor, none or transparent", d.prop, out.text, where)
		}
		if p.kind == paintURL {
			out.ref = strings.TrimPrefix(p.ref, "#")
			c.refs = append(c.refs, reference{n, out.ref, at(d.valOff), "url()"})
		}
	case kindRef:
		for _, t := range d.value {
			if t.tt == css.URLToken {
				out.ref = strings.TrimPrefix(urlTarget(t), "#")
				c.refs = append(c.refs, reference{n, out.ref, at(t.off), "url()"})
			}
		}
	}
	if n != nil {
		c.decls[n] = append(c.decls[n], applied{decl: out})
	}
	return out
}

// checkValue checks the tokens of a value: known functions only, url()
// only to "#id", finite numbers within MaxNumber.
func (c *checker) checkValue(d cssDecl, at func(int) problem.Pos, what string) bool {
	ok := true
	forEachToken(d.value, func(t cssToken) {
		if !ok {
			return
		}
		if t.bad {
			ok = false // reported as the CSS was read
			return
		}
		switch t.tt {
		case css.IdentToken, css.HashToken, css.StringToken, css.CommaToken, css.WhitespaceToken:
			if t.tt == css.IdentToken && strings.EqualFold(t.data, "expression") {
				c.errorf(at(t.off), problem.SVGCSSNotAllowed, "%s uses expression: expression() runs script; remove it", what)
				ok = false
			}
		case css.DelimToken:
			if !strings.ContainsAny(t.data, "/+-*") {
				c.errorf(at(t.off), problem.SVGValueInvalid, "%s: %s has %q, which is not part of a value", what, d.prop, t.data)
				ok = false
			}
		case css.NumberToken, css.PercentageToken, css.DimensionToken:
			num := strings.TrimRightFunc(t.data, func(r rune) bool { return r == '%' || r > '9' || r < '0' && r != '.' && r != '-' && r != '+' })
			v, err := strconv.ParseFloat(num, 64)
			if err != nil && strings.Contains(err.Error(), "range") || math.IsInf(v, 0) || math.Abs(v) > MaxNumber {
				c.errorf(at(t.off), problem.SVGValueInvalid, "%s: %s has %s, beyond ±1e9; no logo needs numbers that large", what, d.prop, t.data)
				ok = false
			}
		case css.FunctionToken:
			if !cssFunctions[strings.ToLower(t.data)] {
				c.errorf(at(t.off), problem.SVGCSSNotAllowed, "%s uses %s): only colour, arithmetic, transform and filter functions are allowed; remove it", what, t.data)
				ok = false
			}
		case css.URLToken:
			if ref := urlTarget(t); !strings.HasPrefix(ref, "#") || len(ref) == 1 {
				c.errorf(at(t.off), problem.SVGReferenceExternal, "%s has url(%s), which points outside the document; only local references like url(#gradient) are allowed", what, truncate(ref, 60))
				ok = false
			}
		default:
			c.errorf(at(t.off), problem.SVGValueInvalid, "%s: %s has %q, which is not part of a value", what, d.prop, t.data)
			ok = false
		}
	})
	return ok
}

// stylesheet checks a <style> element's text.
func (c *checker) stylesheet(style, t *Node) {
	at := func(off int) problem.Pos { return c.d.TextPos(t, off) }
	rules, errs := readStylesheet(t.Text)
	for _, e := range errs {
		c.errorf(at(e.off), e.code, "<style>: %s", e.msg)
	}
	sh := sheet{text: t}
	for i := range rules {
		r := &rules[i]
		for _, s := range r.selectors {
			c.scopeSelector(s, at)
		}
		sr := sheetRule{selectors: r.selectors}
		for _, d := range r.decls {
			if out := c.declaration(nil, d, at, originSheet, r); out != nil {
				sr.decls = append(sr.decls, out)
			}
		}
		sr.decls = winners(sr.decls)
		sh.rules = append(sh.rules, sr)
	}
	c.sheets = append(c.sheets, sh)
}

// winners keeps of the declarations of one rule the one of each property
// that wins within the rule (the last !important, else the last), in
// their order: the others never apply, whatever the rule matches, and a
// rule that repeats a property thousands of times is applied once per
// element, not thousands of times.
func winners(ds []*decl) []*decl {
	win := map[string]*decl{}
	for _, d := range ds {
		if w := win[d.prop]; w == nil || d.important || !w.important {
			win[d.prop] = d
		}
	}
	out := ds[:0]
	for _, d := range ds {
		if win[d.prop] == d {
			out = append(out, d)
		}
	}
	return out
}

// hasJavascriptURL reports whether s holds "javascript:" once white space
// and control characters, which browsers skip in URLs, are removed.
func hasJavascriptURL(s string) bool {
	return strings.IndexByte(s, ':') >= 0 && strings.Contains(stripSpace(strings.ToLower(s)), "javascript:")
}

func stripSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if r <= ' ' || r == 0x7f || r == 0xa0 || r == 0xfeff || r >= 0x2000 && r <= 0x200f {
			return -1
		}
		return r
	}, s)
}

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "..."
}
