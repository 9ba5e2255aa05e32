package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator/svg"
	"logoindex/internal/testskip"
)

func TestSampleIndices(t *testing.T) {
	for _, tc := range []struct {
		n, k int
		want []int
	}{
		{10, 3, []int{0, 3, 6}},
		{10, 5, []int{0, 2, 4, 6, 8}},
		{7, 7, []int{0, 1, 2, 3, 4, 5, 6}},
		{3, 10, []int{0, 1, 2}},
		{0, 5, []int{}},
	} {
		if diff := cmp.Diff(tc.want, sampleIndices(tc.n, tc.k)); diff != "" {
			t.Errorf("sampleIndices(%d, %d) (-want +got):\n%s", tc.n, tc.k, diff)
		}
	}
	// The quick run's sample: 300 distinct files spread over all 3,470.
	idx := sampleIndices(3470, 300)
	if len(idx) != 300 || idx[0] != 0 || idx[299] < 3470-12 || idx[299] >= 3470 {
		t.Errorf("sampleIndices(3470, 300): %d indices from %d to %d", len(idx), idx[0], idx[len(idx)-1])
	}
	for i := 1; i < len(idx); i++ {
		if gap := idx[i] - idx[i-1]; gap < 11 || gap > 12 {
			t.Fatalf("sampleIndices(3470, 300): gap %d at %d, want 11 or 12", gap, i)
		}
	}
}

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []time.Duration
		want time.Duration
	}{
		{nil, 0},
		{[]time.Duration{5}, 5},
		{[]time.Duration{9, 1, 5}, 5},
		{[]time.Duration{4, 1, 3, 2}, 3}, // the upper middle
		{[]time.Duration{7, 7, 1}, 7},
	} {
		in := slices.Clone(tc.in)
		if got := median(tc.in); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.in, got, tc.want)
		}
		if !slices.Equal(in, tc.in) {
			t.Errorf("median reordered its input: %v", tc.in)
		}
	}
}

func TestFitSize(t *testing.T) {
	for _, tc := range []struct {
		w, h, size float64
		wantW      float64
		wantH      float64
		ok         bool
	}{
		{24, 24, 128, 128, 128, true},
		{100, 50, 128, 128, 64, true},
		{50, 100, 512, 256, 512, true},
		{3, 7, 128, 3 * (128.0 / 7), 128, true},
		{0, 24, 128, 0, 0, false},
		{24, 0, 128, 0, 0, false},
	} {
		w, h, ok := fitSize(tc.w, tc.h, tc.size)
		if w != tc.wantW || h != tc.wantH || ok != tc.ok {
			t.Errorf("fitSize(%g, %g, %g) = %g, %g, %v; want %g, %g, %v", tc.w, tc.h, tc.size, w, h, ok, tc.wantW, tc.wantH, tc.ok)
		}
	}
}

func TestCairoImage(t *testing.T) {
	// Two rows of two pixels, B G R A in memory, a stride of 12 bytes.
	data := []byte{
		0x10, 0x20, 0x30, 0xFF, 0, 0, 0, 0, 9, 9, 9, 9,
		0, 0, 64, 128, 1, 2, 3, 3, 9, 9, 9, 9,
	}
	got, ok := cairoImage(data, 2, 2, 12).(*image.NRGBA)
	if !ok {
		t.Fatalf("cairoImage with transparency = %T, want *image.NRGBA", got)
	}
	want := []byte{
		0x30, 0x20, 0x10, 0xFF, 0, 0, 0, 0,
		// cairo's (c*255 + a/2) / a: (64*255 + 64) / 128 = 128; (3*255 + 1) / 3 = 255.
		128, 0, 0, 128, 255, 170, 85, 3,
	}
	if diff := cmp.Diff(want, got.Pix); diff != "" {
		t.Errorf("pixels (-want +got):\n%s", diff)
	}

	opaque := []byte{0x10, 0x20, 0x30, 0xFF, 1, 2, 3, 0xFF}
	rgba, ok := cairoImage(opaque, 2, 1, 8).(*image.RGBA)
	if !ok {
		t.Fatalf("cairoImage of an opaque surface = %T, want *image.RGBA (PNG writes it as RGB)", rgba)
	}
	if diff := cmp.Diff([]byte{0x30, 0x20, 0x10, 0xFF, 3, 2, 1, 0xFF}, rgba.Pix); diff != "" {
		t.Errorf("opaque pixels (-want +got):\n%s", diff)
	}
}

