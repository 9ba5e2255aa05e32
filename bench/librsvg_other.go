//go:build !linux

package main

import "errors"

// newLibrsvg is Linux only (the library names it opens); elsewhere every
// render runs rsvg-convert.
func newLibrsvg(string) (renderer, error) {
	return nil, errors.New("librsvg in process: Linux only")
}
