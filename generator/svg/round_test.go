package svg

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var vb24 = [4]float64{0, 0, 24, 24}

func svg24(body string) string {
	return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">` + body + `</svg>`
}

func TestReducePrecision(t *testing.T) {
	tests := []struct {
		name, in, want string
		viewBox        [4]float64
	}{
		{
			// tol 24/8192: 5.00149 -> 5, but the flat line keeps y 9.00251.
			name: "sloped lines round both axes; flat ones keep their height",
			in:   svg24(`<path d="M1.00049 1.00049L5.00149 9.00251L9.00149 9.00251"/>`),
			want: svg24(`<path d="m1 1 4 8.00251h4"/>`),
		},
		{
			// The minifier's path pass drops them too; a line that starts
			// a subpath may be a dot, with round caps.
			name: "lines of no length go, but where a subpath starts",
			in:   svg24(`<path d="M2 2L10 2L10 2L10 10L10 10ZL2 2M5 5L5 5"/>`),
			want: svg24(`<path d="m2 2h8v8zh0m3 3h0"/>`),
		},
		{
			name: "a curve after a dropped line reflects the curve before it",
			in:   svg24(`<path d="M0 12Q3 6 6 12L6 12Q9 18 12 12L12 12Q16 0 20 12"/>`),
			want: svg24(`<path d="m0 12q3-6 6 0t6 0q4-12 8 0"/>`),
		},
		{
			name: "relative data rounded on absolute positions, so errors do not add up",
			in:   svg24(`<path d="M0 0l1.0012 1.0012 1.0012 1.0012 1.0012 1.0012"/>`),
			want: svg24(`<path d="m0 0 1 1 1 1 1.004 1.004"/>`),
		},
		{
			name:    "shapes round horizontally within half the tolerance; viewBox and root size untouched",
			in:      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 128.123 128.123" width="128.123"><rect x="1.234" y="2.25" width="10.0001" height="3.96" rx="0.44"/><circle cx="3.333" cy="4.444" r="5.555"/><line x1=".123" y1="0" x2="9.99" y2="9.94" stroke="#000" stroke-width="1.234"/><polygon points="1.11,2.22 3.33,4.44 5.55,6.66"/></svg>`,
			viewBox: [4]float64{0, 0, 128.123, 128.123},
			want:    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 128.123 128.123" width="128.123"><rect x="1.23" y="2.25" width="10" height="3.96" rx="0.44"/><circle cx="3.33" cy="4.444" r="5.555"/><line x1=".12" y1="0" x2="9.99" y2="9.94" stroke="#000" stroke-width="1.234"/><polygon points="1.1 2.22 3.33 4.44 5.55 6.66"/></svg>`,
		},
		{
			name: "a scaled group keeps the decimals its scale needs",
			in:   svg24(`<g transform="scale(10)"><path d="M1.23456 1.23456H2.34567"/></g>`),
			want: svg24(`<g transform="scale(10)"><path d="m1.2346 1.23456h1.111"/></g>`),
		},
		{
			name: "a shrunk group needs fewer",
			in:   svg24(`<g transform="matrix(.1 0 0 -.1 0 24)"><path d="M123.456 10.04L200.55 99.99"/></g>`),
			want: svg24(`<g transform="matrix(.1 0 0 -.1 0 24)"><path d="m123.46 10.04 77.1 89.95"/></g>`),
		},
		{
			name: "an unreadable transform stops rounding below it",
			in:   svg24(`<g transform="scale(var(--s))"><path d="M1.23456 1.23456H2.34567"/></g><path d="M1.23456 1.23456H2.34567"/>`),
			want: svg24(`<g transform="scale(var(--s))"><path d="M1.23456 1.23456H2.34567"/></g><path d="m1.235 1.23456h1.11"/>`),
		},
		{
			name: "gradients, bounding-box clips, patterns, text and nested viewports are left alone",
			in: svg24(`<linearGradient id="a" x1=".123456" x2=".654321" gradientTransform="rotate(45)"><stop offset=".33333"/></linearGradient>` +
				`<clipPath id="c" clipPathUnits="objectBoundingBox"><rect width=".33333" height=".5555"/></clipPath>` +
				`<pattern id="p" width="1.23456" height="1.23456"><rect width=".61728" height=".61728"/></pattern>` +
				`<text x="1.23456" y="2.34567">Hi</text><svg viewBox="0 0 1 1" width="5.55555"><path d="M.123456 .123456H.5"/></svg>` +
				`<path fill="url(#a)" clip-path="url(#c)" d="M1.23456 1.23456H2.34567"/>`),
			want: svg24(`<linearGradient id="a" x1=".123456" x2=".654321" gradientTransform="rotate(45)"><stop offset=".33333"/></linearGradient>` +
				`<clipPath id="c" clipPathUnits="objectBoundingBox"><rect width=".33333" height=".5555"/></clipPath>` +
				`<pattern id="p" width="1.23456" height="1.23456"><rect width=".61728" height=".61728"/></pattern>` +
				`<text x="1.23456" y="2.34567">Hi</text><svg viewBox="0 0 1 1" width="5.55555"><path d="M.123456 .123456H.5"/></svg>` +
				`<path fill="url(#a)" clip-path="url(#c)" d="m1.235 1.23456h1.11"/>`),
		},
		{
			name: "content drawn through use is bounded by the largest scale in the file",
			in:   svg24(`<defs><path id="p" d="M1.23456 1.23456H2.34567"/></defs><use href="#p" x="1.23456" transform="scale(10)"/>`),
			want: svg24(`<defs><path id="p" d="m1.2346 1.23456h1.111"/></defs><use href="#p" x="1.2346" transform="scale(10)"/>`),
		},
		{
			name: "markers depend on directions: nothing is rounded",
			in:   svg24(`<marker id="m"><path d="M0 0h1"/></marker><path marker-end="url(#m)" d="M1.23456 1.23456H2.34567"/>`),
			want: svg24(`<marker id="m"><path d="M0 0h1"/></marker><path marker-end="url(#m)" d="M1.23456 1.23456H2.34567"/>`),
		},
		{
			name: "empty groups go, kept with an id or in a switch; title, desc, role and ids stay",
			in: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" role="img"><title>T</title><desc>D</desc>` +
				`<g><g> </g></g><g id="keep"/><defs></defs><switch><g/><path d="M0 0h1"/></switch><path id="x" d="M0 0h1"/></svg>`,
			want: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" role="img"><title>T</title><desc>D</desc>` +
				`<g id="keep"/><switch><g/><path d="M0 0h1"/></switch><path id="x" d="M0 0h1"/></svg>`,
		},
		{
			name: "defaults go where an ancestor sets the same value or they are not inherited",
			in: svg24(`<g fill-rule="nonzero" stroke="none"><path fill-rule="nonzero" stroke="none" opacity="1" display="inline" d="M0 0h1"/></g>` +
				`<g fill-rule="evenodd"><path fill-rule="nonzero" d="M0 0h1"/></g><path stroke="none" d="M0 0h1"/>`),
			want: svg24(`<g fill-rule="nonzero" stroke="none"><path d="M0 0h1"/></g>` +
				`<g fill-rule="evenodd"><path fill-rule="nonzero" d="M0 0h1"/></g><path stroke="none" d="M0 0h1"/>`),
		},
		{
			name: "a <style> element may select anything: defaults and data attributes stay",
			in:   svg24(`<style>[data-n]{fill:red}</style><g opacity="1"><path data-n="a" d="M0 0h1"/></g>`),
			want: svg24(`<style>[data-n]{fill:red}</style><g opacity="1"><path data-n="a" d="M0 0h1"/></g>`),
		},
		{
			name: "editor leftovers and an unused xlink namespace go",
			in:   `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 24 24" enable-background="new 0 0 24 24"><path data-name="Layer 1" style="" d="M0 0h1"/></svg>`,
			want: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M0 0h1"/></svg>`,
		},
		{
			name: "a used xlink namespace stays",
			in:   `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 24 24"><path id="p" d="M0 0h1"/><use xlink:href="#p"/></svg>`,
			want: `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 24 24"><path id="p" d="M0 0h1"/><use xlink:href="#p"/></svg>`,
		},
		{
			name: "smooth curves stay smooth",
			in:   svg24(`<path d="M1.11111 1.11111C2.22222 4.22222 3.33333 6.22222 4.44444 8.11111S6.96666 12.5 7.77777 14.11111"/>`),
			want: svg24(`<path d="m1.11 1.11c1.11 3.11 2.223 5.112 3.334 7.001s2.52 4.39 3.334 6"/>`),
		},
		{
			name: "curves that are lines or quadratics become them",
			in:   svg24(`<path d="M0 0C1 2 2 4 3 6C5 8 7 8 9 6"/>`),
			want: svg24(`<path d="m0 0 3 6q3 3 6 0"/>`),
		},
		{
			name: "a large arc keeps its numbers; a circle's rotation is 0; flags written without spaces, as tdewolff writes them",
			in:   svg24(`<path d="M2.0001 12A10.00001 10.00001 45 1 0 22 12.0001"/>`),
			want: svg24(`<path d="m2.0001 12A10.00001 10.00001 0 1022 12.0001"/>`),
		},
		{
			name: "a small arc takes rounded radii",
			in:   svg24(`<path d="M12 12a.0512345 .0512345 0 0 1 .1 0"/>`),
			want: svg24(`<path d="m12 12a.051.051 0 01.1 0"/>`),
		},
		{
			name: "path data with an error is left as it is",
			in:   svg24(`<path d="M1.23456 1.23456L2.34567"/>`),
			want: svg24(`<path d="M1.23456 1.23456L2.34567"/>`),
		},
		{
			name: "numbers with units are left as they are",
			in:   svg24(`<rect width="1.23456px" height="50%" x="1.23456"/>`),
			want: svg24(`<rect width="1.23456px" height="50%" x="1.235"/>`),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vb := tt.viewBox
			if vb == ([4]float64{}) {
				vb = vb24
			}
			got := string(reducePrecision([]byte(tt.in), vb))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("reducePrecision (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReducePrecisionMovesLittle draws random paths of every command, in
// both cases, and checks that every sampled point of every segment moves
// by at most one grid step on each axis.
func TestReducePrecisionMovesLittle(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, side := range []float64{1, 24, 128, 1000, 40000} {
		tol := side / precisionDivisor
		r := newRounder(tol)
		shorter := 0
		for range 400 {
			d := randomPath(rng, side)
			got, ok := roundPath(d, r, false)
			if !ok {
				t.Fatalf("side %g: %q not rounded", side, d)
			}
			a, _ := parsePath(d)
			b, ok := parsePath(got)
			if !ok || len(a) != len(b) {
				t.Fatalf("side %g: %q rounded to %q, which reads as %d segments, not %d", side, d, got, len(b), len(a))
			}
			if worst := maxMove(a, b); worst > tol*(1+1e-9) {
				t.Fatalf("side %g: %q rounded to %q moves a point by %g > %g", side, d, got, worst, tol)
			}
			flatEnd, flatCtl, _, _ := flatPoints(a, tol)
			eps := 1e-9 * side // float sums of the written decimals
			for i := range a {
				moved := math.Abs(a[i].end().y-b[i].end().y) > eps
				for k := range 2 {
					if flatCtl[i] && (a[i].cmd == 'C' || a[i].cmd == 'Q' && k == 0) {
						moved = moved || math.Abs(a[i].p[k].y-b[i].p[k].y) > eps
					}
				}
				if flatEnd[i] && moved || a[i].cmd == 'A' && a[i].arc != b[i].arc && a[i].arc[0] != a[i].arc[1] {
					t.Fatalf("side %g: %q rounded to %q moves flat segment %d (%c) up or down", side, d, got, i, a[i].cmd)
				}
			}
			if len(got) < len(d) { // longer results are dropped by the caller
				shorter++
			}
		}
		if shorter < 300 {
			t.Errorf("side %g: only %d of 400 paths got shorter", side, shorter)
		}
	}
}

func randomPath(rng *rand.Rand, side float64) string {
	num := func(scale float64) string {
		return fixedString(int64(math.Round(rng.Float64()*scale*1e6)), 6)
	}
	coord := func() string { return num(side) }
	var b strings.Builder
	b.WriteString("M" + coord() + " " + coord())
	for range 1 + rng.IntN(12) {
		c := "MLHVCSQTAZ"[rng.IntN(10)]
		if rng.IntN(2) == 0 {
			c |= 0x20
		}
		b.WriteByte(c)
		switch c &^ 0x20 {
		case 'A':
			r := num(side / 2)
			b.WriteString(r + " " + r + " " + num(90) + " " + strconv.Itoa(rng.IntN(2)) + " " + strconv.Itoa(rng.IntN(2)) + " " + coord() + " " + coord())
		case 'Z':
		default:
			for k := range pathArgs[c&^0x20] {
				if k > 0 {
					b.WriteByte(' ')
				}
				if rng.IntN(3) == 0 {
					b.WriteByte('-')
				}
				b.WriteString(coord())
			}
		}
	}
	return b.String()
}

// maxMove is the largest per-axis distance between corresponding samples
// of two paths with the same segments.
func maxMove(a, b []pathSeg) float64 {
	worst := 0.0
	var ca, cb point
	for i := range a {
		sa, sb := sampleSeg(ca, a[i]), sampleSeg(cb, b[i])
		for k := range min(len(sa), len(sb)) {
			worst = max(worst, math.Abs(sa[k].x-sb[k].x), math.Abs(sa[k].y-sb[k].y))
		}
		if len(sa) != len(sb) {
			worst = math.Inf(1)
		}
		ca, cb = a[i].end(), b[i].end()
	}
	return worst
}

func sampleSeg(c point, s pathSeg) []point {
	var pts []point
	for k := range 9 {
		t := float64(k) / 8
		u := 1 - t
		switch s.cmd {
		case 'C':
			pts = append(pts, point{
				u*u*u*c.x + 3*u*u*t*s.p[0].x + 3*u*t*t*s.p[1].x + t*t*t*s.p[2].x,
				u*u*u*c.y + 3*u*u*t*s.p[0].y + 3*u*t*t*s.p[1].y + t*t*t*s.p[2].y})
		case 'Q':
			pts = append(pts, point{u*u*c.x + 2*u*t*s.p[0].x + t*t*s.p[1].x, u*u*c.y + 2*u*t*s.p[0].y + t*t*s.p[1].y})
		case 'A':
			return arcPoints(nil, c, s.p[0], s.arc[0], s.arc[1], s.arc[2], s.fa, s.fs)
		default:
			pts = append(pts, point{c.x + t*(s.p[0].x-c.x), c.y + t*(s.p[0].y-c.y)})
		}
	}
	return pts
}

// TestReducePrecisionOnSources runs the pass on every SVG of the starter
// collection: each result is shorter or the same, passes the checks the
// input passed, keeps its viewBox and title, and reads as the same element
// tree less what the pass may drop.
func TestReducePrecisionOnSources(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "source-logos", "*", "*.svg"))
	if len(files) == 0 {
		t.Skip("no source-logos here")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		mono := strings.HasSuffix(f, "icon-mono.svg")
		info, probs := checkBytes(f, src, Rules{Mono: mono})
		if len(probs.Errors()) > 0 {
			continue
		}
		out := reducePrecision(src, info.ViewBox)
		if len(out) > len(src) {
			t.Errorf("%s: grew from %d to %d bytes", f, len(src), len(out))
		}
		info2, probs := checkBytes(f, out, Rules{Mono: mono})
		if len(probs.Errors()) > 0 {
			t.Errorf("%s: the result fails the checks: %v", f, probs.Errors())
			continue
		}
		if info2.ViewBox != info.ViewBox || info2.HasTitle != info.HasTitle {
			t.Errorf("%s: viewBox %v title %v became %v %v", f, info.ViewBox, info.HasTitle, info2.ViewBox, info2.HasTitle)
		}
		if diff := cmp.Diff(elementNames(t, src, true), elementNames(t, out, true)); diff != "" {
			t.Errorf("%s: elements changed (-src +out):\n%s", f, diff)
		}
		if drawnText(mustParse(t, out).Root) != drawnText(mustParse(t, src).Root) {
			t.Errorf("%s: text changed", f)
		}
	}
}

// elementNames lists the elements of an SVG with their ids and roles, read
// with encoding/xml rather than the package's own parser; skipEmptyGroups
// leaves out the groups the pass may remove.
func elementNames(t *testing.T, data []byte, skipEmptyGroups bool) []string {
	type elem struct {
		name, id, role string
		kids           []*elem
		text           bool
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	root := &elem{}
	stack := []*elem{root}
	for {
		tok, err := d.RawToken()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed: %v: %.80s", err, data)
		}
		top := stack[len(stack)-1]
		switch tk := tok.(type) {
		case xml.StartElement:
			e := &elem{name: tk.Name.Local}
			if tk.Name.Space != "" {
				e.name = tk.Name.Space + ":" + e.name
			}
			for _, a := range tk.Attr {
				switch {
				case a.Name.Space == "" && a.Name.Local == "id":
					e.id = a.Value
				case a.Name.Space == "" && a.Name.Local == "role":
					e.role = a.Value
				}
			}
			top.kids = append(top.kids, e)
			stack = append(stack, e)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			top.text = top.text || len(bytes.TrimSpace(tk)) > 0
		}
	}
	var empty func(e *elem) bool
	empty = func(e *elem) bool {
		for _, k := range e.kids {
			if k.id != "" || !((k.name == "g" || k.name == "defs") && empty(k)) {
				return false
			}
		}
		return !e.text
	}
	var out []string
	var walk func(e *elem)
	walk = func(e *elem) {
		if skipEmptyGroups && e.id == "" && (e.name == "g" || e.name == "defs") && empty(e) {
			return
		}
		out = append(out, e.name+"#"+e.id+"@"+e.role)
		for _, k := range e.kids {
			walk(k)
		}
	}
	for _, k := range root.kids {
		walk(k)
	}
	return out
}

func TestReducePrecisionKeepsWhatItCannotRead(t *testing.T) {
	for _, in := range []string{
		"",
		"<svg",
		`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M1.23456 0"/>`, // unclosed
		svg24(`<path d="M1.5 0"/>`), // nothing to shorten
	} {
		if got := reducePrecision([]byte(in), vb24); string(got) != in {
			t.Errorf("reducePrecision(%q) = %q, want it unchanged", in, got)
		}
	}
	for _, vb := range [][4]float64{{}, {0, 0, -1, 5}, {0, 0, math.NaN(), 1}, {0, 0, math.Inf(1), 1}} {
		in := svg24(`<path d="M1.23456 0"/>`)
		if got := reducePrecision([]byte(in), vb); string(got) != in {
			t.Errorf("viewBox %v: got %q, want the input", vb, got)
		}
	}
}

func TestFlatPoints(t *testing.T) {
	tests := []struct {
		d                     string
		flatEnd, flatCtl, arc string // one character a segment: x marks
	}{
		{"M0 0H5V5Z", "xx..", "....", "...."},    // the flat line and its ends; the closing line is steep
		{"M0 0L8 1L9 9", "xx.", "...", "..."},    // a slope of 1/8 is flat
		{"M0 0L7 1L9 9", "...", "...", "..."},    // 1/7 is not
		{"M0 0C2 .5 6 .5 8 0", "xx", ".x", ".."}, // a flat curve: its box is under 1/8 as high as wide
		{"M0 0C1 2 2 4 3 6", "..", "..", ".."},   // steep and monotone: free
		{"M0 0C1 2 2 2 3 0", "..", "..", ".."},   // a round top: it moves in proportion, like a slope
		{"M0 0L1 5A1 1 0 0 0 3 5", ".xx", "...", ".xx"},
		{"M0 0L1 5ZA1 1 0 0 0 3 5", "x.xx", "....", "x.xx"}, // after Z an arc starts at the M
	}
	for _, tt := range tests {
		segs, ok := parsePath(tt.d)
		if !ok {
			t.Fatalf("parsePath(%q) failed", tt.d)
		}
		flatEnd, flatCtl, arc, _ := flatPoints(segs, 0)
		marks := func(b []bool) string {
			var s strings.Builder
			for _, v := range b {
				if v {
					s.WriteByte('x')
				} else {
					s.WriteByte('.')
				}
			}
			return s.String()
		}
		if got := marks(flatEnd) + " " + marks(flatCtl) + " " + marks(arc); got != tt.flatEnd+" "+tt.flatCtl+" "+tt.arc {
			t.Errorf("flatPoints(%q) = %s, want %s %s %s", tt.d, got, tt.flatEnd, tt.flatCtl, tt.arc)
		}
	}
}

func TestTransformScale(t *testing.T) {
	tests := []struct {
		in   string
		want float64
	}{
		{"", 1},
		{"translate(5 6)", 1},
		{"scale(2)", 2},
		{"scale(2, 3)", 3},
		{"scale(-4 1)", 4},
		{"rotate(30 12 12)", 1},
		{"matrix(.1 0 0 -.1 0 24)", 0.1},
		{"scale(2) scale(3)", 6},
		{"translate(1,2),scale(.5)", 0.5},
		{"skewX(45)", (1 + math.Sqrt(5)) / 2},
		{"scale(2", math.Inf(1)},
		{"spin(3)", math.Inf(1)},
		{"scale(1e9)", math.Inf(1)},
	}
	for _, tt := range tests {
		if got := transformScale(tt.in); math.Abs(got-tt.want) > 1e-9 && got != tt.want {
			t.Errorf("transformScale(%q) = %g, want %g", tt.in, got, tt.want)
		}
	}
}

// fixedString is what fixed writes.
func fixedString(n int64, d int) string {
	var buf [fixedSize]byte
	s, dotted := fixed(&buf, n, d)
	if dotted != bytes.Contains(s, []byte(".")) {
		panic(fmt.Sprintf("fixed(%d, %d) = %q, %v", n, d, s, dotted))
	}
	return string(s)
}

func TestFixed(t *testing.T) {
	tests := []struct {
		n    int64
		d    int
		want string
	}{
		{0, 2, "0"}, {5, 2, ".05"}, {-5, 2, "-.05"}, {120, 2, "1.2"}, {100, 2, "1"}, {-12345, 3, "-12.345"}, {7, 0, "7"},
	}
	for _, tt := range tests {
		if got := fixedString(tt.n, tt.d); got != tt.want {
			t.Errorf("fixed(%d, %d) = %q, want %q", tt.n, tt.d, got, tt.want)
		}
	}
	// Against the decimal point put into the integer's digits.
	rng := rand.New(rand.NewPCG(3, 4))
	for range 100000 {
		n := rng.Int64N(1<<53) >> rng.IntN(53)
		if rng.IntN(2) == 0 {
			n = -n
		}
		d := rng.IntN(16)
		digits := strconv.FormatInt(max(n, -n), 10)
		digits = strings.Repeat("0", max(0, d+1-len(digits))) + digits
		want := strings.TrimRight(digits[:len(digits)-d]+"."+digits[len(digits)-d:], "0")
		want = strings.TrimSuffix(strings.TrimLeft(want, "0"), ".")
		if want == "" || want == "." {
			want = "0"
		} else if n < 0 {
			want = "-" + want
		}
		if got := fixedString(n, d); got != want {
			t.Fatalf("fixed(%d, %d) = %q, want %q", n, d, got, want)
		}
	}
}

// FuzzReducePrecision checks that the pass never panics, never grows a
// file, keeps it well-formed and keeps what CheckSVG accepted acceptable.
func FuzzReducePrecision(f *testing.F) {
	f.Add(svg24(`<path d="M12.3456 0.29712 L 1.00049 5.0004a1 1 0 1 1 2 2z"/>`))
	f.Add(svg24(`<g transform="scale(2)"><rect x="1.23456" width="3.3333" height="1"/></g><g/>`))
	f.Add(svg24(`<defs><path id="p" d="m0 0c1.111 1.111 2.222 2.222 3.333 3.333s1 1 2 2"/></defs><use href="#p" transform="scale(3)"/>`))
	files, _ := filepath.Glob(filepath.Join("..", "source-logos", "*", "icon.svg"))
	for _, p := range files[:min(len(files), 8)] {
		if data, err := fs.ReadFile(os.DirFS(filepath.Dir(p)), filepath.Base(p)); err == nil {
			f.Add(string(data))
		}
	}
	f.Fuzz(func(t *testing.T, in string) {
		info, probs := checkBytes("f.svg", []byte(in), Rules{})
		vb := vb24
		if info != nil && info.ViewBox != ([4]float64{}) { // nil when it does not parse
			vb = info.ViewBox
		}
		out := reducePrecision([]byte(in), vb)
		if len(out) > len(in) {
			t.Fatalf("grew: %q -> %q", in, out)
		}
		if string(out) == in {
			return
		}
		if !precisionWellFormed(out) {
			t.Fatalf("not well-formed: %q -> %q", in, out)
		}
		if len(probs.Errors()) == 0 {
			if _, p := checkBytes("f.svg", out, Rules{}); len(p.Errors()) > 0 {
				t.Fatalf("passed the checks, then failed them: %q -> %q: %v", in, out, p.Errors())
			}
		}
	})
}

func precisionWellFormed(data []byte) bool {
	d := xml.NewDecoder(bytes.NewReader(data))
	for {
		if _, err := d.Token(); err != nil {
			return errors.Is(err, io.EOF)
		}
	}
}

// reducePrecision parses src, runs the precision pass and writes the
// result, or returns src when it does not parse.
func reducePrecision(src []byte, viewBox [4]float64) []byte {
	d, _ := Parse("", src)
	if d == nil {
		return src
	}
	roundPrecision(d.Root, viewBox, nil)
	out := d.Bytes()
	if len(out) >= len(src) {
		return src
	}
	return out
}

func mustParse(t *testing.T, data []byte) *Document {
	t.Helper()
	d, probs := Parse("", data)
	if d == nil {
		t.Fatalf("does not parse: %v", probs)
	}
	return d
}
