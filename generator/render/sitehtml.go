package render

import (
	"bytes"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tdewolff/minify/v2/css"
)

// The logo page is written here in Go, for the embedded templates, as
// site-logo.html.tmpl and the layout's "head" and "foot" write it: the
// same bytes, before the minifier. html/template spent 400 µs a page, most
// of it the reflection that calls each escaper: 15% of a clean build's
// CPU. TestLogoPageHTML and FuzzLogoPageHTML compare the two; a change to
// the templates fails them until this follows.
//
// Text and quoted attributes get html/template's replacement table
// (escapeHTMLOnto). A URL attribute gets it too, which is all
// html/template does to a URL its filter lets through and its normaliser
// leaves as it is; plainURL says which, and a page with any other URL is
// executed by the template.

// htmlWriter writes a page: w.s as it is, the values escaped: w.e in text
// or a quoted attribute, w.pre in a <pre>, w.hex in the swatch's SVG and
// w.fill as its colour. With sk set it writes the page's skeleton
// instead, each value (but an empty one) a placeholder kept in sk.
type htmlWriter struct {
	*bytes.Buffer
	sk *skeletonValues
}

func (w htmlWriter) s(s string)    { w.WriteString(s) }
func (w htmlWriter) e(s string)    { w.value(s, inText) }
func (w htmlWriter) pre(s string)  { w.value(s, inPre) }
func (w htmlWriter) hex(s string)  { w.value(s, inSVG) }
func (w htmlWriter) fill(s string) { w.value(s, inSVGColour) }

func (w htmlWriter) value(s string, k valueKind) {
	if w.sk == nil || s == "" {
		escapeHTMLOnto(w.Buffer, s)
		return
	}
	w.sk.add(w.Buffer, s, k)
}

// plainURL reports whether html/template writes s, in a URL attribute,
// escaped as in any other attribute: its scheme, if any, is http, https or
// mailto (urlFilter), and every byte is one its normaliser keeps (a
// letter, a digit, -._~!#$&*+,/:;=?@[] or % and two hex digits).
func plainURL(s string) bool {
	if scheme, _, ok := strings.Cut(s, ":"); ok && !strings.Contains(scheme, "/") &&
		!strings.EqualFold(scheme, "http") && !strings.EqualFold(scheme, "https") && !strings.EqualFold(scheme, "mailto") {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("-._~!#$&*+,/:;=?@[]", c) >= 0:
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
		default:
			return false
		}
	}
	return true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// plainQuery reports whether html/template writes s after a "?" in a URL
// attribute as it is (its urlEscaper keeps only unreserved bytes).
func plainQuery(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '.', c == '_', c == '~':
		default:
			return false
		}
	}
	return true
}

// plain reports whether the tile's URLs are plain: plainURL, and for
// the srcset (Dark), which html/template splits at commas and spaces,
// none of those.
func (t tileView) plain() bool {
	return plainURL(t.Icon) && plainURL(t.Dark) && !strings.ContainsAny(t.Dark, ", \t\n\f\r")
}

// plainURLs reports whether every value the logo page puts in a URL
// attribute is plain, so that html writes the template's bytes.
func (d *logoData) plainURLs() bool {
	if !d.Tile.plain() {
		return false
	}
	for _, u := range []string{d.Root, d.CSS, d.JS, d.Icon, d.URL, d.Logo.Guidelines, d.Logo.Slug} {
		if !plainURL(u) {
			return false
		}
	}
	for _, c := range d.Categories {
		if !plainQuery(c.Slug) {
			return false
		}
	}
	for i := range d.Variants {
		v := &d.Variants[i]
		if !plainURL(v.File) || !plainURL(v.Source) || !plainURL(v.LicenseURL) {
			return false
		}
	}
	return true
}

// html writes the page as site-logo.html.tmpl does.
func (d *logoData) html(b *bytes.Buffer) {
	d.write(htmlWriter{Buffer: b})
}

// write writes the page, or its skeleton, to w.
func (d *logoData) write(w htmlWriter) {
	w.s("\n")
	d.pageData.headTop(w)
	d.pageData.header(w)
	d.rest(w)
}

