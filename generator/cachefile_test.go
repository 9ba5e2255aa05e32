package generator

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
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

// filledCache is a cache whose every field is set (fill), with its logos
// under slugs that pass the decoder's checks.
func filledCache() *treeCache {
	var c treeCache
	n := 0
	fill(reflect.ValueOf(&c).Elem(), &n)
	logos := c.Logos
	c.Logos = map[string]*cachedLogo{}
	for _, l := range logos { // slugs are checked, and must be the summary's
		l.Summary.Slug = fmt.Sprintf("logo-%d", len(c.Logos))
		c.Logos[l.Summary.Slug] = l
	}
	return &c
}

// TestCacheRoundTrip writes a cache whose every field is set and reads it
// back: a field added to the cache's types and not to its encoding fails
// here.
func TestCacheRoundTrip(t *testing.T) {
	// The second cache's first tree has a record larger than the
	// encoder's buffer, which a cache written again copies whole.
	big := filledCache()
	for i := range 5000 {
		big.Trees[0].Files[fmt.Sprintf("logos/logo-%d/icon.svg", i)] = fileState{Size: int64(i), MTime: int64(i) << 30, Ino: uint64(i)}
	}
	// Which logos a tree holds is not exported (fill leaves it).
	big.Trees[1].holdsLogos, big.Trees[1].lacks = true, []string{"logo-0", "logo-1"}
	for i, want := range []*treeCache{filledCache(), big} {
		t.Run(fmt.Sprint(i), func(t *testing.T) { testCacheRoundTrip(t, want) })
	}
}

func testCacheRoundTrip(t *testing.T, want *treeCache) {
	var buf bytes.Buffer
	if err := encodeCache(&buf, want); err != nil {
		t.Fatal(err)
	}
	got, err := decodeCache(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range got.Trees {
		// The count and sum as read, before the files are decoded.
		n, sum := r.fileCount(), r.filesSum()
		if err := r.decode(); err != nil {
			t.Fatal(err)
		}
		w := want.Trees[i]
		if n != w.fileCount() || sum != w.filesSum() {
			t.Errorf("tree %d: read with %d files, sum %x; written with %d, sum %x", i, n, sum, w.fileCount(), w.filesSum())
		}
		if r.holdsLogos != w.holdsLogos || !slices.Equal(r.lacks, w.lacks) {
			t.Errorf("tree %d: read holding logos %v but %q; written %v but %q", i, r.holdsLogos, r.lacks, w.holdsLogos, w.lacks)
		}
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(treeCache{}, treeRecord{}, logoSummary{}, cachedLogo{})); diff != "" {
		t.Errorf("read back differs (-written +read):\n%s", diff)
	}

	// logoFiles reads of an entry what logo reads of its slug and files.
	for slug, l := range want.Logos {
		var entry bytes.Buffer
		e := newEncoder(&entry, nil)
		e.logo(slug, l)
		if e.flush(); e.err != nil {
			t.Fatal(e.err)
		}
		var wantNames, gotNames []string
		for _, f := range l.Files {
			wantNames = append(wantNames, slug+" "+f.Name)
		}
		d := &decoder{s: entry.String()}
		d.logoFiles(func(slug, name string) { gotNames = append(gotNames, slug+" "+name) })
		if d.err != nil {
			t.Errorf("logoFiles of %s: %v", slug, d.err)
		}
		if diff := cmp.Diff(wantNames, gotNames); diff != "" {
			t.Errorf("logoFiles of %s (-want +got):\n%s", slug, diff)
		}
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
	var buf bytes.Buffer
	if err := encodeCache(&buf, filledCache()); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	if _, err := decodeCache(data); err != nil {
		t.Fatalf("the cache as written was refused: %v", err)
	}
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
	body = append(body, 0, 0, 0, 0, 0)       // Program, Settings, Dir, Started, Boot
	body = append(body, make([]byte, 16)...) // Collection
	body = append(body, 0, 0, 1, 0, 0)       // no collection files, no trees; one logo, slug "", no files
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
	var buf bytes.Buffer
	filled := filledCache()
	filled.Trees[1].holdsLogos, filled.Trees[1].lacks = true, []string{"logo-0", "logo-1"}
	encodeCache(&buf, filled)
	body := buf.Bytes()[:buf.Len()-crc32.Size]
	f.Add(body[len(cacheMagic):])
	// And one whose first tree's record has a delta.
	if c, err := decodeCache(buf.Bytes()); err == nil && c.Trees[0].decode() == nil {
		r := c.Trees[0]
		for name := range r.Files {
			r.deleteFile(name)
			r.setFile(name+"x", fileState{Size: 1})
			break
		}
		r.setDir("d", 1)
		var edited bytes.Buffer
		encodeCache(&edited, c)
		f.Add(edited.Bytes()[len(cacheMagic) : edited.Len()-crc32.Size])
	}
	f.Add([]byte{})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, b []byte) {
		data := withChecksum(append([]byte(cacheMagic), b...))
		if n := decodeAllocs(data); n > maxAllocs(len(data)) {
			t.Errorf("decoding %d bytes allocated %d", len(data), n)
		}
	})
}

