package generator

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"sync"
	"unsafe"
)

// spill is an append-only file of entries that a clean build keeps on
// disk instead of in memory until it writes the cache file: each logo's
// entry of the cache and each output file's record. At 13,880 logos these
// were 20 of the 29 MB the build held at the end of its per-logo phase,
// and the garbage collector lets the heap grow to twice what is held.
// Entries are in the cache file's encoding, so the cache is written by
// copying them.
type spill struct {
	mu      sync.Mutex
	f       *os.File
	w       *bufio.Writer
	remove  string // the file's name, when it could not be removed open
	n       int    // entries
	size    int64  // bytes written, with each entry's length
	payload int64  // bytes of the entries themselves
	err     error
}

// newSpill makes a spill file in dir, named by prefix; on Unix it has no
// name from the start.
func newSpill(dir, prefix string) (*spill, error) {
	f, err := os.CreateTemp(dir, prefix)
	if err != nil {
		return nil, err
	}
	s := &spill{f: f, w: bufio.NewWriterSize(f, 64<<10)}
	if os.Remove(f.Name()) != nil {
		s.remove = f.Name() // Windows: removed when closed
	}
	return s, nil
}

// spillRef is where an entry is in its spill file: read tells it.
type spillRef struct {
	off int64
	n   int32
}

// add appends one entry.
func (s *spill) add(entry []byte) (spillRef, error) {
	var n [binary.MaxVarintLen64]byte
	k := binary.PutUvarint(n[:], uint64(len(entry)))
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.w.Write(n[:k])
		_, s.err = s.w.Write(entry)
	}
	ref := spillRef{off: s.size + int64(k), n: int32(len(entry))}
	if int(ref.n) != len(entry) && s.err == nil {
		s.err = errors.New("a spill entry over 2 GB")
	}
	s.n++
	s.size += int64(k + len(entry))
	s.payload += int64(len(entry))
	return ref, s.err
}

// addWith appends the entry enc writes, encoded by a pooled encoder:
// a clean build adds one for each logo and each file (74,000 for 13,880
// logos), and a buffer made for each was garbage the collector chased.
func (s *spill) addWith(enc func(e *encoder)) (ref spillRef, err error) {
	err = withEntry(enc, func(entry []byte) error {
		ref, err = s.add(entry)
		return err
	})
	return ref, err
}

// withEntry encodes an entry by a pooled encoder (enc) and hands its bytes
// to use, which must not keep them.
func withEntry(enc func(e *encoder), use func(entry []byte) error) error {
	x := entryEncoders.Get().(*entryEncoder)
	defer entryEncoders.Put(x)
	x.big.Reset()
	x.e.buf, x.e.err = x.e.buf[:0], nil
	enc(&x.e)
	if x.big.Len() == 0 { // the usual case: all of it in buf
		return use(x.e.buf)
	}
	if x.e.flush(); x.e.err != nil {
		return x.e.err
	}
	return use(x.big.Bytes())
}

// flush writes what is buffered to the file, which read needs. Adding
// entries after it is an error of the caller's.
func (s *spill) flush() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.err = s.w.Flush()
	}
	return s.err
}

// spillReader reads entries of a flushed spill file by their refs, a
// window of the file at a time: refs in about the order the entries were
// added cost a read of 64 KB each. Each window is a new buffer, never
// written after the read, so an entry read stays valid as long as it is
// held (and holds its window).
type spillReader struct {
	s   *spill
	at  int64  // the file offset of win
	win []byte // nil before the first read
}

func (r *spillReader) read(ref spillRef) (string, error) {
	start, end := ref.off-r.at, ref.off-r.at+int64(ref.n)
	if r.win == nil || start < 0 || end > int64(len(r.win)) {
		size := max(int64(ref.n), 64<<10)
		size = min(size, r.s.size-ref.off)
		if size < int64(ref.n) {
			return "", errors.New("reading the spill file: an entry past its end")
		}
		r.win = make([]byte, size)
		if _, err := r.s.f.ReadAt(r.win, ref.off); err != nil {
			return "", errors.Join(errors.New("reading the spill file"), err)
		}
		r.at, start, end = ref.off, 0, int64(ref.n)
	}
	b := r.win[start:end]
	return unsafe.String(unsafe.SliceData(b), len(b)), nil
}

// entryEncoder is an encoder whose buffer holds a whole entry, unless it
// is larger than the buffer's flush size: then it goes to big.
type entryEncoder struct {
	e   encoder
	big bytes.Buffer
}

var entryEncoders = sync.Pool{New: func() any {
	x := &entryEncoder{}
	x.e = encoder{w: &x.big, buf: make([]byte, 0, 1024)}
	return x
}}

// count is the number of entries; nil holds none.
func (s *spill) count() int {
	if s == nil {
		return 0
	}
	return s.n
}

// payloadSize is the number of bytes of the entries, without their
// lengths; nil holds none.
func (s *spill) payloadSize() int64 {
	if s == nil {
		return 0
	}
	return s.payload
}

// each calls fn with every entry, in the order they were added. The
// string is valid only during the call. Adding an entry meanwhile is an
// error of the caller's.
func (s *spill) each(fn func(entry string) error) error {
	if s == nil {
		return nil
	}
	if s.err == nil {
		s.err = s.w.Flush()
	}
	if s.err != nil {
		return s.err
	}
	r := bufio.NewReaderSize(io.NewSectionReader(s.f, 0, s.size), 64<<10)
	var buf []byte
	for range s.n {
		k, err := binary.ReadUvarint(r)
		if err != nil {
			return errors.Join(errors.New("reading the spill file"), err)
		}
		if uint64(cap(buf)) < k {
			buf = make([]byte, k)
		}
		buf = buf[:k]
		if _, err := io.ReadFull(r, buf); err != nil {
			return errors.Join(errors.New("reading the spill file"), err)
		}
		if err := fn(unsafe.String(unsafe.SliceData(buf), len(buf))); err != nil {
			return err
		}
	}
	return nil
}

// close removes the file.
func (s *spill) close() {
	if s == nil {
		return
	}
	s.f.Close()
	if s.remove != "" {
		os.Remove(s.remove)
	}
}