// rest writes the page after its header.
func (d *logoData) rest(w htmlWriter) {
	w.s("\n<main id=\"main\" class=\"wrap logo-page\">\n  <p class=\"crumbs\"><a href=\"")
	w.e(d.Root)
	w.s(`">← All logos</a></p>
  <section class="hero" aria-labelledby="logo-name">
    <div class="hero-tile">`)
	if d.Tile.Dark != "" {
		w.s(`<picture><source media="(prefers-color-scheme: dark)" srcset="`)
		w.e(d.Tile.Dark)
		w.s(`">`)
	}
	w.s(`<img src="`)
	w.e(d.Tile.Icon)
	w.s(`" alt="`)
	w.e(d.Logo.Name)
	w.s(` icon" width="96" height="96"`)
	if d.Tile.Plate {
		w.s(` class="plate"`)
	}
	w.s(`>`)
	if d.Tile.Dark != "" {
		w.s(`</picture>`)
	}
	w.s(`
    </div>
    <div class="hero-text">
      <h1 id="logo-name">`)
	w.e(d.Logo.Name)
	w.s(`</h1>
      <dl class="facts">
        <div><dt>Brand colour</dt><dd class="colour">
          <svg class="swatch" viewBox="0 0 88 30" width="88" height="30" role="img" aria-label="`)
	w.hex(d.Swatch.Hex)
	w.s(`" focusable="false"><rect x="0.5" y="0.5" width="87" height="29" rx="7" fill="`)
	w.fill(d.Swatch.Hex)
	w.s(`"/><text id="hex" x="44" y="20" text-anchor="middle" fill="`)
	w.fill(d.Swatch.Text)
	w.s(`">`)
	w.hex(d.Swatch.Hex)
	w.s(`</text></svg>
          <button type="button" class="button small" data-copy-target="hex" data-copy-what="Brand colour">Copy</button>
        </dd></div>
        <div><dt>Categories</dt><dd><ul class="inline-list">`)
	for _, c := range d.Categories {
		w.s(`<li><a href="`)
		w.e(d.Root)
		w.s(`?category=`)
		w.e(c.Slug)
		w.s(`">`)
		w.e(c.Name)
		w.s(`</a></li>`)
	}
	w.s(`</ul></dd></div>`)
	if len(d.Logo.Aliases) > 0 {
		w.s(`
        <div><dt>Also known as</dt><dd><ul class="inline-list">`)
		for _, a := range d.Logo.Aliases {
			w.s(`<li>`)
			w.e(a)
			w.s(`</li>`)
		}
		w.s(`</ul></dd></div>`)
	}
	if d.Logo.Guidelines != "" {
		w.s(`
        <div><dt>Brand guidelines</dt><dd><a href="`)
		w.e(d.Logo.Guidelines)
		w.s(`" rel="noopener">`)
		w.e(d.Logo.Guidelines)
		w.s(`</a></dd></div>`)
	}
	w.s(`
      </dl>
    </div>
  </section>

  <section aria-labelledby="variants-heading">
    <h2 id="variants-heading">Variants</h2>
    <div class="variants">`)
	for i := range d.Variants {
		d.Variants[i].html(w)
	}
	w.s(`
    </div>
  </section>

  <section class="component" aria-labelledby="component-heading">
    <h2 id="component-heading">Component</h2>
    <dl class="code-facts">
      <div><dt>Name</dt><dd><code>`)
	w.e(d.Logo.Component)
	w.s(`</code></dd></div>
      <div><dt>Install</dt><dd class="code-row"><pre><code id="install">`)
	w.pre(d.Logo.Install)
	w.s(`</code></pre>
        <button type="button" class="button" data-copy-target="install" data-copy-what="Install command">Copy</button></dd></div>
      <div><dt>Use</dt><dd class="code-row"><pre><code id="usage">`)
	w.pre(d.Usage)
	w.s(`</code></pre>
        <button type="button" class="button" data-copy-target="usage" data-copy-what="Usage">Copy</button></dd></div>
    </dl>
  </section>

  <section class="api" aria-labelledby="api-heading">
    <h2 id="api-heading">Data</h2>
    <dl class="code-facts">
      <div><dt>Detail JSON</dt><dd><code>`)
	w.e(d.DetailURL)
	w.s(`</code> (<a href="`)
	w.e(d.Root)
	w.s(`api/logos/`)
	w.e(d.Logo.Slug)
	w.s(`.json">open</a>)</dd></div>
      <div><dt>This page</dt><dd><code>`)
	w.e(d.Logo.Page)
	w.s(`</code></dd></div>
    </dl>
  </section>
</main>
`)
	d.pageData.foot(w)
	w.s("\n")
}

