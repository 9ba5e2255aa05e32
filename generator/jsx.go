package generator

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// jsxSVG is one SVG file converted to JSX for the component template. Every
// string is valid TSX in its place; ids and the references to them are
// written as template literals that start with the prefix expression given
// to svgToJSX, so the template decides how ids are made unique.
type jsxSVG struct {
	// Attrs are the attributes of the root <svg> as JSX, except the ones
	// the component sets itself: width, height, role, aria-*, class and
	// style.
	Attrs string
	// Class is the root's class attribute as a JS expression, "" if none.
	Class string
	// Style is the root's style attribute as a JS object literal typed
	// React.CSSProperties, "" if none.
	Style string
	// Body is the root's content as JSX, one element a line, indented by
	// two spaces a level from column 0. The root's own <title> is left
	// out: the component renders the title its caller gives.
	Body string
	// Width and Height are the default size, "1em" high and as wide as the
	// viewBox's aspect ratio, so the logo scales with the text around it.
	Width, Height string
	// UsesPrefix reports whether any output mentions the prefix.
	UsesPrefix bool
}

// reactAliases maps the SVG attributes React spells in camelCase to that
// spelling (react-dom's getAttributeAlias, React 19.3). React writes them
// back hyphenated; it passes every other hyphenated name through as is.
var reactAliases = map[string]string{
	"accent-height": "accentHeight", "alignment-baseline": "alignmentBaseline", "arabic-form": "arabicForm",
	"baseline-shift": "baselineShift", "cap-height": "capHeight", "clip-path": "clipPath", "clip-rule": "clipRule",
	"color-interpolation": "colorInterpolation", "color-interpolation-filters": "colorInterpolationFilters",
	"color-profile": "colorProfile", "color-rendering": "colorRendering", "dominant-baseline": "dominantBaseline",
	"enable-background": "enableBackground", "fill-opacity": "fillOpacity", "fill-rule": "fillRule",
	"flood-color": "floodColor", "flood-opacity": "floodOpacity", "font-family": "fontFamily", "font-size": "fontSize",
	"font-size-adjust": "fontSizeAdjust", "font-stretch": "fontStretch", "font-style": "fontStyle",
	"font-variant": "fontVariant", "font-weight": "fontWeight", "glyph-name": "glyphName",
	"glyph-orientation-horizontal": "glyphOrientationHorizontal", "glyph-orientation-vertical": "glyphOrientationVertical",
	"horiz-adv-x": "horizAdvX", "horiz-origin-x": "horizOriginX", "image-rendering": "imageRendering",
	"letter-spacing": "letterSpacing", "lighting-color": "lightingColor", "marker-end": "markerEnd",
	"marker-mid": "markerMid", "marker-start": "markerStart", "mask-type": "maskType",
	"overline-position": "overlinePosition", "overline-thickness": "overlineThickness", "paint-order": "paintOrder",
	"pointer-events": "pointerEvents", "rendering-intent": "renderingIntent", "shape-rendering": "shapeRendering",
	"stop-color": "stopColor", "stop-opacity": "stopOpacity", "strikethrough-position": "strikethroughPosition",
	"strikethrough-thickness": "strikethroughThickness", "stroke-dasharray": "strokeDasharray",
	"stroke-dashoffset": "strokeDashoffset", "stroke-linecap": "strokeLinecap", "stroke-linejoin": "strokeLinejoin",
	"stroke-miterlimit": "strokeMiterlimit", "stroke-opacity": "strokeOpacity", "stroke-width": "strokeWidth",
	"text-anchor": "textAnchor", "text-decoration": "textDecoration", "text-rendering": "textRendering",
	"transform-origin": "transformOrigin", "underline-position": "underlinePosition",
	"underline-thickness": "underlineThickness", "unicode-bidi": "unicodeBidi", "unicode-range": "unicodeRange",
	"units-per-em": "unitsPerEm", "v-alphabetic": "vAlphabetic", "v-hanging": "vHanging",
	"v-ideographic": "vIdeographic", "v-mathematical": "vMathematical", "vector-effect": "vectorEffect",
	"vert-adv-y": "vertAdvY", "vert-origin-x": "vertOriginX", "vert-origin-y": "vertOriginY",
	"word-spacing": "wordSpacing", "writing-mode": "writingMode", "x-height": "xHeight",
}

