package generator

import (
	"bytes"
	"strconv"
	"strings"
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

// htmlWriter writes a page: w.s as it is, w.e escaped.
type htmlWriter struct{ *bytes.Buffer }

func (w htmlWriter) s(s string) { w.WriteString(s) }
func (w htmlWriter) e(s string) { escapeHTMLOnto(w.Buffer, s) }

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
	w := htmlWriter{b}
	d.top(w)
	d.pageData.header(w)
	d.rest(w)
}

// top writes the page up to its header.
func (d *logoData) top(w htmlWriter) {
	w.s("\n")
	d.pageData.headTop(w)
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
	w.e(d.Swatch.Hex)
	w.s(`" focusable="false"><rect x="0.5" y="0.5" width="87" height="29" rx="7" fill="`)
	w.e(d.Swatch.Hex)
	w.s(`"/><text id="hex" x="44" y="20" text-anchor="middle" fill="`)
	w.e(d.Swatch.Text)
	w.s(`">`)
	w.e(d.Swatch.Hex)
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
	w.e(d.Logo.Install)
	w.s(`</code></pre>
        <button type="button" class="button" data-copy-target="install" data-copy-what="Install command">Copy</button></dd></div>
      <div><dt>Use</dt><dd class="code-row"><pre><code id="usage">`)
	w.e(d.Usage)
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
		w.s(width)
		w.s(`" height="`)
		w.s(height)
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
		w.s(width)
		w.s(`" height="`)
		w.s(height)
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

// header writes the page's top bar, the end of the layout's "head": a
// piece of the page the minifier can take on its own (see logoPage),
// which is the same on every page with the same Root.
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
