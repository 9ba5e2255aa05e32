package svg

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tdewolff/parse/v2/css"
	"golang.org/x/net/html"

	"logoindex/generator/problem"
)

// addSeeds adds every file matching pattern as a seed.
func addSeeds(f *testing.F, pattern string) {
	paths, _ := filepath.Glob(pattern)
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
}

// svgSeeds are the shipped collection, the test trees and a few files
// aimed at the places where two readers could see two documents.
func svgSeeds(f *testing.F) {
	for _, s := range []string{
		svgDoc(`<style>.a{fill:url(#x)}</style><text xml:space="preserve">a b</text>`),
		`<x:svg xmlns:x="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>`,
		svgDoc(`<style>.a{fill:#000}@imp<!-- -->ort "x";</style><path class="a" d="M0 0"/>`),
		svgDoc(`<style><![CDATA[.a{fill:u]]><![CDATA[rl(#b)}]]></style><path class="a" d="M0 0"/>`),
		svgDoc(`<title>&lt;img src=x&gt;</title><desc>a &amp; b</desc>`),
		svgDoc(`<defs><linearGradient id="g"><stop stop-color="currentColor"/></linearGradient></defs><use href="#u"/><path id="u" fill="url(#g)" d="M0 0h1v1z"/>`),
		svgDoc(`<text x="1" y="2">Acme <tspan fill="red">Co.</tspan></text>`),
		svgDoc(`<filter id="f"><feFlood flood-color="currentColor"/><feGaussianBlur stdDeviation="1"/></filter><g filter="url(#f)" style="fill:currentColor"><path d="M0 0"/></g>`),
	} {
		f.Add([]byte(s))
	}
	addSeeds(f, "../../source-logos/*/*.svg")
	addSeeds(f, "../testdata/golden/src/*/*.svg")
	addSeeds(f, "../testdata/registry/src/*/*.svg")
	addSeeds(f, "../testdata/bad/*/src/*/*.svg")
}

// checkProblems asserts the contract every rejection keeps: the path, a code
// and a message a user can act on.
func checkProblems(t *testing.T, probs problem.List, path string) {
	t.Helper()
	for _, p := range probs {
		if p.Path != path || p.Msg == "" || p.Code == "" || p.Line < 0 || p.Col < 0 {
			t.Fatalf("problem without a path, code or message: %#v", p)
		}
	}
}

func FuzzCheck(f *testing.F) {
	svgSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		d, probs := Parse("x.svg", data)
		checkProblems(t, probs, "x.svg")
		if d == nil {
			return
		}
		for _, mono := range []bool{false, true} {
			_, probs := Check(d, Rules{Mono: mono})
			checkProblems(t, probs, "x.svg")
		}
	})
}

// FuzzParseAgainstEncodingXML holds Parse to an independent reader: every
// file Parse accepts, encoding/xml reads too, as the same elements,
// attributes and text (Parse is stricter in places; never laxer).
func FuzzParseAgainstEncodingXML(f *testing.F) {
	svgSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		d, _ := Parse("x.svg", data)
		if d == nil {
			return
		}
		want, err := stdTree(data)
		if err != nil {
			t.Fatalf("Parse accepts what encoding/xml refuses (%v):\n%q", err, data)
		}
		if got := ourTree(d.Root); got != want {
			t.Fatalf("Parse and encoding/xml read different documents:\nours: %s\nstd:  %s\ninput: %q", got, want, data)
		}
	})
}

// stdTree reads data with encoding/xml into a line per element, attribute
// and text run.
func stdTree(data []byte) (string, error) {
	dec := xml.NewDecoder(bytes.NewReader(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))))
	var b strings.Builder
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			fmt.Fprintf(&b, "text %q\n", text.String())
			text.Reset()
		}
	}
	depth := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", err
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			flush()
			fmt.Fprintf(&b, "<%s %s>\n", attrSpace(tk.Name.Space), tk.Name.Local)
			attrs := tk.Attr
			slices.SortFunc(attrs, func(a, b xml.Attr) int {
				return strings.Compare(a.Name.Space+" "+a.Name.Local, b.Name.Space+" "+b.Name.Local)
			})
			for _, a := range attrs {
				space := a.Name.Space
				if space == "xmlns" || space == "" && a.Name.Local == "xmlns" {
					continue // declarations: encoding/xml gives no URI for them
				}
				if space == "xml" {
					space = NSXML
				}
				fmt.Fprintf(&b, "@%s %s=%q\n", attrSpace(space), a.Name.Local, attrSpace(a.Value))
			}
			depth++
		case xml.EndElement:
			flush()
			fmt.Fprintf(&b, "</>\n")
			depth--
		case xml.CharData:
			if depth > 0 {
				text.Write(tk)
			}
		}
	}
	return b.String(), nil
}

