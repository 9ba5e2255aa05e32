// Package headers holds the HTTP response headers of a built logo index:
// one table of rules, Site, from which the build writes dist/_headers (for
// Netlify and Cloudflare Pages), `logoindex serve` answers, and `logoindex
// publish` sets the Content-Type and Cache-Control of every object it
// uploads to a bucket.
//
// A rule's path uses the pattern syntax of _headers files, and For joins
// the rules the way those hosts do, so the file and the table can never
// disagree about what a path gets.
package headers

import (
	"bytes"
	"fmt"
	"net/http"
	"net/textproto"
	"path"
	"regexp"
	"strings"
	"sync"
)

// Cache lifetimes of the site in seconds. The gallery script keeps its
// stored copy of the index exactly as long as IndexMaxAge, so a browser
// and a CDN agree on when the index is stale.
const (
	// IndexMaxAge is how long the JSON files and HTML pages are fresh.
	IndexMaxAge = 300
	// IndexStaleWhileRevalidate is how long a stale index may be used
	// while a fresh one is fetched in the background.
	IndexStaleWhileRevalidate = 86400
	// SVGMaxAge is how long a variant file is fresh: artwork changes
	// rarely, but its URL has no hash, so not forever.
	SVGMaxAge = 86400
	// AssetMaxAge is the lifetime of the hashed CSS and JS files: their
	// name changes with their content, so they never go stale.
	AssetMaxAge = 31536000
)

// Rule is one block of a _headers file: the headers sent for the URL
// paths that match Path.
type Rule struct {
	// Path is a pattern in the syntax Netlify and Cloudflare Pages share:
	// ":name" matches one path segment, a segment that is only "*" matches
	// anything (including nothing), "*" inside a segment matches anything,
	// a trailing slash is optional and case does not matter.
	Path string
	// Headers are name, value pairs, in order.
	Headers [][2]string
	// Detach names headers an earlier rule set that this one removes
	// (Cloudflare's "! Name" lines); only parsed files have them.
	Detach []string

	re func() (*regexp.Regexp, error) // Path compiled once, on first use; nil: compile each time
}

// Rules are the rules of a _headers file, in order.
type Rules []Rule

// Site are the rules of every built tree. Netlify and Cloudflare Pages join
// the values when several matching rules set the same header, so each
// header name is set by at most one rule for any path of the tree.
var Site = compileLazily(Rules{
	{Path: "/*", Headers: [][2]string{
		{"Access-Control-Allow-Origin", "*"},
		{"Access-Control-Expose-Headers", "ETag"},
		{"X-Content-Type-Options", "nosniff"},
	}},
	{Path: "/", Headers: htmlHeaders},
	{Path: "/index.html", Headers: htmlHeaders},
	{Path: "/404.html", Headers: htmlHeaders}, // served for every missing path
	{Path: "/logos/:slug/", Headers: htmlHeaders},
	{Path: "/logos/:slug/index.html", Headers: htmlHeaders},
	// The site's sitemap and icon.
	{Path: "/sitemap*.xml", Headers: [][2]string{
		{"Content-Type", "application/xml; charset=utf-8"},
		{"Cache-Control", fmt.Sprintf("public, max-age=%d", IndexMaxAge)},
	}},
	{Path: "/favicon.svg", Headers: [][2]string{
		{"Content-Type", "image/svg+xml"},
		{"Cache-Control", fmt.Sprintf("public, max-age=%d", SVGMaxAge)},
	}},
	{Path: "/api/*", Headers: jsonHeaders},
	// The shadcn registry (r/<slug>.json) is JSON read by build steps,
	// cached like the index.
	{Path: "/r/*", Headers: jsonHeaders},
	{Path: "/logos/*.svg", Headers: [][2]string{
		{"Content-Type", "image/svg+xml"},
		{"Cache-Control", fmt.Sprintf("public, max-age=%d, stale-while-revalidate=%d", SVGMaxAge, 7*SVGMaxAge)},
	}},
	{Path: "/assets/*.css", Headers: [][2]string{{"Content-Type", "text/css; charset=utf-8"}}},
	{Path: "/assets/*.js", Headers: [][2]string{{"Content-Type", "text/javascript; charset=utf-8"}}},
	{Path: "/assets/*", Headers: [][2]string{{"Cache-Control", fmt.Sprintf("public, max-age=%d, immutable", AssetMaxAge)}}},
})

var (
	htmlHeaders = [][2]string{
		{"Content-Type", "text/html; charset=utf-8"},
		{"Cache-Control", fmt.Sprintf("public, max-age=%d", IndexMaxAge)},
	}
	jsonHeaders = [][2]string{
		{"Content-Type", "application/json; charset=utf-8"},
		{"Cache-Control", fmt.Sprintf("public, max-age=%d, stale-while-revalidate=%d", IndexMaxAge, IndexStaleWhileRevalidate)},
	}
)