// reactOnly are prop names that React turns into another attribute. Written
// literally in an SVG file they are unknown attributes that do nothing, so
// they are dropped rather than let React give them a meaning.
var reactOnly = func() map[string]bool {
	m := map[string]bool{
		"className": true, "htmlFor": true, "xmlnsXlink": true, "xmlBase": true, "xmlLang": true, "xmlSpace": true,
		"xlinkActuate": true, "xlinkArcrole": true, "xlinkHref": true, "xlinkRole": true, "xlinkShow": true,
		"xlinkTitle": true, "xlinkType": true,
		// React props that are not attributes at all.
		"children": true, "key": true, "ref": true, "dangerouslySetInnerHTML": true, "suppressHydrationWarning": true,
		"suppressContentEditableWarning": true, "defaultValue": true, "defaultChecked": true, "innerHTML": true,
	}
	for _, v := range reactAliases {
		m[v] = true
	}
	return m
}()

// typedProps are the attribute names @types/react 19 declares on SVG
// elements (SVGAttributes). Other names go through a spread object, which
// TypeScript does not check, so an unusual attribute still compiles.
var typedProps = toSet(`className color height id lang max media method min name nonce part slot style target type width
role tabIndex crossOrigin accentHeight accumulate additive alignmentBaseline allowReorder alphabetic amplitude
arabicForm ascent attributeName attributeType autoReverse azimuth baseFrequency baselineShift baseProfile bbox begin
bias by calcMode capHeight clip clipPath clipPathUnits clipRule colorInterpolation colorInterpolationFilters
colorProfile colorRendering contentScriptType contentStyleType cursor cx cy d decelerate descent diffuseConstant
direction display divisor dominantBaseline dur dx dy edgeMode elevation enableBackground end exponent
externalResourcesRequired fill fillOpacity fillRule filter filterRes filterUnits floodColor floodOpacity focusable
fontFamily fontSize fontSizeAdjust fontStretch fontStyle fontVariant fontWeight format fr from fx fy g1 g2 glyphName
glyphOrientationHorizontal glyphOrientationVertical glyphRef gradientTransform gradientUnits hanging horizAdvX
horizOriginX href ideographic imageRendering in in2 intercept k k1 k2 k3 k4 kernelMatrix kernelUnitLength kerning
keyPoints keySplines keyTimes lengthAdjust letterSpacing lightingColor limitingConeAngle local markerEnd markerHeight
markerMid markerStart markerUnits markerWidth mask maskContentUnits maskUnits mathematical mode numOctaves offset
opacity operator order orient orientation origin overflow overlinePosition overlineThickness paintOrder panose1 path
pathLength patternContentUnits patternTransform patternUnits pointerEvents points pointsAtX pointsAtY pointsAtZ
preserveAlpha preserveAspectRatio primitiveUnits r radius refX refY renderingIntent repeatCount repeatDur
requiredExtensions requiredFeatures restart result rotate rx ry scale seed shapeRendering slope spacing
specularConstant specularExponent speed spreadMethod startOffset stdDeviation stemh stemv stitchTiles stopColor
stopOpacity strikethroughPosition strikethroughThickness string stroke strokeDasharray strokeDashoffset strokeLinecap
strokeLinejoin strokeMiterlimit strokeOpacity strokeWidth surfaceScale systemLanguage tableValues targetX targetY
textAnchor textDecoration textLength textRendering to transform u1 u2 underlinePosition underlineThickness unicode
unicodeBidi unicodeRange unitsPerEm vAlphabetic values vectorEffect version vertAdvY vertOriginX vertOriginY vHanging
vIdeographic viewBox viewTarget visibility vMathematical widths wordSpacing writingMode x x1 x2 xChannelSelector xHeight
xlinkActuate xlinkArcrole xlinkHref xlinkRole xlinkShow xlinkTitle xlinkType xmlBase xmlLang xmlns xmlnsXlink
xmlSpace y y1 y2 yChannelSelector z zoomAndPan`)

