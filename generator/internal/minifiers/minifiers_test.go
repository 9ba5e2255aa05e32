package minifiers

import (
	"strings"
	"testing"
)

// TestNew checks that every media type the build writes is set up, with
// the options the output depends on.
func TestNew(t *testing.T) {
	m := New()
	for _, tc := range []struct{ mediatype, in, want string }{
		{"image/svg+xml", `<svg xmlns="http://www.w3.org/2000/svg"> <path d="M 0.123456789 0 L 10 10" /> </svg>`, `<svg xmlns="http://www.w3.org/2000/svg"><path d="M.123456789.0 10 10"/></svg>`},
		{"text/css", "a { color : #ff0000 ; }", "a{color:red}"},
		{"text/javascript", "var  a = 1 ;\n", "var a=1"},
		// KeepDocumentTags: the templates write <html>, <head> and <body>.
		{"text/html", "<!doctype html><html><head><title>x</title></head><body> <p>a</p> </body></html>", "<!doctype html><html><head><title>x</title></head><body><p>a</body></html>"}, // </p> is optional
	} {
		got, err := m.String(tc.mediatype, tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.mediatype, err)
			continue
		}
		if strings.TrimSpace(got) != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.mediatype, got, tc.want)
		}
	}
}
