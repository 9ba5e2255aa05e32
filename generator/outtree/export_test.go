package outtree

import (
	"errors"
	"io"
	"os"
	"path/filepath"

	"logoindex/generator/internal/digest"
	"logoindex/generator/internal/sysfs"
	"logoindex/generator/internal/wire"
)

// RewriteRecords reads the records file of the state folder, lets edit
// change it, and writes it back as saveRecords writes it, with the boot
// the records name: the tests forge records with it.
func rewriteRecords(state string, edit func(rs *records)) error {
	if _, err := os.Stat(filepath.Join(state, stateFile)); err != nil {
		return err
	}
	rs := readRecords(state)
	if len(rs.trees) == 0 {
		return errors.New("the records file holds no tree")
	}
	edit(rs)
	return sysfs.ReplaceFile(filepath.Join(state, stateFile), func(w io.Writer) error {
		e := wire.NewFileEncoder(w, magic)
		e.String(rs.boot)
		e.Bool(rs.differ != nil)
		if rs.differ != nil {
			e.Strings(rs.differ)
		}
		e.Uint(uint64(len(rs.trees)))
		for _, r := range rs.trees {
			if err := r.encode(e); err != nil {
				return err
			}
		}
		return e.Close()
	})
}

// RewriteRecords writes the records file again as it was read.
func RewriteRecords(state string) error { return rewriteRecords(state, func(*records) {}) }

// SetRecordsBoot makes the records file say it was written in boot.
func SetRecordsBoot(state, boot string) error {
	return rewriteRecords(state, func(rs *records) { rs.boot = boot })
}

// Forgery is what ForgeRecords adds to the records: a file on the record
// of every tree, a folder on it, a name the trees may differ in.
type Forgery struct {
	File, Dir, Differ string
}

// ForgeRecords adds f to the records file of the state folder. A forged
// file has the digest of sum, and the count and sum of its record are
// kept right.
func ForgeRecords(state string, f Forgery, sum digest.Sum) error {
	return rewriteRecords(state, func(rs *records) {
		for _, r := range rs.trees {
			if f.File != "" {
				if r.buildIndex() != nil {
					continue
				}
				r.set(f.File, file{Sum: sum})
			}
			if f.Dir != "" {
				r.dirs[f.Dir] = 1
			}
		}
		if f.Differ != "" {
			rs.differ = append(rs.differ, f.Differ)
		}
	})
}
