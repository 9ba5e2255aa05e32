package buildcache

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"logoindex/generator/internal/spill"
	"logoindex/generator/internal/sysfs"
	"logoindex/generator/internal/wire"
)

// magic starts the file and names its layout: a file of another layout is
// no cache.
const magic = "logoindex-build-log-1\n"

// File is a Cache kept in a file.
type File struct {
	path    string
	key     string
	started int64
	// old maps each key of the file to its encoded entry, a string of
	// the mapped file.
	old map[string]string

	mu   sync.Mutex
	kept map[string]bool
	// puts are this build's new entries, encoded: in memory when the
	// file held entries (a rebuild computes few), else in a spill file
	// beside the cache (a clean build computes every logo).
	puts  map[string]string
	spill *spill.File
}

// Open reads the cache file at path, for a build whose program and
// settings key is key. A missing, damaged or foreign file gives an empty
// cache, which Save fills. Entries are decoded as Get asks for them.
func Open(path, key string) *File {
	c := &File{path: path, key: key, kept: map[string]bool{}, puts: map[string]string{}}
	data, err := sysfs.MapFile(path)
	if err == nil {
		c.old, c.started, err = index(data, key)
	}
	if err != nil {
		c.old = nil
	}
	return c
}

// index reads the header and splits data into entries by key, under a
// guard against a mapped file cut short meanwhile, which faults on the
// pages it lost: no cache, rather than a crash.
func index(data []byte, key string) (old map[string]string, started int64, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if _, fault := r.(interface{ Addr() uintptr }); !fault {
				panic(r)
			}
			err = errors.New("the cache file was cut short while it was read")
		}
	}()
	d, err := wire.OpenFile(data, magic)
	if err != nil {
		return nil, 0, err
	}
	if d.String() != key {
		return nil, 0, errors.New("a cache of another program or other settings")
	}
	started = d.Int()
	n := d.Count(minEntry)
	old = make(map[string]string, n)
	for range n {
		entry := d.String()
		k := wire.NewDecoder(entry).String()
		old[k] = entry
	}
	return old, started, d.Done()
}

// Started is when the build that wrote the file started.
func (c *File) Started() int64 { return c.started }

// Get decodes the entry of key. One that names an input outside its
// folder, or does not decode, is no entry.
func (c *File) Get(key string) (Entry, bool) {
	s, ok := c.old[key]
	if !ok {
		return Entry{}, false
	}
	d := wire.NewDecoder(s)
	_ = d.String() // the key
	e := Entry{Folder: decodeInput(d)}
	e.Inputs = make([]Input, d.Count(minInput))
	for i := range e.Inputs {
		e.Inputs[i] = decodeInput(d)
		if !validName(e.Inputs[i].Name) || i > 0 && e.Inputs[i-1].Name >= e.Inputs[i].Name {
			return Entry{}, false
		}
	}
	e.Data = d.String()
	if d.Done() != nil {
		return Entry{}, false
	}
	return e, true
}

// validName reports whether name is a single path element.
func validName(name string) bool {
	return fs.ValidPath(name) && name != "." && !strings.Contains(name, "/")
}

// minInput is the fewest bytes an encoded Input takes.
const minInput = 1 + 4 + 16

// minEntry is the fewest bytes an entry takes in the file: its length,
// its key, its folder, the count of its inputs and its data. The map of
// entries is made for the count before they are read.
const minEntry = 1 + 1 + minInput + 1 + 1

func encodeInput(e *wire.Encoder, in Input) {
	e.String(in.Name)
	e.Int(in.Size)
	e.Int(in.MTime)
	e.Int(in.CTime)
	e.Uint(in.Ino)
	e.Sum(in.Digest)
}

func decodeInput(d *wire.Decoder) Input {
	return Input{Name: d.String(), Size: d.Int(), MTime: d.Int(), CTime: d.Int(), Ino: d.Uint(), Digest: d.Sum()}
}

func encodeEntry(e *wire.Encoder, key string, en Entry) {
	e.String(key)
	encodeInput(e, en.Folder)
	e.Uint(uint64(len(en.Inputs)))
	for _, in := range en.Inputs {
		encodeInput(e, in)
	}
	e.String(en.Data)
}

// Put records e for key.
func (c *File) Put(key string, e Entry) error {
	return spill.Encode(func(enc *wire.Encoder) { encodeEntry(enc, key, e) }, func(entry []byte) error {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.old != nil {
			c.puts[key] = string(entry)
			return nil
		}
		if c.spill == nil {
			var err error
			if c.spill, err = spill.New(filepath.Dir(c.path), ".spill-"); err != nil {
				return err
			}
		}
		_, err := c.spill.Add(entry)
		return err
	})
}

// Keep records the last build's entry of key.
func (c *File) Keep(key string) {
	if _, ok := c.old[key]; ok {
		c.mu.Lock()
		c.kept[key] = true
		c.mu.Unlock()
	}
}

// Save writes the log, replacing the file atomically.
func (c *File) Save(started time.Time) error {
	err := sysfs.ReplaceFile(c.path, func(w io.Writer) error { return c.encode(w, started.UnixNano()) })
	if err != nil {
		return fmt.Errorf("writing the build cache: %w", err)
	}
	return nil
}

// encode writes the log: the kept entries as the file held them, then the
// new ones, each key once (a Put wins over a Keep).
func (c *File) encode(w io.Writer, started int64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := wire.NewFileEncoder(w, magic)
	e.String(c.key)
	e.Int(started)
	kept := make([]string, 0, len(c.kept))
	for k := range c.kept {
		if _, put := c.puts[k]; !put {
			kept = append(kept, k)
		}
	}
	slices.Sort(kept)
	e.Uint(uint64(len(kept) + len(c.puts) + c.spill.Count()))
	for _, k := range kept {
		e.String(c.old[k])
	}
	for _, k := range slices.Sorted(maps.Keys(c.puts)) {
		e.String(c.puts[k])
	}
	if err := c.spill.Each(func(entry string) error { e.String(entry); return nil }); err != nil {
		return err
	}
	return e.Close()
}

// Close removes the spill file. The mapped file stays mapped: entries
// handed out point into it.
func (c *File) Close() { c.spill.Close() }
