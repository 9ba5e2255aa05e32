package svg

import "math"

// Memo remembers the work on path data that depends on nothing around it:
// the check of its syntax and its rounding. The variants of a logo often
// draw the same paths in other colours (simple-icons' icon, icon-mono and
// icon-dark differ only in fill): with one Memo for the files of a logo,
// each path is read and rounded once. The zero value is ready to use, and
// a nil *Memo remembers nothing. A Memo is not safe for concurrent use and
// keeps every path it is given, so use one for the files of one logo, not
// for a collection.
type Memo struct {
	checked map[string]pathCheck
	rounded map[roundKey]roundedPath
	segs    []pathSeg // holds each pathCheck's segments
}

type pathCheck struct {
	msg  string
	at   int
	segs []pathSeg // as read, for roundPath, when the data reads
}

type roundKey struct {
	d       string
	tol     uint64 // the rounder's tolerance, as float bits
	reshape bool
}

type roundedPath struct {
	d  string
	ok bool
}

// checkPath is checkPathData, remembered.
func (m *Memo) checkPath(d string) (msg string, at int) {
	if m == nil {
		return checkPathData(d)
	}
	if c, ok := m.checked[d]; ok {
		return c.msg, c.at
	}
	// The segments are kept, so that the precision pass reads each path
	// once: reading was a sixth of its time.
	if cap(m.segs)-len(m.segs) < len(d)/12+1 { // readPathInto's bound
		m.segs = make([]pathSeg, 0, max(len(d)/12+1, 2*cap(m.segs)))
	}
	free := cap(m.segs) - len(m.segs)
	segs, at, msg := readPathInto(m.segs[len(m.segs):], d, true)
	msg, at = pathProblem(msg, at)
	switch {
	case msg != "":
		segs = nil
	case segs == nil:
		segs = []pathSeg{} // read, and draws nothing
	case len(segs) <= free: // in m.segs (more would have moved out)
		m.segs = m.segs[:len(m.segs)+len(segs)]
		segs = segs[:len(segs):len(segs)]
	}
	if m.checked == nil {
		m.checked = map[string]pathCheck{}
	}
	m.checked[d] = pathCheck{msg, at, segs}
	return msg, at
}

// roundPath is roundPath, remembered.
func (m *Memo) roundPath(d string, r rounder, reshape bool) (string, bool) {
	if m == nil {
		return roundPath(d, r, reshape)
	}
	k := roundKey{d, math.Float64bits(r.tol), reshape}
	if p, ok := m.rounded[k]; ok {
		return p.d, p.ok
	}
	v, ok := roundRead(d, m.checked[d].segs, r, reshape)
	if m.rounded == nil {
		m.rounded = map[roundKey]roundedPath{}
	}
	m.rounded[k] = roundedPath{v, ok}
	return v, ok
}
