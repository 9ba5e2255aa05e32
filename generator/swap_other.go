//go:build !linux

package generator

import "io/fs"

func exchange(a, b string) (bool, error) { return false, nil }

func lockFile(fd uintptr) error { return nil }

func inodeOf(info fs.FileInfo) uint64 { return 0 }
