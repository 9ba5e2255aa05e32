package svg

import "strings"

// The allowlist. A logo is a static picture: shapes and text in colours,
// gradients and patterns, clipping, masking and filters. Everything an SVG
// can do beyond that (run script, load other documents, fonts, images or
// stylesheets, link, animate, embed HTML, depend on the browser) is left
// out, not because each has been found dangerous but because nothing that
// is not on these lists can be. Check refuses any element, attribute, CSS
// property or at-rule not named here, with its position.

// elements are the SVG elements a logo may hold, by group, with the reason
// the group is here.
var elements = groups(
	"structure: the document, groups, reusable parts and their names",
	"svg g defs symbol use title desc metadata",
	"shapes: what a logo draws",
	"path rect circle ellipse line polyline polygon",
	"text: wordmarks set in type",
	"text tspan textPath",
	"paint servers: gradients and patterns",
	"linearGradient radialGradient stop pattern",
	"clipping and masking",
	"clipPath mask marker",
	"filter effects, except feImage, which loads an image, and feDropShadow, which HTML's table of SVG "+
		"names lacks: inline in a page, an HTML parser makes it an unknown element (write feGaussianBlur, "+
		"feOffset, feFlood, feComposite and feMerge, as editors do)",
	"filter feBlend feColorMatrix feComponentTransfer feComposite feConvolveMatrix feDiffuseLighting "+
		"feDisplacementMap feDistantLight feFlood feFuncA feFuncB feFuncG feFuncR feGaussianBlur "+
		"feMerge feMergeNode feMorphology feOffset fePointLight feSpecularLighting feSpotLight feTile feTurbulence",
	"a stylesheet, read by the CSS rules below",
	"style",
)

// refusedElements says why well-known elements are not on the list, so
// the message can say more than "unknown". Names are compared in lower
// case: an HTML parser lower-cases the names of an SVG inlined in a page.
var refusedElements = map[string]string{
	"script":           "it can run script",
	"foreignobject":    "it embeds HTML",
	"image":            "it embeds a raster or external image",
	"feimage":          "it loads an image",
	"fedropshadow":     "an HTML parser does not know it when the SVG is inlined in a page; build the shadow from feGaussianBlur, feOffset, feFlood, feComposite and feMerge",
	"a":                "it makes the logo a link",
	"iframe":           "it loads another document",
	"object":           "it loads another document",
	"embed":            "it loads another document",
	"frame":            "it loads another document",
	"applet":           "it loads code",
	"audio":            "it plays media",
	"video":            "it plays media",
	"canvas":           "it draws with script",
	"animate":          "it animates the logo",
	"set":              "it animates the logo",
	"animatemotion":    "it animates the logo",
	"animatetransform": "it animates the logo",
	"animatecolor":     "it animates the logo",
	"mpath":            "it animates the logo",
	"discard":          "it is an animation element",
	"handler":          "it can run script",
	"listener":         "it attaches event handlers",
	"link":             "it loads an external resource",
	"meta":             "it can redirect",
	"base":             "it changes how links resolve",
	"font":             "it defines a font; convert the text to paths",
	"font-face":        "it loads a font; convert the text to paths",
	"glyph":            "it defines a font; convert the text to paths",
	"cursor":           "it loads a cursor image",
	"view":             "it changes the viewBox from a link",
	"switch":           "it draws differently in different browsers",
	"tref":             "it copies text from elsewhere",
}

// Value kinds of attributes, which say how Check reads a value.
type attrKind uint8

const (
	kindText      attrKind = iota + 1 // inert text: names, keywords, labels
	kindCSS                           // a presentation attribute: one CSS value, read like a property
	kindPaint                         // fill, stroke
	kindColour                        // stop-color and the other colours
	kindRef                           // none or url(#id): clip-path, mask, filter, markers
	kindHref                          // "#id" only
	kindStyle                         // a CSS declaration list
	kindID                            // an id
	kindClass                         // class names
	kindPath                          // path data
	kindNumbers                       // numbers and lengths, comma or space separated
	kindViewBox                       // four numbers
	kindTransform                     // a transform list
	kindSpace                         // xml:space
)

