package generator

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWriteJSONList checks that the list written an item at a time is byte
// for byte what encoding/json writes for the whole value, compact and
// indented, for lists of 0, 1 and several items whose strings need
// escaping and whose items nest lists and objects.
func TestWriteJSONList(t *testing.T) {
	type item struct {
		Name  string            `json:"name"`
		Tags  []string          `json:"tags,omitempty"`
		Extra map[string]string `json:"extra,omitempty"`
	}
	type doc struct {
		Schema string   `json:"$schema"`
		Heads  []string `json:"heads"`
		Items  []item   `json:"items"`
	}
	items := []item{
		{Name: "a <b> & \"c\"\n", Tags: []string{"x", "y"}},
		{Name: "ünïcode \u2028 \t"},
		{Name: "[]", Extra: map[string]string{"k": "[]}"}},
	}
	for _, indent := range []string{"", "  "} {
		for n := range len(items) + 1 {
			t.Run(fmt.Sprintf("indent %q, %d items", indent, n), func(t *testing.T) {
				head := doc{Schema: "s[]", Heads: []string{"h"}, Items: []item{}}
				full := head
				full.Items = items[:n]
				want, err := encodeJSON(full, indent)
				if err != nil {
					t.Fatal(err)
				}
				var got bytes.Buffer
				if err := writeJSONList(&got, head, n, func(i int) any { return items[i] }, indent); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(string(want), got.String()); diff != "" {
					t.Errorf("differs from encoding/json (-want +got):\n%s", diff)
				}
			})
		}
	}
	// A list that is not the last field is refused, not written wrong.
	type wrong struct {
		Items []item `json:"items"`
		After string `json:"after"`
	}
	if err := writeJSONList(&bytes.Buffer{}, wrong{Items: []item{}}, 1, func(int) any { return items[0] }, ""); err == nil {
		t.Error("a list followed by another field was accepted")
	}
}
