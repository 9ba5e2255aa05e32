package svg

import (
	"strings"
	"testing"
	"unicode/utf16"

	"logoindex/generator/problem"

	"github.com/google/go-cmp/cmp"
)

// svgDoc wraps body in a valid root.
func svgDoc(body string) string {
	return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">` + body + `</svg>`
}

func TestCheckSVGGood(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		mono bool
	}{
		{"simple-icons style", `<svg role="img" viewBox="0 0 24 24" xmlns="http://www.w3.org/2000/svg"><title>GitHub</title><path d="M0 0h24v24H0z"/></svg>`, false},
		{"xml declaration and comment", `<?xml version="1.0" encoding="UTF-8"?><!-- made by hand -->` + svgDoc(`<path d="M0 0"/>`), false},
		{"BOM", "\xef\xbb\xbf" + svgDoc(`<path d="M0 0"/>`), false},
		{"local gradient", svgDoc(`<defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs><path fill="url(#g)" d="M0 0"/><use href="#g"/>`), false},
		{"xlink local", `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 1 1"><path id="a" d="M0 0"/><use xlink:href="#a"/></svg>`, false},
		{"style element with local url", svgDoc(`<style>.a{fill:url(#g)}</style><linearGradient id="g"/><path class="a" d="M0 0"/>`), false},
		{"editor namespaces", `<svg xmlns="http://www.w3.org/2000/svg" xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" viewBox="0,0,10,10"><sodipodi:namedview id="n"/><path d="M0 0"/></svg>`, false},
		{"mono currentColor on root", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="currentColor"><path d="M0 0"/><path fill="none" stroke="currentColor" d="M1 1"/></svg>`, true},
		{"mono currentColor in style", svgDoc(`<path style="fill:currentcolor;stroke:none" d="M0 0"/>`), true},
		{"mono with style element", svgDoc(`<style>.a{fill:currentColor}</style><path class="a" d="M0 0"/>`), true},
		{"mono through use, symbol and a gradient", svgDoc(`<defs><linearGradient id="g"><stop stop-color="currentColor"/></linearGradient></defs>` +
			`<symbol id="s"><path fill="url(#g)" d="M0 0"/></symbol><use href="#s"/><use href="#s" fill="currentColor"/>`), true},
		{"mono filter flooding currentColor", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1" fill="currentColor"><filter id="f"><feFlood flood-color="currentColor"/></filter><path filter="url(#f)" d="M0 0"/></svg>`, true},
		{"editor metadata", `<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" viewBox="0 0 1 1" inkscape:version="1"><metadata><rdf:RDF/></metadata><path inkscape:label="x" d="M0 0"/></svg>`, false},
		{"media query for dark mode", svgDoc(`<style>.a{fill:#000}@media (prefers-color-scheme: dark){.a{fill:#fff}}</style><path class="a" d="M0 0"/>`), false},
		{"vendor-prefixed property", svgDoc(`<path style="-webkit-filter:none;-inkscape-stroke:none" d="M0 0"/>`), false},
		{"mono transparent", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="currentColor"><rect fill="transparent" width="1" height="1"/></svg>`, true},
		{"@media and functions nested to the limits", svgDoc(`<style>` + strings.Repeat("@media all{", MaxCSSBlockDepth-1) +
			`.a{stroke-width:` + strings.Repeat("calc(", MaxCSSFunctionDepth) + "1" + strings.Repeat(")", MaxCSSFunctionDepth) + `}` +
			strings.Repeat("}", MaxCSSBlockDepth-1) + `</style><path class="a" d="M0 0"/>`), false},
		{"descendant of the file's own class", svgDoc(`<style>.st0 path{fill:red}.st0 > g > .b{fill:blue}svg .c{fill:green}</style><g class="st0"><g><path class="b" d="M0 0"/></g><path d="M0 0"/></g><path class="c" d="M0 0"/>`), false},
		{"id selectors of the file's own ids, in @media too", svgDoc(`<style>#a{fill:red}@media (prefers-color-scheme:dark){@media screen{g #a{fill:blue}}}</style><g><path id="a" d="M0 0"/></g>`), false},
		{"root styles that keep the logo in its box", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24px" overflow="hidden" class="r" ` +
			`style="filter:grayscale(100%);opacity:.5;mix-blend-mode:multiply"><style>.r{font-family:serif;clip:auto}</style><path d="M0 0"/></svg>`, false},
		{"aria labels of the file's own ids, and a paint in upper case", svgDoc(`<title id="t">Acme</title><desc id="d">The Acme logo</desc><linearGradient id="g"/><path aria-labelledby="t" aria-describedby="t d" fill="URL(#g)" d="M0 0"/>`), false},
		{"a root sized in em, with a line height", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="1em" height="1em" style="flex:none;line-height:1"><path d="M0 0"/></svg>`, false},
		{"fractional viewBox", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="-0.5 -0.5 24.25 1e1"><path d="M0 0"/></svg>`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, probs := checkBytes("x.svg", []byte(tc.in), Rules{Mono: tc.mono})
			if len(probs) > 0 {
				t.Errorf("unexpected problems:\n%s", probs.Error())
			}
		})
	}
}

