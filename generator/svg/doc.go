// Package svg is the SVG core of logoindex: pure functions on SVG documents,
// with no knowledge of logos, folders or the build.
//
//	Parse     (doc.go)       bytes          -> *Document: one tree, parsed once, as a browser reads it
//	Check     (check.go)     *Document      -> *Info: the allowlist (allow.go), CSS (css.go),
//	                                           references and paint (refs.go, colour.go), numbers
//	Optimise  (optimise.go)  *Document      -> published bytes, rounded (round.go, pathdata.go) and
//	                                           checked again
//	ToJSX     (jsx.go)       *Document      -> JSX for the React components
//
// Every function reports problems with package problem, naming the file
// (Document.Path), line and column.
package svg

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"logoindex/generator/internal/textenc"
	"logoindex/generator/problem"
)

// Namespaces an SVG logo may use.
const (
	NSSVG   = "http://www.w3.org/2000/svg"
	NSXLink = "http://www.w3.org/1999/xlink"
	NSXML   = "http://www.w3.org/XML/1998/namespace"
	NSXMLNS = "http://www.w3.org/2000/xmlns/"
	NSXHTML = "http://www.w3.org/1999/xhtml"
)

// Structural limits of one document. A real logo nests a dozen levels and
// holds a few hundred elements (the largest of three public collections,
// 800); the limits bound the memory and time of everything that walks the
// tree, whatever a file holds.
const (
	MaxDepth      = 100
	MaxElements   = 20000
	MaxAttributes = 256 // on one element
)

// NodeType says what a Node is.
type NodeType uint8

// The kinds of Node. Comments, CDATA boundaries, processing instructions
// and the XML declaration are not nodes: a browser does not see them.
const (
	ElementNode NodeType = iota + 1
	TextNode
)

// Node is an element or a run of text of a Document.
type Node struct {
	Type NodeType
	// Space is an element's namespace URI; Prefix and Local its name as
	// written.
	Space, Prefix, Local string
	Attrs                []Attr
	Children             []*Node
	Parent               *Node
	// Text is a text node's content as a browser reads it: character and
	// entity references decoded, CDATA sections joined to the text around
	// them and comments removed, so "@imp<!-- -->ort" reads "@import".
	Text string

	start, end int   // the start tag (element) or the text run, as offsets in Document.Src
	endTag     int   // offset of the end tag; -1 when the element closed itself
	textMap    []seg // where each piece of Text comes from; nil when Text is Src[start:end]
	dirty      bool  // attributes changed since parsing: Write makes a new start tag
}

// Attr is an attribute of an element.
type Attr struct {
	// Space is the namespace URI: "" for an attribute without a prefix.
	Space, Prefix, Local string
	// Value is what a browser reads: references decoded, literal white
	// space normalised to spaces as XML requires of attribute values.
	Value string

	off, valOff int   // offsets of the name and of the value's first character
	valMap      []seg // as Node.textMap, for Value
}

// seg maps decoded text back to the source: the decoded text from off on
// comes from Src[src:], one byte for one byte when lit is true, else from a
// reference or line break at src.
type seg struct {
	off, src int
	lit      bool
}

// Name returns the name as written, prefix included.
func (n *Node) Name() string { return qname(n.Prefix, n.Local) }

// Name returns the name as written, prefix included.
func (a *Attr) Name() string { return qname(a.Prefix, a.Local) }

func qname(prefix, local string) string {
	if prefix == "" {
		return local
	}
	return prefix + ":" + local
}

// IsSVG reports whether n is an element named local in the SVG namespace.
func (n *Node) IsSVG(local string) bool {
	return n != nil && n.Type == ElementNode && n.Space == NSSVG && n.Local == local
}

// Attr returns the value of the attribute with no namespace called local.
func (n *Node) Attr(local string) (string, bool) {
	for i := range n.Attrs {
		if a := &n.Attrs[i]; a.Space == "" && a.Local == local {
			return a.Value, true
		}
	}
	return "", false
}

// SetAttr sets the value of the i-th attribute.
func (n *Node) SetAttr(i int, v string) {
	if n.Attrs[i].Value != v {
		n.Attrs[i].Value = v
		n.dirty = true
	}
}

