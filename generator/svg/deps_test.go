package svg

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestDependencies keeps the package pure: of this module it imports only
// generator/problem, generator/internal/minifiers (the minifier set-up it
// shares with the site), generator/internal/textenc (the names of the
// encodings it refuses, shared with the YAML reader) and internal/escape
// (encoders by context), which import nothing of the pipeline.
func TestDependencies(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go tool is not on PATH")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	var ours []string
	for _, p := range strings.Fields(string(out)) {
		if p == "logoindex" || strings.HasPrefix(p, "logoindex/") {
			ours = append(ours, p)
		}
	}
	slices.Sort(ours)
	if want := []string{"logoindex/generator/internal/minifiers", "logoindex/generator/internal/textenc", "logoindex/generator/problem", "logoindex/generator/svg", "logoindex/internal/escape"}; !slices.Equal(ours, want) {
		t.Errorf("generator/svg depends on %v of this module, want only %v", ours, want)
	}
}
