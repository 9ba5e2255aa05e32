package svg

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMemo checks and optimises a file after another that drew the same
// path, with one Memo for both, and compares the second's output and
// problems with those of the file done alone. The path must round the
// same only where the tolerance and the reshaping are the same: another
// viewBox, a scale or a dash changes them.
func TestMemo(t *testing.T) {
	const d = `M1.2345 2.3456C3.4567 4.5678 5.6789 6.789 7.891 8.9012c1.1 0 2.2 1.1 2.2 2.2S12 14 13 14zM4 4a3 3 0 1 0 6 0 3 3 0 1 0-6 0z`
	doc := func(viewBox, attrs string) string {
		return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="` + viewBox + `"><path ` + attrs + ` d="` + d + `"/></svg>`
	}
	for _, tc := range []struct {
		name          string
		first, second string
		mono          bool
		rounded       int // paths the memo holds after both
	}{
		{"another fill", doc("0 0 24 24", `fill="#f00"`), doc("0 0 24 24", `fill="currentColor"`), false, 1},
		{"mono rules", doc("0 0 24 24", `fill="currentColor"`), doc("0 0 24 24", ``), true, 1},
		{"another viewBox", doc("0 0 24 24", ``), doc("0 0 240 240", ``), false, 2},
		{"scaled", doc("0 0 24 24", ``), `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><g transform="scale(.01)"><path d="` + d + `"/></g></svg>`, false, 2},
		{"dashed", doc("0 0 24 24", ``), doc("0 0 24 24", `fill="none" stroke="#000" stroke-dasharray="1 2"`), false, 2},
		{"an error in the data", doc("0 0 24 24", ``), `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M0 0L1"/><path d="M0 0L1"/></svg>`, false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rules := Rules{Mono: tc.mono}
			run := func(src string, m *Memo) (string, string) {
				doc := mustParse(t, []byte(src))
				info, probs := CheckMemo(doc, rules, m)
				if probs.Err() != nil {
					return "", probs.Error()
				}
				r, err := OptimiseDocument(doc, info, Options{Rules: rules, IDPrefix: "p-", Memo: m})
				if err != nil {
					t.Fatalf("OptimiseDocument: %v", err)
				}
				return string(r.Data), ""
			}
			wantOut, wantErr := run(tc.second, nil)
			m := new(Memo)
			run(tc.first, m)
			gotOut, gotErr := run(tc.second, m)
			if diff := cmp.Diff(wantOut, gotOut); diff != "" {
				t.Errorf("output with the memo (-alone +after the first):\n%s", diff)
			}
			if diff := cmp.Diff(wantErr, gotErr); diff != "" {
				t.Errorf("problems with the memo (-alone +after the first):\n%s", diff)
			}
			if len(m.rounded) != tc.rounded {
				t.Errorf("the memo holds %d rounded paths, want %d", len(m.rounded), tc.rounded)
			}
		})
	}
}

// TestMemoIsConsulted forges a Memo's entries, which a file with that path
// must then get: TestMemo alone would pass with a Memo never read.
func TestMemoIsConsulted(t *testing.T) {
	const d = "M0 0h10v10z"
	src := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="` + d + `"/></svg>`
	m := &Memo{checked: map[string]pathCheck{d: {"forged", 3, nil}}}
	_, probs := CheckMemo(mustParse(t, []byte(src)), Rules{}, m)
	if len(probs) != 1 || probs[0].Msg != "d on <path>: forged" || probs[0].Col != 73 {
		t.Errorf("problems = %v, want the forged one at column 73 (the value starts at 70)", probs)
	}
	doc := mustParse(t, []byte(src))
	info, _ := Check(doc, Rules{})
	m = &Memo{rounded: map[roundKey]roundedPath{{d, math.Float64bits(24.0 / precisionDivisor), true}: {"M0 0h9v9z", true}}}
	r, err := OptimiseDocument(doc, info, Options{Memo: m})
	if err != nil {
		t.Fatal(err)
	}
	if want := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M0 0h9v9z"/></svg>`; string(r.Data) != want {
		t.Errorf("output = %s, want the forged path: %s", r.Data, want)
	}

	// The segments a check read are what the rounding rounds.
	doc = mustParse(t, []byte(src))
	forged, _ := parsePathInto(nil, "M0 0h8v8z")
	m = &Memo{checked: map[string]pathCheck{d: {"", 0, forged}}}
	info, _ = CheckMemo(doc, Rules{}, m)
	if r, err = OptimiseDocument(doc, info, Options{Memo: m}); err != nil {
		t.Fatal(err)
	}
	if want := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="m0 0h8v8z"/></svg>`; string(r.Data) != want {
		t.Errorf("output = %s, want the forged segments rounded: %s", r.Data, want)
	}
}

// TestMemoSegments optimises a file of many paths with a Memo and without
// one: the segments the Memo keeps from the check fill its store and move
// to a larger one, and some paths hold more segments than the store's
// bound for their length (H, V and Z take fewer than 12 bytes).
func TestMemoSegments(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">`)
	for i := range 300 {
		fmt.Fprintf(&b, `<path d="M%d.125 1.0625h1v1h1v1h1v1h1v1h1v1zz"/>`, i%20)
		fmt.Fprintf(&b, `<path d="M1.2345 %d.3456C3.4567 4.5678 5.6789 6.789 7.891 8.9012c1.1 0 2.2 1.1 2.2 2.2S12 14 13 14z"/>`, i%20)
		b.WriteString(`<path d=""/>`)
	}
	b.WriteString(`</svg>`)
	run := func(m *Memo) (string, string) {
		doc := mustParse(t, []byte(b.String()))
		info, probs := CheckMemo(doc, Rules{}, m)
		r, err := OptimiseDocument(doc, info, Options{Memo: m})
		if err != nil {
			t.Fatal(err)
		}
		return string(r.Data), probs.Error()
	}
	wantOut, wantProbs := run(nil)
	m := new(Memo)
	gotOut, gotProbs := run(m)
	if diff := cmp.Diff(wantOut, gotOut); diff != "" {
		t.Errorf("output with the memo (-alone +with):\n%s", diff)
	}
	if diff := cmp.Diff(wantProbs, gotProbs); diff != "" {
		t.Errorf("problems with the memo (-alone +with):\n%s", diff)
	}
	if cap(m.segs) < 64 {
		t.Errorf("the memo's store holds %d segments: the test no longer fills it", cap(m.segs))
	}
}

