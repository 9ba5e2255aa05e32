package headers

import (
	"net/http"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPathPattern(t *testing.T) {
	for _, tc := range []struct {
		rule  string
		match []string
		miss  []string
	}{
		{"/*", []string{"/", "/index.html", "/logos/a/icon.svg"}, nil},
		{"/", []string{"/"}, []string{"/index.html", "/a"}},
		{"/api/*", []string{"/api/logos.json", "/api/logos/a.json", "/api/", "/API/x"}, []string{"/logos/a.json"}},
		{"/logos/:slug/", []string{"/logos/a/", "/logos/a"}, []string{"/logos/a/icon.svg", "/logos/", "/logos/a/b/"}},
		{"/logos/:slug/index.html", []string{"/logos/a/index.html"}, []string{"/logos/a/"}},
		{"/logos/*.svg", []string{"/logos/a/icon.svg", "/logos/a/icon-dark.svg"}, []string{"/logos/a/", "/logos/a/index.html", "/api/a.svg"}},
		{"/assets/*.css", []string{"/assets/site.0123456789.css"}, []string{"/assets/site.js"}},
		{"https://logos.example.com/api/*", []string{"/api/logos.json"}, []string{"/index.html"}},
	} {
		re, err := pathPattern(tc.rule)
		if err != nil {
			t.Fatalf("%s: %v", tc.rule, err)
		}
		r := Rule{Path: tc.rule, re: func() (*regexp.Regexp, error) { return re, nil }}
		for _, p := range tc.match {
			if !r.Match(p) {
				t.Errorf("rule %s should match %s", tc.rule, p)
			}
		}
		for _, p := range tc.miss {
			if r.Match(p) {
				t.Errorf("rule %s should not match %s", tc.rule, p)
			}
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"  X-A: 1\n", `_headers:1: a header before any path: "X-A: 1"`},
		{"/*\n  no colon here\n", `_headers:2: want "Name: value", got "no colon here"`},
		{"# comment\nlogos/*\n  X-A: 1\n", `_headers:2: rule path "logos/*" must start with /`},
		{"https://example.com\n", `_headers:1: rule "https://example.com" has no path`},
	} {
		_, err := Parse([]byte(tc.in))
		if err == nil || err.Error() != tc.want {
			t.Errorf("Parse(%q) = %v, want %s", tc.in, err, tc.want)
		}
	}
}

// TestHeadersFor follows the hosts: matching rules apply in order, values
// set twice are joined, and "! Name" removes what came before.
func TestHeadersFor(t *testing.T) {
	rules, err := Parse([]byte(`
# comment
/*
  Access-Control-Allow-Origin: *
  X-Frame-Options: DENY

/api/*
  cache-control: public, max-age=300
  X-Robots-Tag: noindex

/api/private/*
  Cache-Control: no-store
  ! X-Frame-Options
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		want http.Header
	}{
		{"/", http.Header{"Access-Control-Allow-Origin": {"*"}, "X-Frame-Options": {"DENY"}}},
		{"/api/logos.json", http.Header{
			"Access-Control-Allow-Origin": {"*"}, "X-Frame-Options": {"DENY"},
			"Cache-Control": {"public, max-age=300"}, "X-Robots-Tag": {"noindex"},
		}},
		{"/api/private/x", http.Header{
			"Access-Control-Allow-Origin": {"*"},
			"Cache-Control":               {"public, max-age=300, no-store"}, "X-Robots-Tag": {"noindex"},
		}},
	} {
		if diff := cmp.Diff(tc.want, rules.For(tc.path)); diff != "" {
			t.Errorf("For(%s) (-want +got):\n%s", tc.path, diff)
		}
	}
}

// TestSiteRulesCompile checks that every path of the Site table compiles,
// which compileLazily leaves to the first use.
func TestSiteRulesCompile(t *testing.T) {
	for _, r := range Site {
		if _, err := r.re(); err != nil {
			t.Errorf("rule %s: %v", r.Path, err)
		}
	}
}
