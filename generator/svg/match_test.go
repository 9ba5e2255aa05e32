package svg

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// naiveMatch is selector matching by plain backtracking, as the CSS
// specification states it: every combination of ancestors is tried. It is
// exponential in the worst case, and the reference the matcher is held to.
func naiveMatch(s cssSelector, i int, n *Node) bool {
	if n == nil || n.Type != ElementNode || !naiveCompound(s.compounds[i], n) {
		return false
	}
	if i == 0 {
		return true
	}
	if s.child[i-1] {
		return naiveMatch(s, i-1, n.Parent)
	}
	for p := n.Parent; p != nil; p = p.Parent {
		if naiveMatch(s, i-1, p) {
			return true
		}
	}
	return false
}

func naiveCompound(c cssCompound, n *Node) bool {
	if n.Space != NSSVG || c.typ != "" && c.typ != "*" && c.typ != n.Local {
		return false
	}
	for _, want := range c.ids {
		if want.name != n.Attr0("id") {
			return false
		}
	}
	have := strings.Fields(n.Attr0("class"))
	for _, want := range c.classes {
		if !slices.Contains(have, want.name) {
			return false
		}
	}
	return true
}

// randomTree writes a random document of g, path and rect elements with
// classes a, b and c and ids from a short list.
func randomTree(rng *rand.Rand) string {
	var b strings.Builder
	ids := 0
	var elem func(depth int)
	elem = func(depth int) {
		name := []string{"g", "g", "path", "rect"}[rng.IntN(4)]
		if depth >= 6 {
			name = "path"
		}
		b.WriteString("<" + name)
		if rng.IntN(3) == 0 {
			fmt.Fprintf(&b, ` id="i%d"`, ids)
			ids++
		}
		var cls []string
		for _, c := range []string{"a", "b", "c"} {
			if rng.IntN(3) == 0 {
				cls = append(cls, c)
			}
		}
		if len(cls) > 0 {
			b.WriteString(` class="` + strings.Join(cls, " ") + `"`)
		}
		if name != "g" {
			b.WriteString("/>")
			return
		}
		b.WriteString(">")
		for range rng.IntN(4) {
			elem(depth + 1)
		}
		b.WriteString("</g>")
	}
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1" class="` + []string{"a", "b", "c"}[rng.IntN(3)] + `">`)
	for range 3 {
		elem(1)
	}
	b.WriteString("</svg>")
	return b.String()
}

// randomSelector writes a random selector of one to five compounds.
func randomSelector(rng *rand.Rand) string {
	var parts []string
	for i := range 1 + rng.IntN(5) {
		if i > 0 && rng.IntN(2) == 0 {
			parts = append(parts, ">")
		}
		c := []string{"", "", "g", "path", "svg", "*"}[rng.IntN(6)]
		for range rng.IntN(3) {
			c += "." + []string{"a", "b", "c"}[rng.IntN(3)]
		}
		if rng.IntN(5) == 0 {
			c += fmt.Sprintf("#i%d", rng.IntN(6))
		}
		if c == "" {
			c = "*"
		}
		parts = append(parts, c)
	}
	return strings.Join(parts, " ")
}

// TestMatchAgainstBacktracking holds the indexed matcher, which stops a
// descendant search once a part fails completely, to plain backtracking
// on random documents and selectors: every element, every selector, the
// same answer.
func TestMatchAgainstBacktracking(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		matchAgainstBacktracking(t, rng)
	}
}

// FuzzMatchAgainstBacktracking is TestMatchAgainstBacktracking on the
// documents and selectors of other seeds.
func FuzzMatchAgainstBacktracking(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		matchAgainstBacktracking(t, rand.New(rand.NewPCG(a, b)))
	})
}

// matchAgainstBacktracking compares the matcher with naiveMatch on one
// random document and 20 random selectors.
func matchAgainstBacktracking(t *testing.T, rng *rand.Rand) {
	t.Helper()
	src := randomTree(rng)
	d, probs := Parse("x.svg", []byte(src))
	if d == nil {
		t.Fatalf("%s: %v", src, probs)
	}
	var sels []string
	for range 20 {
		sels = append(sels, randomSelector(rng))
	}
	rules, errs := readStylesheet(strings.Join(sels, "{fill:red}") + "{fill:red}")
	if len(errs) > 0 || len(rules) != len(sels) {
		t.Fatalf("%q: %d rules, errors %v", sels, len(rules), errs)
	}
	// Each rule applies one declaration, numbered as the rule: what the
	// index applies to an element is the list of the rules that match it.
	sh := sheet{text: d.Root}
	for k, r := range rules {
		sh.rules = append(sh.rules, sheetRule{selectors: r.selectors, decls: []*decl{{prop: "fill", order: k}}})
	}
	c := &checker{d: d, decls: map[*Node][]applied{}, sheets: []sheet{sh}, maxSteps: MaxResolveSteps}
	c.resolveSelectors()
	m := &matcher{c: c, names: map[*Node]*nodeNames{}, at: d.Root}
	walkElements(d.Root, func(n *Node) {
		var want, applied []int
		for k, r := range rules {
			s := r.selectors[0]
			hit := naiveMatch(s, len(s.compounds)-1, n)
			if got := m.match(&s, len(s.compounds)-1, n) == matched; got != hit {
				t.Fatalf("%q on %s: matched %t, backtracking %t\n%s", sels[k], n, got, hit, src)
			}
			if hit {
				want = append(want, k)
			}
		}
		for _, a := range c.decls[n] {
			applied = append(applied, a.order)
		}
		if !slices.Equal(want, applied) {
			t.Fatalf("on %s the index applies the rules %v, backtracking matches %v\n%q\n%s", n, applied, want, sels, src)
		}
	})
}

// TestRulesApplyInOrder checks the declarations the index applies: each
// matching rule once, in the order of the rules, with the specificity of
// its most specific matching selector.
func TestRulesApplyInOrder(t *testing.T) {
	src := svgDoc(`<style>.a path{fill:red} #p{stroke:blue} path.b, .a .b, #p.b{opacity:.5} g > .b{fill:green}</style>` +
		`<g class="a"><path id="p" class="b" d="M0 0"/></g>`)
	d := mustParse(t, []byte(src))
	c := &checker{d: d, rules: Rules{}, info: &Info{}, ids: map[string]*Node{}, decls: map[*Node][]applied{}, maxSteps: MaxResolveSteps,
		orig: map[*Node]props{}, acyclic: map[*Node]bool{}, servers: map[serverOf]*Node{}, checked: map[gradientUse]bool{}}
	c.element(d.Root, false)
	c.resolveSelectors()
	var got []string
	for _, a := range c.decls[d.Root.Elements()[1].Elements()[0]] {
		got = append(got, fmt.Sprintf("%s:%s %v", a.prop, a.text, a.spec))
	}
	want := []string{"fill:red [0 1 1]", "stroke:blue [1 0 0]", "opacity:.5 [1 1 0]", "fill:green [0 1 1]"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("declarations applied (-want +got):\n%s", diff)
	}
}