// TestCheckSVGRules has one bad input per rule (and per form a rule can
// take), with the exact messages.
func TestCheckSVGRules(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		mono bool
		want []string
	}{
		{"empty", "", false, []string{"x.svg: is empty; it must hold an <svg> element"}},
		{"white space only", " \n", false, []string{"x.svg: is empty; it must hold an <svg> element"}},
		{"png", "\x89PNG\r\n\x1a\n\x00\x00", false, []string{"x.svg: is a PNG image, not an SVG; export the logo as SVG"}},
		{"not UTF-8", svgDoc("<title>caf\xe9</title>"), false, []string{"x.svg:1:71: is not valid UTF-8; save it as UTF-8"}},
		{"UTF-16LE with a BOM", encodeUTF16(`<?xml version="1.0" encoding="UTF-16"?>`+svgDoc(""), false, true), false,
			[]string{"x.svg:1:1: is saved as UTF-16 (little-endian), not UTF-8; save it as UTF-8"}},
		{"UTF-16LE without a BOM", encodeUTF16(svgDoc(""), false, false), false,
			[]string{"x.svg:1:1: is saved as UTF-16 (little-endian), not UTF-8; save it as UTF-8"}},
		{"UTF-16BE with a BOM", encodeUTF16(svgDoc(""), true, true), false,
			[]string{"x.svg:1:1: is saved as UTF-16 (big-endian), not UTF-8; save it as UTF-8"}},
		{"UTF-16BE without a BOM", encodeUTF16(`<?xml version="1.0" encoding="UTF-16BE"?>`+svgDoc(""), true, false), false,
			[]string{"x.svg:1:1: is saved as UTF-16 (big-endian), not UTF-8; save it as UTF-8"}},
		{"UTF-32LE with a BOM", encodeUTF32(svgDoc(""), false, true), false,
			[]string{"x.svg:1:1: is saved as UTF-32 (little-endian), not UTF-8; save it as UTF-8"}},
		{"UTF-32BE without a BOM", encodeUTF32(svgDoc(""), true, false), false,
			[]string{"x.svg:1:1: is saved as UTF-32 (big-endian), not UTF-8; save it as UTF-8"}},
		{"a UTF-8 BOM before a UTF-16 one", "\xEF\xBB\xBF" + encodeUTF16(svgDoc(""), false, true), false,
			[]string{"x.svg:1:1: is saved as UTF-16 (little-endian), not UTF-8; save it as UTF-8"}},
		{"a UTF-8 BOM and a UTF-16 declaration", "\xEF\xBB\xBF" + `<?xml version="1.0" encoding="UTF-16"?>` + svgDoc(""), false,
			[]string{`x.svg:1:1: declares encoding "UTF-16"; save the file as UTF-8 and drop the encoding`}},
		{"latin-1 declared", `<?xml version="1.0" encoding="ISO-8859-1"?>` + svgDoc(""), false,
			[]string{`x.svg:1:1: declares encoding "ISO-8859-1"; save the file as UTF-8 and drop the encoding`}},
		{"not well-formed", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><path d="M0 0"></svg>`, false,
			[]string{"x.svg:1:74: is not well-formed XML: <path> (line 1) is closed by </svg>"}},
		{"unclosed", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><g>`, false,
			[]string{"x.svg:1:62: is not well-formed XML: the file ends before <g> (line 1) is closed"}},
		{"unknown entity", svgDoc(`<title>&nbsp;</title>`), false,
			[]string{"x.svg:1:68: is not well-formed XML: invalid character entity &nbsp; (only &amp; &lt; &gt; &quot; &apos; and numeric references exist without a DOCTYPE)"}},
		{"doctype", `<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">` + svgDoc(""), false,
			[]string{"x.svg:1:1: DOCTYPE and entity declarations are not allowed; delete the <!DOCTYPE ...> line"}},
		{"billion laughs", `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1">&lol2;</svg>`, false,
			[]string{"x.svg:1:22: DOCTYPE and entity declarations are not allowed; delete the <!DOCTYPE ...> line"}},
		{"stylesheet processing instruction", `<?xml-stylesheet href="https://evil.example/x.css"?>` + svgDoc(""), false,
			[]string{"x.svg:1:1: processing instruction <?xml-stylesheet?> is not allowed; remove it"}},
		{"html document", `<html><body></body></html>`, false,
			[]string{"x.svg:1:1: is an HTML document, not an SVG; export the logo as SVG"}},
		{"valid XML, not SVG", `<root/>`, false,
			[]string{`x.svg:1:1: root element is <root>; an SVG logo's root is <svg xmlns="http://www.w3.org/2000/svg">`}},
		{"svg without namespace", `<svg viewBox="0 0 1 1"/>`, false,
			[]string{`x.svg:1:1: root <svg> is not in the SVG namespace; add xmlns="http://www.w3.org/2000/svg"`}},
		{"prefixed root", `<x:svg xmlns:x="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>`, false,
			[]string{`x.svg:1:1: root element <x:svg> uses a namespace prefix; write <svg xmlns="http://www.w3.org/2000/svg"> and drop the prefix`}},
		{"prefixed child", `<svg xmlns="http://www.w3.org/2000/svg" xmlns:svg="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><svg:path d="M0 0"/></svg>`, false,
			[]string{"x.svg:1:98: element <svg:path> uses a namespace prefix for SVG; write <path> in the default namespace"}},
		{"no viewBox", `<svg xmlns="http://www.w3.org/2000/svg" width="24" height="16"/>`, false,
			[]string{`x.svg:1:1: root <svg> has no viewBox; add viewBox="0 0 <width> <height>", for example viewBox="0 0 24 16" from its width and height`}},
		{"no viewBox, size in px", `<svg xmlns="http://www.w3.org/2000/svg" width="24px" height=" 16.50px "/>`, false,
			[]string{`x.svg:1:1: root <svg> has no viewBox; add viewBox="0 0 <width> <height>", for example viewBox="0 0 24 16.5" from its width and height`}},
		{"no viewBox, size in another unit", `<svg xmlns="http://www.w3.org/2000/svg" width="2em" height="1E1"/>`, false,
			[]string{`x.svg:1:1: root <svg> has no viewBox; add viewBox="0 0 <width> <height>"`}},
		{"viewBox three numbers", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24"/>`, false,
			[]string{`x.svg:1:1: viewBox="0 0 24" must be four numbers: min-x min-y width height`}},
		{"viewBox zero width", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 0 24"/>`, false,
			[]string{`x.svg:1:1: viewBox="0 0 0 24" must have a positive width and height`}},
		{"viewBox not numbers", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 a 24"/>`, false,
			[]string{`x.svg:1:1: viewBox="0 0 a 24" has "a", which is not a number within ±1e9`}},
		{"script", svgDoc(`<script>alert(1)</script>`), false,
			[]string{"x.svg:1:61: <script> is not allowed: it can run script; remove it"}},
		{"SCRIPT upper case", svgDoc(`<SCRIPT>alert(1)</SCRIPT>`), false,
			[]string{"x.svg:1:61: <SCRIPT> is not allowed: it can run script; remove it"}},
		{"html script in another namespace", svgDoc(`<h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script>`), false,
			[]string{"x.svg:1:61: HTML element <h:script> is not allowed in an SVG logo; remove it"}},
		{"html element", svgDoc(`<h:div xmlns:h="http://www.w3.org/1999/xhtml"/>`), false,
			[]string{"x.svg:1:61: HTML element <h:div> is not allowed in an SVG logo; remove it"}},
		{"foreignObject", svgDoc(`<foreignObject><div/></foreignObject>`), false,
			[]string{"x.svg:1:61: <foreignObject> is not allowed: it embeds HTML; remove it"}},
		{"image", svgDoc(`<image href="#a"/>`), false,
			[]string{"x.svg:1:61: <image> is not allowed: it embeds a raster or external image; remove it"}},
		{"iframe object embed audio video", svgDoc(`<iframe/><object/><embed/><audio/><video/>`), false,
			[]string{
				"x.svg:1:61: <iframe> is not allowed: it loads another document; remove it",
				"x.svg:1:70: <object> is not allowed: it loads another document; remove it",
				"x.svg:1:79: <embed> is not allowed: it loads another document; remove it",
				"x.svg:1:87: <audio> is not allowed: it plays media; remove it",
				"x.svg:1:95: <video> is not allowed: it plays media; remove it",
			}},
		{"animation", svgDoc(`<animate/><set/><animateMotion/><animateTransform/>`), false,
			[]string{
				"x.svg:1:61: <animate> is not allowed: it animates the logo; remove it",
				"x.svg:1:71: <set> is not allowed: it animates the logo; remove it",
				"x.svg:1:77: <animateMotion> is not allowed: it animates the logo; remove it",
				"x.svg:1:93: <animateTransform> is not allowed: it animates the logo; remove it",
			}},
		{"onload", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1" onload="alert(1)"/>`, false,
			[]string{"x.svg:1:59: event handler attribute onload is not allowed on <svg>; remove it"}},
		{"OnClick mixed case", svgDoc(`<path OnClick="x()" d="M0 0"/>`), false,
			[]string{"x.svg:1:67: event handler attribute OnClick is not allowed on <path>; remove it"}},
		{"external href", svgDoc(`<use href="https://evil.example/a.svg#x"/>`), false,
			[]string{"x.svg:1:66: href=\"https://evil.example/a.svg#x\" on <use> points outside the document; only local references like \"#id\" are allowed"}},
		{"external xlink:href", `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 1 1"><a xlink:href="https://x.example"/></svg>`, false,
			[]string{"x.svg:1:102: <a> is not allowed: it makes the logo a link; remove it"}},
		{"external xlink:href on use", `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 1 1"><use xlink:href="https://x.example"/></svg>`, false,
			[]string{"x.svg:1:107: xlink:href=\"https://x.example\" on <use> points outside the document; only local references like \"#id\" are allowed"}},
		{"javascript href", svgDoc(`<a href="javascript:alert(1)"/>`), false,
			[]string{"x.svg:1:61: <a> is not allowed: it makes the logo a link; remove it"}},
		{"javascript href on use", svgDoc(`<use href="javascript:alert(1)"/>`), false,
			[]string{"x.svg:1:66: attribute href on <use> contains javascript:; remove it"}},
		{"JaVaScRiPt with tab entity in another attribute", svgDoc(`<path d="M0 0" data-x="JaVa&#x09;ScRiPt:alert(1)"/>`), false,
			[]string{"x.svg:1:76: attribute data-x on <path> contains javascript:; remove it"}},
		{"external url in fill attribute", svgDoc(`<path fill="url(https://evil.example/p.svg#g)" d="M0 0"/>`), false,
			[]string{"x.svg:1:73: attribute fill has url(https://evil.example/p.svg#g), which points outside the document; only local references like url(#gradient) are allowed"}},
		{"external url in style attribute", svgDoc(`<path style="fill:url('//evil.example/p.svg#g')" d="M0 0"/>`), false,
			[]string{"x.svg:1:79: style attribute has url(//evil.example/p.svg#g), which points outside the document; only local references like url(#gradient) are allowed"}},
		{"external url in style element", svgDoc(`<style>.p{fill:url("https://evil.example/g")}</style>`), false,
			[]string{"x.svg:1:76: <style> has url(https://evil.example/g), which points outside the document; only local references like url(#gradient) are allowed"}},
		{"escaped url in style element", svgDoc(`<style>.p{fill:u\72l(https://evil.example/g)}</style>`), false,
			[]string{`x.svg:1:76: <style>: CSS escapes (\) are not allowed; write the characters themselves`}},
		{"url with a comment inside", svgDoc(`<style>.p{fill:url(/**/https://evil.example/g)}</style>`), false,
			[]string{"x.svg:1:76: <style> has url(/**/https://evil.example/g), which points outside the document; only local references like url(#gradient) are allowed"}},
		{"import in style element", svgDoc(`<style>@import "https://evil.example/x.css";</style>`), false,
			[]string{"x.svg:1:68: <style>: @import is not allowed in a logo's CSS: it loads another stylesheet; only @media is"}},
		{"IMPORT in CDATA", svgDoc(`<style><![CDATA[@IMPORT url(x.css);]]></style>`), false,
			[]string{"x.svg:1:77: <style>: @IMPORT is not allowed in a logo's CSS: it loads another stylesheet; only @media is"}},
		{"javascript url in style", svgDoc(`<style>.a{fill:url(javascript:alert(1))}</style>`), false,
			[]string{"x.svg:1:76: <style>: url( cannot be read: write it as url(#id)"}},
		{"image-set in style attribute", svgDoc(`<path style="fill:red;mask:image-set('a.png' 1x)" d="M0 0"/>`), false,
			[]string{"x.svg:1:88: style attribute uses image-set(): only colour, arithmetic, transform and filter functions are allowed; remove it"}},
		{"background in style attribute", svgDoc(`<path style="background:red" d="M0 0"/>`), false,
			[]string{"x.svg:1:74: style attribute: the CSS property background is not one a logo may use (see the allowlist in docs/security.md); remove it"}},
		{"@media nested past the limit", svgDoc(`<style>` + strings.Repeat("@media all{", MaxCSSBlockDepth) + `.a{fill:red}` + strings.Repeat("}", MaxCSSBlockDepth) + `</style><path class="a" d="M0 0"/>`), false,
			[]string{"x.svg:1:158: <style>: CSS blocks are nested more than 8 levels deep (@media in @media ...); a logo's stylesheet needs two: flatten the rules"}},
		{"braces nested past the limit in a style attribute", svgDoc(`<path style="fill:red;` + strings.Repeat("{", 20000) + `" d="M0 0"/>`), false,
			[]string{"x.svg:1:91: style attribute: CSS blocks are nested more than 8 levels deep (@media in @media ...); a logo's stylesheet needs two: flatten the rules"}},
		{"calc( nested past the limit in <style>", svgDoc(`<style>.a{stroke-width:` + strings.Repeat("calc(", 1000) + "1" + strings.Repeat(")", 1000) + `}</style><path class="a" d="M0 0"/>`), false,
			[]string{"x.svg:1:164: <style>: CSS functions and parentheses are nested more than 16 levels deep; a logo's values need two or three: write the value out"}},
		{"functions nested past the limit in a presentation attribute", svgDoc(`<path fill="` + strings.Repeat("rgb(", MaxCSSFunctionDepth+1) + `" d="M0 0"/>`), false,
			[]string{"x.svg:1:137: attribute fill: CSS functions and parentheses are nested more than 16 levels deep; a logo's values need two or three: write the value out"}},
		{"parentheses nested past the limit in @media", svgDoc(`<style>@media ` + strings.Repeat("(", 3000) + `</style>`), false,
			[]string{"x.svg:1:91: <style>: CSS functions and parentheses are nested more than 16 levels deep; a logo's values need two or three: write the value out"}},
		{"element selectors", svgDoc(`<style>path{fill:red}g > path, * {fill:blue}</style><g><path d="M0 0"/></g>`), false,
			[]string{
				`x.svg:1:68: <style>: the selector "path" selects by element names only, so inlined in a page it would style the page around the logo too; select by a class or id of this file, for example .st0 or .st0 path`,
				`x.svg:1:82: <style>: the selector "g > path" selects by element names only, so inlined in a page it would style the page around the logo too; select by a class or id of this file, for example .st0 or .st0 g > path`,
				`x.svg:1:92: <style>: the selector "*" selects by element names only, so inlined in a page it would style the page around the logo too; select by a class or id of this file, for example .st0 or .st0 *`,
			}},
		{"id selectors of ids the file lacks", svgDoc(`<style>#header{display:none}@media all{@media screen{.a #main > #a{fill:red}}}</style><path id="a" class="a" d="M0 0"/>`), false,
			[]string{
				`x.svg:1:69: <style>: the selector names #header, which no element of this file has: inlined in a page it would select the page's element with that id; give an element of the logo id="header" or remove the selector`,
				`x.svg:1:118: <style>: the selector names #main, which no element of this file has: inlined in a page it would select the page's element with that id; give an element of the logo id="main" or remove the selector`,
			}},
		{"an id selector of <metadata>, which is never published", svgDoc(`<metadata id="m"/><style>#m{fill:red}</style><path fill="url(#m)" d="M0 0"/>`), false,
			[]string{
				`x.svg:1:87: <style>: the selector names #m, which no element of this file has: inlined in a page it would select the page's element with that id; give an element of the logo id="m" or remove the selector`,
			}},
		{"a paint server in <metadata>, which is never published", svgDoc(`<metadata id="m"/><path fill="url(#m)" d="M0 0"/>`), false,
			[]string{"x.svg:1:91: url() refers to #m, which this file does not have; add the element or remove the reference"}},
		{"root transform attribute", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" transform="scale(40)"><path d="M0 0"/></svg>`, false,
			[]string{"x.svg:1:61: transform on the root <svg> moves the logo over the page around it when it is inlined; put the transform on a <g> around the content"}},
		{"root overflow and transform in a style attribute", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" style="overflow:visible;-webkit-transform:translate(9px,9px)"><path d="M0 0"/></svg>`, false,
			[]string{
				"x.svg:1:68: overflow on the root <svg> lets whatever is drawn outside the viewBox paint over the page around the logo when it is inlined; remove it",
				"x.svg:1:85: -webkit-transform on the root <svg> moves the logo over the page around it when it is inlined; put the transform on a <g> around the content",
			}},
		{"root styles from rules that match it", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="1em" class="r"><style>.r{transform:scale(9)}@media print{svg.r{display:none;filter:drop-shadow(0 0 9px red)}}.r{font:90px serif}</style><path d="M0 0"/></svg>`, false,
			[]string{
				"x.svg:1:93: transform on the root <svg> moves the logo over the page around it when it is inlined; put the transform on a <g> around the content",
				"x.svg:1:131: display on the root <svg> changes how the page around the logo is laid out when it is inlined; remove it",
				"x.svg:1:144: filter on the root <svg> paints outside the logo's box, over the page around it, when it is inlined; put the filter on a <g> around the content",
				"x.svg:1:180: font on the root <svg> sets the em that a page sizes inline icons in (width: 1em), so it resizes the logo's box in the page; put it on the <text> or a <g> around it",
			}},
		{"root properties that size its box in a page's layout", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" style="inline-size:2000px;-webkit-flex:0 0 2000px;font-size:400px;writing-mode:vertical-lr"><path d="M0 0"/></svg>`, false,
			[]string{
				"x.svg:1:68: inline-size on the root <svg> changes the size of the logo's box in the layout of the page around it when it is inlined; remove it, or put writing-mode on the <text>",
				"x.svg:1:87: -webkit-flex on the root <svg> lets the logo's box grow or shrink in the layout of the page around it when it is inlined; remove it, or write flex: none",
				"x.svg:1:111: font-size on the root <svg> sets the em that a page sizes inline icons in (width: 1em), so it resizes the logo's box in the page; put it on the <text> or a <g> around it",
				"x.svg:1:127: writing-mode on the root <svg> changes the size of the logo's box in the layout of the page around it when it is inlined; remove it, or put writing-mode on the <text>",
			}},
		{"a rule on the root through a class that differs only in case, as a page in quirks mode matches it", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" class="a"><style>.A{transform:scale(8)}</style><path d="M0 0"/></svg>`, false,
			[]string{"x.svg:1:81: transform on the root <svg> moves the logo over the page around it when it is inlined; put the transform on a <g> around the content"}},
		{"aria attributes that reach the page, and tabindex", svgDoc(`<path aria-owns="nav" tabindex="1" d="M0 0"/>`), false,
			[]string{
				"x.svg:1:67: attribute aria-owns is not allowed on <path>: of the aria- attributes a logo may have only aria-label, aria-labelledby, aria-describedby, aria-hidden, aria-roledescription and aria-description, which describe the logo itself and nothing of the page around it; remove it",
				"x.svg:1:83: attribute tabindex is not allowed on <path>: it puts the logo in the order in which the page around it takes focus; remove it",
			}},
		{"aria-labelledby of an id the file does not have", svgDoc(`<path aria-labelledby="t main" d="M0 0"/><title id="t">Acme</title>`), false,
			[]string{"x.svg:1:67: aria-labelledby refers to #main, which this file does not have; inline in a page it would name the page's element; add the element or remove the reference"}},
		{"root overflow attribute", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" overflow="visible"><path d="M0 0"/></svg>`, false,
			[]string{`x.svg:1:61: warning: overflow="visible" on the root <svg> is dropped from the published file, which is clipped to its viewBox; remove it, and keep the artwork inside the viewBox`}},
		{"deep nesting", svgDoc(strings.Repeat("<g>", MaxDepth+5) + strings.Repeat("</g>", MaxDepth+5)), false,
			[]string{"x.svg:1:358: elements are nested more than 100 levels deep; flatten the groups"}},
		{"too many elements", svgDoc(strings.Repeat("<g/>", MaxElements+1)), false,
			[]string{"x.svg:1:80057: has more than 20000 elements; simplify the artwork"}},
		{"two roots", svgDoc("") + svgDoc(""), false,
			[]string{"x.svg:1:67: a second root element <svg>; an SVG file holds one <svg> element"}},
		{"text outside root", svgDoc("") + "hello", false,
			[]string{"x.svg:1:67: text outside the <svg> element; remove it"}},
		{"duplicate attribute", svgDoc(`<path d="M0 0" d="M1 1"/>`), false,
			[]string{"x.svg:1:76: is not well-formed XML: attribute d appears twice on <path>; keep one"}},
		{"a name with a letter of XML's fifth edition only", svgDoc("<\u07af/>"), false,
			[]string{"x.svg:1:62: a name has the character U+07AF; the names of elements and attributes in an SVG logo are ASCII"}},
		{"an attribute name with a Latin letter", svgDoc("<path caf\u00e9=\"1\" d=\"M0 0\"/>"), false,
			[]string{"x.svg:1:70: a name has the character U+00E9; the names of elements and attributes in an SVG logo are ASCII"}},
		{"undeclared prefix", svgDoc(`<x:thing/>`), false,
			[]string{"x.svg:1:61: element <x:thing> uses the undeclared namespace prefix \"x\"; declare it or remove the element"}},
		{"xml:space preserve with runs", svgDoc(`<text xml:space="preserve">a  b</text>`), false,
			[]string{"x.svg:1:88: text under xml:space=\"preserve\" has spaces that the optimiser would collapse; convert the text to paths or remove the extra spaces"}},
		{"mono with brand colour", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1" fill="#181717"><path d="M0 0"/></svg>`, true,
			[]string{"x.svg:1:59: icon-mono paints fill: #181717; every paint must be currentColor, none or transparent"}},
		{"mono stroke in style", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1" fill="currentColor"><path style="stroke:red" d="M0 0"/></svg>`, true,
			[]string{"x.svg:1:92: icon-mono paints stroke: red; every paint must be currentColor, none or transparent"}},
		{"mono stop-color in style element", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1" fill="currentColor"><style>.s{stop-color:#fff}</style></svg>`, true,
			[]string{"x.svg:1:89: icon-mono paints stop-color: #fff in <style>; every paint must be currentColor, none or transparent"}},
		{"mono flood and lighting colour", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1" fill="currentColor"><feFlood flood-color="red"/><feDiffuseLighting lighting-color="blue"/></svg>`, true,
			[]string{
				"x.svg:1:88: icon-mono paints flood-color: red; every paint must be currentColor, none or transparent",
				"x.svg:1:126: icon-mono paints lighting-color: blue; every paint must be currentColor, none or transparent",
			}},
		{"mono gradient fill", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><linearGradient id="g"><stop stop-color="#fff"/></linearGradient><path fill="url(#g)" d="M0 0"/></svg>`, true,
			[]string{"x.svg:1:88: icon-mono paints stop-color: #fff; every paint must be currentColor, none or transparent"}},
		{"mono default black", svgDoc(`<g><path d="M0 0"/><path d="M1 1"/></g>`), true,
			[]string{"x.svg:1:64: <path> has no fill, so it paints black; set fill=\"currentColor\" on the root <svg>"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, probs := checkBytes("x.svg", []byte(tc.in), Rules{Mono: tc.mono})
			probs.Sort()
			if diff := cmp.Diff(tc.want, problemStrings(probs)); diff != "" {
				t.Errorf("problems mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCheckSVGInfo(t *testing.T) {
	// What is drawn counts, where it is drawn: the rule .a paints the first
	// path's stroke; the mask's white is not painted; the second path
	// paints its stroke and fill; the third sets no fill and paints black;
	// <use> draws the symbol's path again, in the colour <use> passes down.
	src := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 12"><title>T</title>` +
		`<style>.a{stroke:#ff0000}</style><mask id="m"><rect fill="#fff"/></mask>` +
		`<path class="a" fill="none" d="M0 0"/><path stroke="rgb(0,0,255)" fill="lime" d="M0 0"/><path d="M0 0"/>` +
		`<symbol id="s"><path d="M1 1"/></symbol><use href="#s" fill="navy"/></svg>`
	info, probs := checkBytes("x.svg", []byte(src), Rules{})
	if len(probs) > 0 {
		t.Fatalf("unexpected problems:\n%s", probs.Error())
	}
	want := &Info{
		ViewBox:  [4]float64{0, 0, 24, 12},
		HasTitle: true,
		Paints: []PaintUse{
			{Value: "#ff0000", Colour: RGB{255, 0, 0}, Pos: problem.Pos{Line: 1, Col: 87}},
			{Value: "lime", Colour: RGB{0, 255, 0}, Pos: problem.Pos{Line: 1, Col: 215}},
			{Value: "rgb(0,0,255)", Colour: RGB{0, 0, 255}, Pos: problem.Pos{Line: 1, Col: 193}},
			{Value: "(default black)", Colour: RGB{}, Pos: problem.Pos{Line: 1, Col: 237}},
			{Value: "navy", Colour: RGB{0, 0, 128}, Pos: problem.Pos{Line: 1, Col: 308}},
		},
		Expansion: 7,
		Names:     5, // ids m and s, the reference #s, class a and .a
	}
	if diff := cmp.Diff(want, info); diff != "" {
		t.Errorf("Info mismatch (-want +got):\n%s", diff)
	}
	// Each position is the declaration that paints, or the shape.
	for i, at := range []string{"stroke:#ff0000", `fill="lime"`, `stroke="rgb(`, `<path d="M0 0"/><symbol`, `fill="navy"`} {
		if p := want.Paints[i].Pos; !strings.HasPrefix(src[p.Col-1:], at) {
			t.Errorf("%s is at %q, want %q", want.Paints[i].Value, src[p.Col-1:min(len(src), p.Col+15)], at)
		}
	}
}

func problemStrings(l problem.List) []string {
	var out []string
	for _, p := range l {
		out = append(out, p.Error())
	}
	return out
}

// encodeUTF16 returns s in UTF-16, big- or little-endian, with or without
// a byte-order mark, as an editor saves it.
func encodeUTF16(s string, big, bom bool) string {
	units := utf16.Encode([]rune(s))
	if bom {
		units = append([]uint16{0xFEFF}, units...)
	}
	var b []byte
	for _, u := range units {
		if big {
			b = append(b, byte(u>>8), byte(u))
		} else {
			b = append(b, byte(u), byte(u>>8))
		}
	}
	return string(b)
}

// encodeUTF32 is encodeUTF16 for UTF-32.
func encodeUTF32(s string, big, bom bool) string {
	rs := []rune(s)
	if bom {
		rs = append([]rune{0xFEFF}, rs...)
	}
	var b []byte
	for _, r := range rs {
		if big {
			b = append(b, byte(r>>24), byte(r>>16), byte(r>>8), byte(r))
		} else {
			b = append(b, byte(r), byte(r>>8), byte(r>>16), byte(r>>24))
		}
	}
	return string(b)
}

// checkBytes parses and checks data as the pipeline does.
func checkBytes(path string, data []byte, rules Rules) (*Info, problem.List) {
	d, probs := Parse(path, data)
	if d == nil {
		return nil, probs
	}
	return Check(d, rules)
}
