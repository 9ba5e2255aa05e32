package svg

import (
	"slices"
	"sort"
	"strings"

	"logoindex/generator/problem"
)

// MaxExpansion bounds the elements a renderer draws for one document, with
// every <use> and every reference to a pattern, marker, mask, clip path or
// filter counted as a copy of what it refers to. librsvg gives up at
// 500,000 referenced elements; Chromium takes minutes over a file that
// nests ten <use> ten deep. Real logos draw far fewer: the limit leaves
// them a wide margin.
const MaxExpansion = 20000

// References, the cascade, and what a renderer draws.

// refTargets says which elements each kind of reference may point at.
var refTargets = map[string][]string{
	"use":            nil, // any element that draws
	"textPath":       {"path", "rect", "circle", "ellipse", "line", "polyline", "polygon"},
	"linearGradient": {"linearGradient", "radialGradient"},
	"radialGradient": {"linearGradient", "radialGradient"},
	"pattern":        {"pattern"},
	"filter":         {"filter"},
}

// checkReferences checks that every "#id" points at an element of the
// document that can serve it.
func (c *checker) checkReferences() {
	for _, r := range c.refs {
		t := c.ids[r.id]
		if t == nil && r.from == nil {
			// An id list (aria-labelledby): inline in a page, the id
			// would name the page's element.
			c.errorf(r.pos, problem.SVGReferenceMissing, "%s refers to #%s, which this file does not have; inline in a page it would name the page's element; add the element or remove the reference", r.what, r.id)
			continue
		}
		if t == nil && r.what != "url()" {
			// A renderer draws nothing for it; the optimiser drops it.
			c.warnf(r.pos, problem.SVGReferenceMissing, "%s refers to #%s, which this file does not have, so it draws nothing and is not published; add the element or remove the reference", r.what, r.id)
			continue
		}
		if t == nil {
			// Renderers disagree on what a missing paint server or mask
			// draws, and inline in a page the id could be the page's.
			c.errorf(r.pos, problem.SVGReferenceMissing, "%s refers to #%s, which this file does not have; add the element or remove the reference", r.what, r.id)
			continue
		}
		if r.from != nil && r.what != "url()" && r.from.Local != "use" && r.from.Local != "textPath" {
			// Gradients, patterns and filters inherit along href chains.
			if n := c.chainCycle(r.from, t); n != nil {
				c.errorf(r.pos, problem.SVGReferenceCycle, "%s on <%s> leads back to it through the href of #%s: a reference cycle; break the cycle", r.what, r.from.Local, n.Attr0("id"))
			}
		}
		if r.from != nil && r.what != "url()" {
			if want := refTargets[r.from.Local]; want != nil && !slices.Contains(want, t.Local) {
				c.errorf(r.pos, problem.SVGReferenceInvalid, "%s on <%s> refers to <%s> #%s, which it cannot use; point it at a <%s>", r.what, r.from.Local, t.Local, r.id, strings.Join(want, "> or <"))
			}
			if r.from.Local == "use" && t == c.d.Root {
				c.errorf(r.pos, problem.SVGReferenceInvalid, "<use> refers to the root <svg>, which contains it; refer to a part of the drawing")
			}
		}
	}
}

// chainCycle follows the href chain from t, which from refers to, and
// returns the first element it comes back to, or nil when the chain ends.
// A chain found to end is remembered, so that a thousand gradients that
// each refer to the next are followed once, not a thousand times.
func (c *checker) chainCycle(from, t *Node) *Node {
	seen := map[*Node]bool{from: true}
	var path []*Node
	for n := t; n != nil; n = c.ids[strings.TrimPrefix(hrefOf(n), "#")] {
		if c.acyclic[n] {
			break
		}
		if seen[n] {
			return n
		}
		if !c.spend(1, n) {
			return nil
		}
		seen[n] = true
		path = append(path, n)
	}
	for _, n := range path {
		c.acyclic[n] = true
	}
	return nil
}

// pv is one value a property may take on an element: the cascade's
// winner, or one that wins only under an @media condition.
type pv struct {
	p    paint
	text string
	pos  problem.Pos
	dflt bool // the property's initial value: nothing sets it
}

