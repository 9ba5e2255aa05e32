package svg

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"logoindex/internal/escape"
)

// JSX is one SVG file converted to JSX for the component template. Every
// string is valid TSX in its place; ids and the references to them are
// written as template literals that start with the prefix expression given
// to ToJSX, so the template decides how ids are made unique.
type JSX struct {
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

var jsxNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(-[A-Za-z0-9_]+)*$`)

// ToJSX converts a checked document, as Optimise publishes it, to JSX.
// Ids and every reference to them (url(#x) in attributes and CSS, href,
// aria-labelledby and friends, #x selectors) get the prefix prefixExpr, a
// JS expression; when the document has a <style>, its classes are
// prefixed too, since a stylesheet inside an inline SVG applies to the
// whole page. Everything not in the SVG namespace is left out: it does not
// paint.
func ToJSX(d *Document, prefixExpr string) (*JSX, error) {
	root := d.Root
	if root == nil || !root.IsSVG("svg") {
		return nil, fmt.Errorf("the SVG has no <svg> root element in the SVG namespace")
	}
	c := &jsxConv{prefix: prefixExpr, hasStyle: hasElement(root, "style")}
	out := &JSX{}

	vb := strings.FieldsFunc(root.Attr0("viewBox"), func(r rune) bool { return r == ',' || isSpaceRune(r) })
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
	walkElements(root, func(n *Node) {
		for _, a := range n.Attrs {
			if a.Space == NSXLink {
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
		attrs = append(attrs, `xmlnsXlink="`+NSXLink+`"`)
	}
	out.Attrs = strings.Join(attrs, " ")

	var body strings.Builder
	for _, ch := range root.Children {
		if ch.IsSVG("title") {
			continue // the component renders the title its caller gives
		}
		c.child(&body, ch, 0, false)
	}
	out.Body = strings.TrimSuffix(body.String(), "\n")
	out.UsesPrefix = c.usedPrefix
	return out, nil
}

func hasElement(n *Node, local string) bool {
	found := false
	walkElements(n, func(c *Node) { found = found || c.IsSVG(local) })
	return found
}

// jsxConv holds the state of one conversion.
type jsxConv struct {
	prefix     string
	hasStyle   bool // the file has a <style>: prefix classes too
	usedPrefix bool
}

type jsxAttr struct {
	name, expr, lit string
	isLit           bool
}

// jsx writes the attribute. Names TypeScript does not know go through a
// spread object, which it does not check, so an unusual attribute still
// compiles and React still renders it.
func (a jsxAttr) jsx() string {
	var b strings.Builder
	a.writeTo(&b)
	return b.String()
}

// writeTo writes what jsx returns to b.
func (a jsxAttr) writeTo(b *strings.Builder) {
	if !jsxNameRE.MatchString(a.name) || !typedProps[a.name] && !strings.Contains(a.name, "-") {
		b.WriteString("{...{")
		b.WriteString(escape.JSString(a.name))
		b.WriteString(": ")
		b.WriteString(a.expr)
		b.WriteString("}}")
		return
	}
	b.WriteString(a.name)
	if a.isLit {
		b.WriteString(`="`)
		b.WriteString(a.lit)
		b.WriteByte('"')
		return
	}
	b.WriteString("={")
	b.WriteString(a.expr)
	b.WriteByte('}')
}

// attrs converts the attributes of n in the order of the file, dropping
// what React cannot or should not render.
func (c *jsxConv) attrs(n *Node) []jsxAttr {
	var out []jsxAttr
	seen := map[string]bool{}
	for i := range n.Attrs {
		a := &n.Attrs[i]
		name, ok := c.propName(a)
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
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf:
			return plainJSXRunes(s[i:])
		case c < 0x20 || c == 0x7f || c == '"' || c == '&' || c == '\\' || c == '{' || c == '}' || c == '<' || c == '>':
			return false
		}
	}
	return true
}

// plainJSXRunes is plainJSX past the first byte that is not ASCII.
func plainJSXRunes(s string) bool {
	for _, r := range s {
		if escape.Control(r) || r == '"' || r == '&' || r == '\\' || r == '{' || r == '}' || r == '<' || r == '>' {
			return false
		}
	}
	return true
}

// propName maps an attribute of n to the React prop that renders it, or
// false to drop it.

