package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"logoindex/internal/testtree"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "state.json")
	for _, tc := range []struct {
		data string
		perm fs.FileMode
	}{
		{"first\n", 0o600},                         // creates
		{"second, longer than the first\n", 0o644}, // replaces
		{"", 0o640},                                // empties
	} {
		if err := Write(name, []byte(tc.data), tc.perm); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.data, string(got)); diff != "" {
			t.Errorf("content mismatch (-want +got):\n%s", diff)
		}
		if runtime.GOOS != "windows" {
			if info, err := os.Stat(name); err != nil || info.Mode().Perm() != tc.perm {
				t.Errorf("mode %v, %v; want %v", info.Mode().Perm(), err, tc.perm)
			}
		}
		assertOnly(t, dir, "state.json")
	}
}

func TestWriteFuncFailureKeepsOld(t *testing.T) {
	for _, tc := range []struct {
		name  string
		write func(string, fs.FileMode, func(io.Writer) error) error
	}{
		{"WriteFunc", WriteFunc},
		{"Replace", Replace},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			name := filepath.Join(dir, "cache")
			if err := Write(name, []byte("old"), 0o600); err != nil {
				t.Fatal(err)
			}
			boom := errors.New("boom")
			err := tc.write(name, 0o600, func(w io.Writer) error {
				io.WriteString(w, "half of the new")
				return boom
			})
			if !errors.Is(err, boom) {
				t.Errorf("err = %v, want %v", err, boom)
			}
			if got, _ := os.ReadFile(name); string(got) != "old" {
				t.Errorf("after a failed write the file holds %q, want %q", got, "old")
			}
			assertOnly(t, dir, "cache")
		})
	}
}

// TestSyncs checks that WriteFunc syncs the file and its folder, and that
// Replace, which otherwise writes the same, syncs neither.
func TestSyncs(t *testing.T) {
	var synced []string
	defer func(f func(*os.File) error) { syncFile = f }(syncFile)
	syncFile = func(f *os.File) error {
		synced = append(synced, filepath.Base(f.Name()))
		return f.Sync()
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "cache")
	for _, tc := range []struct {
		write func(string, fs.FileMode, func(io.Writer) error) error
		data  string
		syncs int
	}{
		{WriteFunc, "durable", 2},
		{Replace, "not durable", 0},
	} {
		synced = nil
		err := tc.write(name, 0o600, func(w io.Writer) error {
			_, err := io.WriteString(w, tc.data)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(name); string(got) != tc.data {
			t.Errorf("the file holds %q, want %q", got, tc.data)
		}
		if len(synced) != tc.syncs {
			t.Errorf("writing %q synced %q, want %d syncs", tc.data, synced, tc.syncs)
		}
		assertOnly(t, dir, "cache")
	}
}

// TestRemoveTemps leaves what a killed write left beside a file, and files
// that only look alike, then removes the leftovers and nothing else.
func TestRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "state.json")
	if err := Write(name, []byte("kept"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, other := range []string{
		".state.json.tmp-123", ".state.json.tmp-", // left by killed writes
		"state.json.lock", ".state.json.tmp", ".other.json.tmp-1", "state.json.tmp-1", // not
	} {
		if err := os.WriteFile(filepath.Join(dir, other), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, ".state.json.tmp-dir"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := RemoveTemps(name); err != nil {
		t.Fatal(err)
	}
	names := testtree.Names(t, dir)
	want := []string{".other.json.tmp-1", ".state.json.tmp", ".state.json.tmp-dir", "state.json", "state.json.lock", "state.json.tmp-1"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("folder after RemoveTemps (-want +got):\n%s", diff)
	}
	if err := RemoveTemps(filepath.Join(dir, "missing", "x")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("RemoveTemps in a missing folder: %v", err)
	}
}

func TestWriteMissingDir(t *testing.T) {
	err := Write(filepath.Join(t.TempDir(), "no", "such"), []byte("x"), 0o600)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("err = %v, want one that is fs.ErrNotExist", err)
	}
}

// assertOnly fails unless dir holds exactly the file name: no temporary
// file is left behind.
func assertOnly(t *testing.T, dir, name string) {
	t.Helper()
	if diff := cmp.Diff([]string{name}, testtree.Names(t, dir)); diff != "" {
		t.Errorf("folder mismatch (-want +got):\n%s", diff)
	}
}
