package generator

import "logoindex/generator/problem"

// The pipeline reports problems with the types of package problem; these
// names keep the generator's API as it was.
type (
	// Problem is one thing wrong with the input.
	Problem = problem.Problem
	// ProblemList is every problem found in one run.
	ProblemList = problem.List
	// Severity tells whether a problem stops the build.
	Severity = problem.Severity
	// Pos is a 1-based line and column in a source file.
	Pos = problem.Pos
)

// The severities of a Problem.
const (
	Error   = problem.Error
	Warning = problem.Warning
)