// attributes are the attributes without a namespace a logo may use, by
// group, with their kind.
var attributes = attrGroups(
	// Identity, accessibility and language: inert text.
	kindText, "role lang focusable version baseProfile aria-label aria-labelledby aria-describedby "+
		"aria-hidden aria-roledescription aria-description",
	kindID, "id",
	kindClass, "class",
	kindStyle, "style",
	kindHref, "href",
	// Geometry: numbers and lengths. x, y, dx, dy and rotate take lists on text.
	kindNumbers, "x y width height rx ry cx cy r fx fy fr x1 y1 x2 y2 dx dy rotate offset pathLength "+
		"textLength startOffset refX refY markerWidth markerHeight stdDeviation k1 k2 k3 k4 scale "+
		"surfaceScale diffuseConstant specularConstant specularExponent kernelUnitLength baseFrequency "+
		"numOctaves seed azimuth elevation pointsAtX pointsAtY pointsAtZ limitingConeAngle z divisor "+
		"bias targetX targetY order kernelMatrix tableValues slope intercept amplitude exponent radius values",
	kindPath, "d path",
	kindNumbers, "points",
	kindViewBox, "viewBox",
	kindTransform, "transform gradientTransform patternTransform",
	// Keywords and references between filter primitives: inert text.
	kindText, "preserveAspectRatio gradientUnits spreadMethod patternUnits patternContentUnits clipPathUnits "+
		"maskUnits maskContentUnits filterUnits primitiveUnits markerUnits orient in in2 result mode operator "+
		"type edgeMode preserveAlpha xChannelSelector yChannelSelector stitchTiles lengthAdjust method "+
		"spacing side media",
	// Paint, and the other presentation attributes: CSS values.
	kindPaint, "fill stroke",
	kindColour, "stop-color flood-color lighting-color color solid-color",
	kindRef, "clip-path mask filter marker-start marker-mid marker-end",
	kindCSS, "fill-opacity fill-rule stroke-width stroke-opacity stroke-linecap stroke-linejoin "+
		"stroke-miterlimit stroke-dasharray stroke-dashoffset opacity stop-opacity flood-opacity solid-opacity "+
		"clip-rule mask-type display visibility overflow clip color-interpolation color-interpolation-filters "+
		"color-rendering shape-rendering text-rendering image-rendering vector-effect paint-order "+
		"mix-blend-mode isolation transform-origin transform-box font font-family font-size font-size-adjust "+
		"font-stretch font-style font-variant font-weight letter-spacing word-spacing kerning text-anchor "+
		"text-decoration dominant-baseline alignment-baseline baseline-shift writing-mode direction "+
		"unicode-bidi white-space glyph-orientation-horizontal glyph-orientation-vertical pointer-events "+
		"enable-background",
)

// namespacedAttributes are the attributes in the xml and xlink namespaces
// a logo may use.
var namespacedAttributes = map[[2]string]attrKind{
	{NSXML, "space"}:   kindSpace,
	{NSXML, "lang"}:    kindText,
	{NSXLink, "href"}:  kindHref,
	{NSXLink, "title"}: kindText,
}

// refusedAttributes says why well-known attributes are not on the list.
var refusedAttributes = map[string]string{
	"base":                      "it changes where references resolve",
	"href":                      "only local references like \"#id\" are allowed", // used for xml:base
	"src":                       "it loads a resource",
	"srcset":                    "it loads a resource",
	"action":                    "it submits a form",
	"formaction":                "it submits a form",
	"ping":                      "it sends requests when the logo is clicked",
	"target":                    "it belongs to links",
	"download":                  "it belongs to links",
	"rel":                       "it belongs to links",
	"cursor":                    "it loads a cursor image",
	"requiredextensions":        "it draws differently in different browsers",
	"requiredfeatures":          "it draws differently in different browsers",
	"systemlanguage":            "it draws differently in different browsers",
	"externalresourcesrequired": "it waits for external resources",
	"crossorigin":               "it belongs to elements that load resources",
	"nonce":                     "it belongs to scripts and stylesheets that load resources",
	"tabindex":                  "it puts the logo in the order in which the page around it takes focus",
}

