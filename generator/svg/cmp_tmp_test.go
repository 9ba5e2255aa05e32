package svg

import (
	"os"
	"path/filepath"
	"testing"
)

func TestTmpOptimiseDir(t *testing.T) {
	dir := os.Getenv("TMPDIR_IN")
	if dir == "" {
		t.Skip()
	}
	files, _ := filepath.Glob(dir + "/*.svg")
	os.MkdirAll(os.Getenv("TMPDIR_OUT"), 0o755)
	for _, f := range files {
		src, _ := os.ReadFile(f)
		out, err := Optimise(src, Options{})
		if err != nil {
			t.Fatal(f, err)
		}
		os.WriteFile(filepath.Join(os.Getenv("TMPDIR_OUT"), filepath.Base(f)), out, 0o644)
	}
}
