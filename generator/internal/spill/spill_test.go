package spill

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator/internal/wire"
)

// newFile makes a spill file in a new folder, which it checks is left
// empty: the file has no name (Unix), or none once closed.
func newFile(t *testing.T) *File {
	t.Helper()
	dir := t.TempDir()
	s, err := New(dir, "tmp-spill-")
	if err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		if entries, _ := os.ReadDir(dir); len(entries) > 0 {
			t.Errorf("%s, the folder holds %s", when, entries[0].Name())
		}
	}
	if runtime.GOOS != "windows" {
		check("open")
	}
	t.Cleanup(func() {
		s.Close()
		check("closed")
	})
	return s
}

// TestEach reads back what was added, in order, across the write
// buffer's size and after more adds.
func TestEach(t *testing.T) {
	s := newFile(t)
	var want []string
	var payload int64
	add := func(e string) {
		t.Helper()
		if _, err := s.Add([]byte(e)); err != nil {
			t.Fatal(err)
		}
		want = append(want, e)
		payload += int64(len(e))
	}
	check := func(step string) {
		t.Helper()
		var got []string
		if err := s.Each(func(e string) error { got = append(got, strings.Clone(e)); return nil }); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: read back (-added +read):\n%.1000s", step, diff)
		}
		if s.Count() != len(want) || s.PayloadSize() != payload {
			t.Errorf("%s: Count %d, PayloadSize %d; want %d, %d", step, s.Count(), s.PayloadSize(), len(want), payload)
		}
	}
	check("empty")
	add("")
	add("a")
	add(strings.Repeat("b", 200<<10)) // over the 64 KB buffer
	for i := range 3000 {
		add(fmt.Sprintf("entry %d %s", i, strings.Repeat("c", i%300)))
	}
	check("first")
	add("after a read")
	check("second")
	stop := fmt.Errorf("stop")
	n := 0
	if err := s.Each(func(string) error { n++; return stop }); err != stop || n != 1 {
		t.Errorf("Each after its function failed: %v after %d entries", err, n)
	}
}

// TestReader reads entries back by their refs: in the order they were
// added (a window holds many, and an entry can start in one window and
// end in the next), in any order, and larger than a window. What was read
// stays as it was after later reads.
func TestReader(t *testing.T) {
	s := newFile(t)
	var want []string
	var refs []Ref
	for i := range 4000 {
		e := fmt.Sprintf("%d:%s", i, strings.Repeat(string(rune('a'+i%26)), i%997))
		if i%700 == 5 {
			e = strings.Repeat("big", 40<<10) // 120 KB: over a window
		}
		ref, err := s.Add([]byte(e))
		if err != nil {
			t.Fatal(err)
		}
		want, refs = append(want, e), append(refs, ref)
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	inOrder := make([]int, len(refs))
	for i := range inOrder {
		inOrder[i] = i
	}
	shuffled := rand.New(rand.NewPCG(1, 2)).Perm(len(refs))
	backwards := slices.Clone(inOrder)
	slices.Reverse(backwards)
	for name, order := range map[string][]int{"in order": inOrder, "shuffled": shuffled, "backwards": backwards} {
		r := NewReader(s)
		var kept []string
		for _, i := range order {
			got, err := r.Read(refs[i])
			if err != nil {
				t.Fatalf("%s: entry %d: %v", name, i, err)
			}
			if got != want[i] {
				t.Fatalf("%s: entry %d: read %d bytes %.20q, want %d bytes %.20q", name, i, len(got), got, len(want[i]), want[i])
			}
			kept = append(kept, got)
		}
		for k, i := range order {
			if kept[k] != want[i] {
				t.Fatalf("%s: entry %d changed after later reads", name, i)
			}
		}
	}
	last := refs[len(refs)-1]
	for _, ref := range []Ref{
		{Off: last.Off + int64(last.N) - 2, N: 10},
		{Off: last.Off + int64(last.N) + 100, N: 1},
	} {
		if got, err := NewReader(s).Read(ref); err == nil {
			t.Errorf("an entry past the end of the file (%+v) was read: %.20q", ref, got)
		}
	}
}

// TestNil: a build that spills nothing has a nil File, which holds none.
func TestNil(t *testing.T) {
	var s *File
	if s.Count() != 0 || s.PayloadSize() != 0 || s.Flush() != nil {
		t.Error("a nil File is not empty")
	}
	if err := s.Each(func(string) error { return fmt.Errorf("called") }); err != nil {
		t.Errorf("Each of a nil File: %v", err)
	}
	s.Close()
}

// TestEncode: an entry written through the pooled encoder is what an
// encoder of its own writes, small or larger than the encoder's buffer,
// and AddWith adds it.
func TestEncode(t *testing.T) {
	s := newFile(t)
	var want []string
	for _, size := range []int{0, 10, 60 << 10, 64 << 10, 300 << 10} {
		enc := func(e *wire.Encoder) {
			e.String("name")
			e.Uint(uint64(size))
			e.String(strings.Repeat("z", size))
			e.Int(-1)
		}
		var b bytes.Buffer
		e := wire.NewEncoder(&b, nil)
		enc(e)
		e.Flush()
		var got []byte
		if err := Encode(enc, func(entry []byte) error { got = bytes.Clone(entry); return nil }); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, b.Bytes()) {
			t.Errorf("size %d: Encode gave %d bytes, an encoder %d", size, len(got), b.Len())
		}
		if _, err := s.AddWith(enc); err != nil {
			t.Fatal(err)
		}
		want = append(want, b.String())
	}
	var got []string
	if err := s.Each(func(e string) error { got = append(got, strings.Clone(e)); return nil }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(want, got) {
		t.Error("AddWith's entries differ from Encode's")
	}
}

// TestConcurrentAdds adds from several goroutines, as a build does: every
// entry is read back once, by Each and by its ref.
func TestConcurrentAdds(t *testing.T) {
	s := newFile(t)
	var mu sync.Mutex
	refs := map[string]Ref{}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				e := fmt.Sprintf("g%d-%d-%s", g, i, strings.Repeat("p", (g*i)%200))
				ref, err := s.AddWith(func(enc *wire.Encoder) { enc.Raw(e) })
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				refs[e] = ref
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	if err := s.Each(func(e string) error { seen[strings.Clone(e)] = true; return nil }); err != nil {
		t.Fatal(err)
	}
	if len(seen) != len(refs) || s.Count() != len(refs) {
		t.Errorf("Each read %d distinct entries, Count %d; %d were added", len(seen), s.Count(), len(refs))
	}
	r := NewReader(s)
	for e, ref := range refs {
		got, err := r.Read(ref)
		if err != nil || got != e {
			t.Fatalf("entry %.20q: read %.20q, %v", e, got, err)
		}
	}
}
