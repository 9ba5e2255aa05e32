package generator

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSpillReader reads entries back by their refs in an order unlike
// the one they were added in, across windows and larger than one.
func TestSpillReader(t *testing.T) {
	s, err := newSpill(t.TempDir(), ".dist-tmp-spill-")
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	var want []string
	var refs []spillRef
	for i := range 3000 {
		e := strings.Repeat(string(rune('a'+i%26)), i%97)
		if i%700 == 5 {
			e = strings.Repeat("big", 40<<10) // 120 KB: over a window
		}
		ref, err := s.add([]byte(e))
		if err != nil {
			t.Fatal(err)
		}
		want, refs = append(want, e), append(refs, ref)
	}
	if err := s.flush(); err != nil {
		t.Fatal(err)
	}
	order := rand.New(rand.NewPCG(1, 2)).Perm(len(refs))
	order = append(order, 0, 1, 2, len(refs)-1) // and in order, at both ends
	r := spillReader{s: s}
	var kept []string
	for _, i := range order {
		got, err := r.read(refs[i])
		if err != nil {
			t.Fatal(err)
		}
		if got != want[i] {
			t.Fatalf("entry %d: read %d bytes %.20q, want %d bytes %.20q", i, len(got), got, len(want[i]), want[i])
		}
		kept = append(kept, got)
	}
	// What was read stays as it was after later reads.
	for k, i := range order {
		if kept[k] != want[i] {
			t.Fatalf("entry %d changed after later reads", i)
		}
	}
	if _, err := r.read(spillRef{off: s.size - 2, n: 10}); err == nil {
		t.Error("an entry past the end of the file was read")
	}
}

// TestMayShareComponent: the hash pass over the component names suspects
// every clash checkComponents reports (a name two logos declare, with or
// without a suffix, a name the template uses, a logo a selection left
// out) and clears a build without one.
func TestMayShareComponent(t *testing.T) {
	sum := func(slug, component string) *logoSummary {
		return &logoSummary{Slug: slug, Component: component}
	}
	other := &LogoSource{Slug: "zeta", Meta: &SourceFile{Path: "zeta/logo.yaml", Data: []byte("name: Zeta\ncomponent: AcmeIcon\n")}}
	used := map[string]bool{"Icon": true, "IconProps": true}
	suffixes := []string{"", "Props"}
	for _, c := range []struct {
		name   string
		sums   []*logoSummary
		others []*LogoSource
		want   bool
	}{
		{"distinct", []*logoSummary{sum("acme", "AcmeIcon"), sum("beta", "BetaIcon"), sum("none", "")}, nil, false},
		{"same name", []*logoSummary{sum("acme", "AcmeIcon"), sum("beta", "AcmeIcon")}, nil, true},
		{"a suffixed name", []*logoSummary{sum("acme", "AcmeIcon"), sum("beta", "AcmeIconProps")}, nil, true},
		{"the template's", []*logoSummary{sum("acme", "Icon")}, nil, true},
		{"a suffixed name of the template's", []*logoSummary{sum("acme", "IconProps")}, nil, true},
		{"a logo left out", []*logoSummary{sum("acme", "AcmeIcon")}, []*LogoSource{other}, true},
		{"a logo left out, no clash", []*logoSummary{sum("beta", "BetaIcon")}, []*LogoSource{other}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := mayShareComponent(memSummaries(c.sums), otherSummaries(c.others), used, suffixes)
			if err != nil {
				t.Fatal(err)
			}
			exact := checkComponents(withOthers(c.sums, c.others), used, suffixes)
			if got != c.want || !got && len(exact) > 0 {
				t.Errorf("mayShareComponent = %v, want %v (checkComponents: %v)", got, c.want, exact)
			}
		})
	}
	// Enough names for two passes (hashPasses), with a clash or not.
	var many []*logoSummary
	for i := range passHashes/len(suffixes) + 1000 {
		many = append(many, sum(fmt.Sprint("l", i), fmt.Sprint("L", i, "Icon")))
	}
	for _, c := range []struct {
		name string
		last *logoSummary
		want bool
	}{
		{"many, distinct", sum("z", "ZIcon"), false},
		{"many, a name twice", sum("z", "L77Icon"), true},
		{"many, a suffixed name", sum("z", "L12345IconProps"), true},
	} {
		sums := append(many[:len(many):len(many)], c.last)
		got, err := mayShareComponent(memSummaries(sums), nil, used, suffixes)
		if err != nil || got != c.want {
			t.Errorf("%s: mayShareComponent = %v, %v; want %v", c.name, got, err, c.want)
		}
	}
}

