package svg

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The files below are each under the 512 KiB limit and cost a checker
// without bounds seconds to minutes of CPU and gigabytes of memory. The
// hostile ones must be refused with a problem that says why; the worst
// accepted ones are benchmarks (go test -bench Worst), so that what an
// accepted file can cost is measured, not assumed.

const worstHead = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">`

// repeatf writes format n times, with the index as its argument.
func repeatf(n int, format string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, format, i, i)
	}
	return b.String()
}

// hostileWork are files that a checker without bounds takes seconds or
// minutes over, with the first problem each must be refused with.
var hostileWork = []struct {
	name, src, want string
}{
	{
		"20,000 nested @media",
		worstHead + "<style>" + strings.Repeat("@media all{", 20000) + ".a{fill:red}" + strings.Repeat("}", 20000) + `</style><path class="a" d="M0 0"/></svg>`,
		"x.svg:1:166: <style>: CSS blocks are nested more than 8 levels deep (@media in @media ...); a logo's stylesheet needs two: flatten the rules",
	},
	{
		"3,000 nested calc(",
		worstHead + "<style>.a{stroke-width:" + strings.Repeat("calc(", 3000) + "1" + strings.Repeat(")", 3000) + `}</style><path class="a" d="M0 0"/></svg>`,
		"x.svg:1:164: <style>: CSS functions and parentheses are nested more than 16 levels deep; a logo's values need two or three: write the value out",
	},
	{
		// Each colour of the root is a value every shape inherits under
		// some condition: 2,000 x 9,000 values.
		"2,000 conditional colours inherited by 9,000 shapes",
		`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" class="r"><style>` + repeatf(2000, "@media all{.r{fill:#%06x}.c{fill:#%06x}}") + "</style>" +
			strings.Repeat(`<path class="c" d="M0 0"/>`, 9000) + "</svg>",
		"x.svg:1:78: its <style> rules and references take more than 1000000 steps to resolve (a logo's take a few thousand); use fewer rules, rules that select fewer elements, or shorter chains of references",
	},
	{
		// 60 rules of 152 distinct properties (each vendor form is one)
		// over 9,000 shapes: 82 million declarations applied.
		"60 wide rules over 9,000 shapes",
		worstHead + "<style>" + strings.Repeat(".c{"+wideRule+"}", 60) + "</style>" + strings.Repeat(`<path class="c" d="M0 0"/>`, 9000) + "</svg>",
		"x.svg:1:68: its <style> rules and references take more than 1000000 steps to resolve (a logo's take a few thousand); use fewer rules, rules that select fewer elements, or shorter chains of references",
	},
	{
		// Each <use> draws the next: the cycle check walks up a chain
		// 9,000 long, 9,000 times.
		"a chain of 9,000 <use>",
		worstHead + "<defs>" + repeatfNext(9000, `<use id="u%d" href="#u%d"/>`) + `<path id="u9000" d="M0 0"/></defs><use href="#u0"/></svg>`,
		"x.svg:1:41622: its <style> rules and references take more than 1000000 steps to resolve (a logo's take a few thousand); use fewer rules, rules that select fewer elements, or shorter chains of references",
	},
}

// wideRule declares 152 distinct properties: every form of a few.
var wideRule = func() string {
	var b strings.Builder
	for _, p := range strings.Fields("fill stroke opacity fill-opacity stroke-opacity stroke-width stroke-linecap stroke-linejoin " +
		"stroke-miterlimit stroke-dasharray stroke-dashoffset fill-rule clip-rule display visibility mix-blend-mode " +
		"isolation paint-order vector-effect shape-rendering text-rendering color-rendering color-interpolation " +
		"font-family font-size font-style font-weight font-stretch letter-spacing word-spacing text-anchor " +
		"dominant-baseline alignment-baseline baseline-shift writing-mode direction unicode-bidi") {
		for _, v := range []string{"", "-webkit-", "-moz-", "-ms-"} {
			fmt.Fprintf(&b, "%s%s:inherit;", v, p)
		}
	}
	return b.String()
}()

// repeatfNext writes format n times with the index and the next index.
func repeatfNext(n int, format string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, format, i, i+1)
	}
	return b.String()
}

// TestHostileWorkRefused refuses each hostile file with its problem: a
// budget or a limit, reported where it is passed, never a time-out.
func TestHostileWorkRefused(t *testing.T) {
	for _, tc := range hostileWork {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.src) > 512<<10 {
				t.Fatalf("the file is %d bytes, over the size limit: the build would not read it", len(tc.src))
			}
			_, probs := checkBytes("x.svg", []byte(tc.src), Rules{})
			if len(probs) == 0 {
				t.Fatal("accepted")
			}
			if diff := cmp.Diff(tc.want, probs[0].Error()); diff != "" {
				t.Errorf("first problem (-want +got):\n%s", diff)
			}
		})
	}
}

