package svg

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
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

// TestOptimisePathData follows path data through the optimiser, which
// keeps it from the minifier (cleanXML writes a pathRef) and rounds it,
// or, where roundPrecision leaves it alone (in a pattern, here), has the
// minifier's path pass shorten it.
func TestOptimisePathData(t *testing.T) {
	src := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><defs><pattern id="p" width="4" height="4" patternUnits="userSpaceOnUse">` +
		`<path d="M 0 0 L 4.000001 0 L 4 4 Z"/></pattern></defs><path fill="url(#p)" d="M 0 0 L 24.000001 0 L 24 24 Z"/></svg>`
	d := mustParse(t, []byte(src))
	info, probs := Check(d, Rules{})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	r, err := OptimiseDocument(d, info, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><defs><pattern id="a" width="4" height="4" patternUnits="userSpaceOnUse">` +
		`<path d="M0 0H4.000001L4 4z"/></pattern></defs><path fill="url(#a)" d="m0 0h24v24z"/></svg>`
	if diff := cmp.Diff(want, string(r.Data)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// No source can hold the attribute that stands for path data.
	d = mustParse(t, []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path `+pathRef+`="0" d="M0 0h1v1z"/></svg>`))
	if _, probs := Check(d, Rules{}); probs.Err() == nil {
		t.Errorf("Check accepts an attribute %s", pathRef)
	}
}

// TestRewriteCSS renames the ids and classes of selectors at every depth
// of @media, and the ids of url() anywhere, but never a colour or what
// the prelude of an at-rule holds.
func TestRewriteCSS(t *testing.T) {
	ids := map[string]string{"a": "P--icon--a", "g": "P--icon--b"}
	id := func(s string) (string, bool) { v, ok := ids[s]; return v, ok }
	class := func(s string) (string, bool) { return "P--icon--" + s, true }
	for _, tc := range []struct{ in, want string }{
		{".x{fill:#abc}", ".P--icon--x{fill:#abc}"},
		{"#a .x > g{fill:url(#g)}", "#P--icon--a .P--icon--x > g{fill:url(#P--icon--b)}"},
		{"@media (min-width:1px){.x{fill:red}#a{fill:#aaa}}", "@media (min-width:1px){.P--icon--x{fill:red}#P--icon--a{fill:#aaa}}"},
		{"@media all{@media screen{@media print{.x #a{fill:url('#g')}}}}.y{color:#a}",
			"@media all{@media screen{@media print{.P--icon--x #P--icon--a{fill:url('#P--icon--b')}}}}.P--icon--y{color:#a}"},
		{"@media all{.x{fill:red}}@media all{.y{fill:red}}", "@media all{.P--icon--x{fill:red}}@media all{.P--icon--y{fill:red}}"},
		{"/* .x */.x{stroke:red}", ".P--icon--x{stroke:red}"},
	} {
		if got := rewriteCSS(tc.in, true, id, class); got != tc.want {
			t.Errorf("rewriteCSS(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
	if got, want := rewriteCSS("fill:url(#g);stroke:#a", false, id, nil), "fill:url(#P--icon--b);stroke:#a"; got != want {
		t.Errorf("a style attribute: got %q, want %q", got, want)
	}
}

// TestOptimiseDropsInert removes what design tools export and nothing
// draws, and keeps the empty groups that can draw or that something
// refers to.
func TestOptimiseDropsInert(t *testing.T) {
	const root = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">`
	for _, tc := range []struct{ name, in, want string }{
		{"enable-background attribute and style", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" enable-background="new 0 0 24 24" style="enable-background:new 0 0 24 24"><path style="fill:red;enable-background:new" d="M0 0h1v1z"/></svg>`,
			root + `<path style="fill:red" d="M0 0h1v1z"/></svg>`},
		{"empty groups, nested", root + `<g><g id="Layer_1"></g><g/></g><path d="M0 0h1v1z"/><g fill="red"> </g></svg>`,
			root + `<path d="M0 0h1v1z"/></svg>`},
		{"an empty group with a filter draws", root + `<filter id="f"><feFlood flood-color="red"/></filter><g filter="url(#f)"/><g style="filter:url(#f)"/></svg>`,
			root + `<filter id="a"><feFlood flood-color="red"/></filter><g filter="url(#a)"/><g style="filter:url(#a)"/></svg>`},
		{"an empty group a <use> draws", root + `<g id="e"/><use href="#e"/></svg>`,
			root + `<g id="a"/><use href="#a"/></svg>`},
		{"an empty group a rule may give a filter", root + `<style>.f{opacity:.5}</style><g class="f"/></svg>`,
			root + `<style>.f{opacity:.5}</style><g class="f"/></svg>`},
		{"a <use> that draws nothing, named by a selector", root + `<style>#u{opacity:.5}</style><use id="u" href="#nothing"/><g id="e"/></svg>`,
			root + `<style>#a{opacity:.5}</style><use id="a"/></svg>`},
		{"the content of a pattern", root + `<pattern id="p" width="1" height="1"><g/></pattern><path fill="url(#p)" d="M0 0h1v1z"/></svg>`,
			root + `<pattern id="a" width="1" height="1"><g/></pattern><path fill="url(#a)" d="M0 0h1v1z"/></svg>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Optimise([]byte(tc.in), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
