package svg

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"sync"

	svgmin "github.com/tdewolff/minify/v2/svg"
	"github.com/tdewolff/parse/v2/css"

	"logoindex/generator/internal/minifiers"
	"logoindex/generator/problem"
)

// Options configures Optimise. The zero value optimises with no title, no
// id prefix and the rules of a colour variant.
type Options struct {
	// Rules are the checks the result must pass again, as its source did.
	Rules Rules
	// Title, when not empty and the source has no <title>, is added as the
	// root's first child, so that every file has an accessible name.
	Title string
	// IDPrefix, when not empty, starts every id of the result and every
	// class its own <style> selects, so that files inlined in one page do
	// not paint with each other's gradients and clip paths. It must be
	// letters, digits, "-" and "_", starting with a letter or "_".
	IDPrefix string
	// Memo, when not nil, remembers the check and the rounding of each
	// path for the next file optimised with it (see Memo).
	Memo *Memo
}

// Result is an optimised file.
type Result struct {
	Data []byte
	// Doc is Data parsed, as the safety re-check read it: what ToJSX
	// converts, so that no step reads the file again.
	Doc  *Document
	Info *Info
	// Minified is false for a file the minifier would have changed the
	// drawn text of (it trims spaces at element boundaries, so
	// "Acme <tspan>Co." would draw AcmeCo.): it is published from the
	// checked tree without the minifier.
	Minified bool
}

// minifier is shared by every goroutine (it is safe for concurrent use).
var minifier = minifiers.New()

// Optimise parses, checks and optimises one SVG file, for callers with no
// pipeline around them (bench/). A file that fails the checks is an error
// listing its problems.
func Optimise(src []byte, opts Options) ([]byte, error) {
	d, probs := Parse("", src)
	if d == nil {
		return nil, probs
	}
	info, probs := Check(d, opts.Rules)
	if err := probs.Err(); err != nil {
		return nil, err
	}
	r, err := OptimiseDocument(d, info, opts)
	if err != nil {
		return nil, err
	}
	return r.Data, nil
}

// OptimiseDocument optimises a document Check accepted (info is what it
// returned): editor metadata and comments dropped, minified by tdewolff's
// SVG and CSS minifiers, numbers rounded as far as cannot be seen
// (round.go), ids shortened and prefixed. The result is parsed and checked
// again with opts.Rules and must draw the same text; an error here is a
// bug of the optimiser, never of the input.
func OptimiseDocument(d *Document, info *Info, opts Options) (*Result, error) {
	sc := optimisePool.Get().(*optimiseScratch)
	defer optimisePool.Put(sc)
	clean, paths := cleanXML(&sc.clean, d, info, opts.Title)
	min := &sc.min
	min.Reset()
	min.Grow(len(clean))
	if err := minifier.Minify("image/svg+xml", min, bytes.NewReader(clean)); err != nil {
		return nil, fmt.Errorf("the minifier failed: %w", err)
	}
	// What the minifier wrote is used when it passes the checks and draws
	// the same text; otherwise the clean source is, rounded and checked
	// the same way. (Its path minifier has turned "l0. 0" into a number
	// too few: FuzzInlineHTML found it.)
	if r, err := finish(d, min.Bytes(), paths, true, info, opts); err == nil && drawnText(r.Doc.Root) == drawnText(d.Root) {
		r.Minified = true
		return r, nil
	}
	return finish(d, clean, paths, false, info, opts)
}

// optimiseScratch is OptimiseDocument's buffers, kept from file to file:
// nothing it returns points into them (the result is written anew and
// parsed from its own bytes), and a build need not allocate them per file.
type optimiseScratch struct{ clean, min bytes.Buffer }

var optimisePool = sync.Pool{New: func() any { return new(optimiseScratch) }}

