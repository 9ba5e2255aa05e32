package generator

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Structural limits of one SVG file, on top of MaxSVGSize. A real logo
// nests a dozen levels and holds a few hundred elements.
const (
	MaxSVGDepth    = 100
	MaxSVGElements = 20000
)

const (
	nsSVG   = "http://www.w3.org/2000/svg"
	nsXLink = "http://www.w3.org/1999/xlink"
	nsXML   = "http://www.w3.org/XML/1998/namespace"
	nsXHTML = "http://www.w3.org/1999/xhtml"
)

// forbiddenElements can run script, load other documents or media, or
// animate (which can rewrite href or paint after the checks). Compared
// case-insensitively: an HTML parser lower-cases names when an SVG is pasted
// inline into a page.
var forbiddenElements = map[string]string{
	"script":           "can run script",
	"foreignobject":    "can embed HTML",
	"iframe":           "loads another document",
	"object":           "loads another document",
	"embed":            "loads another document",
	"frame":            "loads another document",
	"applet":           "loads code",
	"image":            "embeds a raster or external image",
	"audio":            "plays media",
	"video":            "plays media",
	"animate":          "animates the logo",
	"set":              "animates the logo",
	"animatemotion":    "animates the logo",
	"animatetransform": "animates the logo",
	"animatecolor":     "animates the logo",
	"discard":          "is an animation element",
	"handler":          "can run script",
	"listener":         "attaches event handlers",
	"link":             "loads an external resource",
	"meta":             "can redirect",
	"base":             "changes how links resolve",
}

// paintProps are the properties that give a colour.
var paintProps = map[string]bool{
	"fill": true, "stroke": true, "stop-color": true, "color": true, "flood-color": true, "lighting-color": true,
}

var shapeElements = map[string]bool{
	"path": true, "rect": true, "circle": true, "ellipse": true, "line": true, "polyline": true,
	"polygon": true, "text": true, "tspan": true, "textPath": true,
}

// PaintUse is one colour an SVG paints with.
type PaintUse struct {
	Value  string // as written: "#181717", "black", or "(default)" for an unset fill
	Colour RGB
	Pos    Pos
}

// SVGInfo is what CheckSVG learns about a file it accepts.
type SVGInfo struct {
	ViewBox  [4]float64
	HasTitle bool // a <title> is a child of the root
	// HasText is true when the file draws text: characters outside
	// style, title, desc and metadata (the text svgText compares).
	HasText bool
	// RootEnd is the byte offset just after the root start tag, where a
	// <title> can be inserted.
	RootEnd int
	// Paints lists the fixed colours painted outside masks and clip paths,
	// including black for shapes that set no fill.
	Paints []PaintUse
}

// SVGRules selects the checks that depend on the variant.
type SVGRules struct {
	// Mono requires every paint to be currentColor, none or transparent.
	Mono bool
}

var bom = []byte("\xef\xbb\xbf")

// CheckSVG checks that data is a safe, self-contained SVG: well-formed XML,
// an <svg> root in the SVG namespace with a usable viewBox, no DOCTYPE, no
// active content, and no reference outside the document. It reports every
// problem it finds with its position.
func CheckSVG(path string, data []byte, rules SVGRules) (*SVGInfo, ProblemList) {
	c := &svgChecker{path: path, rules: rules, info: &SVGInfo{}}
	c.check(data)
	return c.info, c.probs
}

type svgChecker struct {
	path  string
	rules SVGRules
	info  *SVGInfo
	probs ProblemList
	d     *xml.Decoder

	monoDefaultReported bool
	styleSetsFill       bool
}

type elemState struct {
	name       xml.Name // raw name, prefix in Space
	line       int
	ns         map[string]string
	fillSet    bool // a fill is set here or on an ancestor
	inMask     bool // inside mask, clipPath, pattern defs: not painted directly
	preserve   bool // xml:space="preserve" in effect
	styleChild bool
}

func (c *svgChecker) errorf(pos Pos, format string, args ...any) {
	c.probs.Errorf(c.path, pos.Line, pos.Col, format, args...)
}

