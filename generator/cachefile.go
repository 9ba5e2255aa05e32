package generator

import (
	"context"
	"encoding/binary"
	"errors"
	gohash "hash"
	"hash/crc32"
	"io"
	"io/fs"
	"maps"
	"math/bits"
	"runtime/debug"
	"slices"
	"strings"
	"unsafe"

	"logoindex/generator/problem"
	"logoindex/internal/par"
)

// The cache file is read at the start of every build, and a no-op build
// has about 200 ms in all for 3,470 logos: encoding/gob took 110 ms to read
// its 4.8 MB; this encoding's 3 MB take 20 to 40 ms, and each tree's
// record stays encoded until a build opens that tree (a no-op decodes the
// live tree's, about 12 ms, and never the standby's). It is a plain sequence
// of varints and length-prefixed strings in the order encodeCache writes
// them, after the magic line (which names the layout: a file of another
// layout is ignored) and followed by the CRC-32C of all that comes before,
// so a damaged file is ignored too (a SHA-256 of the 3 MB file took 13 ms of
// a no-op build's CPU by profile and 2.5 ms in a warm benchmark, the CRC,
// with the CPU's instruction, 0.3 ms). The decoder slices
// every string out of one copy of the file, and refuses any count larger
// than the bytes left can hold, so a hostile file (the checksum is no key:
// anyone can forge it) cannot make it allocate more than a small multiple
// of its own size (FuzzDecodeCache checks 16 times).

// cacheMagic starts the cache file and names its layout.
const cacheMagic = "logoindex-tree-cache-13\n"

// encodeCache writes c to w.
func encodeCache(w io.Writer, c *treeCache) error {
	e := newEncoder(w, crc32.New(castagnoli))
	e.raw(cacheMagic)
	e.str(c.Program)
	e.str(c.Settings)
	e.str(c.Dir)
	e.int(c.Started)
	e.str(c.Boot)
	e.hash(c.Collection)
	e.fileHashes(c.CollectionFiles)
	// Each tree's record as a string (decoded when its tree is opened),
	// then the count of its files, their sum (filesSum), and which of
	// the logos it holds (holdsLogos, lacks).
	e.uint(uint64(len(c.Trees)))
	for _, t := range c.Trees {
		e.uint(t.Dev)
		e.uint(t.Ino)
		n := t.fileCount()
		sum := t.encodeTo(e)
		e.uint(uint64(n))
		e.uint(sum)
		e.bool(t.holdsLogos)
		e.strs(t.lacks)
	}
	slugs := c.order
	if len(slugs) != len(c.Logos) || !slices.IsSorted(slugs) {
		slugs = slices.Sorted(maps.Keys(c.Logos))
	}
	// Each logo's entry as a string, which decodeCache finds without
	// decoding it: the entries decode in parallel.
	e.uint(uint64(len(slugs) + c.spilled.count()))
	for _, slug := range slugs {
		l := c.Logos[slug]
		if l.encoded != "" {
			e.str(l.encoded)
			continue
		}
		// A logo computed since the cache was read.
		err := withEntry(func(le *encoder) { le.logo(slug, l) }, func(entry []byte) error {
			e.str(unsafe.String(unsafe.SliceData(entry), len(entry)))
			return nil
		})
		if err != nil {
			return err
		}
	}
	if err := c.spilled.each(func(entry string) error { e.str(entry); return nil }); err != nil {
		return err
	}
	return e.close()
}