// finish parses what the minifier wrote (or the clean source), puts the
// path data back, rounds and renames on that tree, writes it and parses
// and checks the result. minified says that data is the minifier's, whose
// path pass then shortens what roundPrecision leaves alone.
func finish(src *Document, data []byte, paths []string, minified bool, info *Info, opts Options) (*Result, error) {
	d, probs := Parse(src.Path, data)
	if d == nil {
		return nil, fmt.Errorf("the optimised file is not well-formed (%s)", firstMessage(probs))
	}
	restored, err := restorePaths(d.Root, paths)
	if err != nil {
		return nil, err
	}
	roundPrecision(d.Root, info.ViewBox, opts.Memo)
	// Path data roundPrecision left as it was is shortened by the
	// minifier's path pass, which cleanXML kept it from.
	// A new pass for each path: one keeps the last curve's control
	// point from path to path.
	if minified {
		for _, r := range restored {
			for i, a := range r.node.Attrs {
				if a.Space == "" && a.Local == "d" && a.Value == paths[r.index] {
					r.node.SetAttr(i, string(svgmin.NewPathData(&svgmin.Minifier{}).ShortenPathData([]byte(a.Value))))
				}
			}
		}
	}
	renameIDs(d, opts.IDPrefix)
	dropInert(d)
	out := d.Bytes()
	final, probs := Parse(src.Path, out)
	if final == nil {
		return nil, fmt.Errorf("the optimised file is not well-formed (%s)", firstMessage(probs))
	}
	finalInfo, probs := checkWithin(final, opts.Rules, opts.Memo, 2*MaxResolveSteps)
	if err := probs.Errors(); len(err) > 0 {
		return nil, fmt.Errorf("the optimised file fails the checks (%s)", firstMessage(err))
	}
	return &Result{Data: out, Doc: final, Info: finalInfo}, nil
}

func firstMessage(l problem.List) string {
	if len(l) == 0 {
		return "no message"
	}
	p := l[0]
	return fmt.Sprintf("%d:%d: %s", p.Line, p.Col, p.Msg)
}

// pathRef is the attribute cleanXML writes for a path's d: the index of
// its value in the list it returns. It is no attribute a logo may have,
// so no source holds it (Check refuses it), and the minifier passes it
// through as it is.
const pathRef = "logoindex-d"

// restoredPath is a d attribute restorePaths put back.
type restoredPath struct {
	node  *Node
	index int // in paths
}

// restorePaths turns every pathRef attribute under root back into the d
// it stands for.
func restorePaths(root *Node, paths []string) ([]restoredPath, error) {
	var out []restoredPath
	var err error
	var walk func(n *Node)
	walk = func(n *Node) {
		for i := range n.Attrs {
			if a := &n.Attrs[i]; a.Space == "" && a.Local == pathRef {
				k, e := strconv.Atoi(a.Value)
				if e != nil || k < 0 || k >= len(paths) {
					err = fmt.Errorf("the optimised file has %s=%q", pathRef, a.Value)
					return
				}
				a.Local = "d"
				n.SetAttr(i, paths[k])
				n.dirty = true
				out = append(out, restoredPath{node: n, index: k})
			}
		}
		for _, c := range n.Children {
			if c.Type == ElementNode {
				walk(c)
			}
		}
	}
	walk(root)
	return out, err
}

// cleanXML writes the document as the minifier is to read it: the tree
// Check checked, never the bytes it came from, without editor metadata,
// and with a <title> when the source has none. Each path's d is written
// as a pathRef to its value in paths: roundPath rewrites path data whole
// (pathdata.go), so the minifier need not parse it a second time.
func cleanXML(b *bytes.Buffer, d *Document, info *Info, title string) ([]byte, []string) {
	var paths []string
	b.Reset()
	b.Grow(len(d.Src) + len(title) + 16)
	var walk func(n *Node)
	walk = func(n *Node) {
		if n.Type == TextNode {
			// White space between elements draws nothing, but in text.
			if keepsSpace[n.Parent.Local] || strings.TrimSpace(n.Text) != "" {
				escapeText(b, n.Text)
			}
			return
		}
		if editorNamespaces[n.Space] || n.IsSVG("metadata") {
			return
		}
		b.WriteByte('<')
		b.WriteString(n.Name())
		for i := range n.Attrs {
			a := &n.Attrs[i]
			if editorNamespaces[a.Space] || a.Space == NSXMLNS && editorNamespaces[a.Value] {
				continue
			}
			b.WriteByte(' ')
			if a.Space == "" && a.Local == "d" && n.IsSVG("path") {
				b.WriteString(pathRef + `="` + strconv.Itoa(len(paths)) + `"`)
				paths = append(paths, a.Value)
				continue
			}
			b.WriteString(a.Name())
			b.WriteByte('=')
			escapeAttr(b, a.Value)
		}
		addTitle := n == d.Root && !info.HasTitle && title != ""
		if len(n.Children) == 0 && !addTitle {
			b.WriteString("/>")
			return
		}
		b.WriteByte('>')
		if addTitle {
			b.WriteString("<title>")
			escapeText(b, title)
			b.WriteString("</title>")
		}
		for _, k := range n.Children {
			walk(k)
		}
		b.WriteString("</")
		b.WriteString(n.Name())
		b.WriteByte('>')
	}
	walk(d.Root)
	return b.Bytes(), paths
}

