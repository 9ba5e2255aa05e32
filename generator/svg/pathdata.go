package svg

import (
	"errors"
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"
	"sync"
)

// Numbers and path data: reading, rounding and writing them.

func parseNumberList(s string) ([]float64, bool) {
	var out []float64
	b := s
	for i := skipSep(b, 0); i < len(b); i = skipSep(b, i) {
		end := scanNumber(b, i)
		if end == i {
			return nil, false
		}
		f, err := parseNumber(b[i:end])
		if err != nil {
			return nil, false
		}
		out = append(out, f)
		i = end
	}
	return out, true
}

// parseNumber is strconv.ParseFloat for what scanNumber found, quicker
// for the plain decimals of at most 15 digits that path data is made of:
// their digits as an integer and their power of ten are exact floats, so
// one division rounds to the nearest float, the one ParseFloat returns.
func parseNumber(s string) (float64, error) {
	i, neg := 0, false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	var m uint64
	digits, frac, dot := 0, 0, false
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			m = m*10 + uint64(c-'0')
			digits++
			if dot {
				frac++
			}
		case c == '.' && !dot:
			dot = true
		default:
			return strconv.ParseFloat(s, 64)
		}
	}
	if digits == 0 || digits > 15 {
		return strconv.ParseFloat(s, 64)
	}
	f := float64(m) / pow10[frac]
	if neg {
		f = -f
	}
	return f, nil
}

// plainSmall reports whether the number scanNumber found is a decimal
// without an exponent and with at most 9 digits before its point: below
// MaxNumber, which a check then need not parse to know.
func plainSmall(s string) bool {
	digits, dot := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.':
			dot = true
		case c == 'e' || c == 'E':
			return false
		case c >= '0' && c <= '9' && !dot:
			digits++
		}
	}
	return digits <= 9
}

// pow10 holds the powers of ten the pass scales by, without math.Pow.
var pow10 = func() (t [24]float64) {
	t[0] = 1
	for i := 1; i < len(t); i++ {
		t[i] = t[i-1] * 10
	}
	return t
}()

// rounder writes numbers with as few decimals as keep them within tol of
// their exact values.
type rounder struct {
	tol  float64
	dmax int // the fewest decimals that always fit: half a step is at most tol
	ok   bool
}

func newRounder(tol float64) rounder {
	if !(tol > 0) || math.IsInf(tol, 0) {
		return rounder{}
	}
	for d := 0; d <= maxDecimals; d++ {
		if 0.5*math.Pow(10, -float64(d)) <= tol {
			return rounder{tol: tol, dmax: d, ok: true}
		}
	}
	return rounder{}
}

// near returns the number with the fewest decimals within tol of x (at
// most r.tol) and its value; ok is false for numbers too large to write.
func (r rounder) near(x, tol float64) (ptok, float64, bool) {
	// The decimals that always hold tol: r.dmax for r.tol, more for less
	// (a joint another segment reflects, the end of a loose arc).
	dm := r.dmax
	for dm < 15 && 0.5*pow10inv[dm] > tol {
		dm++
	}
	for d := 0; d <= dm; d++ {
		sc := pow10[d]
		n := math.Round(x * sc)
		if math.IsNaN(n) || math.Abs(n) > 1<<52 {
			return ptok{}, 0, false
		}
		if v := n / sc; math.Abs(v-x) <= tol || d == dm {
			return ptok{n: int64(n), d: d}, v, true
		}
	}
	return ptok{}, 0, false
}

// pow10inv holds the negative powers of ten.
var pow10inv = func() (t [24]float64) {
	for i := range t {
		t[i] = 1 / pow10[i]
	}
	return t
}()

// fixedSize holds any int64 with up to 40 decimals, a sign and a dot.
const fixedSize = 64

// fixed writes n steps of 10^-d as the shortest decimal, with no leading
// zero and no trailing zeros, at the end of buf, and returns it and
// whether it has a dot.
func fixed(buf *[fixedSize]byte, n int64, d int) (s []byte, dotted bool) {
	u := uint64(n)
	if n < 0 {
		u = -u
	}
	i := len(buf)
	for range min(d, 40) {
		if digit := u % 10; digit != 0 || dotted {
			i--
			buf[i] = byte('0' + digit)
			dotted = true
		}
		u /= 10
	}
	if dotted {
		i--
		buf[i] = '.'
	}
	if u != 0 || !dotted {
		for {
			i--
			buf[i] = byte('0' + u%10)
			if u /= 10; u == 0 {
				break
			}
		}
	}
	if n < 0 {
		i--
		buf[i] = '-'
	}
	return buf[i:], dotted
}

// roundList rounds a list of plain numbers (a length, or points) each
// within tol and returns how many it held; ok is false when any item is not
// a plain number (a unit, a percentage, a keyword).
func roundList(v string, r rounder, tol float64) (string, int, bool) {
	nums, ok := parseNumberList(v)
	if !ok || len(nums) == 0 {
		return "", 0, false
	}
	var w numWriter
	for _, f := range nums {
		t, _, ok := r.near(f, tol)
		if !ok {
			return "", 0, false
		}
		w.num(t.n, t.d)
	}
	return string(w.b), len(nums), true
}

// roundPoints rounds the x of each pair of a points list; ok is false for
// an odd count or an item that is not a plain number.
func roundPoints(v string, r rounder) (string, bool) {
	nums, ok := parseNumberList(v)
	if !ok || len(nums) == 0 || len(nums)%2 != 0 {
		return "", false
	}
	var w numWriter
	for k, f := range nums {
		t, ok := exactNumber(f, 0)
		if k%2 == 0 {
			t, _, ok = r.near(f, r.tol)
		}
		if !ok {
			return "", false
		}
		w.num(t.n, t.d)
	}
	return string(w.b), true
}

// numWriter writes numbers with the fewest separators: none before a
// minus sign, nor before ".5" after a number that has a dot.
type numWriter struct {
	b        []byte
	afterNum bool // the last token was a number
	dotted   bool // ... holding a dot
}

func (w *numWriter) num(n int64, d int) {
	var buf [fixedSize]byte
	s, dotted := fixed(&buf, n, d)
	if w.afterNum && s[0] != '-' && (s[0] != '.' || !w.dotted) {
		w.b = append(w.b, ' ')
	}
	w.b = append(w.b, s...)
	w.afterNum, w.dotted = true, dotted
}

func (w *numWriter) flag(f bool) {
	if w.afterNum {
		w.b = append(w.b, ' ')
	}
	if f {
		w.b = append(w.b, '1')
	} else {
		w.b = append(w.b, '0')
	}
	w.afterNum, w.dotted = false, false
}

func (w *numWriter) cmd(c byte) {
	w.b = append(w.b, c)
	w.afterNum, w.dotted = false, false
}

func skipSep[T ~string | ~[]byte](b T, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == ',' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r' || b[i] == '\f') {
		i++
	}
	return i
}