// props are the values of the inherited colour properties of an element.
type props struct{ fill, stroke, color []pv }

var (
	initialFill   = []pv{{p: paint{kind: paintColour, known: true}, text: "(default black)", dflt: true}}
	initialStroke = []pv{{p: paint{kind: paintNone}, dflt: true}}
	initialColour = []pv{{p: paint{kind: paintCurrent}, dflt: true}} // inline, the page's colour
	initialBlack  = []pv{{p: paint{kind: paintColour, known: true}, text: "(default black)", dflt: true}}
	initialWhite  = []pv{{p: paint{kind: paintColour, known: true, rgb: RGB{255, 255, 255}}, text: "(default white)", dflt: true}}
)

// values returns the values property prop may take on n, given the values
// of its parent (used when nothing sets it or it says inherit) and its
// initial value (used when nothing sets it and it is not inherited).
func (c *checker) values(n *Node, prop string, parent []pv, inherited bool, initial []pv) []pv {
	ds := c.declsOf(n, prop)
	if len(ds) == 0 {
		// Nothing sets it: the values are shared, not copied, so that a
		// long list inherited by thousands of elements costs nothing.
		if inherited {
			return parent
		}
		return initial
	}
	var out []pv
	for i := range ds {
		d := &ds[i]
		if d.p.kind == paintInherit {
			out = append(out, parent...)
		} else {
			out = append(out, pv{p: d.p, text: d.text, pos: d.pos})
		}
		if d.media == "" {
			c.spend(len(out), n)
			return out
		}
	}
	if inherited {
		out = append(out, parent...)
	} else {
		out = append(out, initial...)
	}
	c.spend(len(out), n)
	return out
}

// sortDecls orders the declarations of each element by property and, for
// one property, from the one that wins the cascade down, so that declsOf
// finds them without a search or a sort each time an element is drawn.
// Of each property it keeps the declarations up to the first that holds
// whatever the @media conditions: those after it never apply.
func (c *checker) sortDecls() {
	for n, ds := range c.decls {
		if !c.spend(len(ds), n) {
			return
		}
		slices.SortFunc(ds, func(a, b applied) int {
			if a.prop != b.prop {
				return strings.Compare(a.prop, b.prop)
			}
			if a.outranks(b) {
				return -1
			}
			if b.outranks(a) {
				return 1
			}
			return 0
		})
		live := ds[:0]
		for _, d := range ds {
			if len(live) == 0 || live[len(live)-1].prop != d.prop || live[len(live)-1].media != "" {
				live = append(live, d)
			}
		}
		c.decls[n] = live
	}
}

// declsOf returns the declarations of prop on n, the winner first.
func (c *checker) declsOf(n *Node, prop string) []applied {
	ds := c.decls[n]
	i := sort.Search(len(ds), func(i int) bool { return ds[i].prop >= prop })
	j := sort.Search(len(ds), func(i int) bool { return ds[i].prop > prop })
	return ds[i:j]
}

// propsOf computes n's inherited colour properties from its parent's.
func (c *checker) propsOf(n *Node, parent props) props {
	return props{
		fill:   c.values(n, "fill", parent.fill, true, nil),
		stroke: c.values(n, "stroke", parent.stroke, true, nil),
		color:  c.values(n, "color", parent.color, true, nil),
	}
}

// origProps returns n's properties where it stands in the document: what
// the content of a pattern or marker inherits, whoever refers to it.
func (c *checker) origProps(n *Node) props {
	if n == nil {
		return props{initialFill, initialStroke, initialColour}
	}
	if p, ok := c.orig[n]; ok {
		return p
	}
	p := c.propsOf(n, c.origProps(n.Parent))
	c.orig[n] = p
	return p
}

// inst is an element as drawn: the chain up leads through the <use>
// elements and references that brought it in, to find cycles.
type inst struct {
	n  *Node
	up *inst
}

// drawing reports whether n is among what draws in, up the chain of the
// <use> elements and references that brought it in: a reference cycle.
// The steps up count towards MaxResolveSteps; once they are spent, the
// walk stops at the next element it would draw.
func (c *checker) drawing(in *inst, n *Node) bool {
	for ; in != nil; in = in.up {
		if !c.spend(1, n) {
			return false
		}
		if in.n == n {
			return true
		}
	}
	return false
}

