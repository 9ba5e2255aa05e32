package generator

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"logoindex/internal/atomicfile"
	"logoindex/internal/par"
)

// cacheFormat names the layout of the cache file; a file of another
// layout is ignored.
const cacheFormat = "logoindex-tree-cache-2"

// racyWindow is how close to the start of the build that recorded it a
// source's mtime may be before its stat is no longer trusted: a file
// written within the same tick of a coarse clock, after it was read, would
// keep its stat (git's "racily clean" entries). Such a file is hashed.
const racyWindow = 2 * time.Second

// hash is the first half of a SHA-256: enough to tell files apart, and
// half the cache.
type hash [16]byte

func hashOf(b []byte) hash {
	s := sha256.Sum256(b)
	return hash(s[:16])
}

// fileHash is an output file of a build.
type fileHash struct {
	Name string
	Hash hash
}

// treeCache is the cache file: what the last build knew.
type treeCache struct {
	Format string
	// Program and Settings tell whether the logos can be reused: the
	// same program (by its Go build ID) with the same options.
	Program, Settings string
	Started           int64 // when that build started, UnixNano
	Logos             map[string]*cachedLogo
	Collection        hash // collectionDigest
	CollectionFiles   []fileHash
	// Trees are the live tree and the standby, by folder identity:
	// what each holds does not depend on the program.
	Trees []*treeRecord
}

// cachedLogo is a logo as the last build made it.
type cachedLogo struct {
	Inputs   []inputStat // its folder's files, sorted by name
	Summary  *logoSummary
	Warnings ProblemList
	Files    []fileHash
}

// inputStat is a source file: its stat, as taken before it was read, and
// the hash of what was read.
type inputStat struct {
	Name        string
	Size, MTime int64
	CTime       int64
	Ino         uint64
	Hash        hash
}

// treeRecord is what an output tree holds.
type treeRecord struct {
	Dev, Ino uint64
	Files    map[string]fileState
	// Dirs maps every folder of the tree (and "." for its root) to its
	// mtime, which changes when an entry is added or removed.
	Dirs map[string]int64
}

// GobEncode writes the record flat: the names as one string and the
// states as fixed-size binary, which gob reads several times faster than
// maps of structs (the cache of 3,470 logos holds 37,000 entries, and a
// no-op build reads all of them).
func (r *treeRecord) GobEncode() ([]byte, error) {
	var names strings.Builder
	states := make([]byte, 0, len(r.Files)*fileStateSize)
	for name, st := range r.Files {
		names.WriteString(name)
		names.WriteByte(0)
		states = append(states, st.Hash[:]...)
		states = binary.LittleEndian.AppendUint64(states, uint64(st.Size))
		states = binary.LittleEndian.AppendUint64(states, uint64(st.MTime))
		states = binary.LittleEndian.AppendUint64(states, st.Ino)
	}
	var dirs strings.Builder
	mtimes := make([]int64, 0, len(r.Dirs))
	for d, m := range r.Dirs {
		dirs.WriteString(d)
		dirs.WriteByte(0)
		mtimes = append(mtimes, m)
	}
	var buf bytes.Buffer
	err := gob.NewEncoder(&buf).Encode(flatRecord{r.Dev, r.Ino, names.String(), states, dirs.String(), mtimes})
	return buf.Bytes(), err
}

// GobDecode reads what GobEncode wrote, refusing a record whose parts do
// not line up.
func (r *treeRecord) GobDecode(b []byte) error {
	var f flatRecord
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&f); err != nil {
		return err
	}
	names := splitNames(f.Names)
	dirs := splitNames(f.Dirs)
	if len(names)*fileStateSize != len(f.States) || len(dirs) != len(f.MTimes) {
		return errors.New("damaged tree record")
	}
	r.Dev, r.Ino = f.Dev, f.Ino
	r.Files = make(map[string]fileState, len(names))
	for i, name := range names {
		b := f.States[i*fileStateSize:]
		var st fileState
		copy(st.Hash[:], b)
		st.Size = int64(binary.LittleEndian.Uint64(b[16:]))
		st.MTime = int64(binary.LittleEndian.Uint64(b[24:]))
		st.Ino = binary.LittleEndian.Uint64(b[32:])
		r.Files[name] = st
	}
	r.Dirs = make(map[string]int64, len(dirs))
	for i, d := range dirs {
		r.Dirs[d] = f.MTimes[i]
	}
	return nil
}

// flatRecord is a treeRecord as the cache file holds it.
type flatRecord struct {
	Dev, Ino uint64
	Names    string // NUL-terminated
	States   []byte // fileStateSize bytes a name
	Dirs     string // NUL-terminated
	MTimes   []int64
}

const fileStateSize = 16 + 8 + 8 + 8

func splitNames(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\x00"), "\x00")
}

// fileState is an output file: its content hash and the stat it had after
// it was written, which tells whether someone changed it since.
type fileState struct {
	Hash        hash
	Size, MTime int64
	Ino         uint64
}

