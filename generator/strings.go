package generator

import "strings"

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
