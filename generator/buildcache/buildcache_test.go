package buildcache

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"logoindex/generator/internal/digest"
	"logoindex/generator/internal/wire"
	"logoindex/internal/testtree"
)

const testKey = "go:abc \"https://logos.example\" false"

// entry is an entry whose every field differs with n, with inputs of the
// names given (sorted, as a build records them).
func entry(n int, names ...string) Entry {
	e := Entry{
		Folder: Input{Name: ".", Size: 4096, MTime: int64(n) << 32, CTime: int64(n)<<32 + 1, Ino: uint64(n) + 1000},
		Data:   fmt.Sprintf("record %d %s", n, strings.Repeat("x", n)),
	}
	for i, name := range names {
		e.Inputs = append(e.Inputs, Input{
			Name: name, Size: int64(n*10 + i), MTime: -int64(n + i), CTime: int64(n+i) << 40, Ino: uint64(n<<8 + i),
			Digest: digest.OfString(fmt.Sprint(n, name)),
		})
	}
	return e
}

// cacheImpl opens a Cache of one implementation, and reopens it as the
// next build would.
type cacheImpl struct {
	name string
	open func(t *testing.T) Cache
}

func impls() []cacheImpl {
	return []cacheImpl{
		{"File", func(t *testing.T) Cache {
			path := filepath.Join(t.TempDir(), "cache")
			return &reopening{open: func() Cache { return Open(path, testKey) }}
		}},
		{"Memory", func(*testing.T) Cache {
			m := &Memory{}
			return &reopening{open: func() Cache { return m }}
		}},
	}
}

// reopening is a Cache that a test reopens between builds: a File is
// closed and opened again from its file; a Memory stays.
type reopening struct {
	Cache
	open func() Cache
}

func (r *reopening) next() {
	if r.Cache != nil {
		r.Cache.Close()
	}
	r.Cache = r.open()
}

// TestCacheBuilds plays builds through each implementation: each build
// reads what the last one saved, and saves what it Put and Kept, and
// nothing else; a Put wins over a Keep in either order.
func TestCacheBuilds(t *testing.T) {
	started := []time.Time{time.Unix(1700000000, 5), time.Unix(1700000100, 7), time.Unix(1700000200, 9), time.Unix(1700000300, 11)}
	builds := []struct {
		name string
		do   func(c Cache) error
		want map[string]Entry // what the next build gets
	}{
		{"first build", func(c Cache) error {
			for k, e := range map[string]Entry{"": entry(0), "acme": entry(1, "icon.svg", "logo.yaml"), "night-owl": entry(2, "icon-dark.svg", "icon.svg", "logo.yaml"), "zeta": entry(3, "logo.yaml"), "unknown": {}} {
				if err := c.Put(k, e); err != nil {
					return err
				}
			}
			return nil
		}, map[string]Entry{"": entry(0), "acme": entry(1, "icon.svg", "logo.yaml"), "night-owl": entry(2, "icon-dark.svg", "icon.svg", "logo.yaml"), "zeta": entry(3, "logo.yaml"), "unknown": {}}},
		{"keep, put, keep and put, drop", func(c Cache) error {
			c.Keep("acme")
			c.Keep("night-owl")
			// unknown, the smallest entry, is neither kept nor put.
			c.Keep("")
			if err := c.Put("", entry(10)); err != nil { // Keep then Put
				return err
			}
			if err := c.Put("night-owl", entry(12, "icon.svg")); err != nil {
				return err
			}
			if err := c.Put("new", entry(13, "a.svg", "b.svg")); err != nil {
				return err
			}
			c.Keep("new") // Put then Keep: not in the last build either way
			// zeta is neither kept nor put: dropped.
			return nil
		}, map[string]Entry{"": entry(10), "acme": entry(1, "icon.svg", "logo.yaml"), "night-owl": entry(12, "icon.svg"), "new": entry(13, "a.svg", "b.svg")}},
		{"put over a kept entry", func(c Cache) error {
			c.Keep("acme")
			c.Keep("new")
			if err := c.Put("acme", entry(20, "logo.yaml")); err != nil {
				return err
			}
			c.Keep("acme")
			return nil
		}, map[string]Entry{"acme": entry(20, "logo.yaml"), "new": entry(13, "a.svg", "b.svg")}},
		{"nothing kept", func(c Cache) error { return nil }, map[string]Entry{}},
	}
	for _, impl := range impls() {
		t.Run(impl.name, func(t *testing.T) {
			c := impl.open(t).(*reopening)
			c.next()
			defer func() { c.Close() }()
			if got, ok := c.Get("acme"); ok || c.Started() != 0 {
				t.Fatalf("a new cache holds %+v, started %d", got, c.Started())
			}
			keys := []string{"", "acme", "night-owl", "zeta", "new", "unknown"}
			get := func() map[string]Entry {
				got := map[string]Entry{}
				for _, k := range keys {
					if e, ok := c.Get(k); ok {
						got[k] = e
					}
				}
				return got
			}
			last := map[string]Entry{}
			for i, b := range builds {
				if err := b.do(c); err != nil {
					t.Fatalf("%s: %v", b.name, err)
				}
				// What this build recorded is for the next one: until
				// Save, Get gives the last build's.
				if diff := cmp.Diff(last, get(), cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("%s: before Save, Get gives (-last build's +got):\n%s", b.name, diff)
				}
				last = b.want
				if err := c.Save(started[i]); err != nil {
					t.Fatalf("%s: Save: %v", b.name, err)
				}
				c.next()
				if got := c.Started(); got != started[i].UnixNano() {
					t.Errorf("%s: Started %d, want %d", b.name, got, started[i].UnixNano())
				}
				if diff := cmp.Diff(b.want, get(), cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("%s: the next build gets (-want +got):\n%s", b.name, diff)
				}
			}
		})
	}
}

