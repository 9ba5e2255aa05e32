package syncio

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
)

// writeLines writes 100 lines from each of 8 goroutines and returns them
// as they were written, sorted.
func writeLines(w io.Writer) []string {
	var wg sync.WaitGroup
	var want []string
	for g := range 8 {
		for i := range 100 {
			want = append(want, fmt.Sprintf("goroutine %d line %d", g, i))
		}
		wg.Go(func() {
			for i := range 100 {
				fmt.Fprintf(w, "goroutine %d line %d\n", g, i)
			}
		})
	}
	wg.Wait()
	slices.Sort(want)
	return want
}

func lines(s string) []string {
	l := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	slices.Sort(l)
	return l
}

func TestWriterKeepsLinesWhole(t *testing.T) {
	var out bytes.Buffer
	want := writeLines(NewWriter(&out))
	if got := lines(out.String()); !slices.Equal(got, want) {
		t.Errorf("lines mixed up: got %d lines, want %d whole ones", len(got), len(want))
	}
}

func TestBufferReadWhileWriting(t *testing.T) {
	var b Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 100 {
			_ = b.String() // the race detector checks this against Write
		}
	}()
	want := writeLines(&b)
	<-done
	if got := lines(b.String()); !slices.Equal(got, want) {
		t.Errorf("lines mixed up: got %d lines, want %d whole ones", len(got), len(want))
	}
}