// jsxElements are the SVG elements @types/react declares, less the ones the
// checker rejects. Others (editor extensions, SVG 1.2 drafts) do not render
// in browsers and would not compile, so they are dropped with their content.
// <a> becomes <g>, or <tspan> inside text (a link inside a logo component is
// never wanted, and React types <a> as HTML); <style> and <title> are
// handled on their own.
var jsxElements = toSet(`svg circle clipPath defs desc ellipse feBlend feColorMatrix feComponentTransfer feComposite
feConvolveMatrix feDiffuseLighting feDisplacementMap feDistantLight feDropShadow feFlood feFuncA feFuncB feFuncG
feFuncR feGaussianBlur feImage feMerge feMergeNode feMorphology feOffset fePointLight feSpecularLighting feSpotLight
feTile feTurbulence filter g line linearGradient marker mask mpath path pattern polygon polyline radialGradient rect
stop switch symbol text textPath tspan use view`)

// textElements keep their white space: it is text, not indentation.
var textElements = map[string]bool{"text": true, "tspan": true, "textPath": true, "title": true, "desc": true, "style": true}

// idListAttrs hold space-separated lists of ids.
var idListAttrs = map[string]bool{
	"aria-labelledby": true, "aria-describedby": true, "aria-controls": true, "aria-owns": true, "aria-flowto": true,
	"aria-details": true, "aria-errormessage": true, "aria-activedescendant": true,
}

