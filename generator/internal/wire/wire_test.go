package wire

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"logoindex/generator/internal/digest"
)

const testMagic = "logoindex-test-1\n"

// values is one of each thing the encoding writes, at the edges of their
// lengths, and enough of them to pass the encoder's buffer.
type values struct {
	Uints   []uint64
	Ints    []int64
	Sums    []digest.Sum
	Strings []string
	Lists   [][]string
	Bools   []bool
}

func testValues() values {
	v := values{
		Uints: []uint64{0, 1, 127, 128, 16383, 16384, 1<<56 - 1, 1 << 56, 1 << 63, math.MaxUint64},
		Ints:  []int64{0, 1, -1, 63, -64, 64, -65, 1 << 40, -(1 << 40), math.MaxInt64, math.MinInt64},
		Sums:  []digest.Sum{{}, digest.OfString("a"), {0xff, 0xfe, 0, 1}},
		Strings: []string{"", "a", "\x00", strings.Repeat("s", 127), strings.Repeat("t", 128),
			strings.Repeat("u", 16<<10-1), strings.Repeat("v", 16<<10), strings.Repeat("w", 100<<10)},
		Lists: [][]string{nil, {"one"}, {"", "two", strings.Repeat("x", 300)}},
		Bools: []bool{true, false},
	}
	for i := range 20000 { // 60 KB and more of small values
		v.Uints = append(v.Uints, uint64(i)*977)
		v.Strings = append(v.Strings, strings.Repeat("y", i%5))
	}
	return v
}

func (v values) encode(e *Encoder) {
	for _, x := range v.Uints {
		e.Uint(x)
	}
	for _, x := range v.Ints {
		e.Int(x)
	}
	for _, x := range v.Sums {
		e.Sum(x)
	}
	for i, x := range v.Strings {
		if i%2 == 0 {
			e.String(x)
		} else {
			e.Bytes([]byte(x))
		}
	}
	for _, x := range v.Lists {
		e.Strings(x)
	}
	for _, x := range v.Bools {
		e.Bool(x)
	}
}

// decode reads what encode wrote, in the shape of want.
func decode(d *Decoder, want values) values {
	var v values
	for range want.Uints {
		v.Uints = append(v.Uints, d.Uint())
	}
	for range want.Ints {
		v.Ints = append(v.Ints, d.Int())
	}
	for range want.Sums {
		v.Sums = append(v.Sums, d.Sum())
	}
	for range want.Strings {
		v.Strings = append(v.Strings, d.String())
	}
	for range want.Lists {
		v.Lists = append(v.Lists, d.Strings())
	}
	for range want.Bools {
		v.Bools = append(v.Bools, d.Bool())
	}
	return v
}

// TestRoundTrip writes values through a file encoder and reads them back,
// and the same without the file's magic and checksum.
func TestRoundTrip(t *testing.T) {
	want := testValues()
	var b bytes.Buffer
	e := NewFileEncoder(&b, testMagic)
	want.encode(e)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	d, err := OpenFile(b.Bytes(), testMagic)
	if err != nil {
		t.Fatal(err)
	}
	got := decode(d, want)
	if err := d.Done(); err != nil {
		t.Fatalf("Done: %v (%d bytes left)", err, len(d.Left()))
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("read back (-written +read):\n%.2000s", diff)
	}

	// Without a checksum, the same bytes but the magic and the sum.
	var plain bytes.Buffer
	p := NewEncoder(&plain, nil)
	want.encode(p)
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if body := b.Bytes()[len(testMagic) : b.Len()-crc32.Size]; !bytes.Equal(body, plain.Bytes()) {
		t.Error("a file's body differs from the same values encoded without a checksum")
	}

	// An encoder reset keeps nothing of what it held.
	var again bytes.Buffer
	p.Reset(&again)
	p.Uint(5)
	p.Flush()
	if !bytes.Equal(again.Bytes(), []byte{5}) || p.Err() != nil {
		t.Errorf("after Reset: %q, %v", again.Bytes(), p.Err())
	}
}

