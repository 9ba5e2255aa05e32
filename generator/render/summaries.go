package render

import (
	"errors"
	"strings"

	"logoindex/generator/internal/wire"
	"logoindex/generator/source"
)

// Summaries are the summaries of a build's logos in slug order, as the
// collection's files read them: each pass may decode them anew (from a
// build's spill file), so that a build of many logos never holds them
// all.
type Summaries struct {
	N    int // how many
	Each func(fn func(*Summary) error) error
}

// MemSummaries is the list of sums, held in memory.
func MemSummaries(sums []*Summary) *Summaries {
	return &Summaries{N: len(sums), Each: func(fn func(*Summary) error) error {
		for _, l := range sums {
			if err := fn(l); err != nil {
				return err
			}
		}
		return nil
	}}
}

func (s *Summaries) len() int { return s.N }

// each calls fn with every summary, in order, and stops at fn's first
// error. fn must not change a summary, nor keep it past the call.
func (s *Summaries) each(fn func(*Summary) error) error { return s.Each(fn) }

// CategoryCount is a category with the number of logos in it.
type CategoryCount struct {
	source.Category
	Count int
}

// CountCategories lists the categories with the number of logos in each.
func CountCategories(cats []source.Category, logos *Summaries) ([]CategoryCount, error) {
	n := map[string]int{}
	err := logos.each(func(l *Summary) error {
		for _, c := range l.Categories {
			if _, ok := n[c]; !ok {
				c = strings.Clone(c) // not a decoded summary's buffer
			}
			n[c]++
		}
		return nil
	})
	var out []CategoryCount
	for _, c := range cats {
		out = append(out, CategoryCount{Category: c, Count: n[c.Slug]})
	}
	return out, err
}

// Encode writes s as a build's records keep it; TestSummaryRoundTrip
// fails when a field is added to Summary and not here.
func (s *Summary) Encode(e *wire.Encoder) {
	e.String(s.Slug)
	e.String(s.Name)
	e.String(s.Hex)
	e.Strings(s.Categories)
	e.Strings(s.Aliases)
	e.String(s.Component)
	e.Int(int64(s.ComponentAt.Line))
	e.Int(int64(s.ComponentAt.Col))
	e.String(s.MetaPath)
	e.Strings(s.Variants)
	e.Bool(s.DarkIcon)
	e.Bool(s.IconOnDark)
}

// DecodeSummary reads what Encode wrote. Its strings point into the
// decoder's input.
func DecodeSummary(d *wire.Decoder) *Summary {
	s := &Summary{Slug: d.String(), Name: d.String(), Hex: d.String(), Categories: d.Strings(), Aliases: d.Strings(), Component: d.String()}
	s.ComponentAt.Line, s.ComponentAt.Col = int(d.Int()), int(d.Int())
	s.MetaPath = d.String()
	s.Variants = sharedVariants(d.Strings())
	s.DarkIcon, s.IconOnDark = d.Bool(), d.Bool()
	return s
}

// errStop ends an each early, as no error.
var errStop = errors.New("stop")