// decodeCache reads what encodeCache wrote. The trees' records stay
// encoded until a build opens their trees (treeRecord.decode).
func decodeCache(data []byte) (_ *treeCache, err error) {
	// A mapped file (mapCacheFile) cut short meanwhile faults on the
	// pages it lost: no cache, rather than a crash.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	faulted := false
	defer func() {
		if faulted {
			err = errors.New("the cache file was cut short while it was read")
		}
	}()
	defer recoverFault(&faulted)
	if len(data) < len(cacheMagic)+crc32.Size || string(data[:len(cacheMagic)]) != cacheMagic {
		return nil, errors.New("not a cache file of this layout")
	}
	body, sum := data[:len(data)-crc32.Size], data[len(data)-crc32.Size:]
	if crc32.Checksum(body, castagnoli) != binary.BigEndian.Uint32(sum) {
		return nil, errors.New("damaged cache file")
	}
	// The strings of the cache point into body, which is never written.
	rest := body[len(cacheMagic):]
	d := &decoder{s: unsafe.String(unsafe.SliceData(rest), len(rest))}
	c := &treeCache{Program: d.str(), Settings: d.str(), Dir: d.str(), Started: d.int(), Boot: d.str(), Collection: d.hash()}
	c.CollectionFiles = d.fileHashes()
	for _, f := range c.CollectionFiles {
		if d.err == nil && !validName(f.Name) {
			d.err = errors.New("a collection file outside the tree")
		}
	}
	c.Trees = make([]*treeRecord, d.count(minTree))
	for i := range c.Trees {
		r := &treeRecord{Dev: d.uint(), Ino: d.uint(), encoded: d.str()}
		// A count the record's own bytes cannot hold is refused.
		if n := d.uint(); n <= uint64(len(r.encoded)/minTreeFile) {
			r.count = int(n)
		} else {
			d.fail()
		}
		r.sum, r.sumKnown = d.uint(), true
		r.holdsLogos, r.lacks = d.bool(), d.strs()
		if !slices.IsSorted(r.lacks) {
			d.fail()
		}
		c.Trees[i] = r
	}
	entries := make([]string, d.count(minByteCount+minLogo))
	for i := range entries {
		entries[i] = d.str()
	}
	if d.err == nil && d.s != "" {
		d.err = errors.New("trailing data")
	}
	if d.err != nil {
		return nil, d.err
	}
	// The logos decode in parallel: one after the other, their 5 ms for
	// 3,470 logos were the longest wait of a rebuild's start.
	logos := make([]*cachedLogo, len(entries))
	const chunk = 256
	failed := make([]bool, (len(entries)+chunk-1)/chunk)
	par.For(context.Background(), len(failed), 0, func(k int) {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer recoverFault(&failed[k])
		for i := k * chunk; i < min(len(entries), (k+1)*chunk); i++ {
			d := &decoder{s: entries[i]}
			slug, l := d.logo()
			// Checked here, while the entry is in the CPU's cache: a
			// pass of its own over every logo took 5 ms.
			if d.err != nil || d.s != "" || !validLogo(slug, l) {
				failed[k] = true
				return
			}
			l.encoded = entries[i]
			logos[i] = l
		}
	})
	if slices.Contains(failed, true) {
		return nil, errors.New("a logo damaged, or with a path outside its folder or the tree")
	}
	c.Logos = make(map[string]*cachedLogo, len(logos))
	for _, l := range logos {
		c.Logos[l.Summary.Slug] = l
	}
	return c, nil
}

// recoverFault, deferred where debug.SetPanicOnFault is set, turns a
// fault on memory that went away (a mapped file cut short) into *failed;
// any other panic goes on.
func recoverFault(failed *bool) {
	if r := recover(); r != nil {
		if _, fault := r.(interface{ Addr() uintptr }); !fault {
			panic(r)
		}
		*failed = true
	}
}

// encodeTo writes the record's files and folders, as a string of the
// cache's encoding: the encoded form it was read as, unless the build
// wrote into its tree (openStandby drops it). The string's length is
// counted first (entriesSize) and its content then written straight to
// e: building it whole (1.4 MB for 3,470 logos) took 40 ms, mostly faults
// on the new memory.
//
// It returns the sum of the record's files (filesSum).
func (r *treeRecord) encodeTo(e *encoder) uint64 {
	if r.Files == nil || r.encoded != "" && r.editedFiles == nil && r.editedDirs == nil {
		e.str(r.encoded)
		return r.sum
	}
	if r.encoded != "" {
		delta := r.delta()
		e.uint(uint64(len(r.encoded) + len(delta)))
		e.raw(r.encoded)
		e.raw(delta)
		return r.filesSum()
	}
	e.uint(uint64(r.entriesSize()) + uint64(r.spilled.payloadSize()))
	return r.encodeEntries(e, true)
}