var (
	jsxNameRE  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(-[A-Za-z0-9_]+)*$`)
	cssPropRE  = regexp.MustCompile(`^-?[a-z][a-z0-9]*(-[a-z][a-z0-9]*)*$`)
	cssCustRE  = regexp.MustCompile(`^--[A-Za-z0-9_-]+$`)
	cssRefRE   = regexp.MustCompile(`(?i)url\(\s*(?:"(#)[^"]*"|'(#)[^']*'|(#)[^\s'")]*)\s*\)`)
	importantR = regexp.MustCompile(`(?i)\s*!\s*important\s*$`)
)

func toSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// svgNode is an element of the parsed file.
type svgNode struct {
	name     string // local name; the element is in the SVG namespace
	attrs    []xml.Attr
	children []any // *svgNode or string (character data)
}

// svgToJSX converts a checked, optimised SVG to JSX. Ids, references to
// them (url(#x), href="#x", xlink:href="#x", aria-labelledby and friends,
// and #x selectors in <style>) get the prefix prefixExpr, a JS expression;
// when the file has a <style>, its classes are prefixed too, since a
// stylesheet inside an inline SVG applies to the whole page. Elements and
// attributes in foreign namespaces (editor metadata), comments and
// processing instructions are dropped: they do not paint.
func svgToJSX(data []byte, prefixExpr string) (*jsxSVG, error) {
	root, err := parseSVGTree(data)
	if err != nil {
		return nil, err
	}
	c := &jsxConv{prefix: prefixExpr, hasStyle: hasElement(root, "style")}
	out := &jsxSVG{}

	vb := strings.FieldsFunc(attrValue(root, "", "viewBox"), func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' })
	w, h := 1.0, 1.0
	if len(vb) == 4 {
		w, _ = strconv.ParseFloat(vb[2], 64)
		h, _ = strconv.ParseFloat(vb[3], 64)
	}
	out.Height = "1em"
	out.Width = "1em"
	if w > 0 && h > 0 && !math.IsInf(w/h, 0) {
		out.Width = strconv.FormatFloat(math.Round(w/h*1e4)/1e4, 'f', -1, 64) + "em"
	}

	usesXLink := false
	walk(root, func(n *svgNode) {
		for _, a := range n.attrs {
			if a.Name.Space == nsXLink {
				usesXLink = true
			}
		}
	})
	var attrs []string
	for _, a := range c.attrs(root) {
		switch {
		case a.name == "width" || a.name == "height" || a.name == "role" || strings.HasPrefix(a.name, "aria-"):
			// The component sets size and accessibility itself.
		case a.name == "className":
			out.Class = a.expr
		case a.name == "style":
			out.Style = a.expr
		default:
			attrs = append(attrs, a.jsx())
		}
	}
	if usesXLink {
		// React writes xlink:href; an XML reader of the markup needs the
		// prefix declared, wherever the file declared it.
		attrs = append(attrs, `xmlnsXlink="`+nsXLink+`"`)
	}
	out.Attrs = strings.Join(attrs, " ")

	var body strings.Builder
	for _, ch := range root.children {
		if n, ok := ch.(*svgNode); ok && n.name == "title" {
			continue // the component renders the title its caller gives
		}
		c.child(&body, ch, 0, false)
	}
	out.Body = strings.TrimSuffix(body.String(), "\n")
	out.UsesPrefix = c.usedPrefix
	return out, nil
}

// parseSVGTree parses data into a tree of SVG-namespace elements.
func parseSVGTree(data []byte) (*svgNode, error) {
	d := xml.NewDecoder(bytes.NewReader(bytes.TrimPrefix(data, bom)))
	var root *svgNode
	var stack []*svgNode
	skip := 0 // depth inside a dropped element
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("parsing the SVG: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if skip > 0 || t.Name.Space != nsSVG || len(stack) > 0 && !keepElement(t.Name.Local) {
				skip++
				continue
			}
			n := &svgNode{name: t.Name.Local, attrs: t.Attr}
			if len(stack) == 0 {
				if root != nil || n.name != "svg" {
					return nil, errors.New("the SVG must have one <svg> root element")
				}
				root = n
			} else {
				p := stack[len(stack)-1]
				p.children = append(p.children, n)
			}
			stack = append(stack, n)
		case xml.EndElement:
			if skip > 0 {
				skip--
				continue
			}
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if skip > 0 || len(stack) == 0 {
				continue
			}
			// Text split by comments or CDATA sections is one text node.
			p := stack[len(stack)-1]
			if k := len(p.children); k > 0 {
				if b, ok := p.children[k-1].(*strings.Builder); ok {
					b.Write(t)
					continue
				}
			}
			b := &strings.Builder{}
			b.Write(t)
			p.children = append(p.children, b)
		}
	}
	if root == nil {
		return nil, errors.New("the SVG has no <svg> root element in the SVG namespace")
	}
	walk(root, func(n *svgNode) {
		for i, ch := range n.children {
			if b, ok := ch.(*strings.Builder); ok {
				n.children[i] = b.String()
			}
		}
	})
	return root, nil
}

func keepElement(name string) bool {
	return jsxElements[name] || name == "a" || name == "style" || name == "title"
}

func walk(n *svgNode, fn func(*svgNode)) {
	fn(n)
	for _, ch := range n.children {
		if c, ok := ch.(*svgNode); ok {
			walk(c, fn)
		}
	}
}

func hasElement(n *svgNode, name string) bool {
	found := false
	walk(n, func(c *svgNode) { found = found || c.name == name })
	return found
}

func attrValue(n *svgNode, space, local string) string {
	for _, a := range n.attrs {
		if a.Name.Space == space && a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// jsxConv holds the state of one conversion.
type jsxConv struct {
	prefix     string
	hasStyle   bool // the file has a <style>: prefix classes too
	usedPrefix bool
}

// jsxAttr is one converted attribute: the React prop name and its value as
// a JS expression. lit is set when the value is a plain string that can be
// written name="lit".
type jsxAttr struct {
	name, expr, lit string
	isLit           bool
}

// jsx writes the attribute. Names TypeScript does not know go through a
// spread object, which it does not check, so an unusual attribute still
// compiles and React still renders it.
func (a jsxAttr) jsx() string {
	if !jsxNameRE.MatchString(a.name) || !typedProps[a.name] && !strings.Contains(a.name, "-") {
		return "{...{" + jsString(a.name) + ": " + a.expr + "}}"
	}
	if a.isLit {
		return a.name + `="` + a.lit + `"`
	}
	return a.name + "={" + a.expr + "}"
}

// attrs converts the attributes of n in the order of the file, dropping
// what React cannot or should not render.
func (c *jsxConv) attrs(n *svgNode) []jsxAttr {
	var out []jsxAttr
	seen := map[string]bool{}
	for _, a := range n.attrs {
		name, ok := c.propName(n, a.Name)
		if !ok || seen[name] {
			continue
		}
		seen[name] = true
		var segs []string
		switch {
		case name == "style":
			obj := c.styleObject(a.Value)
			if obj == "" {
				continue
			}
			out = append(out, jsxAttr{name: name, expr: obj})
			continue
		case name == "className" && c.hasStyle:
			segs = c.idList(a.Value)
		case name == "id":
			segs = []string{"", a.Value}
		case name == "href" || name == "xlinkHref":
			segs = c.href(a.Value)
		case idListAttrs[name]:
			segs = c.idList(a.Value)
		case name == "className":
			segs = []string{a.Value}
		default:
			segs = c.urlRefs(a.Value)
		}
		at := jsxAttr{name: name, expr: c.expr(segs)}
		if len(segs) == 1 && plainJSX(segs[0]) {
			at.lit, at.isLit = segs[0], true
		}
		out = append(out, at)
	}
	return out
}

// plainJSX reports whether s reads back unchanged from a JSX attribute
// string "s", which has no escapes but decodes HTML entities.
func plainJSX(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == '"' || r == '&' || r == '\\' || r == '{' || r == '}' || r == '<' || r == '>' || r == 0x2028 || r == 0x2029 {
			return false
		}
	}
	return true
}

// propName maps an attribute of n to the React prop that renders it, or
// false to drop it.
func (c *jsxConv) propName(n *svgNode, name xml.Name) (string, bool) {
	switch name.Space {
	case "":
		l := name.Local
		switch {
		case l == "class":
			return "className", true
		case strings.HasPrefix(strings.ToLower(l), "on") || reactOnly[l]:
			return "", false
		case reactAliases[l] != "":
			return reactAliases[l], true
		case n.name == "a" && (l == "href" || l == "target" || l == "download" || l == "rel" || l == "ping"):
			return "", false // the link goes with the <a>
		}
		return l, true
	case nsXLink:
		switch name.Local {
		case "href", "actuate", "arcrole", "role", "show", "title", "type":
			return "xlink" + strings.ToUpper(name.Local[:1]) + name.Local[1:], n.name != "a"
		}
	case nsXML:
		switch name.Local {
		case "space", "lang", "base":
			return "xml" + strings.ToUpper(name.Local[:1]) + name.Local[1:], true
		}
	}
	return "", false // namespace declarations and foreign attributes
}

// child writes one child node at the given depth. Text outside text
// elements does not paint and is dropped. It writes straight into b, so the
// conversion stays linear however deep the nesting.
func (c *jsxConv) child(b *strings.Builder, ch any, depth int, inText bool) {
	// Indentation stops growing at a depth no real logo reaches, so that
	// an absurdly nested file cannot make the output quadratic.
	ind := strings.Repeat("  ", min(depth, 32))
	switch n := ch.(type) {
	case string:
		if inText {
			b.WriteString(ind + "{" + jsString(n) + "}\n")
		}
	case *svgNode:
		var text strings.Builder
		for _, t := range n.children {
			if s, ok := t.(string); ok {
				text.WriteString(s)
			}
		}
		switch n.name {
		case "style":
			b.WriteString(ind + "<style>{" + c.expr(c.css(text.String())) + "}</style>\n")
			return
		case "title":
			b.WriteString(ind + "<title")
			for _, a := range c.attrs(n) {
				if a.name == "id" {
					b.WriteString(" " + a.jsx())
				}
			}
			b.WriteString(">{" + jsString(text.String()) + "}</title>\n")
			return
		}
		name := n.name
		if name == "a" {
			name = "g" // a link draws its content like a group, or a tspan in text
			if inText {
				name = "tspan"
			}
		}
		b.WriteString(ind + "<" + name)
		for _, a := range c.attrs(n) {
			if a.name != "xmlns" { // only the root declares its namespace
				b.WriteString(" " + a.jsx())
			}
		}
		inText = inText || textElements[n.name]
		kids := false
		for _, k := range n.children {
			_, isText := k.(string)
			kids = kids || !isText || inText
		}
		if !kids {
			b.WriteString(" />\n")
			return
		}
		b.WriteString(">\n")
		for _, k := range n.children {
			c.child(b, k, depth+1, inText)
		}
		b.WriteString(ind + "</" + name + ">\n")
	}
}

// Segments: a value is a list of literal strings with the prefix between
// each two, so []string{"url(#", "a)"} is "url(#" + prefix + "a)".

// segBuilder builds segments in linear time.
type segBuilder struct {
	done []string
	cur  strings.Builder
}

func (b *segBuilder) add(s string) { b.cur.WriteString(s) }

// prefix ends the current segment: the prefix goes here.
func (b *segBuilder) prefix() {
	b.done = append(b.done, b.cur.String())
	b.cur.Reset()
}

// addSegs appends segments: the first continues the current one.
func (b *segBuilder) addSegs(segs []string) {
	for i, s := range segs {
		if i > 0 {
			b.prefix()
		}
		b.add(s)
	}
}

func (b *segBuilder) segs() []string { return append(b.done, b.cur.String()) }

// expr returns segs as a JS expression: a string literal, or a template
// literal when the prefix appears.
func (c *jsxConv) expr(segs []string) string {
	if len(segs) == 1 {
		return jsString(segs[0])
	}
	c.usedPrefix = true
	var b strings.Builder
	b.WriteByte('`')
	for i, s := range segs {
		if i > 0 {
			b.WriteString("${" + c.prefix + "}")
		}
		b.WriteString(templateEscape(s))
	}
	b.WriteByte('`')
	return b.String()
}

