package svg

import (
	"math"
	"strconv"
	"strings"

	"github.com/tdewolff/parse/v2/css"
)

// RGB is an opaque sRGB colour.
type RGB struct{ R, G, B uint8 }

// luminance is WCAG 2's relative luminance.
func (c RGB) luminance() float64 {
	lin := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

// Contrast is the WCAG 2 contrast ratio of a and b, from 1 to 21.
func Contrast(a, b RGB) float64 {
	la, lb := a.luminance(), b.luminance()
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// ParseColour reads a CSS colour written as #rgb, #rgba, #rrggbb,
// #rrggbbaa, rgb(), rgba(), hsl(), hsla() or a colour name. ok is false for
// anything else (currentColor, none, url(...)), which has no fixed colour,
// and for fully transparent colours, which paint nothing.
func ParseColour(s string) (RGB, bool) {
	toks, errs := readValue(s)
	if len(errs) > 0 {
		return RGB{}, false
	}
	p, msg := parsePaint(toks, true)
	if msg != "" || p.kind != paintColour || !p.known || p.transparent {
		return RGB{}, false
	}
	return p.rgb, true
}

type paintKind uint8

const (
	paintNone    paintKind = iota + 1
	paintCurrent           // currentColor
	paintColour            // a colour; rgb is known unless it is written in a colour space Check does not compute
	paintURL               // url(#id), with an optional fallback
	paintContext           // context-fill, context-stroke
	paintInherit
)

// paint is a value of fill or stroke, or of a colour property.
type paint struct {
	kind        paintKind
	rgb         RGB
	known       bool // rgb holds the colour
	transparent bool // the colour's alpha is 0
	ref         string
	fallback    *paint
}

// fixed reports whether p paints a colour that does not follow the text
// around it: a colour, or a url() whose fallback is one.
func (p paint) fixed() bool {
	return p.kind == paintColour && !p.transparent || p.kind == paintContext
}

// parsePaint reads a paint (fill, stroke) or, with colourOnly, a colour
// (stop-color, flood-color, lighting-color, color). It returns a message
// saying what is wrong, or "".
func parsePaint(toks []cssToken, colourOnly bool) (paint, string) {
	if len(toks) == 0 {
		return paint{}, "is empty"
	}
	t := toks[0]
	if t.tt == css.URLToken && !colourOnly {
		p := paint{kind: paintURL, ref: urlTarget(t)}
		if rest := trimSpace(toks[1:]); len(rest) > 0 {
			f, msg := parsePaint(rest, false)
			if msg != "" || f.kind == paintURL || f.kind == paintInherit {
				return p, "has a url() fallback that is not none or a colour"
			}
			p.fallback = &f
		}
		return p, ""
	}
	if len(toks) != 1 {
		return paint{}, "is not a single colour"
	}
	switch t.tt {
	case css.HashToken:
		return hexColour(t.data[1:])
	case css.IdentToken:
		switch v := strings.ToLower(t.data); v {
		case "currentcolor":
			return paint{kind: paintCurrent}, ""
		case "transparent":
			return paint{kind: paintColour, known: true, transparent: true}, ""
		case "inherit":
			return paint{kind: paintInherit}, ""
		case "none", "context-fill", "context-stroke":
			if colourOnly {
				break
			}
			if v == "none" {
				return paint{kind: paintNone}, ""
			}
			return paint{kind: paintContext}, ""
		case "initial", "unset", "revert", "revert-layer":
			return paint{}, "resets to a default colour; write the colour itself"
		default:
			if h, ok := namedColours[v]; ok {
				return paint{kind: paintColour, known: true, rgb: RGB{uint8(h >> 16), uint8(h >> 8), uint8(h)}}, ""
			}
		}
	case css.FunctionToken:
		return colourFunction(t)
	}
	if colourOnly {
		return paint{}, "is not a colour"
	}
	return paint{}, "is not a colour, none, currentColor or url(#id)"
}

func hexColour(h string) (paint, string) {
	for _, c := range h {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return paint{}, "is not a hexadecimal colour"
		}
	}
	var alpha string
	switch len(h) {
	case 3, 4:
		if len(h) == 4 {
			alpha = h[3:] + h[3:]
		}
		h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
	case 6, 8:
		if len(h) == 8 {
			alpha = h[6:]
		}
		h = h[:6]
	default:
		return paint{}, "is not a colour: a hexadecimal colour has 3, 4, 6 or 8 digits"
	}
	v, _ := strconv.ParseUint(h, 16, 32)
	return paint{kind: paintColour, known: true, rgb: RGB{uint8(v >> 16), uint8(v >> 8), uint8(v)}, transparent: alpha == "00"}, ""
}

// colourFunction reads rgb(), rgba(), hsl() and hsla(); other colour
// functions are colours whose value Check does not compute.
func colourFunction(t cssToken) (paint, string) {
	name := strings.ToLower(t.data)
	switch name {
	case "rgb(", "rgba(", "hsl(", "hsla(":
	case "hwb(", "lab(", "lch(", "oklab(", "oklch(", "color(", "color-mix(":
		return paint{kind: paintColour}, ""
	default:
		return paint{}, "is not a colour"
	}
	var nums []float64
	var pcts []bool
	alphaAt := -1
	for _, a := range t.args {
		switch a.tt {
		case css.WhitespaceToken, css.CommaToken:
			continue
		case css.DelimToken:
			if a.data == "/" {
				alphaAt = len(nums)
				continue
			}
		case css.NumberToken, css.PercentageToken, css.DimensionToken:
			s := strings.TrimSuffix(a.data, "%")
			if a.tt == css.DimensionToken {
				s = strings.TrimRight(s, "degradtunDEGRADTUN")
			}
			f, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
				return paint{}, "has a number that cannot be read"
			}
			nums, pcts = append(nums, f), append(pcts, a.tt == css.PercentageToken)
			continue
		}
		return paint{}, "has " + strconvQuote(a.data) + ", which is not a number"
	}
	if len(nums) != 3 && len(nums) != 4 || alphaAt >= 0 && alphaAt != 3 {
		return paint{}, "needs three numbers and an optional alpha"
	}
	p := paint{kind: paintColour, known: true}
	if len(nums) == 4 {
		a := nums[3]
		if pcts[3] {
			a /= 100
		}
		p.transparent = a <= 0
	}
	clamp := func(f float64) uint8 { return uint8(math.Round(math.Max(0, math.Min(255, f)))) }
	if name[0] == 'r' {
		var v [3]uint8
		for i := range 3 {
			f := nums[i]
			if pcts[i] {
				f = f * 255 / 100
			}
			v[i] = clamp(f)
		}
		p.rgb = RGB{v[0], v[1], v[2]}
		return p, ""
	}
	h := math.Mod(nums[0], 360)
	if h < 0 {
		h += 360
	}
	r, g, b := css.HSL2RGB(h/360, math.Max(0, math.Min(1, nums[1]/100)), math.Max(0, math.Min(1, nums[2]/100)))
	p.rgb = RGB{clamp(r * 255), clamp(g * 255), clamp(b * 255)}
	return p, ""
}

