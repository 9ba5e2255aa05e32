package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/template"

	"logoindex/generator"
	"logoindex/generator/check"
	"logoindex/generator/problem"
	"logoindex/generator/source"
	"logoindex/internal/cli"
)

// stringList is a repeatable flag that also splits on commas.
type stringList []string

func (s *stringList) String() string { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error {
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*s = append(*s, p)
		}
	}
	return nil
}

// newArgs are the flags of new.
type newArgs struct {
	src, name, hex, source, license string
	cats                            stringList
}

func scaffoldFlagSet(stderr io.Writer) (*flag.FlagSet, *newArgs) {
	fs := cli.NewFlagSet("new", "<slug>", stderr)
	var a newArgs
	fs.StringVar(&a.src, "src", "source-logos", "source `folder`")
	fs.StringVar(&a.name, "name", "", "display `name`, as the brand writes it (required)")
	fs.StringVar(&a.hex, "hex", "", "brand `colour`, #RRGGBB (required)")
	fs.Var(&a.cats, "category", "category `slug` from categories.yaml; repeat or separate with commas (required)")
	fs.StringVar(&a.source, "source", "", "`URL` the artwork comes from")
	fs.StringVar(&a.license, "license", "", "SPDX `identifier` of the artwork's licence")
	return fs, &a
}

func runNew(_ context.Context, args []string, stdout, stderr io.Writer) error {
	flags, a := scaffoldFlagSet(stderr)
	pos, err := cli.ParseFlags(flags, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		flags.Usage()
		return cli.UsageError("new takes exactly one slug")
	}
	slug := pos[0]
	var missing []string
	for flagName, v := range map[string]string{"-name": a.name, "-hex": a.hex} {
		if strings.TrimSpace(v) == "" {
			missing = append(missing, flagName)
		}
	}
	if len(a.cats) == 0 {
		missing = append(missing, "-category")
	}
	if len(missing) > 0 {
		return cli.UsageError("new needs %s", strings.Join(slices.Sorted(slices.Values(missing)), ", "))
	}
	if msg := slugProblem(slug); msg != "" {
		return cli.UsageError("%s", msg)
	}

	// Check the flags the way build will check the file, by building the
	// file and running the real validator on it.
	data, err := scaffold(slug, a.name, a.hex, a.cats, a.source, a.license)
	if err != nil {
		return err
	}
	if err := checkScaffold(a.src, data); err != nil {
		return err
	}
	dir := filepath.Join(a.src, slug)
	if _, err := os.Lstat(dir); err == nil {
		return cli.UsageError("%s already exists; edit its logo.yaml instead", dir)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "logo.yaml"), data, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "created %s\nnext:\n", filepath.Join(dir, "logo.yaml"))
	steps := []string{fmt.Sprintf(`add %s/icon.svg (required, in the brand colour) and icon-mono.svg (fill="currentColor")`, dir)}
	var unset []string
	for _, f := range []struct{ key, value string }{{"source", a.source}, {"license", a.license}} {
		if f.value == "" {
			unset = append(unset, f.key)
		}
	}
	if len(unset) > 0 {
		steps = append(steps, fmt.Sprintf("fill in %s in %s/logo.yaml", strings.Join(unset, " and "), dir))
	}
	steps = append(steps, "make check", "make build")
	for i, step := range steps {
		fmt.Fprintf(stdout, "  %d. %s\n", i+1, step)
	}
	return nil
}

// slugProblem says what is wrong with the slug argument of new, or "".
// CheckSlug's messages speak of a folder to rename; here there is none yet.
func slugProblem(slug string) string {
	if why := generator.ReservedSlug(slug); why != "" {
		return fmt.Sprintf("the slug %q is reserved (%s); choose another", slug, why)
	}
	if source.CheckSlug(slug) == "" {
		return ""
	}
	msg := fmt.Sprintf("%q is not a valid slug: use lower-case letters a-z, digits and single hyphens, at most %d characters", slug, source.MaxSlugLen)
	if s := source.SuggestSlug(slug); s != "" && source.CheckSlug(s) == "" {
		msg += fmt.Sprintf(", for example %q", s)
	}
	return msg
}

