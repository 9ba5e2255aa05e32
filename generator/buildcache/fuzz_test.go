package buildcache

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator/internal/wire"
)

// FuzzOpen writes any bytes as the cache file, as they are (raw) or as
// the body of a file with the right magic and checksum, and opens it:
// no panic, an allocation bounded by a small multiple of its size, and
// every entry Get gives is kept by Save as it was.
func FuzzOpen(f *testing.F) {
	saved := savedCache(f, testKey)
	f.Add(true, saved)
	f.Add(false, saved[len(magic):len(saved)-4])
	f.Add(false, []byte{})
	f.Add(false, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Add(true, []byte(magic))
	f.Fuzz(func(t *testing.T, raw bool, b []byte) {
		data := b
		if !raw {
			data = forged(func(e *wire.Encoder) { e.Raw(string(b)) })
		}
		path := filepath.Join(t.TempDir(), "cache")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		var c *File
		var got map[string]Entry
		n := allocated(func() {
			if c != nil {
				c.Close()
			}
			c, got = Open(path, testKey), map[string]Entry{}
			for k := range c.old {
				if e, ok := c.Get(k); ok {
					got[k] = e
				}
			}
			for _, k := range []string{"", "acme", "b"} {
				c.Get(k)
			}
		})
		defer c.Close()
		if n > maxAllocated(len(data)) {
			t.Errorf("opening %d bytes allocated %d", len(data), n)
		}
		if len(got) == 0 {
			return
		}
		for k := range got {
			c.Keep(k)
		}
		if err := c.Save(time.Unix(0, 42)); err != nil {
			t.Fatal(err)
		}
		again := Open(path, testKey)
		defer again.Close()
		if again.Started() != 42 {
			t.Errorf("Started %d after a Save at 42", again.Started())
		}
		read := map[string]Entry{}
		for k := range again.old {
			if e, ok := again.Get(k); ok {
				read[k] = e
			}
		}
		if diff := cmp.Diff(got, read); diff != "" {
			t.Errorf("the entries kept and saved, read back (-kept +read):\n%s", diff)
		}
		if keys := slices.Sorted(func(yield func(string) bool) {
			for k := range again.old {
				if !yield(k) {
					return
				}
			}
		}); len(keys) != len(got) {
			t.Errorf("the saved cache holds keys %q, want only those kept", keys)
		}
	})
}
