package source

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// plainMapping reads the plain form of a logo.yaml that nearly every
// contributor and converter writes: top-level "key: value" lines whose
// values are one-line plain scalars, double-quoted strings without escapes,
// flow lists of such or flow mappings of such (via: {name: "x", ...}),
// between blank and comment lines, all in printable ASCII. It builds the
// nodes yaml.v3 would build for that input: the same kinds, tags, styles,
// values, lines and columns. The comment lines, which yaml.v3 keeps as
// head and foot comments, are left out, as nothing reads them; a comment
// after a value is outside the form. Read so, a logo.yaml takes a fraction
// of the time yaml.v3 takes, which counts in a build of thousands of logos.
// Anything outside the form, however harmless, returns ok=false and goes
// to yaml.v3. FuzzPlainMapping and TestPlainMappingGrammar hold the two to
// the same tree on every input the fast path accepts, TestPlainMappingMeta
// to the same Meta and problems on every logo.yaml of the repository and
// of the corpora.
func plainMapping(data []byte) (root *yaml.Node, ok bool) {
	for _, c := range data {
		if (c < 0x20 || c > 0x7e) && c != '\n' {
			return nil, false
		}
	}
	text := string(data) // one allocation for the text of all the values
	var p nodePool
	root = p.node(yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"})
	line := 0
	for len(text) > 0 {
		line++
		var l string
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			l, text = text[:i], text[i+1:]
		} else {
			l, text = text, ""
		}
		switch c := skipSpaces(l, 0); {
		case c == len(l) || l[c] == '#':
			continue // a blank or comment line
		case c > 0 || !isLetter(l[0]):
			return nil, false
		}
		// The key: lower-case letters and underscores, then ": ".
		k, ok := plainKey(l, 0)
		if !ok || k+1 >= len(l) || l[k+1] != ' ' {
			return nil, false
		}
		if len(root.Content) == 0 {
			root.Line, root.Column = line, 1
		}
		key := p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: l[:k], Line: line, Column: 1})
		val, end, ok := p.value(l, skipSpaces(l, k+1), line)
		if !ok || skipSpaces(l, end) < len(l) {
			return nil, false
		}
		root.Content = append(root.Content, key, val)
	}
	if len(root.Content) == 0 {
		return nil, false
	}
	return root, true
}

// nodePool hands out the nodes of one file: one allocation for all the
// nodes of a typical file.
type nodePool []yaml.Node

func (p *nodePool) node(n yaml.Node) *yaml.Node {
	if len(*p) == cap(*p) {
		*p = make([]yaml.Node, 0, 16)
	}
	*p = append(*p, n)
	return &(*p)[len(*p)-1]
}

// plainKey reads the key that starts at l[i]: lower-case letters and
// underscores, at most 64 (YAML refuses a key longer than 1024
// characters; a logo's are short), that yaml.v3 reads as a string, then
// a colon. It returns the index of the colon.
func plainKey(l string, i int) (colon int, ok bool) {
	k := i
	for k < len(l) && (l[k] >= 'a' && l[k] <= 'z' || l[k] == '_') {
		k++
	}
	if k == i || k-i > 64 || k >= len(l) || l[k] != ':' || resolvesOther(l[i:k]) {
		return 0, false
	}
	return k, true
}

// value reads the value of a top-level key, which starts at l[v]: a
// quoted string, a flow list, a flow mapping or a plain scalar. It
// returns the index after it.
func (p *nodePool) value(l string, v, line int) (val *yaml.Node, end int, ok bool) {
	switch {
	case v == len(l):
		return nil, 0, false // an empty value: null, or a nested block
	case l[v] == '"':
		n, e, ok := quoted(l, v, line)
		return p.node(n), e, ok
	case l[v] == '[':
		return p.flowList(l, v, line)
	case l[v] == '{':
		return p.flowMap(l, v, line)
	}
	e := len(l)
	for e > v && l[e-1] == ' ' {
		e--
	}
	s := l[v:e]
	if !isLetter(s[0]) || resolvesOther(s) || s[len(s)-1] == ':' {
		return nil, 0, false
	}
	for i := range len(s) {
		if c := s[i]; !isBlockPlain(c) || c == ' ' && (s[i-1] == ':' || s[i+1] == '#') {
			return nil, 0, false
		}
	}
	return p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s, Line: line, Column: v + 1}), e, true
}

