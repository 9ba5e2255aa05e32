package problem

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFormats(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		p                    Problem
		text, github, asJSON string
	}{
		{
			name:   "error with a position",
			p:      Problem{Path: "src/a/logo.yaml", Line: 2, Col: 6, Code: HexInvalid, Msg: `hex "#GG0000" is not a colour`},
			text:   `src/a/logo.yaml:2:6: hex "#GG0000" is not a colour`,
			github: `::error file=src/a/logo.yaml,line=2,col=6,title=hex-invalid::hex "#GG0000" is not a colour`,
			asJSON: `{"path":"src/a/logo.yaml","line":2,"col":6,"severity":"error","code":"hex-invalid","message":"hex \"#GG0000\" is not a colour"}`,
		},
		{
			name:   "warning with a line only",
			p:      Problem{Path: "src/a/icon.svg", Line: 3, Severity: Warning, Code: SVGAttributeUnused, Msg: "href on <g> does nothing"},
			text:   "src/a/icon.svg:3: warning: href on <g> does nothing",
			github: "::warning file=src/a/icon.svg,line=3,title=svg-attribute-unused::href on <g> does nothing",
			asJSON: `{"path":"src/a/icon.svg","line":3,"col":0,"severity":"warning","code":"svg-attribute-unused","message":"href on <g> does nothing"}`,
		},
		{
			name:   "no position, a name that would forge a line",
			p:      Problem{Path: "src/a/x\n::error::ok,\x1b[2K", Code: FileUnexpected, Msg: "unexpected file: 100%"},
			text:   `src/a/x\n::error::ok,\x1b[2K: unexpected file: 100%`,
			github: `::error file=src/a/x\n%3A%3Aerror%3A%3Aok%2C\x1b[2K,title=file-unexpected::unexpected file: 100%25`,
			asJSON: `{"path":"src/a/x\n::error::ok,\u001b[2K","line":0,"col":0,"severity":"error","code":"file-unexpected","message":"unexpected file: 100%"}`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.p.Error(); got != tc.text {
				t.Errorf("Error() = %s\nwant       %s", got, tc.text)
			}
			if got := tc.p.GitHub(); got != tc.github {
				t.Errorf("GitHub() = %s\nwant        %s", got, tc.github)
			}
			b, err := tc.p.MarshalJSON()
			if got := string(b); err != nil || got != tc.asJSON {
				t.Errorf("MarshalJSON() = %s, %v\nwant            %s", got, err, tc.asJSON)
			}
			// In a list, encoding/json escapes < and >: the same values.
			var back []map[string]any
			if b, err := json.Marshal(List{&tc.p}); err != nil || json.Unmarshal(b, &back) != nil || len(back) != 1 || back[0]["message"] != tc.p.Msg {
				t.Errorf("json.Marshal(List) = %s, %v", b, err)
			}
		})
	}
}

// TestCodesDocumented: every code of codes.go is a distinct kebab-case
// name with a doc comment, and the table of docs/source-format.md lists
// exactly these codes, in the same order, with the severity the doc
// comment gives.
func TestCodesDocumented(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "codes.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	kebab := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	doc := map[string]string{} // code -> doc comment
	var defined []string       // the codes, in the order codes.go declares them
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			if vs.Doc == nil && len(g.Specs) == 1 {
				vs.Doc = g.Doc // const X Code = "x", documented on the const
			}
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Code" {
				t.Errorf("%s: a const of codes.go that is not a Code", vs.Names[0])
				continue
			}
			code, err := strconv.Unquote(vs.Values[0].(*ast.BasicLit).Value)
			switch {
			case err != nil || !kebab.MatchString(code):
				t.Errorf("%s = %s: not a kebab-case code", vs.Names[0], vs.Values[0].(*ast.BasicLit).Value)
			case doc[code] != "":
				t.Errorf("%s: the code %q is defined twice", vs.Names[0], code)
			case vs.Doc == nil:
				t.Errorf("%s: no doc comment", vs.Names[0])
			default:
				doc[code] = vs.Doc.Text()
				defined = append(defined, code)
			}
		}
	}
	if len(doc) < 20 {
		t.Fatalf("codes.go defines %d codes; did the parse go wrong?", len(doc))
	}

	page, err := os.ReadFile("../../docs/source-format.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(page), "\n### Problem codes\n")
	if !ok {
		t.Fatal(`docs/source-format.md has no "### Problem codes" section`)
	}
	section, _, _ = strings.Cut(section, "\n#")
	row := regexp.MustCompile("(?m)^\\| `([^`]*)` \\| ([a-z ]+) \\| .+ \\|$")
	var listed []string
	for _, m := range row.FindAllStringSubmatch(section, -1) {
		code, sev := m[1], m[2]
		listed = append(listed, code)
		d, ok := doc[code]
		if !ok {
			continue // reported by the diff below
		}
		warning := strings.Contains(d, "(warning)")
		if warning && sev != "warning" || !warning && !strings.Contains(sev, "error") {
			t.Errorf("docs/source-format.md: %s is %q, but codes.go says:\n%s", code, sev, d)
		}
	}
	if diff := cmp.Diff(defined, listed); diff != "" {
		t.Errorf("the table of problem codes in docs/source-format.md differs from codes.go, in its codes or their order (-codes.go +docs):\n%s", diff)
	}
}