// scanNumber returns the end of the SVG number at b[i:], or i.
func scanNumber[T ~string | ~[]byte](b T, i int) int {
	j := i
	if j < len(b) && (b[j] == '+' || b[j] == '-') {
		j++
	}
	digits := 0
	for j < len(b) && b[j] >= '0' && b[j] <= '9' {
		j++
		digits++
	}
	if j < len(b) && b[j] == '.' {
		k := j + 1
		frac := 0
		for k < len(b) && b[k] >= '0' && b[k] <= '9' {
			k++
			frac++
		}
		if frac > 0 || digits > 0 {
			j = k
			digits += frac
		}
	}
	if digits == 0 {
		return i
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		k := j + 1
		if k < len(b) && (b[k] == '+' || b[k] == '-') {
			k++
		}
		e := k
		for k < len(b) && b[k] >= '0' && b[k] <= '9' {
			k++
		}
		if k > e {
			j = k
		}
	}
	return j
}

type point struct{ x, y float64 }

// pathSeg is one path segment in absolute coordinates. S and T are read as
// C and Q with their reflected control point, flagged smooth.
type pathSeg struct {
	cmd    byte     // M, L, C, Q, A or Z
	smooth bool     // written as S or T
	p      [3]point // control points, then the end point
	arc    [3]float64
	fa, fs bool
}

func (s *pathSeg) end() point {
	switch s.cmd {
	case 'C':
		return s.p[2]
	case 'Q':
		return s.p[1]
	}
	return s.p[0]
}

// pathArgs is how many numbers each command takes, by its upper-case
// letter, and -1 for bytes that are no command.
var pathArgs = func() (t [256]int8) {
	for c := range t {
		t[c] = -1
	}
	for c, n := range map[byte]int8{'M': 2, 'L': 2, 'H': 1, 'V': 1, 'C': 6, 'S': 4, 'Q': 4, 'T': 2, 'A': 7, 'Z': 0} {
		t[c] = n
	}
	return t
}()

// parsePath reads path data into absolute segments; ok is false for data
// with any error, which renderers draw only up to the error.
func parsePath(s string) ([]pathSeg, bool) { return parsePathInto(nil, s) }

// parsePathInto is parsePath reading into dst's array when it is large
// enough.
func parsePathInto(dst []pathSeg, s string) ([]pathSeg, bool) {
	segs, at, _ := readPathInto(dst, s, true)
	return segs, at < 0 && len(segs) > 0
}

// checkPathData returns what is wrong with path data and where, or "".
// Empty data draws nothing and is fine.
func checkPathData(s string) (msg string, at int) {
	_, at, msg = readPath(s, false)
	return pathProblem(msg, at)
}

// pathProblem is checkPathData's message for readPath's description of an
// error at offset at (none when at < 0).
func pathProblem(msg string, at int) (string, int) {
	if at >= 0 {
		return "path data " + msg + fmt.Sprintf(" (at character %d); renderers draw a path only up to its first error", at+1), at
	}
	return "", 0
}

// readPath reads path data as SVG 2's grammar writes it: white space and
// at most one comma between numbers, none after a command letter. It
// returns the segments read (when keep is set) and, on an error, its
// offset (else -1) and a description.
func readPath(s string, keep bool) (segs []pathSeg, errAt int, msg string) {
	return readPathInto(nil, s, keep)
}

// readPathInto is readPath keeping the segments in dst's array when it is
// large enough.
func readPathInto(dst []pathSeg, s string, keep bool) (segs []pathSeg, errAt int, msg string) {
	if keep {
		if n := len(s)/12 + 1; cap(dst) >= n { // a segment takes 12 bytes or more, but for H, V and Z
			segs = dst[:0]
		} else {
			segs = make([]pathSeg, 0, n)
		}
	}
	b := s
	var cur, start, lastC2, lastQ point
	var cmd, prev byte
	var args [7]float64
	fail := func(i int, format string, a ...any) ([]pathSeg, int, string) {
		return segs, i, fmt.Sprintf(format, a...)
	}
	i := skipWSP(b, 0)
	if i == len(b) {
		return nil, -1, ""
	}
	for i < len(b) {
		c := b[i]
		if c|0x20 >= 'a' && c|0x20 <= 'z' {
			if pathArgs[c&^0x20] < 0 {
				return fail(i, "has %q, which is not a path command", c)
			}
			if len(segs) == 0 && c&^0x20 != 'M' {
				return fail(i, "must start with M or m, not %q", c)
			}
			cmd = c
			i = skipWSP(b, i+1)
			if cmd&^0x20 == 'Z' {
				if keep {
					segs = append(segs, pathSeg{cmd: 'Z', p: [3]point{start}})
				}
				cur, prev = start, 'Z'
				continue
			}
		} else if cmd == 0 || cmd&^0x20 == 'Z' {
			return fail(i, "has %q where a command letter belongs", c)
		} else if c == ',' {
			return fail(i, "has a comma where a number belongs")
		}
		upper := cmd &^ 0x20
		n := int(pathArgs[upper])
		for k := range n {
			if k > 0 {
				var ok bool
				if i, ok = skipCommaWSP(b, i); !ok {
					return fail(i, "has two commas in a row")
				}
			}
			if upper == 'A' && (k == 3 || k == 4) {
				if i >= len(b) || b[i] != '0' && b[i] != '1' {
					return fail(i, "has an arc flag that is not 0 or 1")
				}
				args[k] = float64(b[i] - '0')
				i++
				continue
			}
			end := scanNumber(b, i)
			if end == i {
				return fail(i, "needs %d numbers after %c", n, cmd)
			}
			if !keep && len(segs) > 0 && plainSmall(b[i:end]) {
				i = end // within range, and its value is not needed
				continue
			}
			f, err := parseNumber(b[i:end])
			if err != nil && !errorsIsRange(err) {
				return fail(i, "has %q, which is not a number", b[i:end])
			}
			if err != nil || math.IsInf(f, 0) || math.Abs(f) > MaxNumber {
				return fail(i, "has %s, beyond ±1e9; no logo needs numbers that large, and they overflow when added up", b[i:end])
			}
			args[k] = f
			i = end
		}
		// A check needs only the first segment, to know it is an M.
		if keep || len(segs) == 0 {
			base := point{}
			if cmd != upper {
				base = cur
			}
			at := func(k int) point { return point{base.x + args[k], base.y + args[k+1]} }
			seg := pathSeg{cmd: upper}
			switch upper {
			case 'M':
				seg.p[0] = at(0)
				start = seg.p[0]
			case 'L':
				seg.p[0] = at(0)
			case 'H':
				seg.cmd, seg.p[0] = 'L', point{base.x + args[0], cur.y}
			case 'V':
				seg.cmd, seg.p[0] = 'L', point{cur.x, base.y + args[0]}
			case 'C':
				seg.p = [3]point{at(0), at(2), at(4)}
			case 'S':
				c1 := cur
				if prev == 'C' {
					c1 = point{2*cur.x - lastC2.x, 2*cur.y - lastC2.y}
				}
				seg.cmd, seg.smooth, seg.p = 'C', true, [3]point{c1, at(0), at(2)}
			case 'Q':
				seg.p = [3]point{at(0), at(2)}
			case 'T':
				c1 := cur
				if prev == 'Q' {
					c1 = point{2*cur.x - lastQ.x, 2*cur.y - lastQ.y}
				}
				seg.cmd, seg.smooth, seg.p = 'Q', true, [3]point{c1, at(0)}
			case 'A':
				seg.arc = [3]float64{args[0], args[1], args[2]}
				seg.fa, seg.fs = args[3] == 1, args[4] == 1
				seg.p[0] = at(5)
			}
			switch seg.cmd {
			case 'C':
				lastC2 = seg.p[1]
			case 'Q':
				lastQ = seg.p[0]
			}
			segs = append(segs, seg)
			cur, prev = seg.end(), seg.cmd
		}
		if cmd == 'M' {
			cmd = 'L'
		} else if cmd == 'm' {
			cmd = 'l'
		}
		// Between two segments: white space, or one comma when more
		// numbers follow.
		j := skipWSP(b, i)
		if j < len(b) && b[j] == ',' {
			j = skipWSP(b, j+1)
			if j >= len(b) || b[j]|0x20 >= 'a' && b[j]|0x20 <= 'z' || b[j] == ',' {
				return fail(j-1, "has a comma that no number follows")
			}
		}
		i = j
	}
	return segs, -1, ""
}