// attrSpace turns the white space characters of an attribute value into
// spaces: encoding/xml does not normalise attribute values as XML requires
// (a literal line break reads as a space), and keeps no trace of which
// were character references, so the two readers compare on that footing.
func attrSpace(v string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, v)
}

func ourTree(root *Node) string {
	var b strings.Builder
	var walk func(n *Node)
	walk = func(n *Node) {
		if n.Type == TextNode {
			fmt.Fprintf(&b, "text %q\n", n.Text)
			return
		}
		fmt.Fprintf(&b, "<%s %s>\n", attrSpace(n.Space), n.Local)
		attrs := slices.Clone(n.Attrs)
		slices.SortFunc(attrs, func(a, b Attr) int {
			return strings.Compare(a.Space+" "+a.Local, b.Space+" "+b.Local)
		})
		for _, a := range attrs {
			if a.Space == NSXMLNS {
				continue
			}
			fmt.Fprintf(&b, "@%s %s=%q\n", attrSpace(a.Space), a.Local, attrSpace(a.Value))
		}
		for _, k := range n.Children {
			walk(k)
		}
		fmt.Fprintf(&b, "</>\n")
	}
	walk(root)
	return b.String()
}

// FuzzOptimise is the property the build relies on: whatever the checker
// accepts, the optimiser turns into a file that passes the same checks,
// draws the same text and is never empty. An error here is a bug.
func FuzzOptimise(f *testing.F) {
	svgSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		// A Memo shared by both passes, as a logo's variants share one,
		// must change nothing.
		memo := new(Memo)
		for _, mono := range []bool{false, true} {
			rules := Rules{Mono: mono}
			d, _ := Parse("x.svg", data)
			if d == nil {
				return
			}
			info, probs := Check(d, rules)
			if len(probs.Errors()) > 0 {
				continue
			}
			r, err := OptimiseDocument(d, info, Options{Rules: rules, Title: "Fuzz <&>", IDPrefix: "p-"})
			if err != nil {
				t.Fatalf("the optimiser failed on a checked file: %v\ninput: %q", err, data)
			}
			d2, _ := Parse("x.svg", data)
			info2, probs2 := CheckMemo(d2, rules, memo)
			if diff := cmp.Diff(probs.Error(), probs2.Error()); diff != "" {
				t.Fatalf("the checks with a Memo differ (-without +with):\n%s", diff)
			}
			r2, err := OptimiseDocument(d2, info2, Options{Rules: rules, Title: "Fuzz <&>", IDPrefix: "p-", Memo: memo})
			if err != nil || !bytes.Equal(r.Data, r2.Data) {
				t.Fatalf("with a Memo the optimiser wrote %q (error %v), without %q", r2.Data, err, r.Data)
			}
			if len(r.Data) == 0 {
				t.Fatalf("empty output for %q", data)
			}
			if drawnText(r.Doc.Root) != drawnText(d.Root) {
				t.Fatalf("the drawn text changed: %q became %q", drawnText(d.Root), drawnText(r.Doc.Root))
			}
		}
	})
}

// FuzzInlineHTML is the differential test of what a browser reads: for any
// file the checker accepts, the optimised output is parsed the way a
// browser parses an SVG pasted into an HTML page (golang.org/x/net/html,
// foreign content), and that document must be the one the XML reader saw,
// element for element, attribute for attribute; must hold only what the
// allowlist allows; and must not refer to anything outside itself.
func FuzzInlineHTML(f *testing.F) {
	svgSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		d, _ := Parse("x.svg", data)
		if d == nil {
			return
		}
		info, probs := Check(d, Rules{})
		if len(probs.Errors()) > 0 {
			return
		}
		r, err := OptimiseDocument(d, info, Options{Title: "Fuzz <&>", IDPrefix: "p-"})
		if err != nil {
			t.Fatalf("the optimiser failed on a checked file: %v\ninput: %q", err, data)
		}
		if msg := inlineProblem(r.Data, r.Doc); msg != "" {
			t.Fatalf("%s\ninput:  %q\noutput: %q", msg, data, r.Data)
		}
		if msg := scopeProblem(r.Doc, "p-"); msg != "" {
			t.Fatalf("%s\ninput:  %q\noutput: %q", msg, data, r.Data)
		}
	})
}