// compileLazily has each rule compile its path on first use: every run of
// the program, a fast no-op build included, would otherwise pay for
// compiling all of them. TestSiteRulesCompile checks the table.
func compileLazily(rules Rules) Rules {
	for i := range rules {
		p := rules[i].Path
		rules[i].re = sync.OnceValues(func() (*regexp.Regexp, error) { return pathPattern(p) })
	}
	return rules
}

// For returns the headers the rules give the URL path p: every matching
// rule in order, the values of a header set by several rules joined with
// ", " (as both hosts do), and a "! Name" line of a parsed file removing
// what came before.
func (rules Rules) For(p string) http.Header {
	h := http.Header{}
	for _, r := range rules {
		if !r.Match(p) {
			continue
		}
		for _, name := range r.Detach {
			h.Del(name)
		}
		for _, kv := range r.Headers {
			name := textproto.CanonicalMIMEHeaderKey(kv[0])
			if old := h.Get(name); old != "" {
				h.Set(name, old+", "+kv[1])
			} else {
				h.Set(name, kv[1])
			}
		}
	}
	return h
}

// Object returns the Content-Type and Cache-Control of the file key (a
// slash-separated path relative to the root of the tree), as a bucket
// stores them; both are empty for a file no rule covers.
func (rules Rules) Object(key string) (contentType, cacheControl string) {
	h := rules.For("/" + key)
	return h.Get("Content-Type"), h.Get("Cache-Control")
}

// StaticObject is Object for a file the build copied from the source's
// _static/ folder: what no rule sets, it takes from the file's extension
// (TypeOf) and the lifetime of the pages.
func (rules Rules) StaticObject(key string) (contentType, cacheControl string) {
	contentType, cacheControl = rules.Object(key)
	if contentType == "" {
		contentType = TypeOf(key)
	}
	if cacheControl == "" {
		cacheControl = fmt.Sprintf("public, max-age=%d", IndexMaxAge)
	}
	return contentType, cacheControl
}

// contentTypes are the types of files that a host needs beside the index,
// by extension: fixed here rather than taken from the system's MIME
// table, which differs between machines, so that every machine serves
// and publishes the same.
var contentTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".json":        "application/json; charset=utf-8",
	".xml":         "application/xml; charset=utf-8",
	".svg":         "image/svg+xml",
	".css":         "text/css; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".txt":         "text/plain; charset=utf-8",
	".md":          "text/markdown; charset=utf-8",
	".tsx":         "text/plain; charset=utf-8",
	".png":         "image/png",
	".jpg":         "image/jpeg",
	".jpeg":        "image/jpeg",
	".gif":         "image/gif",
	".webp":        "image/webp",
	".avif":        "image/avif",
	".ico":         "image/vnd.microsoft.icon",
	".pdf":         "application/pdf",
	".zip":         "application/zip",
	".webmanifest": "application/manifest+json",
	".woff2":       "font/woff2",
}

// TypeOf is the Content-Type of a file by its extension. A file without
// one is plain text when it is one of the well-known text files of a
// host (CNAME, security.txt's folder holds .txt), and anything else is
// application/octet-stream, which a browser downloads rather than runs.
func TypeOf(name string) string {
	if t, ok := contentTypes[strings.ToLower(path.Ext(name))]; ok {
		return t
	}
	if path.Base(name) == "CNAME" {
		return "text/plain; charset=utf-8"
	}
	return "application/octet-stream"
}

// Match reports whether the rule applies to the URL path p.
func (r Rule) Match(p string) bool {
	compile := r.re
	if compile == nil {
		compile = func() (*regexp.Regexp, error) { return pathPattern(r.Path) }
	}
	re, err := compile()
	return err == nil && re.MatchString(p)
}

// File renders the rules in the _headers format.
func (rules Rules) File() []byte {
	var b bytes.Buffer
	b.WriteString("# Response headers for Netlify and Cloudflare Pages, written by logoindex build.\n")
	b.WriteString("# `logoindex serve` sends the same. Both hosts join the values of a header set by\n")
	b.WriteString("# several matching rules, so each header is set once for any path.\n")
	for _, r := range rules {
		b.WriteString("\n" + r.Path + "\n")
		for _, h := range r.Headers {
			b.WriteString("  " + h[0] + ": " + h[1] + "\n")
		}
	}
	return b.Bytes()
}

// pathPattern turns a rule path into a regexp the way Netlify does. An
// absolute URL matches on its path only: a tree has a single host.
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