func strconvQuote(s string) string { return strconv.Quote(s) }

// namedColours is CSS Color Level 4's list of named colours.
var namedColours = map[string]uint32{
	"aliceblue": 0xf0f8ff, "antiquewhite": 0xfaebd7, "aqua": 0x00ffff, "aquamarine": 0x7fffd4,
	"azure": 0xf0ffff, "beige": 0xf5f5dc, "bisque": 0xffe4c4, "black": 0x000000,
	"blanchedalmond": 0xffebcd, "blue": 0x0000ff, "blueviolet": 0x8a2be2, "brown": 0xa52a2a,
	"burlywood": 0xdeb887, "cadetblue": 0x5f9ea0, "chartreuse": 0x7fff00, "chocolate": 0xd2691e,
	"coral": 0xff7f50, "cornflowerblue": 0x6495ed, "cornsilk": 0xfff8dc, "crimson": 0xdc143c,
	"cyan": 0x00ffff, "darkblue": 0x00008b, "darkcyan": 0x008b8b, "darkgoldenrod": 0xb8860b,
	"darkgray": 0xa9a9a9, "darkgreen": 0x006400, "darkgrey": 0xa9a9a9, "darkkhaki": 0xbdb76b,
	"darkmagenta": 0x8b008b, "darkolivegreen": 0x556b2f, "darkorange": 0xff8c00, "darkorchid": 0x9932cc,
	"darkred": 0x8b0000, "darksalmon": 0xe9967a, "darkseagreen": 0x8fbc8f, "darkslateblue": 0x483d8b,
	"darkslategray": 0x2f4f4f, "darkslategrey": 0x2f4f4f, "darkturquoise": 0x00ced1, "darkviolet": 0x9400d3,
	"deeppink": 0xff1493, "deepskyblue": 0x00bfff, "dimgray": 0x696969, "dimgrey": 0x696969,
	"dodgerblue": 0x1e90ff, "firebrick": 0xb22222, "floralwhite": 0xfffaf0, "forestgreen": 0x228b22,
	"fuchsia": 0xff00ff, "gainsboro": 0xdcdcdc, "ghostwhite": 0xf8f8ff, "gold": 0xffd700,
	"goldenrod": 0xdaa520, "gray": 0x808080, "green": 0x008000, "greenyellow": 0xadff2f,
	"grey": 0x808080, "honeydew": 0xf0fff0, "hotpink": 0xff69b4, "indianred": 0xcd5c5c,
	"indigo": 0x4b0082, "ivory": 0xfffff0, "khaki": 0xf0e68c, "lavender": 0xe6e6fa,
	"lavenderblush": 0xfff0f5, "lawngreen": 0x7cfc00, "lemonchiffon": 0xfffacd, "lightblue": 0xadd8e6,
	"lightcoral": 0xf08080, "lightcyan": 0xe0ffff, "lightgoldenrodyellow": 0xfafad2, "lightgray": 0xd3d3d3,
	"lightgreen": 0x90ee90, "lightgrey": 0xd3d3d3, "lightpink": 0xffb6c1, "lightsalmon": 0xffa07a,
	"lightseagreen": 0x20b2aa, "lightskyblue": 0x87cefa, "lightslategray": 0x778899, "lightslategrey": 0x778899,
	"lightsteelblue": 0xb0c4de, "lightyellow": 0xffffe0, "lime": 0x00ff00, "limegreen": 0x32cd32,
	"linen": 0xfaf0e6, "magenta": 0xff00ff, "maroon": 0x800000, "mediumaquamarine": 0x66cdaa,
	"mediumblue": 0x0000cd, "mediumorchid": 0xba55d3, "mediumpurple": 0x9370db, "mediumseagreen": 0x3cb371,
	"mediumslateblue": 0x7b68ee, "mediumspringgreen": 0x00fa9a, "mediumturquoise": 0x48d1cc, "mediumvioletred": 0xc71585,
	"midnightblue": 0x191970, "mintcream": 0xf5fffa, "mistyrose": 0xffe4e1, "moccasin": 0xffe4b5,
	"navajowhite": 0xffdead, "navy": 0x000080, "oldlace": 0xfdf5e6, "olive": 0x808000,
	"olivedrab": 0x6b8e23, "orange": 0xffa500, "orangered": 0xff4500, "orchid": 0xda70d6,
	"palegoldenrod": 0xeee8aa, "palegreen": 0x98fb98, "paleturquoise": 0xafeeee, "palevioletred": 0xdb7093,
	"papayawhip": 0xffefd5, "peachpuff": 0xffdab9, "peru": 0xcd853f, "pink": 0xffc0cb,
	"plum": 0xdda0dd, "powderblue": 0xb0e0e6, "purple": 0x800080, "rebeccapurple": 0x663399,
	"red": 0xff0000, "rosybrown": 0xbc8f8f, "royalblue": 0x4169e1, "saddlebrown": 0x8b4513,
	"salmon": 0xfa8072, "sandybrown": 0xf4a460, "seagreen": 0x2e8b57, "seashell": 0xfff5ee,
	"sienna": 0xa0522d, "silver": 0xc0c0c0, "skyblue": 0x87ceeb, "slateblue": 0x6a5acd,
	"slategray": 0x708090, "slategrey": 0x708090, "snow": 0xfffafa, "springgreen": 0x00ff7f,
	"steelblue": 0x4682b4, "tan": 0xd2b48c, "teal": 0x008080, "thistle": 0xd8bfd8,
	"tomato": 0xff6347, "turquoise": 0x40e0d0, "violet": 0xee82ee, "wheat": 0xf5deb3,
	"white": 0xffffff, "whitesmoke": 0xf5f5f5, "yellow": 0xffff00, "yellowgreen": 0x9acd32,
}
