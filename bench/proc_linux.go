package main

import (
	"os"
	"syscall"
	"time"
)

// dieWithParent makes a child get SIGKILL when the bench dies, so that a
// Ctrl-C or a limit leaves no build running on.
func dieWithParent() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// usage is a finished process's peak resident memory, in bytes, and its
// CPU time.
func usage(ps *os.ProcessState) (peak int64, cpu time.Duration, ok bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, 0, false
	}
	return ru.Maxrss * 1024, time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true // kilobytes on Linux
}