// TestFileClose: a File leaves no file but the cache and its spare, and
// what it handed out stays as it was when the file is written again, by
// a later build of this process (the file it mapped is never written
// over).
func TestFileClose(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cache")
	c := Open(path, testKey)
	for i := range 100 { // a clean build: the entries go to a spill file
		if err := c.Put(fmt.Sprint("logo-", i), entry(i, "logo.yaml")); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Save(time.Unix(1, 0)); err != nil {
		t.Fatal(err)
	}
	c.Close()
	read := Open(path, testKey)
	defer read.Close()
	held, ok := read.Get("logo-7")
	if !ok {
		t.Fatal("logo-7 not read back")
	}
	want := entry(7, "logo.yaml")
	for i := range 3 {
		c := Open(path, testKey)
		for k := range 100 {
			if err := c.Put(fmt.Sprint("logo-", k), entry(k+i+1, "other.svg")); err != nil {
				t.Fatal(err)
			}
		}
		if err := c.Save(time.Unix(int64(i+2), 0)); err != nil {
			t.Fatal(err)
		}
		c.Close()
	}
	if diff := cmp.Diff(want, held); diff != "" {
		t.Errorf("an entry read before three later saves changed (-want +got):\n%s", diff)
	}
	names := testtree.Names(t, dir)
	if runtime.GOOS == "linux" {
		if diff := cmp.Diff([]string{"cache", "cache-spare"}, names); diff != "" {
			t.Errorf("the folder holds (-want +got):\n%s", diff)
		}
	}
}

// savedCache writes a cache of a few entries and returns its bytes.
func savedCache(t testing.TB, key string) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cache")
	c := Open(path, key)
	defer c.Close()
	for k, e := range map[string]Entry{"": entry(0), "acme": entry(1, "icon.svg", "logo.yaml"), "b": entry(2, "logo.yaml")} {
		if err := c.Put(k, e); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Save(time.Unix(1700000000, 0)); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// openBytes writes data as a cache file and opens it, returning the
// entries of the keys savedCache writes, and when the cache was started.
func openBytes(t *testing.T, data []byte, key string) (map[string]Entry, int64) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cache")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	c := Open(path, key)
	defer c.Close()
	got := map[string]Entry{}
	for _, k := range []string{"", "acme", "b"} {
		if e, ok := c.Get(k); ok {
			got[k] = e
		}
	}
	return got, c.Started()
}

// TestFileOfAnotherKey: a cache written for another program or other
// settings holds nothing.
func TestFileOfAnotherKey(t *testing.T) {
	data := savedCache(t, testKey)
	if got, _ := openBytes(t, data, testKey); len(got) != 3 {
		t.Fatalf("the cache read back with its own key holds %d entries, want 3", len(got))
	}
	for _, key := range []string{"", "go:abd \"https://logos.example\" false", testKey + " ", strings.ToUpper(testKey)} {
		if got, started := openBytes(t, data, key); len(got) != 0 || started != 0 {
			t.Errorf("a cache of %q read with key %q holds %d entries, started %d", testKey, key, len(got), started)
		}
	}
}

// TestFileDamaged: a cache with any byte changed or cut at any length is
// no cache.
func TestFileDamaged(t *testing.T) {
	data := savedCache(t, testKey)
	dir := t.TempDir()
	open := func(b []byte) (int, int64) {
		path := filepath.Join(dir, "cache")
		os.Remove(path) // not written over: a file this process mapped stays as it was
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		c := Open(path, testKey)
		defer c.Close()
		n := 0
		for _, k := range []string{"", "acme", "b"} {
			if _, ok := c.Get(k); ok {
				n++
			}
		}
		return n, c.Started()
	}
	if n, _ := open(data); n != 3 {
		t.Fatalf("the cache as written holds %d entries", n)
	}
	for i := range data {
		for _, bit := range []byte{0x01, 0x80} {
			b := bytes.Clone(data)
			b[i] ^= bit
			if n, started := open(b); n != 0 || started != 0 {
				t.Fatalf("byte %d of %d changed (^%#x): %d entries read, started %d", i, len(data), bit, n, started)
			}
		}
	}
	for n := range len(data) {
		if got, started := open(data[:n]); got != 0 || started != 0 {
			t.Fatalf("cut to %d bytes of %d: %d entries read, started %d", n, len(data), got, started)
		}
	}
}

// forged is a cache file with a right checksum whose body enc writes.
func forged(enc func(e *wire.Encoder)) []byte {
	var b bytes.Buffer
	e := wire.NewFileEncoder(&b, magic)
	enc(e)
	e.Close()
	return b.Bytes()
}

// allocated is how many bytes fn allocates, the least of three runs: the
// count is of the whole process, where another goroutine (the fuzzing
// engine's) may allocate meanwhile.
func allocated(fn func()) uint64 {
	least := uint64(1<<64 - 1)
	for range 3 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		fn()
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
}

// maxAllocated bounds what opening a cache file of n bytes, and getting
// its entries, may allocate: a small multiple of its size, and a few
// kilobytes that any file costs.
func maxAllocated(n int) uint64 { return 16*uint64(n) + 16<<10 }

// TestFileForged opens cache files with a right checksum that claim more
// than their bytes hold, or name inputs outside their folder: each is no
// cache, or the entries that name them are dropped, and reading them
// allocates at most a small multiple of their size.
func TestFileForged(t *testing.T) {
	good := func(e *wire.Encoder, key string, en Entry) {
		var b bytes.Buffer
		x := wire.NewEncoder(&b, nil)
		encodeEntry(x, key, en)
		x.Flush()
		e.String(b.String())
	}
	big := strings.Repeat("\x00", 1<<20)
	for _, tc := range []struct {
		name string
		body func(e *wire.Encoder)
		want []string // the keys read back
	}{
		{"as written", func(e *wire.Encoder) {
			e.String(testKey)
			e.Int(1)
			e.Uint(2)
			good(e, "acme", entry(1, "icon.svg"))
			good(e, "b", entry(2, "logo.yaml"))
		}, []string{"acme", "b"}},
		{"a count of entries past the end", func(e *wire.Encoder) {
			e.String(testKey)
			e.Int(1)
			e.Uint(1 << 40)
			good(e, "acme", entry(1, "icon.svg"))
		}, nil},
		{"a count of entries of two bytes each", func(e *wire.Encoder) {
			e.String(testKey)
			e.Int(1)
			e.Uint(uint64(len(big) / 2))
			e.Raw(big)
		}, nil},
		{"a count of entries of the fewest bytes each", func(e *wire.Encoder) {
			e.String(testKey)
			e.Int(1)
			e.Uint(uint64(len(big) / minEntry))
			e.Raw(big)
		}, nil},
		{"a count of inputs past the end", func(e *wire.Encoder) {
			e.String(testKey)
			e.Int(1)
			e.Uint(1)
			var b bytes.Buffer
			x := wire.NewEncoder(&b, nil)
			x.String("acme")
			encodeInput(x, Input{Name: "."})
			x.Uint(1 << 40)
			x.Raw(big)
			x.Flush()
			e.String(b.String())
		}, nil},
		{"a string past the end", func(e *wire.Encoder) {
			e.String(testKey)
			e.Int(1)
			e.Uint(1)
			e.Uint(1 << 30)
			e.Raw("acme")
		}, nil},
		{"more bytes than the entries", func(e *wire.Encoder) {
			e.String(testKey)
			e.Int(1)
			e.Uint(1)
			good(e, "acme", entry(1, "icon.svg"))
			e.Raw("x")
		}, nil},
		{"an entry with bytes after its data", func(e *wire.Encoder) {
			e.String(testKey)
			e.Int(1)
			e.Uint(2)
			var b bytes.Buffer
			x := wire.NewEncoder(&b, nil)
			encodeEntry(x, "acme", entry(1, "icon.svg"))
			x.Raw("x")
			x.Flush()
			e.String(b.String())
			good(e, "b", entry(2, "logo.yaml"))
		}, []string{"b"}},
	} {
		data := forged(tc.body)
		var got []string
		path := filepath.Join(t.TempDir(), "cache")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		n := allocated(func() {
			got = nil
			c := Open(path, testKey)
			for _, k := range []string{"", "acme", "b"} {
				if _, ok := c.Get(k); ok {
					got = append(got, k)
				}
			}
			c.Close()
		})
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: the keys read back (-want +got):\n%s", tc.name, diff)
		}
		if n > maxAllocated(len(data)) {
			t.Errorf("%s: reading %d bytes allocated %d", tc.name, len(data), n)
		}
	}
}

