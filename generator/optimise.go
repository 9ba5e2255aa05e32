package generator

import (
	"bytes"
	"encoding/xml"
	"errors"
	"html"
	"io"
	"strings"

	"github.com/tdewolff/minify/v2"
	"github.com/tdewolff/minify/v2/css"
	"github.com/tdewolff/minify/v2/svg"
)

// Optimiser minifies SVG files and proves each result safe before it is
// used. One Optimiser is shared by all workers; it is safe for concurrent use.
type Optimiser struct {
	m *minify.M
}

// NewOptimiser returns an Optimiser. tdewolff's minifier keeps every digit
// (precision 0): its rounding by significant digits is where minifiers
// visibly break logos. reducePrecision then rounds only within 1/8192 of
// the viewBox and keeps flat edges exact; the render test holds the result
// to no visible change.
func NewOptimiser() *Optimiser {
	m := minify.New()
	m.Add("image/svg+xml", &svg.Minifier{})
	m.Add("text/css", &css.Minifier{})
	return &Optimiser{m: m}
}

// Optimise returns the file to publish for one variant: minified, with a
// <title> naming the logo when the source has none, and checked again with
// the same rules as the input. A result that fails the checks is an error
// naming the file; one that would change the text it draws falls back to
// the unminified source, which is always safe to publish.
func (o *Optimiser) Optimise(v *VariantFile, title string) ([]byte, ProblemList) {
	rules := SVGRules{Mono: v.Variant == "icon-mono"}
	src := bytes.TrimPrefix(v.Source, bom)
	if v.Info != nil && !v.Info.HasTitle && title != "" && v.Info.RootEnd >= 2 && v.Info.RootEnd <= len(src) &&
		!bytes.HasSuffix(src[:v.Info.RootEnd], []byte("/>")) {
		src = insertTitle(src, v.Info.RootEnd, title)
	}
	var buf bytes.Buffer
	buf.Grow(len(src))
	var probs ProblemList
	if err := o.m.Minify("image/svg+xml", &buf, bytes.NewReader(src)); err != nil {
		probs.Errorf(v.Path, 0, 0, "the optimiser failed: %v", err)
		return nil, probs
	}
	out := buf.Bytes()
	if v.Info != nil {
		// Round numbers only as far as cannot be seen (precision.go).
		out = reducePrecision(out, v.Info.ViewBox)
	}
	// Only files that draw text can lose a space between words; the others
	// skip two more parses on the hot path.
	if (v.Info == nil || v.Info.HasText) && svgText(out) != svgText(src) {
		out = src
	}
	return out, verifyOutput(v.Path, out, rules)
}

// verifyOutput re-checks a file about to be written. Any failure here is a
// bug in the optimiser, not in the input, and says so.
func verifyOutput(path string, out []byte, rules SVGRules) ProblemList {
	var probs ProblemList
	if len(bytes.TrimSpace(out)) == 0 {
		probs.Errorf(path, 0, 0, "the optimised file is empty; this is a bug in logoindex: please report it with the file")
		return probs
	}
	_, p := CheckSVG(path, out, rules)
	for _, e := range p.Errors() {
		probs.Errorf(path, 0, 0, "the optimised file fails the checks (%s); this is a bug in logoindex: please report it with the file", e.Msg)
	}
	return probs
}

func insertTitle(src []byte, at int, title string) []byte {
	t := "<title>" + html.EscapeString(title) + "</title>"
	out := make([]byte, 0, len(src)+len(t))
	out = append(out, src[:at]...)
	out = append(out, t...)
	return append(out, src[at:]...)
}

// svgText returns the text an SVG draws, with white space collapsed as SVG
// collapses it by default. It is how the optimiser proves it kept words
// apart (tdewolff trims text at element boundaries: "Hello <tspan>World"
// would otherwise draw HelloWorld).
func svgText(data []byte) string {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = false
	var b strings.Builder
	skip := 0
	for {
		tok, err := d.RawToken()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				b.WriteString("\x00invalid")
			}
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if skip > 0 || t.Name.Local == "style" || t.Name.Local == "title" || t.Name.Local == "desc" || t.Name.Local == "metadata" {
				skip++
			}
		case xml.EndElement:
			if skip > 0 {
				skip--
			}
		case xml.CharData:
			if skip == 0 {
				b.Write(t)
			}
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}
