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
}

type pathCheck struct {
	msg string
	at  int
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
	msg, at = checkPathData(d)
	if m.checked == nil {
		m.checked = map[string]pathCheck{}
	}
	m.checked[d] = pathCheck{msg, at}
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
	v, ok := roundPath(d, r, reshape)
	if m.rounded == nil {
		m.rounded = map[roundKey]roundedPath{}
	}
	m.rounded[k] = roundedPath{v, ok}
	return v, ok
}