func (c *svgChecker) check(data []byte) {
	data = bytes.TrimPrefix(data, bom)
	switch {
	case len(bytes.TrimSpace(data)) == 0:
		c.errorf(Pos{}, "is empty; it must hold an <svg> element")
		return
	case bytes.HasPrefix(data, []byte("\x89PNG")):
		c.errorf(Pos{}, "is a PNG image, not an SVG; export the logo as SVG")
		return
	case bytes.IndexByte(data, 0) >= 0:
		c.errorf(Pos{}, "holds binary data (a NUL byte), not SVG text")
		return
	case !utf8.Valid(data):
		line, col := invalidUTF8Pos(data)
		c.errorf(Pos{Line: line, Col: col}, "is not valid UTF-8; save it as UTF-8")
		return
	}
	c.d = xml.NewDecoder(bytes.NewReader(data))
	c.d.Strict = true

	var stack []*elemState
	elements := 0
	rootSeen, rootClosed := false, false
	for {
		line, col := c.d.InputPos()
		pos := Pos{Line: line, Col: col}
		tok, err := c.d.RawToken()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			c.syntaxError(err)
			return
		}
		switch t := tok.(type) {
		case xml.ProcInst:
			if t.Target != "xml" || rootSeen || elements > 0 {
				c.errorf(pos, "processing instruction <?%s?> is not allowed; remove it", t.Target)
			} else if enc := procInstParam(string(t.Inst), "encoding"); enc != "" && !strings.EqualFold(enc, "utf-8") {
				c.errorf(pos, "declares encoding %q; save the file as UTF-8 and drop the encoding", enc)
				return
			}
		case xml.Directive:
			if f := strings.Fields(strings.ToLower(string(t))); len(f) > 1 && f[0] == "doctype" && f[1] == "html" {
				c.errorf(pos, "is an HTML document, not an SVG; export the logo as SVG")
				return
			}
			c.errorf(pos, "DOCTYPE and entity declarations are not allowed; delete the <!%s ...> line", firstWord(string(t)))
			return
		case xml.Comment:
			// Dropped by the optimiser.
		case xml.CharData:
			if len(stack) == 0 {
				if len(bytes.TrimSpace(t)) > 0 {
					c.errorf(pos, "text outside the <svg> element; remove it")
				}
				continue
			}
			top := stack[len(stack)-1]
			text := string(t)
			if !c.info.HasText && len(bytes.TrimSpace(t)) > 0 && !inNonDrawing(stack) {
				c.info.HasText = true
			}
			if top.styleChild {
				c.checkCSS(pos, text, "<style>")
			} else if hasJavascriptURL(text) {
				c.errorf(pos, "text contains javascript:; remove it")
			}
			if top.preserve && whitespaceMatters(text) {
				c.errorf(pos, `text under xml:space="preserve" has spaces that the optimiser would collapse; convert the text to paths or remove the extra spaces`)
			}
		case xml.StartElement:
			elements++
			if elements > MaxSVGElements {
				c.errorf(pos, "has more than %d elements; simplify the artwork", MaxSVGElements)
				return
			}
			if len(stack) >= MaxSVGDepth {
				c.errorf(pos, "elements are nested more than %d levels deep; flatten the groups", MaxSVGDepth)
				return
			}
			if rootClosed {
				c.errorf(pos, "a second root element <%s>; an SVG file holds one <svg> element", rawName(t.Name))
				return
			}
			var parent *elemState
			if len(stack) > 0 {
				parent = stack[len(stack)-1]
			}
			st := c.startElement(pos, t, parent)
			if parent == nil {
				rootSeen = true
				if !c.checkRoot(pos, t, st) {
					return
				}
				c.info.RootEnd = int(c.d.InputOffset())
			} else if len(stack) == 1 && t.Name.Space == "" && t.Name.Local == "title" {
				c.info.HasTitle = true
			}
			stack = append(stack, st)
		case xml.EndElement:
			if len(stack) == 0 {
				c.errorf(pos, "is not well-formed XML: end tag </%s> has no start tag", rawName(t.Name))
				return
			}
			if open := stack[len(stack)-1]; open.name != t.Name {
				c.errorf(pos, "is not well-formed XML: <%s> (line %d) is closed by </%s>", rawName(open.name), open.line, rawName(t.Name))
				return
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				rootClosed = true
			}
		}
	}
	if !rootSeen {
		c.errorf(Pos{}, "holds no <svg> element")
	} else if len(stack) > 0 {
		line, col := c.d.InputPos()
		c.errorf(Pos{Line: line, Col: col}, "is not well-formed XML: the file ends before <%s> (line %d) is closed", rawName(stack[len(stack)-1].name), stack[len(stack)-1].line)
	}
}

