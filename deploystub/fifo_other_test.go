//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd)

package deploystub

import "errors"

func mkfifo(string) error { return errors.New("no named pipes") }
