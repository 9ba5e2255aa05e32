//go:build !linux

package main

import (
	"os"
	"syscall"
	"time"
)

// dieWithParent is nil where the system has no parent-death signal: the
// bench measures on Linux, and elsewhere only builds.
func dieWithParent() *syscall.SysProcAttr { return nil }

// usage gives nothing where it is not measured.
func usage(*os.ProcessState) (peak int64, cpu time.Duration, ok bool) { return 0, 0, false }