// readTreeCache reads the cache file; a missing, damaged or foreign file
// gives nil. The logos are dropped when the program changed.
func readTreeCache(name, program string) *treeCache {
	f, err := os.Open(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	var c treeCache
	if err := gob.NewDecoder(bufio.NewReader(f)).Decode(&c); err != nil || c.Format != cacheFormat || !c.valid() {
		return nil
	}
	if c.Program != program {
		c.Logos, c.Collection, c.CollectionFiles = nil, hash{}, nil
	}
	for _, t := range c.Trees { // gob gives nil for an empty map
		if t.Files == nil {
			t.Files = map[string]fileState{}
		}
		if t.Dirs == nil {
			t.Dirs = map[string]int64{}
		}
	}
	return &c
}

// valid reports whether every path the cache names is a clean path inside
// a tree or a logo folder: the build removes and links files by these
// names, and a cache restored from elsewhere (a CI cache another branch
// wrote) must not point it at "../" anything.
func (c *treeCache) valid() bool {
	ok := func(name string) bool { return fs.ValidPath(name) && name != "." }
	for _, f := range c.CollectionFiles {
		if !ok(f.Name) {
			return false
		}
	}
	for slug, l := range c.Logos {
		if CheckSlug(slug) != "" || l == nil || l.Summary == nil {
			return false
		}
		for _, in := range l.Inputs {
			if !ok(in.Name) || strings.Contains(in.Name, "/") {
				return false
			}
		}
		for _, f := range l.Files {
			if !ok(f.Name) {
				return false
			}
		}
	}
	for _, t := range c.Trees {
		if t == nil {
			return false
		}
		for name := range t.Files {
			if !ok(name) {
				return false
			}
		}
		for d := range t.Dirs {
			if !fs.ValidPath(d) {
				return false
			}
		}
	}
	return true
}

// writeTreeCache replaces the cache file atomically, so a crash leaves the
// old one or the new one.
func writeTreeCache(name string, c *treeCache) error {
	return atomicfile.WriteFunc(name, 0o600, func(w io.Writer) error { return gob.NewEncoder(w).Encode(c) })
}

// programID identifies the running program: its Go build ID, which
// changes with any change to its code, or else a hash of the executable.
var programID = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	// The linker puts the build ID near the start of the file.
	head := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	const marker = "\xff Go build ID: \""
	if i := bytes.Index(head, []byte(marker)); i >= 0 {
		rest := head[i+len(marker):]
		if j := bytes.IndexByte(rest, '"'); j > 0 {
			return "go:" + string(rest[:j])
		}
	}
	h := sha256.New()
	h.Write(head)
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return fmt.Sprintf("sha256:%x", h.Sum(nil))
})

// statInputs lists the files of a logo folder with their stat; nil when
// the file system gives no inode (fstest.MapFS) or the folder holds
// anything but regular files, which only a full check reports on. Ignored
// files are left out, as the loader leaves them unread, unless they are to
// be reported or have a source file's name.
func (s *sourceDir) statInputs(slug string) []inputStat {
	entries, err := fs.ReadDir(s.fsys, slug)
	if err != nil {
		return nil
	}
	in := make([]inputStat, 0, len(entries))
	for _, e := range entries {
		rel := path.Join(slug, e.Name())
		if s.ignore.Match(rel, e.IsDir()) != nil {
			if s.reportIgnored || isSourceName(rel) {
				return nil
			}
			continue
		}
		if !e.Type().IsRegular() {
			return nil
		}
		info, err := e.Info()
		if err != nil {
			return nil
		}
		ino, ctime, ok := fileID(info)
		if !ok {
			return nil
		}
		in = append(in, inputStat{Name: e.Name(), Size: info.Size(), MTime: info.ModTime().UnixNano(), CTime: ctime, Ino: ino})
	}
	return in
}

// sameInputs compares a logo folder (cur, from statInputs) with its files
// when last built (old). A file whose stat is unchanged, and old enough
// not to be racy, is the same; any other is read and compared by hash.
// It returns cur with the hashes filled in.
func (b *treeBuild) sameInputs(slug string, old, cur []inputStat) ([]inputStat, bool) {
	if len(old) != len(cur) {
		return nil, false
	}
	racy := b.old.Started - int64(racyWindow)
	for i := range cur {
		o, c := old[i], &cur[i]
		if o.Name != c.Name {
			return nil, false
		}
		c.Hash = o.Hash
		if o.Size == c.Size && o.MTime == c.MTime && o.CTime == c.CTime && o.Ino == c.Ino && c.MTime < racy && c.CTime < racy {
			continue
		}
		data, err := fs.ReadFile(b.src, path.Join(slug, c.Name))
		if err != nil || hashOf(data) != o.Hash {
			return nil, false
		}
	}
	return cur, true
}

// tree is an output tree of a build.
type tree struct {
	dir string
	// rec is what the tree holds as far as the cache knows; nil when
	// unknown, and then nothing in it is trusted.
	rec *treeRecord

	// trusted: this process wrote the tree and nothing else is expected
	// to change it (a Memo), so holds believes the record without a stat.
	trusted bool

	mu      sync.Mutex // guards rec.Files, made and touched
	made    map[string]bool
	touched map[string]bool // folders whose entries this build changed
}