func skipWSP[T ~string | ~[]byte](b T, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r' || b[i] == '\f') {
		i++
	}
	return i
}

// skipCommaWSP skips white space with at most one comma in it; ok is
// false at a second comma.
func skipCommaWSP[T ~string | ~[]byte](b T, i int) (int, bool) {
	i = skipWSP(b, i)
	if i < len(b) && b[i] == ',' {
		i = skipWSP(b, i+1)
		if i < len(b) && b[i] == ',' {
			return i, false
		}
	}
	return i, true
}

func errorsIsRange(err error) bool {
	var ne *strconv.NumError
	return errors.As(err, &ne) && ne.Err == strconv.ErrRange
}

// pair is a point written both ways: absolute, and relative to the
// position written before it, with the values each form stands for.
type pair struct {
	abs, rel       [2]ptok
	absVal, relVal point
}

// ptok is one number of path data in steps of 10^-d, or an arc flag.
type ptok struct {
	n      int64
	d      int
	isFlag bool
}

// pathWriter writes path data compactly: a command letter only where it
// changes, and numbers with the fewest separators.
type pathWriter struct {
	numWriter
	implicit byte // the command that numbers without a letter continue
}

func (w *pathWriter) seg(letter byte, toks []ptok) {
	if letter != w.implicit || letter == 'M' || letter == 'm' {
		w.cmd(letter)
	}
	for _, t := range toks {
		if t.isFlag {
			w.flag(t.n == 1)
		} else {
			w.num(t.n, t.d)
		}
	}
	switch letter {
	case 'M':
		w.implicit = 'L'
	case 'm':
		w.implicit = 'l'
	case 'z', 'Z':
		w.implicit = 0
	default:
		w.implicit = letter
	}
}

// shortest writes the relative form of a segment unless the absolute one
// is at least two bytes shorter (relative data compresses better, which
// is what a CDN serves), and reports whether it wrote the absolute one.
func (w *pathWriter) shortest(abs byte, absToks, relToks []ptok) (absolute bool) {
	mark, saved := len(w.b), *w
	w.seg(abs|0x20, relToks)
	relEnd, relState := len(w.b), *w
	// The absolute form follows, written from the state before both.
	w.afterNum, w.dotted, w.implicit = saved.afterNum, saved.dotted, saved.implicit
	w.seg(abs, absToks)
	if n := len(w.b) - relEnd; n+1 >= relEnd-mark {
		b := w.b[:relEnd]
		*w = relState
		w.b = b
		return false
	}
	w.b = append(w.b[:mark], w.b[relEnd:]...)
	return true
}

// roundPath rewrites path data with the fewest decimals that keep every
// point within r.tol of its exact place on each axis, written absolute or
// relative, whichever is shorter. Positions are tracked as written, so
// errors do not add up along relative data. Béziers stay within r.tol as
// their control points do; an S or T is kept where the reflected control
// point lands within r.tol, and the points it reflects are rounded more
// finely for it. Flat features keep their exact y and arcs their exact ends
// (flatPoints). straighten allows turning nearly straight curves into
// lines, which dashes would tell. ok is false for data it cannot read.
func roundPath(d string, r rounder, reshape bool) (string, bool) {
	return roundRead(d, nil, r, reshape)
}