func (c *svgChecker) syntaxError(err error) {
	line, col := c.d.InputPos()
	var se *xml.SyntaxError
	msg := err.Error()
	if errors.As(err, &se) {
		msg = se.Msg
		line = se.Line
	}
	switch {
	case strings.Contains(msg, "CharsetReader"):
		enc := ""
		if i := strings.IndexByte(msg, '"'); i >= 0 {
			if j := strings.IndexByte(msg[i+1:], '"'); j >= 0 {
				enc = msg[i+1 : i+1+j]
			}
		}
		c.errorf(Pos{Line: 1, Col: 1}, "declares encoding %q; save the file as UTF-8 and drop the encoding", enc)
	case strings.Contains(msg, "invalid character entity"):
		c.errorf(Pos{Line: line, Col: col}, "is not well-formed XML: %s (only &amp; &lt; &gt; &quot; &apos; and numeric references exist without a DOCTYPE)", msg)
	default:
		c.errorf(Pos{Line: line, Col: col}, "is not well-formed XML: %s", msg)
	}
}

// startElement resolves namespaces and checks the element and its attributes.
func (c *svgChecker) startElement(pos Pos, t xml.StartElement, parent *elemState) *elemState {
	st := &elemState{name: t.Name, line: pos.Line}
	if parent != nil {
		st.ns = parent.ns // shared until this element declares a namespace
		st.fillSet = parent.fillSet
		st.inMask = parent.inMask
		st.preserve = parent.preserve
	} else {
		st.ns = map[string]string{"xml": nsXML}
	}
	ownNS := parent == nil
	seen := make(map[xml.Name]bool, len(t.Attr))
	for _, a := range t.Attr {
		if seen[a.Name] {
			c.errorf(pos, "attribute %s appears twice on <%s>; keep one", rawName(a.Name), rawName(t.Name))
		}
		seen[a.Name] = true
		if a.Name.Space == "" && a.Name.Local == "xmlns" || a.Name.Space == "xmlns" {
			if !ownNS {
				st.ns, ownNS = maps.Clone(parent.ns), true
			}
			if a.Name.Space == "xmlns" {
				st.ns[a.Name.Local] = a.Value
			} else {
				st.ns[""] = a.Value
			}
		}
	}
	space, ok := st.ns[t.Name.Space]
	if !ok && t.Name.Space != "" {
		c.errorf(pos, "element <%s> uses the undeclared namespace prefix %q", rawName(t.Name), t.Name.Space)
	}
	local := strings.ToLower(t.Name.Local)
	if why, bad := forbiddenElements[local]; bad {
		c.errorf(pos, "<%s> is not allowed: it %s; remove it", rawName(t.Name), why)
	} else if space == nsXHTML {
		c.errorf(pos, "HTML element <%s> is not allowed in an SVG logo; remove it", rawName(t.Name))
	} else if parent != nil && space == nsSVG && t.Name.Space != "" {
		c.errorf(pos, "element <%s> uses a namespace prefix for SVG; write <%s> in the default namespace", rawName(t.Name), t.Name.Local)
	}
	switch t.Name.Local {
	case "mask", "clipPath", "pattern", "marker", "symbol", "defs":
		st.inMask = true
	case "style":
		st.styleChild = true
	}

	for _, a := range t.Attr {
		c.checkAttr(pos, t.Name, a, st)
	}
	if shapeElements[t.Name.Local] && !st.inMask && !st.fillSet && !c.styleSetsFill {
		if c.rules.Mono {
			if !c.monoDefaultReported {
				c.monoDefaultReported = true
				c.errorf(pos, `<%s> has no fill, so it paints black; set fill="currentColor" on the root <svg>`, t.Name.Local)
			}
		} else if t.Name.Local != "tspan" {
			c.info.Paints = append(c.info.Paints, PaintUse{Value: "(default black)", Colour: RGB{}, Pos: pos})
		}
	}
	return st
}