// properties are the CSS properties a style attribute or a <style> element
// may set: the presentation attributes above, and properties that do
// nothing in an SVG logo but that editors write (Inkscape writes
// line-height and -inkscape-stroke, Figma flex), allowed as inert. url()
// in any of them must be local: see checkValue.
var properties = func() map[string]attrKind {
	m := map[string]attrKind{}
	for name, kind := range attributes {
		switch kind {
		case kindCSS, kindPaint, kindColour, kindRef:
			m[name] = kind
		}
	}
	for _, name := range strings.Fields("line-height flex white-space isolation text-decoration-line " +
		"text-decoration-style text-decoration-color text-transform text-indent text-align text-align-last " +
		"font-variant-ligatures font-variant-position font-variant-caps font-variant-numeric " +
		"font-variant-alternates font-variant-east-asian font-feature-settings font-variation-settings " +
		"font-kerning shape-padding shape-margin text-orientation inline-size block-progression " +
		"transform") {
		if m[name] == 0 {
			m[name] = kindCSS
		}
	}
	return m
}()

// propertyKind returns how a CSS property's value is read, or 0 for a
// property not on the list. A browser vendor's prefixed form of a listed
// property (-webkit-filter) is the property; -inkscape-* properties are
// inert, as no browser reads them; any other prefix (-moz-binding) is not
// on the list.
func propertyKind(prop string) attrKind {
	if k := properties[prop]; k != 0 {
		return k
	}
	if strings.HasPrefix(prop, "-inkscape-") {
		return kindText
	}
	for _, v := range []string{"-webkit-", "-moz-", "-ms-", "-o-"} {
		if base, ok := strings.CutPrefix(prop, v); ok {
			return properties[base]
		}
	}
	return 0
}

// cssFunctions are the CSS functions a value may call: colours,
// arithmetic, transforms and filter shorthands. Everything else (var(),
// env(), attr(), image(), image-set(), cross-fade(), element(),
// expression(), paint() ...) is refused.
var cssFunctions = toSet("rgb( rgba( hsl( hsla( hwb( lab( lch( oklab( oklch( color( color-mix( calc( min( max( " +
	"clamp( translate( translatex( translatey( scale( scalex( scaley( rotate( skew( skewx( skewy( matrix( " +
	"blur( brightness( contrast( drop-shadow( grayscale( hue-rotate( invert( opacity( saturate( sepia(")

// editorNamespaces are the namespaces of editor metadata (Inkscape,
// Sodipodi, Illustrator, Sketch, Serif, Figma, RDF and Dublin Core
// licensing blocks). Their elements and attributes are accepted and never
// published: the optimiser drops them with their content, as they draw
// nothing. Any other namespace is refused.
var editorNamespaces = toSet("http://www.inkscape.org/namespaces/inkscape http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd " +
	"http://inkscape.sourceforge.net/DTD/sodipodi-0.dtd http://www.w3.org/1999/02/22-rdf-syntax-ns# " +
	"http://purl.org/dc/elements/1.1/ http://purl.org/dc/terms/ http://creativecommons.org/ns# http://web.resource.org/cc/ " +
	"http://ns.adobe.com/AdobeIllustrator/10.0/ http://ns.adobe.com/Extensibility/1.0/ " +
	"http://ns.adobe.com/AdobeSVGViewerExtensions/3.0/ http://ns.adobe.com/Graphs/1.0/ " +
	"http://ns.adobe.com/Variables/1.0/ http://ns.adobe.com/SaveForWeb/1.0/ http://ns.adobe.com/Flows/1.0/ " +
	"http://ns.adobe.com/ImageReplacement/1.0/ http://ns.adobe.com/GenericCustomNamespace/1.0/ " +
	"http://ns.adobe.com/XPath/1.0/ http://www.bohemiancoding.com/sketch/ns http://www.serif.com/ " +
	"http://www.figma.com/figma/ns")

// allowedElement reports whether the allowlist allows an element.
func allowedElement(local string) bool { return elements[local] }

func groups(pairs ...string) map[string]bool {
	m := map[string]bool{}
	for i := 1; i < len(pairs); i += 2 {
		for _, name := range strings.Fields(pairs[i]) {
			m[name] = true
			internAll(name)
		}
	}
	return m
}

func attrGroups(pairs ...any) map[string]attrKind {
	m := map[string]attrKind{}
	for i := 0; i+1 < len(pairs); i += 2 {
		kind := pairs[i].(attrKind)
		for _, name := range strings.Fields(pairs[i+1].(string)) {
			m[name] = kind
			internAll(name)
		}
	}
	return m
}

func toSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