// roundRead is roundPath of d, whose segments are read, when not nil (a
// Memo keeps those its check read): it works on a copy.
func roundRead(d string, read []pathSeg, r rounder, reshape bool) (string, bool) {
	sc := roundPool.Get().(*roundScratch)
	defer roundPool.Put(sc)
	var segs []pathSeg
	ok := len(read) > 0
	if read != nil {
		segs = append(sc.segs[:0], read...)
	} else {
		segs, ok = parsePathInto(sc.segs, d)
	}
	sc.segs = segs[:0]
	if !ok {
		return "", false
	}
	segs = dropZeroLines(segs)
	eps := pathEps(segs)
	if reshape {
		straightenCurves(segs, r.tol, eps)
	}
	quadratics(segs, r.tol, eps)
	w := pathWriter{numWriter: numWriter{b: slices.Grow(sc.b[:0], len(d))}}
	defer func() { sc.b = w.b[:0] }()
	var cur, start, lastC2, lastQ point
	var prev byte
	tol := r.tol
	// at rounds the point p both ways: absolute, and relative to the
	// written position c, with the values each form stands for.
	// axis writes one coordinate within t of v, absolute and relative to
	// the written c; t == 0 keeps it exact.
	axis := func(v, c, t float64) (abs, rel ptok, absVal, relVal float64, ok bool) {
		if t == 0 {
			abs, ok1 := exactNumber(v, eps)
			rel, ok2 := exactNumber(v-c, eps)
			return abs, rel, v, v, ok1 && ok2
		}
		abs, absVal, ok1 := r.near(v, t)
		rel, d, ok2 := r.near(v-c, t)
		return abs, rel, absVal, c + d, ok1 && ok2
	}
	// at writes a point, x within tx and y within ty.
	at := func(p, c point, tx, ty float64) (pair, bool) {
		ax, rx, vx, wx, ok1 := axis(p.x, c.x, tx)
		ay, ry, vy, wy, ok2 := axis(p.y, c.y, ty)
		return pair{[2]ptok{ax, ay}, [2]ptok{rx, ry}, point{vx, vy}, point{wx, wy}}, ok1 && ok2
	}
	within := func(a, b, t float64) bool { return math.Abs(a-b) <= max(t, eps) }
	near := func(q, exact point, ty float64) bool { return within(q.x, exact.x, tol) && within(q.y, exact.y, ty) }
	flatEnd, flatCtl, arcEnd, loose := flatPoints(segs, tol)
	// from[i] is where segment i starts, exactly.
	from := append(sc.from[:0], make([]point, len(segs))...)
	sc.from = from[:0]
	for i := 1; i < len(segs); i++ {
		from[i] = segs[i-1].end()
	}
	var samples []point // points along curves, reused
	// cat joins token lists into arena, which each segment reuses.
	arena := make([]ptok, 0, 64)
	cat := func(ts ...[]ptok) []ptok {
		start := len(arena)
		for _, t := range ts {
			arena = append(arena, t...)
		}
		return arena[start:len(arena):len(arena)]
	}
	// tolsFor returns how far segment i's end may move on each axis (jt,
	// jy) and its control points vertically (cy).
	tolsFor := func(i int) (jt, jy, cy float64) {
		// A joint that the next segment reflects is rounded to a third of
		// the tolerance, so that the reflection lands within it.
		jt = tol
		if i+1 < len(segs) && segs[i+1].smooth {
			jt = tol / 3
		}
		if loose[i] {
			jt = min(jt, tol/4) // moves a loose arc by about as much: see looseArc
		}
		if arcEnd[i] {
			jt = 0 // another arc's shape hangs on where both its ends are
		}
		// Flat features keep their exact height: see flatPoints.
		jy, cy = jt, tol
		if flatEnd[i] {
			jy = 0
		}
		if flatCtl[i] {
			cy = 0
		}
		return jt, jy, cy
	}
	// arcable reports whether curve i may become part of an arc: it is
	// not flat, and the segment after it does not reflect it.
	arcable := func(i int) bool {
		return segs[i].cmd == 'C' && !flatCtl[i] && !flatEnd[i] && (i+1 == len(segs) || !segs[i+1].smooth)
	}
	for i := 0; i < len(segs); i++ {
		s := segs[i]
		arena = arena[:0]
		jt, jy, cy := tolsFor(i)
		// Curves that together are one arc of a circle (four quarter
		// circles, say) are written as one arc; a whole circle as one arc
		// that stops a hair before its start, which the z closes.
		if reshape && s.cmd == 'C' && arcable(i) {
			if j, next, ok := mergeArcs(&w, cur, segs, from, i, arcable, tolsFor, at, r, &samples); ok {
				cur, prev, i = next, 'A', j
				continue
			}
		}
		switch s.cmd {
		case 'Z':
			w.seg('z', nil)
			cur, prev = start, 'Z'
			continue
		case 'M', 'L':
			e, ok := at(s.p[0], cur, jt, jy)
			if !ok {
				return "", false
			}
			var next point
			switch {
			case s.cmd == 'M':
				next = w.choose('M', e.abs[:], e.rel[:], e.absVal, e.relVal)
				start = next
			case within(cur.y, s.p[0].y, jy):
				next = w.choose('H', e.abs[:1], e.rel[:1], point{e.absVal.x, cur.y}, point{e.relVal.x, cur.y})
			case within(cur.x, s.p[0].x, jt):
				next = w.choose('V', e.abs[1:], e.rel[1:], point{cur.x, e.absVal.y}, point{cur.x, e.relVal.y})
			default:
				next = w.choose('L', e.abs[:], e.rel[:], e.absVal, e.relVal)
			}
			cur = next
		case 'C':
			c2, ok1 := at(s.p[1], cur, jt, min(jy, cy))
			e, ok2 := at(s.p[2], cur, jt, jy)
			if !ok1 || !ok2 {
				return "", false
			}
			// A curve that is a circular arc within the tolerance is
			// written as one (SVGO does the same): three numbers and two
			// flags where a curve takes six numbers. Not where the curve
			// is flat, which keeps its exact height, nor where the next
			// segment reflects its control point.
			refl := cur
			if prev == 'C' {
				refl = point{2*cur.x - lastC2.x, 2*cur.y - lastC2.y}
			}
			// The control points take the form of the end point, and the
			// next reflection the value of that form.
			letter, absToks, relToks := byte('S'), cat(c2.abs[:], e.abs[:]), cat(c2.rel[:], e.rel[:])
			if !near(refl, s.p[0], cy) {
				c1, ok := at(s.p[0], cur, tol, cy)
				if !ok {
					return "", false
				}
				letter, absToks, relToks = 'C', cat(c1.abs[:], c2.abs[:], e.abs[:]), cat(c1.rel[:], c2.rel[:], e.rel[:])
			}
			if reshape && arcable(i) {
				pts := curveSamples(samples[:0], from[i], s, true)
				samples = pts
				if fa, fr, ok := fitArcs(cur, e.absVal, e.relVal, pts, r); ok {
					ta, tr := fa.toks(), fr.toks()
					arcAbs, arcRel := cat(ta[:], e.abs[:]), cat(tr[:], e.rel[:])
					if w.trial('A', arcAbs, arcRel) < w.trial(letter, absToks, relToks) {
						if w.shortest('A', arcAbs, arcRel) {
							cur = e.absVal
						} else {
							cur = e.relVal
						}
						prev = 'A'
						continue
					}
				}
			}
			abs := w.shortest(letter, absToks, relToks)
			if abs {
				lastC2, cur = c2.absVal, e.absVal
			} else {
				lastC2, cur = c2.relVal, e.relVal
			}
		case 'Q':
			e, ok := at(s.p[1], cur, jt, jy)
			if !ok {
				return "", false
			}
			refl := cur
			if prev == 'Q' {
				refl = point{2*cur.x - lastQ.x, 2*cur.y - lastQ.y}
			}
			if near(refl, s.p[0], min(jy, cy)) {
				cur = w.choose('T', e.abs[:], e.rel[:], e.absVal, e.relVal)
				lastQ = refl
			} else {
				c, ok := at(s.p[0], cur, jt, min(jy, cy))
				if !ok {
					return "", false
				}
				if w.shortest('Q', cat(c.abs[:], e.abs[:]), cat(c.rel[:], e.rel[:])) {
					lastQ, cur = c.absVal, e.absVal
				} else {
					lastQ, cur = c.relVal, e.relVal
				}
			}
		case 'A':
			if loose[i] {
				// Ends rounded (a little: see tolsFor) and the shortest
				// radius with which the arc stays within the tolerance of
				// the one written.
				e, ok := at(s.p[0], cur, jt, jy)
				if !ok {
					return "", false
				}
				pts := arcPoints(samples[:0], from[i], s.p[0], s.arc[0], s.arc[1], s.arc[2], s.fa, s.fs)
				samples = pts
				if len(pts) > 2 {
					if fa, fr, ok := fitArcs(cur, e.absVal, e.relVal, pts[1:len(pts)-1], r); ok {
						ta, tr := fa.toks(), fr.toks()
						cur = w.choose('A', cat(ta[:], e.abs[:]), cat(tr[:], e.rel[:]), e.absVal, e.relVal)
						prev = 'A'
						continue
					}
				}
			}
			e, ok := at(s.p[0], cur, jt, jy)
			if !ok {
				return "", false
			}
			flags := []ptok{{n: b2i(s.fa), isFlag: true}, {n: b2i(s.fs), isFlag: true}}
			radii, ok := arcRadii(cur, s, r, eps)
			if !ok {
				return "", false
			}
			cur = w.choose('A', cat(radii, flags, e.abs[:]), cat(radii, flags, e.rel[:]), e.absVal, e.relVal)
		}
		prev = s.cmd
	}
	return string(w.b), true
}