// openTree looks dir up in the cache's records. It returns nil when dir
// does not exist.
func openTree(dir string, c *treeCache) (*tree, error) {
	info, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	t := &tree{dir: dir, made: map[string]bool{}}
	dev, ino := devIno(info)
	if c == nil || !info.IsDir() || ino == 0 {
		return t, nil
	}
	for _, r := range c.Trees {
		if r.Dev == dev && r.Ino == ino {
			t.rec = r
		}
	}
	return t, nil
}

func newTreeRecord() *treeRecord {
	return &treeRecord{Files: map[string]fileState{}, Dirs: map[string]int64{}}
}

// holds reports whether the tree holds the file name with hash h, by the
// cache's record and a stat that shows it unchanged since.
func (t *tree) holds(name string, h hash) bool {
	if t.rec == nil {
		return false
	}
	t.mu.Lock()
	st, ok := t.rec.Files[name]
	t.mu.Unlock()
	if !ok || st.Hash != h {
		return false
	}
	if t.trusted {
		return true
	}
	info, err := os.Lstat(filepath.Join(t.dir, filepath.FromSlash(name)))
	return err == nil && info.Mode().IsRegular() && st == stateOf(info, h)
}

func stateOf(info fs.FileInfo, h hash) fileState {
	return fileState{Hash: h, Size: info.Size(), MTime: info.ModTime().UnixNano(), Ino: inodeOf(info)}
}

// record notes that the tree now holds h at name, which was just written;
// info is its stat, or nil to take it now.
func (t *tree) record(name string, h hash, info fs.FileInfo) error {
	if info == nil {
		var err error
		if info, err = os.Lstat(filepath.Join(t.dir, filepath.FromSlash(name))); err != nil {
			return err
		}
	}
	t.mu.Lock()
	t.rec.Files[name] = stateOf(info, h)
	t.touch(path.Dir(name))
	t.mu.Unlock()
	return nil
}

// touch notes that the entries of folder d (and so its mtime) changed;
// t.mu is held.
func (t *tree) touch(d string) {
	if t.touched == nil {
		t.touched = map[string]bool{}
	}
	t.touched[d] = true
}

// mkdirs makes the folder d of the tree, with its parents.
func (t *tree) mkdirs(d string) error {
	t.mu.Lock()
	made := t.made[d]
	t.mu.Unlock()
	if made || d == "." {
		return nil
	}
	if err := os.MkdirAll(filepath.Join(t.dir, filepath.FromSlash(d)), 0o755); err != nil {
		return err
	}
	t.mu.Lock()
	for ; d != "."; d = path.Dir(d) {
		t.made[d] = true
		t.touch(path.Dir(d)) // it may have made d
	}
	t.mu.Unlock()
	return nil
}

// changedDirs lists the folders whose mtime is not the recorded one: an
// entry was added or removed since.
func (t *tree) changedDirs() []string {
	dirs := slices.Collect(maps.Keys(t.rec.Dirs))
	isChanged := make([]bool, len(dirs))
	par.For(context.Background(), len(dirs), 0, func(i int) {
		info, err := os.Lstat(filepath.Join(t.dir, filepath.FromSlash(dirs[i])))
		isChanged[i] = err != nil || !info.IsDir() || info.ModTime().UnixNano() != t.rec.Dirs[dirs[i]]
	})
	var changed []string
	for i, d := range dirs {
		if isChanged[i] {
			changed = append(changed, d)
		}
	}
	return changed
}

// clean removes from the changed folders of the tree what its record does
// not name: files a killed build or a person left there.
func (t *tree) clean() error {
	for _, d := range t.changedDirs() {
		entries, err := os.ReadDir(filepath.Join(t.dir, filepath.FromSlash(d)))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		for _, e := range entries {
			rel := path.Join(d, e.Name())
			if _, ok := t.rec.Dirs[rel]; ok && e.IsDir() {
				continue
			}
			if _, ok := t.rec.Files[rel]; ok && !e.IsDir() {
				continue
			}
			if err := os.RemoveAll(filepath.Join(t.dir, filepath.FromSlash(rel))); err != nil {
				return err
			}
		}
		t.touch(d)
	}
	return nil
}

// recordDirs records the mtime of every folder the tree's files are in:
// all of them when the record has none, else those this build changed
// and any new ones.
func (t *tree) recordDirs() error {
	if t.rec.Dirs == nil {
		t.rec.Dirs = map[string]int64{}
	}
	for d := range t.touched {
		delete(t.rec.Dirs, d)
	}
	delete(t.rec.Dirs, ".") // the swap may change the root's mtime
	for name := range t.rec.Files {
		for d := path.Dir(name); ; d = path.Dir(d) {
			if _, ok := t.rec.Dirs[d]; ok {
				break
			}
			info, err := os.Lstat(filepath.Join(t.dir, filepath.FromSlash(d)))
			if err != nil {
				return err
			}
			t.rec.Dirs[d] = info.ModTime().UnixNano()
			if d == "." {
				break
			}
		}
	}
	info, err := os.Lstat(t.dir)
	if err != nil {
		return err
	}
	t.rec.Dev, t.rec.Ino = devIno(info)
	return nil
}
