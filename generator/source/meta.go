package source

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
	"gopkg.in/yaml.v3"

	"logoindex/generator/internal/fuzzy"
	"logoindex/generator/internal/spdx"
	"logoindex/generator/internal/textenc"
	"logoindex/generator/problem"
	"logoindex/internal/escape"
)

// FileMeta is the provenance of one variant file.
type FileMeta struct {
	Source     string `json:"source"`
	License    string `json:"license"`
	LicenseURL string `json:"license_url,omitempty"`
	Via        *Via   `json:"via,omitempty"`
}

// Meta is the content of a logo.yaml, checked field by field. Fields that
// were invalid are left empty; the problems say why.
type Meta struct {
	Name       string
	Hex        string // "#RRGGBB", upper case
	Categories []string
	Source     string
	License    string
	LicenseURL string
	Via        *Via
	Guidelines string
	Aliases    []string
	Files      map[string]FileMeta // overrides as written, by key: a variant or a variant glob ("wordmark*")
	Component  string
	Install    string

	// Pos holds where each key's value is, for problems found later
	// (an unknown category, a missing file). Keys are "name", "hex",
	// "categories[0]", "files.wordmark", ...
	Pos map[string]problem.Pos
}

// Category is one entry of categories.yaml.
type Category struct {
	Slug string      `json:"slug"`
	Name string      `json:"name"`
	Pos  problem.Pos `json:"-"`
}

var (
	hexRE        = regexp.MustCompile(`^#?[0-9A-Fa-f]{6}$`)
	componentRE  = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)
	licenseRefRE = regexp.MustCompile(`^LicenseRef-[A-Za-z0-9.-]+$`)
	yamlLineRE   = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
)

var requiredKeys = []string{"name", "hex", "categories", "source", "license"}

var logoKeys = []string{"name", "hex", "categories", "source", "license", "license_url", "via", "guidelines", "aliases", "files", "component", "install"}

const (
	maxCategories = 5
	maxAliases    = 20
	maxTextLen    = 200
	maxInstallLen = 512
	maxURLLen     = 2048
)

// ParseMeta reads and checks a logo.yaml. It reports every problem it finds
// with its position; the returned Meta holds whatever was valid.
func ParseMeta(f *File) (*Meta, problem.List) {
	m := &Meta{Pos: map[string]problem.Pos{}}
	var probs problem.List
	root := parseYAMLRoot(f, yaml.MappingNode, "a mapping of keys (name: ..., hex: ...)", &probs)
	if root == nil {
		return m, probs
	}
	r := &metaReader{path: f.Path, probs: &probs, pos: m.Pos}
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		key := k.Value
		if first, dup := seen[key]; dup {
			r.errorf(k, problem.KeyDuplicate, "duplicate key %q (first at line %d); keep one", key, first.Line)
			continue
		}
		seen[key] = k
		if k.Kind != yaml.ScalarNode {
			r.errorf(k, problem.KeyUnknown, "keys must be plain names")
			continue
		}
		if !slices.Contains(logoKeys, key) {
			msg := fmt.Sprintf("unknown key %q; the keys are %s", key, strings.Join(logoKeys, ", "))
			if s := fuzzy.Nearest(key, logoKeys, 2); s != "" {
				msg = fmt.Sprintf("unknown key %q; did you mean %q? The keys are %s", key, s, strings.Join(logoKeys, ", "))
			}
			r.errorf(k, problem.KeyUnknown, "%s", msg)
			continue
		}
		r.pos[key] = problem.Pos{Line: v.Line, Col: v.Column}
		switch key {
		case "name":
			m.Name = r.text(k, v, "name")
		case "hex":
			m.Hex = r.hex(k, v)
		case "categories":
			m.Categories = r.slugList(v, "categories", 1, maxCategories)
		case "source":
			m.Source = r.url(k, v, "source")
		case "license":
			m.License = r.license(k, v, "license")
		case "license_url":
			m.LicenseURL = r.url(k, v, "license_url")
		case "via":
			m.Via = r.via(k, v, "via")
		case "guidelines":
			m.Guidelines = r.url(k, v, "guidelines")
		case "aliases":
			m.Aliases = r.aliases(v)
		case "files":
			m.Files = r.files(v)
		case "component":
			m.Component = r.component(k, v)
		case "install":
			m.Install = r.install(k, v)
		}
	}
	for _, req := range requiredKeys {
		if seen[req] == nil {
			probs.Errorf(missingCode(req, problem.KeyMissing), f.Path, root.Line, root.Column, "missing required key %q%s", req, requiredHint[req])
		}
	}
	if seen["license"] != nil {
		checkLicenseURL(r, m.License, m.LicenseURL, seen["license"], "license_url")
	}
	return m, probs
}

