package generator

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"reflect"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// fill sets every exported field reachable from v to a value that differs
// from the zero value and from the other fields' (slices and maps get two
// elements), so that a field the cache's encoding forgets shows in a diff.
func fill(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), n)
			}
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(v.Index(i), n)
		}
	case reflect.Array:
		for i := range v.Len() {
			fill(v.Index(i), n)
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		for range 2 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(k, n)
			fill(e, n)
			v.SetMapIndex(k, e)
		}
	case reflect.String:
		// A clean path, so that the cache passes valid and decode.
		v.SetString(fmt.Sprintf("f%d", *n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(*n) << 40)
	case reflect.Uint8:
		v.SetUint(uint64(*n % 256))
	case reflect.Uint64:
		v.SetUint(uint64(*n) << 50)
	default:
		panic("fill: add a case for " + v.Kind().String())
	}
}

// TestCacheRoundTrip writes a cache whose every field is set and reads it
// back: a field added to the cache's types and not to its encoding fails
// here.
func TestCacheRoundTrip(t *testing.T) {
	var want treeCache
	n := 0
	fill(reflect.ValueOf(&want).Elem(), &n)
	logos := want.Logos
	want.Logos = map[string]*cachedLogo{}
	for _, l := range logos { // slugs are checked, and must be the summary's
		l.Summary.Slug = fmt.Sprintf("logo-%d", len(want.Logos))
		want.Logos[l.Summary.Slug] = l
	}
	var buf bytes.Buffer
	if err := encodeCache(&buf, &want); err != nil {
		t.Fatal(err)
	}
	got, err := decodeCache(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !got.valid() {
		t.Fatal("the cache read back is not valid")
	}
	for _, r := range got.Trees {
		if err := r.decode(); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(&want, got, cmpopts.IgnoreUnexported(treeCache{}, treeRecord{}, logoSummary{})); diff != "" {
		t.Errorf("read back differs (-written +read):\n%s", diff)
	}

	// A tree written again without being decoded keeps its record.
	again, _ := decodeCache(buf.Bytes())
	var buf2 bytes.Buffer
	if err := encodeCache(&buf2, again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), buf2.Bytes()) {
		t.Error("a cache read and written again without decoding its trees changed")
	}
}

// TestCacheRefusesDamage checks that a cache cut short or with a byte
// changed anywhere is refused, not read as something else.
func TestCacheRefusesDamage(t *testing.T) {
	var c treeCache
	n := 0
	fill(reflect.ValueOf(&c).Elem(), &n)
	var buf bytes.Buffer
	if err := encodeCache(&buf, &c); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	for i := range data {
		damaged := bytes.Clone(data)
		damaged[i] ^= 0x20
		if _, err := decodeCache(damaged); err == nil {
			t.Fatalf("byte %d changed: the cache was read", i)
		}
	}
	for i := range len(data) {
		if _, err := decodeCache(data[:i]); err == nil {
			t.Fatalf("cut to %d bytes of %d: the cache was read", i, len(data))
		}
	}
}

// decodeAllocs decodes data as a build would (the cache, then its trees)
// and returns the bytes that allocated.
func decodeAllocs(data []byte) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if c, err := decodeCache(data); err == nil {
		c.valid()
		for _, r := range c.Trees {
			r.decode()
		}
	}
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// maxAllocs bounds what decoding n bytes may allocate.
func maxAllocs(n int) uint64 { return 20*uint64(n) + 1<<20 }

// TestCacheBoundsAllocation forges a cache whose checksum is right and
// whose first logo claims a million inputs in a megabyte: the decoder
// must refuse the count before it allocates the list (it allocated 64
// times the file's size).
func TestCacheBoundsAllocation(t *testing.T) {
	const k = 1 << 20
	body := []byte(cacheMagic)
	body = append(body, 0, 0, 0)             // Program, Settings, Started
	body = append(body, make([]byte, 16)...) // Collection
	body = append(body, 0, 1, 0)             // no collection files; one logo, slug ""
	body = append(body, 0, 0, 0, 0, 0)       // its folder: name, size, mtime, ctime, ino
	body = append(body, make([]byte, 16)...) // and hash
	body = binary.AppendUvarint(body, k)     // the count of its inputs
	body = append(body, make([]byte, k)...)
	data := withChecksum(body)
	if _, err := decodeCache(data); err == nil {
		t.Fatal("a cache with a million inputs in a megabyte was read")
	}
	if n := decodeAllocs(data); n > maxAllocs(len(data)) {
		t.Errorf("decoding %d bytes allocated %d", len(data), n)
	}
}

// withChecksum appends the cache file's checksum to body.
func withChecksum(body []byte) []byte {
	return binary.BigEndian.AppendUint32(body, crc32.Checksum(body, castagnoli))
}

// FuzzDecodeCache feeds the cache's decoder any bytes with a right
// checksum: it must return an error or a cache, never panic, and allocate
// at most a small multiple of the input's size.
func FuzzDecodeCache(f *testing.F) {
	var c treeCache
	n := 0
	fill(reflect.ValueOf(&c).Elem(), &n)
	var buf bytes.Buffer
	encodeCache(&buf, &c)
	body := buf.Bytes()[:buf.Len()-crc32.Size]
	f.Add(body[len(cacheMagic):])
	f.Add([]byte{})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, b []byte) {
		data := withChecksum(append([]byte(cacheMagic), b...))
		if n := decodeAllocs(data); n > maxAllocs(len(data)) {
			t.Errorf("decoding %d bytes allocated %d", len(data), n)
		}
	})
}