// keepsSpace are the elements whose white space is text.
var keepsSpace = toSet("text tspan textPath title desc style")

// drawnText returns the text a document draws, white space collapsed as
// SVG collapses it by default: what the optimiser must not change.
func drawnText(root *Node) string {
	var b strings.Builder
	var walk func(n *Node)
	walk = func(n *Node) {
		if n.Type == TextNode {
			b.WriteString(n.Text)
			return
		}
		switch n.Local {
		case "style", "title", "desc", "metadata":
			return
		}
		for _, k := range n.Children {
			walk(k)
		}
	}
	walk(root)
	return strings.Join(strings.Fields(b.String()), " ")
}

// idListAttrs hold space-separated lists of ids.
var idListAttrs = toSet("aria-labelledby aria-describedby aria-controls aria-owns aria-flowto aria-details aria-errormessage aria-activedescendant")

// renameIDs gives every id that something in the document refers to a
// short name in document order (a, b, ... z, A ... Z, aa ...), after
// prefix, and rewrites every reference to it: href, url() in attributes
// and CSS, #id selectors and aria id lists. Ids nothing refers to are
// removed. With a prefix, the classes the document's own <style> selects
// are prefixed too, in the class attributes and the selectors.
func renameIDs(d *Document, prefix string) {
	refs, classes, styled := collectRefs(d)
	dropDeadHrefs(d, refs)
	ids := shortenIDs(d, refs, prefix)
	if prefix == "" {
		classes = nil
	}
	if len(ids) == 0 && len(classes) == 0 {
		return
	}
	classOf := func(s string) (string, bool) {
		if classes[s] {
			return prefix + s, true
		}
		return "", false
	}
	if !styled || prefix == "" {
		classOf = nil
	}
	rewriteRefs(d, ids, classOf)
}

// collectRefs returns the ids something in d refers to (href, id lists,
// url() in attributes and CSS, #id selectors), the classes d's own
// stylesheets select, and whether d has a <style>.
func collectRefs(d *Document) (refs, classes map[string]bool, styled bool) {
	refs, classes = map[string]bool{}, map[string]bool{}
	walkElements(d.Root, func(n *Node) {
		for _, a := range n.Attrs {
			switch {
			case a.Local == "href" && (a.Space == "" || a.Space == NSXLink):
				if v := strings.TrimSpace(a.Value); strings.HasPrefix(v, "#") {
					refs[v[1:]] = true
				}
			case a.Space == "" && idListAttrs[a.Local]:
				for _, id := range strings.Fields(a.Value) {
					refs[id] = true
				}
			case a.Space == "" && hasURL(a.Value):
				for _, id := range urlRefs(a.Value) {
					refs[id] = true
				}
			}
		}
		if n.IsSVG("style") {
			styled = true
			for _, k := range n.Children {
				collectStyleRefs(k.Text, refs, classes)
			}
		}
	})
	return refs, classes, styled
}

// collectStyleRefs adds to refs the ids a stylesheet names (in selectors
// and url()), and to classes the classes its selectors name.
func collectStyleRefs(css string, refs, classes map[string]bool) {
	rules, _ := readStylesheet(css)
	for _, r := range rules {
		for _, s := range r.selectors {
			for _, cp := range s.compounds {
				for _, id := range cp.ids {
					refs[id.name] = true
				}
				for _, c := range cp.classes {
					classes[c.name] = true
				}
			}
		}
	}
	for _, id := range urlRefs(css) {
		refs[id] = true
	}
}

