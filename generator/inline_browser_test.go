package generator

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image/color"
	"image/png"
	"math"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"

	"logoindex/generator/problem"
	"logoindex/internal/browsertest"
	"logoindex/internal/testtree"
)

// The logos of TestInlineLogosKeepToThemselves. Each is accepted, and
// each, inlined unprefixed as written, would restyle the page: rules with
// !important on the class names the page and the victim logo use, on the
// page's ids (which the logo defines too), nested @media, descendants of
// the logo's own class, and slugs and classes that met under the old
// prefix ("bad" with icon-x, "bad-icon" with x).
const (
	inlineBad = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" class="r"><style>
.icon-x { fill: #FF0000 !important; stroke: #FF0000 !important; color: #FF0000 !important }
.st0 path { fill: #00FF00 !important; opacity: .1 !important }
#header, #main { display: none !important; visibility: hidden !important }
@media all { @media screen { .x { fill: #0000FF !important; font-size: 90px !important } } }
svg.r { opacity: .9; font-family: serif }
</style><g class="st0"><path class="icon-x" d="M2 2h20v20H2z"/><path id="header" class="x" d="M4 4h4v4H4z"/></g><rect id="main" width="1" height="1"/></svg>`
	inlineBadIcon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><style>
.x { fill: #00FF00 !important; stroke: #00FF00 !important; display: none !important }
.x .st0, .x > path { visibility: hidden !important }
</style><g class="x"><path class="st0" d="M2 2h20v20H2z"/></g></svg>`
	inlineVictim = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><style>
.x { fill: #123456 } .icon-x { stroke: #654321; stroke-width: 2 } .st0 path { opacity: .75 }
</style><g class="st0"><path class="x" d="M2 2h9v9H2z"/><path class="icon-x" d="M13 13h9v9h-9z"/></g></svg>`
)

// inlineControls are files the checker refuses, each of which, inlined
// as written, changes the page: the test must see each change, or it
// could not fail.
var inlineControls = []struct {
	name, src string
	code      problem.Code
}{
	{"root transform", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" transform="translate(300 80) scale(40)"><path fill="#F00" d="M0 0h24v24H0z"/></svg>`, problem.SVGRootStyle},
	{"overflow with a shape far outside", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" style="overflow:visible"><path fill="#F00" d="M-2000 -2000h4000v4000h-4000z"/></svg>`, problem.SVGRootStyle},
	{"a rule on an id the logo lacks", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><style>.a{fill:#F00}#header{display:none}</style><path class="a" d="M0 0h24v24H0z"/></svg>`, problem.SVGCSSNotAllowed},
	{"an element selector", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><style>path{fill:#F00 !important}</style><path d="M0 0h24v24H0z"/></svg>`, problem.SVGCSSNotAllowed},
	{"a filter that spreads", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" style="filter:drop-shadow(0 200px 0 #F00)"><path d="M0 0h24v24H0z"/></svg>`, problem.SVGRootStyle},
}

// inlinePage is a page of ordinary content, an inline SVG of its own and
// a logo that uses the hostile logos' class names, with a row of slots
// that hold logos (empty in the page the others are compared with). The
// slots have a fixed size: a logo that stays in its box moves nothing.
func inlinePage(victim string, logos ...string) string {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html><head><title>inline</title><link rel="icon" href="data:,">` +
		`<style>body{margin:0;font:16px sans-serif} .slot{display:inline-block;width:48px;height:48px;overflow:visible;vertical-align:top}</style></head><body><div>`)
	for range 4 {
		b.WriteString(`<div class="slot">`)
		if len(logos) > 0 {
			b.WriteString(logos[0])
			logos = logos[1:]
		}
		b.WriteString(`</div>`)
	}
	b.WriteString(`</div>
<header data-probe id="header" class="x icon-x st0" style="height:40px">Header</header>
<main data-probe id="main" class="st0"><p class="x icon-x">Text <span class="bad-icon-icon-x">more</span></p>
<svg width="40" height="40" viewBox="0 0 40 40" class="x"><g class="st0"><path class="x icon-x" fill="#777777" d="M0 0h40v40H0z"/></g></svg></main>
<div data-probe="victim" style="width:48px;height:48px">` + victim + `</div>
<p data-probe id="after" class="bad-icon-icon-x">After</p>
</body></html>`)
	return b.String()
}

// inlineProbe is what the page's content looks like: for each element of
// the probed content, its computed style, its box and whether it is what
// a click at its centre hits.
const inlineProbe = `JSON.stringify([...document.querySelectorAll('[data-probe], [data-probe] *')].map((el, i) => {
  const cs = getComputedStyle(el), r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return [i + ' ' + el.tagName + '#' + el.id,
    ['display', 'visibility', 'opacity', 'color', 'background-color', 'fill', 'stroke', 'stroke-width', 'font-size', 'transform', 'filter'].map(p => p + ':' + cs.getPropertyValue(p)).join(';'),
    [r.x, r.y, r.width, r.height].map(v => Math.round(v)).join(','),
    hit !== null && (hit === el || el.contains(hit))];
}))`

// inlineLook is what the content of a page looks like.
type inlineLook struct {
	Elements []any // per element: computed style, box, hit-testing
	// Below are the pixels of the page under the row of slots, as a
	// screenshot shows them: a logo's paint that hit-testing misses, such
	// as a filter's, shows there.
	Below []uint8
}

// probe loads page and returns what its content looks like, failing the
// test on any request the page makes.
func probe(t *testing.T, b context.Context, what, page string) inlineLook {
	t.Helper()
	p := browsertest.Load(t, b, page)
	if got := p.Requests(); len(got) > 0 {
		t.Errorf("%s made requests: %v", what, got)
	}
	s, err := chromedp.Run(p.Tab, chromedp.Evaluate[string](inlineProbe))
	if err != nil {
		t.Fatal(err)
	}
	var look inlineLook
	if err := json.Unmarshal([]byte(s), &look.Elements); err != nil || len(look.Elements) < 10 {
		t.Fatalf("probing %s: %d elements, %v", what, len(look.Elements), err)
	}
	top, err := chromedp.Run(p.Tab, chromedp.Evaluate[float64](`document.querySelector('.slot').parentElement.getBoundingClientRect().bottom`))
	if err != nil {
		t.Fatal(err)
	}
	shot, err := chromedp.Run(p.Tab, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	r := img.Bounds()
	for y := r.Min.Y + int(math.Ceil(top)); y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
			look.Below = append(look.Below, c.R, c.G, c.B)
		}
	}
	return look
}

// inlineWide is what Illustrator's SVG Tiny export writes, overflow
// "visible" on the root, with artwork far outside the viewBox: published
// (with a warning) without the attribute, it stays in its box.
const inlineWide = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" overflow="visible" fill="#123456"><path d="M-5000 -5000h10000v10000h-10000z"/></svg>`

// TestInlineLogosKeepToThemselves builds logos whose stylesheets aim at
// the page around them and at other logos, inlines what the build
// publishes in a page of other content in headless Chromium, and finds
// the content's computed style, position and hit-testing unchanged, and
// no request made. Each control, a file the checker refuses, inlined as
// written, must change the page.
func TestInlineLogosKeepToThemselves(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chromium; skipped with -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	b := browsertest.New(t, ctx)
	src := fstest.MapFS{"categories.yaml": {Data: []byte(testtree.Categories)}}
	for slug, icon := range map[string]string{"bad": inlineBad, "bad-icon": inlineBadIcon, "wide": inlineWide, "victim": inlineVictim} {
		src[slug+"/logo.yaml"] = &fstest.MapFile{Data: []byte(testtree.Meta(slug, "#123456"))}
		src[slug+"/icon.svg"] = &fstest.MapFile{Data: []byte(icon)}
	}
	tree, _ := buildTree(t, src, Options{Dir: "src"})
	victim := tree["logos/victim/icon.svg"]
	base := probe(t, b, "the page without logos", inlinePage(victim))
	got := probe(t, b, "the page with the published logos", inlinePage(victim, tree["logos/bad/icon.svg"], tree["logos/bad-icon/icon.svg"], tree["logos/wide/icon.svg"], victim))
	if diff := cmp.Diff(base.Elements, got.Elements); diff != "" {
		t.Errorf("the published logos change the page around them (-without +with):\n%s", diff)
	}
	if !bytes.Equal(base.Below, got.Below) {
		t.Error("the published logos paint over the page below them")
	}

	// The controls: the sources of the logos above, unprefixed, and
	// files the checker refuses.
	if raw := probe(t, b, "the sources as written", inlinePage(victim, inlineBad, inlineBadIcon)); cmp.Equal(base.Elements, raw.Elements) {
		t.Error("the logos' sources, inlined unprefixed, change nothing the test sees: it cannot fail")
	}
	if raw := probe(t, b, "the wide source as written", inlinePage(victim, inlineWide)); cmp.Equal(base.Elements, raw.Elements) && bytes.Equal(base.Below, raw.Below) {
		t.Error("a root overflow=visible with artwork far outside the viewBox, inlined as written, changes nothing the test sees: it cannot fail")
	}
	for _, c := range inlineControls {
		bad := fstest.MapFS{"categories.yaml": src["categories.yaml"], "acme/logo.yaml": src["bad/logo.yaml"], "acme/icon.svg": {Data: []byte(c.src)}}
		_, err := Build(ctx, bad, Options{Dir: "src"})
		var probs ProblemList
		if !errors.As(err, &probs) || len(probs.Errors()) == 0 || probs.Errors()[0].Code != c.code {
			t.Errorf("%s: the build's problems are %v, want %s", c.name, err, c.code)
		}
		if raw := probe(t, b, c.name, inlinePage(victim, c.src)); cmp.Equal(base.Elements, raw.Elements) && bytes.Equal(base.Below, raw.Below) {
			t.Errorf("%s, inlined, changes nothing the test sees: it cannot fail", c.name)
		}
	}
}