var requiredHint = map[string]string{
	"name":       " (the display name, for example name: GitHub)",
	"hex":        ` (the brand colour, for example hex: "#181717")`,
	"categories": " (1 to 5 slugs from categories.yaml, for example categories: [devtools])",
	"source":     " (the URL the artwork comes from)",
	"license":    " (an SPDX identifier such as CC0-1.0, or LicenseRef-<name> with license_url)",
}

// missingCode is the code of key when it is absent or empty: the
// artwork's provenance (source, license) has codes of its own, which new
// uses to leave those two for the contributor to fill in; any other key
// gets other.
func missingCode(key string, other problem.Code) problem.Code {
	switch key {
	case "source":
		return problem.SourceMissing
	case "license":
		return problem.LicenseMissing
	}
	return other
}

// checkLicenseURL enforces that a LicenseRef comes with the URL of its text.
func checkLicenseURL(r *metaReader, license, licenseURL string, licenseKey *yaml.Node, urlKey string) {
	if strings.HasPrefix(license, "LicenseRef-") && licenseURL == "" {
		r.errorf(licenseKey, problem.LicenseURLMissing, "license %s is not on the SPDX list, so %s is required: the URL of the licence text", license, urlKey)
	}
}

// ParseCategories reads and checks categories.yaml.
func ParseCategories(f *File) ([]Category, problem.List) {
	var probs problem.List
	root := parseYAMLRoot(f, yaml.SequenceNode, "a list of {slug, name} entries", &probs)
	if root == nil {
		return nil, probs
	}
	r := &metaReader{path: f.Path, probs: &probs, pos: map[string]problem.Pos{}}
	var cats []Category
	seen := map[string]int{}
	for _, item := range root.Content {
		if item.Kind != yaml.MappingNode {
			r.errorf(item, problem.TypeInvalid, "each category must be a mapping such as {slug: devtools, name: Developer tools}")
			continue
		}
		c := Category{Pos: problem.Pos{Line: item.Line, Col: item.Column}}
		keys := map[string]bool{}
		for i := 0; i+1 < len(item.Content); i += 2 {
			k, v := item.Content[i], item.Content[i+1]
			if keys[k.Value] {
				r.errorf(k, problem.KeyDuplicate, "duplicate key %q; keep one", k.Value)
				continue
			}
			keys[k.Value] = true
			switch k.Value {
			case "slug":
				if s := r.text(k, v, "slug"); s != "" {
					if msg := CheckSlug(s); msg != "" {
						r.errorf(v, problem.SlugInvalid, "category slug %q is not a valid slug (lower-case letters, digits and single hyphens)", s)
					} else if line, dup := seen[s]; dup {
						r.errorf(v, problem.ValueDuplicate, "duplicate category %q (first at line %d); category slugs must be unique", s, line)
					} else {
						seen[s] = v.Line
						c.Slug = s
					}
				}
			case "name":
				c.Name = r.text(k, v, "name")
			default:
				r.errorf(k, problem.KeyUnknown, "unknown key %q; a category has only slug and name", k.Value)
			}
		}
		for _, req := range []string{"slug", "name"} {
			if !keys[req] {
				r.errorf(item, problem.KeyMissing, "category is missing %q", req)
			}
		}
		if c.Slug != "" && c.Name != "" {
			cats = append(cats, c)
		}
	}
	if len(root.Content) == 0 {
		r.errorf(root, problem.ListSize, "no categories; list at least one {slug, name}")
	}
	slices.SortFunc(cats, func(a, b Category) int { return strings.Compare(a.Slug, b.Slug) })
	return cats, probs
}

