//go:build unix

package main

import (
	"os"
	"syscall"
)

// execProgram replaces the process with the program at path, given args.
func execProgram(path string, args []string) {
	syscall.Exec(path, append([]string{path}, args...), os.Environ())
}
