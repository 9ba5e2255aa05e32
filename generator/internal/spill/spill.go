// Package spill keeps what a build makes of each logo on disk, not in
// memory, until the end of the build: an append-only file of entries,
// unlinked from the start, read back in order or by reference. It is what
// keeps a clean build's memory flat however many logos it builds.
package spill

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"sync"
	"unsafe"

	"logoindex/generator/internal/wire"
)

// File is an append-only file of entries.
type File struct {
	mu      sync.Mutex
	f       *os.File
	w       *bufio.Writer
	remove  string // the file's name, when it could not be removed open
	n       int    // entries
	size    int64  // bytes written, with each entry's length
	payload int64  // bytes of the entries themselves
	err     error
}

// New makes a spill file in dir, named by prefix; on Unix it has no name
// from the start.
func New(dir, prefix string) (*File, error) {
	f, err := os.CreateTemp(dir, prefix)
	if err != nil {
		return nil, err
	}
	s := &File{f: f, w: bufio.NewWriterSize(f, 64<<10)}
	if os.Remove(f.Name()) != nil {
		s.remove = f.Name() // Windows: removed when closed
	}
	return s, nil
}

// Ref is where an entry is in its file.
type Ref struct {
	Off int64
	N   int32 // the entry's length; 0 for no entry
}

// Add appends one entry.
func (s *File) Add(entry []byte) (Ref, error) {
	var n [binary.MaxVarintLen64]byte
	k := binary.PutUvarint(n[:], uint64(len(entry)))
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.w.Write(n[:k])
		_, s.err = s.w.Write(entry)
	}
	ref := Ref{Off: s.size + int64(k), N: int32(len(entry))}
	if int(ref.N) != len(entry) && s.err == nil {
		s.err = errors.New("a spill entry over 2 GB")
	}
	s.n++
	s.size += int64(k + len(entry))
	s.payload += int64(len(entry))
	return ref, s.err
}

// AddWith appends the entry enc writes, through a pooled encoder: a clean
// build adds one for each logo and each file, and a buffer made for each
// would be garbage for the collector to chase.
func (s *File) AddWith(enc func(e *wire.Encoder)) (ref Ref, err error) {
	err = Encode(enc, func(entry []byte) error {
		ref, err = s.Add(entry)
		return err
	})
	return ref, err
}

// Encode encodes an entry through a pooled encoder (enc) and hands its
// bytes to use, which must not keep them.
func Encode(enc func(e *wire.Encoder), use func(entry []byte) error) error {
	x := entryEncoders.Get().(*entryEncoder)
	defer entryEncoders.Put(x)
	x.big.Reset()
	x.e.Reset(&x.big)
	enc(x.e)
	if x.big.Len() == 0 { // the usual case: all of it in the buffer
		return use(x.e.Buffered())
	}
	if err := x.e.Flush(); err != nil {
		return err
	}
	return use(x.big.Bytes())
}

// entryEncoder is an encoder whose buffer holds a whole entry, unless it
// is larger than the buffer's flush size: then it goes to big.
type entryEncoder struct {
	e   *wire.Encoder
	big bytes.Buffer
}

// Flush writes what is buffered to the file, which a Reader needs.
// Adding entries after it is an error of the caller's.
func (s *File) Flush() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.err = s.w.Flush()
	}
	return s.err
}

// Reader reads entries of a flushed file by their refs, a window of the
// file at a time: refs in about the order the entries were added cost a
// read of 64 KB each. Each window is a new buffer, never written after
// the read, so an entry read stays valid as long as it is held.
type Reader struct {
	s   *File
	at  int64  // the file offset of win
	win []byte // nil before the first read
}

// NewReader returns a Reader of s.
func NewReader(s *File) *Reader { return &Reader{s: s} }

// Read returns the entry at ref.
func (r *Reader) Read(ref Ref) (string, error) {
	start, end := ref.Off-r.at, ref.Off-r.at+int64(ref.N)
	if r.win == nil || start < 0 || end > int64(len(r.win)) {
		size := max(int64(ref.N), 64<<10)
		size = min(size, r.s.size-ref.Off)
		if size < int64(ref.N) {
			return "", errors.New("reading a spill file: an entry past its end")
		}
		r.win = make([]byte, size)
		if _, err := r.s.f.ReadAt(r.win, ref.Off); err != nil {
			return "", errors.Join(errors.New("reading a spill file"), err)
		}
		r.at, start, end = ref.Off, 0, int64(ref.N)
	}
	b := r.win[start:end]
	return unsafe.String(unsafe.SliceData(b), len(b)), nil
}

var entryEncoders = sync.Pool{New: func() any {
	x := &entryEncoder{}
	x.e = wire.NewEncoder(&x.big, nil)
	return x
}}

// Count is the number of entries; nil holds none.
func (s *File) Count() int {
	if s == nil {
		return 0
	}
	return s.n
}

// PayloadSize is the number of bytes of the entries, without their
// lengths; nil holds none.
func (s *File) PayloadSize() int64 {
	if s == nil {
		return 0
	}
	return s.payload
}

// Each calls fn with every entry, in the order they were added. The
// string is valid only during the call. Adding an entry meanwhile is an
// error of the caller's.
func (s *File) Each(fn func(entry string) error) error {
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
			return errors.Join(errors.New("reading a spill file"), err)
		}
		if uint64(cap(buf)) < k {
			buf = make([]byte, k)
		}
		buf = buf[:k]
		if _, err := io.ReadFull(r, buf); err != nil {
			return errors.Join(errors.New("reading a spill file"), err)
		}
		if err := fn(unsafe.String(unsafe.SliceData(buf), len(buf))); err != nil {
			return err
		}
	}
	return nil
}

// Close removes the file.
func (s *File) Close() {
	if s == nil {
		return
	}
	s.f.Close()
	if s.remove != "" {
		os.Remove(s.remove)
	}
}