// fileSum is what a file named name holding h adds to the sum of a list
// of files, which two lists share when they hold the same files, in any
// order: upToDate compares the live tree's record with the cache's logos
// by their sums, not by a lookup of each file in the record's map (18 of
// a no-op build's 140 ms of CPU). FNV-1a of the name, mixed with the
// content hash, then through SplitMix64's finalizer.
func fileSum(name string, h hash) uint64 {
	x := uint64(14695981039346656037)
	for i := 0; i < len(name); i++ {
		x ^= uint64(name[i])
		x *= 1099511628211
	}
	x ^= binary.LittleEndian.Uint64(h[:8])
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// filesSum is the sum of the fileSum of each of files.
func filesSum(files []fileHash) uint64 {
	var sum uint64
	for _, f := range files {
		sum += fileSum(f.Name, f.Hash)
	}
	return sum
}

// entriesSize is the length of what encodeEntries writes of the record
// but its spilled files, by arithmetic: encoding it into a counter took
// 5 ms for 3,470 logos, most of a one-change build's writing of the
// cache (TestEntriesSize holds the two equal).
func (r *treeRecord) entriesSize() int {
	n := uvarintLen(uint64(r.fileCount()))
	for name, st := range r.Files {
		n += uvarintLen(uint64(len(name))) + len(name) + len(st.Hash) + varintLen(st.Size) + varintLen(st.MTime) + uvarintLen(st.Ino)
	}
	n += uvarintLen(uint64(len(r.Dirs)))
	for d, mtime := range r.Dirs {
		n += uvarintLen(uint64(len(d))) + len(d) + varintLen(mtime)
	}
	return n
}

// uvarintLen is the length of binary.AppendUvarint's encoding of x.
func uvarintLen(x uint64) int { return (bits.Len64(x|1) + 6) / 7 }

// varintLen is the length of binary.AppendVarint's encoding of x.
func varintLen(x int64) int { return uvarintLen(uint64(x<<1) ^ uint64(x>>63)) }

// encodeEntries writes the record's files and folders; those in its spill
// file only when spilled is set (encodeTo counts the others). It returns
// the sum of the files it wrote (filesSum).
func (r *treeRecord) encodeEntries(e *encoder, spilled bool) uint64 {
	var sum uint64
	e.uint(uint64(r.fileCount()))
	for name, st := range r.Files {
		e.fileState(name, st)
		sum += fileSum(name, st.Hash)
	}
	if spilled {
		err := r.spilled.each(func(entry string) error {
			e.raw(entry)
			name, h, err := spilledFile(entry)
			sum += fileSum(name, h)
			return err
		})
		if err != nil && e.err == nil {
			e.err = err
		}
	}
	e.uint(uint64(len(r.Dirs)))
	for d, mtime := range r.Dirs {
		e.str(d)
		e.int(mtime)
	}
	return sum
}

// delta encodes the files and folders edited since decode, each name
// with 1 and its state, or 0 where it is gone.
func (r *treeRecord) delta() string {
	var b strings.Builder
	e := newEncoder(&b, nil)
	encodeEdits(e, r.editedFiles, r.Files, e.state)
	encodeEdits(e, r.editedDirs, r.Dirs, e.int)
	e.flush()
	return b.String()
}

// encodeEdits writes each name of edited with 1 and its value in m, or
// with 0 where m has none.
func encodeEdits[V any](e *encoder, edited map[string]bool, m map[string]V, put func(V)) {
	e.uint(uint64(len(edited)))
	for name := range edited {
		v, ok := m[name]
		e.str(name)
		e.bool(ok)
		if ok {
			put(v)
		}
	}
}

// decode reads the record's files and folders, which the cache file holds
// encoded until a build opens the tree: a no-op build reads only the
// live tree's folders (decodeDirs). Like decodeCache for the logos
// (validLogo), it refuses a name that is not a clean path inside the tree.
// It is safe to call from more than one goroutine.
func (r *treeRecord) decode() error {
	r.decoded.Do(func() { r.decodeErr = r.parse(true) })
	return r.decodeErr
}

// decodeDirs reads the record's folders, not its files: all a build
// needs of the live tree when nothing changed (upToDate).
func (r *treeRecord) decodeDirs() error {
	if r.Dirs != nil {
		return nil
	}
	return r.parse(false)
}

// parse reads the record's folders, and its files too when files is set.
func (r *treeRecord) parse(files bool) error {
	if r.Files != nil {
		return nil
	}
	d := &decoder{s: r.encoded}
	n := d.count(minTreeFile)
	var fm map[string]fileState
	if files {
		fm = make(map[string]fileState, n)
	}
	for range n {
		name := d.str()
		st := d.state()
		if files {
			if !validName(name) {
				return errors.New("a path outside the tree")
			}
			fm[name] = st
		}
	}
	// Folders read already (decodeDirs) are passed over: a second map of
	// them took a millisecond of a one-change build's standby.
	dirs := r.Dirs
	n = d.count(minTreeDir)
	if dirs == nil {
		dirs = make(map[string]int64, n)
	}
	for range n {
		name := d.str()
		mtime := d.int()
		if r.Dirs != nil {
			continue
		}
		if !fs.ValidPath(name) {
			return errors.New("a path outside the tree")
		}
		dirs[name] = mtime
	}
	// The deltas (treeRecord.delta), in the order they were written.
	deltas := 0
	for d.err == nil && d.s != "" {
		n := d.count(minDeltaFile)
		for range n {
			name := d.str()
			if !validName(name) {
				return errors.New("a path outside the tree")
			}
			if d.bool() {
				st := d.state()
				if files {
					fm[name] = st
				}
			} else if files {
				delete(fm, name)
			}
		}
		m := d.count(minDeltaDir)
		for range m {
			name := d.str()
			there := d.bool()
			var mtime int64
			if there {
				mtime = d.int()
			}
			if r.Dirs != nil {
				continue
			}
			if !fs.ValidPath(name) {
				return errors.New("a path outside the tree")
			}
			if there {
				dirs[name] = mtime
			} else {
				delete(dirs, name)
			}
		}
		deltas += n + m
	}
	if d.err != nil {
		return d.err
	}
	if files {
		r.Files = fm
	}
	if r.Dirs == nil {
		r.Dirs = dirs
	}
	r.deltas = deltas
	return nil
}

// castagnoli is the CRC-32C table, which the cache file's checksum uses.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// encoder writes the cache's encoding through a buffer, hashing what it
// writes with sum, when set, for the checksum at the end.
type encoder struct {
	w   io.Writer
	sum gohash.Hash
	buf []byte
	err error
}

func newEncoder(w io.Writer, sum gohash.Hash) *encoder {
	return &encoder{w: w, sum: sum, buf: make([]byte, 0, 64<<10)}
}

func (e *encoder) flush() {
	e.write(e.buf)
	e.buf = e.buf[:0]
}

func (e *encoder) write(b []byte) {
	if e.err == nil {
		if e.sum != nil {
			e.sum.Write(b)
		}
		_, e.err = e.w.Write(b)
	}
}

func (e *encoder) grew() {
	if len(e.buf) >= 60<<10 {
		e.flush()
	}
}

// close writes what is buffered and the checksum.
func (e *encoder) close() error {
	e.flush()
	if e.err == nil {
		_, e.err = e.w.Write(e.sum.Sum(nil))
	}
	return e.err
}

func (e *encoder) raw(s string) {
	if len(s) < 16<<10 {
		e.buf = append(e.buf, s...)
		e.grew()
		return
	}
	// A tree's record, a megabyte or more, which the buffer grew to hold:
	// by profile, 2 of the 6 ms of CPU a one-change build spent encoding
	// the cache were faults on that new memory.
	e.flush()
	e.write(unsafe.Slice(unsafe.StringData(s), len(s)))
}

func (e *encoder) uint(x uint64) { e.buf = binary.AppendUvarint(e.buf, x); e.grew() }
func (e *encoder) int(x int64)   { e.buf = binary.AppendVarint(e.buf, x); e.grew() }
func (e *encoder) hash(h hash)   { e.buf = append(e.buf, h[:]...); e.grew() }
func (e *encoder) str(s string)  { e.uint(uint64(len(s))); e.raw(s) }
func (e *encoder) bool(b bool) {
	var x uint64
	if b {
		x = 1
	}
	e.uint(x)
}
func (e *encoder) strs(s []string) {
	e.uint(uint64(len(s)))
	for _, x := range s {
		e.str(x)
	}
}

func (e *encoder) fileHashes(files []fileHash) {
	e.uint(uint64(len(files)))
	for _, f := range files {
		e.str(f.Name)
		e.hash(f.Hash)
	}
}

// logo writes a logo's entry of the cache.
func (e *encoder) logo(slug string, l *cachedLogo) {
	if l.encoded != "" {
		e.raw(l.encoded)
		return
	}
	// The files first: logoFiles reads no further.
	e.str(slug)
	e.fileHashes(l.Files)
	e.input(l.Folder)
	e.uint(uint64(len(l.Inputs)))
	for _, in := range l.Inputs {
		e.input(in)
	}
	e.summary(l.Summary)
	e.problems(l.Warnings)
}

// fileState writes a file's entry of a tree's record.
func (e *encoder) fileState(name string, st fileState) {
	e.str(name)
	e.state(st)
}

func (e *encoder) state(st fileState) {
	e.hash(st.Hash)
	e.int(st.Size)
	e.int(st.MTime)
	e.uint(st.Ino)
}

func (d *decoder) state() fileState {
	return fileState{Hash: d.hash(), Size: d.int(), MTime: d.int(), Ino: d.uint()}
}

func (e *encoder) input(in inputStat) {
	e.str(in.Name)
	e.int(in.Size)
	e.int(in.MTime)
	e.int(in.CTime)
	e.uint(in.Ino)
	e.hash(in.Hash)
}

// summary writes a logo's summary; TestCacheRoundTrip fails when a field
// is added to logoSummary and not here.
func (e *encoder) summary(s *logoSummary) {
	e.str(s.Slug)
	e.str(s.Name)
	e.str(s.Hex)
	e.strs(s.Categories)
	e.strs(s.Aliases)
	e.str(s.Component)
	e.int(int64(s.ComponentAt.Line))
	e.int(int64(s.ComponentAt.Col))
	e.str(s.MetaPath)
	e.strs(s.Variants)
	e.bool(s.DarkIcon)
	e.bool(s.IconOnDark)
}

func (e *encoder) problems(l ProblemList) {
	e.uint(uint64(len(l)))
	for _, p := range l {
		e.str(p.Path)
		e.int(int64(p.Line))
		e.int(int64(p.Col))
		e.int(int64(p.Severity))
		e.str(string(p.Code))
		e.str(p.Msg)
	}
}

// decoder reads the cache's encoding from a string, remembering the first
// error; after one, every read gives a zero value.
type decoder struct {
	s   string
	err error
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errors.New("truncated or damaged cache file")
	}
	d.s = ""
}

