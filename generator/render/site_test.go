package render

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator/check"
	"logoindex/generator/svg"
	"logoindex/templates"
)

// siteTestBase is the base URL of the site renderers of these tests.
const siteTestBase = "https://cdn.example/logos"

// siteForTest is the site renderer of the embedded templates.
func siteForTest(t testing.TB) *siteRenderer {
	t.Helper()
	r, _, err := newSiteRenderer(siteTestBase, templates.FS)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestPageBuffer writes pages of many sizes into a pageBuffer, in pieces
// of many sizes, up to a page of 20 MB (as large as a big collection's
// gallery, in far more blocks than the first few, whose size grows by a
// shift), and reads each back whole, with the byte of room the HTML lexer
// wants.
func TestPageBuffer(t *testing.T) {
	for _, size := range []int{0, 1, 4 << 10, 5000, 300 << 10, 20 << 20} {
		want := make([]byte, size)
		for i := range want {
			want[i] = byte(i*7 + i/4096)
		}
		var p pageBuffer
		for rest, i := want, 0; len(rest) > 0; i++ {
			n := min(len(rest), 1+i*37%9000)
			if k, err := p.Write(rest[:n]); k != n || err != nil {
				t.Fatalf("size %d: Write = %d, %v", size, k, err)
			}
			rest = rest[n:]
		}
		got := p.Bytes()
		if !bytes.Equal(got, want) {
			t.Errorf("size %d: read back %d bytes, differing", size, len(got))
		}
		if cap(got) <= len(got) {
			t.Errorf("size %d: no room for one more byte", size)
		}
	}
}

// galleryBothWays renders the gallery of logos a card a piece and whole.
func galleryBothWays(t testing.TB, logos []*Summary) (pieces, whole string) {
	t.Helper()
	r := siteForTest(t)
	if !r.pieces {
		t.Fatal("the embedded templates are not minified in pieces")
	}
	cats := []IndexCategory{{Slug: "tools", Name: "Tools", Count: len(logos)}}
	var a, b bytes.Buffer
	if err := r.galleryTo(&a, cats, MemSummaries(logos)); err != nil {
		t.Fatal(err)
	}
	r.pieces = false
	if err := r.galleryTo(&b, cats, MemSummaries(logos)); err != nil {
		t.Fatal(err)
	}
	return a.String(), b.String()
}

// TestGalleryPieces: the gallery minified a card at a time is byte for
// byte the gallery minified whole, for the text a logo can bring to its
// card: spaces at either end, runs of white space, entities, markup, a
// template's braces and an end tag among them.
func TestGalleryPieces(t *testing.T) {
	defer func(n int) { galleryPiece = n }(galleryPiece)
	galleryPiece = 1
	odd := []string{
		"Acme", " Lead", "Trail ", "  two  spaces  ", "tab\tand\nnewline", "\u00a0nbsp\u00a0",
		"a & b", "&amp;", "<b>bold</b>", "</li><li>", "{{.Slug}}", "</p>", "<!--", "<script>x</script>",
		"<pre>", "\"quoted\" 'single'", "é 東京 🙂", "",
	}
	var logos []*Summary
	for i, name := range odd {
		logos = append(logos, &Summary{
			Slug: fmt.Sprintf("logo-%d", i), Name: name, Hex: "#" + strings.Repeat(strconv.Itoa(i%10), 6),
			Categories: []string{"tools"}, Aliases: []string{name, odd[(i+1)%len(odd)]},
			Variants: []string{"icon"}, DarkIcon: i%2 == 0, IconOnDark: i%3 == 0,
		})
	}
	for _, n := range []int{0, 1, 2, len(logos)} {
		for _, size := range []int{1, 200, 64 << 10} {
			galleryPiece = size
			pieces, whole := galleryBothWays(t, logos[:n])
			if diff := cmp.Diff(whole, pieces); diff != "" {
				t.Errorf("%d logos, pieces of %d bytes: (-whole +pieces):\n%s", n, size, diff)
			}
		}
	}
}

// FuzzGalleryPieces holds the gallery minified a card at a time to the
// gallery minified whole, for any name, alias and colour of three logos.
func FuzzGalleryPieces(f *testing.F) {
	f.Add(" a  b ", "x\ny", "#FFFFFF", uint8(3))
	f.Add("</li>", "<p>", "&lt;", uint8(0))
	f.Fuzz(func(t *testing.T, name, alias, hex string, mask uint8) {
		defer func(n int) { galleryPiece = n }(galleryPiece)
		galleryPiece = 1
		var logos []*Summary
		for i := range 3 {
			l := &Summary{Slug: fmt.Sprintf("l%d", i), Name: name, Hex: hex, Variants: []string{"icon"}, DarkIcon: mask&(1<<i) != 0}
			if mask&(8<<i) != 0 {
				l.Aliases = []string{alias, name}
				l.Categories = []string{alias}
			}
			logos = append(logos, l)
		}
		pieces, whole := galleryBothWays(t, logos)
		if pieces != whole {
			t.Errorf("pieces differ from the whole page:\n%s", cmp.Diff(whole, pieces))
		}
	})
}

// TestSitemapEscapes holds each URL of a sitemap to xml.EscapeText of the
// whole URL, for a base and paths that need escaping and ones that do
// not: the base is escaped once and a plain path not at all.
func TestSitemapEscapes(t *testing.T) {
	for _, base := range []string{"https://x.example", "https://x.example/a&b'<\">", "https://x.example/é\u00a0\x7f"} {
		paths := []string{"github", "a&b", "é", "tab\there", "new\nline", "bad\xffbyte", "plain-1"}
		var got bytes.Buffer
		err := sitemaps(base, len(paths), func(fn func(string) error) error {
			for _, p := range paths {
				if err := fn(p); err != nil {
					return err
				}
			}
			return nil
		}, func(name string, write func(io.Writer) error) error { return write(&got) })
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		want.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		for _, p := range append([]string{""}, paths...) {
			if p != "" {
				p = logoDir(p) + "/"
			}
			want.WriteString("<url><loc>")
			xml.EscapeText(&want, []byte(base+"/"+p))
			want.WriteString("</loc></url>\n")
		}
		want.WriteString("</urlset>\n")
		if diff := cmp.Diff(want.String(), got.String()); diff != "" {
			t.Errorf("base %q (-xml.EscapeText +sitemaps):\n%s", base, diff)
		}
	}
	for c := range 256 {
		s := string([]byte{'a', byte(c)})
		var esc bytes.Buffer
		xml.EscapeText(&esc, []byte(s))
		if plainXML(s) && esc.String() != s {
			t.Errorf("plainXML(%q) is true, but xml.EscapeText gives %q", s, esc.String())
		}
	}
	if !plainXML("logos/github-2/") {
		t.Error("a logo page's path is not plain")
	}
}

// TestSitemapIndex: more logos than a sitemap may list give sitemap-1.xml,
// sitemap-2.xml... with every URL once, in order, and sitemap.xml as
// their index.
func TestSitemapIndex(t *testing.T) {
	var slugs []string
	for i := range sitemapMaxURLs + 10 {
		slugs = append(slugs, fmt.Sprintf("l%06d", i))
	}
	var files []File
	each := func(fn func(string) error) error {
		for _, s := range slugs {
			if err := fn(s); err != nil {
				return err
			}
		}
		return nil
	}
	err := sitemaps("https://x.example", len(slugs), each, func(name string, write func(io.Writer) error) error {
		var b bytes.Buffer
		err := write(&b)
		files = append(files, File{Name: name, Data: b.Bytes()})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	if diff := cmp.Diff([]string{"sitemap-1.xml", "sitemap-2.xml", "sitemap.xml"}, names); diff != "" {
		t.Fatalf("files (-want +got):\n%s", diff)
	}
	if n := bytes.Count(files[0].Data, []byte("<url>")); n != sitemapMaxURLs {
		t.Errorf("sitemap-1.xml has %d URLs, want %d", n, sitemapMaxURLs)
	}
	if n := bytes.Count(files[1].Data, []byte("<url>")); n != 11 { // the gallery and 10 logos
		t.Errorf("sitemap-2.xml has %d URLs, want 11", n)
	}
	// Every URL once, in order, across the two files.
	wantURLs := []string{"https://x.example/"}
	for _, s := range slugs {
		wantURLs = append(wantURLs, "https://x.example/logos/"+s+"/")
	}
	var urls []string
	for _, f := range files[:2] {
		for _, m := range regexp.MustCompile(`<url><loc>([^<]*)</loc></url>`).FindAllSubmatch(f.Data, -1) {
			urls = append(urls, string(m[1]))
		}
	}
	if diff := cmp.Diff(wantURLs, urls); diff != "" {
		t.Errorf("URLs (-want +got):\n%s", diff)
	}
	want := "<sitemap><loc>https://x.example/sitemap-1.xml</loc></sitemap>\n<sitemap><loc>https://x.example/sitemap-2.xml</loc></sitemap>\n"
	if !bytes.Contains(files[2].Data, []byte(want)) || !bytes.HasPrefix(files[2].Data, []byte(`<?xml version="1.0" encoding="UTF-8"?>`+"\n<sitemapindex ")) {
		t.Errorf("sitemap.xml is not their index:\n%s", files[2].Data)
	}
}

// TestBackgroundsAndTiles: on which backgrounds a logo page shows each
// variant, how the gallery shows an icon in both themes, and the colour
// of the text on the brand colour's chip.
func TestBackgroundsAndTiles(t *testing.T) {
	paints := func(colours ...svg.RGB) *svg.Info {
		info := &svg.Info{}
		for _, c := range colours {
			info.Paints = append(info.Paints, svg.PaintUse{Colour: c})
		}
		return info
	}
	var (
		orange = svg.RGB{R: 0xFF, G: 0x55, B: 0x00} // 6.3:1 against #0D1117
		black  = svg.RGB{}                          // 1.1:1
	)
	for _, tc := range []struct {
		variant     string
		info        *svg.Info
		light, dark bool
	}{
		{"icon", paints(orange), true, true},
		{"icon", paints(orange, black), true, false}, // one dark paint is enough to vanish
		{"icon", paints(), true, false},              // only gradients or currentColor: unknown
		{"icon", nil, true, false},
		{"wordmark", paints(orange), true, true},
		{"wordmark", paints(black), true, false},
		{"icon-mono", nil, true, true},
		{"icon-dark", paints(black), false, true}, // meant for dark, whatever it paints
		{"wordmark-dark", paints(orange), false, true},
	} {
		light, dark := backgrounds(&check.Variant{Name: tc.variant, Info: tc.info})
		if light != tc.light || dark != tc.dark {
			t.Errorf("%s painting %v: on light %v, on dark %v; want %v, %v", tc.variant, tc.info, light, dark, tc.light, tc.dark)
		}
	}

	logo := func(vs ...*check.Variant) *check.Logo { return &check.Logo{Slug: "x", Variants: vs} }
	for _, tc := range []struct {
		name string
		logo *check.Logo
		want tileView
	}{
		{"reads on dark", logo(&check.Variant{Name: "icon", Info: paints(orange)}), tileView{Icon: "p/icon.svg"}},
		{"has icon-dark", logo(&check.Variant{Name: "icon", Info: paints(black)}, &check.Variant{Name: "icon-dark", Info: paints(orange)}), tileView{Icon: "p/icon.svg", Dark: "p/icon-dark.svg"}},
		{"neither: a light plate", logo(&check.Variant{Name: "icon", Info: paints(black)}), tileView{Icon: "p/icon.svg", Plate: true}},
	} {
		if got := newTile(Summarize(tc.logo), "p/"); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}

	for hex, text := range map[string]string{"#181717": "#FFFFFF", "#FFFFFF": "#000000", "#F7DF1E": "#000000", "#0B57C2": "#FFFFFF"} {
		if got := newSwatch(hex); got.Text != text {
			t.Errorf("swatch of %s writes its hex in %s, want %s", hex, got.Text, text)
		}
	}
}