// scopeProblem returns what, in a published document whose names start
// with prefix, could select outside it, or "": a selector of a <style>
// with no compound anchored at a prefixed class or id, or an id selector
// of an id the document lacks.
func scopeProblem(d *Document, prefix string) string {
	ids := map[string]bool{}
	var sheets []string
	walkElements(d.Root, func(n *Node) {
		if id, ok := n.Attr("id"); ok {
			ids[id] = true
		}
		if n.IsSVG("style") {
			for _, k := range n.Children {
				sheets = append(sheets, k.Text)
			}
		}
	})
	for _, text := range sheets {
		rules, _ := readStylesheet(text)
		for _, r := range rules {
			for _, s := range r.selectors {
				anchored := false
				for _, c := range s.compounds {
					for _, id := range c.ids {
						if !ids[id.name] {
							return "the selector " + selectorText(s) + " names an id the document lacks"
						}
						anchored = anchored || strings.HasPrefix(id.name, prefix)
					}
					for _, cl := range c.classes {
						anchored = anchored || strings.HasPrefix(cl.name, prefix)
					}
				}
				if !anchored {
					return "the selector " + selectorText(s) + " is not anchored at a prefixed name"
				}
			}
		}
	}
	return ""
}

// TestScopeProblemCanFail makes sure the property FuzzInlineHTML holds
// the output to sees a selector that reaches outside.
func TestScopeProblemCanFail(t *testing.T) {
	for _, bad := range []string{
		svgDoc(`<style>.p-a path{fill:red}.b{fill:red}</style>`),
		svgDoc(`<style>@media all{@media all{path{fill:red}}}</style>`),
		svgDoc(`<style>#p-a{fill:red}</style>`),
	} {
		if scopeProblem(mustParse(t, []byte(bad)), "p-") == "" {
			t.Errorf("no problem found in %s", bad)
		}
	}
	if msg := scopeProblem(mustParse(t, []byte(svgDoc(`<style>.p-a path,#p-b{fill:red}</style><path id="p-b" d="M0 0"/>`))), "p-"); msg != "" {
		t.Errorf("a scoped sheet: %s", msg)
	}
}

// inlineProblem returns what is wrong with out, inlined in an HTML page
// whose XML reading is doc, or "".
func inlineProblem(out []byte, doc *Document) string {
	page, err := html.Parse(strings.NewReader("<!DOCTYPE html><html><head></head><body>" + string(out) + "</body></html>"))
	if err != nil {
		return "html.Parse: " + err.Error()
	}
	var body *html.Node
	var find func(n *html.Node)
	find = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "body" && n.Namespace == "" {
			body = n
		}
		for c := n.FirstChild; c != nil && body == nil; c = c.NextSibling {
			find(c)
		}
	}
	find(page)
	var kids []*html.Node
	for c := body.FirstChild; c != nil; c = c.NextSibling {
		kids = append(kids, c)
	}
	if len(kids) != 1 || kids[0].Type != html.ElementNode || kids[0].Namespace != "svg" || kids[0].Data != "svg" {
		return fmt.Sprintf("the page's body holds %d nodes, not the one <svg>: something broke out of it", len(kids))
	}
	if got, want := htmlTree(kids[0]), xmlTree(doc.Root); got != want {
		return "the HTML parser reads another document than the XML parser:\nhtml: " + got + "\nxml:  " + want
	}
	var msg string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if msg != "" {
			return
		}
		switch n.Type {
		case html.CommentNode:
			msg = "a comment in the page"
		case html.ElementNode:
			if n.Namespace != "svg" || !allowedElement(n.Data) {
				msg = fmt.Sprintf("<%s %s> is not on the allowlist", n.Namespace, n.Data)
				return
			}
			for _, a := range n.Attr {
				if m := inlineAttrProblem(n, a); m != "" {
					msg = m
					return
				}
			}
			if n.Data == "style" {
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					if c.Type == html.TextNode {
						if _, errs := readStylesheet(c.Data); len(errs) > 0 {
							msg = "the page reads a <style> the CSS reader refuses: " + errs[0].msg
						}
						if m := externalURL(c.Data); m != "" {
							msg = m
						}
					}
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(kids[0])
	return msg
}

func inlineAttrProblem(n *html.Node, a html.Attribute) string {
	key := a.Key
	switch {
	case strings.HasPrefix(strings.ToLower(key), "on"):
		return "an event handler " + key + " in the page"
	case a.Namespace == "xlink" && key == "href", a.Namespace == "" && key == "href":
		if !strings.HasPrefix(a.Val, "#") {
			return "href=" + a.Val + " leaves the document"
		}
	case a.Namespace == "xmlns" || a.Namespace == "" && key == "xmlns":
	case a.Namespace == "xml" || a.Namespace == "xlink":
		if namespacedAttributes[[2]string{map[string]string{"xml": NSXML, "xlink": NSXLink}[a.Namespace], key}] == 0 {
			return "attribute " + a.Namespace + ":" + key + " is not on the allowlist"
		}
	case a.Namespace != "":
		return "attribute in namespace " + a.Namespace
	case attributes[key] == 0 && !strings.HasPrefix(key, "data-") && !strings.HasPrefix(key, "aria-"):
		return "attribute " + key + " is not on the allowlist"
	}
	return externalURL(a.Val)
}

// externalURL returns a message if CSS text holds a url() that is not a
// local reference, or "".
func externalURL(text string) string {
	toks, _ := lexCSS(text)
	msg := ""
	forEachToken(toks, func(t cssToken) {
		if t.tt == css.URLToken && !strings.HasPrefix(urlTarget(t), "#") {
			msg = "url(" + urlTarget(t) + ") leaves the document"
		}
		if t.tt == css.AtKeywordToken && !strings.EqualFold(t.data, "@media") {
			msg = t.data + " in the page"
		}
	})
	return msg
}

func htmlTree(n *html.Node) string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			fmt.Fprintf(&b, "text %q;", n.Data)
		case html.ElementNode:
			fmt.Fprintf(&b, "<%s %s", n.Namespace, n.Data)
			var attrs []string
			for _, a := range n.Attr {
				if a.Namespace == "xmlns" || a.Namespace == "" && (a.Key == "xmlns" || strings.HasPrefix(a.Key, "xmlns:")) {
					continue
				}
				attrs = append(attrs, fmt.Sprintf(" %s:%s=%q", a.Namespace, a.Key, a.Val))
			}
			slices.Sort(attrs)
			b.WriteString(strings.Join(attrs, ""))
			b.WriteString(">")
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
			b.WriteString("</>")
		}
	}
	walk(n)
	return b.String()
}