func (d *decoder) uint() uint64 {
	var x uint64
	for i, shift := 0, uint(0); i < len(d.s) && i < binary.MaxVarintLen64; i, shift = i+1, shift+7 {
		b := d.s[i]
		if b < 0x80 {
			if i == binary.MaxVarintLen64-1 && b > 1 {
				break // overflows 64 bits
			}
			d.s = d.s[i+1:]
			return x | uint64(b)<<shift
		}
		x |= uint64(b&0x7f) << shift
	}
	d.fail()
	return 0
}

func (d *decoder) int() int64 {
	u := d.uint()
	return int64(u>>1) ^ -int64(u&1) // binary.AppendVarint's zig-zag
}

// count reads the length of a list whose elements take at least min
// bytes each in the file, refusing one the bytes left cannot hold: the
// list is allocated before its elements are read, and a forged count must
// not make the decoder allocate more than a few times the file's size.
func (d *decoder) count(min int) int {
	n := d.uint()
	if n > uint64(len(d.s)/min) {
		d.fail()
		return 0
	}
	return int(n)
}

// The fewest bytes an element of each list takes in the file: a string
// its length (one), a hash 16, a varint one.
const (
	minString    = 1
	minFileHash  = minString + 16
	minInput     = minString + 4 + 16
	minProblem   = minString + 3 + minString + minString
	minLogo      = minString + minInput + 1 + minSummary + 1 + 1
	minSummary   = 3*minString + 2 + minString + 2 + minString + 1 + 2
	minTree      = 6 + minString
	minTreeFile  = minString + 16 + 3
	minTreeDir   = minString + 1
	minDeltaFile = minString + 1
	minDeltaDir  = minString + 1
	minByteCount = 1
)