// parseYAMLRoot parses a one-document YAML file whose root must be of kind
// want, and rejects aliases anywhere (they serve no purpose in metadata and
// are the vector of alias bombs).
func parseYAMLRoot(f *File, want yaml.Kind, wantDesc string, probs *problem.List) *yaml.Node {
	data := f.Data
	if enc := textenc.Sniff(data); enc != "" {
		probs.Errorf(problem.EncodingInvalid, f.Path, 1, 1, "is saved as %s, not UTF-8; save it as UTF-8", textenc.Describe(enc))
		return nil
	}
	if !utf8.Valid(data) {
		line, col := invalidUTF8Pos(data)
		probs.Errorf(problem.EncodingInvalid, f.Path, line, col, "is not valid UTF-8; save it as UTF-8")
		return nil
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if want == yaml.MappingNode {
		if root, ok := plainMapping(data); ok {
			return root
		}
	}
	return decodeYAMLRoot(f.Path, data, want, wantDesc, probs)
}

// decodeYAMLRoot is parseYAMLRoot's reading of UTF-8 data, without its
// BOM, by yaml.v3.
func decodeYAMLRoot(path string, data []byte, want yaml.Kind, wantDesc string, probs *problem.List) *yaml.Node {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			probs.Errorf(problem.YAMLInvalid, path, 0, 0, "is empty; it must hold %s", wantDesc)
			return nil
		}
		reportYAMLError(path, data, err, probs)
		return nil
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		probs.Errorf(problem.YAMLInvalid, path, extra.Line, extra.Column, "holds more than one YAML document; remove the --- separator and everything after it")
		return nil
	} else if !errors.Is(err, io.EOF) {
		reportYAMLError(path, data, err, probs)
		return nil
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		probs.Errorf(problem.YAMLInvalid, path, 0, 0, "is empty; it must hold %s", wantDesc)
		return nil
	}
	if a := findAlias(&doc); a != nil {
		probs.Errorf(problem.YAMLInvalid, path, a.Line, a.Column, "uses a YAML alias (*%s); aliases are not allowed here: write the value out", a.Value)
		return nil
	}
	root := doc.Content[0]
	if root.Kind != want {
		probs.Errorf(problem.YAMLInvalid, path, root.Line, root.Column, "must hold %s, not %s", wantDesc, kindName(root))
		return nil
	}
	return root
}

func findAlias(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode {
		return n
	}
	for _, c := range n.Content {
		if a := findAlias(c); a != nil {
			return a
		}
	}
	return nil
}

func reportYAMLError(path string, data []byte, err error, probs *problem.List) {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		for _, e := range te.Errors {
			reportYAMLError(path, data, errors.New(e), probs)
		}
		return
	}
	msg := err.Error()
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		hint := ""
		if lineHasTab(data, line) || strings.Contains(m[2], "tab") {
			hint = "; YAML does not allow tabs for indentation: use spaces"
		}
		probs.Errorf(problem.YAMLInvalid, path, line, 0, "invalid YAML: %s%s", m[2], hint)
		return
	}
	probs.Errorf(problem.YAMLInvalid, path, 0, 0, "invalid YAML: %s", strings.TrimPrefix(msg, "yaml: "))
}

func lineHasTab(data []byte, line int) bool {
	lines := bytes.Split(data, []byte("\n"))
	for _, l := range []int{line - 1, line} { // yaml.v3 sometimes names the line after
		if l >= 1 && l <= len(lines) && bytes.IndexByte(lines[l-1], '\t') >= 0 {
			return true
		}
	}
	return false
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "an empty value"
		}
		return fmt.Sprintf("the value %q", truncate(n.Value, 40))
	}
	return "something else"
}

// metaReader turns YAML nodes into checked values, recording problems.
type metaReader struct {
	path  string
	probs *problem.List
	pos   map[string]problem.Pos
}

func (r *metaReader) errorf(n *yaml.Node, code problem.Code, format string, args ...any) {
	r.probs.Errorf(code, r.path, n.Line, n.Column, format, args...)
}