// roundScratch is what roundPath reads a path into and writes it with,
// kept from path to path so that a build does not allocate them per
// path. roundPath returns a copy of what it wrote.
type roundScratch struct {
	segs []pathSeg
	from []point
	b    []byte
}

var roundPool = sync.Pool{New: func() any { return new(roundScratch) }}

// dropZeroLines removes the lines that end where they start in a subpath
// that has drawn already, as the minifier's path pass does: they draw
// nothing, not even a cap, which a stroke has only at a subpath's ends
// (a line right after M or Z may be a dot, and stays). A curve after one
// then reflects the segment before it, which the writer takes into
// account: it writes S or T only where the reflection lands.
func dropZeroLines(segs []pathSeg) []pathSeg {
	out := segs[:0]
	for _, s := range segs {
		if k := len(out); s.cmd == 'L' && k > 0 && out[k-1].cmd != 'M' && out[k-1].cmd != 'Z' && out[k-1].end() == s.p[0] {
			continue
		}
		out = append(out, s)
	}
	return out
}

// trial returns how many bytes shortest would write for a segment, and
// leaves w as it was. It writes past w's end, which w then drops.
func (w *pathWriter) trial(abs byte, absToks, relToks []ptok) int {
	saved := *w
	w.shortest(abs, absToks, relToks)
	n := len(w.b) - len(saved.b)
	b := w.b[:len(saved.b)]
	*w = saved
	w.b = b
	return n
}

