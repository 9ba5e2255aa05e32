//go:build unix

package main

import "syscall"

// writeBack writes dirty pages to disk (sync(2)) before a timed run, so
// that no run pays for the write-back of what the runs before it wrote or
// removed.
func writeBack() { syscall.Sync() }