func TestDiffFraction(t *testing.T) {
	img := func(w int, px ...color.NRGBA) *image.NRGBA {
		m := image.NewNRGBA(image.Rect(0, 0, w, len(px)/w))
		for i, c := range px {
			m.SetNRGBA(i%w, i/w, c)
		}
		return m
	}
	red := color.NRGBA{200, 0, 0, 255}
	for _, tc := range []struct {
		name string
		a, b image.Image
		want float64
	}{
		{"same", img(2, red, red, red, red), img(2, red, red, red, red), 0},
		{"one pixel 17/255 off", img(2, red, red, red, red), img(2, red, red, red, color.NRGBA{217, 0, 0, 255}), 0.25},
		{"16/255 off is within the rule", img(2, red, red, red, red), img(2, red, red, red, color.NRGBA{216, 0, 0, 255}), 0},
		{"transparent pixels of other colours", img(1, color.NRGBA{1, 2, 3, 0}), img(1, color.NRGBA{200, 100, 0, 0}), 0},
		{"half the alpha", img(2, red, red), img(2, red, color.NRGBA{200, 0, 0, 128}), 0.5},
		{"other sizes", img(2, red, red), img(1, red, red), 1},
		{"opaque against transparent", image.NewRGBA(image.Rect(0, 0, 1, 1)), img(1, red), 1},
	} {
		if got := diffFraction(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: diffFraction = %g, want %g", tc.name, got, tc.want)
		}
	}
}

// fakeRenderer draws an "SVG" whose bytes are "name:grey" as one grey
// pixel per size unit, counting its renders; "bad" fails.
type fakeRenderer struct {
	mu      sync.Mutex
	renders []string
}

func (f *fakeRenderer) String() string { return "fake" }

func (f *fakeRenderer) render(svg []byte, size int) (image.Image, error) {
	f.mu.Lock()
	f.renders = append(f.renders, fmt.Sprintf("%s@%d", svg, size))
	f.mu.Unlock()
	_, grey, _ := strings.Cut(string(svg), ":")
	if grey == "bad" {
		return nil, errRender
	}
	var g uint8
	fmt.Sscan(grey, &g)
	m := image.NewNRGBA(image.Rect(0, 0, 4, 4))
	for i := range m.Pix {
		m.Pix[i] = g
	}
	// At 512 px one pixel differs, so a change shows at that size alone.
	if size == smallSize && strings.HasPrefix(string(svg), "small-svgo") {
		m.Pix[3] = 0xFF
	}
	return m, nil
}