func (d *decoder) str() string {
	n := d.count(minByteCount)
	s := d.s[:n]
	d.s = d.s[n:]
	return s
}

func (d *decoder) hash() hash {
	var h hash
	if len(d.s) < len(h) {
		d.fail()
		return h
	}
	copy(h[:], d.s)
	d.s = d.s[len(h):]
	return h
}

func (d *decoder) bool() bool { return d.uint() != 0 }

func (d *decoder) strs() []string {
	n := d.count(minString)
	if n == 0 {
		return nil
	}
	s := make([]string, n)
	for i := range s {
		s[i] = d.str()
	}
	return s
}

func (d *decoder) fileHashes() []fileHash {
	n := d.count(minFileHash)
	if n == 0 {
		return nil
	}
	files := make([]fileHash, n)
	for i := range files {
		files[i] = fileHash{Name: d.str(), Hash: d.hash()}
	}
	return files
}

func (d *decoder) input() inputStat {
	return inputStat{Name: d.str(), Size: d.int(), MTime: d.int(), CTime: d.int(), Ino: d.uint(), Hash: d.hash()}
}

// logo reads what encoder.logo wrote.
func (d *decoder) logo() (string, *cachedLogo) {
	slug := d.str()
	l := &cachedLogo{Files: d.fileHashes()}
	l.Folder = d.input()
	l.Inputs = make([]inputStat, d.count(minInput))
	for i := range l.Inputs {
		l.Inputs[i] = d.input()
	}
	l.Summary = d.summary()
	l.Warnings = d.problems()
	return slug, l
}

