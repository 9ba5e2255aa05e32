//go:build !unix

package main

// execProgram does nothing where a process cannot be replaced: the
// program then runs as a child (runPublish).
func execProgram(path string, args []string) {}
