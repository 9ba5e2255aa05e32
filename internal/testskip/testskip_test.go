package testskip

import (
	"os"
	"path/filepath"
	"testing"
)

func TestMissingWritesANote(t *testing.T) {
	notes := filepath.Join(t.TempDir(), "notes")
	t.Setenv(NotesEnv, notes)
	ok := t.Run("needs a tool", func(t *testing.T) {
		Missing(t, "frob", "apt-get install frob\tnow")
		t.Error("Missing must skip the test")
	})
	if !ok {
		t.Fatal("the subtest failed instead of skipping")
	}
	b, err := os.ReadFile(notes)
	if err != nil {
		t.Fatal(err)
	}
	if want := "frob\tapt-get install frob now\tTestMissingWritesANote/needs_a_tool\n"; string(b) != want {
		t.Errorf("note %q, want %q", b, want)
	}
}