// TestEntryInputNames: an entry whose inputs are not single names in a
// strict order is dropped, and only it.
func TestEntryInputNames(t *testing.T) {
	for _, tc := range []struct {
		names []string
		ok    bool
	}{
		{[]string{"icon.svg", "logo.yaml"}, true},
		{[]string{"logo.yaml"}, true},
		{nil, true},
		{[]string{"../x"}, false},
		{[]string{"a/b"}, false},
		{[]string{"icon.svg", "sub/logo.yaml"}, false},
		{[]string{"/etc/passwd"}, false},
		{[]string{"."}, false},
		{[]string{".."}, false},
		{[]string{""}, false},
		{[]string{"a\\..\\b"}, true},               // one name on Unix, which a build never reads
		{[]string{"logo.yaml", "icon.svg"}, false}, // out of order
		{[]string{"icon.svg", "icon.svg"}, false},  // twice
	} {
		path := filepath.Join(t.TempDir(), "cache")
		c := Open(path, testKey)
		if err := c.Put("acme", entry(1, tc.names...)); err != nil {
			t.Fatal(err)
		}
		if err := c.Put("other", entry(2, "logo.yaml")); err != nil {
			t.Fatal(err)
		}
		if err := c.Save(time.Unix(1, 0)); err != nil {
			t.Fatal(err)
		}
		c.Close()
		c = Open(path, testKey)
		got, ok := c.Get("acme")
		if ok != tc.ok {
			t.Errorf("inputs %q: read back %v (%+v), want %v", tc.names, ok, got, tc.ok)
		}
		if _, ok := c.Get("other"); !ok {
			t.Errorf("inputs %q: the other entry was dropped too", tc.names)
		}
		c.Close()
	}
}

