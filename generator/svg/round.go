package svg

import (
	"math"
	"strconv"
	"strings"

	"github.com/tdewolff/parse/v2/css"
)

// precisionDivisor sets how far the precision pass may move a drawn point:
// at most 1/precisionDivisor of the viewBox's larger side on each axis, a
// sixteenth of a pixel at 512 px per side. A sixteenth is what the render
// comparison of `make bench` (bench/README.md) allows: a pixel on an edge
// changes by about the move times 255, and more than 16/255 counts as a
// visible change; at 1/4096, 57 files of simple-icons change at 512 px.
const precisionDivisor = 8192

// maxDecimals bounds the decimals kept; a viewBox so small that it needs
// more is left alone.
const maxDecimals = 12

// roundPrecision rewrites the numbers of the document under root to fewer
// decimals where the change cannot be seen, and drops what renders
// nothing. viewBox is the root's. Path data, polygon points and the
// horizontal geometry of shapes keep the fewest decimals that hold every
// point within 1/precisionDivisor of the viewBox (scaled by the transforms
// above each element); flat edges, the tops and bottoms of curves, and arcs
// keep their exact heights, which a rasteriser samples in rows (see
// flatSlope); curves that are straight or quadratic within that distance
// become lines and quadratics. It never touches the viewBox, the root's
// size, gradients, patterns, markers, filters, text, nested viewports,
// stroke widths or anything under a transform it cannot read. It removes
// empty defs without an id and the empty groups removableGroup allows,
// attributes set to the value they
// would have anyway, data-* and enable-background attributes and an unused
// xlink namespace; it keeps <title>, <desc>, role and class. A path is
// rewritten only where that makes it shorter.
func roundPrecision(root *Node, viewBox [4]float64, m *Memo) {
	side := max(viewBox[2], viewBox[3])
	if !(viewBox[2] > 0 && viewBox[3] > 0) || math.IsInf(side, 0) {
		return
	}
	p := &precisionPass{tol: side / precisionDivisor, memo: m, refs: map[string]bool{}, at: map[*Node]*placement{}}
	p.scan(root)
	p.element(root, true, true, map[string]string{})
	if !p.xlinkUsed {
		for i := 0; i < len(root.Attrs); i++ {
			if a := root.Attrs[i]; a.Space == NSXMLNS && a.Local == "xlink" && a.Prefix == "xmlns" {
				root.RemoveAttr(i)
				i--
			}
		}
	}
}

// precisionPass holds what the first walk learns about the whole document.
type precisionPass struct {
	tol          float64         // allowed move of a drawn point, per axis, in viewBox units
	memo         *Memo           // may be nil
	refs         map[string]bool // ids referenced by href or url(#id)
	styleElement bool            // a <style> element: CSS may select anything
	cssTransform bool            // a transform set through CSS: scales unknown
	markers      bool            // markers depend on segment directions and stroke width
	dashed       bool            // dashes follow a curve's parameter, not just its shape
	xlinkUsed    bool
	maxScale     float64 // the largest scale of any element: bounds referenced content
	nestedRefs   bool    // referenced content references more: no bound
	at           map[*Node]*placement
}

// placement is where an element is drawn.
type placement struct {
	scale    float64 // bound on how much its transforms enlarge its coordinates
	indirect bool    // drawn where it is referenced (defs, clipPath, mask, use)
	inSwitch bool
}

// Elements whose horizontal coordinates the pass may round, and the
// attributes. Vertical ones stay exact: see roundPrecision.
var roundAttrs = map[string][]string{
	"rect":    {"x", "width"},
	"circle":  {"cx"},
	"ellipse": {"cx", "rx"},
	"line":    {"x1", "x2"},
	"use":     {"x"},
}

// Containers whose content keeps the user space of its parent (or of the
// element that references it).
var plainContainers = map[string]bool{"g": true, "a": true, "defs": true, "switch": true, "clipPath": true, "mask": true, "symbol": true}

// propDefaults are presentation attributes at their initial values; inherited
// ones may be dropped only where no ancestor sets another value.
var propDefaults = map[string]struct {
	value     string
	inherited bool
}{
	"fill-rule": {"nonzero", true}, "clip-rule": {"nonzero", true}, "fill-opacity": {"1", true},
	"stroke-opacity": {"1", true}, "stroke": {"none", true}, "stroke-width": {"1", true},
	"stroke-linecap": {"butt", true}, "stroke-linejoin": {"miter", true}, "stroke-miterlimit": {"4", true},
	"stroke-dasharray": {"none", true}, "stroke-dashoffset": {"0", true}, "visibility": {"visible", true},
	"opacity": {"1", false}, "display": {"inline", false},
}

