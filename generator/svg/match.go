package svg

import (
	"slices"
	"strings"

	"logoindex/generator/problem"
)

// MaxResolveSteps bounds the work of resolving a document's styles and
// references, whatever it holds: each <style> rule tried on an element,
// each compound selector matched, each declaration applied to an element
// or looked up for a drawn one, each step along an href chain or up the
// chain of what draws an element. A logo with a stylesheet takes a few
// thousand steps; a file that would take more is refused once it has
// taken them, so a check ends within a known time and memory.
const MaxResolveSteps = 1_000_000

// spend counts n steps of resolving styles and references, at the
// element or text at; it returns false once the budget is spent,
// which it reports once: every walk that spends then stops.
func (c *checker) spend(n int, at *Node) bool {
	if c.stepsReported {
		return false
	}
	if c.steps += n; c.steps <= c.maxSteps {
		return true
	}
	c.stepsReported = true
	c.errorf(c.d.Pos(at), problem.SVGTooComplex, "its <style> rules and references take more than %d steps to resolve (a logo's take a few thousand); use fewer rules, rules that select fewer elements, or shorter chains of references", c.maxSteps)
	return false
}

// ruleIndex holds the selectors of a document's <style> rules, each under
// one name its subject (last) compound requires: an id, else a class,
// else an element name ("*" for none). An element is then tried only
// against the selectors filed under its own id, classes and name, so that
// thousands of rules over thousands of elements cost what they match.
type ruleIndex struct {
	sels                  []indexedSelector
	byID, byClass, byType map[string][]int // indices into sels, in document order
}

// indexedSelector is one selector of a rule, with what is known of it
// before matching.
type indexedSelector struct {
	sel  *cssSelector
	rule *sheetRule
	spec [3]int
	// anchor is an id ("#a") or class (".a") that a compound left of the
	// subject requires, so an ancestor must have it; "" when the subject
	// alone holds the selector's ids and classes.
	anchor string
}

// foldName is an id or class name as the matcher compares it: in lower
// case, since a page in quirks mode matches classes and ids without
// regard to case. A selector that could match an element in either mode
// then counts as matching it, so no rule reaches the root (or anything
// else) unseen through a name that differs only in case.
func foldName(s string) string { return strings.ToLower(s) }

// nodeNames are an element's id and classes (folded), read once for all
// selectors.
type nodeNames struct {
	id      string
	classes []string // sorted, without repeats
}

func newRuleIndex(sheets []sheet) *ruleIndex {
	ix := &ruleIndex{byID: map[string][]int{}, byClass: map[string][]int{}, byType: map[string][]int{}}
	for si := range sheets {
		for ri := range sheets[si].rules {
			r := &sheets[si].rules[ri]
			for k := range r.selectors {
				s := &r.selectors[k]
				last := s.compounds[len(s.compounds)-1]
				is := indexedSelector{sel: s, rule: r, spec: specificity(*s)}
				for _, cp := range s.compounds[:len(s.compounds)-1] {
					if is.anchor == "" && len(cp.ids) > 0 {
						is.anchor = "#" + foldName(cp.ids[0].name)
					} else if is.anchor == "" && len(cp.classes) > 0 {
						is.anchor = "." + foldName(cp.classes[0].name)
					}
				}
				i := len(ix.sels)
				ix.sels = append(ix.sels, is)
				switch {
				case len(last.ids) > 0:
					id := foldName(last.ids[0].name)
					ix.byID[id] = append(ix.byID[id], i)
				case len(last.classes) > 0:
					class := foldName(last.classes[0].name)
					ix.byClass[class] = append(ix.byClass[class], i)
				case last.typ == "":
					ix.byType["*"] = append(ix.byType["*"], i)
				default:
					ix.byType[last.typ] = append(ix.byType[last.typ], i)
				}
			}
		}
	}
	return ix
}

// matcher matches the selectors of a ruleIndex to a document's elements.
type matcher struct {
	c     *checker
	ix    *ruleIndex
	names map[*Node]*nodeNames
	// ancestors counts the ids ("#a") and classes (".a") of the elements
	// above the one being matched, for a quick test of a selector's anchor.
	ancestors map[string]int
	at        *Node // where a spent budget is reported
}

func (m *matcher) namesOf(n *Node) *nodeNames {
	if nm := m.names[n]; nm != nil {
		return nm
	}
	nm := &nodeNames{id: foldName(n.Attr0("id"))}
	if class, ok := n.Attr("class"); ok {
		nm.classes = strings.Fields(foldName(class))
		slices.Sort(nm.classes)
		nm.classes = slices.Compact(nm.classes)
	}
	m.names[n] = nm
	return nm
}

// resolveSelectors records on every element the declarations of the
// <style> rules that match it, with the specificity of the most specific
// matching selector of each rule. The work is bounded by MaxResolveSteps.
func (c *checker) resolveSelectors() {
	if len(c.sheets) == 0 {
		return
	}
	m := &matcher{c: c, ix: newRuleIndex(c.sheets), names: map[*Node]*nodeNames{}, ancestors: map[string]int{}, at: c.sheets[0].text}
	m.walk(c.d.Root)
}

