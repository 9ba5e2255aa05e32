package cli

import (
	"strconv"
	"strings"
	"testing"
)

func TestCheckVersion(t *testing.T) {
	for in, want := range map[string]string{
		"1.0.0": "1.0.0", "v1.2.3": "1.2.3", "1.2.3-rc.1": "1.2.3-rc.1", "0.0.1-alpha-2.x": "0.0.1-alpha-2.x",
		"10.20.30": "10.20.30", "2026-05-01": "2026-05-01", "2024-02-29": "2024-02-29",
	} {
		if got, err := CheckVersion("-version", in); err != nil || got != want {
			t.Errorf("CheckVersion(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{
		"", "v", "1.0", "1.0.0.0", "01.0.0", "1.0.0-", "1.0.0-01", "1.0.0+build.5", "vv1.0.0", "latest",
		"2026-13-01", "2025-02-29", "2026-5-1", "1.0.0/x", "../1.0.0", "1.0.0 ", " 1.0.0",
	} {
		v, err := CheckVersion("-version", in)
		if err == nil {
			t.Errorf("CheckVersion(%q) = %q, want an error", in, v)
			continue
		}
		if ee, ok := err.(*ExitError); !ok || ee.Code != 2 || !strings.HasPrefix(ee.Msg, "-version "+strconv.Quote(in)+" is neither a semantic version") {
			t.Errorf("CheckVersion(%q): %v, want a usage error", in, err)
		}
	}
	if _, err := CheckVersion("-version", "1.0.0+build.5"); !strings.Contains(err.Error(), "without build metadata") {
		t.Errorf("build metadata: %v", err)
	}
}
