package main

// The three corpora as source-logos trees, written the way a newcomer
// would write them from each package's own data: name, hex, categories,
// source, licence, the package as via, aliases and the SVG files, and no
// component: key (the default names must be unique by themselves).
// docs/performance.md says where each field comes from.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// sourceLogo is one logo folder.
type sourceLogo struct {
	Slug, Name, Hex                         string // Hex without '#', upper case
	Categories, Aliases                     []string
	Source, License, LicenseURL, Guidelines string
	Via                                     distribution      // the package the files were taken from
	Files                                   map[string][]byte // variant -> SVG
}

// distribution is logo.yaml's via: the npm package a corpus is read from,
// at the version installed, and its page for that version.
type distribution struct{ Name, Version, URL string }

// npmPackage is the distribution of the npm package name, as installed in
// modules.
func npmPackage(modules, name string) (distribution, error) {
	var pkg struct{ Version string }
	if err := readJSON(filepath.Join(modules, filepath.FromSlash(name), "package.json"), &pkg); err != nil {
		return distribution{}, err
	}
	if pkg.Version == "" {
		return distribution{}, fmt.Errorf("%s: package.json has no version", name)
	}
	return distribution{name, pkg.Version, "https://www.npmjs.com/package/" + name + "/v/" + pkg.Version}, nil
}

// category is one entry of categories.yaml.
type category struct{ Slug, Name string }

var slugRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// sourceFile is one file of a source tree, its path slash-separated.
type sourceFile struct {
	path string
	data []byte
}

// sourceFiles lists the files of a source tree: categories.yaml, then each
// logo's folder with logo.yaml and its SVGs, in a fixed order. Two logos
// with one slug, or an invalid slug, are a mistake of the converter.
func sourceFiles(cats []category, logos []sourceLogo) ([]sourceFile, error) {
	var b strings.Builder
	for _, c := range cats {
		fmt.Fprintf(&b, "- {slug: %s, name: %s}\n", c.Slug, yamlString(c.Name))
	}
	files := []sourceFile{{"categories.yaml", []byte(b.String())}}
	used := map[string]bool{}
	for _, l := range logos {
		if !slugRE.MatchString(l.Slug) || used[l.Slug] {
			return nil, fmt.Errorf("converter: slug %q is invalid or used twice", l.Slug)
		}
		used[l.Slug] = true
		files = append(files, sourceFile{l.Slug + "/logo.yaml", l.yaml()})
		for _, variant := range sortedKeys(l.Files) {
			files = append(files, sourceFile{l.Slug + "/" + variant + ".svg", l.Files[variant]})
		}
	}
	return files, nil
}

// writeSourceTree writes the files of sourceFiles into dir, replacing what
// dir held.
func writeSourceTree(dir string, cats []category, logos []sourceLogo) error {
	files, err := sourceFiles(cats, logos)
	if err != nil {
		return err
	}
	return writeFiles(dir, files)
}