// text reads a scalar's own text. Scalars YAML would type as numbers or
// booleans keep the digits as written, which is what a user means.
func (r *metaReader) text(k, v *yaml.Node, what string) string {
	if v.Kind != yaml.ScalarNode {
		r.errorf(v, problem.TypeInvalid, "%s must be a single value, not %s", what, kindName(v))
		return ""
	}
	s := v.Value
	if v.Tag == "!!null" {
		s = ""
	}
	s = strings.TrimSpace(s)
	limit := maxTextLen
	if what == "install" {
		limit = maxInstallLen
	}
	if s == "" {
		if c := commentValue(k, v); c != "" {
			r.errorf(v, missingCode(what, problem.ValueEmpty), "%s is empty: in YAML an unquoted # starts a comment; quote the value: %s: %q", what, what, c)
		} else if slices.Contains(requiredKeys, what) {
			r.errorf(v, missingCode(what, problem.ValueEmpty), "%s is empty; it is required: give it a value", what)
		} else {
			r.errorf(v, problem.ValueEmpty, "%s is empty; give it a value or remove the key", what)
		}
		return ""
	}
	if c, i, bad := escape.FirstControl(s); bad {
		r.errorf(v, problem.TextInvalid, "%s has %s (U+%04X) at character %d; text must be one line without control or bidirectional characters, which are invisible and can change how it reads: remove it", what, controlKind(c), c, i+1)
		return ""
	}
	if n := utf8.RuneCountInString(s); n > limit {
		r.errorf(v, problem.TextInvalid, "%s is %d characters; the limit is %d", what, n, limit)
		return ""
	}
	return s
}

// controlKind names the kind of a character escape.Control refuses.
func controlKind(r rune) string {
	switch {
	case r == '\n' || r == '\r' || r == '\u0085' || r == '\u2028' || r == '\u2029':
		return "a line break"
	case unicode.Is(unicode.Bidi_Control, r):
		return "a bidirectional control character"
	}
	return "a control character"
}

// component reads component: a JS identifier the component module can
// declare. Names the component template itself uses are checked later,
// against the template of the build (render.TemplateNames, in the checks
// across logos).
func (r *metaReader) component(k, v *yaml.Node) string {
	c := r.text(k, v, "component")
	switch {
	case c == "":
	case slices.Contains(jsReserved, c):
		r.errorf(v, problem.ComponentInvalid, "component %q is a JavaScript reserved word; name the component in PascalCase, for example GitHubIcon", c)
	case !componentRE.MatchString(c):
		r.errorf(v, problem.ComponentInvalid, "component %q is not a component name: a JS identifier of ASCII letters and digits that starts with an upper-case letter (JSX reads <lower-case /> as an HTML element), for example GitHubIcon", truncate(c, 80))
	default:
		return c
	}
	return ""
}

// jsReserved is every word ECMAScript reserves in a module (strict mode),
// and the two names a strict function cannot take. None matches
// componentRE; they get a message of their own.
var jsReserved = strings.Fields(`await break case catch class const continue debugger default delete do
	else enum export extends false finally for function if implements import in instanceof
	interface let new null package private protected public return static super switch this
	throw true try typeof var void while with yield arguments eval`)

// install reads install: one plain command line, shown on the logo's page
// with a Copy button and in its JSON. Allowed are the characters of a
// command, its flags, package names and URLs; anything a shell reads as an
// operator, a substitution, a quote, a glob or a comment is refused.
func (r *metaReader) install(k, v *yaml.Node) string {
	s := r.text(k, v, "install")
	if s == "" {
		return ""
	}
	if msg := CheckInstall(s); msg != "" {
		r.errorf(v, problem.InstallInvalid, "%s", msg)
		return ""
	}
	return s
}

// CheckInstall returns what is wrong with s as an install command, or "".
// The build's -install-template, once expanded, obeys the same rule.
func CheckInstall(s string) string {
	for i, c := range []rune(s) {
		if !strings.ContainsRune(installChars, c) {
			what := "which an install command does not need"
			if strings.ContainsRune(";|&$`<>()\n", c) {
				what = "a shell operator or substitution"
			}
			return fmt.Sprintf("install has %q at character %d, %s; an install command is one plain command line of letters, digits, spaces and %s, such as npx shadcn@latest add https://example.com/r/acme.json", c, i+1, what, installPunct)
		}
	}
	return ""
}

const (
	installPunct = "@ / : . _ - + = , % ~ ^"
	installChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 @/:._-+=,%~^"
)