func TestVisualCompare(t *testing.T) {
	file := func(name string, width float64) *corpusFile {
		return &corpusFile{Name: name, Src: []byte(name + ":100"), Info: &svg.Info{ViewBox: [4]float64{0, 0, width, width}}}
	}
	c := &corpus{Name: "test", Files: []*corpusFile{
		file("same", 24),    // ours equals the source: no render of ours
		file("changed", 24), // SVGO changes it at 128 px: not rendered at 512
		file("wide", 128),   // 128 px only
		file("small", 24),   // SVGO's version differs at 512 px only
		{Name: "unrenderable", Src: []byte("x:bad"), Info: &svg.Info{ViewBox: [4]float64{0, 0, 24, 24}}},
	}}
	ours := func(f *corpusFile) []byte {
		if f.Name == "same" || f.Name == "unrenderable" {
			return f.Src
		}
		return []byte(f.Name + "-ours:100")
	}
	svgo := func(f *corpusFile) []byte {
		switch f.Name {
		case "changed":
			return []byte("changed-svgo:180")
		case "small":
			return []byte("small-svgo:100")
		}
		return []byte(f.Name + "-svgo:100")
	}
	dir := t.TempDir()
	compare := func() ([]visualResult, *renderStats, []string) {
		t.Helper()
		cache, err := openVisualCache(dir, "fake")
		if err != nil {
			t.Fatal(err)
		}
		r := &fakeRenderer{}
		v := &visual{r: r, cache: cache, stats: &renderStats{}}
		st := startStage("test", len(c.Files))
		got, err := v.compare(context.Background(), c, st, ours, svgo)
		st.End("done")
		if err != nil {
			t.Fatal(err)
		}
		if err := cache.close(true); err != nil {
			t.Fatal(err)
		}
		slices.Sort(r.renders)
		return got, v.stats, r.renders
	}
	got, stats, renders := compare()
	want := []visualResult{
		{Unrenderable: []string{"unrenderable"}},
		{Changed: []string{"changed (100.00%)", "small (6.25%)"}, Unrenderable: []string{"unrenderable"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	wantRenders := []string{
		"changed-ours:100@128", "changed-ours:100@512", "changed-svgo:180@128", "changed:100@128", "changed:100@512",
		"same-svgo:100@128", "same-svgo:100@512", "same:100@128", "same:100@512",
		"small-ours:100@128", "small-ours:100@512", "small-svgo:100@128", "small-svgo:100@512", "small:100@128", "small:100@512",
		"wide-ours:100@128", "wide-svgo:100@128", "wide:100@128",
		"x:bad@128",
	}
	if diff := cmp.Diff(wantRenders, renders); diff != "" {
		t.Errorf("renders (-want +got):\n%s", diff)
	}
	if stats.Identical != 2 || stats.Renders != int64(len(wantRenders)) {
		t.Errorf("stats %+v, want 2 identical outputs and %d renders", stats, len(wantRenders))
	}

	// A rerun finds every comparison in the cache.
	got2, stats, renders := compare()
	if diff := cmp.Diff(got, got2); diff != "" {
		t.Errorf("rerun results (-first +rerun):\n%s", diff)
	}
	if len(renders) != 0 || stats.Cached == 0 {
		t.Errorf("rerun rendered %v with %d cached comparisons, want no render", renders, stats.Cached)
	}
}

func TestVisualCacheSkipsHalfLines(t *testing.T) {
	dir := t.TempDir()
	c, err := openVisualCache(dir, "r")
	if err != nil {
		t.Fatal(err)
	}
	key := pairKey([]byte("a"), []byte("b"), 128)
	if err := c.put(key, 0.25); err != nil {
		t.Fatal(err)
	}
	c.close(false)
	// A run killed mid-write leaves half a line.
	f, err := os.OpenFile(c.path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(pairKey([]byte("a"), []byte("c"), 128)[:20])
	f.Close()
	c, err = openVisualCache(dir, "r")
	if err != nil {
		t.Fatal(err)
	}
	defer c.close(false)
	if v, ok := c.get(key); !ok || v != 0.25 {
		t.Errorf("get = %g, %v; want 0.25, true", v, ok)
	}
	if len(c.m) != 1 {
		t.Errorf("cache holds %d entries, want 1", len(c.m))
	}
	other, err := openVisualCache(dir, "another renderer")
	if err != nil {
		t.Fatal(err)
	}
	defer other.close(false)
	if _, ok := other.get(key); ok {
		t.Error("another renderer's cache has the entry")
	}
}

// TestRenderersAgree renders SVGs of several kinds in process and with
// rsvg-convert: the in-process renderer must give rsvg-convert's pixels,
// or the bench's visual changes would not be rsvg-convert's.
func TestRenderersAgree(t *testing.T) {
	if _, err := exec.LookPath("rsvg-convert"); err != nil {
		testskip.Missing(t, "rsvg-convert", "apt-get install librsvg2-bin")
	}
	ext := newRsvgConvert(context.Background())
	in, err := newLibrsvg("test")
	if err != nil {
		t.Skipf("no librsvg in process here: %v", err)
	}
	svgs := []string{
		`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 3l6 12H6z"/></svg>`,
		`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 30 10"><defs><linearGradient id="g"><stop offset="0" stop-color="#f00" stop-opacity=".3"/><stop offset="1" stop-color="#00f"/></linearGradient></defs><rect width="30" height="10" rx="3" fill="url(#g)"/></svg>`,
		`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8" fill="#336699"/></svg>`,
		`<svg xmlns="http://www.w3.org/2000/svg" width="1in" height="0.5in"><circle cx="48" cy="24" r="20" fill="none" stroke="#000" stroke-width="3" opacity=".5"/></svg>`,
		`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 40"><text x="5" y="30" font-size="30">Ag</text></svg>`,
		`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M0 0`, // not well-formed: neither renders
	}
	var all [][]byte
	for _, s := range svgs {
		all = append(all, []byte(s))
	}
	if err := renderersAgree(in, ext, all); err != nil {
		t.Fatal(err)
	}
	if _, err := in.render(all[len(all)-1], baseSize); !errors.Is(err, errRender) {
		t.Errorf("a broken SVG renders in process: %v", err)
	}
	img, err := in.render(all[1], baseSize)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 128 || b.Dy() != 43 {
		t.Errorf("a 30x10 viewBox at 128 px is %dx%d, want 128x43 (rsvg-convert rounds up)", b.Dx(), b.Dy())
	}
}

func TestLinkedTree(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base")
	files := []sourceFile{
		{"categories.yaml", []byte("- {slug: brands, name: Brands}\n")},
		{"a/logo.yaml", []byte("name: A\n")},
		{"a/icon.svg", []byte("<svg/>")},
		{"b-c/logo.yaml", []byte("name: B\n")},
	}
	if err := writeFiles(base, files); err != nil {
		t.Fatal(err)
	}
	tree := filepath.Join(dir, "x3")
	if err := linkedTree(context.Background(), base, tree, []string{"a", "b-c"}, "digest1", 3); err != nil {
		t.Fatal(err)
	}
	var got []string
	filepath.WalkDir(tree, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(tree, p)
		got = append(got, filepath.ToSlash(rel))
		orig := filepath.Join(base, filepath.Base(filepath.Dir(p)), d.Name())
		if d.Name() == "categories.yaml" {
			orig = filepath.Join(base, d.Name())
		}
		orig = strings.NewReplacer("-x2", "", "-x3", "").Replace(orig)
		a, _ := os.Stat(p)
		b, err := os.Stat(orig)
		if err != nil || !os.SameFile(a, b) {
			t.Errorf("%s is not a hard link to %s", p, orig)
		}
		return nil
	})
	slices.Sort(got)
	want := []string{
		"a-x2/icon.svg", "a-x2/logo.yaml", "a-x3/icon.svg", "a-x3/logo.yaml", "a/icon.svg", "a/logo.yaml",
		"b-c-x2/logo.yaml", "b-c-x3/logo.yaml", "b-c/logo.yaml", "categories.yaml",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tree (-want +got):\n%s", diff)
	}

	// Made from the same base: kept as it is.
	marker := filepath.Join(tree, "marker")
	os.WriteFile(marker, nil, 0o644)
	if err := linkedTree(context.Background(), base, tree, []string{"a", "b-c"}, "digest1", 3); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Error("the tree was made again from the same base")
	}
	// From another base: made again.
	if err := linkedTree(context.Background(), base, tree, []string{"a", "b-c"}, "digest2", 3); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the tree was kept though its base changed")
	}

	// warmTree reads it all, and says so when it cannot.
	if err := warmTree(context.Background(), tree, 6); err != nil {
		t.Errorf("warmTree: %v", err)
	}
	if err := warmTree(context.Background(), filepath.Join(dir, "missing"), 6); err == nil {
		t.Error("warmTree of a missing tree reported nothing")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := warmTree(ctx, tree, 6); !errors.Is(err, context.Canceled) {
		t.Errorf("warmTree after Ctrl-C gave %v, want %v", err, context.Canceled)
	}
}

func TestDiffTrees(t *testing.T) {
	dir := t.TempDir()
	tree := func(name string, files ...sourceFile) string {
		p := filepath.Join(dir, name)
		if err := writeFiles(p, files); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := tree("a", sourceFile{"x/1.json", []byte("1")}, sourceFile{"y.html", []byte("y")})
	same := tree("same", sourceFile{"x/1.json", []byte("1")}, sourceFile{"y.html", []byte("y")})
	changed := tree("changed", sourceFile{"x/1.json", []byte("2")}, sourceFile{"y.html", []byte("y")})
	extra := tree("extra", sourceFile{"x/1.json", []byte("1")}, sourceFile{"x/2.json", nil}, sourceFile{"y.html", []byte("y")})
	link := filepath.Join(dir, "link")
	if err := os.Symlink(same, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		b, want string
	}{
		{same, ""},
		{link, ""},
		{changed, "x/1.json"},
		{extra, "x/2.json"},
	} {
		got, err := diffTrees(a, tc.b)
		if err != nil || got != tc.want {
			t.Errorf("diffTrees(a, %s) = %q, %v; want %q", filepath.Base(tc.b), got, err, tc.want)
		}
	}
}

func TestGoals(t *testing.T) {
	r := &Results{
		Mode: "full",
		Corpora: []CorpusRow{
			{Corpus: "simple-icons", Ratio: 0.99, GzipRatio: 1.01, Rendered: true},
			{Corpus: "devicon", Ratio: 0.9, GzipRatio: 0.9, Rendered: true, OursChanged: []string{"x.svg (1%)"}},
		},
		Build: &BuildRow{
			Logos: 3470, Clean: 4, Copy: 3, CopyRatio: 4.0 / 3, NoOp: 0.1, NoOpRatio: 0.025, NoOpUnchanged: "identical",
			OneChange: 0.4, OneChangeRatio: 0.1, OneChangeRuns: []float64{1, 0.4, 0.4}, RebuildEqualsClean: "differs at a.json",
			PeakRSSMB: 140,
			X4:        &ScaleRow{Copies: 4, Logos: 13880, Seconds: 20, TimeRatio: 5, PerLogoRatio: 1.25, PeakRSSMB: 150, RSSRatio: 150.0 / 140},
			Scale:     &ScaleRow{Copies: 30, Logos: 104100, Error: "killed"},
		},
	}
	type result struct {
		Goal string
		Met  bool
	}
	var got []result
	for _, g := range goals(r) {
		got = append(got, result{g.Goal, g.Met})
	}
	want := []result{
		{"SVG bytes <= SVGO's, raw and gzip, simple-icons", false},
		{"zero visual changes, simple-icons", true},
		{"SVG bytes <= SVGO's, raw and gzip, devicon", true},
		{"zero visual changes, devicon", false},
		{"clean build <= 1.5x cp -r of its output", true},
		{"no-op rebuild <= 5% of a clean build", true},
		{"no-op rebuild leaves the tree as it was", true},
		{"one-change rebuild <= 5% of a clean build", false},
		{"a rebuild's output equals a clean build's, file by file", false},
		{"peak RSS <= 150 MB at 3,470 logos", true},
		{"4x (13880 logos): peak RSS <= 1.3x the 1x figure", true},
		{"4x (13880 logos): time linear (time per logo <= 1.2x the 1x figure)", false},
		{"30x (104100 logos): builds", false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("goals (-want +got):\n%s", diff)
	}
}

func TestAppendToName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"name: \"1001Tracklists\"\nhex: \"#40AEF0\"\n", "name: \"1001Tracklists 2\"\nhex: \"#40AEF0\"\n"},
		{"hex: \"#40AEF0\"\nname: 'It''s'\n", "hex: \"#40AEF0\"\nname: 'It''s 2'\n"},
		{"name: \"A \\\"B\\\"\"\r\n", "name: \"A \\\"B\\\" 2\"\n"},
		{"name: Plain\n", "name: Plain 2\n"},
	} {
		if got := string(appendToName([]byte(tc.in), " 2")); got != tc.want {
			t.Errorf("appendToName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestPrintTableInterrupted(t *testing.T) {
	r := &Results{Date: "2026-01-01", Machine: "m", Runs: 3, LoadStart: "1.00 1.00 1.00", LoadEnd: "2.00 1.50 1.00",
		Interrupted: true, Steps: []Step{{"setup", 1.5}},
		Corpora: []CorpusRow{{Corpus: "simple-icons", Files: 3, Ratio: 1, GzipRatio: 1}}}
	r.Goals = goals(r)
	var b bytes.Buffer
	printTable(&b, r)
	for _, want := range []string{"INTERRUPTED", "1.00 1.00 1.00 at the start, 2.00 1.50 1.00 at the end", "simple-icons", "steps: setup 1.5s"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "minutes") {
		t.Errorf("an interrupted run claims its run time:\n%s", b.String())
	}
}

// TestMain lets the test binary stand in for the bench under timed,
// which runs its command under a copy of the running program.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == measureArg {
		if err := runMeasured(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestTimedCPU checks that timed tells CPU time from wall time: a command
// that sleeps 0.3 s takes next to no CPU, one that counts to 600,000 takes
// much more. The wall time also holds the start of the
// measuring copy of the program, slow under -race.
func TestTimedCPU(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	st := startStage("test", -1)
	defer st.End("done")
	for _, tc := range []struct {
		name, script string
		busy         bool
	}{
		{"sleep", "sleep 0.3", false},
		{"count", "i=0; while [ $i -lt 600000 ]; do i=$((i+1)); done", true},
	} {
		r, err := timed(context.Background(), st, tc.name, nil, 0, sh, "-c", tc.script)
		if err != nil {
			t.Fatal(err)
		}
		if r.MaxRSS <= 0 {
			t.Errorf("%s: peak RSS %d", tc.name, r.MaxRSS)
		}
		if r.Wall < 300*time.Millisecond {
			t.Errorf("%s: wall time %v", tc.name, r.Wall)
		}
		if busy := r.CPU >= 150*time.Millisecond; busy != tc.busy {
			t.Errorf("%s: CPU %v in %v of wall time; want busy %t", tc.name, r.CPU, r.Wall, tc.busy)
		}
	}
}

// TestPrintTableScaleCopy checks that the cp -r of a scaled tree shows in
// the table and in its goal's figure, and stays out when not measured.
func TestPrintTableScaleCopy(t *testing.T) {
	r := &Results{Date: "2026-01-01", Machine: "m", Runs: 3, Build: &BuildRow{
		Logos: 3470, Files: 18490, Clean: 2, Copy: 1, CopyRatio: 2, PeakRSSMB: 35,
		X4:    &ScaleRow{Copies: 4, Logos: 13880, Files: 73930, Seconds: 8, TimeRatio: 4, PerLogoRatio: 1, PeakRSSMB: 35, RSSRatio: 1},
		Scale: &ScaleRow{Copies: 30, Logos: 104100, Files: 554413, Seconds: 90, TimeRatio: 45, PerLogoRatio: 1.5, PeakRSSMB: 38, RSSRatio: 38.0 / 35, Copy: 45, CopyPerFileRatio: 1.5},
	}}
	r.Goals = goals(r)
	var b bytes.Buffer
	printTable(&b, r)
	for _, want := range []string{
		"30x: cp -r of its output",
		"1.50x the time per file of the 1x cp -r",
		"1.50x per logo (CPU 0.00x per logo); cp -r of it: 1.50x the time per file of the 1x cp -r",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "4x: cp -r") {
		t.Errorf("the table shows a cp -r of the 4x tree, which was not measured:\n%s", b.String())
	}
}