// dropDeadHrefs removes an href that leads nowhere, or that its element
// does not use, since it draws nothing (inline in a page, the id could be
// one of the page's), and a <use> with it, unless something names the
// <use>'s id.
func dropDeadHrefs(d *Document, refs map[string]bool) {
	exists := map[string]bool{}
	walkElements(d.Root, func(n *Node) {
		if id, ok := n.Attr("id"); ok {
			exists[id] = true
		}
	})
	var dropped []*Node
	walkElements(d.Root, func(n *Node) {
		for i := 0; i < len(n.Attrs); i++ {
			a := n.Attrs[i]
			if a.Local != "href" || a.Space != "" && a.Space != NSXLink {
				continue
			}
			_, uses := refTargets[n.Local]
			if v := strings.TrimSpace(a.Value); uses && strings.HasPrefix(v, "#") && exists[v[1:]] {
				continue
			}
			if id, ok := n.Attr("id"); n.Local == "use" && (!ok || !refs[id]) {
				dropped = append(dropped, n)
			}
			n.RemoveAttr(i)
			i--
		}
	})
	for _, n := range dropped {
		p := n.Parent
		for i, k := range p.Children {
			if k == n {
				p.Children = append(p.Children[:i], p.Children[i+1:]...)
				p.dirty = true
				break
			}
		}
	}
}

// shortenIDs removes the ids nothing refers to and gives each other id a
// short name after prefix, in document order, returning old name to new.
func shortenIDs(d *Document, refs map[string]bool, prefix string) map[string]string {
	ids := map[string]string{}
	walkElements(d.Root, func(n *Node) {
		for i := 0; i < len(n.Attrs); i++ {
			if a := &n.Attrs[i]; a.Space == "" && a.Local == "id" {
				if !refs[a.Value] {
					n.RemoveAttr(i)
					i--
					continue
				}
				if _, dup := ids[a.Value]; !dup {
					ids[a.Value] = prefix + shortName(len(ids))
				}
				n.SetAttr(i, ids[a.Value])
			}
		}
	})
	return ids
}

// rewriteRefs rewrites every reference to a renamed id in d (href, id
// lists, url() and the stylesheets), and, when classOf is not nil, every
// class in class attributes and selectors that classOf renames.
func rewriteRefs(d *Document, ids map[string]string, classOf func(string) (string, bool)) {
	idOf := func(s string) (string, bool) { v, ok := ids[s]; return v, ok }
	walkElements(d.Root, func(n *Node) {
		for i := range n.Attrs {
			a := n.Attrs[i]
			switch {
			case a.Local == "href" && (a.Space == "" || a.Space == NSXLink):
				if v := strings.TrimSpace(a.Value); strings.HasPrefix(v, "#") {
					if nv, ok := ids[v[1:]]; ok {
						n.SetAttr(i, "#"+nv)
					}
				}
			case a.Space != "":
			case idListAttrs[a.Local]:
				n.SetAttr(i, renameFields(a.Value, idOf))
			case a.Local == "class" && classOf != nil:
				n.SetAttr(i, renameFields(a.Value, classOf))
			case hasURL(a.Value):
				n.SetAttr(i, rewriteCSS(a.Value, false, idOf, nil))
			}
		}
		if n.IsSVG("style") {
			for _, k := range n.Children {
				if k.Type == TextNode {
					k.Text = rewriteCSS(k.Text, true, idOf, classOf)
				}
			}
		}
	})
}

// renameFields renames each space-separated name in v that rename knows,
// and joins them with single spaces.
func renameFields(v string, rename func(string) (string, bool)) string {
	f := strings.Fields(v)
	for k, s := range f {
		if nv, ok := rename(s); ok {
			f[k] = nv
		}
	}
	return strings.Join(f, " ")
}

// dropInert removes what design tools write and no renderer draws, once
// renameIDs has removed the ids nothing refers to: the root's overflow
// attribute (a page would draw what lies outside the viewBox, an image
// does not); enable-background, in a style attribute too (no browser
// implements it; roundPrecision removes the attribute); and the empty
// groups removableGroup allows, which may have had an id until then.
func dropInert(d *Document) {
	styled := hasElement(d.Root, "style")
	for i, a := range d.Root.Attrs {
		if a.Space == "" && a.Local == "overflow" {
			d.Root.RemoveAttr(i) // checkRootStyle's warning says so
			break
		}
	}
	var walk func(n *Node)
	walk = func(n *Node) {
		for i := 0; i < len(n.Attrs); i++ {
			a := &n.Attrs[i]
			switch {
			case a.Space != "":
			case a.Local == "enable-background":
				n.RemoveAttr(i)
				i--
			case a.Local == "style" && containsFold(a.Value, "enable-background"):
				if v := withoutDecl(a.Value, "enable-background"); v != "" {
					n.SetAttr(i, v)
				} else {
					n.RemoveAttr(i)
					i--
				}
			}
		}
		kids := n.Children[:0]
		for _, k := range n.Children {
			if k.Type == ElementNode {
				walk(k)
				if removableGroup(k, styled) {
					continue
				}
			}
			kids = append(kids, k)
		}
		clear(n.Children[len(kids):])
		n.Children = kids
	}
	walk(d.Root)
}