// commentValue returns what an unquoted "key: #..." turned into a comment.
func commentValue(k, v *yaml.Node) string {
	for _, c := range []string{v.LineComment, k.LineComment} {
		if strings.HasPrefix(c, "#") {
			return strings.TrimSpace(strings.SplitN(c, " ", 2)[0])
		}
	}
	return ""
}

func (r *metaReader) hex(k, v *yaml.Node) string {
	s := r.text(k, v, "hex")
	if s == "" {
		return ""
	}
	if !hexRE.MatchString(s) {
		r.errorf(v, problem.HexInvalid, "hex %q is not a colour; write # and six hexadecimal digits, quoted: hex: \"#1A2B3C\"", s)
		return ""
	}
	return "#" + strings.ToUpper(strings.TrimPrefix(s, "#"))
}

func (r *metaReader) url(k, v *yaml.Node, what string) string {
	s := r.text(k, v, what)
	if s == "" {
		return ""
	}
	if msg := checkURL(s); msg != "" {
		r.errorf(v, problem.URLInvalid, "%s %q %s", what, truncate(s, 80), msg)
		return ""
	}
	return s
}

// checkURL returns why s is not an absolute http(s) URL, or "".
func checkURL(s string) string {
	if len(s) > maxURLLen {
		return fmt.Sprintf("is longer than %d characters", maxURLLen)
	}
	u, err := url.Parse(s)
	if err != nil || strings.ContainsAny(s, " <>\"'`\\") {
		return "is not a valid URL"
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return "is not an absolute http(s) URL; write it in full, starting with https://"
	}
	if u.User != nil {
		return "must not carry a user name or password"
	}
	return ""
}

func (r *metaReader) license(k, v *yaml.Node, what string) string {
	s := r.text(k, v, what)
	switch {
	case s == "":
		return ""
	case spdx.Valid(s):
		return s
	case licenseRefRE.MatchString(s):
		return s
	case spdx.Deprecated(s):
		r.errorf(v, problem.LicenseInvalid, "%s %q is a deprecated SPDX identifier; use its current form (for example GPL-2.0-only or GPL-2.0-or-later)", what, s)
	default:
		if near := spdx.Nearest(s); near != "" {
			r.errorf(v, problem.LicenseInvalid, "%s %q is not an SPDX identifier; did you mean %q?", what, s, near)
		} else {
			r.errorf(v, problem.LicenseInvalid, "%s %q is not an SPDX identifier (SPDX list %s); use one from https://spdx.org/licenses/ or LicenseRef-<name> with license_url", what, s, spdx.ListVersion)
		}
	}
	return ""
}

func (r *metaReader) slugList(v *yaml.Node, what string, minN, maxN int) []string {
	if v.Kind != yaml.SequenceNode {
		r.errorf(v, problem.TypeInvalid, "%s must be a list of category slugs, for example %s: [devtools]", what, what)
		return nil
	}
	if n := len(v.Content); n < minN || n > maxN {
		r.errorf(v, problem.ListSize, "%s has %d entries; give %d to %d", what, n, minN, maxN)
	}
	var out []string
	for _, item := range v.Content {
		if item.Kind != yaml.ScalarNode || item.Tag == "!!null" || item.Value == "" {
			r.errorf(item, problem.TypeInvalid, "each entry of %s must be a category slug", what)
			continue
		}
		if slices.Contains(out, item.Value) {
			r.errorf(item, problem.ValueDuplicate, "%s lists %q twice", what, item.Value)
			continue
		}
		r.pos[fmt.Sprintf("%s[%d]", what, len(out))] = problem.Pos{Line: item.Line, Col: item.Column}
		out = append(out, item.Value)
	}
	return out
}

func (r *metaReader) aliases(v *yaml.Node) []string {
	if v.Kind != yaml.SequenceNode {
		r.errorf(v, problem.TypeInvalid, "aliases must be a list of names, for example aliases: [Octocat]")
		return nil
	}
	if len(v.Content) > maxAliases {
		r.errorf(v, problem.ListSize, "aliases has %d entries; the limit is %d", len(v.Content), maxAliases)
		return nil
	}
	var out []string
	for _, item := range v.Content {
		s := r.text(item, item, "alias")
		if s == "" {
			continue
		}
		if slices.Contains(out, s) {
			r.errorf(item, problem.ValueDuplicate, "alias %q is listed twice", s)
			continue
		}
		out = append(out, s)
	}
	return out
}

