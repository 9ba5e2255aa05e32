package svg

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"logoindex/internal/svgtest"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSVGToJSX(t *testing.T) {
	const ns = `xmlns="http://www.w3.org/2000/svg"`
	tests := []struct {
		name string
		svg  string
		want JSX
	}{
		{
			name: "plain",
			svg:  `<svg ` + ns + ` viewBox="0 0 24 24" fill="#181717" role="img"><title>GitHub</title><path d="M0 0h24v24z"/></svg>`,
			want: JSX{
				Attrs: ns + ` viewBox="0 0 24 24" fill="#181717"`,
				Body:  `<path d="M0 0h24v24z" />`,
				Width: "1em", Height: "1em",
			},
		},
		{
			name: "wide viewBox sets the default width",
			svg:  `<svg ` + ns + ` viewBox="0 0 96 24" width="96" height="24"><path d="M0 0"/></svg>`,
			want: JSX{Attrs: ns + ` viewBox="0 0 96 24"`, Body: `<path d="M0 0" />`, Width: "4em", Height: "1em"},
		},
		{
			name: "aspect ratio rounded to four decimals",
			svg:  `<svg ` + ns + ` viewBox="0,0,100,30"/>`,
			want: JSX{Attrs: ns + ` viewBox="0,0,100,30"`, Width: "3.3333em", Height: "1em"},
		},
		{
			name: "hyphenated attributes in React's camelCase",
			svg: `<svg ` + ns + ` viewBox="0 0 1 1"><path fill-rule="evenodd" clip-rule="evenodd" stroke-width="2" ` +
				`stroke-linecap="round" data-name="x" aria-label="y" mask-type="alpha" fill-opacity=".5"/></svg>`,
			want: JSX{
				Attrs: ns + ` viewBox="0 0 1 1"`,
				Body: `<path fillRule="evenodd" clipRule="evenodd" strokeWidth="2" strokeLinecap="round" data-name="x" ` +
					`aria-label="y" {...{"maskType": "alpha"}} fillOpacity=".5" />`,
				Width: "1em", Height: "1em",
			},
		},
		{
			name: "ids and every reference prefixed",
			svg: `<svg ` + ns + ` xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 1 1">` +
				`<linearGradient id="a"/><path id="b" d="M0 0" fill="url(#a)" stroke="url('#a') red" aria-labelledby="t1 t2"/>` +
				`<use xlink:href="#b"/><use href="#b"/><g clip-path="url( &quot;#a&quot; )" mask="url(#m)"/></svg>`,
			want: JSX{
				Attrs: ns + ` viewBox="0 0 1 1" xmlnsXlink="http://www.w3.org/1999/xlink"`,
				Body: "<linearGradient id={`${p}a`} />\n" +
					"<path id={`${p}b`} d=\"M0 0\" fill={`url(#${p}a)`} stroke={`url('#${p}a') red`} aria-labelledby={`${p}t1 ${p}t2`} />\n" +
					"<use xlinkHref={`#${p}b`} />\n" +
					"<use href={`#${p}b`} />\n" +
					"<g clipPath={`url( \"#${p}a\" )`} mask={`url(#${p}m)`} />",
				Width: "1em", Height: "1em", UsesPrefix: true,
			},
		},
		{
			name: "style attributes become objects",
			svg: `<svg ` + ns + ` viewBox="0 0 1 1" style="background: #fff"><path style="fill: url(#g) ; stop-color:red !important;` +
				`-webkit-mask:none;-ms-filter:none;fill:blue;bad name:1;/* note */stroke:rgb(1 , 2,3);;" d="M0 0"/></svg>`,
			want: JSX{
				Attrs: ns + ` viewBox="0 0 1 1"`,
				Style: `{ "background": "#fff" } as React.CSSProperties`,
				Body: "<path style={{ \"stopColor\": \"red\", \"WebkitMask\": \"none\", \"msFilter\": \"none\", \"fill\": \"blue\", " +
					"\"stroke\": \"rgb(1 , 2,3)\" } as React.CSSProperties} d=\"M0 0\" />",
				Width: "1em", Height: "1em",
			},
		},
		{
			name: "a <style> prefixes selectors in nested @media",
			svg:  `<svg ` + ns + ` viewBox="0 0 1 1"><style>@media all{@media screen{.a #b{fill:#abc}}.c{fill:red}}</style><path class="a c" id="b" d="M0 0"/></svg>`,
			want: JSX{
				Attrs: ns + ` viewBox="0 0 1 1"`,
				Body: "<style>{`@media all{@media screen{.${p}a #${p}b{fill:#abc}}.${p}c{fill:red}}`}</style>\n" +
					"<path className={`${p}a ${p}c`} id={`${p}b`} d=\"M0 0\" />",
				Width: "1em", Height: "1em", UsesPrefix: true,
			},
		},
		{
			name: "a <style> prefixes ids and classes in selectors and url()",
			svg: `<svg ` + ns + ` viewBox="0 0 1 1" class="root x"><style>/* .no */ .a, #b > .c:not(.d) { fill: url(#g); color: #abc }` +
				`@media (min-width: 1.5px) { .e{stroke:red} } @keyframes k { 0.5% { opacity: 1 } } [data-x=".y"] { fill: red }` +
				"</style><path class=\"a  c\" id=\"b\" d=\"M0 0\"/><text>`${x}`</text></svg>",
			want: JSX{
				Attrs: ns + ` viewBox="0 0 1 1"`,
				Class: "`${p}root ${p}x`",
				Body: "<style>{` .${p}a, #${p}b > .${p}c:not(.${p}d) { fill: url(#${p}g); color: #abc }" +
					"@media (min-width: 1.5px) { .${p}e{stroke:red} } @keyframes k { 0.5% { opacity: 1 } } [data-x=\".y\"] { fill: red }`}</style>\n" +
					"<path className={`${p}a ${p}c`} id={`${p}b`} d=\"M0 0\" />\n" +
					"<text>\n  {\"`${x}`\"}\n</text>",
				Width: "1em", Height: "1em", UsesPrefix: true,
			},
		},
		{
			name: "text keeps its white space and is escaped",
			svg: `<svg ` + ns + ` viewBox="0 0 1 1"><text xml:space="preserve" x="1">a  &amp; &lt;b&gt; "c" {d}<tspan> e </tspan>` +
				`</text>stray text<desc>About {it}</desc></svg>`,
			want: JSX{
				Attrs: ns + ` viewBox="0 0 1 1"`,
				Body: "<text xmlSpace=\"preserve\" x=\"1\">\n  {\"a  & <b> \\\"c\\\" {d}\"}\n  <tspan>\n    {\" e \"}\n  </tspan>\n</text>\n" +
					"<desc>\n  {\"About {it}\"}\n</desc>",
				Width: "1em", Height: "1em",
			},
		},
		{
			name: "unsafe characters in attribute values use expressions",
			svg:  `<svg ` + ns + ` viewBox="0 0 1 1"><g data-a="x&amp;y" data-b="{z}" data-c='q"r' data-d="a\b"/></svg>`,
			want: JSX{
				Attrs: ns + ` viewBox="0 0 1 1"`,
				Body:  `<g data-a={"x&y"} data-b={"{z}"} data-c={"q\"r"} data-d={"a\\b"} />`,
				Width: "1em", Height: "1em",
			},
		},
		{
			name: "foreign markup, React-only names and unknown elements dropped",
			svg: `<svg ` + ns + ` xmlns:i="http://ns.adobe.com/ai" viewBox="0 0 1 1" i:x="1" version="1.1" baseprofile="tiny">` +
				`<!-- c --><i:meta><path d="M0 0"/></i:meta><metadata>m</metadata><flowRoot><path d="M1 1"/></flowRoot>` +
				`<g fill="red"><path className="x" fillRule="nonzero" onclick="x()" d="M2 2"/></g>` +
				`<title>inner</title></svg>`,
			want: JSX{
				Attrs: ns + ` viewBox="0 0 1 1" version="1.1" {...{"baseprofile": "tiny"}}`,
				Body:  "<g fill=\"red\">\n  <path d=\"M2 2\" />\n</g>",
				Width: "1em", Height: "1em",
			},
		},
		{
			name: "template literal specials escaped",
			svg:  `<svg ` + ns + ` viewBox="0 0 1 1"><g id="a` + "`" + `b${c}\d"/></svg>`,
			want: JSX{
				Attrs: ns + ` viewBox="0 0 1 1"`,
				Body:  "<g id={`${p}a\\`b\\${c}\\\\d`} />",
				Width: "1em", Height: "1em", UsesPrefix: true,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := toJSX([]byte(tt.svg), "p")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, *got, cmp.AllowUnexported(JSX{})); diff != "" {
				t.Errorf("svgToJSX mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSVGToJSXErrors(t *testing.T) {
	for _, svg := range []string{
		``,
		`<svg xmlns="http://www.w3.org/2000/svg"><g></svg>`,
		`<g xmlns="http://www.w3.org/2000/svg"/>`,
		`<svg/>`,
	} {
		if _, err := toJSX([]byte(svg), "p"); err == nil {
			t.Errorf("svgToJSX(%q) succeeded, want an error", svg)
		}
	}
}

func TestStyleKey(t *testing.T) {
	for prop, want := range map[string]string{
		"fill": "fill", "stop-color": "stopColor", "-webkit-mask-image": "WebkitMaskImage", "-ms-filter": "msFilter",
		"-moz-x": "MozX", "font-variant-east-asian": "fontVariantEastAsian",
	} {
		if got := styleKey(prop); got != want {
			t.Errorf("styleKey(%q) = %q, want %q", prop, got, want)
		}
		// React hyphenates the key back to the property.
		if back := hyphenateStyle(want); back != prop {
			t.Errorf("React would write %q back as %q, not %q", want, back, prop)
		}
	}
}

// TestJSXRoundTrip converts every variant of the shipped collection and
// the registry test tree, renders the JSX as React would (reactMarkup) and
// compares the result with the file: same elements, attributes, text and
// path data, every id and reference prefixed. The Node test does the same
// with the real React.
// TestJSXRoundTrip converts every variant of the shipped collection and of
// the registry's test sources, optimised as a build optimises them, and
// checks the JSX renders what the file draws.
func TestJSXRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("../../source-logos/*/*.svg")
	more, _ := filepath.Glob("../testdata/registry/src/*/*.svg")
	n := 0
	for _, f := range append(files, more...) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		variant := strings.TrimSuffix(filepath.Base(f), ".svg")
		slug := filepath.Base(filepath.Dir(f))
		d, probs := Parse(f, src)
		if d == nil {
			t.Fatalf("%s: %v", f, probs)
		}
		rules := Rules{Mono: variant == "icon-mono"}
		info, probs := Check(d, rules)
		if err := probs.Err(); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		r, err := OptimiseDocument(d, info, Options{Rules: rules, Title: slug, IDPrefix: slug + "-" + variant + "-"})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		n++
		j, err := ToJSX(r.Doc, "p")
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		prefix := "P-"
		markup, err := reactMarkup(j, prefix, nil)
		if err != nil {
			t.Errorf("%s: the JSX does not parse back: %v\n%s\n%s", f, err, j.Attrs, j.Body)
			continue
		}
		if diff := svgtest.Compare(r.Data, []byte(markup), prefix); diff != "" {
			t.Errorf("%s: the JSX differs from the file (-file +jsx):\n%s", f, diff)
		}
	}
	if n < 100 {
		t.Errorf("only %d files converted; the shipped collection has hundreds", n)
	}
}

// TestCompareSVGCanFail makes sure the comparison sees the changes that
// matter: a missed prefix, a changed path, a lost attribute.
func TestCompareSVGCanFail(t *testing.T) {
	file := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><linearGradient id="a"/><path fill="url(#a)" d="M0 0"/></svg>`
	good := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1" width="1em" aria-hidden="true"><linearGradient id="P-a"></linearGradient><path fill="url(#P-a)" d="M0 0"></path></svg>`
	if d := svgtest.Compare([]byte(file), []byte(good), "P-"); d != "" {
		t.Fatalf("equal trees differ:\n%s", d)
	}
	for _, bad := range []string{
		strings.Replace(good, "url(#P-a)", "url(#a)", 1),
		strings.Replace(good, `id="P-a"`, `id="a"`, 1),
		strings.Replace(good, "M0 0", "M0 1", 1),
		strings.Replace(good, ` viewBox="0 0 1 1"`, "", 1),
		strings.Replace(good, "<path", "<g", 1) + "",
	} {
		if svgtest.Compare([]byte(file), []byte(bad), "P-") == "" {
			t.Errorf("no difference found in %s", bad)
		}
	}
}

func FuzzSVGToJSX(f *testing.F) {
	svgSeeds(f)
	addSeeds(f, "testdata/registry/src/*/*.svg")
	f.Add([]byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><style>.a{fill:url(#b)}</style><g class="a" style="x:y"/></svg>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		j, err := toJSX(data, "p")
		if err != nil {
			return
		}
		if _, probs := checkBytes("f.svg", data, Rules{}); len(probs.Errors()) > 0 {
			return // only checked files are converted in a build
		}
		markup, err := reactMarkup(j, "P-", nil)
		if err != nil {
			t.Fatalf("the JSX does not parse back: %v\nattrs: %s\nstyle: %s\nclass: %s\nbody:\n%s", err, j.Attrs, j.Style, j.Class, j.Body)
		}
		if err := wellFormed([]byte(markup)); err != nil {
			t.Fatalf("the rendered JSX is not well-formed: %v\n%s", err, markup)
		}
		if _, probs := checkBytes("m.svg", []byte(markup), Rules{}); len(probs.Errors()) > 0 {
			t.Fatalf("the rendered JSX fails the checks the file passed: %v\n%s", probs.Errors(), markup)
		}
	})
}

func wellFormed(data []byte) error {
	d := xml.NewDecoder(bytes.NewReader(data))
	for {
		_, err := d.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// reactMarkup renders the converted SVG the way React's renderToStaticMarkup
// renders the component's <svg> element (attribute names back from React's
// spelling, style objects to declarations), with the id prefix given and
// extra root attributes. It reads only the subset of JSX svgToJSX writes and
// fails on anything else, so it also checks that the output is that subset.
func reactMarkup(j *JSX, prefix string, extra map[string]string) (string, error) {
	p := &jsxReader{prefix: prefix}
	var b strings.Builder
	b.WriteString("<svg")
	p.s = j.Attrs
	attrs, err := p.attrs()
	if err != nil {
		return "", fmt.Errorf("attrs: %w", err)
	}
	if p.pos != len(p.s) {
		return "", fmt.Errorf("attrs: trailing %q", p.s[p.pos:])
	}
	if j.Class != "" {
		p.s, p.pos = j.Class, 0
		v, err := p.expr()
		if err != nil {
			return "", fmt.Errorf("class: %w", err)
		}
		attrs = append(attrs, [2]string{"class", v})
	}
	if j.Style != "" {
		p.s, p.pos = j.Style, 0
		v, err := p.expr()
		if err != nil {
			return "", fmt.Errorf("style: %w", err)
		}
		attrs = append(attrs, [2]string{"style", v})
	}
	for _, k := range slices.Sorted(maps.Keys(extra)) {
		attrs = append(attrs, [2]string{k, extra[k]})
	}
	writeAttrs(&b, attrs)
	b.WriteString(">")
	p.s, p.pos = j.Body, 0
	if err := p.children(&b, ""); err != nil {
		return "", fmt.Errorf("body at %d: %w", p.pos, err)
	}
	b.WriteString("</svg>")
	return b.String(), nil
}

func writeAttrs(b *strings.Builder, attrs [][2]string) {
	for _, a := range attrs {
		b.WriteString(" " + a[0] + `="`)
		xml.EscapeText(b, []byte(a[1]))
		b.WriteString(`"`)
	}
}

type jsxReader struct {
	s      string
	pos    int
	prefix string
}

func (p *jsxReader) space() {
	for p.pos < len(p.s) && strings.ContainsRune(" \n", rune(p.s[p.pos])) {
		p.pos++
	}
}

func (p *jsxReader) eat(tok string) bool {
	if strings.HasPrefix(p.s[p.pos:], tok) {
		p.pos += len(tok)
		return true
	}
	return false
}

var (
	jsxNameRun   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*`)
	reactToAttrs = func() map[string]string {
		m := map[string]string{"className": "class", "xmlnsXlink": "xmlns:xlink", "xmlSpace": "xml:space", "xmlLang": "xml:lang", "xmlBase": "xml:base"}
		for k, v := range reactAliases {
			m[v] = k
		}
		for _, l := range []string{"actuate", "arcrole", "href", "role", "show", "title", "type"} {
			m["xlink"+strings.ToUpper(l[:1])+l[1:]] = "xlink:" + l
		}
		return m
	}()
)

// attrs reads JSX attributes up to "/>" or ">".
func (p *jsxReader) attrs() ([][2]string, error) {
	var out [][2]string
	for {
		p.space()
		if p.pos == len(p.s) || p.s[p.pos] == '/' || p.s[p.pos] == '>' {
			return out, nil
		}
		var name, value string
		var err error
		if p.eat("{...{") {
			if name, err = p.jsonString(); err != nil {
				return nil, err
			}
			if !p.eat(": ") {
				return nil, errors.New("spread: want ': '")
			}
			if value, err = p.expr(); err != nil {
				return nil, err
			}
			if !p.eat("}}") {
				return nil, errors.New("spread: want '}}'")
			}
		} else {
			name = jsxNameRun.FindString(p.s[p.pos:])
			if name == "" {
				return nil, fmt.Errorf("want an attribute name at %q", p.s[p.pos:min(len(p.s), p.pos+20)])
			}
			p.pos += len(name)
			if !p.eat("=") {
				return nil, fmt.Errorf("attribute %s: want =", name)
			}
			switch {
			case p.eat(`"`):
				end := strings.IndexByte(p.s[p.pos:], '"')
				if end < 0 {
					return nil, errors.New("unterminated attribute string")
				}
				value = p.s[p.pos : p.pos+end]
				if !plainJSX(value) {
					return nil, fmt.Errorf("attribute string %q holds characters JSX would change", value)
				}
				p.pos += end + 1
			case p.eat("{"):
				if value, err = p.expr(); err != nil {
					return nil, err
				}
				if !p.eat("}") {
					return nil, fmt.Errorf("attribute %s: want }", name)
				}
			default:
				return nil, fmt.Errorf("attribute %s: want a value", name)
			}
		}
		if a, ok := reactToAttrs[name]; ok {
			name = a
		}
		out = append(out, [2]string{name, value})
	}
}

// expr reads a string literal, a template literal using ${p}, or a style
// object (returned as its CSS text).
func (p *jsxReader) expr() (string, error) {
	switch {
	case strings.HasPrefix(p.s[p.pos:], `"`):
		return p.jsonString()
	case p.eat("`"):
		var b strings.Builder
		for {
			if p.pos >= len(p.s) {
				return "", errors.New("unterminated template literal")
			}
			switch {
			case p.eat("`"):
				return b.String(), nil
			case p.eat("${p}"):
				b.WriteString(p.prefix)
			case p.eat("${"):
				return "", errors.New("template literal interpolates something other than p")
			case p.eat(`\`):
				if p.pos >= len(p.s) {
					return "", errors.New("dangling escape")
				}
				c := p.s[p.pos]
				p.pos++
				switch c {
				case 'n':
					b.WriteByte('\n')
				case 'r':
					b.WriteByte('\r')
				case 't':
					b.WriteByte('\t')
				case 'u':
					if p.pos+4 > len(p.s) {
						return "", errors.New("short \\u escape")
					}
					r, err := strconv.ParseUint(p.s[p.pos:p.pos+4], 16, 32)
					if err != nil {
						return "", err
					}
					b.WriteRune(rune(r))
					p.pos += 4
				case '\\', '`', '$':
					b.WriteByte(c)
				default:
					return "", fmt.Errorf("unexpected escape \\%c", c)
				}
			default:
				if c := p.s[p.pos]; c == '\n' || c == '\r' {
					return "", errors.New("raw line break in a template literal")
				}
				b.WriteByte(p.s[p.pos])
				p.pos++
			}
		}
	case p.eat("{ "):
		var decls []string
		for {
			k, err := p.jsonString()
			if err != nil {
				return "", err
			}
			if !p.eat(": ") {
				return "", errors.New("style: want ': '")
			}
			v, err := p.expr()
			if err != nil {
				return "", err
			}
			decls = append(decls, hyphenateStyle(k)+":"+strings.TrimSpace(v))
			if p.eat(" } as React.CSSProperties") {
				return strings.Join(decls, ";"), nil
			}
			if !p.eat(", ") {
				return "", errors.New("style: want ', '")
			}
		}
	}
	return "", fmt.Errorf("want an expression at %q", p.s[p.pos:min(len(p.s), p.pos+20)])
}

func (p *jsxReader) jsonString() (string, error) {
	if !strings.HasPrefix(p.s[p.pos:], `"`) {
		return "", errors.New("want a string")
	}
	d := json.NewDecoder(strings.NewReader(p.s[p.pos:]))
	var s string
	if err := d.Decode(&s); err != nil {
		return "", err
	}
	p.pos += int(d.InputOffset())
	return s, nil
}

// children reads elements and {text} until the closing tag of parent.
func (p *jsxReader) children(b *strings.Builder, parent string) error {
	for {
		p.space()
		switch {
		case p.pos == len(p.s):
			if parent != "" {
				return fmt.Errorf("<%s> not closed", parent)
			}
			return nil
		case p.eat("</"):
			name := jsxNameRun.FindString(p.s[p.pos:])
			p.pos += len(name)
			if name != parent || !p.eat(">") {
				return fmt.Errorf("</%s> closes <%s>", name, parent)
			}
			return nil
		case p.eat("{"):
			v, err := p.expr()
			if err != nil {
				return err
			}
			if !p.eat("}") {
				return errors.New("text: want }")
			}
			xml.EscapeText(b, []byte(v))
		case p.eat("<"):
			name := jsxNameRun.FindString(p.s[p.pos:])
			if name == "" || !jsxElements[name] && name != "style" && name != "title" {
				return fmt.Errorf("unexpected element <%s>", name)
			}
			p.pos += len(name)
			attrs, err := p.attrs()
			if err != nil {
				return fmt.Errorf("<%s>: %w", name, err)
			}
			b.WriteString("<" + name)
			writeAttrs(b, attrs)
			b.WriteString(">")
			if !p.eat("/>") {
				if !p.eat(">") {
					return fmt.Errorf("<%s>: want > or />", name)
				}
				if err := p.children(b, name); err != nil {
					return err
				}
			}
			b.WriteString("</" + name + ">")
		default:
			return fmt.Errorf("unexpected %q", p.s[p.pos:min(len(p.s), p.pos+20)])
		}
	}
}

// hyphenateStyle is React's hyphenateStyleName: the CSS property of a style
// key.
func hyphenateStyle(k string) string {
	if strings.HasPrefix(k, "--") {
		return k
	}
	var b strings.Builder
	for _, r := range k {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('-')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	s := b.String()
	if strings.HasPrefix(s, "ms-") {
		s = "-" + s
	}
	return s
}

// toJSX parses data and converts it.
func toJSX(data []byte, prefix string) (*JSX, error) {
	d, probs := Parse("", data)
	if d == nil {
		return nil, probs
	}
	return ToJSX(d, prefix)
}

// FuzzPlainJSX checks plainJSX's byte loop against the rune loop it
// hands over to: the same answer for any string.
func FuzzPlainJSX(f *testing.F) {
	for _, s := range []string{"", "M0 0h24v24H0z", "url(#a)", `a"b`, "a&b", `\`, "{", "}", "<", ">", "\x7f", "\t", "é", "é\"", "\u200f", "\u2028x", "\xff", "a\u0085"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := plainJSX(s), plainJSXRunes(s); got != want {
			t.Errorf("plainJSX(%q) = %v, the rune loop says %v", s, got, want)
		}
	})
}
