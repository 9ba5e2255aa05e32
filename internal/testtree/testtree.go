// Package testtree holds source files for tests: a valid tree to break
// (Sources), and Write for tests that need a real folder (a
// command, a file watcher, golden files), not an fstest.MapFS.
package testtree

import (
	"os"
	"path/filepath"
	"testing"
)

// Write creates or replaces each file of files under dir, with the folders
// it needs; names are slash-separated. It fails the test on an error.
func Write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