// RemoveAttr removes the i-th attribute.
func (n *Node) RemoveAttr(i int) {
	n.Attrs = append(n.Attrs[:i], n.Attrs[i+1:]...)
	n.dirty = true
}

// Elements returns the element children of n.
func (n *Node) Elements() []*Node {
	var out []*Node
	for _, c := range n.Children {
		if c.Type == ElementNode {
			out = append(out, c)
		}
	}
	return out
}

// Document is a parsed SVG file.
type Document struct {
	// Path names the file in problems.
	Path string
	// Src is the file as parsed, a byte-order mark removed.
	Src []byte
	// Root is the <svg> element.
	Root *Node

	lines []int // offsets where lines start, computed on first use
}

// Position returns the line and column of the byte at offset off of Src.
func (d *Document) Position(off int) problem.Pos {
	if d.lines == nil {
		d.lines = []int{0}
		for i, c := range d.Src {
			if c == '\n' {
				d.lines = append(d.lines, i+1)
			}
		}
	}
	i := sort.Search(len(d.lines), func(i int) bool { return d.lines[i] > off }) - 1
	if i < 0 {
		return problem.Pos{Line: 1, Col: 1}
	}
	return problem.Pos{Line: i + 1, Col: off - d.lines[i] + 1}
}

// Pos returns where n starts.
func (d *Document) Pos(n *Node) problem.Pos { return d.Position(n.start) }

// AttrPos returns where a's name starts.
func (d *Document) AttrPos(a *Attr) problem.Pos { return d.Position(a.off) }

// TextPos returns the position in Src of the byte at offset off of t's
// Text: positions inside a <style> element point at the CSS itself.
func (d *Document) TextPos(t *Node, off int) problem.Pos {
	return d.Position(mapOffset(t.textMap, t.start, off))
}

// ValuePos is TextPos for the value of an attribute.
func (d *Document) ValuePos(a *Attr, off int) problem.Pos {
	return d.Position(mapOffset(a.valMap, a.valOff, off))
}

func mapOffset(m []seg, start, off int) int {
	if m == nil {
		return start + off
	}
	i := sort.Search(len(m), func(i int) bool { return m[i].off > off }) - 1
	if i < 0 {
		return start
	}
	if m[i].lit {
		return m[i].src + off - m[i].off
	}
	return m[i].src
}

// parses counts calls of Parse, for tests that prove how often a build
// reads each file.
var parses atomic.Int64

// ParseCount returns how many times Parse has run in this process.
func ParseCount() int64 { return parses.Load() }

// Parse reads an SVG file into a Document: well-formed XML 1.0 in UTF-8,
// with namespaces, one root element, no DOCTYPE (so no entity other than
// the five XML predefines) and no processing instruction but the XML
// declaration. It is stricter than XML only where being lenient would let
// two readers see two documents. path names the file in problems. On a
// problem it returns a nil Document: a file that is not well-formed is not
// looked at further.
func Parse(path string, src []byte) (*Document, problem.List) {
	parses.Add(1)
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	d := &Document{Path: path, Src: src}
	p := &parser{doc: d, src: src}
	p.parse()
	if len(p.probs) > 0 {
		return nil, p.probs
	}
	return d, nil
}

type parser struct {
	doc   *Document
	src   []byte
	i     int
	probs problem.List

	stack    []*Node
	ns       []nsBinding         // in-scope prefixes, innermost last
	inScope  map[string][]string // the URIs each prefix is bound to, innermost last
	elements int
	root     *Node
	text     textRun
}

type nsBinding struct {
	prefix, uri string
	depth       int
}

// stop is panicked with to end the parse at the first syntax error; parse
// recovers it. Nothing else panics.
type stop struct{}

// errorAt reports a problem at offset off of the file, or at no position
// for off < 0 (a problem of the whole file).
func (p *parser) errorAt(off int, code problem.Code, format string, args ...any) {
	var pos problem.Pos
	if off >= 0 {
		pos = p.doc.Position(off)
	}
	p.probs.Errorf(code, p.doc.Path, pos.Line, pos.Col, format, args...)
}

func (p *parser) fail(off int, code problem.Code, format string, args ...any) {
	p.errorAt(off, code, format, args...)
	panic(stop{})
}

