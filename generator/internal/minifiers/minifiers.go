// Package minifiers sets up tdewolff/minify once for everything the build
// minifies: the optimiser's SVG (with the CSS of its <style> and style
// attributes) and the site's HTML, CSS, JS and inline SVG.
package minifiers

import (
	"github.com/tdewolff/minify/v2"
	"github.com/tdewolff/minify/v2/css"
	"github.com/tdewolff/minify/v2/html"
	"github.com/tdewolff/minify/v2/js"
	"github.com/tdewolff/minify/v2/svg"
)

// New returns the minifier of every media type the build writes. It is
// safe for concurrent use. Numbers keep every digit (precision 0):
// rounding by significant digits is where minifiers visibly break logos;
// generator/svg's round.go does the rounding instead. HTML keeps <html>,
// <head> and <body>, which the pages' templates write on purpose.
func New() *minify.M {
	m := minify.New()
	m.Add("image/svg+xml", &svg.Minifier{})
	m.Add("text/css", &css.Minifier{})
	m.Add("text/html", &html.Minifier{KeepDocumentTags: true})
	m.Add("text/javascript", &js.Minifier{})
	return m
}