// removableGroup reports whether n is a <g> with nothing in it that draws
// nothing and that nothing can refer to: it has no id, no filter (which can
// draw a region of its own), no class a <style> (styled) may give a filter,
// and it is not a pattern's only content, without which the pattern would
// take the content of the pattern its href names.
func removableGroup(n *Node, styled bool) bool {
	if !n.IsSVG("g") || !isEmpty(n) || n.Parent != nil && n.Parent.IsSVG("pattern") {
		return false
	}
	for _, a := range n.Attrs {
		switch {
		case a.Space != "":
		case a.Local == "id" || a.Local == "filter":
			return false
		case a.Local == "class" && styled:
			return false
		case a.Local == "style" && containsFold(a.Value, "filter"):
			return false
		}
	}
	return true
}

// withoutDecl returns a style attribute without its declarations of prop,
// the others written back as they were read.
func withoutDecl(style, prop string) string {
	decls, _ := readDeclarations(style)
	var parts []string
	for _, d := range decls {
		if d.prop == prop {
			continue
		}
		v := d.prop + ":" + cssText(d.value)
		if d.important {
			v += "!important"
		}
		parts = append(parts, v)
	}
	return strings.Join(parts, ";")
}

// shortName returns the i-th short id: a ... z, A ... Z, aa, ab ...
func shortName(i int) string {
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	var b []byte
	for {
		b = append(b, letters[i%len(letters)])
		i = i/len(letters) - 1
		if i < 0 {
			break
		}
	}
	for l, r := 0, len(b)-1; l < r; l, r = l+1, r-1 {
		b[l], b[r] = b[r], b[l]
	}
	return string(b)
}

// rewriteCSS renames the ids of url(#id) references in CSS text and, in a
// stylesheet, the #id and .class names of its selectors, at any depth of
// @media. Everything else is written back as read, but for comments,
// which are dropped.
func rewriteCSS(text string, sheet bool, id, class func(string) (string, bool)) string {
	toks, _ := lexCSS(text)
	var b strings.Builder
	// blocks holds, for each block open, whether it holds rules (an
	// @media block) rather than declarations; selectors are read outside
	// any block and in blocks of rules, up to the block they select for.
	var blocks []bool
	atRule, media := false, false // reading an at-rule's prelude; it is @media
	// write writes toks; in the arguments of a function (top false) they
	// are part of a selector as the function is (inSelector).
	var write func(toks []cssToken, top, inSelector bool)
	write = func(toks []cssToken, top, inSelector bool) {
		for i := 0; i < len(toks); i++ {
			t := toks[i]
			selector := inSelector
			if top {
				selector = sheet && !atRule && (len(blocks) == 0 || blocks[len(blocks)-1])
			}
			switch {
			case t.tt == css.URLToken:
				// Only the id changes: quotes and spaces stay as written.
				if ref := urlTarget(t); strings.HasPrefix(ref, "#") {
					if nv, ok := id(ref[1:]); ok {
						i := strings.Index(t.data, ref)
						b.WriteString(t.data[:i+1] + nv + t.data[i+len(ref):])
						continue
					}
				}
			case selector && t.tt == css.HashToken:
				if nv, ok := id(t.data[1:]); ok {
					b.WriteString("#" + nv)
					continue
				}
			case selector && class != nil && t.tt == css.DelimToken && t.data == "." && i+1 < len(toks) && toks[i+1].tt == css.IdentToken:
				if nv, ok := class(toks[i+1].data); ok {
					b.WriteString("." + nv)
					i++
					continue
				}
			case !top:
			case t.tt == css.AtKeywordToken && (len(blocks) == 0 || blocks[len(blocks)-1]):
				atRule, media = true, strings.EqualFold(t.data, "@media")
			case t.tt == css.LeftBraceToken:
				blocks = append(blocks, atRule && media)
				atRule = false
			case t.tt == css.SemicolonToken && atRule:
				atRule = false
			case t.tt == css.RightBraceToken && len(blocks) > 0:
				blocks = blocks[:len(blocks)-1]
			}
			b.WriteString(t.data)
			if t.tt == css.FunctionToken {
				write(t.args, false, selector)
				b.WriteByte(')')
			}
		}
	}
	write(toks, true, false)
	return b.String()
}