func (r *metaReader) files(v *yaml.Node) map[string]FileMeta {
	if v.Kind != yaml.MappingNode {
		r.errorf(v, problem.TypeInvalid, "files must be a mapping from variant name to {source, license, license_url, via}")
		return nil
	}
	out := map[string]FileMeta{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, fv := v.Content[i], v.Content[i+1]
		variant := k.Value
		if IsVariantGlob(variant) {
			if !doublestar.ValidatePattern(variant) || strings.Contains(variant, "/") {
				r.errorf(k, problem.KeyUnknown, "files: %q is not a valid variant pattern; use * and ? as in wordmark* (wordmark and wordmark-dark), or {a,b} as in {icon,icon-mono}", variant)
				continue
			}
			if len(VariantsMatching(variant, Variants)) == 0 {
				r.errorf(k, problem.KeyUnknown, "files: pattern %q matches no variant; the variants are %s", variant, strings.Join(Variants, ", "))
				continue
			}
		} else if !slices.Contains(Variants, variant) {
			r.errorf(k, problem.KeyUnknown, "files: unknown variant %q; the variants are %s", variant, strings.Join(Variants, ", "))
			continue
		}
		if _, dup := out[variant]; dup {
			r.errorf(k, problem.KeyDuplicate, "files: duplicate variant %q; keep one", variant)
			continue
		}
		r.pos["files."+variant] = problem.Pos{Line: k.Line, Col: k.Column}
		if fv.Kind != yaml.MappingNode {
			r.errorf(fv, problem.TypeInvalid, "files.%s must be a mapping such as {source: https://..., license: MIT}", variant)
			continue
		}
		var fm FileMeta
		var licenseKey *yaml.Node
		seen := map[string]bool{}
		for j := 0; j+1 < len(fv.Content); j += 2 {
			fk, fval := fv.Content[j], fv.Content[j+1]
			if seen[fk.Value] {
				r.errorf(fk, problem.KeyDuplicate, "files.%s: duplicate key %q; keep one", variant, fk.Value)
				continue
			}
			seen[fk.Value] = true
			what := "files." + variant + "." + fk.Value
			switch fk.Value {
			case "source":
				fm.Source = r.url(fk, fval, what)
			case "license":
				fm.License = r.license(fk, fval, what)
				licenseKey = fk
			case "license_url":
				fm.LicenseURL = r.url(fk, fval, what)
			case "via":
				fm.Via = r.via(fk, fval, what)
			default:
				r.errorf(fk, problem.KeyUnknown, "files.%s: unknown key %q; a file override has source, license, license_url and via", variant, fk.Value)
			}
		}
		if len(seen) == 0 {
			r.errorf(fv, problem.ValueEmpty, "files.%s is empty; give source, license, license_url or via, or remove it", variant)
		}
		if licenseKey != nil {
			checkLicenseURL(r, fm.License, fm.LicenseURL, licenseKey, "files."+variant+".license_url")
		}
		out[variant] = fm
	}
	return out
}

// IsVariantGlob reports whether a files: key is a doublestar pattern
// rather than a variant name.
func IsVariantGlob(key string) bool {
	return strings.ContainsAny(key, `*?[{\`)
}

// VariantsMatching lists the variants of among that the files: key (a
// variant or a pattern) describes.
func VariantsMatching(key string, among []string) []string {
	var out []string
	for _, v := range among {
		if v == key || IsVariantGlob(key) && doublestar.MatchUnvalidated(key, v) {
			out = append(out, v)
		}
	}
	return out
}

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "..."
}

// invalidUTF8Pos returns the line and column of the first byte that is not
// valid UTF-8.
func invalidUTF8Pos(data []byte) (line, col int) {
	line, col = 1, 1
	for len(data) > 0 {
		r, size := utf8.DecodeRune(data)
		if r == utf8.RuneError && size <= 1 {
			return line, col
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		data = data[size:]
	}
	return line, col
}