func xmlTree(n *Node) string {
	var b strings.Builder
	var walk func(n *Node)
	walk = func(n *Node) {
		if n.Type == TextNode {
			fmt.Fprintf(&b, "text %q;", n.Text)
			return
		}
		ns := map[string]string{NSSVG: "svg", NSXHTML: "", NSXLink: "xlink", NSXML: "xml"}[n.Space]
		fmt.Fprintf(&b, "<%s %s", ns, n.Local)
		var attrs []string
		for _, a := range n.Attrs {
			if a.Space == NSXMLNS {
				continue
			}
			space := map[string]string{"": "", NSXLink: "xlink", NSXML: "xml"}[a.Space]
			attrs = append(attrs, fmt.Sprintf(" %s:%s=%q", space, a.Local, a.Value))
		}
		slices.Sort(attrs)
		b.WriteString(strings.Join(attrs, ""))
		b.WriteString(">")
		for _, k := range n.Children {
			walk(k)
		}
		b.WriteString("</>")
	}
	walk(n)
	return b.String()
}

// TestInlineHTMLCanFail makes sure the differential test sees what it is
// for: an element that breaks out of the SVG, an HTML element, an event
// handler and an external URL.
func TestInlineHTMLCanFail(t *testing.T) {
	for _, bad := range []string{
		`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><p>x</p></svg>`,
		`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><title><img src="x"/></title></svg>`,
		`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><path onclick="x()" d="M0 0"/></svg>`,
		`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><path fill="url(https://x/)" d="M0 0"/></svg>`,
		`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><style>@import "x";</style></svg>`,
	} {
		// Parsed without the checker: the test of the output must find
		// these on its own.
		d, probs := Parse("x.svg", []byte(bad))
		if d == nil {
			t.Fatalf("%s: %v", bad, probs)
		}
		if inlineProblem([]byte(bad), d) == "" {
			t.Errorf("no problem found in %s", bad)
		}
	}
}

// TestAllowlistReadsTheSameInline holds every name of the allowlist to
// what an HTML parser reads inline: an element or attribute name it does
// not know how to spell (HTML lower-cases names and restores SVG's camel
// case from a fixed table) would be another element or attribute there.
func TestAllowlistReadsTheSameInline(t *testing.T) {
	const root = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 1 1">`
	var docs []string
	for name := range elements {
		if name != "svg" {
			docs = append(docs, root+"<"+name+"/></svg>")
		}
	}
	for name := range attributes {
		docs = append(docs, root+`<g `+name+`="#a"/></svg>`)
	}
	for k := range namespacedAttributes {
		prefix := map[string]string{NSXML: "xml", NSXLink: "xlink"}[k[0]]
		docs = append(docs, root+`<g `+prefix+":"+k[1]+`="#a"/></svg>`)
	}
	for _, doc := range docs {
		d, probs := Parse("x.svg", []byte(doc))
		if d == nil {
			t.Fatalf("%s: %v", doc, probs)
		}
		if msg := inlineProblem([]byte(doc), d); msg != "" && !strings.Contains(msg, "not on the allowlist") {
			t.Errorf("%s\n%s", doc, msg)
		}
	}
}
