package manifest

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestRead(t *testing.T) {
	for _, base := range []string{"https://logos.example.com", "", "http://localhost:8080"} {
		data, err := Encode(Manifest{BaseURL: base})
		if err != nil {
			t.Fatal(err)
		}
		got, err := Read(fstest.MapFS{File: {Data: data}})
		if err != nil {
			t.Fatalf("%q: %v", base, err)
		}
		if diff := cmp.Diff(Manifest{Format: 1, Generator: "logoindex", BaseURL: base}, got); diff != "" {
			t.Errorf("%q (-want +got):\n%s", base, diff)
		}
	}
	if _, err := Read(fstest.MapFS{}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a tree without a manifest: %v, want fs.ErrNotExist", err)
	}
	for _, tc := range []struct{ data, want string }{
		{"", "not a build manifest: unexpected end of JSON input"},
		{`{"format":1,"generator":"hugo","base_url":""}`, `not a build manifest of this version of logoindex (generator "hugo", format 1)`},
		{`{"format":2,"generator":"logoindex","base_url":""}`, `not a build manifest of this version of logoindex (generator "logoindex", format 2)`},
		{`{"format":1,"generator":"logoindex","base_url":7}`, "not a build manifest: json: cannot unmarshal number into Go struct field Manifest.base_url of type string"},
		{strings.Repeat(" ", maxManifestSize+1), "larger than a build manifest can be"},
	} {
		_, err := Read(fstest.MapFS{File: {Data: []byte(tc.data)}})
		if err == nil || err.Error() != tc.want {
			t.Errorf("Read(%.40q) = %v, want %s", tc.data, err, tc.want)
		}
	}
}

// FuzzParseManifest: publish reads the manifest of whatever tree it is
// given. No input may panic, and what it accepts writes back the same.
func FuzzParseManifest(f *testing.F) {
	if b, err := os.ReadFile("../testdata/golden/dist/" + File); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`{"format":1,"generator":"logoindex","base_url":"\u0000"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := parse(data)
		if err != nil {
			return
		}
		out, err := Encode(m)
		if err != nil {
			t.Fatal(err)
		}
		back, err := parse(out)
		if err != nil || !cmp.Equal(back, m, cmpopts.EquateEmpty()) {
			t.Fatalf("round trip: %+v -> %s -> %+v, %v", m, out, back, err)
		}
	})
}