func (p *parser) syntax(off int, format string, args ...any) {
	p.fail(off, problem.XMLInvalid, "is not well-formed XML: "+format, args...)
}

func (p *parser) parse() {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(stop); !ok {
				panic(r)
			}
		}
	}()
	src := p.src
	switch {
	case len(bytes.TrimSpace(src)) == 0:
		p.fail(-1, problem.SVGInvalid, "is empty; it must hold an <svg> element")
	case bytes.HasPrefix(src, []byte("\x89PNG")):
		p.fail(-1, problem.SVGInvalid, "is a PNG image, not an SVG; export the logo as SVG")
	case textenc.Sniff(src) != "":
		// Before the NUL check: UTF-16 and UTF-32 text is full of them.
		p.fail(0, problem.EncodingInvalid, "is saved as %s, not UTF-8; save it as UTF-8", textenc.Describe(textenc.Sniff(src)))
	case bytes.IndexByte(src, 0) >= 0:
		p.fail(-1, problem.SVGInvalid, "holds binary data (a NUL byte), not SVG text")
	case !utf8.Valid(src):
		off := 0
		for off < len(src) {
			r, n := utf8.DecodeRune(src[off:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		p.fail(off, problem.EncodingInvalid, "is not valid UTF-8; save it as UTF-8")
	}
	p.inScope = map[string][]string{}
	p.bind(nsBinding{"xml", NSXML, 0})
	p.bind(nsBinding{"xmlns", NSXMLNS, 0})
	if bytes.HasPrefix(src, []byte("<?xml")) && len(src) > 5 && isSpace(src[5]) {
		p.xmlDecl()
	}
	for p.i < len(src) {
		if src[p.i] != '<' {
			p.textToken()
			continue
		}
		switch {
		case bytes.HasPrefix(src[p.i:], []byte("<!--")):
			p.comment()
		case bytes.HasPrefix(src[p.i:], []byte("<![CDATA[")):
			if len(p.stack) == 0 {
				p.syntax(p.i, "a CDATA section outside the root element")
			}
			p.cdata()
		case bytes.HasPrefix(src[p.i:], []byte("<!")):
			p.doctype()
		case bytes.HasPrefix(src[p.i:], []byte("<?")):
			end := p.i + 2
			for end < len(src) && isNameByte(src[end]) {
				end++
			}
			target := string(src[p.i+2 : end])
			if strings.EqualFold(target, "xml") {
				p.syntax(p.i, "the XML declaration <?xml ...?> must come first in the file")
			}
			p.fail(p.i, problem.XMLNotAllowed, "processing instruction <?%s?> is not allowed; remove it", target)
		case bytes.HasPrefix(src[p.i:], []byte("</")):
			p.endTag()
		default:
			p.startTag()
		}
	}
	p.flushText()
	if p.root == nil {
		p.fail(-1, problem.SVGInvalid, "holds no <svg> element")
	}
	if len(p.stack) > 0 {
		open := p.stack[len(p.stack)-1]
		p.syntax(len(src), "the file ends before <%s> (line %d) is closed", open.Name(), p.doc.Pos(open).Line)
	}
}

// xmlDecl reads <?xml version="1.0" encoding="UTF-8" standalone="yes"?>.
func (p *parser) xmlDecl() {
	start := p.i
	end := bytes.Index(p.src, []byte("?>"))
	if end < 0 {
		p.syntax(start, "the XML declaration is not closed with ?>")
	}
	body := string(p.src[start+5 : end])
	for _, f := range strings.Fields(body) {
		k, v, ok := strings.Cut(f, "=")
		v = strings.Trim(v, `"'`)
		if !ok {
			continue
		}
		if k == "encoding" && !strings.EqualFold(v, "utf-8") {
			p.fail(start, problem.EncodingInvalid, "declares encoding %q; save the file as UTF-8 and drop the encoding", v)
		}
	}
	p.i = end + 2
}

func (p *parser) doctype() {
	start := p.i
	rest := p.src[p.i+2:]
	if f := strings.Fields(strings.ToLower(string(rest[:min(len(rest), 40)]))); len(f) > 1 && f[0] == "doctype" && strings.HasPrefix(f[1], "html") {
		p.fail(start, problem.SVGInvalid, "is an HTML document, not an SVG; export the logo as SVG")
	}
	word := rest
	if i := bytes.IndexFunc(rest, func(r rune) bool { return !unicode.IsLetter(r) }); i >= 0 {
		word = rest[:i]
	}
	p.fail(start, problem.XMLNotAllowed, "DOCTYPE and entity declarations are not allowed; delete the <!%s ...> line", word)
}

func (p *parser) comment() {
	start := p.i
	body := p.i + 4
	end := bytes.Index(p.src[body:], []byte("--"))
	if end < 0 {
		p.syntax(start, "the comment is not closed with -->")
	}
	end += body
	if end+2 >= len(p.src) || p.src[end+2] != '>' {
		p.syntax(end, `"--" inside a comment`)
	}
	p.checkChars(body, end)
	p.text.comment()
	p.i = end + 3
}

func (p *parser) cdata() {
	start := p.i + 9
	end := bytes.Index(p.src[start:], []byte("]]>"))
	if end < 0 {
		p.syntax(p.i, "the CDATA section is not closed with ]]>")
	}
	end += start
	p.checkChars(start, end)
	p.text.add(p, start, end, false)
	p.i = end + 3
}

// textToken reads character data up to the next '<'.
func (p *parser) textToken() {
	start := p.i
	end := bytes.IndexByte(p.src[start:], '<')
	if end < 0 {
		end = len(p.src)
	} else {
		end += start
	}
	if i := bytes.Index(p.src[start:end], []byte("]]>")); i >= 0 {
		p.syntax(start+i, `"]]>" in text; write it as ]]&gt;`)
	}
	p.checkChars(start, end)
	if len(p.stack) == 0 {
		if i := bytes.IndexFunc(p.src[start:end], func(r rune) bool { return !isSpaceRune(r) }); i >= 0 {
			p.fail(start+i, problem.XMLInvalid, "text outside the <svg> element; remove it")
		}
		p.i = end
		return
	}
	p.text.add(p, start, end, true)
	p.i = end
}

// checkChars refuses characters XML does not allow in a document.
func (p *parser) checkChars(start, end int) {
	for i := start; i < end; {
		c := p.src[i]
		if c < 0x80 {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
				p.syntax(i, "the control character U+%04X is not allowed in XML", c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(p.src[i:])
		if !isXMLChar(r) {
			p.syntax(i, "the character U+%04X is not allowed in XML", r)
		}
		i += n
	}
}

func isXMLChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

// textRun gathers the character data, CDATA sections and comments between
// two tags into one text node: the text a browser sees.
type textRun struct {
	b       []byte
	segs    []seg
	start   int // offset of the run's first token, -1 when empty
	end     int
	literal bool // b is exactly src[start:end]
	tokens  int
}

func (t *textRun) comment() {
	if t.tokens > 0 {
		t.literal = false
	}
}

// add appends the text of src[start:end], decoding references when refs
// is true (character data; CDATA content is literal) and normalising line
// breaks.
func (t *textRun) add(p *parser, start, end int, refs bool) {
	if t.tokens == 0 {
		t.b, t.segs, t.start, t.literal = t.b[:0], t.segs[:0], start, true
	} else if t.end != start {
		t.literal = false
	}
	t.tokens++
	t.end = end
	raw := p.src[start:end]
	if t.literal && (!refs || bytes.IndexByte(raw, '&') < 0) && bytes.IndexByte(raw, '\r') < 0 {
		t.segs = append(t.segs, seg{len(t.b), start, true})
		t.b = append(t.b, raw...)
		return
	}
	t.literal = false
	t.b, t.segs = p.decode(t.b, t.segs, start, end, refs, false)
}

func (p *parser) flushText() {
	t := &p.text
	if t.tokens == 0 {
		return
	}
	t.tokens = 0
	if len(p.stack) == 0 {
		return
	}
	parent := p.stack[len(p.stack)-1]
	n := &Node{Type: TextNode, Parent: parent, Text: string(t.b), start: t.start, end: t.end, endTag: -1}
	if !t.literal || len(t.segs) > 1 {
		n.textMap = append([]seg(nil), t.segs...)
	}
	parent.Children = append(parent.Children, n)
}

// decode appends the text of src[start:end] to b with references decoded
// and line breaks normalised; attribute values (attr) also turn literal
// white space into spaces. It records in segs where each piece comes from.
func (p *parser) decode(b []byte, segs []seg, start, end int, refs, attr bool) ([]byte, []seg) {
	lit := start // start of the pending literal piece
	flush := func(i int) {
		if i > lit {
			segs = append(segs, seg{len(b), lit, true})
			b = append(b, p.src[lit:i]...)
		}
	}
	for i := start; i < end; {
		c := p.src[i]
		switch {
		case c == '&' && refs:
			flush(i)
			r, n := p.reference(i, end)
			segs = append(segs, seg{len(b), i, false})
			b = utf8.AppendRune(b, r)
			i += n
			lit = i
		case c == '\r' || attr && (c == '\n' || c == '\t'):
			flush(i)
			segs = append(segs, seg{len(b), i, false})
			if attr {
				b = append(b, ' ')
			} else {
				b = append(b, '\n')
			}
			if c == '\r' && i+1 < end && p.src[i+1] == '\n' {
				i++
			}
			i++
			lit = i
		default:
			i++
		}
	}
	flush(end)
	return b, segs
}

// reference decodes the character or entity reference at src[i] and
// returns the character and the reference's length.
func (p *parser) reference(i, end int) (rune, int) {
	semi := bytes.IndexByte(p.src[i:min(end, i+12)], ';')
	if semi < 0 {
		p.syntax(i, `"&" that starts no reference; write & as &amp;`)
	}
	name := string(p.src[i+1 : i+semi])
	switch name {
	case "lt":
		return '<', semi + 1
	case "gt":
		return '>', semi + 1
	case "amp":
		return '&', semi + 1
	case "quot":
		return '"', semi + 1
	case "apos":
		return '\'', semi + 1
	}
	if num, ok := strings.CutPrefix(name, "#"); ok && num != "" {
		var v uint64
		base, digits := uint64(10), num
		if d, ok := strings.CutPrefix(num, "x"); ok {
			base, digits = 16, d
		}
		good := digits != ""
		for _, c := range digits {
			var dv uint64
			switch {
			case c >= '0' && c <= '9':
				dv = uint64(c - '0')
			case base == 16 && c >= 'a' && c <= 'f':
				dv = uint64(c-'a') + 10
			case base == 16 && c >= 'A' && c <= 'F':
				dv = uint64(c-'A') + 10
			default:
				good = false
			}
			v = v*base + dv
			if v > unicode.MaxRune {
				good = false
				break
			}
		}
		if good && isXMLChar(rune(v)) {
			return rune(v), semi + 1
		}
		p.syntax(i, "the character reference &%s; is not a character XML allows", name)
	}
	p.syntax(i, "invalid character entity &%s; (only &amp; &lt; &gt; &quot; &apos; and numeric references exist without a DOCTYPE)", name)
	return 0, 0
}

func (p *parser) startTag() {
	p.flushText()
	start := p.i
	if p.root != nil && len(p.stack) == 0 {
		nameEnd := p.nameEnd(start + 1)
		p.fail(start, problem.XMLInvalid, "a second root element <%s>; an SVG file holds one <svg> element", p.src[start+1:nameEnd])
	}
	p.elements++
	if p.elements > MaxElements {
		p.fail(start, problem.SVGTooComplex, "has more than %d elements; simplify the artwork", MaxElements)
	}
	if len(p.stack) >= MaxDepth {
		p.fail(start, problem.SVGTooComplex, "elements are nested more than %d levels deep; flatten the groups", MaxDepth)
	}
	n := &Node{Type: ElementNode, start: start, endTag: -1}
	i := start + 1
	nameEnd := p.nameEnd(i)
	if nameEnd == i {
		p.syntax(i, "expected an element name after <")
	}
	n.Prefix, n.Local = p.qname(i, nameEnd)
	i = nameEnd
	depth := len(p.stack) + 1
	closed := false
	for {
		ws := i
		for i < len(p.src) && isSpace(p.src[i]) {
			i++
		}
		if i >= len(p.src) {
			p.syntax(start, "the file ends inside the start tag <%s", n.Name())
		}
		if p.src[i] == '>' {
			i++
			break
		}
		if p.src[i] == '/' {
			if i+1 < len(p.src) && p.src[i+1] == '>' {
				i += 2
				closed = true
				break
			}
			p.syntax(i, "expected /> or > to end <%s>", n.Name())
		}
		if i == ws {
			p.syntax(i, "expected white space before the attribute in <%s>", n.Name())
		}
		a := Attr{off: i}
		ae := p.nameEnd(i)
		if ae == i {
			p.syntax(i, "expected an attribute name in <%s>", n.Name())
		}
		a.Prefix, a.Local = p.qname(i, ae)
		i = ae
		for i < len(p.src) && isSpace(p.src[i]) {
			i++
		}
		if i >= len(p.src) || p.src[i] != '=' {
			p.syntax(a.off, "attribute %s has no value; write %s=\"...\"", a.Name(), a.Name())
		}
		i++
		for i < len(p.src) && isSpace(p.src[i]) {
			i++
		}
		if i >= len(p.src) || p.src[i] != '"' && p.src[i] != '\'' {
			p.syntax(i, "the value of attribute %s is not quoted", a.Name())
		}
		q := p.src[i]
		vs := i + 1
		ve := bytes.IndexByte(p.src[vs:], q)
		if ve < 0 {
			p.syntax(i, "the value of attribute %s is not closed", a.Name())
		}
		ve += vs
		if lt := bytes.IndexByte(p.src[vs:ve], '<'); lt >= 0 {
			p.syntax(vs+lt, `"<" in the value of attribute %s; write it as &lt;`, a.Name())
		}
		p.checkChars(vs, ve)
		a.valOff = vs
		raw := p.src[vs:ve]
		if bytes.IndexAny(raw, "&\t\n\r") < 0 {
			a.Value = string(raw)
		} else {
			b, segs := p.decode(nil, nil, vs, ve, true, true)
			a.Value, a.valMap = string(b), segs
		}
		i = ve + 1
		if len(n.Attrs) >= MaxAttributes {
			p.fail(a.off, problem.SVGTooComplex, "<%s> has more than %d attributes; simplify the artwork", n.Name(), MaxAttributes)
		}
		for _, b := range n.Attrs {
			if b.Prefix == a.Prefix && b.Local == a.Local {
				p.syntax(a.off, "attribute %s appears twice on <%s>; keep one", a.Name(), n.Name())
			}
		}
		n.Attrs = append(n.Attrs, a)
		switch {
		case a.Prefix == "" && a.Local == "xmlns":
			p.bind(nsBinding{"", a.Value, depth})
		case a.Prefix == "xmlns":
			if a.Local == "xmlns" || a.Local == "xml" && a.Value != NSXML || a.Value == "" {
				p.syntax(a.off, "the namespace declaration %s=%q is not allowed", a.Name(), a.Value)
			}
			p.bind(nsBinding{a.Local, a.Value, depth})
		}
	}
	n.end = i
	p.i = i
	// Namespaces resolve once every declaration of the tag is known.
	var ok bool
	if n.Space, ok = p.lookup(n.Prefix); !ok {
		p.fail(start, problem.XMLInvalid, "element <%s> uses the undeclared namespace prefix %q; declare it or remove the element", n.Name(), n.Prefix)
	}
	for k := range n.Attrs {
		a := &n.Attrs[k]
		switch {
		case a.Prefix == "" && a.Local == "xmlns":
			a.Space = NSXMLNS
		case a.Prefix != "":
			if a.Space, ok = p.lookup(a.Prefix); !ok {
				p.fail(a.off, problem.XMLInvalid, "attribute %s uses the undeclared namespace prefix %q", a.Name(), a.Prefix)
			}
		}
	}
	for k := range n.Attrs {
		for j := range k {
			if a, b := &n.Attrs[k], &n.Attrs[j]; a.Prefix != "" && b.Prefix != "" && a.Space == b.Space && a.Local == b.Local {
				p.syntax(a.off, "attributes %s and %s on <%s> are the same attribute; keep one", b.Name(), a.Name(), n.Name())
			}
		}
	}
	if len(p.stack) == 0 {
		p.root = n
		p.doc.Root = n
	} else {
		parent := p.stack[len(p.stack)-1]
		n.Parent = parent
		parent.Children = append(parent.Children, n)
	}
	if closed {
		p.popNS(depth)
		return
	}
	p.stack = append(p.stack, n)
}

func (p *parser) endTag() {
	p.flushText()
	start := p.i
	i := start + 2
	ne := p.nameEnd(i)
	name := string(p.src[i:ne])
	i = ne
	for i < len(p.src) && isSpace(p.src[i]) {
		i++
	}
	if i >= len(p.src) || p.src[i] != '>' {
		p.syntax(start, "expected > to end </%s", name)
	}
	if len(p.stack) == 0 {
		p.syntax(start, "end tag </%s> has no start tag", name)
	}
	open := p.stack[len(p.stack)-1]
	if open.Name() != name {
		p.syntax(start, "<%s> (line %d) is closed by </%s>", open.Name(), p.doc.Pos(open).Line, name)
	}
	open.endTag = start
	p.stack = p.stack[:len(p.stack)-1]
	p.popNS(len(p.stack) + 1)
	p.i = i + 1
}

// bind declares a namespace prefix for the element at b.depth and those
// inside it.
func (p *parser) bind(b nsBinding) {
	p.ns = append(p.ns, b)
	p.inScope[b.prefix] = append(p.inScope[b.prefix], b.uri)
}

func (p *parser) popNS(depth int) {
	for len(p.ns) > 0 && p.ns[len(p.ns)-1].depth >= depth && depth > 0 {
		b := p.ns[len(p.ns)-1]
		p.ns = p.ns[:len(p.ns)-1]
		uris := p.inScope[b.prefix]
		p.inScope[b.prefix] = uris[:len(uris)-1]
	}
}

// lookup returns the URI prefix is bound to, from a map rather than a
// walk of every binding in scope: a file can hold thousands.
func (p *parser) lookup(prefix string) (string, bool) {
	if uris := p.inScope[prefix]; len(uris) > 0 {
		return uris[len(uris)-1], true
	}
	return "", prefix == ""
}

// nameEnd returns the end of the XML name at src[i:], or i. A name of a
// logo is ASCII: XML 1.0 allows more, but the editions disagree on which
// letters (encoding/xml keeps to the fourth), no name of the allowlist or
// of an editor's metadata needs them, and a name two readers spell alike
// is one fewer place where they could see two documents.
func (p *parser) nameEnd(i int) int {
	j := i
	for j < len(p.src) {
		c := p.src[j]
		if c < 0x80 {
			if !isNameByte(c) || j == i && (c == '-' || c == '.' || c >= '0' && c <= '9') {
				break
			}
			j++
			continue
		}
		if r, _ := utf8.DecodeRune(p.src[j:]); isNameRune(r, j == i) {
			p.fail(j, problem.XMLInvalid, "a name has the character U+%04X; the names of elements and attributes in an SVG logo are ASCII", r)
		}
		break
	}
	return j
}

// qname splits a name into prefix and local part; names are interned so
// that parsing allocates no string for the names a logo uses.
func (p *parser) qname(start, end int) (string, string) {
	b := p.src[start:end]
	c := bytes.IndexByte(b, ':')
	if c < 0 {
		return "", intern(b)
	}
	if c == 0 || c == len(b)-1 || bytes.IndexByte(b[c+1:], ':') >= 0 {
		p.syntax(start, "%q is not a valid name: a name has at most one colon, between a prefix and a local name", b)
	}
	return intern(b[:c]), intern(b[c+1:])
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isSpaceRune(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == ':' || c == '-' || c == '.'
}

// isNameRune reports whether a non-ASCII r may appear in an XML name (XML
// 1.0 fifth edition, productions 4 and 4a): nameEnd refuses it by name.
func isNameRune(r rune, first bool) bool {
	switch {
	case r >= 0xC0 && r <= 0xD6, r >= 0xD8 && r <= 0xF6, r >= 0xF8 && r <= 0x2FF, r >= 0x370 && r <= 0x37D,
		r >= 0x37F && r <= 0x1FFF, r >= 0x200C && r <= 0x200D, r >= 0x2070 && r <= 0x218F, r >= 0x2C00 && r <= 0x2FEF,
		r >= 0x3001 && r <= 0xD7FF, r >= 0xF900 && r <= 0xFDCF, r >= 0xFDF0 && r <= 0xFFFD, r >= 0x10000 && r <= 0xEFFFF:
		return true
	case !first && (r == 0xB7 || r >= 0x300 && r <= 0x36F || r >= 0x203F && r <= 0x2040):
		return true
	}
	return false
}

// interned holds the names of the allowlist and a few more, so that names
// read from files share their strings.
var interned = map[string]string{}

func intern(b []byte) string {
	if s, ok := interned[string(b)]; ok {
		return s
	}
	return string(b)
}

func internAll(names ...string) {
	for _, n := range names {
		interned[n] = n
	}
}

func init() {
	internAll("xmlns", "xlink", "xml", "href", "space", "lang", "svg")
}

// String returns a short description for debugging.
func (n *Node) String() string {
	if n.Type == TextNode {
		return fmt.Sprintf("text %q", n.Text)
	}
	return "<" + n.Name() + ">"
}

// Write writes the document as XML. Elements whose attributes did not
// change since parsing are written with their start tag's bytes as read
// (the minifier's output stays byte for byte what it wrote); everything
// else is written anew from the tree: text escaped, never as CDATA or
// comments, so an XML parser and an HTML parser read the same document.
func (d *Document) Write(w *bytes.Buffer) { d.write(w, d.Root, true) }

// WriteCanonical writes the document from the tree alone, ignoring the
// bytes it was read from: what the optimiser hands to the minifier.
func (d *Document) WriteCanonical(w *bytes.Buffer) { d.write(w, d.Root, false) }

// Bytes returns what Write writes.
func (d *Document) Bytes() []byte {
	var b bytes.Buffer
	b.Grow(len(d.Src))
	d.Write(&b)
	return b.Bytes()
}

func (d *Document) write(w *bytes.Buffer, n *Node, raw bool) {
	if n.Type == TextNode {
		escapeText(w, n.Text)
		return
	}
	empty := len(n.Children) == 0
	if tag := d.Src[n.start:n.end]; raw && !n.dirty && n.end > n.start && bytes.HasSuffix(tag, []byte("/>")) == empty {
		w.Write(tag)
	} else {
		w.WriteByte('<')
		w.WriteString(n.Name())
		for i := range n.Attrs {
			a := &n.Attrs[i]
			w.WriteByte(' ')
			w.WriteString(a.Name())
			w.WriteByte('=')
			escapeAttr(w, a.Value)
		}
		if empty {
			w.WriteString("/>")
			return
		}
		w.WriteByte('>')
	}
	if empty {
		return
	}
	for _, c := range n.Children {
		d.write(w, c, raw)
	}
	w.WriteString("</")
	w.WriteString(n.Name())
	w.WriteByte('>')
}

// escapeText writes s as character data.
func escapeText(w *bytes.Buffer, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var esc string
		switch s[i] {
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			if i < 2 || s[i-2:i] != "]]" {
				continue
			}
			esc = "&gt;"
		case '\r':
			esc = "&#13;"
		default:
			continue
		}
		w.WriteString(s[last:i])
		w.WriteString(esc)
		last = i + 1
	}
	w.WriteString(s[last:])
}

// escapeAttr writes v quoted, with the quote tdewolff's minifier would
// choose (double, unless v holds more double quotes than single ones), so
// that a value the optimiser changes is written as the minifier writes
// the others. White space characters are written as references, which
// attribute-value normalisation leaves alone.
func escapeAttr(w *bytes.Buffer, v string) {
	q, qesc := byte('"'), "&#34;"
	if strings.Count(v, `"`) > strings.Count(v, "'") {
		q, qesc = '\'', "&#39;"
	}
	w.WriteByte(q)
	last := 0
	for i := 0; i < len(v); i++ {
		var esc string
		switch c := v[i]; c {
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '\t':
			esc = "&#9;"
		case '\n':
			esc = "&#10;"
		case '\r':
			esc = "&#13;"
		case q:
			esc = qesc
		default:
			continue
		}
		w.WriteString(v[last:i])
		w.WriteString(esc)
		last = i + 1
	}
	w.WriteString(v[last:])
	w.WriteByte(q)
}