// byteCount is a writer that counts what it is given.
type byteCount int

func (c *byteCount) Write(p []byte) (int, error) {
	*c += byteCount(len(p))
	return len(p), nil
}

// TestEntriesSize holds treeRecord.entriesSize to the length of what
// encodeEntries writes, at the edges of each varint length: a size off
// by one is a cache file every build refuses.
func TestEntriesSize(t *testing.T) {
	ints := []int64{0, 1, -1, 63, 64, -64, -65, 8191, 8192, 1 << 40, -(1 << 40), math.MaxInt64, math.MinInt64}
	uints := []uint64{0, 127, 128, 16383, 16384, 1 << 56, math.MaxUint64}
	names := []string{"a", strings.Repeat("n", 127), strings.Repeat("n", 128), strings.Repeat("n", 16384)}
	records := []*treeRecord{
		{Files: map[string]fileState{}, Dirs: map[string]int64{}},
		{Files: map[string]fileState{}, Dirs: map[string]int64{".": 0}},
	}
	for i, x := range ints {
		r := &treeRecord{Files: map[string]fileState{}, Dirs: map[string]int64{}}
		for j, name := range names {
			u := uints[(i+j)%len(uints)]
			r.Files[fmt.Sprint(name, j)] = fileState{Size: x, MTime: ints[(i+j)%len(ints)], Ino: u}
			r.Dirs[name] = x
		}
		records = append(records, r)
	}
	big := &treeRecord{Files: map[string]fileState{}, Dirs: map[string]int64{}}
	for i := range 200 { // counts past one byte
		big.Files[fmt.Sprint("logos/f", i)] = fileState{Size: int64(i)}
		big.Dirs[fmt.Sprint("d", i)] = int64(i)
	}
	records = append(records, big)
	for i, r := range records {
		var n byteCount
		e := newEncoder(&n, nil)
		r.encodeEntries(e, false)
		e.flush()
		if got := r.entriesSize(); got != int(n) {
			t.Errorf("record %d: entriesSize() = %d, encodeEntries wrote %d bytes", i, got, n)
		}
	}
}

// TestCacheRefusesForgedPaths decodes caches whose checksum is right and
// one of whose logos or collection files names something outside its
// folder or the tree, as a cache restored from an untrusted branch could:
// each is refused whole.
func TestCacheRefusesForgedPaths(t *testing.T) {
	// second edits the second logo; refiled files it under slug too.
	second := func(edit func(l *cachedLogo)) func(*treeCache) {
		return func(c *treeCache) { edit(c.Logos[slices.Sorted(maps.Keys(c.Logos))[1]]) }
	}
	refiled := func(slug string) func(*treeCache) {
		return func(c *treeCache) {
			old := slices.Sorted(maps.Keys(c.Logos))[1]
			l := c.Logos[old]
			delete(c.Logos, old)
			l.Summary.Slug = slug
			c.Logos[slug] = l
		}
	}
	for _, tc := range []struct {
		name  string
		forge func(c *treeCache)
	}{
		{"as written", func(c *treeCache) {}},
		{"slug ../x", refiled("../x")},
		{"slug with a capital", refiled("Acme")},
		{"summary of another slug", second(func(l *cachedLogo) { l.Summary.Slug = "other" })},
		{"input in a subfolder", second(func(l *cachedLogo) { l.Inputs[0].Name = "a/icon.svg" })},
		{"input ../x", second(func(l *cachedLogo) { l.Inputs[0].Name = "../x" })},
		{"input .", second(func(l *cachedLogo) { l.Inputs[0].Name = "." })},
		{"file ../x", second(func(l *cachedLogo) { l.Files[1].Name = "../x" })},
		{"file /etc/passwd", second(func(l *cachedLogo) { l.Files[0].Name = "/etc/passwd" })},
		{"file empty", second(func(l *cachedLogo) { l.Files[0].Name = "" })},
		{"collection file ../x", func(c *treeCache) { c.CollectionFiles[1].Name = "../x" }},
	} {
		c := filledCache()
		tc.forge(c)
		var buf bytes.Buffer
		if err := encodeCache(&buf, c); err != nil {
			t.Fatal(err)
		}
		_, err := decodeCache(buf.Bytes())
		if ok := tc.name == "as written"; (err == nil) != ok {
			t.Errorf("%s: decodeCache error %v, want refused: %t", tc.name, err, !ok)
		}
	}
}