func writeFiles(dir string, files []sourceFile) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.path))
		if d := filepath.Dir(p); d != dir {
			if err := os.Mkdir(d, 0o755); err != nil && !os.IsExist(err) {
				return err
			}
		}
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func (l sourceLogo) yaml() []byte {
	var b strings.Builder
	list := func(items []string) string {
		q := make([]string, len(items))
		for i, s := range items {
			q[i] = yamlString(s)
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	fmt.Fprintf(&b, "name: %s\nhex: \"#%s\"\ncategories: %s\nsource: %s\nlicense: %s\n",
		yamlString(l.Name), l.Hex, list(l.Categories), yamlString(l.Source), l.License)
	if l.LicenseURL != "" {
		fmt.Fprintf(&b, "license_url: %s\n", yamlString(l.LicenseURL))
	}
	if v := l.Via; v.Name != "" {
		fmt.Fprintf(&b, "via: {name: %s, version: %s, url: %s}\n", yamlString(v.Name), yamlString(v.Version), yamlString(v.URL))
	}
	if l.Guidelines != "" {
		fmt.Fprintf(&b, "guidelines: %s\n", yamlString(l.Guidelines))
	}
	if len(l.Aliases) > 0 {
		fmt.Fprintf(&b, "aliases: %s\n", list(l.Aliases))
	}
	return []byte(b.String())
}

// yamlString quotes s for YAML: a JSON string is a YAML double-quoted one.
func yamlString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// addDark adds icon-dark.svg, the mono icon in white, when the brand
// colour is too dark for a dark page, and wordmark-dark.svg, the wordmark
// in white, when it paints with one dark colour (what the source format
// asks of a contributor, and what the check warns about). Artwork of several
// colours gets no dark variant: that needs a designer.
func (l *sourceLogo) addDark() {
	if mono := l.Files["icon-mono"]; mono != nil && darkOnDark(l.Hex) {
		l.Files["icon-dark"] = white(mono)
	}
	if w := l.Files["wordmark"]; w != nil && l.Files["wordmark-dark"] == nil {
		colour := mainColour(w)
		if colour == "" {
			colour = "000000" // shapes are black unless painted
		}
		if mono := monochrome(w); mono != nil && darkOnDark(colour) {
			l.Files["wordmark-dark"] = white(mono)
		}
	}
}

func white(mono []byte) []byte {
	return bytes.ReplaceAll(mono, []byte("currentColor"), []byte("#FFFFFF"))
}

// darkOnDark reports whether the colour RRGGBB has a WCAG contrast below
// 3:1 against the dark page the check measures with (#0D1117).
func darkOnDark(hex string) bool {
	lum := func(v uint64) float64 {
		var sum float64
		for i, w := range []float64{0.2126, 0.7152, 0.0722} {
			c := float64(v>>(16-8*i)&0xFF) / 255
			if c <= 0.04045 {
				c /= 12.92
			} else {
				c = math.Pow((c+0.055)/1.055, 2.4)
			}
			sum += w * c
		}
		return sum
	}
	v, err := strconv.ParseUint(hex, 16, 32)
	if err != nil {
		return false
	}
	return (lum(v)+0.05)/(lum(0x0D1117)+0.05) < 3
}

// paintRE finds paint values in attributes (fill="...") and in CSS
// (fill: ...).
var paintRE = regexp.MustCompile(`(?i)\b(fill|stroke|stop-color|color)(\s*=\s*["']|\s*:\s*)([^"';}>]+)`)

func neutralPaint(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "none", "currentcolor", "transparent", "inherit":
		return true
	}
	return false
}

// monochrome returns svg painted with currentColor alone, or nil when it
// paints with more than one colour, a gradient or a stylesheet, which one
// colour cannot stand for. Unpainted shapes (black by default) get
// currentColor from the root.
func monochrome(svg []byte) []byte {
	lower := bytes.ToLower(svg)
	if bytes.Contains(lower, []byte("<style")) || bytes.Contains(lower, []byte("<image")) {
		return nil
	}
	colours := map[string]bool{}
	for _, m := range paintRE.FindAllSubmatch(svg, -1) {
		v := strings.ToLower(strings.TrimSpace(string(m[3])))
		if strings.HasPrefix(v, "url(") {
			return nil // a gradient or pattern paints
		}
		if !neutralPaint(v) {
			colours[v] = true
		}
	}
	if len(colours) > 1 {
		return nil
	}
	out := paintRE.ReplaceAllFunc(svg, func(m []byte) []byte {
		sub := paintRE.FindSubmatch(m)
		if neutralPaint(string(sub[3])) {
			return m
		}
		return append(append(slices.Clone(sub[1]), sub[2]...), "currentColor"...)
	})
	return setRootPaint(out, "currentColor")
}

// setRootPaint gives the root <svg> fill="paint" unless it has a fill.
func setRootPaint(svg []byte, paint string) []byte {
	i := bytes.Index(svg, []byte("<svg"))
	if i < 0 {
		return svg
	}
	end := bytes.IndexByte(svg[i:], '>')
	if end < 0 || regexp.MustCompile(`\sfill\s*=`).Match(svg[i:i+end]) {
		return svg
	}
	i += len("<svg")
	out := slices.Clone(svg[:i])
	out = append(out, ` fill="`+paint+`"`...)
	return append(out, svg[i:]...)
}

// mainColour is the colour svg fills or strokes with most often (its
// gradient stops only when it has no other), as RRGGBB, white and black
// counting only when there is no other; "" when it paints with none.
func mainColour(svg []byte) string {
	count := map[string]int{}
	var order []string
	matches := paintRE.FindAllSubmatch(svg, -1)
	solid := slices.ContainsFunc(matches, func(m [][]byte) bool {
		return !strings.EqualFold(string(m[1]), "stop-color") && hexDigits(string(m[3])) != ""
	})
	for _, m := range matches {
		if solid && strings.EqualFold(string(m[1]), "stop-color") {
			continue
		}
		if h := hexDigits(string(m[3])); h != "" {
			if count[h] == 0 {
				order = append(order, h)
			}
			count[h]++
		}
	}
	best := ""
	for _, h := range order { // first seen wins a tie
		plain := h == "FFFFFF" || h == "000000"
		if best == "" || count[h] > count[best] && !plain || (best == "FFFFFF" || best == "000000") && !plain {
			best = h
		}
	}
	return best
}

// hexDigits turns #RGB or #RRGGBB into the six digits logo.yaml wants
// (RRGGBB, upper case), or "" when c is neither.
func hexDigits(c string) string {
	h, ok := strings.CutPrefix(strings.TrimSpace(c), "#")
	if _, err := strconv.ParseUint(h, 16, 32); !ok || err != nil || len(h) != 3 && len(h) != 6 {
		return ""
	}
	if len(h) == 3 {
		h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
	}
	return strings.ToUpper(h)
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// addAlias appends a unique alias that differs from the name, up to the
// limit of 20.
func addAlias(l *sourceLogo, a string) {
	a = strings.TrimSpace(a)
	if a != "" && a != l.Name && !slices.Contains(l.Aliases, a) && len(l.Aliases) < 20 {
		l.Aliases = append(l.Aliases, a)
	}
}

// siIcon is one entry of simple-icons' data/simple-icons.json.
type siIcon struct {
	Title      string `json:"title"`
	Slug       string `json:"slug"`
	Hex        string `json:"hex"`
	Source     string `json:"source"`
	Guidelines string `json:"guidelines"`
	License    *struct {
		Type string `json:"type"`
		URL  string `json:"url"`
	} `json:"license"`
	Aliases struct {
		Aka []string                 `json:"aka"`
		Dup []struct{ Title string } `json:"dup"`
		Loc map[string]string        `json:"loc"`
	} `json:"aliases"`
}

// simpleIconsLogos converts simple-icons: a logo per entry of
// data/simple-icons.json; its slug with _ written as -; its title, hex,
// source and guidelines; its licence (CC0-1.0, simple-icons' own, when it
// records none; LicenseRef-Custom with the URL for "custom"); the package
// as via; its aliases (aka, the titles of dup, the localised names); one
// category, brands;
// icon.svg filled with the hex, icon-mono.svg with currentColor, and
// icon-dark.svg in white when the hex is dark. With only, just the entries
// whose icon file (<slug>.svg, the name in the bench's corpus) it holds.
func simpleIconsLogos(modules string, only map[string]bool) ([]category, []sourceLogo, error) {
	var icons []siIcon
	if err := readJSON(filepath.Join(modules, "simple-icons", "data", "simple-icons.json"), &icons); err != nil {
		return nil, nil, err
	}
	via, err := npmPackage(modules, "simple-icons")
	if err != nil {
		return nil, nil, err
	}
	var logos []sourceLogo
	for _, ic := range icons {
		if only != nil && !only[ic.Slug+".svg"] {
			continue
		}
		svg, err := os.ReadFile(filepath.Join(modules, "simple-icons", "icons", ic.Slug+".svg"))
		if err != nil {
			return nil, nil, err
		}
		hex := strings.ToUpper(ic.Hex)
		l := sourceLogo{
			Slug: strings.ReplaceAll(ic.Slug, "_", "-"), Name: ic.Title, Hex: hex, Categories: []string{"brands"},
			Source: ic.Source, License: "CC0-1.0", Guidelines: ic.Guidelines, Via: via,
			Files: map[string][]byte{"icon": setRootPaint(svg, "#"+hex), "icon-mono": setRootPaint(svg, "currentColor")},
		}
		switch {
		case ic.License == nil || ic.License.Type == "":
		case ic.License.Type == "custom":
			l.License, l.LicenseURL = "LicenseRef-Custom", ic.License.URL
		default:
			l.License, l.LicenseURL = ic.License.Type, ic.License.URL
		}
		for _, a := range ic.Aliases.Aka {
			addAlias(&l, a)
		}
		for _, d := range ic.Aliases.Dup {
			addAlias(&l, d.Title)
		}
		for _, locale := range sortedKeys(ic.Aliases.Loc) {
			addAlias(&l, ic.Aliases.Loc[locale])
		}
		l.addDark()
		logos = append(logos, l)
	}
	return []category{{"brands", "Brands"}}, logos, nil
}

// deviconEntry is one entry of devicon's devicon.json.
type deviconEntry struct {
	Name     string   `json:"name"`
	AltNames []string `json:"altnames"`
	Tags     []string `json:"tags"`
	Versions struct {
		SVG []string `json:"svg"`
	} `json:"versions"`
	Color string `json:"color"`
}

// deviconLogos converts devicon: a logo per entry of devicon.json, its
// name as slug and display name (devicon has no other), its color as hex,
// its altnames as aliases, its first five tags as categories (each tag a
// category of categories.yaml), the package's MIT licence, the icon's
// folder on GitHub as source (devicon records no origin) and the package
// as via. icon.svg is the original version, else
// plain, else line; wordmark.svg the original-wordmark, else
// plain-wordmark, else line-wordmark; icon-mono.svg the plain (else line)
// version recoloured to currentColor when it paints with one colour; and
// icon-dark.svg that in white when the colour is dark; wordmark-dark.svg
// the wordmark in white when it paints with one dark colour. The six entries
// with wordmarks only (less, stata...) have their wordmark as icon too.
func deviconLogos(modules string) ([]category, []sourceLogo, error) {
	var entries []deviconEntry
	if err := readJSON(filepath.Join(modules, "devicon", "devicon.json"), &entries); err != nil {
		return nil, nil, err
	}
	via, err := npmPackage(modules, "devicon")
	if err != nil {
		return nil, nil, err
	}
	catNames := map[string]string{}
	var logos []sourceLogo
	for _, e := range entries {
		read := func(versions ...string) []byte {
			for _, v := range versions {
				if slices.Contains(e.Versions.SVG, v) {
					if b, err := os.ReadFile(filepath.Join(modules, "devicon", "icons", e.Name, e.Name+"-"+v+".svg")); err == nil {
						return b
					}
				}
			}
			return nil
		}
		l := sourceLogo{
			Slug: e.Name, Name: e.Name, Hex: hexDigits(e.Color), // devicon writes some as #RGB
			Source:  "https://github.com/devicons/devicon/tree/v" + via.Version + "/icons/" + e.Name,
			License: "MIT", Via: via, Files: map[string][]byte{},
		}
		for _, tag := range e.Tags {
			slug := strings.Trim(regexp.MustCompile(`[^a-z0-9]+`).ReplaceAllString(strings.ToLower(tag), "-"), "-")
			if slug == "" || slices.Contains(l.Categories, slug) || len(l.Categories) == 5 {
				continue
			}
			if _, ok := catNames[slug]; !ok {
				catNames[slug] = tag
			}
			l.Categories = append(l.Categories, slug)
		}
		if len(l.Categories) == 0 {
			l.Categories = []string{"devtools"}
			catNames["devtools"] = "Developer tools"
		}
		for _, a := range e.AltNames {
			addAlias(&l, a)
		}
		icon, mono := read("original", "plain", "line"), read("plain", "line")
		if icon == nil { // six entries have wordmarks only; the logo is the wordmark
			icon, mono = read("original-wordmark", "plain-wordmark", "line-wordmark"), read("plain-wordmark", "line-wordmark")
		}
		l.Files["icon"] = icon
		if mono := monochrome(mono); mono != nil {
			l.Files["icon-mono"] = mono
		}
		if b := read("original-wordmark", "plain-wordmark", "line-wordmark"); b != nil {
			l.Files["wordmark"] = b
		}
		l.addDark()
		logos = append(logos, l)
	}
	var cats []category
	for _, slug := range sortedKeys(catNames) {
		cats = append(cats, category{slug, catNames[slug]})
	}
	return cats, logos, nil
}

var titleRE = regexp.MustCompile(`<title>([^<]*)</title>`)

// lobehubLogos converts @lobehub/icons-static-svg: a logo per <slug>.svg
// (the one-colour icon), named by its <title>, with the package's MIT
// licence, its repository as source, the package as via and one
// category, ai. icon.svg is
// <slug>-color.svg when there is one, and its main colour the hex;
// otherwise the one-colour icon filled with black, #000000. icon-mono.svg
// is <slug>.svg; icon-dark.svg that in white when the hex is dark.
// wordmark.svg is <slug>-text-color.svg, else <slug>-text.svg in black,
// and wordmark-dark.svg <slug>-text.svg in white. The -brand (icon and
// text together) and -text-cn files are left out.
func lobehubLogos(modules string) ([]category, []sourceLogo, error) {
	dir := filepath.Join(modules, "@lobehub", "icons-static-svg", "icons")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	via, err := npmPackage(modules, "@lobehub/icons-static-svg")
	if err != nil {
		return nil, nil, err
	}
	read := func(name string) []byte {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		return b
	}
	var logos []sourceLogo
	for _, e := range entries {
		slug, ok := strings.CutSuffix(e.Name(), ".svg")
		if !ok || strings.Contains(slug, "-") {
			continue // a variant file: <slug>-color.svg, <slug>-text.svg... (no base name has a hyphen)
		}
		base := read(e.Name())
		m := titleRE.FindSubmatch(base)
		if m == nil {
			return nil, nil, fmt.Errorf("lobehub: %s has no <title>", e.Name())
		}
		l := sourceLogo{
			Slug: slug, Name: html.UnescapeString(string(m[1])), Categories: []string{"ai"},
			Source: "https://github.com/lobehub/lobe-icons", License: "MIT", Via: via, Files: map[string][]byte{},
		}
		mono := monochrome(base)
		if mono != nil {
			l.Files["icon-mono"] = mono
		}
		if color := read(slug + "-color.svg"); color != nil {
			l.Files["icon"] = color
			l.Hex = mainColour(color)
		}
		if l.Hex == "" {
			l.Hex = "000000"
		}
		if l.Files["icon"] == nil {
			if mono == nil {
				return nil, nil, fmt.Errorf("lobehub: %s has neither a -color file nor one colour", e.Name())
			}
			l.Files["icon"] = bytes.ReplaceAll(mono, []byte("currentColor"), []byte("#"+l.Hex))
		}
		if text := monochrome(read(slug + "-text.svg")); text != nil {
			l.Files["wordmark"] = bytes.ReplaceAll(text, []byte("currentColor"), []byte("#000000"))
			l.Files["wordmark-dark"] = bytes.ReplaceAll(text, []byte("currentColor"), []byte("#FFFFFF"))
		}
		if color := read(slug + "-text-color.svg"); color != nil {
			l.Files["wordmark"] = color
		}
		l.addDark()
		logos = append(logos, l)
	}
	return []category{{"ai", "AI"}}, logos, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