// FuzzMemoPaths feeds many paths (split at |) through one Memo: each is
// checked, then all are rounded in reverse order, after every path's
// segments went into the Memo's store, and each must give what the
// functions without a Memo give. The store's bound is a guess from the
// data's length that H, V, Z and implicit line-tos exceed.
func FuzzMemoPaths(f *testing.F) {
	f.Add("M0 0h10v10z|M1.5 2.25C3 4 5 6 7 8s1 1 2 2z|m0 0zzzzzzzzzzzzzzzzzzzzzzzz|M0 0H1V1H0Z|", 0.01, false)
	f.Add("M0 0 1 1 2 2 3 3|  |M0,0a1 1 0 011 1|M0 0hhh", 0.5, true)
	f.Fuzz(func(t *testing.T, all string, tol float64, reshape bool) {
		r := newRounder(tol)
		if !r.ok {
			return
		}
		ds := strings.Split(all, "|")
		type result struct {
			msg string
			at  int
			v   string
			ok  bool
		}
		want := make([]result, len(ds))
		for i, d := range ds {
			msg, at := checkPathData(d)
			v, ok := roundPath(d, r, reshape)
			want[i] = result{msg, at, v, ok}
		}
		m := new(Memo)
		for i, d := range ds {
			if msg, at := m.checkPath(d); msg != want[i].msg || at != want[i].at {
				t.Fatalf("check %q: %q %d, want %q %d", d, msg, at, want[i].msg, want[i].at)
			}
		}
		for i := len(ds) - 1; i >= 0; i-- {
			m.rounded = nil // round each anew from the stored segments
			if v, ok := m.roundPath(ds[i], r, reshape); v != want[i].v || ok != want[i].ok {
				t.Fatalf("round %q: %q %v, want %q %v", ds[i], v, ok, want[i].v, want[i].ok)
			}
		}
		// A Memo whose store is a released one's, full of its segments,
		// gives the same (Release hands stores on through a sync.Pool,
		// which may drop one: this takes it directly).
		m2 := &Memo{segs: m.segs[:0]}
		for i := len(ds) - 1; i >= 0; i-- {
			if msg, at := m2.checkPath(ds[i]); msg != want[i].msg || at != want[i].at {
				t.Fatalf("check %q with a used store: %q %d, want %q %d", ds[i], msg, at, want[i].msg, want[i].at)
			}
		}
		for i, d := range ds {
			if v, ok := m2.roundPath(d, r, reshape); v != want[i].v || ok != want[i].ok {
				t.Fatalf("round %q with a used store: %q %v, want %q %v", d, v, ok, want[i].v, want[i].ok)
			}
		}
	})
}

// TestMemoRelease checks that Release empties a Memo and hands its store
// to the next one, except a store too large to keep.
func TestMemoRelease(t *testing.T) {
	handed := 0
	for range 20 { // under -race, sync.Pool drops a quarter of what it is given
		m := new(Memo)
		m.checkPath("M0 0h10v10z")
		store := &m.segs[:1][0]
		m.Release()
		if m.checked != nil || m.segs != nil {
			t.Fatalf("Release left %+v", m)
		}
		m.checkPath("M1 1h10v10z") // ready for use
		if len(m.checked) != 1 {
			t.Fatalf("a released Memo checked %d paths, want 1", len(m.checked))
		}
		if &m.segs[:1][0] == store {
			handed++
		}
		m.Release()
		segArenas.Get() // empty the pool for the next round
	}
	if handed == 0 {
		t.Error("a released Memo's store never went to the next Memo")
	}
	big := &Memo{segs: make([]pathSeg, 0, maxPooledArena+1)}
	big.Release()
	if p, _ := segArenas.Get().(*[]pathSeg); p != nil && cap(*p) > maxPooledArena {
		t.Errorf("a store of %d segments was kept, more than %d", cap(*p), maxPooledArena)
	}
}
