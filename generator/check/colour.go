package check

import "logoindex/generator/svg"

// RGB is an opaque sRGB colour.
type RGB = svg.RGB

// DarkBackground is the page colour the dark-readability checks use: the
// dark theme of GitHub, where many of these logos end up.
var DarkBackground = RGB{R: 0x0D, G: 0x11, B: 0x17}

// MinDarkContrast is the WCAG 2 contrast ratio below which a logo is taken to
// be unreadable on DarkBackground (the ratio WCAG asks of graphics, 1.4.11).
const MinDarkContrast = 3.0

// Contrast is the WCAG 2 contrast ratio of a and b, from 1 to 21.
func Contrast(a, b RGB) float64 { return svg.Contrast(a, b) }