// TestVarints holds the decoder to encoding/binary's reading of varints,
// for every way one can end, overflow or be cut short.
func TestVarints(t *testing.T) {
	inputs := [][]byte{
		{}, {0}, {1}, {0x7f}, {0x80}, {0x80, 0}, {0x80, 1}, {0xff, 0xff, 0xff},
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},       // the largest
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02},       // past 64 bits
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x80, 0x01}, // eleven bytes
		{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00},       // zero, the long way
	}
	for _, b := range inputs {
		x, n := binary.Uvarint(b)
		d := NewDecoder(string(b))
		got := d.Uint()
		if n > 0 {
			if d.Err() != nil || got != x || len(d.Left()) != len(b)-n {
				t.Errorf("Uint of %x: %d, %v, %d left; binary reads %d in %d bytes", b, got, d.Err(), len(d.Left()), x, n)
			}
		} else if d.Err() == nil || got != 0 {
			t.Errorf("Uint of %x: %d, no error; binary refuses it", b, got)
		}
		y, m := binary.Varint(b)
		d = NewDecoder(string(b))
		if gotInt := d.Int(); m > 0 && (d.Err() != nil || gotInt != y) || m <= 0 && d.Err() == nil {
			t.Errorf("Int of %x: %d, %v; binary reads %d in %d bytes", b, gotInt, d.Err(), y, m)
		}
	}
}

// TestDecoderRefuses: every read past what the bytes hold fails, and
// after a failure every read gives the zero value.
func TestDecoderRefuses(t *testing.T) {
	for _, tc := range []struct {
		name  string
		input []byte
		read  func(d *Decoder) any
	}{
		{"a string past the end", []byte{5, 'a', 'b'}, func(d *Decoder) any { return d.String() }},
		{"a sum cut short", make([]byte, 15), func(d *Decoder) any { return d.Sum() }},
		{"a list of more strings than bytes", []byte{4, 0, 0, 0}, func(d *Decoder) any { return d.Strings() }},
		{"a huge list", binary.AppendUvarint(nil, 1<<62), func(d *Decoder) any { return d.Strings() }},
		{"a varint cut short", []byte{0x80}, func(d *Decoder) any { return d.Uint() }},
		{"a count past the end", []byte{3, 0, 0}, func(d *Decoder) any { return d.Count(1) }},
		{"a count past the end of its least size", []byte{2, 0, 0, 0}, func(d *Decoder) any { return d.Count(2) }},
	} {
		d := NewDecoder(string(tc.input))
		got := tc.read(d)
		if d.Err() == nil {
			t.Errorf("%s: read %v with no error", tc.name, got)
		}
		if d.Uint() != 0 || d.Int() != 0 || d.String() != "" || d.Sum() != (digest.Sum{}) || d.Bool() || d.Strings() != nil || d.Count(1) != 0 || d.Left() != "" {
			t.Errorf("%s: a read after the failure gave a value", tc.name)
		}
		if d.Done() == nil {
			t.Errorf("%s: Done after a failure", tc.name)
		}
	}
	// Counts the bytes can hold pass; Done fails with bytes left.
	for _, tc := range []struct {
		input    []byte
		min      int
		want     int
		wantLeft int
	}{
		{[]byte{0}, 1, 0, 0},
		{[]byte{2, 0, 0}, 1, 2, 2},
		{[]byte{2, 0, 0, 0, 0}, 2, 2, 4},
		{[]byte{1, 0}, 0, 1, 1}, // a least size of 0 is taken as 1
	} {
		d := NewDecoder(string(tc.input))
		if got := d.Count(tc.min); got != tc.want || d.Err() != nil || len(d.Left()) != tc.wantLeft {
			t.Errorf("Count(%d) of %x: %d, %v; want %d", tc.min, tc.input, got, d.Err(), tc.want)
		}
		if tc.wantLeft > 0 && d.Done() == nil {
			t.Errorf("Done with %d bytes left", tc.wantLeft)
		}
	}
	d := NewDecoder("abc")
	d.Fail()
	if d.Err() == nil || d.Left() != "" {
		t.Error("Fail left the decoder going")
	}
}

