package headers_test

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator"
	"logoindex/generator/render"
	"logoindex/internal/headers"
)

// builtPaths builds the generator's golden sources and returns the written
// _headers file and the URL paths of the tree: every file a host serves
// (not _headers, not hidden files) and each folder with an index.html.
func builtPaths(t *testing.T) ([]byte, []string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "dist")
	_, err := generator.Build(context.Background(), os.DirFS("../../generator/testdata/golden/src"), generator.Options{
		Out:    dir,
		Render: render.Options{BaseURL: "https://logos.example.com"},
	})
	if err != nil {
		t.Fatal(err)
	}
	var file []byte
	var paths []string
	err = fs.WalkDir(os.DirFS(dir), ".", func(name string, d fs.DirEntry, err error) error {
		switch {
		case err != nil || d.IsDir():
			return err
		case name == "_headers":
			file, err = os.ReadFile(filepath.Join(dir, name))
			return err
		case strings.HasPrefix(path.Base(name), "."):
		default:
			paths = append(paths, "/"+name)
			if path.Base(name) == "index.html" {
				paths = append(paths, strings.TrimSuffix("/"+name, "index.html"))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if file == nil || len(paths) < 10 {
		t.Fatalf("the build wrote no _headers or too few files (%d)", len(paths))
	}
	return file, paths
}

// TestSiteSetsEachHeaderOnce checks the table against every path of a
// built tree: no header may be set by two matching rules, because Netlify
// and Cloudflare would send both values joined, and every path gets CORS,
// a type and a cache lifetime.
func TestSiteSetsEachHeaderOnce(t *testing.T) {
	_, paths := builtPaths(t)
	for _, p := range paths {
		seen := map[string]string{}
		for _, r := range headers.Site {
			if !r.Match(p) {
				continue
			}
			for _, kv := range r.Headers {
				if other, ok := seen[kv[0]]; ok {
					t.Errorf("%s: %s is set by rule %s and by rule %s", p, kv[0], other, r.Path)
				}
				seen[kv[0]] = r.Path
			}
		}
		for _, name := range []string{"Access-Control-Allow-Origin", "Content-Type", "Cache-Control"} {
			if _, ok := seen[name]; !ok {
				t.Errorf("%s: no rule sets %s", p, name)
			}
		}
		if strings.HasPrefix(p, "/assets/") && !strings.Contains(headers.Site.For(p).Get("Cache-Control"), "immutable") {
			t.Errorf("%s: hashed assets should be immutable", p)
		}
	}
}

// TestFileSaysWhatTheTableSays reads the written _headers back the way the
// hosts do and compares, path by path, with the table that serve and
// publish use.
func TestFileSaysWhatTheTableSays(t *testing.T) {
	file, paths := builtPaths(t)
	parsed, err := headers.Parse(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if diff := cmp.Diff(headers.Site.For(p), parsed.For(p)); diff != "" {
			t.Errorf("%s: _headers and the table differ (-table +file):\n%s", p, diff)
		}
	}
}

func TestObject(t *testing.T) {
	for _, tc := range []struct{ key, ctype, cache string }{
		{"index.html", "text/html; charset=utf-8", "public, max-age=300"},
		{"logos/acme/index.html", "text/html; charset=utf-8", "public, max-age=300"},
		{"logos/acme/icon-dark.svg", "image/svg+xml", "public, max-age=86400, stale-while-revalidate=604800"},
		{"api/logos.json", "application/json; charset=utf-8", "public, max-age=300, stale-while-revalidate=86400"},
		{"api/logos/acme.json", "application/json; charset=utf-8", "public, max-age=300, stale-while-revalidate=86400"},
		{"r/registry.json", "application/json; charset=utf-8", "public, max-age=300, stale-while-revalidate=86400"},
		{"assets/site.0123456789.css", "text/css; charset=utf-8", "public, max-age=31536000, immutable"},
		{"assets/site.0123456789.js", "text/javascript; charset=utf-8", "public, max-age=31536000, immutable"},
		// Files a build does not write get nothing: publish refuses them.
		{"_headers", "", ""},
		{"notes.txt", "", ""},
		{"logos/acme/notes.txt", "", ""},
	} {
		ctype, cache := headers.Site.Object(tc.key)
		if ctype != tc.ctype || cache != tc.cache {
			t.Errorf("Object(%q) = %q, %q; want %q, %q", tc.key, ctype, cache, tc.ctype, tc.cache)
		}
	}
}

func TestTypeOf(t *testing.T) {
	for name, want := range map[string]string{
		"CNAME":                    "text/plain; charset=utf-8",
		".well-known/security.txt": "text/plain; charset=utf-8",
		"brand/Kit.ZIP":            "application/zip",
		"robots.txt":               "text/plain; charset=utf-8",
		"site.webmanifest":         "application/manifest+json",
		"a.exe":                    "application/octet-stream",
		"LICENSE":                  "application/octet-stream",
	} {
		if got := headers.TypeOf(name); got != want {
			t.Errorf("TypeOf(%q) = %q, want %q", name, got, want)
		}
	}
}
