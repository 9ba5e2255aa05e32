// Package buildcache is the build log: what the last build read of each
// logo and what it made of it, so that the next build redoes only the
// logos whose sources changed. Like ninja's build log or Bazel's action
// cache it knows nothing of what it stores: an Entry is the stat and
// digest of a key's inputs and an opaque record that the builder encodes.
//
// Invariants:
//   - An entry is returned only by the program that wrote it, with the
//     same settings (Key): a cache of another program or other flags
//     holds nothing.
//   - A damaged, truncated or forged file is no cache: it is ignored, and
//     decoding it allocates at most a small multiple of its size.
//   - Input names are single path elements; an entry naming anything else
//     is dropped.
//   - Save replaces the file atomically: a crash leaves the old cache or
//     the new one. It is not synced to disk; a file damaged by a power
//     loss fails its checksum.
//   - A source whose mtime or ctime is within RacyWindow of the start of
//     the build that recorded it is not trusted by its stat (git's "racily
//     clean" entries): it is read and compared by digest.
package buildcache

import (
	"time"

	"logoindex/generator/internal/digest"
)

// RacyWindow is how close to the start of the recording build a source's
// mtime or ctime may be before its stat no longer stands for its content:
// a file written in the same tick of a coarse clock, after it was read,
// would keep its stat.
const RacyWindow = 2 * time.Second

// Input is a source file as a build read it: its stat, taken before the
// read, and the digest of what was read.
type Input struct {
	Name               string
	Size, MTime, CTime int64
	Ino                uint64
	Digest             digest.Sum
}

// SameStat reports whether in and cur have the same stat.
func (in Input) SameStat(cur Input) bool {
	return in.Name == cur.Name && in.Size == cur.Size && in.MTime == cur.MTime && in.CTime == cur.CTime && in.Ino == cur.Ino
}

// Racy reports whether in was modified too close to started (Unix
// nanoseconds) for its stat to stand for its content.
func (in Input) Racy(started int64) bool {
	edge := started - int64(RacyWindow)
	return in.MTime >= edge || in.CTime >= edge
}

// Entry is what a build recorded of one key.
type Entry struct {
	// Folder is the stat of the key's folder (Name "."): while it is the
	// same, the folder holds the same names, as git's untracked cache
	// assumes, and only they need a stat.
	Folder Input
	Inputs []Input // sorted by name
	// Data is what the build made of the inputs; a string of the mapped
	// file, valid while the Cache is open.
	Data string
}

// Cache is a build log. Its methods may be called from several
// goroutines, but Save and Close after the others.
type Cache interface {
	// Get returns the entry the last build recorded for key.
	Get(key string) (Entry, bool)
	// Put records e for key in this build's log.
	Put(key string, e Entry) error
	// Keep records the last build's entry of key, unchanged, in this
	// build's log.
	Keep(key string)
	// Started is when the build that wrote the log started, in Unix
	// nanoseconds (0 when there is none).
	Started() int64
	// Save writes this build's log, which started at started: the keys
	// Put or Kept, and no other. A Cache that keeps nothing ignores it.
	Save(started time.Time) error
	// Close releases the file the entries point into.
	Close()
}

// None is the cache of a build that keeps nothing: check, a partial
// build, build -no-cache.
type None struct{}

func (None) Get(string) (Entry, bool) { return Entry{}, false }
func (None) Put(string, Entry) error  { return nil }
func (None) Keep(string)              {}
func (None) Started() int64           { return 0 }
func (None) Save(time.Time) error     { return nil }
func (None) Close()                   {}
