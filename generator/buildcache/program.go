package buildcache

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"fmt"
	"io"
	"os"
	"sync"
)

// Program identifies the running program, for the key of a cache: its Go
// build ID, which changes with any change to its code, or else a hash of
// the executable.
var Program = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	if id := buildID(f); id != "" {
		return "go:" + id
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return fmt.Sprintf("sha256:%x", h.Sum(nil))
})

// buildID reads the Go build ID of an executable as cmd/internal/buildid
// does: from the ELF note the linker writes, or else from the marker it
// puts near the start of the text on other formats.
func buildID(f *os.File) string {
	if e, err := elf.NewFile(f); err == nil {
		if s := e.Section(".note.go.buildid"); s != nil {
			// namesz, descsz, type, "Go\x00\x00", then the ID.
			note, err := s.Data()
			if err == nil && len(note) > 16 && string(note[12:16]) == "Go\x00\x00" {
				if n := int(e.ByteOrder.Uint32(note[4:])); n <= len(note)-16 {
					return string(note[16 : 16+n])
				}
			}
		}
		return ""
	}
	head := make([]byte, 64<<10)
	n, _ := f.ReadAt(head, 0)
	const marker = "\xff Go build ID: \""
	if i := bytes.Index(head[:n], []byte(marker)); i >= 0 {
		rest := head[i+len(marker) : n]
		if j := bytes.IndexByte(rest, '"'); j > 0 {
			return string(rest[:j])
		}
	}
	return ""
}
