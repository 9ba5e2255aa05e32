package generator

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// cacheVersion changes whenever a change to the checks, the optimiser or
// the cache format could change what a logo gives, so that an old cache is
// never trusted across such a change. Keep it in step with the code: the
// incremental-build test compares cached and clean builds byte for byte.
const cacheVersion = "logoindex-cache-3"

// Cache remembers what earlier builds computed, keyed by the content of the
// inputs, so that a logo whose files did not change is not parsed, checked
// and minified again, and an output file that did not change is not
// written again. A nil *Cache caches nothing. It is safe for concurrent use.
type Cache struct {
	mu   sync.Mutex
	old  cacheData
	used cacheData
}

type cacheData struct {
	Version string
	Logos   map[[32]byte]*cachedLogo
	// Written describes the output folder as the last build left it.
	Written Manifest
}

type cachedLogo struct {
	Logo     *Logo
	Warnings ProblemList
}

// Manifest describes every file of a written output tree, so the next build
// can tell which files it can keep.
type Manifest struct {
	Dir   string
	Files map[string]ManifestEntry
}

// ManifestEntry is one written file: its content hash and what stat said
// just after it was written, to notice a file someone changed since.
type ManifestEntry struct {
	Hash  [32]byte
	Size  int64
	MTime int64 // UnixNano
	Inode uint64
}

// LoadCache reads a cache file. A missing, unreadable or outdated file
// gives an empty cache: a cache can only save time, never change output.
func LoadCache(path string) *Cache {
	c := &Cache{}
	c.old = cacheData{Logos: map[[32]byte]*cachedLogo{}}
	c.used = cacheData{Version: cacheVersion, Logos: map[[32]byte]*cachedLogo{}}
	b, err := os.ReadFile(path)
	if err != nil {
		return c
	}
	var d cacheData
	if gob.NewDecoder(bytes.NewReader(b)).Decode(&d) != nil || d.Version != cacheVersion || d.Logos == nil {
		return c
	}
	c.old = d
	return c
}

// Save writes the entries this build used (so the file never outgrows the
// collection) and the manifest of what it wrote, atomically.
func (c *Cache) Save(path string) error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&c.used); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	// A long-lived process (serve -watch) goes on with what it just saved.
	c.old = c.used
	c.used = cacheData{Version: cacheVersion, Logos: map[[32]byte]*cachedLogo{}, Written: c.old.Written}
	return nil
}

// logoKey hashes everything a logo's check and optimisation depend on.
func logoKey(ls *LogoSource, knownCats map[string]bool, haveCats bool) [32]byte {
	h := sha256.New()
	field := func(b []byte) {
		binary.Write(h, binary.LittleEndian, uint64(len(b)))
		h.Write(b)
	}
	field([]byte(cacheVersion))
	field([]byte(ls.Slug))
	field([]byte(ls.Dir))
	if haveCats {
		// Only whether this logo's categories exist matters, but the set is
		// small: hash it whole.
		for _, c := range slices.Sorted(maps.Keys(knownCats)) {
			field([]byte(c))
		}
	} else {
		field([]byte("\x00no categories"))
	}
	if ls.Meta != nil {
		field([]byte(ls.Meta.Path))
		field(ls.Meta.Data)
	} else {
		field(nil)
	}
	for _, v := range Variants {
		if f := ls.Variants[v]; f != nil {
			field([]byte(v))
			field([]byte(f.Path))
			field(f.Data)
		}
	}
	var k [32]byte
	h.Sum(k[:0])
	return k
}

func (c *Cache) getLogo(key [32]byte) (*cachedLogo, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.old.Logos[key]
	if !ok {
		e, ok = c.used.Logos[key]
	}
	if ok {
		c.used.Logos[key] = e
	}
	return e, ok
}

func (c *Cache) putLogo(key [32]byte, e *cachedLogo) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.used.Logos[key] = e
	c.mu.Unlock()
}

// written returns the manifest of the last build into dir, if any.
func (c *Cache) written(dir string) Manifest {
	if c == nil {
		return Manifest{}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.old.Written.Dir != dir {
		return Manifest{}
	}
	return c.old.Written
}

func (c *Cache) setWritten(m Manifest) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.used.Written = m
	c.mu.Unlock()
}

// DefaultCachePath is where build keeps its cache for the output folder
// dir: a hidden file beside it, so that it is never uploaded with it.
func DefaultCachePath(dir string) string {
	dir = filepath.Clean(dir)
	return filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+".cache")
}

// statEntry reads what a manifest records of a file on disk.
func statEntry(path string) (size, mtime int64, inode uint64, err error) {
	info, err := os.Lstat(path)
	if err != nil {
		return 0, 0, 0, err
	}
	if !info.Mode().IsRegular() {
		return 0, 0, 0, &fs.PathError{Op: "stat", Path: path, Err: errors.New("not a regular file")}
	}
	return info.Size(), info.ModTime().UnixNano(), inodeOf(info), nil
}
