package headers

import (
	"bufio"
	"bytes"
	"fmt"
	"net/textproto"
	"regexp"
	"strings"
)

// Parse reads a _headers file in the format Netlify and Cloudflare Pages
// share: a path pattern on a line of its own, then indented "Name: value"
// lines (and Cloudflare's "! Name" to drop a header). Lines starting with
// # are comments. The tests read the written file back with it, to prove
// the hosts get what Site says.
func Parse(data []byte) (Rules, error) {
	var rules Rules
	sc := bufio.NewScanner(bytes.NewReader(data))
	n := 0
	for sc.Scan() {
		n++
		raw := sc.Text()
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		indented := raw[0] == ' ' || raw[0] == '\t'
		if !indented {
			re, err := pathPattern(line)
			if err != nil {
				return nil, fmt.Errorf("_headers:%d: %w", n, err)
			}
			rules = append(rules, Rule{Path: line, re: func() (*regexp.Regexp, error) { return re, nil }})
			continue
		}
		if len(rules) == 0 {
			return nil, fmt.Errorf("_headers:%d: a header before any path: %q", n, line)
		}
		r := &rules[len(rules)-1]
		if name, ok := strings.CutPrefix(line, "!"); ok {
			r.Detach = append(r.Detach, textproto.CanonicalMIMEHeaderKey(strings.TrimSpace(name)))
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			return nil, fmt.Errorf("_headers:%d: want \"Name: value\", got %q", n, line)
		}
		r.Headers = append(r.Headers, [2]string{textproto.CanonicalMIMEHeaderKey(name), strings.TrimSpace(value)})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("_headers: %w", err)
	}
	return rules, nil
}