// href prefixes a local reference "#id".
func (c *jsxConv) href(v string) []string {
	t := strings.TrimSpace(v)
	if strings.HasPrefix(t, "#") && len(t) > 1 {
		return []string{"#", t[1:]}
	}
	return []string{v}
}

// idList prefixes every id of a space-separated list.
func (c *jsxConv) idList(v string) []string {
	f := strings.Fields(v)
	if len(f) == 0 {
		return []string{v}
	}
	segs := []string{""}
	for i, id := range f {
		if i > 0 {
			segs[len(segs)-1] += " "
		}
		segs = append(segs, id)
	}
	return segs
}

// urlRefs prefixes the ids of url(#id) references.
func (c *jsxConv) urlRefs(v string) []string {
	segs := []string{""}
	last := 0
	for _, m := range cssRefRE.FindAllStringSubmatchIndex(v, -1) {
		hash := -1
		for g := 1; g <= 3; g++ {
			if m[2*g] >= 0 {
				hash = m[2*g]
			}
		}
		segs[len(segs)-1] += v[last : hash+1]
		segs = append(segs, "")
		last = hash + 1
	}
	segs[len(segs)-1] += v[last:]
	return segs
}

// styleObject converts a style attribute to a React style object literal,
// or "" when it declares nothing. Later declarations of a property win, as
// in CSS; !important is dropped (React cannot set it, and an inline style
// already beats the file's own rules); invalid property names are dropped,
// as browsers drop them.
func (c *jsxConv) styleObject(css string) string {
	type decl struct{ key, value string }
	var decls []decl
	for _, d := range splitDecls(css) {
		i := strings.IndexByte(d, ':')
		if i < 0 {
			continue
		}
		prop, value := strings.TrimSpace(d[:i]), strings.TrimSpace(importantR.ReplaceAllString(d[i+1:], ""))
		if value == "" {
			continue
		}
		var key string
		switch {
		case cssCustRE.MatchString(prop):
			key = prop
		case cssPropRE.MatchString(strings.ToLower(prop)):
			key = styleKey(strings.ToLower(prop))
		default:
			continue
		}
		decls = slices.DeleteFunc(decls, func(x decl) bool { return x.key == key })
		decls = append(decls, decl{key, value})
	}
	if len(decls) == 0 {
		return ""
	}
	parts := make([]string, len(decls))
	for i, d := range decls {
		parts[i] = jsString(d.key) + ": " + c.expr(c.urlRefs(d.value))
	}
	// The cast lets custom and vendor properties through, which
	// CSSProperties does not list.
	return "{ " + strings.Join(parts, ", ") + " } as React.CSSProperties"
}

