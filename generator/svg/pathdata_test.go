package svg

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestArcSweep compares arcSweep with the signed angle it stands for,
// computed with atan2 every time, on ends in every direction from the
// centre and on ends a hair apart, where the two must agree exactly.
func TestArcSweep(t *testing.T) {
	want := func(p0, p1, c point, fs bool) (float64, bool) {
		delta := math.Atan2(p1.y-c.y, p1.x-c.x) - math.Atan2(p0.y-c.y, p0.x-c.x)
		if fs && delta < 0 {
			delta += 2 * math.Pi
		} else if !fs && delta > 0 {
			delta -= 2 * math.Pi
		}
		if delta < 0 {
			return -1, math.Abs(delta) >= 2*math.Pi-1e-9
		}
		return 1, math.Abs(delta) >= 2*math.Pi-1e-9
	}
	rng := rand.New(rand.NewPCG(1, 2))
	c := point{3, -7}
	cases := []point{{0, 0}, c, {3, 0}, {-3, 0}, {3 + 1e-300, -7}}
	for range 20000 {
		a := rng.Float64() * 2 * math.Pi
		r := math.Pow(10, rng.Float64()*8-4)
		cases = append(cases, point{c.x + r*math.Cos(a), c.y + r*math.Sin(a)})
	}
	tested := 0
	for k, p0 := range cases {
		// Each end against the next, against itself moved by a few
		// units in the last place, and against itself turned by a hair
		// either side of the thousandth of a radian where arcSweep
		// changes its method.
		a := math.Atan2(p0.y-c.y, p0.x-c.x)
		r := math.Hypot(p0.x-c.x, p0.y-c.y)
		ends := []point{cases[(k+1)%len(cases)], p0, {math.Nextafter(p0.x, math.Inf(1)), p0.y}, {p0.x, math.Nextafter(p0.y, math.Inf(-1))}}
		for _, d := range []float64{1e-12, 1e-6, 0.999e-3, 1e-3, 1.001e-3, 2*math.Pi - 1e-10, 2*math.Pi - 1e-8} {
			ends = append(ends, point{c.x + r*math.Cos(a+d), c.y + r*math.Sin(a+d)}, point{c.x + r*math.Cos(a-d), c.y + r*math.Sin(a-d)})
		}
		for _, p1 := range ends {
			for _, fs := range []bool{false, true} {
				gotDir, gotFull := arcSweep(p0, p1, c, fs)
				wantDir, wantFull := want(p0, p1, c, fs)
				if gotDir != wantDir || gotFull != wantFull {
					t.Fatalf("arcSweep(%v, %v, %v, %v) = %v, %v; want %v, %v", p0, p1, c, fs, gotDir, gotFull, wantDir, wantFull)
				}
				tested++
			}
		}
	}
	if tested < 100000 {
		t.Fatalf("only %d cases", tested)
	}
}

// TestParseNumber compares parseNumber with strconv.ParseFloat, bit for
// bit, on decimals of every length around the 15 digits its quick path
// takes, and on the forms scanNumber lets through.
func TestParseNumber(t *testing.T) {
	inputs := []string{"0", "-0", "+0", "-0.0", ".5", "-.5", "+.5", "5.", "-5.", "007", "0.1", "0.3", "1e3", "-1.5E-3", "1e400", "123456789012345", "1234567890123456", "0.000000000000001", "9007199254740993", "."}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200000 {
		digits := make([]byte, 1+rng.IntN(18))
		for k := range digits {
			digits[k] = byte('0' + rng.IntN(10))
		}
		s := string(digits)
		if k := rng.IntN(len(s) + 2); k <= len(s) {
			s = s[:k] + "." + s[k:]
		}
		inputs = append(inputs, s, "-"+s)
	}
	for _, s := range inputs {
		got, gotErr := parseNumber(s)
		want, wantErr := strconv.ParseFloat(s, 64)
		if math.Float64bits(got) != math.Float64bits(want) || (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("parseNumber(%q) = %v, %v; ParseFloat: %v, %v", s, got, gotErr, want, wantErr)
		}
	}
}

