package preview

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestNotifierNamesChangedFolders saves files the way editors and git do
// and checks that each burst gives one report naming the logo folders it
// touched, including a folder made after the watch began.
func TestNotifierNamesChangedFolders(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"acme/icon.svg", "bolt/icon.svg", "categories.yaml"} {
		write(t, filepath.Join(dir, name), "x", time.Now())
	}
	// A quiet time well above a stall of a loaded machine between the
	// writes of one burst, which would split it in two reports.
	n, err := NewNotifier(dir, 400*time.Millisecond)
	if err != nil {
		t.Skipf("no file events here: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reports := make(chan map[string]bool, 10)
	go n.Run(ctx, func(changed map[string]bool) { reports <- changed })

	next := func() map[string]bool {
		t.Helper()
		select {
		case r := <-reports:
			return r
		case <-time.After(5 * time.Second):
			t.Fatal("no report within 5 s")
			return nil
		}
	}
	for _, tc := range []struct {
		name string
		do   func()
		want map[string]bool
	}{
		{"an editor's save: temporary file, rename", func() {
			write(t, filepath.Join(dir, "acme/.icon.svg.tmp"), "y", time.Now())
			if err := os.Rename(filepath.Join(dir, "acme/.icon.svg.tmp"), filepath.Join(dir, "acme/icon.svg")); err != nil {
				t.Fatal(err)
			}
		}, map[string]bool{"acme": true}},
		{"two folders and the categories in one burst", func() {
			write(t, filepath.Join(dir, "acme/icon.svg"), "z", time.Now())
			write(t, filepath.Join(dir, "bolt/logo.yaml"), "z", time.Now())
			write(t, filepath.Join(dir, "categories.yaml"), "z", time.Now())
		}, map[string]bool{"acme": true, "bolt": true, "categories.yaml": true}},
		{"editor and system files, then a real save", func() {
			write(t, filepath.Join(dir, "acme/.icon.svg.swp"), "s", time.Now())
			write(t, filepath.Join(dir, "acme/.DS_Store"), "d", time.Now())
			write(t, filepath.Join(dir, "bolt/icon.svg~"), "b", time.Now())
			time.Sleep(150 * time.Millisecond) // no report for those
			write(t, filepath.Join(dir, "bolt/icon.svg"), "r", time.Now())
		}, map[string]bool{"bolt": true}},
		{"a new logo folder", func() {
			if err := os.Mkdir(filepath.Join(dir, "newco"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, map[string]bool{"newco": true}},
		{"a file in the new folder", func() { write(t, filepath.Join(dir, "newco/icon.svg"), "n", time.Now()) }, map[string]bool{"newco": true}},
		{"a folder removed", func() { os.RemoveAll(filepath.Join(dir, "bolt")) }, map[string]bool{"bolt": true}},
	} {
		tc.do()
		if diff := cmp.Diff(tc.want, next()); diff != "" {
			t.Errorf("%s: (-want +got)\n%s", tc.name, diff)
		}
	}
	select {
	case r := <-reports:
		t.Errorf("an extra report: %v", r)
	case <-time.After(time.Second):
	}
}