func (c *svgChecker) checkAttr(pos Pos, elem xml.Name, a xml.Attr, st *elemState) {
	name := rawName(a.Name)
	local := strings.ToLower(a.Name.Local)
	val := a.Value
	if a.Name.Space == "xmlns" || a.Name.Space == "" && a.Name.Local == "xmlns" {
		return
	}
	if a.Name.Space != "" {
		if _, ok := st.ns[a.Name.Space]; !ok {
			c.errorf(pos, "attribute %s uses the undeclared namespace prefix %q", name, a.Name.Space)
		}
	}
	switch {
	case strings.HasPrefix(local, "on"):
		c.errorf(pos, "event handler attribute %s is not allowed on <%s>; remove it", name, rawName(elem))
		return
	case local == "href" || local == "src" || local == "action" || local == "formaction":
		if v := strings.TrimSpace(val); !strings.HasPrefix(v, "#") || strings.ContainsAny(v, " \t\r\n") {
			c.errorf(pos, "%s=%q on <%s> points outside the document; only local references like \"#id\" are allowed", name, truncate(val, 60), rawName(elem))
			return
		}
	case a.Name.Space == "xml" && local == "space":
		st.preserve = val == "preserve"
	}
	if hasJavascriptURL(val) {
		c.errorf(pos, "attribute %s on <%s> contains javascript:; remove it", name, rawName(elem))
		return
	}
	if local == "style" {
		c.checkCSS(pos, val, "style attribute")
		for _, d := range cssDeclarations(val) {
			c.checkPaint(pos, d.prop, d.value, st)
		}
		return
	}
	if strings.Contains(strings.ToLower(val), "url") || strings.Contains(val, `\`) {
		c.checkCSS(pos, val, "attribute "+name)
	}
	if a.Name.Space == "" && paintProps[local] {
		c.checkPaint(pos, local, val, st)
	}
}

// checkPaint applies the mono rule and records fixed colours.
func (c *svgChecker) checkPaint(pos Pos, prop, value string, st *elemState) {
	prop = strings.ToLower(prop)
	if !paintProps[prop] {
		return
	}
	v := strings.ToLower(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(value), "!important")))
	if prop == "fill" {
		st.fillSet = true
	}
	if c.rules.Mono {
		if v != "currentcolor" && v != "none" && v != "transparent" {
			c.errorf(pos, "icon-mono paints %s: %s; every paint must be currentColor, none or transparent", prop, strings.TrimSpace(value))
		}
		return
	}
	if st.inMask || prop == "color" {
		return
	}
	if rgb, ok := parseColour(v); ok {
		c.info.Paints = append(c.info.Paints, PaintUse{Value: strings.TrimSpace(value), Colour: rgb, Pos: pos})
	}
}

// checkRoot checks the root element; false stops the check, as nothing
// further would make sense.
func (c *svgChecker) checkRoot(pos Pos, t xml.StartElement, st *elemState) bool {
	if t.Name.Local != "svg" || st.ns[t.Name.Space] != nsSVG {
		switch {
		case strings.EqualFold(t.Name.Local, "html"):
			c.errorf(pos, "is an HTML document, not an SVG; export the logo as SVG")
		case t.Name.Local == "svg":
			c.errorf(pos, `root <svg> is not in the SVG namespace; add xmlns="http://www.w3.org/2000/svg"`)
		default:
			c.errorf(pos, `root element is <%s>; an SVG logo's root is <svg xmlns="http://www.w3.org/2000/svg">`, rawName(t.Name))
		}
		return false
	}
	if t.Name.Space != "" {
		c.errorf(pos, `root element <%s> uses a namespace prefix; write <svg xmlns="http://www.w3.org/2000/svg"> and drop the prefix`, rawName(t.Name))
		return false
	}
	var viewBox, width, height string
	hasViewBox := false
	for _, a := range t.Attr {
		if a.Name.Space != "" {
			continue
		}
		switch a.Name.Local {
		case "viewBox":
			viewBox, hasViewBox = a.Value, true
		case "width":
			width = a.Value
		case "height":
			height = a.Value
		}
	}
	if !hasViewBox {
		hint := ""
		if w, h := plainNumber(width), plainNumber(height); w > 0 && h > 0 {
			hint = fmt.Sprintf(`, for example viewBox="0 0 %s %s" from its width and height`, strings.TrimSpace(width), strings.TrimSpace(height))
		}
		c.errorf(pos, `root <svg> has no viewBox; add viewBox="0 0 <width> <height>"%s`, hint)
		return true
	}
	vb, msg := parseViewBox(viewBox)
	if msg != "" {
		c.errorf(pos, "viewBox=%q %s", truncate(viewBox, 60), msg)
	}
	c.info.ViewBox = vb
	return true
}