// FuzzParseNumber checks parseNumber against strconv.ParseFloat on what
// scanNumber accepts.
func FuzzParseNumber(f *testing.F) {
	for _, s := range []string{"0", "-.5", "12.75", "1e3", "123456789012345", "0.30000000000000004"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if end := scanNumber(s, 0); end > 0 {
			s = s[:end]
		}
		got, gotErr := parseNumber(s)
		want, wantErr := strconv.ParseFloat(s, 64)
		if math.Float64bits(got) != math.Float64bits(want) || (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("parseNumber(%q) = %v, %v; ParseFloat: %v, %v", s, got, gotErr, want, wantErr)
		}
	})
}

// TestOnRing compares onRing with Hypot's answer at distances from the
// circle right around the tolerance, and at extremes.
func TestOnRing(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	type tc struct{ dx, dy, r, tol float64 }
	cases := []tc{{0, 0, 1, 1}, {1e-160, 1e-160, 1e-160, 1e-161}, {math.NaN(), 0, 1, 1}, {math.Inf(1), 0, 1, 1}, {1e200, 1e200, 1e200, 1}}
	for range 200000 {
		r := math.Pow(10, rng.Float64()*12-6)
		tol := r * math.Pow(10, -rng.Float64()*8)
		// A distance from the centre within a few units in the last place
		// of r ± tol, or anywhere near.
		dist := r + tol*float64(1-2*rng.IntN(2))
		if rng.IntN(2) == 0 {
			dist = math.Float64frombits(math.Float64bits(dist) + uint64(rng.IntN(9)) - 4)
		} else {
			dist *= 1 + (rng.Float64()-0.5)*1e-6
		}
		a := rng.Float64() * 2 * math.Pi
		cases = append(cases, tc{dist * math.Cos(a), dist * math.Sin(a), r, tol})
	}
	for _, c := range cases {
		want := !(math.Abs(math.Hypot(c.dx, c.dy)-c.r) > c.tol)
		if got := onRing(c.dx, c.dy, c.r, c.tol); got != want {
			t.Fatalf("onRing(%v, %v, %v, %v) = %v, want %v", c.dx, c.dy, c.r, c.tol, got, want)
		}
	}
}

// pathChecks is path data for checkPathData: numbers at either side of
// the range a check takes without parsing (plainSmall), and errors after
// the first segment, which a check no longer builds.
var pathChecks = []string{
	"M0 0L999999999.99 0", "M0 0L1000000000 0", "M0 0L-1000000000.5 0", "M0 0L0000000001 2",
	"M0 0L1e9 0", "M0 0L1.5e20 0", "M0 0l1E-3.5 2", "M1e10 0", "M0 0h1,,2", "M0 0 1 1 2", "M0 0c1 2 3 4 5",
	"M0 0A1 1 0 2 1 3 3", "M0 0a1 1 0 1 1 3 3z m1 1", "M0 0 L1 1, z", "M0 0x", "m0 0s1 2 3 4t5 6q1 2 3 4",
	"M0 0L.5.5", "M0 0L5. 5", "M0 0 1234567890.", "L0 0", "",
}

// TestCheckPathData holds readPath's check (keep false), which parses
// only what it must, to the full read: the same error, at the same place.
func TestCheckPathData(t *testing.T) {
	for _, s := range pathChecks {
		checkBothWays(t, s)
	}
}

func checkBothWays(t *testing.T, s string) {
	t.Helper()
	_, at, msg := readPath(s, false)
	_, wantAt, wantMsg := readPath(s, true)
	if at != wantAt || msg != wantMsg {
		t.Errorf("readPath(%q) checking: %d %q; reading: %d %q", s, at, msg, wantAt, wantMsg)
	}
}

func FuzzCheckPathData(f *testing.F) {
	for _, s := range pathChecks {
		f.Add(s)
	}
	f.Fuzz(checkBothWays)
}
