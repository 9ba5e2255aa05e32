// Package testskip lets a test that needs an outside tool (a browser, Node,
// rsvg-convert) skip where the tool is missing, and say so where make test
// can sum it up: a skip is otherwise one line that go test prints only with
// -v.
package testskip

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// NotesEnv names the environment variable holding the file that Missing
// appends its notes to. make test sets it and prints one line from the
// notes at the end; unset, Missing only skips.
const NotesEnv = "LOGOINDEX_SKIP_NOTES"

// Missing skips t because tool is missing; install is the command that
// provides it, such as "apt-get install chromium". The note is a line of
// three tab-separated fields: tool, install command, test name.
func Missing(t testing.TB, tool, install string) {
	t.Helper()
	if name := os.Getenv(NotesEnv); name != "" {
		if err := appendNote(name, tool, install, t.Name()); err != nil {
			t.Logf("could not record the skip in %s: %v", name, err)
		}
	}
	t.Skipf("%s not found: %s (.ci/run installs it)", tool, install)
}

func appendNote(name, tool, install, test string) error {
	clean := func(s string) string { return strings.NewReplacer("\t", " ", "\n", " ").Replace(s) }
	// O_APPEND: test binaries of several packages write at once, and each
	// note is one small write.
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(f, "%s\t%s\t%s\n", clean(tool), clean(install), clean(test))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
