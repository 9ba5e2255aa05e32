package generator

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImportsRunOneWay keeps the layout of docs/architecture.md: the
// stages know nothing of the build log or the output tree, those two know
// nothing of logos, and the uploader holds none of the build's code.
func TestImportsRunOneWay(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go tool is not on PATH")
	}
	tests := []struct {
		pkg    string
		banned []string
	}{
		{"logoindex/generator/source", []string{"logoindex/generator/buildcache", "logoindex/generator/outtree", "logoindex/generator/check", "logoindex/generator/render"}},
		{"logoindex/generator/check", []string{"logoindex/generator/buildcache", "logoindex/generator/outtree", "logoindex/generator/render"}},
		{"logoindex/generator/render", []string{"logoindex/generator/buildcache", "logoindex/generator/outtree"}},
		{"logoindex/generator/buildcache", []string{"logoindex/generator/source", "logoindex/generator/check", "logoindex/generator/render", "logoindex/generator/svg", "logoindex/generator/outtree"}},
		{"logoindex/generator/outtree", []string{"logoindex/generator/source", "logoindex/generator/check", "logoindex/generator/render", "logoindex/generator/svg", "logoindex/generator/buildcache"}},
		{"logoindex/generator/manifest", []string{"logoindex/"}},
		{"logoindex/cmd/logoindex-publish", []string{"logoindex/generator/svg", "logoindex/generator/render", "github.com/tdewolff/minify"}},
	}
	for _, tt := range tests {
		out, err := exec.Command(goTool, "list", "-deps", tt.pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", tt.pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			for _, b := range tt.banned {
				if dep != tt.pkg && (dep == b || strings.HasPrefix(dep, strings.TrimSuffix(b, "/")+"/")) {
					t.Errorf("%s depends on %s", tt.pkg, dep)
				}
			}
		}
	}
}