// urlRefs returns the ids of the url(#id) references in a CSS value or
// declaration list.
func urlRefs(v string) []string {
	if !hasURL(v) {
		return nil
	}
	toks, _ := lexCSS(v)
	var ids []string
	forEachToken(toks, func(t cssToken) {
		if t.tt == css.URLToken {
			if ref := urlTarget(t); strings.HasPrefix(ref, "#") {
				ids = append(ids, ref[1:])
			}
		}
	})
	return ids
}

// scan computes scales and learns the document-wide facts.
func (p *precisionPass) scan(root *Node) {
	p.maxScale = 1
	var walk func(n *Node, scale float64, indirect, inSwitch bool)
	walk = func(n *Node, scale float64, indirect, inSwitch bool) {
		for _, a := range n.Attrs {
			v := a.Value
			if a.Space == NSXLink {
				p.xlinkUsed = true
			}
			if a.Local == "href" && (a.Space == "" || a.Space == NSXLink) && strings.HasPrefix(strings.TrimSpace(v), "#") {
				p.refs[strings.TrimSpace(v)[1:]] = true
				if indirect {
					p.nestedRefs = true
				}
			}
			if hasURL(v) {
				for _, id := range urlRefs(v) {
					p.refs[id] = true
				}
				if indirect && (a.Local == "clip-path" || a.Local == "mask" || a.Local == "style") {
					p.nestedRefs = true
				}
			}
			if a.Local == "style" && containsFold(v, "transform") {
				p.cssTransform = true
			}
			if strings.Contains(a.Local, "dasharray") || containsFold(v, "dasharray") {
				p.dashed = true
			}
			if strings.HasPrefix(a.Local, "marker") || a.Local == "style" && containsFold(v, "marker") {
				p.markers = true
			}
		}
		if t, ok := n.Attr("transform"); ok {
			scale *= transformScale(t)
		}
		p.at[n] = &placement{scale: scale, indirect: indirect, inSwitch: inSwitch}
		if !math.IsInf(scale, 0) {
			p.maxScale = max(p.maxScale, scale)
		} else {
			p.maxScale = math.Inf(1)
		}
		switch n.Local {
		case "style":
			if n.Space == NSSVG {
				p.styleElement = true
				for _, k := range n.Children {
					css := strings.ToLower(k.Text)
					p.cssTransform = p.cssTransform || strings.Contains(css, "transform")
					p.dashed = p.dashed || strings.Contains(css, "dasharray")
					p.markers = p.markers || strings.Contains(css, "marker")
					for _, id := range urlRefs(k.Text) {
						p.refs[id] = true
					}
				}
			}
		case "marker":
			p.markers = true
		case "defs", "clipPath", "mask", "symbol":
			indirect = true
		}
		inSwitch = n.Local == "switch"
		for _, k := range n.Children {
			if k.Type == ElementNode {
				walk(k, scale, indirect, inSwitch)
			}
		}
	}
	walk(root, 1, false, false)
	// Content referenced by id is drawn again where it is used.
	var mark func(n *Node, indirect bool)
	mark = func(n *Node, indirect bool) {
		if id, ok := n.Attr("id"); ok && p.refs[id] {
			indirect = true
		}
		at := p.at[n]
		if indirect {
			if !at.indirect && n.Local == "use" {
				p.nestedRefs = true
			}
			at.indirect = true
		}
		for _, k := range n.Children {
			if k.Type == ElementNode {
				mark(k, indirect || at.indirect)
			}
		}
	}
	mark(root, false)
}

// element handles n and its content, and reports whether n is to be kept.
// round says that n's coordinates are in a user space the pass
// understands; inherited maps the inherited presentation properties set
// above n to their values.
func (p *precisionPass) element(n *Node, round, isRoot bool, inherited map[string]string) bool {
	if n.Space != NSSVG || n.Prefix != "" {
		return true // foreign markup: left as it is
	}
	at := p.at[n]
	local := n.Local
	scale := at.scale
	if at.indirect {
		if p.nestedRefs {
			round = false
		}
		scale *= p.maxScale
	}
	if p.cssTransform || p.markers || math.IsInf(scale, 0) || !(scale > 0) || !roundable(n, isRoot) {
		round = false
	}
	own := ownProps(n)
	p.attrs(n, at, round, isRoot, scale, inherited)

	next, copied := inherited, false
	for k, v := range own {
		if propDefaults[k].inherited {
			if !copied {
				next, copied = copyMap(inherited), true
			}
			next[k] = v
		}
	}
	p.children(n, round && (isRoot || plainContainers[local]), next)
	// Empty groups and defs render nothing; an id may still be used.
	if !isRoot && !at.inSwitch {
		if _, hasID := n.Attr("id"); local == "g" && removableGroup(n, p.styleElement) || local == "defs" && !hasID && isEmpty(n) {
			return false
		}
	}
	return true
}