// TestWriteTreeCache writes a cache three times: each is read back, and
// on Linux the one before it stays beside it as the spare, the next one's
// storage. A spare that is a link, or another file's second name, is
// replaced, never written through.
func TestWriteTreeCache(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, ".dist.cache")
	spare := name + "-spare"
	var last []byte
	for i := range 3 {
		c := filledCache()
		c.Started = int64(i)
		if err := writeTreeCache(name, c); err != nil {
			t.Fatal(err)
		}
		if got := readTreeCache(name, c.Program, i == 1); got == nil || got.Started != int64(i) {
			t.Fatalf("write %d: not read back", i)
		}
		if runtime.GOOS == "linux" && i > 0 {
			if data, err := os.ReadFile(spare); err != nil || !bytes.Equal(data, last) {
				t.Errorf("write %d: the spare is not the cache before it (%v)", i, err)
			}
		}
		var err error
		if last, err = os.ReadFile(name); err != nil {
			t.Fatal(err)
		}
	}
	other := filepath.Join(dir, "other")
	plants := map[string]func() error{
		"a hard link":     func() error { return os.Link(other, spare) },
		"a symbolic link": func() error { return os.Symlink(other, spare) },
	}
	for what, plant := range plants {
		writeFile(t, other, []byte("keep"))
		if err := os.Remove(spare); err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
		if err := plant(); err != nil {
			t.Skipf("%s: %v", what, err)
		}
		c := filledCache()
		if err := writeTreeCache(name, c); err != nil {
			t.Fatalf("spare %s: %v", what, err)
		}
		if readTreeCache(name, c.Program, true) == nil {
			t.Errorf("spare %s: the cache is not read back", what)
		}
		if data, err := os.ReadFile(other); err != nil || string(data) != "keep" {
			t.Errorf("spare %s: the file it names holds %.30q, not \"keep\" (%v)", what, data, err)
		}
	}
}