// logoFiles reads the slug and the names of the files of what
// encoder.logo wrote, and nothing else, with no allocation: the check
// that no two outputs share a name reads every logo's entry once a pass,
// five passes at 104,100 logos (1.75 s in all when it decoded whole
// entries).
func (d *decoder) logoFiles(fn func(slug, name string)) {
	slug := d.str()
	for range d.count(minFileHash) {
		name := d.str()
		d.hash()
		if d.err == nil {
			fn(slug, name)
		}
	}
}

func (d *decoder) summary() *logoSummary {
	s := &logoSummary{Slug: d.str(), Name: d.str(), Hex: d.str(), Categories: d.strs(), Aliases: d.strs(), Component: d.str()}
	s.ComponentAt = Pos{Line: int(d.int()), Col: int(d.int())}
	s.MetaPath = d.str()
	s.Variants = sharedVariants(d.strs())
	s.DarkIcon = d.bool()
	s.IconOnDark = d.bool()
	return s
}

func (d *decoder) problems() ProblemList {
	n := d.count(minProblem)
	if n == 0 {
		return nil
	}
	l := make(ProblemList, n)
	for i := range l {
		// Copied: a build returns its warnings, which must not point
		// into a cache file it mapped (mapCacheFile).
		l[i] = &problem.Problem{Path: strings.Clone(d.str()), Line: int(d.int()), Col: int(d.int()), Severity: problem.Severity(d.int()), Code: problem.Code(strings.Clone(d.str())), Msg: strings.Clone(d.str())}
	}
	return l
}

// digestOf hashes what the cache's encoding makes of a value, for
// collectionDigest.
func digestOf(write func(e *encoder)) hash {
	h := newHasher()
	e := newEncoder(h, nil)
	write(e)
	e.flush()
	return h.sum()
}