// choose writes the shorter of a segment's absolute and relative forms and
// returns the position it ends at.
func (w *pathWriter) choose(abs byte, absToks, relToks []ptok, absEnd, relEnd point) point {
	if w.shortest(abs, absToks, relToks) {
		return absEnd
	}
	return relEnd
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// replaceableCubics yields the index of each cubic curve of segs that the
// next segment does not reflect, with the point the curve starts from:
// the curves a pass may replace with a simpler segment to the same end.
// The body may replace segs[i]; the next start is taken before it runs.
func replaceableCubics(segs []pathSeg) iter.Seq2[int, point] {
	return func(yield func(int, point) bool) {
		var cur point
		for i := range segs {
			a := cur
			cur = segs[i].end()
			if segs[i].cmd != 'C' || i+1 < len(segs) && segs[i+1].smooth {
				continue
			}
			if !yield(i, a) {
				return
			}
		}
	}
}

// straightenCurves turns into lines the cubic curves whose control points
// lie within tol of their chord, between its ends: such a curve is drawn
// within tol of the line. A flat chord takes only exact collinearity, as
// flat edges must not move up or down (see flatSlope); a curve that the
// next segment reflects stays a curve. Only dashes, which follow the curve's
// parameter, could tell; the caller leaves dashed drawings alone.
func straightenCurves(segs []pathSeg, tol, eps float64) {
	for i, a := range replaceableCubics(segs) {
		s := &segs[i]
		b := s.p[2]
		dx, dy := b.x-a.x, b.y-a.y
		l2 := dx*dx + dy*dy
		if l2 == 0 {
			continue
		}
		limit := tol
		if math.Abs(dy) <= math.Abs(dx)*flatSlope {
			limit = eps
		}
		straight := true
		for _, c := range s.p[:2] {
			t := ((c.x-a.x)*dx + (c.y-a.y)*dy) / l2
			dist := math.Abs((c.x-a.x)*dy-(c.y-a.y)*dx) / math.Sqrt(l2)
			straight = straight && t >= 0 && t <= 1 && dist <= limit
		}
		if straight {
			*s = pathSeg{cmd: 'L', p: [3]point{b}}
		}
	}
}

// quadratics turns into quadratics the cubic curves that are quadratics
// raised to degree three, to within an eighth of tol on their control
// points (exactly in y where the curve must not move up or down), which
// moves the curve by less than a tenth of tol. A curve that the next
// segment reflects stays cubic.
func quadratics(segs []pathSeg, tol, eps float64) {
	flatEnd, flatCtl, _, _ := flatPoints(segs, 0)
	for i, a := range replaceableCubics(segs) {
		s := &segs[i]
		b := s.p[2]
		q := point{
			((3*s.p[0].x - a.x) + (3*s.p[1].x - b.x)) / 4,
			((3*s.p[0].y - a.y) + (3*s.p[1].y - b.y)) / 4,
		}
		c1 := point{a.x + 2*(q.x-a.x)/3, a.y + 2*(q.y-a.y)/3}
		c2 := point{b.x + 2*(q.x-b.x)/3, b.y + 2*(q.y-b.y)/3}
		tx, ty := tol/8, tol/8
		if flatEnd[i] || flatCtl[i] {
			ty = eps
		}
		if math.Abs(c1.x-s.p[0].x) <= tx && math.Abs(c2.x-s.p[1].x) <= tx &&
			math.Abs(c1.y-s.p[0].y) <= ty && math.Abs(c2.y-s.p[1].y) <= ty {
			*s = pathSeg{cmd: 'Q', p: [3]point{q, b}}
		}
	}
}

// arcRadii writes the radii and rotation of an arc from a (exact, as arcs
// keep their ends) to s's end. A small arc, at most 32 tol across, whose
// top or bottom runs over a pixel or two at most, may take rounded radii
// that keep every sampled point within tol; other arcs keep theirs exactly.
// A circle's rotation is written as 0.
func arcRadii(a point, s pathSeg, r rounder, eps float64) ([]ptok, bool) {
	rot := s.arc[2]
	if s.arc[0] == s.arc[1] {
		rot = 0 // rotating a circle changes nothing
	}
	vals := [3]float64{s.arc[0], s.arc[1], rot}
	if max(math.Abs(vals[0]), math.Abs(vals[1])) <= 32*r.tol {
		var buf [2][17]point
		exact := arcPoints(buf[0][:0], a, s.end(), vals[0], vals[1], vals[2], s.fa, s.fs)
		for t := r.tol; t >= r.tol/1000; t /= 10 {
			var toks []ptok
			var got [3]float64
			for k, v := range vals {
				tok, val, ok := r.near(v, t)
				if !ok {
					return nil, false
				}
				toks, got[k] = append(toks, tok), val
			}
			pts := arcPoints(buf[1][:0], a, s.end(), got[0], got[1], got[2], s.fa, s.fs)
			if len(pts) == len(exact) && (got[0] != 0) == (vals[0] != 0) && (got[1] != 0) == (vals[1] != 0) {
				worst := 0.0
				for k := range pts {
					worst = max(worst, math.Abs(pts[k].x-exact[k].x), math.Abs(pts[k].y-exact[k].y))
				}
				if worst <= r.tol {
					return toks, true
				}
			}
		}
	}
	var toks []ptok
	for _, v := range vals {
		t, ok := exactNumber(v, eps)
		if !ok {
			return nil, false
		}
		toks = append(toks, t)
	}
	return toks, true
}

// flatSlope is the steepest edge treated as flat. librsvg draws with cairo,
// which samples 15 rows per pixel: an edge flat over a run of pixels that
// moves up or down across a row, by however little, changes the whole run
// by 1/15 = 17/255, over the 16/255 of the render comparison, while a
// sloped edge changes its pixels in proportion to the move. Flat edges
// therefore keep their exact height, so that rounding never turns into a
// visible change.
const flatSlope = 1.0 / 8

// flatPoints marks the points whose y must stay exact: both ends of flat
// lines (closing lines included) and every point of a flat curve (one whose
// points fit in a box flatter than flatSlope), so that flat edges do not
// move up or down. flatEnd[i] is the end point of segs[i], flatCtl[i] its
// control points. arcEnd marks the points that start or end an arc, which
// stay exact on both axes, as an arc's shape hangs on them.
func flatPoints(segs []pathSeg, tol float64) (flatEnd, flatCtl, arcEnd, loose []bool) {
	n := len(segs)
	marks := make([]bool, 4*n)
	flatEnd, flatCtl, arcEnd, loose = marks[:n:n], marks[n:2*n:2*n], marks[2*n:3*n:3*n], marks[3*n:]
	flat := func(ps ...point) bool {
		x0, x1, y0, y1 := ps[0].x, ps[0].x, ps[0].y, ps[0].y
		for _, p := range ps[1:] {
			x0, x1, y0, y1 = min(x0, p.x), max(x1, p.x), min(y0, p.y), max(y1, p.y)
		}
		return y1-y0 <= (x1-x0)*flatSlope
	}
	var cur point
	sub := 0 // the M of the current subpath
	// fix marks the point a segment starts at: the end of the one before,
	// or after a Z the subpath's M.
	fix := func(marks []bool, i int) {
		if i == 0 {
			return
		}
		if segs[i-1].cmd == 'Z' {
			marks[sub] = true
		}
		marks[i-1] = true
	}
	for i, s := range segs {
		var pts []point
		switch s.cmd {
		case 'M':
			sub = i
		case 'L', 'Z':
			pts = []point{cur, s.p[0]}
		case 'C':
			pts = []point{cur, s.p[0], s.p[1], s.p[2]}
		case 'Q':
			pts = []point{cur, s.p[0], s.p[1]}
		case 'A':
			if c, ok := looseArc(cur, s, tol); ok {
				// Its ends may move a little (loose); they keep their
				// height where the circle is flat there.
				fix(loose, i)
				loose[i] = true
				if flatAt(cur, c) {
					fix(flatEnd, i)
				}
				if flatAt(s.p[0], c) {
					flatEnd[i] = true
				}
				break
			}
			fix(arcEnd, i)
			arcEnd[i] = true
		}
		if pts != nil && flat(pts...) {
			fix(flatEnd, i)
			flatEnd[i], flatCtl[i] = true, s.cmd == 'C' || s.cmd == 'Q'
			if s.cmd == 'Z' {
				flatEnd[sub] = true
			}
		}
		cur = s.end()
	}
	for i := range arcEnd {
		flatEnd[i] = flatEnd[i] || arcEnd[i]
	}
	return flatEnd, flatCtl, arcEnd, loose
}

// looseArc reports whether the arc s from a is a circular arc whose shape
// barely depends on where its ends are, so that they may move by tol/4:
// its centre lies at least a quarter of the chord from it (near a half
// circle the centre sits on the chord, and a tiny move of an end swings it
// far), and with both ends moved by tol/4 either way the arc stays within
// tol/2 of where it was. It returns the centre.
func looseArc(a point, s pathSeg, tol float64) (point, bool) {
	rx, ry := math.Abs(s.arc[0]), math.Abs(s.arc[1])
	if !(tol > 0) || rx != ry || rx == 0 || a == s.p[0] {
		return point{}, false
	}
	c, rad, ok := arcCentre(a, s.p[0], rx, s.fa, s.fs)
	half := math.Hypot(s.p[0].x-a.x, s.p[0].y-a.y) / 2
	if !ok || half >= rad || math.Sqrt(rad*rad-half*half) < half/2 {
		return point{}, false
	}
	var buf [17]point
	pts := arcPoints(buf[:0], a, s.p[0], rx, rx, 0, s.fa, s.fs)
	if len(pts) < 3 {
		return point{}, false
	}
	d := tol / 4
	for _, da := range [2]point{{d, d}, {-d, -d}} {
		for _, db := range [2]point{{d, -d}, {-d, d}} {
			p0, p1 := point{a.x + da.x, a.y + da.y}, point{s.p[0].x + db.x, s.p[0].y + db.y}
			if !arcCovers(p0, p1, rx, s.fa, s.fs, pts[1:len(pts)-1], tol/2) {
				return point{}, false
			}
		}
	}
	return c, true
}

// flatAt reports whether a circle centred at c is flat at its point p.
func flatAt(p, c point) bool { return math.Abs(p.x-c.x) <= math.Abs(p.y-c.y)*flatSlope }

// pathEps is how far a float sum of a path's decimals may sit from the
// decimal it stands for: float rounding, relative to its largest number.
func pathEps(segs []pathSeg) float64 {
	m := 1.0
	for _, s := range segs {
		for _, p := range s.p {
			m = max(m, math.Abs(p.x), math.Abs(p.y))
		}
	}
	return 1e-12 * m
}

// exactNumber writes v with the decimals it has: the fewest that give it
// back to within eps.
func exactNumber(v, eps float64) (ptok, bool) {
	for d := 0; d <= 15; d++ {
		sc := pow10[d]
		n := math.Round(v * sc)
		if math.IsNaN(n) || math.Abs(n) > 1<<52 {
			return ptok{}, false
		}
		if math.Abs(n/sc-v) <= eps {
			return ptok{n: int64(n), d: d}, true
		}
	}
	return ptok{}, false
}

// arcPoints appends to pts samples of an SVG arc (endpoint
// parameterisation, with radii scaled up as renderers do when too small):
// none for an arc that draws nothing, and the chord for zero radii.
func arcPoints(pts []point, p0, p1 point, rx, ry, rotation float64, fa, fs bool) []point {
	const n = 16
	if p0 == p1 {
		return pts
	}
	pts = slices.Grow(pts, n+1)
	rx, ry = math.Abs(rx), math.Abs(ry)
	if rx == 0 || ry == 0 {
		for k := range n + 1 {
			t := float64(k) / n
			pts = append(pts, point{p0.x + t*(p1.x-p0.x), p0.y + t*(p1.y-p0.y)})
		}
		return pts
	}
	phi := rotation * math.Pi / 180
	cos, sin := math.Cos(phi), math.Sin(phi)
	dx, dy := (p0.x-p1.x)/2, (p0.y-p1.y)/2
	x1 := cos*dx + sin*dy
	y1 := -sin*dx + cos*dy
	if l := x1*x1/(rx*rx) + y1*y1/(ry*ry); l > 1 {
		rx, ry = rx*math.Sqrt(l), ry*math.Sqrt(l)
	}
	num := rx*rx*ry*ry - rx*rx*y1*y1 - ry*ry*x1*x1
	den := rx*rx*y1*y1 + ry*ry*x1*x1
	coef := 0.0
	if den > 0 && num > 0 {
		coef = math.Sqrt(num / den)
	}
	if fa == fs {
		coef = -coef
	}
	cx1, cy1 := coef*rx*y1/ry, -coef*ry*x1/rx
	cx := cos*cx1 - sin*cy1 + (p0.x+p1.x)/2
	cy := sin*cx1 + cos*cy1 + (p0.y+p1.y)/2
	angle := func(ux, uy, vx, vy float64) float64 { return math.Atan2(ux*vy-uy*vx, ux*vx+uy*vy) }
	t1 := angle(1, 0, (x1-cx1)/rx, (y1-cy1)/ry)
	dt := angle((x1-cx1)/rx, (y1-cy1)/ry, (-x1-cx1)/rx, (-y1-cy1)/ry)
	if !fs && dt > 0 {
		dt -= 2 * math.Pi
	} else if fs && dt < 0 {
		dt += 2 * math.Pi
	}
	for k := range n + 1 {
		a := t1 + dt*float64(k)/n
		ca, sa := math.Cos(a), math.Sin(a)
		pts = append(pts, point{cx + rx*cos*ca - ry*sin*sa, cy + rx*sin*ca + ry*cos*sa})
	}
	return pts
}

// arcFit is a circular arc that stands for a cubic curve.
type arcFit struct {
	r      ptok
	fa, fs bool
}

// toks returns the arc's radii, rotation and flags.
func (a arcFit) toks() [5]ptok {
	return [5]ptok{a.r, a.r, {}, {n: b2i(a.fa), isFlag: true}, {n: b2i(a.fs), isFlag: true}}
}

// fitArc finds a circular arc from p0 to p1 (the curves' ends as written)
// that stays within r.tol of pts, points sampled in order along the curves
// between the ends, with the shortest radius that does: every point within
// r.tol of the circle, and in the arc's span of it. ok is false when the
// curves are not that close to one circle.
func fitArc(p0, p1 point, pts []point, r rounder) (arcFit, bool) {
	tol := r.tol
	if !r.ok || len(pts) < 3 {
		return arcFit{}, false
	}
	c, ok := circumcentre(p0, pts[len(pts)/3], pts[2*len(pts)/3])
	if !ok {
		return arcFit{}, false
	}
	rad := math.Hypot(p0.x-c.x, p0.y-c.y)
	span := math.Hypot(p1.x-p0.x, p1.y-p0.y) + math.Hypot(pts[len(pts)/2].x-p0.x, pts[len(pts)/2].y-p0.y)
	if !(rad > 0) || rad > 64*span || math.IsInf(rad, 0) {
		return arcFit{}, false // nearly straight: a line or a curve says it shorter
	}
	// The flags come from the circle itself: which of the four arcs from
	// p0 to p1 passes through the points. If none does within the
	// tolerance, no rounded radius will.
	// Two arcs share each centre (fa == fs picks it): a point off its
	// circle rules out both.
	var centres [2]struct {
		c             point
		r             float64
		done, ok, off bool
	}
	fa, fs, found := false, false, false
	for k := range 4 {
		fa, fs = k&1 == 1, k&2 == 2
		ce := &centres[b2i(fa == fs)]
		if !ce.done {
			ce.c, ce.r, ce.ok = arcCentre(p0, p1, rad, fa, fs)
			ce.done = true
		}
		if !ce.ok || ce.off {
			continue
		}
		if found, ce.off = arcThrough(p0, p1, ce.c, ce.r, fs, pts, tol); found {
			break
		}
	}
	if !found {
		return arcFit{}, false
	}
	for t := tol; t >= tol/1e4; t /= 10 {
		tok, rv, ok := r.near(rad, t)
		if !ok || !(rv > 0) {
			return arcFit{}, false
		}
		if arcCovers(p0, p1, rv, fa, fs, pts, tol) {
			return arcFit{r: tok, fa: fa, fs: fs}, true
		}
	}
	return arcFit{}, false
}

// fitArcs is fitArc to the absolute and to the relative form of an end,
// which are often the same float: it fits once then.
func fitArcs(p0, abs, rel point, pts []point, r rounder) (fa, fr arcFit, ok bool) {
	if fa, ok = fitArc(p0, abs, pts, r); !ok {
		return fa, fr, false
	}
	if math.Float64bits(abs.x) == math.Float64bits(rel.x) && math.Float64bits(abs.y) == math.Float64bits(rel.y) {
		return fa, fa, true
	}
	fr, ok = fitArc(p0, rel, pts, r)
	return fa, fr, ok
}

// curveSamples appends 15 points of the cubic curve s starting at a, and
// its end unless last.
func curveSamples(pts []point, a point, s pathSeg, last bool) []point {
	pts = slices.Grow(pts, 16)
	for k := 1; k < 16; k++ {
		pts = append(pts, cubicAt(a, s, float64(k)/16))
	}
	if !last {
		pts = append(pts, s.p[2])
	}
	return pts
}

// mergeArcs writes curves i and on as one arc when at least two of them
// together are one arc of a circle within the tolerance, and returns the
// last curve merged and the written end. A run that closes the circle ends
// a rounding step before its start, so that the arc is defined; the gap is
// under the tolerance. samples is a buffer to reuse.
func mergeArcs(w *pathWriter, cur point, segs []pathSeg, from []point, i int, arcable func(int) bool,
	tolsFor func(int) (float64, float64, float64), at func(p, c point, tx, ty float64) (pair, bool), r rounder,
	samples *[]point) (int, point, bool) {
	type found struct {
		j              int
		abs, rel       []ptok
		absEnd, relEnd point
	}
	var best *found
	// Each run's samples extend the last's: curves i to j-1, each with its
	// end, and curve j.
	pts := curveSamples((*samples)[:0], from[i], segs[i], false)
	for j := i + 1; j < len(segs) && arcable(j); j++ {
		run := curveSamples(pts, from[j], segs[j], true)
		pts = append(run, segs[j].p[2]) // beyond run: for the next j
		jt, jy, _ := tolsFor(j)
		e, ok := at(segs[j].p[2], cur, jt, jy)
		if !ok {
			break
		}
		ends := [2]point{e.absVal, e.relVal}
		toks := [2][]ptok{e.abs[:], e.rel[:]}
		if math.Hypot(e.absVal.x-cur.x, e.absVal.y-cur.y) <= r.tol {
			// The circle closes: end a step short of the start.
			step := math.Pow(10, -float64(r.dmax))
			last := run[len(run)-1]
			dx, dy := cur.x-last.x, cur.y-last.y
			var d point
			if math.Abs(dx) >= math.Abs(dy) {
				d = point{-math.Copysign(step, dx), 0}
			} else {
				d = point{0, -math.Copysign(step, dy)}
			}
			end := point{cur.x + d.x, cur.y + d.y}
			a1, v1, ok1 := r.near(end.x, 0)
			a2, v2, ok2 := r.near(end.y, 0)
			r1, _, ok3 := r.near(d.x, 0)
			r2, _, ok4 := r.near(d.y, 0)
			if !ok1 || !ok2 || !ok3 || !ok4 {
				break
			}
			ends = [2]point{{v1, v2}, {cur.x + d.x, cur.y + d.y}}
			toks = [2][]ptok{{a1, a2}, {r1, r2}}
		}
		fa, fr, ok := fitArcs(cur, ends[0], ends[1], run, r)
		if !ok {
			// A run of one circle ends here; before one is found, a longer
			// run may still be one (half a circle can fail where the whole
			// closes), up to the eight curves a circle is drawn with.
			if best != nil || j-i >= 8 {
				break
			}
			continue
		}
		ta, tr := fa.toks(), fr.toks()
		best = &found{j, append(ta[:], toks[0]...), append(tr[:], toks[1]...), ends[0], ends[1]}
	}
	*samples = pts
	if best == nil {
		return 0, point{}, false
	}
	if w.shortest('A', best.abs, best.rel) {
		return best.j, best.absEnd, true
	}
	return best.j, best.relEnd, true
}

// arcCovers reports whether the arc from p0 to p1 of radius rad with the
// flags given passes within tol of every point of pts, in order along it.
func arcCovers(p0, p1 point, rad float64, fa, fs bool, pts []point, tol float64) bool {
	c, rEff, ok := arcCentre(p0, p1, rad, fa, fs)
	if !ok {
		return false
	}
	covers, _ := arcThrough(p0, p1, c, rEff, fs, pts, tol)
	return covers
}

// arcThrough is arcCovers for the arc about c of radius rEff, as
// arcCentre found them. off reports a point farther than tol from the
// circle, which no arc about c covers.
func arcThrough(p0, p1, c point, rEff float64, fs bool, pts []point, tol float64) (covers, off bool) {
	dir, full := arcSweep(p0, p1, c, fs)
	// Positions along the arc are measured with a pseudo-angle, which
	// grows with the angle from p0 as the angle does, without a
	// trigonometric function: it only has to keep their order and tell
	// what lies past p1.
	s := point{p0.x - c.x, p0.y - c.y}
	along := func(q point) float64 {
		v := point{q.x - c.x, q.y - c.y}
		return pseudoAngle(dir*(s.x*v.y-s.y*v.x), s.x*v.x+s.y*v.y)
	}
	end := along(p1)
	if full {
		end = 4
	}
	last := 0.0
	for _, q := range pts {
		if !onRing(q.x-c.x, q.y-c.y, rEff, tol) {
			return false, true
		}
		f := along(q)
		if f > 4-1e-9 {
			f = 0 // on the start, as float error has it
		}
		if f < last-1e-9 || f > end+1e-9 {
			return false, false
		}
		last = f
	}
	return true, false
}

// onRing reports whether a point (dx, dy) from a circle's centre is not
// farther than tol from the circle of radius r, by Hypot. A square root of
// the sum of squares is within a few units in the last place of Hypot and
// quicker; it decides wherever a margin a million times that does.
func onRing(dx, dy, r, tol float64) bool {
	d := math.Abs(math.Sqrt(dx*dx+dy*dy) - r)
	m := 1e-9*(r+d) + 1e-150 // 1e-150: the squares may underflow
	if d < tol-m {
		return true
	}
	if d > tol+m {
		return false
	}
	return !(math.Abs(math.Hypot(dx, dy)-r) > tol)
}

// pseudoAngle maps the direction (x, y) to [0, 4) in the order of its angle
// from the positive x axis, counterclockwise (the "diamond angle").
func pseudoAngle(y, x float64) float64 {
	if x == 0 && y == 0 {
		return 0
	}
	var p float64
	if y >= 0 {
		if x >= 0 {
			p = y / (x + y)
		} else {
			p = 1 - x/(-x+y)
		}
	} else {
		if x < 0 {
			p = 2 - y/(-x-y)
		} else {
			p = 3 + x/(x-y)
		}
	}
	return p
}

// arcCentre converts an SVG arc with equal radii and no rotation from
// endpoint to centre form: the centre and the radius after the scaling
// renderers apply to radii too small for the chord.
func arcCentre(p0, p1 point, rad float64, fa, fs bool) (c point, r float64, ok bool) {
	if p0 == p1 || !(rad > 0) {
		return c, 0, false
	}
	dx, dy := (p0.x-p1.x)/2, (p0.y-p1.y)/2
	if l := (dx*dx + dy*dy) / (rad * rad); l > 1 {
		rad *= math.Sqrt(l)
	}
	h := math.Sqrt(math.Max(0, rad*rad-dx*dx-dy*dy)) / math.Hypot(dx, dy)
	if fa == fs {
		h = -h
	}
	// The centre is the chord's midpoint moved along its normal.
	c = point{(p0.x+p1.x)/2 + h*dy, (p0.y+p1.y)/2 - h*dx}
	return c, rad, !math.IsNaN(c.x) && !math.IsNaN(c.y)
}

// arcSweep returns the direction (1 or -1) of the arc from p0 to p1 about
// c with sweep flag fs, and whether it goes the whole way round, as the
// signed angle between their atan2 angles, turned the flag's way, tells.
// Only ends in nearly one direction from c need the angles: elsewhere the
// arc turns the flag's way by less than a whole turn.
func arcSweep(p0, p1, c point, fs bool) (dir float64, full bool) {
	u, v := point{p0.x - c.x, p0.y - c.y}, point{p1.x - c.x, p1.y - c.y}
	cross, dot := u.x*v.y-u.y*v.x, u.x*v.x+u.y*v.y
	if dot < 0 || math.Abs(cross) > 1e-3*dot {
		// More than a thousandth of a radian apart, far beyond the error
		// of atan2: the angle is neither 0 nor a whole turn.
		if fs {
			return 1, false
		}
		return -1, false
	}
	delta := math.Atan2(v.y, v.x) - math.Atan2(u.y, u.x)
	if fs && delta < 0 {
		delta += 2 * math.Pi
	} else if !fs && delta > 0 {
		delta -= 2 * math.Pi
	}
	dir = 1
	if delta < 0 {
		dir = -1
	}
	return dir, math.Abs(delta) >= 2*math.Pi-1e-9
}

// circumcentre returns the centre of the circle through a, b and c; ok is
// false when they are on one line.
func circumcentre(a, b, c point) (point, bool) {
	d := 2 * (a.x*(b.y-c.y) + b.x*(c.y-a.y) + c.x*(a.y-b.y))
	if d == 0 || math.IsNaN(d) {
		return point{}, false
	}
	a2, b2, c2 := a.x*a.x+a.y*a.y, b.x*b.x+b.y*b.y, c.x*c.x+c.y*c.y
	return point{(a2*(b.y-c.y) + b2*(c.y-a.y) + c2*(a.y-b.y)) / d, (a2*(c.x-b.x) + b2*(a.x-c.x) + c2*(b.x-a.x)) / d}, true
}

// cubicAt returns the point at t of the cubic curve s starting at a.
func cubicAt(a point, s pathSeg, t float64) point {
	u := 1 - t
	b0, b1, b2, b3 := u*u*u, 3*u*u*t, 3*u*t*t, t*t*t
	return point{
		b0*a.x + b1*s.p[0].x + b2*s.p[1].x + b3*s.p[2].x,
		b0*a.y + b1*s.p[0].y + b2*s.p[1].y + b3*s.p[2].y,
	}
}
