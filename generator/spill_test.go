package generator

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestSpill reads back what was added, in order, across the write
// buffer's size and after more adds, and leaves no file behind.
func TestSpill(t *testing.T) {
	dir := t.TempDir()
	s, err := newSpill(dir, ".dist-tmp-spill-")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	var payload int64
	add := func(e string) {
		if _, err := s.add([]byte(e)); err != nil {
			t.Fatal(err)
		}
		want = append(want, e)
		payload += int64(len(e))
	}
	check := func(step string) {
		t.Helper()
		var got []string
		if err := s.each(func(e string) error { got = append(got, strings.Clone(e)); return nil }); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: read back (-added +read):\n%s", step, diff)
		}
		if s.count() != len(want) || s.payloadSize() != payload {
			t.Errorf("%s: count %d, payload %d; want %d, %d", step, s.count(), s.payloadSize(), len(want), payload)
		}
	}
	check("empty")
	add("")
	add("a")
	add(strings.Repeat("b", 200<<10)) // over the 64 KB buffer
	for i := range 1000 {
		add(fmt.Sprintf("entry %d", i))
	}
	check("first")
	add("after a read")
	check("second")
	s.close()
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left %s", entries[0].Name())
	}

	var none *spill // a build that does not spill
	if none.count() != 0 || none.payloadSize() != 0 || none.each(func(string) error { return fmt.Errorf("called") }) != nil {
		t.Error("a nil spill is not empty")
	}
	none.close()
}

// TestMayClash checks the hash pass that spares a streamed build the
// list of every output name: each kind of clash findClashes finds must
// make it suspect one, and names that do not clash must not.
func TestMayClash(t *testing.T) {
	tests := []struct {
		names []string
		want  bool
	}{
		{nil, false},
		{[]string{"index.html", "logos/a/icon.svg", "logos/a/index.html", "logos/b/icon.svg", "r/a.json"}, false},
		{[]string{"logos/a/icon.svg", "logos/ab/icon.svg", "logos/a.svg"}, false},
		{[]string{"r/a.json", "r/b.json", "r/a.json"}, true},                    // one name twice
		{[]string{"logos/a", "logos/a/icon.svg"}, true},                         // a file, then a file in it
		{[]string{"logos/a/icon.svg", "logos/a"}, true},                         // a file in it, then the file
		{[]string{"logos/a/b/c/d.svg", "logos/a/b"}, true},                      // a folder further up
		{[]string{"logos/a/b/c/d.svg", "logos/a/b/e.svg", "logos/a/b/c"}, true}, // after its parents were seen
	}
	for _, tc := range tests {
		// n as it is, and as if it were many names: five passes.
		for _, n := range []int{len(tc.names), 5 * passHashes} {
			got, err := mayClash(n, func(fn func(string)) error {
				for _, n := range tc.names {
					fn(n)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("mayClash(%q), n %d = %v, want %v", tc.names, n, got, tc.want)
			}
		}
		var files []OutFile
		for _, n := range tc.names {
			files = append(files, OutFile{Name: n})
		}
		if exact := len(findClashes(files)) > 0; exact != tc.want {
			t.Errorf("findClashes(%q) finds %v; the table is wrong", tc.names, exact)
		}
	}
	// Random trees of few names, in any order, against the exact check:
	// folders seen long before, beyond the few mayClash keeps in mind.
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 2000 {
		var names []string
		var files []OutFile
		for range 1 + rng.IntN(30) {
			parts := make([]string, 1+rng.IntN(4))
			for i := range parts {
				parts[i] = string(rune('a' + rng.IntN(3)))
			}
			n := strings.Join(parts, "/")
			names = append(names, n)
			files = append(files, OutFile{Name: n})
		}
		n := 0
		if i%10 == 0 {
			n = 3 * passHashes // three passes
		}
		got, err := mayClash(n, func(fn func(string)) error {
			for _, n := range names {
				fn(n)
			}
			return nil
		})
		if exact := len(findClashes(files)) > 0; err != nil || got != exact {
			t.Fatalf("mayClash(%q) = %v, %v; findClashes finds %v", names, got, err, exact)
		}
	}
}

// TestBuildTreeSpills compares a clean build, which keeps each logo's
// cache entry and each file's record in spill files until the end, with
// the same build through a Memo, which keeps them in memory: the cache
// files they write must say the same, and no spill file may be left.
func TestBuildTreeSpills(t *testing.T) {
	src := copyDir(t, "testdata/golden/src")
	caches := map[bool]*treeCache{}
	for _, memo := range []bool{false, true} {
		parent := t.TempDir()
		out := filepath.Join(parent, "dist")
		opts := TreeOptions{CacheFile: DefaultCachePath(out)}
		if memo {
			opts.Memo = &Memo{}
		}
		if _, err := BuildTree(context.Background(), os.DirFS(src), out, opts); err != nil {
			t.Fatal(err)
		}
		if memo {
			if err := opts.Memo.Save(); err != nil {
				t.Fatal(err)
			}
		}
		entries, _ := os.ReadDir(parent)
		for _, e := range entries {
			if strings.Contains(e.Name(), "-tmp-") {
				t.Errorf("memo %v: left %s", memo, e.Name())
			}
		}
		checkRecords(t, fmt.Sprintf("memo %v", memo), opts.CacheFile, out, false)
		c := readTreeCache(opts.CacheFile, programID(), false)
		if c == nil {
			t.Fatalf("memo %v: no cache", memo)
		}
		// What the records say of each file but its stat, which differs
		// between the two trees.
		for _, r := range c.Trees {
			if err := r.decode(); err != nil {
				t.Fatal(err)
			}
			for name, st := range r.Files {
				r.Files[name] = fileState{Hash: st.Hash}
			}
			r.Dev, r.Ino, r.Dirs = 0, 0, nil
		}
		c.Started = 0
		caches[memo] = c
	}
	if len(caches[false].Logos) == 0 {
		t.Fatal("the cache holds no logos")
	}
	if diff := cmp.Diff(caches[true], caches[false], cmpopts.IgnoreUnexported(treeCache{}, treeRecord{}, logoSummary{}, cachedLogo{})); diff != "" {
		t.Errorf("the cache of a build that spills differs from a memo's (-memo +spilled):\n%s", diff)
	}
}

// BenchmarkSpill measures what spilling costs a logo: encoding its entry
// and each of its five files' records, and reading them back once.
func BenchmarkSpill(b *testing.B) {
	s, err := newSpill(b.TempDir(), "spill-")
	if err != nil {
		b.Fatal(err)
	}
	defer s.close()
	l := &cachedLogo{Summary: &logoSummary{Slug: "acme", Name: "Acme", Hex: "#123456", MetaPath: "src/acme/logo.yaml"}}
	for _, v := range []string{"icon", "icon-dark", "wordmark"} {
		l.Inputs = append(l.Inputs, inputStat{Name: v + ".svg", Size: 1234})
		l.Files = append(l.Files, fileHash{Name: "logos/acme/" + v + ".svg"})
	}
	for b.Loop() {
		s.addWith(func(e *encoder) { e.logo("acme", l) })
		for _, f := range l.Files {
			s.addWith(func(e *encoder) { e.fileState(f.Name, fileState{Size: 1234}) })
		}
	}
	var n bytes.Buffer
	s.each(func(e string) error { n.WriteString(e[:1]); return nil })
}
