// Package problem holds what the build reports to a user: positions in
// source files and the problems found there. It plays the part go/token
// and go/scanner's ErrorList play for the Go tools: a small package at the
// bottom that both the pure SVG work (generator/svg) and the pipeline
// (generator) import, so neither depends on the other for its errors.
package problem

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"logoindex/internal/escape"
)

// Pos is a 1-based line and column in a source file; 0 means unknown.
// Columns count bytes, as go/token's do.
type Pos struct{ Line, Col int }

// Severity tells whether a problem stops the build.
type Severity int

const (
	// Error makes the run fail and keeps build from writing anything.
	Error Severity = iota
	// Warning is printed but does not fail the run, unless it is strict.
	Warning
)

// String returns "error" or "warning".
func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// Problem is one thing wrong with the input, at a position a user can open
// in an editor. Line and Col are 1-based; 0 means unknown.
type Problem struct {
	Path     string // slash-separated, as the user named it (for example "source-logos/github/logo.yaml")
	Line     int
	Col      int
	Severity Severity
	Code     Code // the rule it breaks (codes.go)
	Msg      string
}

// Error formats the problem as "path:line:col: message", dropping the
// parts of the position that are unknown, and prefixing warnings with
// "warning: " so the two levels read apart. Characters that are not
// printable are shown escaped (escape.Terminal): a file name or a value
// cannot forge a line or drive the terminal.
func (p *Problem) Error() string {
	var b strings.Builder
	b.WriteString(escape.Terminal(p.Path))
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
		if p.Col > 0 {
			fmt.Fprintf(&b, ":%d", p.Col)
		}
	}
	b.WriteString(": ")
	if p.Severity == Warning {
		b.WriteString("warning: ")
	}
	b.WriteString(escape.Terminal(p.Msg))
	return b.String()
}

// GitHub formats the problem as a GitHub Actions workflow command, so a pull
// request shows it on its line with the code as the annotation's title;
// path, code and message are encoded for it (escape.GitHubProperty,
// escape.GitHubData).
func (p *Problem) GitHub() string {
	var b strings.Builder
	b.WriteString("::")
	b.WriteString(p.Severity.String())
	b.WriteString(" file=")
	b.WriteString(escape.GitHubProperty(p.Path))
	if p.Line > 0 {
		fmt.Fprintf(&b, ",line=%d", p.Line)
		if p.Col > 0 {
			fmt.Fprintf(&b, ",col=%d", p.Col)
		}
	}
	if p.Code != "" {
		b.WriteString(",title=")
		b.WriteString(escape.GitHubProperty(string(p.Code)))
	}
	b.WriteString("::")
	b.WriteString(escape.GitHubData(p.Msg))
	return b.String()
}

// MarshalJSON encodes the problem as one object with the keys path, line,
// col, severity ("error" or "warning"), code and message, always all six:
// line and col are 0 where unknown. check -format json prints one a line.
func (p *Problem) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // messages name elements: keep <svg> readable
	err := enc.Encode(struct {
		Path     string `json:"path"`
		Line     int    `json:"line"`
		Col      int    `json:"col"`
		Severity string `json:"severity"`
		Code     Code   `json:"code"`
		Message  string `json:"message"`
	}{p.Path, p.Line, p.Col, p.Severity.String(), p.Code, p.Msg})
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), err
}

// List is every problem found in one run. Like go/scanner's ErrorList, it
// is an error itself so callers can return it whole.
type List []*Problem

// Add appends a problem. The code comes first and is required, so that
// no problem is reported without the rule it breaks.
func (l *List) Add(code Code, path string, line, col int, sev Severity, format string, args ...any) {
	*l = append(*l, &Problem{Path: path, Line: line, Col: col, Severity: sev, Code: code, Msg: fmt.Sprintf(format, args...)})
}

// Errorf appends an error.
func (l *List) Errorf(code Code, path string, line, col int, format string, args ...any) {
	l.Add(code, path, line, col, Error, format, args...)
}

// Warnf appends a warning.
func (l *List) Warnf(code Code, path string, line, col int, format string, args ...any) {
	l.Add(code, path, line, col, Warning, format, args...)
}

// Sort orders the list by path, then line, then column, then message, so
// that output is stable whatever order the workers finished in.
func (l List) Sort() {
	slices.SortStableFunc(l, func(a, b *Problem) int {
		return cmp.Or(
			cmp.Compare(a.Path, b.Path),
			cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Col, b.Col),
			cmp.Compare(a.Msg, b.Msg),
		)
	})
}

// Errors returns only the problems of severity Error.
func (l List) Errors() List { return l.only(Error) }

// Warnings returns only the problems of severity Warning.
func (l List) Warnings() List { return l.only(Warning) }

func (l List) only(sev Severity) List {
	var out List
	for _, p := range l {
		if p.Severity == sev {
			out = append(out, p)
		}
	}
	return out
}

// Error returns every problem, one a line.
func (l List) Error() string {
	lines := make([]string, len(l))
	for i, p := range l {
		lines[i] = p.Error()
	}
	return strings.Join(lines, "\n")
}

// Err returns the list as an error when it holds at least one error, and
// nil when it is empty or holds only warnings.
func (l List) Err() error {
	if len(l.Errors()) == 0 {
		return nil
	}
	return l
}