// worstAccepted are the most costly files of their kind the checker
// accepts, each under the size limit.
var worstAccepted = []struct{ name, src string }{
	{
		// 5,000 class rules over 15,000 elements: the index tries each
		// element against the rules of its own class only.
		"5,000 class rules, 15,000 elements",
		worstHead + "<style>" + repeatf(5000, ".c%d{fill:#%06x}") + "</style>" + repeatfMod(15000, 5000, `<rect class="c%d"/>`) + "</svg>",
	},
	{
		// Descendant selectors 12 compounds long, 100 levels deep, half of
		// them failing only at their first compound: backtracking would try
		// every combination of ancestors.
		"descendant selectors, 100 levels deep",
		`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" class="a"><style>` +
			strings.Repeat(".a g g g g g g g g g g .p{fill:red}.a rect g g g g g g g g g .p{fill:red}", 6) + "</style>" +
			strings.Repeat("<g>", 98) + strings.Repeat(`<path class="p" d="M0 0"/>`, 400) + strings.Repeat("</g>", 98) + "</svg>",
	},
	{
		// Gradients that each take their stops from the next, 6,000 long,
		// each painted with.
		"a chain of 6,000 gradients",
		worstHead + "<defs>" + repeatfNext(6000, `<linearGradient id="g%d" href="#g%d"/>`) + `<linearGradient id="g6000"><stop stop-color="red"/></linearGradient></defs>` +
			repeatf(6000, `<path fill="url(#g%d)" d="M0 %d"/>`) + "</svg>",
	},
	{
		// A gradient of 9,000 stops painted by 9,000 shapes.
		"9,000 stops painted 9,000 times",
		worstHead + `<linearGradient id="g">` + strings.Repeat(`<stop stop-color="red"/>`, 9000) + "</linearGradient>" +
			strings.Repeat(`<path fill="url(#g)" d="M0 0"/>`, 9000) + "</svg>",
	},
	{
		// A rule that repeats one property 20,000 times, over 9,000 shapes.
		"a rule of 20,000 declarations over 9,000 shapes",
		worstHead + "<style>.c{" + strings.Repeat("fill:red;", 20000) + "}</style>" + strings.Repeat(`<path class="c" d="M0 0"/>`, 9000) + "</svg>",
	},
	{
		// @media and functions nested to the limits, 2,000 times.
		"CSS nested to the limits",
		worstHead + "<style>" + strings.Repeat(strings.Repeat("@media all{", MaxCSSBlockDepth-1)+".a{stroke-width:"+
			strings.Repeat("calc(", MaxCSSFunctionDepth)+"1"+strings.Repeat(")", MaxCSSFunctionDepth)+"}"+strings.Repeat("}", MaxCSSBlockDepth-1), 1500) +
			`</style><path class="a" d="M0 0"/></svg>`,
	},
}

// repeatfMod writes format n times with the index modulo m.
func repeatfMod(n, m int, format string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, format, i%m)
	}
	return b.String()
}

// TestWorstAccepted checks that the benchmarks measure files the checker
// accepts and the optimiser publishes.
func TestWorstAccepted(t *testing.T) {
	for _, tc := range worstAccepted {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.src) > 512<<10 {
				t.Fatalf("the file is %d bytes, over the size limit", len(tc.src))
			}
			d := mustParse(t, []byte(tc.src))
			info, probs := Check(d, Rules{})
			if len(probs.Errors()) > 0 {
				t.Fatalf("refused: %v", probs.Errors()[0])
			}
			if testing.Short() {
				return
			}
			if _, err := OptimiseDocument(d, info, Options{IDPrefix: "acme--icon--"}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// BenchmarkWorstCheck is Parse and Check of each of the worst accepted
// files.
func BenchmarkWorstCheck(b *testing.B) {
	for _, tc := range worstAccepted {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.src)))
			for b.Loop() {
				d, _ := Parse("x.svg", []byte(tc.src))
				if _, probs := Check(d, Rules{}); len(probs.Errors()) > 0 {
					b.Fatal(probs.Errors()[0])
				}
			}
		})
	}
}

// BenchmarkWorstOptimise is Optimise of each of the worst accepted files:
// the check, the minifier, the re-check of what it publishes.
func BenchmarkWorstOptimise(b *testing.B) {
	for _, tc := range worstAccepted {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.src)))
			for b.Loop() {
				if _, err := Optimise([]byte(tc.src), Options{IDPrefix: "acme--icon--"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkHostileRefused is Parse and Check of each hostile file, to
// the problem that refuses it.
func BenchmarkHostileRefused(b *testing.B) {
	for _, tc := range hostileWork {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if _, probs := checkBytes("x.svg", []byte(tc.src), Rules{}); len(probs) == 0 {
					b.Fatal("accepted")
				}
			}
		})
	}
}