// styleKey is the React style key of a CSS property: stop-color gives
// stopColor, -webkit-mask gives WebkitMask and -ms-filter gives msFilter,
// which React hyphenates back to the same names.
func styleKey(prop string) string {
	lead := ""
	switch {
	case strings.HasPrefix(prop, "-ms-"):
		lead, prop = "ms", prop[3:]
	case strings.HasPrefix(prop, "-"):
		// An upper-case first letter: React writes "-" before it.
	}
	var b strings.Builder
	b.WriteString(lead)
	up := lead != ""
	for i := 0; i < len(prop); i++ {
		ch := prop[i]
		if ch == '-' {
			up = true
			continue
		}
		if up {
			ch = ch - 'a' + 'A'
			up = false
		}
		b.WriteByte(ch)
	}
	return b.String()
}

// splitDecls splits a declaration list at the semicolons outside strings,
// parentheses and comments, dropping the comments.
func splitDecls(css string) []string {
	var out []string
	var cur strings.Builder
	depth := 0
	for i := 0; i < len(css); i++ {
		ch := css[i]
		switch {
		case ch == '/' && i+1 < len(css) && css[i+1] == '*':
			end := strings.Index(css[i+2:], "*/")
			if end < 0 {
				i = len(css)
			} else {
				i += end + 3
			}
			cur.WriteByte(' ')
			continue
		case ch == '"' || ch == '\'':
			j := skipString(css, i)
			cur.WriteString(css[i:j])
			i = j - 1
			continue
		case ch == '(':
			depth++
		case ch == ')' && depth > 0:
			depth--
		case ch == ';' && depth == 0:
			out = append(out, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteByte(ch)
	}
	return append(out, cur.String())
}

// skipString returns the index just after the CSS string starting at i.
func skipString(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case q, '\n':
			return j + 1
		}
	}
	return len(s)
}