// roundable reports whether n's own coordinates may be rounded at all:
// not in a nested <svg>, nor in user spaces set by the bounding box or a
// symbol's own viewBox, and only on elements whose attributes the pass
// knows.
func roundable(n *Node, isRoot bool) bool {
	local := n.Local
	if isRoot {
		return true
	}
	if local == "svg" || !plainContainers[local] && roundAttrs[local] == nil &&
		local != "path" && local != "polygon" && local != "polyline" {
		return false
	}
	switch local {
	case "clipPath":
		v, _ := n.Attr("clipPathUnits")
		return v != "objectBoundingBox"
	case "mask":
		v, _ := n.Attr("maskContentUnits")
		return v != "objectBoundingBox"
	case "symbol":
		_, ok := n.Attr("viewBox")
		return !ok
	}
	return true
}

// ownProps returns the presentation properties n sets, in attributes and
// its style attribute, for its content.
func ownProps(n *Node) map[string]string {
	own := map[string]string{}
	for _, a := range n.Attrs {
		if a.Space == "" {
			if _, ok := propDefaults[a.Local]; ok {
				own[a.Local] = strings.TrimSpace(a.Value)
			}
		}
	}
	if st, ok := n.Attr("style"); ok {
		decls, _ := readDeclarations(st)
		for _, d := range decls {
			own[d.prop] = strings.TrimSpace(cssText(d.value))
		}
	}
	return own
}

// attrs removes n's attributes that change nothing and, when round says
// so, rounds its coordinates to the tolerance at scale.
func (p *precisionPass) attrs(n *Node, at *placement, round, isRoot bool, scale float64, inherited map[string]string) {
	local := n.Local
	r := newRounder(p.tol / scale)
	for i := 0; i < len(n.Attrs); i++ {
		a := n.Attrs[i]
		if a.Space != "" {
			continue
		}
		if p.redundant(n, at, a, inherited) {
			n.RemoveAttr(i)
			i--
			continue
		}
		if !round || !r.ok {
			continue
		}
		name := a.Local
		switch {
		case name == "d" && local == "path":
			if v, ok := p.memo.roundPath(a.Value, r, !p.dashed); ok && len(v) < len(a.Value) {
				n.SetAttr(i, v)
			}
		case name == "points" && (local == "polygon" || local == "polyline"):
			if v, ok := roundPoints(a.Value, r); ok {
				n.SetAttr(i, v)
			}
		case !isRoot && contains(roundAttrs[local], name):
			// Half the tolerance each: an edge is a position plus a size.
			if v, n1, ok := roundList(a.Value, r, r.tol/2); ok && n1 == 1 {
				n.SetAttr(i, v)
			}
		}
	}
}

// redundant reports whether attribute a of n changes nothing drawn.
func (p *precisionPass) redundant(n *Node, at *placement, a Attr, inherited map[string]string) bool {
	name := a.Local
	switch {
	case name == "enable-background" || strings.HasPrefix(name, "data-") && !p.styleElement,
		name == "style" && strings.TrimSpace(a.Value) == "",
		// clip-rule only counts for shapes drawn as a clip path.
		name == "clip-rule" && shapes[n.Local] && !at.indirect && !p.styleElement && !inClipPath(n):
		return true
	}
	def, ok := propDefaults[name]
	if !ok || p.styleElement || !isDefault(name, a.Value, def.value) {
		return false
	}
	// An inherited property at its initial value is redundant only where
	// an ancestor in the file sets that same value: otherwise it guards
	// against what a page around an inline SVG, or a <use>, passes down.
	up, set := inherited[name]
	return !def.inherited || !at.indirect && set && isDefault(name, up, def.value)
}