// propName maps an attribute to the React prop that renders it, or false
// to drop it.
func (c *jsxConv) propName(a *Attr) (string, bool) {
	switch a.Space {
	case "":
		l := a.Local
		switch {
		case l == "class":
			return "className", true
		case strings.HasPrefix(strings.ToLower(l), "on") || reactOnly[l]:
			return "", false
		case reactAliases[l] != "":
			return reactAliases[l], true
		}
		return l, true
	case NSXLink:
		switch a.Local {
		case "href", "title":
			return "xlink" + strings.ToUpper(a.Local[:1]) + a.Local[1:], true
		}
	case NSXML:
		switch a.Local {
		case "space", "lang":
			return "xml" + strings.ToUpper(a.Local[:1]) + a.Local[1:], true
		}
	case NSXMLNS:
		if a.Prefix == "" {
			return "xmlns", true // the root's; the others are left out
		}
	}
	return "", false // namespace declarations and foreign attributes
}

// child writes one child node at the given depth. Text outside text
// elements does not paint and is dropped. It writes straight into b, so the
// conversion stays linear however deep the nesting.
func (c *jsxConv) child(b *strings.Builder, n *Node, depth int, inText bool) {
	// Indentation stops growing at a depth no real logo reaches, so that
	// an absurdly nested file cannot make the output quadratic.
	ind := strings.Repeat("  ", min(depth, 32))
	if n.Type == TextNode {
		if inText {
			b.WriteString(ind + "{" + escape.JSString(n.Text) + "}\n")
		}
		return
	}
	if n.Space != NSSVG || !jsxElements[n.Local] && n.Local != "style" && n.Local != "title" {
		return // it draws nothing
	}
	var text strings.Builder
	for _, t := range n.Children {
		if t.Type == TextNode {
			text.WriteString(t.Text)
		}
	}
	switch n.Local {
	case "style":
		b.WriteString(ind + "<style>{" + c.expr(c.cssSegs(text.String(), true)) + "}</style>\n")
		return
	case "title":
		b.WriteString(ind + "<title")
		for _, a := range c.attrs(n) {
			if a.name == "id" {
				b.WriteByte(' ')
				a.writeTo(b)
			}
		}
		b.WriteString(">{" + escape.JSString(text.String()) + "}</title>\n")
		return
	}
	b.WriteString(ind)
	b.WriteByte('<')
	b.WriteString(n.Local)
	for _, a := range c.attrs(n) {
		if a.name != "xmlns" { // only the root declares its namespace
			b.WriteByte(' ')
			a.writeTo(b)
		}
	}
	inText = inText || textElements[n.Local]
	kids := false
	for _, k := range n.Children {
		kids = kids || k.Type == ElementNode || inText
	}
	if !kids {
		b.WriteString(" />\n")
		return
	}
	b.WriteString(">\n")
	for _, k := range n.Children {
		c.child(b, k, depth+1, inText)
	}
	b.WriteString(ind)
	b.WriteString("</")
	b.WriteString(n.Local)
	b.WriteString(">\n")
}

// Segments: a value is a list of literal strings with the prefix between
// each two, so []string{"url(#", "a)"} is "url(#" + prefix + "a)".

// expr returns segs as a JS expression: a string literal, or a template
// literal when the prefix appears.
func (c *jsxConv) expr(segs []string) string {
	if len(segs) == 1 {
		return escape.JSString(segs[0])
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

// urlRefs prefixes the ids of url(#id) references in a CSS value.
func (c *jsxConv) urlRefs(v string) []string {
	if !hasURL(v) {
		return []string{v}
	}
	return c.cssSegs(v, false)
}

// cssSegs prefixes the ids of CSS text (url(#id) references, and #id and,
// in a stylesheet of a file with a <style>, .class selectors), through
// rewriteCSS: a NUL, which no XML text can hold, marks where the prefix
// goes.
func (c *jsxConv) cssSegs(text string, sheet bool) []string {
	mark := func(s string) (string, bool) { return "\x00" + s, true }
	var class func(string) (string, bool)
	if sheet && c.hasStyle {
		class = mark
	}
	return strings.Split(rewriteCSS(text, sheet, mark, class), "\x00")
}

// styleObject converts a style attribute to a React style object literal,
// or "" when it declares nothing. Later declarations of a property win, as
// in CSS; !important is dropped (React cannot set it, and an inline style
// already beats the file's own rules).
func (c *jsxConv) styleObject(css string) string {
	type decl struct{ key, value string }
	var decls []decl
	ds, _ := readDeclarations(css)
	for _, d := range ds {
		key := d.prop
		if !strings.HasPrefix(key, "--") {
			key = styleKey(key)
		}
		decls = slices.DeleteFunc(decls, func(x decl) bool { return x.key == key })
		decls = append(decls, decl{key, cssText(d.value)})
	}
	if len(decls) == 0 {
		return ""
	}
	parts := make([]string, len(decls))
	for i, d := range decls {
		parts[i] = escape.JSString(d.key) + ": " + c.expr(c.urlRefs(d.value))
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
		case escape.Control(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