// walk matches n and the elements under it; false stops the walk.
func (m *matcher) walk(n *Node) bool {
	if n.Type != ElementNode || editorNamespaces[n.Space] {
		return true
	}
	if !m.element(n) {
		return false
	}
	nm := m.namesOf(n)
	keys := make([]string, 0, len(nm.classes)+1)
	if nm.id != "" {
		keys = append(keys, "#"+nm.id)
	}
	for _, cl := range nm.classes {
		keys = append(keys, "."+cl)
	}
	for _, k := range keys {
		m.ancestors[k]++
	}
	ok := true
	for _, k := range n.Children {
		if ok = m.walk(k); !ok {
			break
		}
	}
	for _, k := range keys {
		m.ancestors[k]--
	}
	return ok
}

// element applies to n the declarations of every rule with a selector
// that matches it, in the order of the rules; false when the budget is
// spent.
func (m *matcher) element(n *Node) bool {
	nm := m.namesOf(n)
	if !m.c.spend(1+len(nm.classes), m.at) {
		return false
	}
	cands := slices.Clone(m.ix.byType["*"])
	cands = append(cands, m.ix.byType[n.Local]...)
	if nm.id != "" {
		cands = append(cands, m.ix.byID[nm.id]...)
	}
	for _, cl := range nm.classes {
		cands = append(cands, m.ix.byClass[cl]...)
	}
	if len(cands) == 0 {
		return true
	}
	slices.Sort(cands)
	var hitRule *sheetRule
	var best [3]int
	apply := func() bool {
		if hitRule == nil {
			return true
		}
		if !m.c.spend(len(hitRule.decls), m.at) {
			return false
		}
		for _, d := range hitRule.decls {
			m.c.decls[n] = append(m.c.decls[n], applied{d, best})
		}
		return true
	}
	for _, i := range cands {
		is := &m.ix.sels[i]
		if !m.c.spend(1, m.at) {
			return false
		}
		if is.anchor != "" && m.ancestors[is.anchor] == 0 {
			continue
		}
		if m.match(is.sel, len(is.sel.compounds)-1, n) != matched {
			if m.c.stepsReported {
				return false
			}
			continue
		}
		if is.rule != hitRule {
			if !apply() {
				return false
			}
			hitRule, best = is.rule, is.spec
		} else if moreSpecific(is.spec, best) {
			best = is.spec
		}
	}
	return apply()
}

// moreSpecific reports whether specificity a beats b.
func moreSpecific(a, b [3]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] > b[i]
		}
	}
	return false
}

// matchResult is what matching part of a selector gives: it matches; it
// fails here but may match further up; or it cannot match anywhere further
// up, so the matching stops there rather than try every ancestor again.
type matchResult uint8

const (
	matched matchResult = iota
	failsLocally
	failsCompletely
)

// match reports whether compounds[:i+1] of s match with compound i on n.
// A descendant combinator tries each ancestor in turn, but a part that
// fails completely ends the search: every ancestor further up has fewer
// ancestors still. This keeps matching linear in the depth of the tree
// and the length of the selector, where plain backtracking tries every
// combination of ancestors.
func (m *matcher) match(s *cssSelector, i int, n *Node) matchResult {
	if !m.c.spend(1+len(s.compounds[i].classes), m.at) {
		return failsCompletely
	}
	if !m.compound(s.compounds[i], n) {
		return failsLocally
	}
	if i == 0 {
		return matched
	}
	p := n.Parent
	if s.child[i-1] {
		if p == nil {
			return failsCompletely
		}
		return m.match(s, i-1, p)
	}
	for ; p != nil; p = p.Parent {
		if r := m.match(s, i-1, p); r != failsLocally {
			return r
		}
	}
	return failsCompletely
}

func (m *matcher) compound(c cssCompound, n *Node) bool {
	if n.Type != ElementNode || n.Space != NSSVG || c.typ != "" && c.typ != "*" && c.typ != n.Local {
		return false
	}
	if len(c.ids) == 0 && len(c.classes) == 0 {
		return true
	}
	nm := m.namesOf(n)
	for _, want := range c.ids {
		if foldName(want.name) != nm.id {
			return false
		}
	}
	for _, want := range c.classes {
		if _, ok := slices.BinarySearch(nm.classes, foldName(want.name)); !ok {
			return false
		}
	}
	return true
}

// specificity is a selector's (ids, classes, element names).
func specificity(s cssSelector) [3]int {
	var sp [3]int
	for _, c := range s.compounds {
		sp[0] += len(c.ids)
		sp[1] += len(c.classes)
		if c.typ != "" && c.typ != "*" {
			sp[2]++
		}
	}
	return sp
}

// walkElements calls fn for n and every element under it, in document
// order, but for editor metadata, which is never drawn or published.
func walkElements(n *Node, fn func(*Node)) {
	if n.Type != ElementNode || editorNamespaces[n.Space] {
		return
	}
	fn(n)
	for _, k := range n.Children {
		walkElements(k, fn)
	}
}