// html writes one variant's article of the logo page.
func (v *variantView) html(w htmlWriter) {
	w.s(`
      <article class="variant" id="variant-`)
	w.e(v.Name)
	w.s(`" aria-labelledby="variant-`)
	w.e(v.Name)
	w.s(`-title">
        <h3 id="variant-`)
	w.e(v.Name)
	w.s(`-title">`)
	w.e(v.Label)
	w.s(` <code class="variant-name">`)
	w.e(v.Name)
	w.s(`</code></h3>
        <p class="note">`)
	w.e(v.Note)
	w.s(`</p>
        <div class="previews`)
	if v.OnLight && v.OnDark {
		w.s(` both`)
	}
	w.s(`">`)
	width, height := strconv.Itoa(v.Width), strconv.Itoa(v.Height)
	if v.OnLight {
		w.s(`
          <figure class="preview on-light">
            <img src="`)
		w.e(v.File)
		w.s(`" alt="`)
		w.e(v.Alt)
		w.s(` on a light background" width="`)
		w.e(width)
		w.s(`" height="`)
		w.e(height)
		w.s(`">
            <figcaption>On light</figcaption>
          </figure>`)
	}
	if v.OnDark {
		w.s(`
          <figure class="preview on-dark">
            <img`)
		if v.Mono {
			w.s(` class="mono"`)
		}
		w.s(` src="`)
		w.e(v.File)
		w.s(`" alt="`)
		w.e(v.Alt)
		w.s(` on a dark background" width="`)
		w.e(width)
		w.s(`" height="`)
		w.e(height)
		w.s(`">
            <figcaption>On dark</figcaption>
          </figure>`)
	}
	w.s(`
        </div>
        <dl class="file-facts">
          <div><dt>URL</dt><dd><code class="url" id="url-`)
	w.e(v.Name)
	w.s(`">`)
	w.e(v.URL)
	w.s(`</code></dd></div>
          <div><dt>Source</dt><dd><a href="`)
	w.e(v.Source)
	w.s(`" rel="noopener">`)
	w.e(v.Source)
	w.s(`</a></dd></div>
          <div><dt>Licence</dt><dd>`)
	if v.LicenseURL != "" {
		w.s(`<a href="`)
		w.e(v.LicenseURL)
		w.s(`" rel="noopener">`)
		w.e(v.License)
		w.s(`</a>`)
	} else {
		w.e(v.License)
	}
	w.s(`</dd></div>
        </dl>
        <div class="actions">
          <button type="button" class="button" data-copy-svg="`)
	w.e(v.File)
	w.s(`" data-copy-what="`)
	w.e(v.Name)
	w.s(`.svg">Copy SVG</button>
          <a class="button" href="`)
	w.e(v.File)
	w.s(`" download="`)
	w.e(v.Download)
	w.s(`">Download</a>
          <button type="button" class="button" data-copy-target="url-`)
	w.e(v.Name)
	w.s(`" data-copy-what="URL of `)
	w.e(v.Name)
	w.s(`.svg">Copy URL</button>
        </div>
      </article>`)
}

