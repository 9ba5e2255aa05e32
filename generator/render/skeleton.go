package render

import (
	"bytes"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/tdewolff/minify/v2"
	"github.com/tdewolff/minify/v2/css"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxSkeletons bounds the skeletons a set keeps: past it, a page of a
// shape not kept is executed whole.
const maxSkeletons = 256

// skeleton is a template's output for one shape: parts[i] comes before
// the occurrence occ[i] of a value, and the last part after the last.
type skeleton struct {
	parts []string
	occ   []occurrence
	size  int
}

// occurrence is where a value appears in a skeleton, and how it is
// written there.
type occurrence struct {
	value int
	kind  valueKind
	funcs []string // the functions the template applied to it, in order (marked)
}

// skeletonSet keeps the skeletons of one template, by shape.
type skeletonSet struct {
	// make builds the skeleton of a shape, or returns nil when its
	// values cannot be filled in.
	make func(sh shaped) (*skeleton, error)
	mu   sync.RWMutex
	m    map[string]*skeleton
}

// get returns the skeleton of the shape named key, made on first use from
// the shaped copy that shape returns.
func (s *skeletonSet) get(key []byte, shape func() shaped) (*skeleton, error) {
	s.mu.RLock()
	sk, found := s.m[string(key)]
	s.mu.RUnlock()
	if found {
		return sk, nil
	}
	sk, err := s.make(shape())
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.m == nil {
		s.m = map[string]*skeleton{}
	}
	if len(s.m) < maxSkeletons {
		s.m[string(key)] = sk
	}
	s.mu.Unlock()
	return sk, nil
}

// htmlSkeletons renders an html/template's pages, minified, through
// skeletons: exec executes the template. A value is filled in only where
// the minifier would leave it as html/template writes it, by the context
// the skeleton puts it in (fits); a page with any other is executed and
// minified whole, by the caller.
func htmlSkeletons(m *minify.M, exec func(w io.Writer, data any) error) *skeletonSet {
	s := &skeletonSet{}
	s.make = func(sh shaped) (*skeleton, error) {
		var raw bytes.Buffer
		if err := exec(&raw, sh.data); err != nil {
			return nil, err
		}
		occ, ok := htmlContexts(raw.Bytes())
		if !ok {
			return nil, nil
		}
		var min bytes.Buffer
		if err := m.Minify("text/html", &min, &raw); err != nil {
			return nil, err
		}
		return cut(min.String(), sh, occ), nil
	}
	return s
}

// fillHTML appends what the minified page of data holds to b, and reports
// false, appending nothing, when a value of it cannot be filled in.
func (s *skeletonSet) fillHTML(b []byte, data any) ([]byte, bool, error) {
	w := walkers.Get().(*shapeWalker)
	defer walkers.Put(w)
	w.shapeOf(data, spacedInText)
	if !w.ok {
		return b, false, nil
	}
	values := w.values
	sk, err := s.get(w.key, func() shaped { sh, _ := placeholders(data, spacedInText); return sh })
	if err != nil || sk == nil {
		return b, false, err
	}
	for _, o := range sk.occ {
		if !fitsOccurrence(values[o.value], o) {
			return b, false, nil
		}
	}
	if b == nil {
		n := sk.size
		for _, o := range sk.occ {
			n += len(values[o.value]) + len(values[o.value])/8 // room for escapes
		}
		b = make([]byte, 0, n)
	}
	for i, o := range sk.occ {
		b = append(b, sk.parts[i]...)
		if len(o.funcs) > 0 { // wrapURL: fitsOccurrence allows no other
			b = appendURLParts(b, values[o.value], func(b []byte, part string) []byte { return fillIn(b, part, o.kind) })
		} else {
			b = fillIn(b, values[o.value], o.kind)
		}
	}
	return append(b, sk.parts[len(sk.occ)]...), true, nil
}

// fitsOccurrence reports whether fillHTML can write s where o is: a value
// as fitsIn says, or one the template wrote through wrapURL, in a <pre>
// or in text where each of its parts fits on its own (no space at either
// end of a part: the minifier's rules for a space beside a tag are its
// own); the minified page holds s then as wrapURL cuts it, each part as
// fillIn writes it.
func fitsOccurrence(s string, o occurrence) bool {
	switch {
	case len(o.funcs) == 0:
		return fitsIn(s, o.kind)
	case len(o.funcs) > 1 || o.funcs[0] != "wrapurl":
		return false
	case o.kind == inText:
		for part := range urlParts(s) {
			if part == "" || !fitsIn(part, inText) {
				return false
			}
		}
		return true
	}
	return o.kind == inPre
}

// spacedInText reports whether a value's placeholder needs a space: the
// minifier quotes an attribute holding it.
func spacedInText(s string) (bool, bool) {
	spaced, _ := fits(s, inText)
	return spaced, true
}

// placeholderRE finds the placeholders in a skeleton, with the functions
// a text template applied to them.
var placeholderRE = regexp.MustCompile(`Qz([0-9]+)((?::[a-z0-9]+)*)( ?)q`)

// cut cuts out, the template's output for sh, at the placeholders of occ,
// which it must hold each where occ says and in that order. It returns
// nil when it does not.
func cut(out string, sh shaped, occ []occurrence) *skeleton {
	sk := &skeleton{size: len(out)}
	for _, o := range occ {
		loc := placeholderRE.FindStringSubmatchIndex(out)
		if loc == nil {
			return nil
		}
		i, err := strconv.Atoi(out[loc[2]:loc[3]])
		if err != nil || i != o.value || i >= len(sh.values) {
			return nil
		}
		if strings.Contains(out[:loc[0]], "Qz") { // a placeholder the template changed
			return nil
		}
		sk.parts = append(sk.parts, out[:loc[0]])
		sk.occ = append(sk.occ, o)
		out = out[loc[1]:]
	}
	if strings.Contains(out, "Qz") {
		return nil
	}
	sk.parts = append(sk.parts, out)
	return sk
}

// htmlContexts lists the placeholders of a page, raw from the template, in
// order, each with the context it is in. It reports false for a context a
// value is not filled into: a script, a style, a comment, an event
// handler.
func htmlContexts(raw []byte) ([]occurrence, bool) {
	z := html.NewTokenizer(bytes.NewReader(raw))
	var occ []occurrence
	pre, svg, code := 0, 0, 0 // open <pre>, <svg>, <script> or <style>
	add := func(s string, kind func(at int) valueKind) {
		for _, loc := range placeholderRE.FindAllStringSubmatchIndex(s, -1) {
			i, _ := strconv.Atoi(s[loc[2]:loc[3]])
			occ = append(occ, occurrence{value: i, kind: kind(loc[0]), funcs: marks(s[loc[4]:loc[5]])})
		}
	}
	for {
		switch z.Next() {
		case html.ErrorToken:
			return occ, z.Err() == io.EOF
		case html.TextToken:
			if code > 0 && strings.Contains(string(z.Text()), "Qz") {
				return nil, false
			}
			kind := inText
			switch {
			case pre > 0:
				kind = inPre
			case svg > 0:
				kind = inSVG
			}
			add(string(z.Text()), func(int) valueKind { return kind })
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			inSvg := svg > 0 || tok.DataAtom == atom.Svg
			for _, a := range tok.Attr {
				if strings.HasPrefix(a.Key, "on") || a.Key == "style" {
					if strings.Contains(a.Val, "Qz") {
						return nil, false
					}
					continue
				}
				add(a.Val, func(at int) valueKind { return attrKind(a.Key, a.Val[:at], inSvg) })
			}
			if tok.Type == html.StartTagToken {
				switch tok.DataAtom {
				case atom.Pre:
					pre++
				case atom.Svg:
					svg++
				case atom.Script, atom.Style:
					code++
				}
			}
		case html.EndTagToken:
			switch tok := z.Token(); tok.DataAtom {
			case atom.Pre:
				pre--
			case atom.Svg:
				svg--
			case atom.Script, atom.Style:
				code--
			}
		case html.CommentToken:
			if strings.Contains(string(z.Text()), "Qz") {
				return nil, false
			}
		}
	}
}

// attrKind is the context of a value in the attribute key, after before.
func attrKind(key, before string, inSvg bool) valueKind {
	switch {
	case inSvg && svgColourAttrs[key]:
		return inSVGColour
	case inSvg:
		return inSVG
	case key == "srcset":
		return inSrcset
	case urlAttr(key) && strings.Contains(before, "?"):
		return inURLQuery
	case urlAttr(key):
		return inURL
	}
	return inText
}

// svgColourAttrs are the attributes whose values the SVG minifier
// shortens as colours.
var svgColourAttrs = map[string]bool{"fill": true, "stroke": true, "stop-color": true, "flood-color": true, "lighting-color": true, "color": true}

// urlAttr reports whether html/template reads the attribute key as a URL
// (its attrTypeMap and name heuristics).
func urlAttr(key string) bool {
	switch key {
	case "action", "archive", "background", "cite", "classid", "codebase", "data", "formaction", "href", "icon", "longdesc", "manifest", "poster", "profile", "src", "usemap", "xmlns":
		return true
	}
	if _, name, ok := strings.Cut(key, ":"); ok {
		key = name
	}
	key = strings.TrimPrefix(key, "data-")
	return strings.Contains(key, "src") || strings.Contains(key, "uri") || strings.Contains(key, "url")
}

// fitsIn reports whether the minified page holds s, in a context of kind,
// as fillIn writes it: fits, and for a URL html/template's filters and
// normalisers leave it as it is.
func fitsIn(s string, kind valueKind) bool {
	switch kind {
	case inURL:
		_, ok := fits(s, inText)
		return ok && plainURL(s)
	case inURLQuery:
		_, ok := fits(s, inText)
		return ok && plainQuery(s)
	case inSrcset:
		_, ok := fits(s, inText)
		return ok && plainURL(s) && !strings.ContainsAny(s, ", \t\n\f\r")
	}
	_, ok := fits(s, kind)
	return ok
}

// fillIn appends what the minified page holds for s in a context of kind.
func fillIn(b []byte, s string, kind valueKind) []byte {
	switch kind {
	case inPre:
		var w bytes.Buffer
		escapeHTMLOnto(&w, s)
		return append(b, w.Bytes()...)
	case inSVGColour:
		// The SVG minifier's colour attributes: a name where shorter,
		// else #abc for #aabbcc.
		if name, ok := css.ShortenColorHex[s]; ok {
			return append(b, name...)
		}
		if len(s) == 7 && s[1] == s[2] && s[3] == s[4] && s[5] == s[6] {
			return append(b, '#', s[1], s[3], s[5])
		}
	}
	return append(b, s...)
}

// textSkeletons renders a text/template through skeletons. exec executes
// the template with marking functions in place of its own: given a
// placeholder, a marking function returns it with its own name appended
// (placeholderRE), so that the skeleton says which functions each value
// goes through; apply applies those functions to a value.
func textSkeletons(exec func(w io.Writer, data any) error) *skeletonSet {
	s := &skeletonSet{}
	s.make = func(sh shaped) (*skeleton, error) {
		var raw bytes.Buffer
		if err := exec(&raw, sh.data); err != nil {
			return nil, err
		}
		var occ []occurrence
		for _, m := range placeholderRE.FindAllStringSubmatch(raw.String(), -1) {
			i, _ := strconv.Atoi(m[1])
			occ = append(occ, occurrence{value: i, funcs: marks(m[2])})
		}
		return cut(raw.String(), sh, occ), nil
	}
	return s
}

// fillText appends the template's output for data to b, applying to each
// value the functions the skeleton names; false when it has no skeleton.
func (s *skeletonSet) fillText(b []byte, data any, apply func(fn, v string) string) ([]byte, bool, error) {
	unspaced := func(string) (bool, bool) { return false, true }
	w := walkers.Get().(*shapeWalker)
	defer walkers.Put(w)
	w.shapeOf(data, unspaced)
	if !w.ok {
		return b, false, nil
	}
	values := w.values
	sk, err := s.get(w.key, func() shaped { sh, _ := placeholders(data, unspaced); return sh })
	if err != nil || sk == nil {
		return b, false, err
	}
	for i, o := range sk.occ {
		b = append(b, sk.parts[i]...)
		v := values[o.value]
		for _, fn := range o.funcs {
			v = apply(fn, v)
		}
		b = append(b, v...)
	}
	return append(b, sk.parts[len(sk.occ)]...), true, nil
}

// marks are the names of the functions in the marks of a placeholder
// (":jsx:indent2"), in order.
func marks(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s[1:], ":")
}

// marked reports whether s is a placeholder, with or without marks, and
// appends fn's mark to it.
func marked(s, fn string) (string, bool) {
	if m := placeholderRE.FindStringSubmatchIndex(s); m != nil && m[0] == 0 && m[1] == len(s) {
		return s[:m[5]] + ":" + fn + s[m[5]:], true
	}
	return "", false
}
