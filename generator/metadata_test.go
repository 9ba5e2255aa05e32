package generator

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func problemStrings(l ProblemList) []string {
	var out []string
	for _, p := range l {
		out = append(out, p.Error())
	}
	return out
}

const goodMeta = `name: GitHub
hex: "#181717"
categories: [devtools, social]
source: https://github.com/logos
license: CC0-1.0
`

func TestParseMetaGood(t *testing.T) {
	m, probs := ParseMeta(&SourceFile{Path: "l.yaml", Data: []byte(goodMeta + `license_url: https://creativecommons.org/publicdomain/zero/1.0/
guidelines: https://github.com/logos
aliases: [Octocat]
files:
  wordmark: {source: https://example.com/w, license: MIT}
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
		Guidelines: "https://github.com/logos", Aliases: []string{"Octocat"},
		Files: map[string]FileMeta{
			"wordmark":  {Source: "https://example.com/w", License: "MIT"},
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
		m, probs := ParseMeta(&SourceFile{Path: "l.yaml", Data: []byte(src)})
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
			[]string{`l.yaml:2:5: hex is empty: in YAML an unquoted # starts a comment; quote the value: hex: "#181717"`}},
		{"hex not a colour", replace(`"#181717"`, `"#18171"`),
			[]string{`l.yaml:2:6: hex "#18171" is not a colour; write # and six hexadecimal digits, quoted: hex: "#1A2B3C"`}},
		{"hex as a list", replace(`"#181717"`, `[1, 2]`),
			[]string{`l.yaml:2:6: hex must be a single value, not a list`}},
		{"missing required keys", "name: X\n",
			[]string{
				`l.yaml:1:1: missing required key "categories" (1 to 5 slugs from categories.yaml, for example categories: [devtools])`,
				`l.yaml:1:1: missing required key "hex" (the brand colour, for example hex: "#181717")`,
				`l.yaml:1:1: missing required key "license" (an SPDX identifier such as CC0-1.0, or LicenseRef-<name> with license_url)`,
				`l.yaml:1:1: missing required key "source" (the URL the artwork comes from)`,
			}},
		{"empty name", replace("name: GitHub", "name: \"\""),
			[]string{`l.yaml:1:7: name is empty; it is required: give it a value`}},
		{"null name", replace("name: GitHub", "name:"),
			[]string{`l.yaml:1:6: name is empty; it is required: give it a value`}},
		{"empty optional key", goodMeta + "guidelines: \"\"\n",
			[]string{`l.yaml:6:13: guidelines is empty; give it a value or remove the key`}},
		{"unknown key with suggestion", goodMeta + "lisence_url: https://x.org\n",
			[]string{`l.yaml:6:1: unknown key "lisence_url"; did you mean "license_url"? The keys are name, hex, categories, source, license, license_url, guidelines, aliases, files, component, install`}},
		{"unknown key", goodMeta + "colour: red\n",
			[]string{`l.yaml:6:1: unknown key "colour"; the keys are name, hex, categories, source, license, license_url, guidelines, aliases, files, component, install`}},
		{"duplicate key", goodMeta + "name: Other\n",
			[]string{`l.yaml:6:1: duplicate key "name" (first at line 1); keep one`}},
		{"categories not a list", replace("[devtools, social]", "devtools"),
			[]string{`l.yaml:3:13: categories must be a list of category slugs, for example categories: [devtools]`}},
		{"no categories", replace("[devtools, social]", "[]"),
			[]string{`l.yaml:3:13: categories has 0 entries; give 1 to 5`}},
		{"six categories", replace("[devtools, social]", "[a, b, c, d, e, f]"),
			[]string{`l.yaml:3:13: categories has 6 entries; give 1 to 5`}},
		{"repeated category", replace("[devtools, social]", "[devtools, devtools]"),
			[]string{`l.yaml:3:24: categories lists "devtools" twice`}},
		{"relative source", replace("https://github.com/logos", "github.com/logos"),
			[]string{`l.yaml:4:9: source "github.com/logos" is not an absolute http(s) URL; write it in full, starting with https://`}},
		{"ftp source", replace("https://github.com/logos", "ftp://github.com/logos"),
			[]string{`l.yaml:4:9: source "ftp://github.com/logos" is not an absolute http(s) URL; write it in full, starting with https://`}},
		{"javascript source", replace("https://github.com/logos", "javascript:alert(1)"),
			[]string{`l.yaml:4:9: source "javascript:alert(1)" is not an absolute http(s) URL; write it in full, starting with https://`}},
		{"licence near miss", replace("CC0-1.0", "Apache 2.0"),
			[]string{`l.yaml:5:10: license "Apache 2.0" is not an SPDX identifier; did you mean "Apache-2.0"?`}},
		{"licence wrong case", replace("CC0-1.0", "mit"),
			[]string{`l.yaml:5:10: license "mit" is not an SPDX identifier; did you mean "MIT"?`}},
		{"licence unknown", replace("CC0-1.0", "Proprietary stuff"),
			[]string{`l.yaml:5:10: license "Proprietary stuff" is not an SPDX identifier (SPDX list 3.0.24); use one from https://spdx.org/licenses/ or LicenseRef-<name> with license_url`}},
		{"deprecated licence", replace("CC0-1.0", "GPL-2.0"),
			[]string{`l.yaml:5:10: license "GPL-2.0" is a deprecated SPDX identifier; use its current form (for example GPL-2.0-only or GPL-2.0-or-later)`}},
		{"LicenseRef without URL", replace("CC0-1.0", "LicenseRef-Brand"),
			[]string{`l.yaml:5:1: license LicenseRef-Brand is not on the SPDX list, so license_url is required: the URL of the licence text`}},
		{"files override LicenseRef without URL", goodMeta + "files:\n  wordmark: {license: LicenseRef-X}\n",
			[]string{`l.yaml:7:14: license LicenseRef-X is not on the SPDX list, so files.wordmark.license_url is required: the URL of the licence text`}},
		{"files unknown variant", goodMeta + "files:\n  icon_dark: {license: MIT}\n",
			[]string{`l.yaml:7:3: files: unknown variant "icon_dark"; the variants are icon, icon-mono, icon-dark, wordmark, wordmark-dark`}},
		{"files unknown key", goodMeta + "files:\n  wordmark: {licence: MIT}\n",
			[]string{`l.yaml:7:14: files.wordmark: unknown key "licence"; a file override has source, license and license_url`}},
		{"files empty override", goodMeta + "files:\n  wordmark: {}\n",
			[]string{`l.yaml:7:13: files.wordmark is empty; give source, license or license_url, or remove it`}},
		{"bad component", goodMeta + "component: github-icon\n",
			[]string{`l.yaml:6:12: component "github-icon" is not a component name; use PascalCase letters and digits, for example GitHubIcon`}},
		{"aliases not a list", goodMeta + "aliases: Octocat\n",
			[]string{`l.yaml:6:10: aliases must be a list of names, for example aliases: [Octocat]`}},
		{"alias twice", goodMeta + "aliases: [A, A]\n",
			[]string{`l.yaml:6:14: alias "A" is listed twice`}},
		{"multi-line name", replace("name: GitHub", "name: \"Git\\nHub\""),
			[]string{`l.yaml:1:7: name must be one line of text without control or bidirectional-override characters`}},
		{"bidi override in name", replace("name: GitHub", "name: \"Git\u202eHub\""),
			[]string{`l.yaml:1:7: name must be one line of text without control or bidirectional-override characters`}},
		{"tabs", "name: X\n\thex: y\n",
			[]string{`l.yaml:2: invalid YAML: found a tab character that violates indentation; YAML does not allow tabs for indentation: use spaces`}},
		{"not a mapping", "- a\n- b\n",
			[]string{`l.yaml:1:1: must hold a mapping of keys (name: ..., hex: ...), not a list`}},
		{"scalar document", "hello\n",
			[]string{`l.yaml:1:1: must hold a mapping of keys (name: ..., hex: ...), not the value "hello"`}},
		{"empty file", "",
			[]string{`l.yaml: is empty; it must hold a mapping of keys (name: ..., hex: ...)`}},
		{"comment only", "# nothing\n",
			[]string{`l.yaml: is empty; it must hold a mapping of keys (name: ..., hex: ...)`}},
		{"two documents", goodMeta + "---\nname: Y\n",
			[]string{`l.yaml:6:1: holds more than one YAML document; remove the --- separator and everything after it`}},
		{"alias", "name: &n X\nhex: *n\n",
			[]string{`l.yaml:2:6: uses a YAML alias (*n); aliases are not allowed here: write the value out`}},
		{"alias bomb", "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n",
			[]string{`l.yaml:2:8: uses a YAML alias (*a); aliases are not allowed here: write the value out`}},
		{"not UTF-8", "name: caf\xe9\n",
			[]string{`l.yaml:1:10: is not valid UTF-8; save it as UTF-8`}},
		{"mapping key", goodMeta + "? [a]\n: b\n",
			[]string{`l.yaml:6:3: keys must be plain names`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, probs := ParseMeta(&SourceFile{Path: "l.yaml", Data: []byte(tc.in)})
			probs.Sort()
			if diff := cmp.Diff(tc.want, problemStrings(probs)); diff != "" {
				t.Errorf("problems mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseMetaBOM(t *testing.T) {
	m, probs := ParseMeta(&SourceFile{Path: "l.yaml", Data: []byte("\xef\xbb\xbf" + goodMeta)})
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
			[]Category{{Slug: "ai", Name: "AI", Pos: Pos{Line: 2, Col: 3}}, {Slug: "os", Name: "Operating systems", Pos: Pos{Line: 1, Col: 3}}}},
		{"duplicate slug", "- {slug: ai, name: AI}\n- {slug: ai, name: Again}\n",
			[]string{`c.yaml:2:10: duplicate category "ai" (first at line 1); category slugs must be unique`},
			[]Category{{Slug: "ai", Name: "AI", Pos: Pos{Line: 1, Col: 3}}}},
		{"bad slug", "- {slug: Dev Tools, name: X}\n",
			[]string{`c.yaml:1:10: category slug "Dev Tools" is not a valid slug (lower-case letters, digits and single hyphens)`}, nil},
		{"missing name", "- {slug: ai}\n",
			[]string{`c.yaml:1:3: category is missing "name"`}, nil},
		{"unknown key", "- {slug: ai, name: AI, colour: red}\n",
			[]string{`c.yaml:1:24: unknown key "colour"; a category has only slug and name`},
			[]Category{{Slug: "ai", Name: "AI", Pos: Pos{Line: 1, Col: 3}}}},
		{"not a list", "ai: AI\n",
			[]string{`c.yaml:1:1: must hold a list of {slug, name} entries, not a mapping`}, nil},
		{"entry not a mapping", "- ai\n",
			[]string{`c.yaml:1:3: each category must be a mapping such as {slug: devtools, name: Developer tools}`}, nil},
		{"empty list", "[]\n",
			[]string{`c.yaml:1:1: no categories; list at least one {slug, name}`}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cats, probs := ParseCategories(&SourceFile{Path: "c.yaml", Data: []byte(tc.in)})
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

func TestDefaultComponent(t *testing.T) {
	for _, tc := range []struct{ name, slug, want string }{
		{"GitHub", "github", "GitHubIcon"},
		{"Next.js", "nextjs", "NextJsIcon"},
		{"Google Cloud", "google-cloud", "GoogleCloudIcon"},
		{"1Password", "1password", "Logo1PasswordIcon"},
		{"日本", "nihon", "NihonIcon"},
		{"C++", "cplusplus", "CIcon"},
	} {
		if got := DefaultComponent(tc.name, tc.slug); got != tc.want {
			t.Errorf("DefaultComponent(%q, %q) = %q, want %q", tc.name, tc.slug, got, tc.want)
		}
	}
}
