package spdx

import "testing"

func TestValid(t *testing.T) {
	for _, tc := range []struct {
		id   string
		want bool
	}{
		{"MIT", true},
		{"Apache-2.0", true},
		{"CC0-1.0", true},
		{"GPL-3.0-or-later", true},
		{"mit", false}, // exact spelling only
		{"Apache 2.0", false},
		{"GPL-2.0", false}, // deprecated, not current
		{"", false},
	} {
		if got := Valid(tc.id); got != tc.want {
			t.Errorf("Valid(%q) = %v, want %v", tc.id, got, tc.want)
		}
	}
	if len(ids()) < 700 {
		t.Errorf("embedded list has %d ids, want the whole SPDX list (700+)", len(ids()))
	}
	if !Deprecated("GPL-2.0") || Deprecated("MIT") {
		t.Error("Deprecated: GPL-2.0 must be deprecated and MIT not")
	}
}

func TestNearest(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Apache 2.0", "Apache-2.0"},
		{"apache-2.0", "Apache-2.0"},
		{"mit", "MIT"},
		{"MIT License", "MIT"},
		{"CC0 1.0", "CC0-1.0"},
		{"CC0", "CC0-1.0"},
		{"Apach-2.0", "Apache-2.0"},
		{"BSD_3_Clause", "BSD-3-Clause"},
		{"definitely not a licence", ""},
		{"", ""},
	} {
		if got := Nearest(tc.in); got != tc.want {
			t.Errorf("Nearest(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