func parseViewBox(s string) (vb [4]float64, msg string) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' })
	if len(fields) != 4 {
		return vb, "must be four numbers: min-x min-y width height"
	}
	for i, f := range fields {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			return vb, fmt.Sprintf("has %q, which is not a number", f)
		}
		vb[i] = v
	}
	if vb[2] <= 0 || vb[3] <= 0 {
		return vb, "must have a positive width and height"
	}
	return vb, ""
}

func plainNumber(s string) float64 {
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "px"), 64)
	if err != nil {
		return 0
	}
	return v
}

var (
	cssEscapeRE  = regexp.MustCompile(`\\([0-9a-fA-F]{1,6}[ \t\r\n\f]?|[^0-9a-fA-F\r\n\f])`)
	cssCommentRE = regexp.MustCompile(`(?s)/\*.*?\*/`)
	cssURLRE     = regexp.MustCompile(`(?i)url\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*))\s*\)`)
	cssDeclRE    = regexp.MustCompile(`(?i)(?:^|[;{\s])(-?[a-z-]+)\s*:\s*([^;{}]*)`)
	// Functions and at-rules that fetch, run or bind something.
	cssForbidden = []struct{ needle, why string }{
		{"@import", "@import loads another stylesheet"},
		{"@font-face", "@font-face loads fonts"},
		{"image-set(", "image-set() loads images"},
		{"image(", "image() loads images"},
		{"cross-fade(", "cross-fade() loads images"},
		{"element(", "element() references page content"},
		{"expression(", "expression() runs script"},
		{"behavior", "behavior loads script"},
		{"-moz-binding", "-moz-binding loads script"},
	}
)

// unescapeCSS undoes CSS backslash escapes and removes comments, so that
// u\72l( and ur/**/l( read as what a browser sees.
func unescapeCSS(s string) string {
	s = cssEscapeRE.ReplaceAllStringFunc(s, func(m string) string {
		body := strings.TrimRight(m[1:], " \t\r\n\f")
		if v, err := strconv.ParseUint(body, 16, 32); err == nil && len(body) > 0 && isHex(body) {
			if v == 0 || v > utf8.MaxRune {
				return "\uFFFD"
			}
			return string(rune(v))
		}
		return m[1:]
	})
	return cssCommentRE.ReplaceAllString(s, "")
}

func isHex(s string) bool {
	for _, r := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
			return false
		}
	}
	return true
}