// Elements that are not drawn where they stand, only where referenced.
var notDrawn = toSet("defs symbol clipPath mask pattern marker linearGradient radialGradient filter style title desc metadata")

var shapes = toSet("path rect circle ellipse line polyline polygon")

// render walks the document as a renderer draws it: it counts the
// elements drawn, finds reference cycles and computes what each shape
// paints, including through <use>, gradients, patterns, markers and
// filters. For icon-mono, whatever paints black or white by default is
// refused.
func (c *checker) render() {
	c.draw(c.d.Root, nil, props{initialFill, initialStroke, initialColour}, true)
}

// count counts one more element drawn; false stops the walk.
func (c *checker) count(n *Node) bool {
	c.info.Expansion++
	if c.info.Expansion > MaxExpansion {
		if !c.expansionReported {
			c.expansionReported = true
			c.errorf(c.d.Pos(n), problem.SVGTooComplex, "draws more than %d elements once <use> and references are expanded; simplify the artwork (a logo draws a few hundred)", MaxExpansion)
		}
		return false
	}
	return true
}

// draw walks n as drawn under up; paints says its paints are visible
// (false inside masks and clip paths).
func (c *checker) draw(n *Node, up *inst, parent props, paints bool) {
	if n.Type != ElementNode || n.Space != NSSVG || c.expansionReported || c.stepsReported {
		return
	}
	if !c.count(n) {
		return
	}
	me := &inst{n, up}
	p := c.propsOf(n, parent)
	c.follow(n, me, "clip-path", false)
	c.follow(n, me, "mask", false)
	c.follow(n, me, "filter", paints)
	for _, m := range []string{"marker-start", "marker-mid", "marker-end"} {
		c.follow(n, me, m, paints)
	}
	switch {
	case shapes[n.Local]:
		c.paintShape(n, me, p, paints)
	case n.Local == "text" || n.Local == "tspan" || n.Local == "textPath":
		for _, k := range n.Children {
			if k.Type == TextNode && strings.TrimSpace(k.Text) != "" {
				c.paintShape(n, me, p, paints)
				break
			}
		}
	case n.Local == "use":
		if t := c.ids[strings.TrimPrefix(hrefOf(n), "#")]; t != nil {
			if c.drawing(me, t) {
				c.errorf(c.d.Pos(n), problem.SVGReferenceCycle, "<use> refers to #%s, which contains this <use> or uses it again: a reference cycle draws nothing; break the cycle", t.Attr0("id"))
				return
			}
			c.drawContent(t, me, p, paints)
		}
		return
	}
	for _, k := range n.Children {
		if k.Type == ElementNode && !notDrawn[k.Local] {
			c.draw(k, me, p, paints)
		}
	}
}

// drawContent draws what a <use> refers to: a symbol's content, or the
// element itself.
func (c *checker) drawContent(t *Node, up *inst, parent props, paints bool) {
	if t.Local != "symbol" {
		c.draw(t, up, parent, paints)
		return
	}
	if !c.count(t) {
		return
	}
	me := &inst{t, up}
	p := c.propsOf(t, parent)
	for _, k := range t.Children {
		if k.Type == ElementNode && !notDrawn[k.Local] {
			c.draw(k, me, p, paints)
		}
	}
}

// target returns the element a url() property of n refers to, and where
// the reference is written. Of several declarations, any that refers to
// an element counts: each may win under some condition.
func (c *checker) target(n *Node, prop string) (*Node, problem.Pos, bool) {
	for _, d := range c.declsOf(n, prop) {
		if !c.spend(1, n) {
			break
		}
		if d.ref != "" {
			if el := c.ids[d.ref]; el != nil {
				return el, d.pos, true
			}
		}
	}
	return nil, problem.Pos{}, false
}

