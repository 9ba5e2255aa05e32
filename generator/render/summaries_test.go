package render

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator/internal/wire"
)

// TestSummaryRoundTrip fills every field of a Summary, through
// reflection, with a value of its own, and reads it back as a build's
// records do: a field added to Summary and not to Encode and
// DecodeSummary comes back empty and fails the test.
func TestSummaryRoundTrip(t *testing.T) {
	var want Summary
	n := 0
	fill(t, reflect.ValueOf(&want).Elem(), &n)
	var b bytes.Buffer
	e := wire.NewEncoder(&b, nil)
	want.Encode(e)
	if err := e.Flush(); err != nil {
		t.Fatal(err)
	}
	got := DecodeSummary(wire.NewDecoder(b.String()))
	if diff := cmp.Diff(&want, got); diff != "" {
		t.Errorf("a summary read back from its encoding (-want +got):\n%s", diff)
	}
}

// fill sets v, and every field of it, to a value no other field has.
func fill(t *testing.T, v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprint("s", *n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(*n))
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fill(t, s.Index(i), n)
		}
		v.Set(s)
	case reflect.Struct:
		for i := range v.NumField() {
			fill(t, v.Field(i), n)
		}
	default:
		t.Fatalf("a Summary field of kind %s: teach fill and Encode about it", v.Kind())
	}
}
