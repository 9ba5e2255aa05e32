package svg

import (
	"math"
	"sync"
	"unsafe"
)

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
	if m.segs == nil {
		if p, _ := segArenas.Get().(*[]pathSeg); p != nil {
			m.segs = *p
		}
	}
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

// segArenas holds the segment arenas of released Memos, so that a build
// does not allocate a new arena per logo: readPathInto's bound asks for a
// segment for every few bytes of path.
var segArenas sync.Pool // of *[]pathSeg

// maxPooledArena is the most segments an arena kept for the next Memo
// may hold, so that a logo with megabytes of paths keeps no memory after
// it.
const maxPooledArena = 1 << 20 / int(unsafe.Sizeof(pathSeg{}))

// Release empties m and hands the memory of its paths on to the next
// Memo. Call it when done with m; m stays ready for use.
func (m *Memo) Release() {
	if m == nil {
		return
	}
	if s := m.segs[:0]; cap(s) > 0 && cap(s) <= maxPooledArena {
		segArenas.Put(&s)
	}
	*m = Memo{}
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
