// Package wire is the encoding of a build's state files and spill files:
// varints and length-prefixed strings in a fixed order, with a CRC-32C at
// the end of a file. A Decoder reads from a string (often the bytes of a
// mapped file, which its strings then point into) and refuses any count
// that the bytes left cannot hold, so a forged file cannot make it
// allocate more than a small multiple of its own size.
package wire

import (
	"encoding/binary"
	"errors"
	"hash"
	"hash/crc32"
	"io"
	"unsafe"

	"logoindex/generator/internal/digest"
)

// Castagnoli is the CRC-32C table of the checksums.
var Castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Encoder writes the encoding through a buffer to w, hashing what it
// writes with sum, when set, for the checksum that Close appends.
type Encoder struct {
	w   io.Writer
	sum hash.Hash
	buf []byte
	err error
}

// NewEncoder returns an Encoder writing to w; sum may be nil.
func NewEncoder(w io.Writer, sum hash.Hash) *Encoder {
	return &Encoder{w: w, sum: sum, buf: make([]byte, 0, 64<<10)}
}

// Reset makes e write to w from the start, with no checksum, keeping its
// buffer: an encoder pooled for small entries.
func (e *Encoder) Reset(w io.Writer) {
	e.w, e.sum, e.buf, e.err = w, nil, e.buf[:0], nil
}

// Buffered is what e holds that it has not written yet.
func (e *Encoder) Buffered() []byte { return e.buf }

// NewFileEncoder returns an Encoder that starts a state file with magic
// and ends it, at Close, with the CRC-32C of everything before.
func NewFileEncoder(w io.Writer, magic string) *Encoder {
	e := NewEncoder(w, crc32.New(Castagnoli))
	e.Raw(magic)
	return e
}

// Flush writes what is buffered.
func (e *Encoder) Flush() error {
	e.write(e.buf)
	e.buf = e.buf[:0]
	return e.err
}

func (e *Encoder) write(b []byte) {
	if e.err == nil {
		if e.sum != nil {
			e.sum.Write(b)
		}
		_, e.err = e.w.Write(b)
	}
}

func (e *Encoder) grew() {
	if len(e.buf) >= 60<<10 {
		e.Flush()
	}
}

// Close writes what is buffered and the checksum, when there is one.
func (e *Encoder) Close() error {
	e.Flush()
	if e.err == nil && e.sum != nil {
		_, e.err = e.w.Write(e.sum.Sum(nil))
	}
	return e.err
}

// Err is the first error of a write.
func (e *Encoder) Err() error { return e.err }

// Raw writes s as it is, with no length.
func (e *Encoder) Raw(s string) {
	if len(s) < 16<<10 {
		e.buf = append(e.buf, s...)
		e.grew()
		return
	}
	// A large string goes straight through, not into a buffer grown to hold it.
	e.Flush()
	e.write(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// Uint writes x as a uvarint.
func (e *Encoder) Uint(x uint64) { e.buf = binary.AppendUvarint(e.buf, x); e.grew() }

// Int writes x as a varint.
func (e *Encoder) Int(x int64) { e.buf = binary.AppendVarint(e.buf, x); e.grew() }

// Sum writes the bytes of s as they are.
func (e *Encoder) Sum(s digest.Sum) { e.buf = append(e.buf, s[:]...); e.grew() }

// String writes the length of s, then its bytes.
func (e *Encoder) String(s string) { e.Uint(uint64(len(s))); e.Raw(s) }

// Bytes writes b as String writes a string.
func (e *Encoder) Bytes(b []byte) { e.String(unsafe.String(unsafe.SliceData(b), len(b))) }

// Strings writes the number of strings, then each as String does.
func (e *Encoder) Strings(s []string) {
	e.Uint(uint64(len(s)))
	for _, x := range s {
		e.String(x)
	}
}

// Bool writes b as the Uint 1 or 0.
func (e *Encoder) Bool(b bool) {
	var x uint64
	if b {
		x = 1
	}
	e.Uint(x)
}

// Decoder reads the encoding from a string, remembering the first error;
// after one, every read gives a zero value.
type Decoder struct {
	s   string
	err error
}

// NewDecoder returns a Decoder of s.
func NewDecoder(s string) *Decoder { return &Decoder{s: s} }

// errDamaged is a Decoder's error.
var errDamaged = errors.New("truncated or damaged state file")

// OpenFile checks that data starts with magic and ends with the CRC-32C of
// what comes before, and returns a Decoder of what lies between. The
// Decoder's strings point into data.
func OpenFile(data []byte, magic string) (*Decoder, error) {
	if len(data) < len(magic)+crc32.Size || string(data[:len(magic)]) != magic {
		return nil, errors.New("not a state file of this layout")
	}
	body, sum := data[:len(data)-crc32.Size], data[len(data)-crc32.Size:]
	if crc32.Checksum(body, Castagnoli) != binary.BigEndian.Uint32(sum) {
		return nil, errDamaged
	}
	rest := body[len(magic):]
	return &Decoder{s: unsafe.String(unsafe.SliceData(rest), len(rest))}, nil
}

// Fail marks the input as damaged.
func (d *Decoder) Fail() {
	if d.err == nil {
		d.err = errDamaged
	}
	d.s = ""
}

// Err is the first error, or nil.
func (d *Decoder) Err() error { return d.err }

// Done reports the first error, or one if anything is left unread.
func (d *Decoder) Done() error {
	if d.err == nil && d.s != "" {
		d.Fail()
	}
	return d.err
}

// Left is what is left to read.
func (d *Decoder) Left() string { return d.s }

// Uint reads a uvarint.
func (d *Decoder) Uint() uint64 {
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
	d.Fail()
	return 0
}

// Int reads a varint.
func (d *Decoder) Int() int64 {
	u := d.Uint()
	return int64(u>>1) ^ -int64(u&1) // binary.AppendVarint's zig-zag
}

// Count reads the length of a list whose elements take at least min bytes
// each, refusing one the bytes left cannot hold: the list is allocated
// before its elements are read.
func (d *Decoder) Count(min int) int {
	n := d.Uint()
	if n > uint64(len(d.s)/max(min, 1)) {
		d.Fail()
		return 0
	}
	return int(n)
}

// String reads a string, which points into the Decoder's input.
func (d *Decoder) String() string {
	n := d.Count(1)
	s := d.s[:n]
	d.s = d.s[n:]
	return s
}

// Sum reads the bytes of a digest.Sum.
func (d *Decoder) Sum() digest.Sum {
	var h digest.Sum
	if len(d.s) < len(h) {
		d.Fail()
		return h
	}
	copy(h[:], d.s)
	d.s = d.s[len(h):]
	return h
}

// Bool reads what Encoder.Bool wrote.
func (d *Decoder) Bool() bool { return d.Uint() != 0 }

// Strings reads what Encoder.Strings wrote.
func (d *Decoder) Strings() []string {
	n := d.Count(1)
	if n == 0 {
		return nil
	}
	s := make([]string, n)
	for i := range s {
		s[i] = d.String()
	}
	return s
}
