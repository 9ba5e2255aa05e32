package svg

import (
	"math"
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
	m := &Memo{checked: map[string]pathCheck{d: {"forged", 3}}}
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
}