// children handles n's child elements and removes those not to be kept.
func (p *precisionPass) children(n *Node, round bool, inherited map[string]string) {
	kept := n.Children[:0]
	for _, k := range n.Children {
		if k.Type != ElementNode || p.element(k, round, false, inherited) {
			kept = append(kept, k)
		}
	}
	for i := len(kept); i < len(n.Children); i++ {
		n.Children[i] = nil
	}
	if len(kept) != len(n.Children) {
		n.dirty = true
	}
	n.Children = kept
}

func inClipPath(n *Node) bool {
	for ; n != nil; n = n.Parent {
		if n.IsSVG("clipPath") {
			return true
		}
	}
	return false
}

func isEmpty(n *Node) bool {
	for _, k := range n.Children {
		if k.Type == ElementNode || strings.TrimSpace(k.Text) != "" {
			return false
		}
	}
	return true
}

func isDefault(name, v, def string) bool {
	v = strings.TrimSpace(v)
	if v == def {
		return true
	}
	switch name {
	case "fill-opacity", "stroke-opacity", "opacity", "stroke-width", "stroke-miterlimit", "stroke-dashoffset":
		f, err := strconv.ParseFloat(v, 64)
		d, _ := strconv.ParseFloat(def, 64)
		return err == nil && f == d
	}
	return false
}

func copyMap(m map[string]string) map[string]string {
	c := make(map[string]string, len(m)+2)
	for k, v := range m {
		c[k] = v
	}
	return c
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// transformScale returns an upper bound on how much a transform list
// enlarges lengths (the largest singular value of its linear part), or +Inf
// when it cannot be read.
func transformScale(s string) float64 {
	m, msg := parseTransform(s)
	if msg != "" {
		return math.Inf(1)
	}
	a, b, c, d := m[0], m[1], m[2], m[3]
	t := a*a + b*b + c*c + d*d
	det := a*d - b*c
	sigma := math.Sqrt((t + math.Sqrt(math.Max(0, t*t-4*det*det))) / 2)
	if math.IsNaN(sigma) || math.IsInf(sigma, 0) || sigma > 1e6 {
		return math.Inf(1)
	}
	return sigma
}

// parseTransform reads a transform list into the linear part of its
// matrix, column-major like matrix(a b c d e f), and returns a description
// of what is wrong with it, or "". A browser ignores a transform it cannot
// read whole, so a logo's must read.
func parseTransform(s string) ([4]float64, string) {
	a, b, c, d := 1.0, 0.0, 0.0, 1.0
	s = strings.TrimSpace(s)
	for s != "" {
		open := strings.IndexByte(s, '(')
		closing := strings.IndexByte(s, ')')
		if open < 0 || closing < open {
			return [4]float64{}, "cannot be read: write functions such as translate(1 2) or matrix(1 0 0 1 0 0)"
		}
		name := strings.TrimSpace(s[:open])
		args, ok := parseNumberList(s[open+1 : closing])
		if !ok {
			return [4]float64{}, "has arguments that are not numbers"
		}
		for _, v := range args {
			if math.IsInf(v, 0) || math.IsNaN(v) || math.Abs(v) > MaxNumber {
				return [4]float64{}, "has a number beyond ±1e9"
			}
		}
		var m [4]float64
		switch {
		case name == "matrix" && len(args) == 6:
			m = [4]float64{args[0], args[1], args[2], args[3]}
		case name == "translate" && (len(args) == 1 || len(args) == 2):
			m = [4]float64{1, 0, 0, 1}
		case name == "scale" && len(args) == 1:
			m = [4]float64{args[0], 0, 0, args[0]}
		case name == "scale" && len(args) == 2:
			m = [4]float64{args[0], 0, 0, args[1]}
		case name == "rotate" && (len(args) == 1 || len(args) == 3):
			r := args[0] * math.Pi / 180
			m = [4]float64{math.Cos(r), math.Sin(r), -math.Sin(r), math.Cos(r)}
		case name == "skewX" && len(args) == 1:
			m = [4]float64{1, 0, math.Tan(args[0] * math.Pi / 180), 1}
		case name == "skewY" && len(args) == 1:
			m = [4]float64{1, math.Tan(args[0] * math.Pi / 180), 0, 1}
		default:
			return [4]float64{}, "has " + strconv.Quote(name+"(...)") + " with " + strconv.Itoa(len(args)) + " numbers, which is not a transform function"
		}
		a, b, c, d = a*m[0]+c*m[1], b*m[0]+d*m[1], a*m[2]+c*m[3], b*m[2]+d*m[3]
		s = strings.TrimLeft(s[closing+1:], " \t\r\n,")
	}
	return [4]float64{a, b, c, d}, ""
}