// checkScaffold validates the generated logo.yaml against the source
// folder's categories, reporting only what the flags got wrong.
func checkScaffold(src string, data []byte) error {
	if _, err := os.Stat(filepath.Join(src, "categories.yaml")); err != nil {
		return cli.UsageError("%s has no categories.yaml; run new from the project folder or pass -src", src)
	}
	cats, err := os.ReadFile(filepath.Join(src, "categories.yaml"))
	if err != nil {
		return err
	}
	var probs generator.ProblemList
	catList, p := source.ParseCategories(&source.File{Path: filepath.ToSlash(filepath.Join(src, "categories.yaml")), Data: cats})
	probs = append(probs, p...)
	known := map[string]bool{}
	var names []string
	for _, c := range catList {
		known[c.Slug] = true
		names = append(names, c.Slug)
	}
	m, p := source.ParseMeta(&source.File{Path: "logo.yaml", Data: data})
	var msgs []string
	for _, pr := range p {
		// source and license may be left for the contributor to fill in.
		if pr.Code == problem.SourceMissing || pr.Code == problem.LicenseMissing {
			continue
		}
		msgs = append(msgs, pr.Msg)
	}
	for _, c := range m.Categories {
		if !known[c] {
			msg := fmt.Sprintf("unknown category %q; ", c)
			if near := source.SuggestCategory(c, names); near != "" {
				msg += fmt.Sprintf("did you mean %q? ", near)
			}
			msgs = append(msgs, msg+"the categories are "+strings.Join(names, ", "))
		}
	}
	if len(probs.Errors()) > 0 {
		return fmt.Errorf("%s is invalid; fix it first:\n%s", filepath.Join(src, "categories.yaml"), probs.Errors().Error())
	}
	if len(msgs) > 0 {
		return cli.UsageError("%s", strings.Join(msgs, "; "))
	}
	return nil
}

var scaffoldTmpl = template.Must(template.New("logo.yaml").Parse(`# yaml-language-server: $schema=../../generator/schema/logo.schema.json
# {{.Name}}: every key is described in docs/source-format.md.

# Display name, as the brand writes it.
name: {{.NameYAML}}
# Brand colour: "#" and six hexadecimal digits, quoted (an unquoted # starts a YAML comment).
hex: "{{.Hex}}"
# 1 to 5 category slugs from ../categories.yaml.
categories: [{{.Categories}}]
# Where the artwork comes from: an absolute http(s) URL, the brand's press page or file (an icon set you took it from goes in via).
source: {{.Source}}
# Licence you distribute the files under: an SPDX identifier (https://spdx.org/licenses/), or LicenseRef-<name> with license_url.
license: {{.License}}
# URL of the licence text: required with LicenseRef-*, optional otherwise.
# license_url: https://
# The distribution you took the files from, if not from the source itself: its name, the one version taken and its URL.
# via: {name: simple-icons, version: 16.37.0, url: https://github.com/simple-icons/simple-icons}
# The brand's usage guidelines, if it publishes them.
# guidelines: https://
# Other names people search for.
# aliases: []
# Per-file provenance (source, license, license_url, via) where a variant comes from elsewhere than above.
# files:
#   wordmark: {source: https://, license: MIT, via: {name: devicon, version: 2.17.0, url: https://github.com/devicons/devicon}}
# Component name; by default {{.Component}}, from the name when it spells the slug, else from the slug.
# component: {{.Component}}
# Install command; by default the build's template (npx shadcn@latest add <base>/r/<slug>.json).
# install: npx ...
`))

// scaffold renders a logo.yaml with every key and a comment for each.
func scaffold(slug, name, hex string, cats []string, source, license string) ([]byte, error) {
	quote := func(s string) string {
		if s == "" {
			return `""`
		}
		return fmt.Sprintf("%q", s)
	}
	hex = strings.ToUpper(strings.TrimPrefix(strings.TrimSpace(hex), "#"))
	var buf bytes.Buffer
	err := scaffoldTmpl.Execute(&buf, map[string]string{
		"Name":       name,
		"NameYAML":   quote(name),
		"Hex":        "#" + hex,
		"Categories": strings.Join(cats, ", "),
		"Source":     quote(source),
		"License":    quote(license),
		"Component":  check.DefaultComponent(name, slug),
	})
	return buf.Bytes(), err
}