// headTop writes the layout's "head" template up to the header.
func (p *pageData) headTop(w htmlWriter) {
	w.s(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'">
<meta name="color-scheme" content="light dark">
<title>`)
	w.e(p.Title)
	w.s(`</title>
<meta name="description" content="`)
	w.e(p.Description)
	w.s(`">`)
	if p.URL != "" {
		w.s(`
<link rel="canonical" href="`)
		w.e(p.URL)
		w.s(`">`)
	}
	w.s(`
<meta property="og:type" content="website">
<meta property="og:site_name" content="Logo index">
<meta property="og:title" content="`)
	w.e(p.Title)
	w.s(`">
<meta property="og:description" content="`)
	w.e(p.Description)
	w.s(`">`)
	if p.URL != "" {
		w.s(`
<meta property="og:url" content="`)
		w.e(p.URL)
		w.s(`">
<meta property="og:image" content="`)
		w.e(p.Image)
		w.s(`">
<meta property="og:image:type" content="image/svg+xml">
<meta property="og:image:alt" content="`)
		w.e(p.ImageAlt)
		w.s(`">`)
	}
	w.s(`
<meta name="twitter:card" content="summary">
<meta name="twitter:title" content="`)
	w.e(p.Title)
	w.s(`">
<meta name="twitter:description" content="`)
	w.e(p.Description)
	w.s(`">`)
	if p.Image != "" {
		w.s(`
<meta name="twitter:image" content="`)
		w.e(p.Image)
		w.s(`">
<meta name="twitter:image:alt" content="`)
		w.e(p.ImageAlt)
		w.s(`">`)
	}
	w.s(`
<link rel="icon" href="`)
	w.e(p.Icon)
	w.s(`" type="image/svg+xml">
<link rel="stylesheet" href="`)
	w.e(p.Root)
	w.e(p.CSS)
	w.s(`">
<script src="`)
	w.e(p.Root)
	w.e(p.JS)
	w.s(`"></script>
</head>
<body data-page="`)
	w.e(p.Page)
	w.s(`">
<a class="skip" href="#main">Skip to content</a>
`)
}

// header writes the page's top bar, the end of the layout's "head".
func (p *pageData) header(w htmlWriter) {
	w.s(`<header class="topbar">
  <div class="wrap topbar-inner">
    <a class="brand" href="`)
	if p.Root != "" {
		w.e(p.Root)
	} else {
		w.s(`./`)
	}
	w.s(`"><img src="`)
	w.e(p.Root)
	w.s(`favicon.svg" alt="" width="28" height="28">Logo index</a>
    
    <button type="button" class="theme-toggle needs-js" data-theme-toggle>
      <svg class="theme-glyph to-dark" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false"><path d="M21 14.5A8.5 8.5 0 0 1 9.5 3a8.5 8.5 0 1 0 11.5 11.5z" fill="currentColor"/></svg>
      <svg class="theme-glyph to-light" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false"><circle cx="12" cy="12" r="4.5" fill="currentColor"/><path d="M12 1.5v3M12 19.5v3M1.5 12h3M19.5 12h3M4.6 4.6l2.1 2.1M17.3 17.3l2.1 2.1M4.6 19.4l2.1-2.1M17.3 6.7l2.1-2.1" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>
      <span class="to-dark">Dark theme</span><span class="to-light">Light theme</span>
    </button>
  </div>
</header>
`)
}

// foot writes the layout's "foot" template.
func (p *pageData) foot(w htmlWriter) {
	w.s(`
<footer class="footer">
  <div class="wrap">
    <p>Every file here is static: the list of logos is <a href="`)
	w.e(p.Root)
	w.s(`api/logos.json">api/logos.json</a>, and each logo has its own <code>api/logos/&lt;slug&gt;.json</code>. Logos are trademarks of their owners; each file names its source and licence.</p>
  </div>
</footer>
<p class="visually-hidden" role="status" aria-live="polite" data-announce></p>
</body>
</html>
`)
}

// A logo page's minified bytes, but for its values, depend only on which
// sections it has: its skeleton, the page with each value a placeholder,
// minifies the same way for every page of that shape. logoPageSkeleton
// minifies each skeleton once and fills in the values, where a value is
// one the minifier leaves as it is (fits). The minifier took 230 µs a
// page, 14% of a clean build's CPU; simple-icons' 3,470 pages have 44
// skeletons, and the 11 with an & in the name are minified.
// TestLogoPageHTML, FuzzLogoPageHTML and TestLogoPagesBothWays hold the
// pages to the page minified whole.

// valueKind is where a page puts a value, which decides what the
// minifier does to it.
type valueKind uint8

const (
	inText      valueKind = iota // text, or a quoted attribute of the HTML
	inPre                        // text in a <pre>, which the minifier keeps as it is
	inSVG                        // the swatch's label and text
	inSVGColour                  // the swatch's colours
)

// skeletonValues is the values of a page's skeleton, in order.
type skeletonValues struct {
	vals []skeletonValue
	odd  bool // a value does not fit: the page is minified
}

type skeletonValue struct {
	s      string
	kind   valueKind
	spaced bool // its placeholder has a space: see fits
}

// add writes the placeholder of value s (appendPlaceholder).
func (sk *skeletonValues) add(b *bytes.Buffer, s string, k valueKind) {
	spaced, ok := fits(s, k)
	if !ok {
		sk.odd = true
	}
	b.Write(appendPlaceholder(b.AvailableBuffer(), len(sk.vals), spaced))
	sk.vals = append(sk.vals, skeletonValue{s, k, spaced})
}

// appendPlaceholder appends the placeholder of value i: "Qz" and i, then
// "q", or " q" where the value has a byte that makes the minifier quote
// an attribute, as the space makes it quote the placeholder.
func appendPlaceholder(b []byte, i int, spaced bool) []byte {
	b = strconv.AppendInt(append(b, "Qz"...), int64(i), 10)
	if spaced {
		b = append(b, ' ')
	}
	return append(b, 'q')
}

// fits reports whether the minified page holds s as the minified
// skeleton holds its placeholder, but for what fill writes in its place,
// and whether the placeholder needs a space. In text and attributes the
// minifier turns html/template's &#39; &#43; and &gt; back into ' + and >,
// and quotes an attribute with a space, ' = > or `. It would change other
// values: " < & (entities it keeps or requotes), other white space, a
// space at either end or two together (trimmed or collapsed), invalid
// UTF-8 and an http or data: scheme at the start of a URL (which it
// lower-cases or rewrites). In a <pre> it changes nothing. In the
// swatch's SVG a value is a colour: # and hex digits.
func fits(s string, k valueKind) (spaced, ok bool) {
	switch k {
	case inPre:
		return false, true
	case inSVG, inSVGColour:
		if len(s) < 2 || s[0] != '#' {
			return false, false
		}
		for i := 1; i < len(s); i++ {
			if !isHex(s[i]) {
				return false, false
			}
		}
		return false, true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false, false
	}
	ascii := true
	for i := 0; i < len(s); i++ {
		switch textBytes[s[i]] {
		case byteOdd:
			return false, false
		case byteSpace:
			if s[i+1] == ' ' {
				return false, false
			}
			spaced = true
		case byteQuoted:
			spaced = true
		case byteHigh:
			ascii = false
		}
	}
	if !ascii && !utf8.ValidString(s) {
		return false, false
	}
	if len(s) > 5 && (strings.EqualFold(s[:5], "data:") || strings.EqualFold(s[:4], "http") && s[:5] != strings.ToLower(s[:5])) {
		return false, false
	}
	return spaced, true
}

// textBytes sorts the bytes of a value in text for fits.
var textBytes = func() (t [256]uint8) {
	for c := range t {
		switch {
		case c < 0x20 || c == 0x7f || c == '"' || c == '&' || c == '<':
			t[c] = byteOdd
		case c == ' ':
			t[c] = byteSpace
		case c == '\'' || c == '=' || c == '>' || c == '`':
			t[c] = byteQuoted
		case c >= 0x80:
			t[c] = byteHigh
		}
	}
	return t
}()

const (
	bytePlain  = iota
	byteOdd    // the minifier changes it
	byteSpace  // makes the minifier quote an attribute, and must be alone
	byteQuoted // makes the minifier quote an attribute
	byteHigh   // part of a UTF-8 sequence, which must be valid
)

// fill writes what the minified page holds for v.
func (v skeletonValue) fill(b []byte) []byte {
	switch v.kind {
	case inPre:
		var w bytes.Buffer
		escapeHTMLOnto(&w, v.s)
		return append(b, w.Bytes()...)
	case inSVGColour:
		// The SVG minifier's colour attributes: a name where shorter,
		// else #abc for #aabbcc.
		if name, ok := css.ShortenColorHex[v.s]; ok {
			return append(b, name...)
		}
		if s := v.s; len(s) == 7 && s[1] == s[2] && s[3] == s[4] && s[5] == s[6] {
			return append(b, '#', s[1], s[3], s[5])
		}
	}
	return append(b, v.s...)
}

// pageSkeleton is a minified skeleton: parts[i] comes before value i,
// and the last part after the last value.
type pageSkeleton struct {
	parts []string
	size  int
}

// maxSkeletons bounds the skeletons a Renderer keeps (each about 16 KB,
// as key and parts): past it, a page of a shape not kept is minified.
const maxSkeletons = 256

// logoPageSkeleton writes the minified logo page from its skeleton. It
// reports false when the page is minified instead: a value does not fit,
// or the skeleton's placeholders are not all in the minified skeleton,
// in order.
func (r *siteRenderer) logoPageSkeleton(d *logoData) ([]byte, bool, error) {
	if d.Root != logoRoot { // a constant, so no two values make one URL
		return nil, false, nil
	}
	sk := skeletonPool.Get().(*pageScratch)
	defer skeletonPool.Put(sk)
	sk.raw.Reset()
	sk.vals, sk.odd = sk.vals[:0], false
	d.write(htmlWriter{&sk.raw, &sk.skeletonValues})
	return r.fillSkeleton(nil, sk.raw.Bytes(), &sk.skeletonValues)
}

// pageScratch is a logo page's skeleton and values as they are written,
// kept from page to page: they were a tenth of the bytes a build allocates.
// Neither outlives logoPageSkeleton: fillSkeleton copies what it keeps.
type pageScratch struct {
	raw bytes.Buffer
	skeletonValues
}

var skeletonPool = sync.Pool{New: func() any {
	sk := &pageScratch{skeletonValues: skeletonValues{vals: make([]skeletonValue, 0, 128)}}
	sk.raw.Grow(16 << 10)
	return sk
}}

// fillSkeleton appends to b what the minifier makes of a page or a
// fragment written as the skeleton raw with the values sk: the skeleton
// minified (once for each skeleton, kept in r.skeletons) with the values
// filled in. It reports false, and appends nothing, when a value does not
// fit or the minified skeleton does not hold the placeholders.
func (r *siteRenderer) fillSkeleton(b, raw []byte, sk *skeletonValues) ([]byte, bool, error) {
	if sk.odd {
		return b, false, nil
	}
	r.skeletonMu.RLock()
	p, found := r.skeletons[string(raw)]
	r.skeletonMu.RUnlock()
	if !found {
		var err error
		if p, err = r.minifySkeleton(raw, sk.vals); err != nil {
			return b, false, err
		}
		r.skeletonMu.Lock()
		if len(r.skeletons) < maxSkeletons {
			if r.skeletons == nil {
				r.skeletons = map[string]*pageSkeleton{}
			}
			r.skeletons[string(raw)] = p
		}
		r.skeletonMu.Unlock()
	}
	if p == nil {
		return b, false, nil
	}
	if b == nil {
		b = make([]byte, 0, p.size+len(raw)/4)
	}
	for i, v := range sk.vals {
		b = append(b, p.parts[i]...)
		b = v.fill(b)
	}
	return append(b, p.parts[len(sk.vals)]...), true, nil
}

// minifySkeleton minifies a skeleton and cuts it at the placeholders. It
// returns nil if they are not each there once, in order.
func (r *siteRenderer) minifySkeleton(raw []byte, vals []skeletonValue) (*pageSkeleton, error) {
	var min bytes.Buffer
	if err := r.m.Minify("text/html", &min, bytes.NewReader(raw)); err != nil {
		return nil, err
	}
	rest := min.String()
	p := &pageSkeleton{size: len(rest)}
	var ph []byte
	for i, v := range vals {
		ph = appendPlaceholder(ph[:0], i, v.spaced)
		at := strings.Index(rest, "Qz")
		if at < 0 || !strings.HasPrefix(rest[at:], string(ph)) {
			return nil, nil
		}
		p.parts = append(p.parts, rest[:at])
		rest = rest[at+len(ph):]
	}
	if strings.Contains(rest, "Qz") {
		return nil, nil
	}
	p.parts = append(p.parts, rest)
	return p, nil
}