// follow draws what n's clip-path, mask, filter or marker refers to, as
// often as it is referred to.
func (c *checker) follow(n *Node, me *inst, prop string, paints bool) {
	t, pos, ok := c.target(n, prop)
	if !ok {
		return
	}
	if c.drawing(me, t) {
		c.errorf(pos, problem.SVGReferenceCycle, "%s refers to #%s, which refers back to this element: a reference cycle; break the cycle", prop, t.Attr0("id"))
		return
	}
	if !c.count(t) {
		return
	}
	ref := &inst{t, me}
	// What the referenced element itself clips or masks with is drawn
	// with it: a clip path may have a clip path.
	c.follow(t, ref, "clip-path", false)
	c.follow(t, ref, "mask", false)
	if prop == "filter" {
		c.filter(t, ref)
		return
	}
	p := c.origProps(t)
	for _, k := range t.Children {
		if k.Type == ElementNode && !notDrawn[k.Local] {
			c.draw(k, ref, p, paints && strings.HasPrefix(prop, "marker"))
		}
	}
}

// paintShape checks what a shape paints with its fill and stroke.
func (c *checker) paintShape(n *Node, me *inst, p props, visible bool) {
	for _, which := range []struct {
		prop string
		vals []pv
	}{{"fill", p.fill}, {"stroke", p.stroke}} {
		for _, v := range which.vals {
			c.paintValue(n, me, which.prop, v, p.color, visible)
		}
	}
}

// paintValue checks one value a shape may paint with.
func (c *checker) paintValue(n *Node, me *inst, prop string, v pv, colour []pv, visible bool) {
	switch v.p.kind {
	case paintColour:
		if v.dflt {
			if c.rules.Mono && !c.monoDefaultReported {
				c.monoDefaultReported = true
				c.errorf(c.d.Pos(n), problem.SVGMonoColour, `<%s> has no %s, so it paints black; set %s="currentColor" on the root <svg>`, n.Local, prop, prop)
			}
			if !c.rules.Mono && visible && n.Local != "tspan" {
				c.record(v, RGB{}, c.d.Pos(n))
			}
			return
		}
		if visible && v.p.known && !v.p.transparent {
			c.record(v, v.p.rgb, v.pos)
		}
	case paintCurrent:
		if !visible {
			return
		}
		for _, cv := range colour {
			if cv.p.kind == paintColour && cv.p.known && !cv.p.transparent && !cv.dflt {
				c.record(cv, cv.p.rgb, cv.pos)
			}
		}
	case paintURL:
		t := c.ids[strings.TrimPrefix(v.p.ref, "#")]
		if t == nil {
			return
		}
		if c.drawing(me, t) {
			c.errorf(v.pos, problem.SVGReferenceCycle, "%s refers to #%s, which refers back to this element: a reference cycle; break the cycle", prop, strings.TrimPrefix(v.p.ref, "#"))
			return
		}
		switch t.Local {
		case "linearGradient", "radialGradient":
			c.gradient(t, me, visible)
		case "pattern":
			if !c.count(t) {
				return
			}
			ref := &inst{t, me}
			pp := c.origProps(t)
			for _, k := range c.patternContent(t) {
				if k.Type == ElementNode && !notDrawn[k.Local] {
					c.draw(k, ref, pp, visible)
				}
			}
		}
	}
}

// patternContent returns the children of the pattern a pattern's href
// chain takes them from.
func (c *checker) patternContent(t *Node) []*Node {
	if p := c.server(t, false); p != nil {
		return p.Children
	}
	return nil
}

// server returns the first element of the href chain from t that serves
// it, or nil: for a gradient the first with stops, for a pattern the first
// with content. The answer is remembered for every element of the chain
// up to it, so that each chain is followed once however often it is
// painted with.
func (c *checker) server(t *Node, gradient bool) *Node {
	serves := func(n *Node) bool { return len(n.Elements()) > 0 }
	if gradient {
		serves = func(n *Node) bool {
			return slices.ContainsFunc(n.Children, func(k *Node) bool { return k.IsSVG("stop") })
		}
	}
	var path []*Node
	seen := map[*Node]bool{}
	var found *Node
	for n := t; n != nil && !seen[n]; n = c.ids[strings.TrimPrefix(hrefOf(n), "#")] {
		if s, ok := c.servers[serverOf{n, gradient}]; ok {
			found = s
			break
		}
		if !c.spend(1, n) {
			return nil
		}
		if serves(n) {
			found = n
			break
		}
		seen[n] = true
		path = append(path, n)
	}
	for _, n := range path {
		c.servers[serverOf{n, gradient}] = found
	}
	return found
}

