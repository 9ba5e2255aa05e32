package svg

import (
	"strings"

	"github.com/tdewolff/parse/v2/css"

	"logoindex/generator/problem"
)

// A logo's styles must stay inside the logo. Its files are meant to be
// inlined in pages (Copy SVG, the CDN file pasted in, the React
// components), and a <style> inside an inline SVG applies to the whole
// page, as the root's own box takes part in the page's layout. So:
//
//   - every selector is anchored at a class or id of the file: the
//     optimiser prefixes those with a prefix no other logo or variant can
//     produce (Options.IDPrefix), so that the selector, or the compound
//     the rest of it descends from, matches elements of this file only;
//   - an id a selector names must be one the file defines, or it would
//     select the page's element of that id;
//   - the root <svg> may not be moved, resized or made to paint outside
//     its box: no transform, no overflow but hidden, no display, no filter
//     that spreads, no font size behind a size in em.

// selectorID is an id a selector names, checked once every id is known.
type selectorID struct {
	name string
	pos  problem.Pos
}

// scopeSelector checks that a selector of a <style> selects within the
// logo: by a class or an id of the file, which the optimiser prefixes, in
// any of its compounds (".st0 path" selects the paths under the file's
// own .st0), and names only elements a logo can hold.
func (c *checker) scopeSelector(s cssSelector, at func(int) problem.Pos) {
	anchored := false
	for _, cp := range s.compounds {
		anchored = anchored || len(cp.ids) > 0 || len(cp.classes) > 0
		if cp.typ != "" && cp.typ != "*" && !allowedElement(cp.typ) {
			c.errorf(at(s.off), problem.SVGCSSNotAllowed, "<style>: the selector names <%s>, which a logo cannot hold", cp.typ)
		}
		for _, id := range cp.ids {
			c.selectorIDs = append(c.selectorIDs, selectorID{id.name, at(id.off)})
		}
		c.info.Names += len(cp.ids) + len(cp.classes)
	}
	if !anchored {
		c.errorf(at(s.off), problem.SVGCSSNotAllowed, "<style>: the selector %q selects by element names only, so inlined in a page it would style the page around the logo too; select by a class or id of this file, for example .st0 or .st0 %s", selectorText(s), selectorText(s))
	}
}

// checkSelectorIDs refuses the ids that selectors name and no element of
// the file has.
func (c *checker) checkSelectorIDs() {
	for _, id := range c.selectorIDs {
		if c.ids[id.name] == nil {
			c.errorf(id.pos, problem.SVGCSSNotAllowed, "<style>: the selector names #%s, which no element of this file has: inlined in a page it would select the page's element with that id; give an element of the logo id=%q or remove the selector", id.name, id.name)
		}
	}
}

// selectorText writes a selector back, for messages.
func selectorText(s cssSelector) string {
	var b strings.Builder
	for i, cp := range s.compounds {
		if i > 0 {
			b.WriteString(map[bool]string{true: " > ", false: " "}[s.child[i-1]])
		}
		b.WriteString(cp.typ)
		for _, id := range cp.ids {
			b.WriteString("#" + id.name)
		}
		for _, cl := range cp.classes {
			b.WriteString("." + cl.name)
		}
	}
	return truncate(b.String(), 60)
}

// checkRootStyle refuses what would move the root <svg>, resize it or let
// it paint outside its box in a page: by attribute, style attribute or a
// <style> rule that matches the root, under any @media condition.
func (c *checker) checkRootStyle() {
	root := c.d.Root
	for i := range root.Attrs {
		if a := &root.Attrs[i]; a.Space == "" && a.Local == "transform" {
			c.errorf(c.d.AttrPos(a), problem.SVGRootStyle, "transform on the root <svg> moves the logo over the page around it when it is inlined; put the transform on a <g> around the content")
		}
	}
	for _, d := range c.decls[root] {
		if d.prop == "overflow" && d.origin == originAttr {
			// Illustrator's SVG Tiny export writes overflow="visible":
			// dropped (dropInert), it cannot reach a page.
			if v := strings.ToLower(strings.TrimSpace(d.text)); v != "hidden" && v != "clip" {
				c.warnf(d.pos, problem.SVGRootOverflow, "overflow=%q on the root <svg> is dropped from the published file, which is clipped to its viewBox; remove it, and keep the artwork inside the viewBox", d.text)
			}
			continue
		}
		if why := rootRefusal(d.prop, d.text, root); why != "" {
			c.errorf(d.pos, problem.SVGRootStyle, "%s on the root <svg> %s", d.prop, why)
		}
	}
}

// rootRefusal says why property prop with value v may not style the root
// <svg>, or returns "".
func rootRefusal(prop, v string, root *Node) string {
	for _, vendor := range []string{"-webkit-", "-moz-", "-ms-", "-o-"} {
		prop = strings.TrimPrefix(prop, vendor)
	}
	v = strings.ToLower(strings.TrimSpace(v))
	switch prop {
	case "transform":
		return "moves the logo over the page around it when it is inlined; put the transform on a <g> around the content"
	case "overflow":
		if v != "hidden" && v != "clip" {
			return "lets whatever is drawn outside the viewBox paint over the page around the logo when it is inlined; remove it"
		}
	case "clip":
		if v != "auto" {
			return "changes the box the logo is clipped to, so it can paint over the page around it; remove it"
		}
	case "display":
		return "changes how the page around the logo is laid out when it is inlined; remove it"
	case "filter":
		if strings.Contains(v, "blur(") || strings.Contains(v, "drop-shadow(") || strings.Contains(v, "url(") {
			return "paints outside the logo's box, over the page around it, when it is inlined; put the filter on a <g> around the content"
		}
	case "font", "font-size", "font-size-adjust":
		return "sets the em that a page sizes inline icons in (width: 1em), so it resizes the logo's box in the page; put it on the <text> or a <g> around it"
	case "flex":
		// flex: none, which lobehub's icons have, keeps the box as its
		// width and height make it; any other value can grow it.
		if v != "none" {
			return "lets the logo's box grow or shrink in the layout of the page around it when it is inlined; remove it, or write flex: none"
		}
	case "inline-size", "writing-mode":
		return "changes the size of the logo's box in the layout of the page around it when it is inlined; remove it, or put writing-mode on the <text>"
	case "line-height":
		if sizedBy(root, "lh") {
			return "sets the size of the lh its width or height is given in, so it resizes the logo's box in the page; remove it, or give the size in other units"
		}
	}
	return ""
}

// sizedBy reports whether the root's width or height is in one of units.
func sizedBy(root *Node, units ...string) bool {
	for _, name := range []string{"width", "height"} {
		v, ok := root.Attr(name)
		if !ok {
			continue
		}
		toks, _ := lexCSS(strings.TrimSpace(v))
		for _, t := range toks {
			if t.tt != css.DimensionToken {
				continue
			}
			i := len(t.data)
			for i > 0 && ('a' <= lowerASCII(t.data[i-1]) && lowerASCII(t.data[i-1]) <= 'z') {
				i--
			}
			unit := strings.ToLower(t.data[i:])
			for _, u := range units {
				if unit == u {
					return true
				}
			}
		}
	}
	return false
}