// TestOpenFile refuses a file of another layout, a damaged one and one
// cut short.
func TestOpenFile(t *testing.T) {
	var b bytes.Buffer
	e := NewFileEncoder(&b, testMagic)
	e.String("hello")
	e.Uint(42)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	if _, err := OpenFile(data, testMagic); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenFile(data, "logoindex-test-2\n"); err == nil {
		t.Error("a file of another magic was opened")
	}
	for i := range data {
		damaged := bytes.Clone(data)
		damaged[i] ^= 0x10
		if _, err := OpenFile(damaged, testMagic); err == nil {
			t.Errorf("byte %d changed: opened", i)
		}
	}
	for n := range len(data) {
		if _, err := OpenFile(data[:n], testMagic); err == nil {
			t.Errorf("cut to %d bytes: opened", n)
		}
	}
}

// errWriter fails every write.
type errWriter struct{}

func (errWriter) Write([]byte) (int, error) { return 0, bytes.ErrTooLarge }

func TestEncoderError(t *testing.T) {
	e := NewFileEncoder(errWriter{}, testMagic)
	e.String(strings.Repeat("x", 100<<10)) // straight through: fails now
	if e.Err() == nil {
		t.Error("a failed write of a large string left no error")
	}
	e.Uint(1)
	if err := e.Close(); err == nil {
		t.Error("Close after a failed write succeeded")
	}
}

// FuzzDecoder reads any bytes as a sequence of any reads: no panic, no
// count the bytes cannot hold, every string a part of the input, and
// varints as encoding/binary reads them.
func FuzzDecoder(f *testing.F) {
	var b bytes.Buffer
	e := NewEncoder(&b, nil)
	e.String("acme")
	e.Uint(3)
	e.Sum(digest.OfString("x"))
	e.Strings([]string{"a", "b"})
	e.Int(-5)
	e.Close()
	f.Add(byte(0), b.Bytes())
	f.Add(byte(3), []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Add(byte(5), []byte{})
	f.Fuzz(func(t *testing.T, ops byte, b []byte) {
		input := string(b)
		d := NewDecoder(input)
		for i := 0; i < 64 && d.Err() == nil && d.Left() != ""; i++ {
			left := d.Left()
			switch (int(ops) + i*int(ops|1)) % 7 {
			case 0:
				want, n := binary.Uvarint([]byte(left))
				got := d.Uint()
				if n > 0 && (got != want || d.Err() != nil) || n <= 0 && d.Err() == nil {
					t.Fatalf("Uint of %x: %d, %v; binary reads %d, %d", left, got, d.Err(), want, n)
				}
			case 1:
				d.Int()
			case 2:
				s := d.String()
				if !strings.Contains(input, s) {
					t.Fatalf("String gave %q, not in the input", s)
				}
			case 3:
				d.Sum()
			case 4:
				min := 1 + int(ops)%20
				if n := d.Count(min); n > len(d.Left())/min {
					t.Fatalf("Count(%d) gave %d with %d bytes left", min, n, len(d.Left()))
				}
			case 5:
				for _, s := range d.Strings() {
					if !strings.Contains(input, s) {
						t.Fatalf("Strings gave %q, not in the input", s)
					}
				}
			case 6:
				d.Bool()
			}
			if len(d.Left()) > len(left) {
				t.Fatal("a read gave bytes back")
			}
		}
		if d.Err() != nil && (d.Left() != "" || d.Uint() != 0 || d.String() != "") {
			t.Fatal("a failed decoder went on reading")
		}
		OpenFile(b, "m") // any bytes as a file
	})
}
