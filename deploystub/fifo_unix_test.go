//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package deploystub

import "syscall"

func mkfifo(name string) error { return syscall.Mkfifo(name, 0o600) }
