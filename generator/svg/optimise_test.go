package svg

import (
	"bytes"
	"testing"
)

// TestOptimiseFallsBackToKeepText shows why Optimise compares the drawn
// text: the minifier would join "Acme" and "Co." into one word.
func TestOptimiseFallsBackToKeepText(t *testing.T) {
	d := mustParse(t, []byte(svgDoc(`<text x="1" y="10">Acme <tspan>Co.</tspan></text>`)))
	info, probs := Check(d, Rules{})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	if !info.HasText {
		t.Fatal("Check: HasText is false for a file with <text>")
	}
	r, err := OptimiseDocument(d, info, Options{Title: "Acme"})
	if err != nil {
		t.Fatal(err)
	}
	if got := drawnText(r.Doc.Root); got != "Acme Co." {
		t.Errorf("text after optimising = %q, want %q; output:\n%s", got, "Acme Co.", r.Data)
	}
	if r.Minified {
		t.Errorf("Minified is true; the minifier's output draws %q", "AcmeCo.")
	}
	if !bytes.Contains(r.Data, []byte("<title>Acme</title>")) {
		t.Errorf("title missing: %s", r.Data)
	}
}