func TestNone(t *testing.T) {
	var c Cache = None{}
	if err := c.Put("a", entry(1)); err != nil {
		t.Fatal(err)
	}
	c.Keep("a")
	if err := c.Save(time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Get("a"); ok || c.Started() != 0 {
		t.Error("None holds an entry")
	}
	c.Close()
}

// TestMemoryClose: a Memory closed before Save forgets what the build
// recorded, and keeps the last build's log.
func TestMemoryClose(t *testing.T) {
	m := &Memory{}
	m.Put("a", entry(1))
	m.Save(time.Unix(5, 0))
	m.Put("b", entry(2))
	m.Keep("a")
	m.Close() // the build failed
	m.Put("c", entry(3))
	m.Save(time.Unix(6, 0))
	got := map[string]bool{}
	for _, k := range []string{"a", "b", "c"} {
		_, got[k] = m.Get(k)
	}
	if diff := cmp.Diff(map[string]bool{"a": false, "b": false, "c": true}, got); diff != "" {
		t.Errorf("after a failed build and a good one (-want +got):\n%s", diff)
	}
}

func TestInputSameStat(t *testing.T) {
	base := Input{Name: "icon.svg", Size: 10, MTime: 20, CTime: 30, Ino: 40, Digest: digest.OfString("a")}
	for _, tc := range []struct {
		name string
		edit func(in *Input)
		want bool
	}{
		{"the same", func(*Input) {}, true},
		{"another digest", func(in *Input) { in.Digest = digest.OfString("b") }, true},
		{"another name", func(in *Input) { in.Name = "icon-dark.svg" }, false},
		{"another size", func(in *Input) { in.Size++ }, false},
		{"another mtime", func(in *Input) { in.MTime++ }, false},
		{"another ctime", func(in *Input) { in.CTime-- }, false},
		{"another inode", func(in *Input) { in.Ino++ }, false},
	} {
		cur := base
		tc.edit(&cur)
		if got := base.SameStat(cur); got != tc.want {
			t.Errorf("%s: SameStat %v, want %v", tc.name, got, tc.want)
		}
		if got := cur.SameStat(base); got != tc.want {
			t.Errorf("%s, the other way: SameStat %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestInputRacy(t *testing.T) {
	started := int64(1_700_000_000_000_000_000)
	edge := started - int64(RacyWindow)
	for _, tc := range []struct {
		name         string
		mtime, ctime int64
		want         bool
	}{
		{"long before", edge - int64(time.Hour), edge - int64(time.Hour), false},
		{"just before the window", edge - 1, edge - 1, false},
		{"mtime at the window's edge", edge, edge - 1, true},
		{"ctime at the window's edge", edge - 1, edge, true},
		{"mtime in the window", started - 1, edge - 1, true},
		{"ctime after the start", edge - 1, started + 1, true},
		{"mtime after the start, ctime before", started + int64(time.Hour), edge - 1, true},
		{"an mtime set back, a ctime now", 0, started, true},
	} {
		in := Input{MTime: tc.mtime, CTime: tc.ctime}
		if got := in.Racy(started); got != tc.want {
			t.Errorf("%s: Racy %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestProgram: the program's identity is its Go build ID, stable in one
// process.
func TestProgram(t *testing.T) {
	p := Program()
	if !strings.HasPrefix(p, "go:") && !strings.HasPrefix(p, "sha256:") || len(p) < 10 {
		t.Errorf("Program() = %q", p)
	}
	if Program() != p {
		t.Error("Program changed")
	}
}
