package source

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// plainMapping reads the plain form of a logo.yaml that nearly every
// contributor and converter writes: top-level "key: value" lines whose
// values are one-line plain scalars, double-quoted strings without escapes,
// or flow lists of such, between blank and comment lines, all in printable
// ASCII. It builds the nodes yaml.v3 would build for that input: the same
// kinds, tags, styles, values, lines and columns. The comment lines, which
// yaml.v3 keeps as head and foot comments, are left out, as nothing reads
// them; a comment after a value is outside the form. It exists because
// yaml.v3 is several times slower on such files, and every build parses
// every logo.yaml. Anything outside the form, however harmless, returns
// ok=false and goes to yaml.v3. FuzzPlainMapping and
// TestPlainMappingGrammar hold the two to the same tree on every input the
// fast path accepts, TestPlainMappingMeta to the same Meta and problems
// on every logo.yaml of the repository and of the corpora.
func plainMapping(data []byte) (root *yaml.Node, ok bool) {
	for _, c := range data {
		if (c < 0x20 || c > 0x7e) && c != '\n' {
			return nil, false
		}
	}
	// One allocation for the text of all the values and one for all the
	// nodes of a typical file.
	text := string(data)
	pool := make([]yaml.Node, 0, 16)
	node := func(n yaml.Node) *yaml.Node {
		if len(pool) == cap(pool) {
			pool = make([]yaml.Node, 0, 16)
		}
		pool = append(pool, n)
		return &pool[len(pool)-1]
	}
	root = node(yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"})
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
		// The key: lower-case letters and underscores, then ": ". YAML
		// refuses a key longer than 1024 characters; a logo's are short.
		k := 0
		for k < len(l) && (l[k] >= 'a' && l[k] <= 'z' || l[k] == '_') {
			k++
		}
		if k == 0 || k > 64 || k+1 >= len(l) || l[k] != ':' || l[k+1] != ' ' || resolvesOther(l[:k]) {
			return nil, false
		}
		if len(root.Content) == 0 {
			root.Line, root.Column = line, 1
		}
		key := node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: l[:k], Line: line, Column: 1})
		v := skipSpaces(l, k+1)
		var val *yaml.Node
		var end int
		switch {
		case v == len(l):
			return nil, false // an empty value: null, or a nested block
		case l[v] == '"':
			n, e, ok := quoted(l, v, line)
			if !ok {
				return nil, false
			}
			val, end = node(n), e
		case l[v] == '[':
			val = node(yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle, Line: line, Column: v + 1})
			i := skipSpaces(l, v+1)
			for i < len(l) && l[i] != ']' {
				var item *yaml.Node
				if l[i] == '"' {
					n, e, ok := quoted(l, i, line)
					if !ok {
						return nil, false
					}
					item, i = node(n), e
				} else {
					e := i
					for e < len(l) && isFlowPlain(l[e]) {
						e++
					}
					if e == i || !isLetter(l[i]) || resolvesOther(l[i:e]) {
						return nil, false
					}
					item = node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: l[i:e], Line: line, Column: i + 1})
					i = e
				}
				val.Content = append(val.Content, item)
				i = skipSpaces(l, i)
				if i < len(l) && l[i] == ',' {
					i = skipSpaces(l, i+1)
					if i < len(l) && l[i] == ']' {
						return nil, false // a trailing comma
					}
				} else if i < len(l) && l[i] != ']' {
					return nil, false
				}
			}
			if i == len(l) {
				return nil, false // the list goes on to another line
			}
			end = i + 1
		default:
			e := len(l)
			for e > v && l[e-1] == ' ' {
				e--
			}
			s := l[v:e]
			if !isLetter(s[0]) || resolvesOther(s) || s[len(s)-1] == ':' {
				return nil, false
			}
			for i := range len(s) {
				if c := s[i]; !isBlockPlain(c) || c == ' ' && (s[i-1] == ':' || s[i+1] == '#') {
					return nil, false
				}
			}
			val = node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s, Line: line, Column: v + 1})
			end = e
		}
		if skipSpaces(l, end) < len(l) {
			return nil, false
		}
		root.Content = append(root.Content, key, val)
	}
	if len(root.Content) == 0 {
		return nil, false
	}
	return root, true
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
