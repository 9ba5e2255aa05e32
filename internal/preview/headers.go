package preview

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"net/textproto"
	"regexp"
	"strings"
)

// HeaderRule is one block of a _headers file.
type HeaderRule struct {
	Path    string
	match   *regexp.Regexp
	Set     [][2]string // name, value, in file order
	Detach  []string    // "! Name" lines: headers an earlier rule set, removed
	LineNum int
}

// HeaderRules are the rules of a _headers file, in file order.
type HeaderRules []HeaderRule

// ParseHeaders reads a _headers file in the format Netlify and Cloudflare
// Pages share: a path pattern on a line of its own, then indented
// "Name: value" lines (and Cloudflare's "! Name" to drop a header). Lines
// starting with # are comments.
func ParseHeaders(data []byte) (HeaderRules, error) {
	var rules HeaderRules
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
			rules = append(rules, HeaderRule{Path: line, match: re, LineNum: n})
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
		r.Set = append(r.Set, [2]string{textproto.CanonicalMIMEHeaderKey(name), strings.TrimSpace(value)})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("_headers: %w", err)
	}
	return rules, nil
}

// pathPattern turns a rule path into a regexp the way Netlify does:
// ":name" matches one path segment, a segment that is only "*" matches
// anything (including nothing), "*" inside a segment matches anything, a
// trailing slash is optional, and case does not matter. An absolute URL
// matches on its path only: the preview server has a single host.
func pathPattern(p string) (*regexp.Regexp, error) {
	if i := strings.Index(p, "://"); i >= 0 {
		rest := p[i+3:]
		j := strings.IndexByte(rest, '/')
		if j < 0 {
			return nil, fmt.Errorf("rule %q has no path", p)
		}
		p = rest[j:]
	}
	if !strings.HasPrefix(p, "/") {
		return nil, fmt.Errorf("rule path %q must start with /", p)
	}
	var parts []string
	for _, seg := range strings.Split(p, "/") {
		switch {
		case seg == "":
			continue
		case strings.HasPrefix(seg, ":"):
			parts = append(parts, `([^/]+)`)
		case seg == "*":
			parts = append(parts, `?(.*)`)
		default:
			pieces := strings.Split(seg, "*")
			for i := range pieces {
				pieces[i] = regexp.QuoteMeta(pieces[i])
			}
			parts = append(parts, strings.Join(pieces, "(.*)"))
		}
	}
	return regexp.Compile(`(?i)^/` + strings.Join(parts, "/") + `/?$`)
}

// Match reports whether the rule applies to the URL path p.
func (r HeaderRule) Match(p string) bool { return r.match != nil && r.match.MatchString(p) }

// For returns the headers the rules give the URL path p: every matching
// rule in order, values of a header set by several rules joined with ", "
// (as both hosts do), and "! Name" removing what came before.
func (rules HeaderRules) For(p string) http.Header {
	h := http.Header{}
	for _, r := range rules {
		if !r.Match(p) {
			continue
		}
		for _, name := range r.Detach {
			h.Del(name)
		}
		for _, kv := range r.Set {
			if old := h.Get(kv[0]); old != "" {
				h.Set(kv[0], old+", "+kv[1])
			} else {
				h.Set(kv[0], kv[1])
			}
		}
	}
	return h
}