// css prefixes the ids and classes of a stylesheet: #id and .class in
// selectors, url(#id) in declarations. At-rule preludes and keyframe
// selectors are left alone.
func (c *jsxConv) css(css string) []string {
	const (
		rules = iota
		decls
		keyframes
	)
	var out segBuilder
	emit := out.addSegs
	stack := []int{rules}
	start := 0 // start of the current prelude or declaration block
	for i := 0; i < len(css); i++ {
		ch := css[i]
		switch {
		case ch == '/' && i+1 < len(css) && css[i+1] == '*':
			if end := strings.Index(css[i+2:], "*/"); end < 0 {
				i = len(css) - 1
			} else {
				i += end + 3
			}
		case ch == '"' || ch == '\'':
			i = skipString(css, i) - 1
		case ch == '{' || ch == '}' || ch == ';' && stack[len(stack)-1] != decls:
			chunk := css[start:i]
			top := stack[len(stack)-1]
			switch {
			case top == decls:
				emit(c.urlRefs(chunk))
			case top == rules && ch == '{' && !strings.HasPrefix(cssPrelude(chunk), "@"):
				emit(c.selectors(chunk))
			default:
				emit([]string{chunk})
			}
			emit([]string{string(ch)})
			start = i + 1
			switch ch {
			case '{':
				kind := decls
				if top == rules {
					if at := strings.ToLower(cssPrelude(chunk)); strings.HasPrefix(at, "@") {
						name := strings.FieldsFunc(at[1:], func(r rune) bool { return r == ' ' || r == '(' || r == '\t' || r == '\n' })
						switch {
						case len(name) == 0:
						case strings.HasSuffix(name[0], "keyframes"):
							kind = keyframes
						case name[0] == "media" || name[0] == "supports" || name[0] == "container" || name[0] == "layer" ||
							name[0] == "document" || name[0] == "scope" || name[0] == "-moz-document":
							kind = rules
						}
					}
				}
				stack = append(stack, kind)
			case '}':
				if len(stack) > 1 {
					stack = stack[:len(stack)-1]
				}
			}
		}
	}
	if top := stack[len(stack)-1]; top == decls {
		emit(c.urlRefs(css[start:]))
	} else {
		emit([]string{css[start:]})
	}
	return out.segs()
}