// serverOf keys the memo of server: an element, as a gradient or a pattern.
type serverOf struct {
	n        *Node
	gradient bool
}

// gradient checks the stop colours of a gradient, taken from the first
// gradient of its href chain that has stops.
// gradientUse is a gradient painted with, visibly or not: what it paints
// does not depend on who paints with it, so each is checked once.
type gradientUse struct {
	g       *Node
	visible bool
}

func (c *checker) gradient(g *Node, me *inst, visible bool) {
	g = c.server(g, true)
	if g == nil || c.checked[gradientUse{g, visible}] {
		return
	}
	c.checked[gradientUse{g, visible}] = true
	inherited := c.values(g, "stop-color", nil, false, initialBlack)
	for _, s := range g.Elements() {
		if !s.IsSVG("stop") {
			continue
		}
		for _, v := range c.values(s, "stop-color", inherited, false, initialBlack) {
			if v.dflt && c.rules.Mono {
				c.errorf(c.d.Pos(s), problem.SVGMonoColour, `<stop> has no stop-color, so it is black; set stop-color="currentColor"`)
				return
			}
			if v.p.kind == paintCurrent {
				c.paintValue(s, me, "stop-color", v, c.origProps(s).color, visible)
				continue
			}
			if !c.rules.Mono && visible && v.p.kind == paintColour && v.p.known && !v.p.transparent {
				c.record(v, v.p.rgb, v.pos)
			}
		}
	}
}

// monoFilters says why icon-mono refuses filter primitives that make
// colours of their own.
var monoFilters = map[string]string{
	"feColorMatrix":       "changes colours",
	"feComponentTransfer": "changes colours",
	"feConvolveMatrix":    "can add a colour of its own",
	"feTurbulence":        "draws colours of its own",
}

// filter checks the primitives of a filter: in icon-mono, a primitive
// that paints by default (feFlood floods black, lighting
// lights white) must paint with currentColor.
func (c *checker) filter(f *Node, me *inst) {
	for _, k := range f.Elements() {
		if !c.count(k) {
			return
		}
		if !c.rules.Mono {
			continue
		}
		if why, bad := monoFilters[k.Local]; bad {
			c.errorf(c.d.Pos(k), problem.SVGMonoColour, "icon-mono uses <%s>, which %s; icon-mono paints with currentColor only", k.Local, why)
			continue
		}
		var prop, colour string
		var initial []pv
		switch k.Local {
		case "feFlood":
			prop, colour, initial = "flood-color", "black", initialBlack
		case "feDiffuseLighting", "feSpecularLighting":
			prop, colour, initial = "lighting-color", "white", initialWhite
		default:
			continue
		}
		for _, v := range c.values(k, prop, nil, false, initial) {
			if v.dflt {
				c.errorf(c.d.Pos(k), problem.SVGMonoColour, `<%s> has no %s, so it paints %s; set %s="currentColor"`, k.Local, prop, colour, prop)
				break
			}
		}
	}
}

// record notes a fixed colour the logo paints.
func (c *checker) record(v pv, rgb RGB, pos problem.Pos) {
	c.info.Paints = append(c.info.Paints, PaintUse{Value: v.text, Colour: rgb, Pos: pos})
}

// Attr0 returns the value of the attribute local, or "".
func (n *Node) Attr0(local string) string {
	v, _ := n.Attr(local)
	return v
}

func xlinkHref(n *Node) string {
	for _, a := range n.Attrs {
		if a.Space == NSXLink && a.Local == "href" {
			return a.Value
		}
	}
	return ""
}

// hrefOf returns n's href, or its xlink:href.
func hrefOf(n *Node) string {
	if v, ok := n.Attr("href"); ok {
		return strings.TrimSpace(v)
	}
	return strings.TrimSpace(xlinkHref(n))
}