// TestMappedCacheStays reads a cache file mapped, then writes the cache
// twice more, which on Linux would write the second time over the file
// read (the spare by then): the cache read must keep its bytes, every
// string of it and the warnings it gives most of all.
func TestMappedCacheStays(t *testing.T) {
	name := filepath.Join(t.TempDir(), ".dist.cache")
	write := func(dir string) *treeCache {
		c := filledCache()
		c.Dir = dir
		for _, l := range c.Logos {
			for _, p := range l.Warnings {
				p.Msg = "warned in " + dir
			}
		}
		if err := writeTreeCache(name, c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	want := write("dir-a")
	got := readTreeCache(name, want.Program, true)
	if got == nil {
		t.Fatal("the cache is not read back")
	}
	write("dir-b")
	write("dir-c")
	if got.Dir != "dir-a" {
		t.Errorf("the cache read has Dir %q, want %q", got.Dir, "dir-a")
	}
	for slug, l := range got.Logos {
		if diff := cmp.Diff(want.Logos[slug].Warnings, l.Warnings); diff != "" {
			t.Errorf("logo %s's warnings changed (-want +got):\n%s", slug, diff)
		}
	}
	if data, err := os.ReadFile(name + "-spare"); runtime.GOOS == "linux" && (err != nil || len(data) == 0) {
		t.Errorf("no spare (%v)", err)
	}
}

// TestMappedCacheCutShort decodes a mapped cache file that another
// program cut short after it was mapped: an error, not a crash.
func TestMappedCacheCutShort(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the cache file is mapped on Linux only")
	}
	name := filepath.Join(t.TempDir(), ".dist.cache")
	c := filledCache()
	for i := range 200 { // pages of entries
		l := *c.Logos["logo-0"]
		s := *l.Summary
		s.Slug = fmt.Sprintf("logo-%d", i+1)
		l.Summary = &s
		c.Logos[s.Slug] = &l
	}
	if err := writeTreeCache(name, c); err != nil {
		t.Fatal(err)
	}
	data, err := mapCacheFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 3*4096 {
		t.Fatalf("a cache of %d bytes: too short to test", len(data))
	}
	if _, err := decodeCache(data); err != nil {
		t.Fatalf("before the cut: %v", err)
	}
	if err := os.Truncate(name, 0); err != nil {
		t.Fatal(err)
	}
	if got, err := decodeCache(data); err == nil || got != nil {
		t.Errorf("after the cut: %v, %v; want an error", got, err)
	}
}

// TestRecordDeltas edits a record read from a cache, then reads it back,
// three times: each read gives the edited files and folders. A few edits
// are appended to the encoding as it was read (a delta); past an eighth of
// the record it is encoded whole.
func TestRecordDeltas(t *testing.T) {
	r := newTreeRecord()
	for i := range 200 {
		r.Files[fmt.Sprintf("logos/l%d/icon.svg", i)] = fileState{Hash: hash{byte(i)}, Size: int64(i), MTime: int64(i) << 32, Ino: uint64(i)}
		r.Dirs[fmt.Sprintf("logos/l%d", i)] = int64(i)
	}
	r.Dirs["."], r.Dirs["logos"] = 1, 2
	read := func(r *treeRecord) *treeRecord {
		t.Helper()
		var b strings.Builder
		e := newEncoder(&b, nil)
		sum := r.encodeTo(e)
		e.flush()
		d := &decoder{s: b.String()}
		got := &treeRecord{encoded: d.str()}
		if d.err != nil || d.s != "" {
			t.Fatalf("encodeTo wrote a string of the wrong length (%v)", d.err)
		}
		if err := got.decode(); err != nil {
			t.Fatal(err)
		}
		// Its folders first, then its files, as a build opens the live
		// tree and then the standby: the same record.
		twice := &treeRecord{encoded: got.encoded}
		if err := twice.decodeDirs(); err != nil {
			t.Fatal(err)
		}
		if err := twice.decode(); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]any{got.Files, got.Dirs, got.deltas}, []any{twice.Files, twice.Dirs, twice.deltas}); diff != "" {
			t.Errorf("decoded in two steps (-in one +in two):\n%s", diff)
		}
		var want uint64
		for name, st := range got.Files {
			want += fileSum(name, st.Hash)
		}
		if sum != want {
			t.Errorf("encodeTo gave the sum %x; its files' is %x", sum, want)
		}
		// As decodeCache reads it: the next edits keep the sum.
		got.sum, got.sumKnown = sum, true
		return got
	}
	r = read(r)
	edits := []struct {
		name  string
		edit  func(r *treeRecord)
		whole bool
	}{
		{"a file replaced, one removed with its folder, one added in a new folder", func(r *treeRecord) {
			r.setFile("logos/l1/icon.svg", fileState{Hash: hash{1, 1}, Size: 1000, MTime: -5, Ino: 1 << 40})
			r.deleteFile("logos/l2/icon.svg")
			r.deleteDir("logos/l2")
			r.setFile("logos/new/icon.svg", fileState{Size: 7})
			r.setDir("logos/new", 99)
			r.setDir("logos", 3)
		}, false},
		{"the removed one back, the new one gone", func(r *treeRecord) {
			r.setFile("logos/l2/icon.svg", fileState{Size: 2})
			r.setDir("logos/l2", 2)
			r.deleteFile("logos/new/icon.svg")
			r.deleteDir("logos/new")
		}, false},
		{"most files changed", func(r *treeRecord) {
			for i := range 150 {
				r.setFile(fmt.Sprintf("logos/l%d/icon.svg", i), fileState{Size: int64(i) + 1})
			}
		}, true},
	}
	for _, ed := range edits {
		wasEncoded, wasDeltas := r.encoded, r.deltas
		ed.edit(r)
		edited := len(r.editedFiles) + len(r.editedDirs)
		got := read(r)
		if diff := cmp.Diff(r.Files, got.Files); diff != "" {
			t.Errorf("%s: files read back (-edited +read):\n%s", ed.name, diff)
		}
		if diff := cmp.Diff(r.Dirs, got.Dirs); diff != "" {
			t.Errorf("%s: folders read back (-edited +read):\n%s", ed.name, diff)
		}
		if ed.whole {
			if got.deltas != 0 {
				t.Errorf("%s: read back with %d entries of deltas, want it whole", ed.name, got.deltas)
			}
		} else if !strings.HasPrefix(got.encoded, wasEncoded) || got.deltas != wasDeltas+edited {
			t.Errorf("%s: not a delta after the record as read (%d entries of deltas, want %d)", ed.name, got.deltas, wasDeltas+edited)
		}
		r = got
	}
}

// TestHasherIsHashOf holds a stream's hash, in pieces of any size, to the
// hash of its bytes whole: placeStream's files are compared with place's.
func TestHasherIsHashOf(t *testing.T) {
	data := make([]byte, 5000)
	for i := range data {
		data[i] = byte(i*7 + i>>8)
	}
	seen := map[hash]bool{}
	for _, n := range []int{0, 1, 16, 17, 128, 129, 240, 241, 1024, 1025, 4096, 5000} {
		for _, piece := range []int{1, 7, 64, 1000, n + 1} {
			h := newHasher()
			for b := data[:n]; len(b) > 0; {
				k := min(piece, len(b))
				h.Write(b[:k])
				b = b[k:]
			}
			if got, want := h.sum(), hashOf(data[:n]); got != want {
				t.Errorf("%d bytes in pieces of %d: stream %x, whole %x", n, piece, got, want)
			}
		}
		seen[hashOf(data[:n])] = true
	}
	if len(seen) != 12 {
		t.Errorf("12 lengths gave %d hashes", len(seen))
	}
}