// cssPrelude returns a rule's prelude without comments and outer space.
func cssPrelude(s string) string {
	for {
		i := strings.Index(s, "/*")
		if i < 0 {
			return strings.TrimSpace(s)
		}
		end := strings.Index(s[i+2:], "*/")
		if end < 0 {
			return strings.TrimSpace(s[:i])
		}
		s = s[:i] + " " + s[i+2+end+2:]
	}
}

// selectors prefixes the #id and .class names of a selector list, outside
// strings and attribute selectors.
func (c *jsxConv) selectors(sel string) []string {
	var out segBuilder
	for i := 0; i < len(sel); i++ {
		ch := sel[i]
		j := i + 1 // the end of what is copied as is
		switch {
		case ch == '/' && i+1 < len(sel) && sel[i+1] == '*':
			j = len(sel)
			if end := strings.Index(sel[i+2:], "*/"); end >= 0 {
				j = i + end + 4
			}
		case ch == '"' || ch == '\'':
			j = skipString(sel, i)
		case ch == '[':
			for j = i; j < len(sel) && sel[j] != ']'; {
				if sel[j] == '"' || sel[j] == '\'' {
					j = skipString(sel, j)
					continue
				}
				j++
			}
			j = min(j+1, len(sel))
		case (ch == '#' || ch == '.') && i+1 < len(sel) && identStart(sel[i+1]):
			out.add(string(ch))
			out.prefix()
			continue
		}
		out.add(sel[i:j])
		i = j - 1
	}
	return out.segs()
}

func identStart(b byte) bool {
	return b == '_' || b == '-' || b == '\\' || b >= 0x80 || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// jsString returns s as a JS string literal.
func jsString(s string) string {
	b, err := marshal(s)
	if err != nil { // a string always marshals
		panic(err)
	}
	return string(b)
}

// templateEscape escapes s for the inside of a JS template literal.
func templateEscape(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '\\' || r == '`':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '$' && strings.HasPrefix(s[i:], "${"):
			b.WriteString(`\$`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f || r == 0x2028 || r == 0x2029:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