// flowItem reads a quoted string or a plain slug-like scalar that starts
// at l[i], inside a flow list or mapping.
func (p *nodePool) flowItem(l string, i, line int) (item *yaml.Node, end int, ok bool) {
	if i < len(l) && l[i] == '"' {
		n, e, ok := quoted(l, i, line)
		return p.node(n), e, ok
	}
	e := i
	for e < len(l) && isFlowPlain(l[e]) {
		e++
	}
	if e == i || !isLetter(l[i]) || resolvesOther(l[i:e]) {
		return nil, 0, false
	}
	return p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: l[i:e], Line: line, Column: i + 1}), e, true
}

// flowNext steps over the separator after an entry of a flow collection
// that closes with closing, at l[i]: it returns the index of the next
// entry, or of the closing bracket.
func flowNext(l string, i int, closing byte) (next int, ok bool) {
	i = skipSpaces(l, i)
	switch {
	case i < len(l) && l[i] == ',':
		i = skipSpaces(l, i+1)
		return i, i < len(l) && l[i] != closing // not a trailing comma
	case i < len(l) && l[i] == closing:
		return i, true
	}
	return 0, false // another character, or the collection goes on to another line
}

// flowList reads a flow list of flow items that starts at l[v].
func (p *nodePool) flowList(l string, v, line int) (list *yaml.Node, end int, ok bool) {
	list = p.node(yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle, Line: line, Column: v + 1})
	i := skipSpaces(l, v+1)
	for i < len(l) && l[i] != ']' {
		item, e, ok := p.flowItem(l, i, line)
		if !ok {
			return nil, 0, false
		}
		list.Content = append(list.Content, item)
		if i, ok = flowNext(l, e, ']'); !ok {
			return nil, 0, false
		}
	}
	if i == len(l) {
		return nil, 0, false // the list goes on to another line
	}
	return list, i + 1, true
}

// flowMap reads a flow mapping that starts at l[v], whose keys are plain
// keys followed by ": " and whose values are flow items.
func (p *nodePool) flowMap(l string, v, line int) (m *yaml.Node, end int, ok bool) {
	m = p.node(yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle, Line: line, Column: v + 1})
	i := skipSpaces(l, v+1)
	for i < len(l) && l[i] != '}' {
		k, ok := plainKey(l, i)
		if !ok || k+1 >= len(l) || l[k+1] != ' ' {
			return nil, 0, false
		}
		key := p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: l[i:k], Line: line, Column: i + 1})
		val, e, ok := p.flowItem(l, skipSpaces(l, k+1), line)
		if !ok {
			return nil, 0, false
		}
		m.Content = append(m.Content, key, val)
		if i, ok = flowNext(l, e, '}'); !ok {
			return nil, 0, false
		}
	}
	if i == len(l) {
		return nil, 0, false // the mapping goes on to another line
	}
	return m, i + 1, true
}

// quoted reads the double-quoted string that starts at l[i], on the
// given line, if it has no escapes, and returns its node and the index
// after its closing quote.
func quoted(l string, i, line int) (n yaml.Node, end int, ok bool) {
	for j := i + 1; j < len(l); j++ {
		switch l[j] {
		case '"':
			return yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.DoubleQuotedStyle, Value: l[i+1 : j], Line: line, Column: i + 1}, j + 1, true
		case '\\':
			return yaml.Node{}, 0, false
		}
	}
	return yaml.Node{}, 0, false
}

// resolvesOther reports whether a plain scalar s that starts with a letter
// would be typed as something other than a string (yaml.v3's resolve).
func resolvesOther(s string) bool {
	switch s {
	case "true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL":
		return true
	}
	return false
}

// skipSpaces returns the index of the first byte of l from i on that is
// not a space, or len(l).
func skipSpaces(l string, i int) int {
	for i < len(l) && l[i] == ' ' {
		i++
	}
	return i
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isFlowPlain is a character of a plain list item: a slug's.
func isFlowPlain(c byte) bool { return isLetter(c) || isDigit(c) || c == '-' || c == '_' || c == '.' }

// isBlockPlain is a character a one-line plain value may hold: those of
// names, SPDX expressions and URLs. The caller refuses ": " and " #".
func isBlockPlain(c byte) bool {
	if isLetter(c) || isDigit(c) {
		return true
	}
	switch c {
	case ' ', '-', '_', '.', '/', ':', '+', '@', '%', '=', '~', '?', '&', '#', '(', ')', '!', '$', '*', ';', ',', '\'':
		return true
	}
	return false
}
