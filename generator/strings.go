package generator

import (
	"sort"
	"strings"
)

// packedStrings is a list of strings kept as one, so that the garbage
// collector has nothing to trace in it: a build keeps the slug of every
// logo to its end.
type packedStrings struct {
	all  string
	ends []int // where each string ends in all
}

func packStrings(list []string) packedStrings {
	var b strings.Builder
	ends := make([]int, len(list))
	for i, s := range list {
		b.WriteString(s)
		ends[i] = b.Len()
	}
	return packedStrings{b.String(), ends}
}

func (p packedStrings) at(i int) string {
	start := 0
	if i > 0 {
		start = p.ends[i-1]
	}
	return p.all[start:p.ends[i]]
}

// find returns the index of s in p, whose strings are sorted.
func (p packedStrings) find(s string) (int, bool) {
	i := sort.Search(len(p.ends), func(i int) bool { return p.at(i) >= s })
	return i, i < len(p.ends) && p.at(i) == s
}
