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

// cacheVersion names the cache format. Entries are also keyed by a hash of
// the running program (programHash), so a cache is never trusted across a
// change to the checks, the optimiser or the renderers.
const cacheVersion = "logoindex-cache-5"

var programHash = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return "unknown program"
	}
	b, err := os.ReadFile(exe)
	if err != nil {
		return "unknown program"
	}
	sum := sha256.Sum256(b)
	return string(sum[:])
})

// Cache remembers what earlier builds computed, keyed by the content of the
// inputs, so that a logo whose files did not change is not parsed, checked
// and minified again, and an output file that did not change is not
// written again. A nil *Cache caches nothing. It is safe for concurrent use.
type Cache struct {
	mu    sync.Mutex
	old   cacheData
	used  cacheData
	dirty bool // used differs from what the file holds
}

type cacheData struct {
	Version string
	Logos   map[string]*cachedLogo
	// Renders holds per-logo rendered files (pages, registry items) by a
	// key of everything they depend on.
	Renders map[string][]byte
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
	Hash  string // SHA-256, raw bytes: gob writes a [32]byte byte by byte
	Size  int64
	MTime int64 // UnixNano
	Inode uint64
}

// LoadCache reads a cache file. A missing, unreadable or outdated file
// gives an empty cache: a cache can only save time, never change output.
func LoadCache(path string) *Cache {
	c := &Cache{old: emptyCacheData(), used: emptyCacheData()}
	b, err := os.ReadFile(path)
	if err != nil {
		c.dirty = true
		return c
	}
	var d cacheData
	if gob.NewDecoder(bytes.NewReader(b)).Decode(&d) != nil || d.Version != cacheVersion+programHash() || d.Logos == nil || d.Renders == nil {
		c.dirty = true
		return c
	}
	c.old = d
	return c
}

func emptyCacheData() cacheData {
	return cacheData{Version: cacheVersion + programHash(), Logos: map[string]*cachedLogo{}, Renders: map[string][]byte{}}
}

// Save writes the entries this build used (so the file never outgrows the
// collection) and the manifest of what it wrote, atomically.
func (c *Cache) Save(path string) error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.dirty && len(c.used.Logos) == len(c.old.Logos) && len(c.used.Renders) == len(c.old.Renders) {
		// A no-op build: the file already says all of this.
		return nil
	}
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
	c.used = emptyCacheData()
	c.used.Written = c.old.Written
	c.dirty = false
	return nil
}

// digest hashes parts, each prefixed by its length so that no two lists
// of parts give the same input to the hash.
func digest(parts ...[]byte) string {
	h := sha256.New()
	for _, p := range parts {
		binary.Write(h, binary.LittleEndian, uint64(len(p)))
		h.Write(p)
	}
	return string(h.Sum(nil))
}

// categoriesDigest hashes the category set a build checks logos against:
// once per build, as every logo's key includes it.
func categoriesDigest(knownCats map[string]bool, haveCats bool) []byte {
	if !haveCats {
		return []byte("\x00no categories")
	}
	var parts [][]byte
	for _, c := range slices.Sorted(maps.Keys(knownCats)) {
		parts = append(parts, []byte(c))
	}
	return []byte(digest(parts...))
}

// logoKey hashes everything a logo's check and optimisation depend on:
// its files and the category set (cats, from categoriesDigest).
func logoKey(ls *LogoSource, cats []byte) string {
	parts := [][]byte{[]byte(cacheVersion), []byte(ls.Slug), []byte(ls.Dir), cats}
	if ls.Meta != nil {
		parts = append(parts, []byte(ls.Meta.Path), ls.Meta.Data)
	} else {
		parts = append(parts, nil)
	}
	for _, v := range Variants {
		if f := ls.Variants[v]; f != nil {
			parts = append(parts, []byte(v), []byte(f.Path), f.Data)
		}
	}
	return digest(parts...)
}

func (c *Cache) getLogo(key string) (*cachedLogo, bool) {
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

func (c *Cache) putLogo(key string, e *cachedLogo) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.used.Logos[key] = e
	c.dirty = true
	c.mu.Unlock()
}

// render returns the file cached under key, or computes, caches and
// returns it. An empty key, from a logo that was not cached, is never cached.
func (c *Cache) render(key string, compute func() ([]byte, error)) ([]byte, error) {
	if c == nil || key == "" {
		return compute()
	}
	c.mu.Lock()
	b, ok := c.old.Renders[key]
	if !ok {
		b, ok = c.used.Renders[key]
	}
	if ok {
		c.used.Renders[key] = b
		c.mu.Unlock()
		return b, nil
	}
	c.mu.Unlock()
	b, err := compute()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.used.Renders[key] = b
	c.dirty = true
	c.mu.Unlock()
	return b, nil
}

// renderKey derives the key of one rendered file of a logo from the logo's
// key and everything else the file depends on. It is empty when the logo
// has no key.
func renderKey(logo string, parts ...string) string {
	if logo == "" {
		return ""
	}
	b := [][]byte{[]byte(logo)}
	for _, p := range parts {
		b = append(b, []byte(p))
	}
	return digest(b...)
}

// hashFS hashes the files of fsys, for keys of renders that depend on the
// templates. A file that cannot be read hashes as its error, so the key
// still changes when the error does.
func hashFS(fsys fs.FS) string {
	h := sha256.New()
	fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		h.Write([]byte(p))
		if err != nil {
			h.Write([]byte(err.Error()))
			return nil
		}
		if !d.IsDir() {
			b, err := fs.ReadFile(fsys, p)
			if err != nil {
				h.Write([]byte(err.Error()))
			}
			binary.Write(h, binary.LittleEndian, uint64(len(b)))
			h.Write(b)
		}
		return nil
	})
	return string(h.Sum(nil))
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
	if m.Dir != c.old.Written.Dir || len(m.Files) != len(c.old.Written.Files) || !sameManifest(m, c.old.Written) {
		c.dirty = true
	}
	c.mu.Unlock()
}

func sameManifest(a, b Manifest) bool {
	for name, e := range a.Files {
		if b.Files[name] != e {
			return false
		}
	}
	return true
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
