//go:build !unix

package deploystub

import "errors"

func mkfifo(string) error { return errors.New("no named pipes") }
