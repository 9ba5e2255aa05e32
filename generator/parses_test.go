package generator

import (
	"context"
	"os"
	"testing"

	"logoindex/generator/svg"
)

// TestParsesPerVariant counts how often a build of the shipped collection
// reads each SVG: once for its source, once for what the minifier wrote,
// and once for the safety re-check of the bytes published, whose parse also
// feeds the component's JSX. Nothing else parses a file again (no test in
// this package runs in parallel, so the counter is this build's alone).
func TestParsesPerVariant(t *testing.T) {
	before := svg.ParseCount()
	res, err := Build(context.Background(), os.DirFS("../source-logos"), Options{Dir: "source-logos"})
	if err != nil {
		t.Fatal(err)
	}
	parses := svg.ParseCount() - before
	variants := 0
	for _, l := range res.Collection.Logos {
		variants += len(l.Variants)
	}
	if variants < 200 {
		t.Fatalf("only %d variants; the shipped collection has hundreds", variants)
	}
	if want := int64(3 * variants); parses != want {
		t.Errorf("a build of %d variants parsed %d times, want %d (3 a variant)", variants, parses, want)
	}
}
