package fuzzy

import "testing"

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"", "ab", 2}, {"kitten", "sitting", 3}, {"hex", "hex", 0}, {"lisence", "license", 2},
	} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestNearest(t *testing.T) {
	keys := []string{"name", "hex", "license", "license_url"}
	for _, tc := range []struct{ in, want string }{
		{"Name", "name"}, {"lisence", "license"}, {"licence_url", "license_url"}, {"colour", ""},
	} {
		if got := Nearest(tc.in, keys, 2); got != tc.want {
			t.Errorf("Nearest(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
