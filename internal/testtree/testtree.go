// Package testtree holds source files for tests: a valid tree to break
// (Sources), Write for tests that need a real folder (a command, a file
// watcher, golden files), not an fstest.MapFS, and Read to compare what a
// folder holds.
package testtree

import (
	"errors"
	"io/fs"
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

// Read reads every file and folder under dir: a file by its
// slash-separated name, to its content; a folder as its name and a slash,
// to ""; anything else as its type in brackets. A build makes a folder
// only for its files, so an empty folder left behind shows. A missing dir
// reads as nil.
func Read(t testing.TB, dir string) map[string]string {
	t.Helper()
	return read(t, dir, true)
}

// ReadFiles reads every file under dir, by its slash-separated name, to
// its content, as Read does, but leaves the folders out: what a golden
// folder or a published tree holds. A missing dir reads as nil.
func ReadFiles(t testing.TB, dir string) map[string]string {
	t.Helper()
	return read(t, dir, false)
}

func read(t testing.TB, dir string, folders bool) map[string]string {
	t.Helper()
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir():
			if folders {
				out[rel+"/"] = ""
			}
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = string(b)
		default:
			out[rel] = "(" + d.Type().String() + ")"
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Infos maps every file and folder under dir, dir itself as ".", by its
// slash-separated name, to what Lstat says of it, for tests of what a
// build keeps or sets (inodes, times, modes). A missing dir maps to nil.
func Infos(t testing.TB, dir string) map[string]fs.FileInfo {
	t.Helper()
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	out := map[string]fs.FileInfo{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = info
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Names lists the names in dir, sorted.
func Names(t testing.TB, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