// TestSummaryListSpilled reads summaries back from a spill file as they
// were, in the order of the logos, skipping those without one and
// taking those still in memory.
func TestSummaryListSpilled(t *testing.T) {
	s, err := newSpill(t.TempDir(), ".dist-tmp-spill-")
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	b := &treeBuild{sumSpill: s}
	want := []*logoSummary{
		{Slug: "acme", Name: "Acme", Hex: "#FF5500", Categories: []string{"tools"}, Aliases: []string{"ACME"}, Component: "AcmeIcon", MetaPath: "src/acme/logo.yaml", Variants: []string{"icon"}},
		{Slug: "beta", Name: "Beta", Hex: "#000000", Component: "B", ComponentAt: Pos{Line: 3, Col: 12}, MetaPath: "src/beta/logo.yaml", Variants: []string{"icon", "icon-dark"}, DarkIcon: true, IconOnDark: true},
		{Slug: "gamma", Name: "Gamma", Hex: "#123456", MetaPath: "src/gamma/logo.yaml", Variants: []string{"icon"}},
	}
	warned := ProblemList{{Severity: Warning, Msg: "a warning"}}
	b.logos = []builtLogo{
		b.keep(&logoState{sum: want[0]}),
		b.keep(&logoState{probs: ProblemList{{Msg: "an error"}}}), // failed
		b.keep(&logoState{sum: want[1], probs: warned}),
		{more: &logoState{sum: want[2]}}, // stays in memory
	}
	// keep moved the summaries and dropped what kept nothing else.
	if l := b.logos[0]; l.more != nil || !l.hasSummary() {
		t.Errorf("acme: state %+v, hasSummary %t; want none, true", l.more, l.hasSummary())
	}
	if l := b.logos[1]; l.more == nil || l.hasSummary() || len(l.probs()) != 1 {
		t.Errorf("bad: state %+v, hasSummary %t; want its problem only", l.more, l.hasSummary())
	}
	if l := b.logos[2]; l.sum() != nil || !l.hasSummary() || len(l.probs()) != 1 {
		t.Errorf("beta: summary in memory %t, hasSummary %t, %d problems; want false, true, 1", l.sum() != nil, l.hasSummary(), len(l.probs()))
	}
	list, err := b.summaries()
	if err != nil {
		t.Fatal(err)
	}
	got, err := list.all()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(logoSummary{})); diff != "" || list.len() != 3 {
		t.Errorf("read back %d (-want +got):\n%s", list.len(), diff)
	}
}

// TestPlaceMakesFolders: a file placed in a folder the tree lacks gets
// its folder and parents, by write and by stream alike (place makes them
// only when a create finds none).
func TestPlaceMakesFolders(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "standby")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	b := &treeBuild{ctx: context.Background(), standby: emptyTree(dir)}
	b.standbyOnce.Do(func() {}) // opened already
	data := []byte("<svg/>")
	b.place("logos/acme/icon.svg", hashOf(data), data)
	b.place("logos/acme/icon-dark.svg", hashOf(data), data)
	_, err := b.placeStream("api/logos/acme.json", func(w io.Writer) error {
		_, err := w.Write([]byte("{}"))
		return err
	})
	if err := errors.Join(err, b.failed()); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"logos/acme/icon.svg": "<svg/>", "logos/acme/icon-dark.svg": "<svg/>", "api/logos/acme.json": "{}"} {
		if got, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", name, got, err, want)
		}
	}
}

// BenchmarkCheckAllComponents is the component check of a rebuild of
// 3,470 logos, whose summaries are in memory: the hash pass
// (checkAllComponents) against the map of every name (checkComponents).
func BenchmarkCheckAllComponents(b *testing.B) {
	var sums []*logoSummary
	for i := range 3470 {
		sums = append(sums, &logoSummary{Slug: fmt.Sprint("logo", i), Component: fmt.Sprint("Logo", i, "Icon")})
	}
	used := map[string]bool{"Icon": true, "IconProps": true}
	suffixes := []string{"", "Props", "Variant"}
	b.Run("hashes", func(b *testing.B) {
		for b.Loop() {
			if probs, err := checkAllComponents(memSummaries(sums), nil, used, suffixes); err != nil || len(probs) > 0 {
				b.Fatal(probs, err)
			}
		}
	})
	b.Run("map", func(b *testing.B) {
		for b.Loop() {
			if probs := checkComponents(sums, used, suffixes); len(probs) > 0 {
				b.Fatal(probs)
			}
		}
	})
}