// checkCSS applies the reference rules to CSS text (a <style> element, a
// style attribute, or a presentation attribute that can hold url()).
func (c *svgChecker) checkCSS(pos Pos, css, where string) {
	plain := unescapeCSS(css)
	lower := strings.ToLower(plain)
	squeezed := stripSpace(lower)
	for _, f := range cssForbidden {
		if strings.Contains(squeezed, f.needle) {
			c.errorf(pos, "%s uses %s: %s; remove it", where, strings.TrimSuffix(f.needle, "("), f.why)
		}
	}
	if strings.Contains(squeezed, "javascript:") {
		c.errorf(pos, "%s contains javascript:; remove it", where)
	}
	for _, m := range cssURLRE.FindAllStringSubmatch(plain, -1) {
		ref := strings.TrimSpace(m[1] + m[2] + m[3])
		if !strings.HasPrefix(ref, "#") {
			c.errorf(pos, "%s has url(%s), which points outside the document; only local references like url(#gradient) are allowed", where, truncate(ref, 60))
		}
	}
	if strings.Contains(squeezed, "url(") && len(cssURLRE.FindAllString(plain, -1)) < strings.Count(squeezed, "url(") {
		c.errorf(pos, "%s has a url( that cannot be read; write it as url(#id)", where)
	}
	if where == "<style>" {
		for _, d := range cssDeclarations(plain) {
			if strings.EqualFold(d.prop, "fill") {
				c.styleSetsFill = true
			}
			if c.rules.Mono && paintProps[strings.ToLower(d.prop)] {
				v := strings.ToLower(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(d.value), "!important")))
				if v != "currentcolor" && v != "none" && v != "transparent" {
					c.errorf(pos, "icon-mono paints %s: %s in <style>; every paint must be currentColor, none or transparent", d.prop, strings.TrimSpace(d.value))
				}
			} else if !c.rules.Mono && paintProps[strings.ToLower(d.prop)] && !strings.EqualFold(d.prop, "color") {
				if rgb, ok := parseColour(d.value); ok {
					c.info.Paints = append(c.info.Paints, PaintUse{Value: strings.TrimSpace(d.value), Colour: rgb, Pos: pos})
				}
			}
		}
	}
}

type cssDecl struct{ prop, value string }

func cssDeclarations(css string) []cssDecl {
	var out []cssDecl
	for _, m := range cssDeclRE.FindAllStringSubmatch(unescapeCSS(css), -1) {
		out = append(out, cssDecl{m[1], m[2]})
	}
	return out
}

// hasJavascriptURL reports whether s holds "javascript:" once white space
// and control characters, which browsers skip in URLs, are removed.
func hasJavascriptURL(s string) bool {
	return strings.Contains(stripSpace(strings.ToLower(s)), "javascript:")
}

func stripSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if r <= ' ' || r == 0x7f || r == 0xa0 || r == 0xfeff || r >= 0x2000 && r <= 0x200f {
			return -1
		}
		return r
	}, s)
}

// whitespaceMatters reports whether collapsing white space would change
// text: runs of spaces, tabs or line breaks, or space at either end.
func whitespaceMatters(s string) bool {
	if strings.TrimSpace(s) == "" {
		return len(s) > 0 && s != " "
	}
	return s != strings.Join(strings.Fields(s), " ")
}

// inNonDrawing reports whether the innermost elements include one whose
// text is never drawn.
func inNonDrawing(stack []*elemState) bool {
	for _, e := range stack {
		switch e.name.Local {
		case "style", "title", "desc", "metadata":
			return true
		}
	}
	return false
}

func rawName(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return s
}

func procInstParam(inst, name string) string {
	i := strings.Index(inst, name)
	if i < 0 {
		return ""
	}
	rest := strings.TrimLeft(inst[i+len(name):], " \t\r\n")
	if !strings.HasPrefix(rest, "=") {
		return ""
	}
	rest = strings.TrimLeft(rest[1:], " \t\r\n")
	if rest == "" || rest[0] != '"' && rest[0] != '\'' {
		return ""
	}
	q := rest[0]
	if j := strings.IndexByte(rest[1:], q); j >= 0 {
		return rest[1 : j+1]
	}
	return ""
}
