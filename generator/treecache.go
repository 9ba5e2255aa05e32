package generator

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"debug/elf"
	"encoding/binary"
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

	"github.com/cespare/xxhash/v2"
)

// racyWindow is how close to the start of the build that recorded it a
// source's mtime may be before its stat is no longer trusted: a file
// written within the same tick of a coarse clock, after it was read, would
// keep its stat (git's "racily clean" entries). Such a file is hashed.
const racyWindow = 2 * time.Second

// hash is what tells a build whether a file changed: its XXH64 and its
// length. It never leaves the cache, nor stands between people who trust
// each other differently (whoever writes a source decides its output
// anyway). SHA-256, which it replaced, took 106 ms of a clean build's
// 2.1 s of CPU more, over the 105 MB it hashes; XXH3-128
// (github.com/zeebo/xxh3) was as fast, but its CPU detection took 0.4 ms
// of every start, most of a rebuild's margin.
type hash [16]byte

func hashOf(b []byte) hash { return hashFor(xxhash.Sum64(b), len(b)) }

func hashFor(sum uint64, n int) hash {
	var h hash
	binary.LittleEndian.PutUint64(h[:8], sum)
	binary.LittleEndian.PutUint64(h[8:], uint64(n))
	return h
}

// hasher hashes a stream as hashOf hashes it whole (sum).
type hasher struct {
	d *xxhash.Digest
	n int
}

func newHasher() *hasher { return &hasher{d: xxhash.New()} }

func (h *hasher) Write(b []byte) (int, error) {
	h.n += len(b)
	return h.d.Write(b)
}

func (h *hasher) sum() hash { return hashFor(h.d.Sum64(), h.n) }

// fileHash is an output file of a build.
type fileHash struct {
	Name string
	Hash hash
}

// treeCache is the cache file: what the last build knew.
type treeCache struct {
	// Program and Settings tell whether the logos can be reused: the
	// same program (by its Go build ID) with the same options.
	Program, Settings string
	// Dir is Options.Dir of that build: the prefix of the paths in its
	// summaries and warnings, which rebase changes for a build that names
	// the source folder differently (from another working directory).
	Dir     string
	Started int64 // when that build started, UnixNano
	// Boot identifies the system's boot the cache was written in: after
	// a crash, files the build wrote may have lost their data while their
	// folders kept the mtimes on record, so a tree's folders stand for
	// its files only in the same boot (tree.holds).
	Boot            string
	Logos           map[string]*cachedLogo
	Collection      hash // collectionDigest
	CollectionFiles []fileHash
	// Trees are the live tree and the standby, by folder identity:
	// what each holds does not depend on the program.
	Trees []*treeRecord

	// order is the keys of Logos in order, as the build that made the
	// cache built them: sorting them took about 1 ms of its writing.
	order []string

	// spilled holds more logos, encoded: a clean build's, which it keeps
	// on disk until it writes the cache.
	spilled *spill
}

// cachedLogo is a logo as the last build made it.
type cachedLogo struct {
	// Folder is the stat of the logo folder (Name "."; no Hash): while
	// it stays the same, the folder holds the same names, and only they
	// need a stat.
	Folder   inputStat
	Inputs   []inputStat // its folder's files, sorted by name
	Summary  *logoSummary
	Warnings ProblemList
	Files    []fileHash

	// encoded is the entry as the cache file holds it, when it was read
	// from one and not changed since: it is written back as it was, which
	// took 7 of the 30 ms a one-change build spent writing the cache.
	encoded string
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
	// encoded is Files and Dirs as the cache file holds them (Files is
	// nil until decode): a whole record, then the deltas of the builds
	// since, which decode applies in order. Empty once the record is to
	// be encoded whole.
	encoded string
	// editedFiles and editedDirs name what the build changed in Files
	// and Dirs since decode: encodeTo appends one delta of them to
	// encoded. Encoding a changed record whole took 10 of a one-change
	// build's 100 ms. deltas counts the entries of encoded's deltas.
	editedFiles, editedDirs map[string]bool
	deltas                  int
	// count is the number of files of a record read from a cache, as the
	// cache file holds it. sum is their filesSum, when sumKnown: as the
	// cache file holds it, then kept by setFile and deleteFile, so that
	// a delta's sum takes no pass over the whole record (3 of a
	// one-change build's 105 ms of CPU).
	count    int
	sum      uint64
	sumKnown bool
	// holdsLogos: the tree holds the files of each logo of the cache the
	// record was read from, as it lists them, but those of the logos in
	// lacks (sorted). The build that wrote the cache set it on its
	// standby, the tree it replaced, which lacks the logos that build
	// computed; the next build places only those there (standbyHolds).
	holdsLogos bool
	lacks      []string
	// decoded guards the decoding of Files (decode).
	decoded   sync.Once
	decodeErr error
	// spilled holds more files, encoded: a clean build records the files
	// it writes there, not in Files, which it never needs to look them up
	// in (its tree was empty).
	spilled *spill
}

func (r *treeRecord) setFile(name string, st fileState) {
	r.forget(name)
	r.Files[name] = st
	r.sum += fileSum(name, st.Hash)
	r.edited(name, false)
}

func (r *treeRecord) deleteFile(name string) {
	r.forget(name)
	delete(r.Files, name)
	r.edited(name, false)
}

// forget takes the file name, if the record has it, out of its sum.
func (r *treeRecord) forget(name string) {
	if st, ok := r.Files[name]; ok {
		r.sum -= fileSum(name, st.Hash)
	}
}

func (r *treeRecord) setDir(d string, mtime int64) { r.Dirs[d] = mtime; r.edited(d, true) }
func (r *treeRecord) deleteDir(d string)           { delete(r.Dirs, d); r.edited(d, true) }

// edited notes that the file or folder name changed, for encodeTo. Past
// an eighth of the record in deltas, it is to be encoded whole.
func (r *treeRecord) edited(name string, dir bool) {
	if r.encoded == "" {
		return
	}
	m := &r.editedFiles
	if dir {
		m = &r.editedDirs
	}
	if *m == nil {
		*m = map[string]bool{}
	}
	(*m)[name] = true
	if r.deltas+len(r.editedFiles)+len(r.editedDirs) > 16+(len(r.Files)+len(r.Dirs))/8 {
		r.encodeWhole()
	}
}

// encodeWhole has encodeTo encode the record whole, with no deltas.
func (r *treeRecord) encodeWhole() {
	r.encoded, r.editedFiles, r.editedDirs, r.deltas = "", nil, nil, 0
}

// fileCount is the number of files the record names.
func (r *treeRecord) fileCount() int {
	if r.Files == nil {
		return r.count
	}
	return len(r.Files) + r.spilled.count()
}

// filesSum is the sum of the record's files (fileSum).
func (r *treeRecord) filesSum() uint64 {
	if r.sumKnown && r.spilled == nil {
		return r.sum
	}
	var sum uint64
	r.eachFile(func(name string, h hash) error {
		sum += fileSum(name, h)
		return nil
	})
	return sum
}

// eachFile calls fn with the name and hash of every file the record
// names; a spilled name is valid only during the call.
func (r *treeRecord) eachFile(fn func(name string, h hash) error) error {
	for name, st := range r.Files {
		if err := fn(name, st.Hash); err != nil {
			return err
		}
	}
	return r.spilled.each(func(entry string) error {
		name, h, err := spilledFile(entry)
		if err != nil {
			return err
		}
		return fn(name, h)
	})
}

// spilledFile reads the name and hash at the start of a record's spilled
// entry (encoder.fileState).
func spilledFile(entry string) (name string, h hash, err error) {
	d := &decoder{s: entry}
	name = d.str()
	h = d.hash()
	return name, h, d.err
}

// fileState is an output file: its content hash and the stat it had after
// it was written, which tells whether someone changed it since.
type fileState struct {
	Hash        hash
	Size, MTime int64
	Ino         uint64
}

// readTreeCache reads the cache file; a missing, damaged or foreign file
// gives nil. The logos are dropped when the program changed. With mapped,
// the file is mapped (mapCacheFile) and not copied: for a build that keeps
// nothing of the cache once it returns, as a memo would.
func readTreeCache(name, program string, mapped bool) *treeCache {
	read := os.ReadFile
	if mapped {
		read = mapCacheFile
	}
	data, err := read(name)
	if err != nil {
		return nil
	}
	c, err := decodeCache(data)
	if err != nil {
		return nil
	}
	if c.Program != program {
		c.Logos, c.Collection, c.CollectionFiles = nil, hash{}, nil
	}
	return c
}

// validLogo reports whether the cache's entry l for slug names only the
// logo's own folder and clean paths in the tree: the build removes and
// links files by these names, and a cache restored from elsewhere (a CI
// cache another branch wrote) must not point it at "../" anything. The
// decoder checks each logo (decodeCacheWith), the collection's files too,
// and a tree's names as it decodes the tree.
func validLogo(slug string, l *cachedLogo) bool {
	if CheckSlug(slug) != "" || l == nil || l.Summary == nil || l.Summary.Slug != slug {
		return false
	}
	for _, in := range l.Inputs {
		if !validName(in.Name) || strings.Contains(in.Name, "/") {
			return false
		}
	}
	for _, f := range l.Files {
		if !validName(f.Name) {
			return false
		}
	}
	return true
}

// rebase rewrites the paths of the cached summaries and warnings, made
// for the source folder named c.Dir, for the same folder named dir. A
// logo with a path outside c.Dir (none is, unless the file was forged)
// is dropped: it is redone.
func (c *treeCache) rebase(dir string) {
	for slug, l := range c.Logos {
		meta, ok := rebasePath(c.Dir, dir, l.Summary.MetaPath)
		warnings := make(ProblemList, len(l.Warnings))
		for i, p := range l.Warnings {
			q := *p // the old problem may be shared
			var found bool
			q.Path, found = rebasePath(c.Dir, dir, p.Path)
			ok = ok && found
			warnings[i] = &q
		}
		if !ok {
			delete(c.Logos, slug)
			continue
		}
		sum := *l.Summary
		sum.MetaPath = meta
		if len(warnings) == 0 {
			warnings = nil
		}
		c.Logos[slug] = &cachedLogo{Folder: l.Folder, Inputs: l.Inputs, Summary: &sum, Warnings: warnings, Files: l.Files}
	}
	c.Dir = dir
}

// rebasePath turns p, displayPath(from, name), into displayPath(to, name).
func rebasePath(from, to, p string) (string, bool) {
	name := p
	switch d := path.Clean(from); {
	case from == "" || d == ".":
		// displayPath gave name as it was
	case p == d:
		name = "."
	case d == "/" && strings.HasPrefix(p, "/"):
		name = p[1:]
	case strings.HasPrefix(p, d+"/"):
		name = p[len(d)+1:]
	default:
		return "", false
	}
	return displayPath(to, name), true
}

// validName reports whether name is a clean slash-separated path below
// a folder.
func validName(name string) bool { return fs.ValidPath(name) && name != "." }

// writeTreeCache replaces the cache file atomically, so a killed build
// leaves the old one or the new one. It is not synced to disk, no more than
// the trees it describes: after a power loss a damaged file fails its
// checksum and is ignored, and an old one's records are of another boot
// (treeCache.Boot).
//
// The new cache is written over the one before the last, kept beside it
// (name-spare), and the two files then trade places in one rename
// (RENAME_EXCHANGE), where the system has it: a rename over the last one
// freed its 4 MB for 3,470 logos, 6.5 ms (by strace) of a 110 ms
// one-change build on this machine kind's ext4, mounted with discard.
func writeTreeCache(name string, c *treeCache) error {
	encode := func(w io.Writer) error { return encodeCache(w, c) }
	spare := name + "-spare"
	f, err := openSpare(spare)
	if err != nil {
		return atomicfile.Replace(name, 0o600, encode)
	}
	err = writeOver(f, encode)
	if err = errors.Join(err, f.Close()); err != nil {
		os.Remove(spare)
		return err
	}
	ok, err := exchange(spare, name)
	if !ok && (err == nil || errors.Is(err, fs.ErrNotExist)) {
		err = os.Rename(spare, name) // no exchange, or no file at name
	}
	return err
}

// writeOver writes f from its start with write, and cuts it at the end of
// what was written.
func writeOver(f *os.File, write func(io.Writer) error) error {
	w := bufio.NewWriterSize(f, 64<<10)
	if err := errors.Join(write(w), w.Flush()); err != nil {
		return err
	}
	end, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return err
	}
	return f.Truncate(end)
}

// programID identifies the running program: its Go build ID, which
// changes with any change to its code, or else a hash of the executable
// (which takes 50 ms for this one: most of a no-op build's budget).
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

// statInputs lists the files of a logo folder with their stat, and gives
// the folder's own stat, taken first, and its entries, which the loader
// reads from; inputs are nil when the file system gives no inode
// (fstest.MapFS) or the folder holds anything but regular files, which
// only a full check reports on. Ignored files are left out, as the loader
// leaves them unread, unless they are to be reported or have a source
// file's name. Without files, the inputs are the names alone (Ino 0), for
// a logo about to be read: the read's own stat fills them in
// (computeState), where a stat by name took 11,500 system calls in a
// clean build of 3,470 logos.
func (s *sourceDir) statInputs(slug string, files bool) (folder inputStat, inputs []inputStat, entries []fs.DirEntry) {
	folder, ok := s.inputAt(slug, ".")
	if !ok {
		return folder, nil, nil
	}
	// Through the folder's descriptor where there is one: fs.ReadDir on
	// an os.DirFS opens the folder for the poller (five more system
	// calls), and each entry's Info is a stat by the whole path.
	entries, err := s.stats.readDir(slug)
	if err != nil {
		return folder, nil, nil
	}
	in := make([]inputStat, 0, len(entries))
	for _, e := range entries {
		rel := path.Join(slug, e.Name())
		if s.ignore.Match(rel, e.IsDir()) != nil {
			if s.reportIgnored || isSourceName(rel) {
				return folder, nil, entries
			}
			continue
		}
		if !e.Type().IsRegular() {
			return folder, nil, entries
		}
		if !files {
			in = append(in, inputStat{Name: e.Name()})
			continue
		}
		st, err := s.stats.lstat(rel)
		if err != nil || !st.mode.IsRegular() || st.ino == 0 {
			return folder, nil, entries
		}
		in = append(in, st.input(e.Name()))
	}
	return folder, in, entries
}

// restat takes the stat of the files a logo folder held when c was cached
// without listing the folder, which costs more than the stats: while the
// folder's own stat is unchanged (and not racy), no name in it was added,
// removed or renamed, as git's untracked cache assumes. It returns nil
// when the folder must be listed.
func (b *treeBuild) restat(slug string, c *cachedLogo) (inputStat, []inputStat) {
	racy := b.old.Started - int64(racyWindow)
	folder, ok := b.source.inputAt(slug, ".")
	if !ok || folder != c.Folder || folder.MTime >= racy || folder.CTime >= racy {
		return folder, nil
	}
	in := make([]inputStat, len(c.Inputs))
	for i, old := range c.Inputs {
		st, ok := b.source.inputAt(slug, old.Name)
		if !ok {
			return folder, nil
		}
		in[i] = st
	}
	return folder, in
}

// inputAt takes the stat of name in the logo folder slug ("." for the
// folder itself), which must be a regular file or a folder, on a file
// system that gives inodes. Both are single names (a listing's, or the
// cache's, which validLogo checks): path.Join's cleaning of 15,000 paths
// took 1% of a rebuild's CPU.
func (s *sourceDir) inputAt(slug, name string) (inputStat, bool) {
	rel := slug
	if name != "." {
		rel = slug + "/" + name
	}
	st, err := s.stats.lstat(rel)
	if err != nil || st.ino == 0 || !(st.mode.IsRegular() || st.mode.IsDir() && name == ".") {
		return inputStat{}, false
	}
	return st.input(name), true
}

func (st fileStat) input(name string) inputStat {
	return inputStat{Name: name, Size: st.size, MTime: st.mtime, CTime: st.ctime, Ino: st.ino}
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
	// dirsChecked: checkDirs compared the mtime of every folder on record
	// with its stat, and changed holds those that differ. holds believes
	// the record of a file in any other folder on record, when the cache
	// was written since the system started (sameBoot).
	sameBoot, dirsChecked bool
	changed               map[string]bool

	stats lazyStatRoot

	// empty: this build made the tree as an empty folder, so it holds
	// only what the build placed in it.
	empty bool
	// holdsLogos and lacks are the record's (treeRecord.holdsLogos) when
	// the build opened the tree as its standby.
	holdsLogos bool
	lacks      []string

	mu      sync.Mutex      // guards rec.Files and touched
	touched map[string]bool // folders whose entries this build changed
}

// emptyTree is the tree of dir, a folder this build just made empty.
func emptyTree(dir string) *tree {
	return &tree{dir: dir, rec: newTreeRecord(), empty: true}
}

// openTree looks dir up in the cache's records, and decodes the record's
// folders, and its files too with files (the standby's, which a build
// opens to write into). It returns nil when dir does not exist.
func openTree(dir string, c *treeCache, files bool) (*tree, error) {
	info, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	t := &tree{dir: dir}
	dev, ino := devIno(info)
	if c == nil || !info.IsDir() || ino == 0 {
		return t, nil
	}
	t.sameBoot = c.Boot != "" && c.Boot == bootID()
	for _, r := range c.Trees {
		decode := r.decodeDirs
		if files {
			decode = r.decode
		}
		if r.Dev == dev && r.Ino == ino && decode() == nil {
			t.rec = r
		}
	}
	return t, nil
}

func newTreeRecord() *treeRecord {
	return &treeRecord{Files: map[string]fileState{}, Dirs: map[string]int64{}, sumKnown: true}
}

// holds reports whether the tree holds the file name with hash h, by the
// cache's record, and by a stat that shows the file unchanged since
// unless its folder's does.
//
// A folder's mtime changes when a name in it is added, removed or
// renamed, which is how an editor, rsync or a person replaces a file: its
// stat (by checkDirs) stands for its files'. A file written in place
// keeps its folder's mtime, and a build believes the record of it, as
// make and ninja believe an output newer than its inputs: build
// -no-cache writes every file again. A stat of each file was 40% of a
// no-op build's CPU, and as much again of a one-change build's.
func (t *tree) holds(name string, h hash) bool {
	if t.rec == nil || t.rec.decode() != nil {
		return false
	}
	t.mu.Lock()
	st, ok := t.rec.Files[name]
	t.mu.Unlock()
	if !ok || st.Hash != h {
		return false
	}
	if t.recordStands(path.Dir(name)) {
		return true
	}
	cur, err := t.lstat(name)
	return err == nil && cur.mode.IsRegular() && st == cur.state(h)
}

func (st fileStat) state(h hash) fileState {
	return fileState{Hash: h, Size: st.size, MTime: st.mtime, Ino: st.ino}
}

// record notes that the tree now holds h at name, which was just written;
// st is its stat, or nil to take it now.
func (t *tree) record(name string, h hash, st *fileStat) error {
	if st == nil {
		cur, err := t.lstat(name)
		if err != nil {
			return err
		}
		st = &cur
	}
	if sp := t.rec.spilled; sp != nil { // an empty tree's: no folders to touch
		_, err := sp.addWith(func(e *encoder) { e.fileState(name, st.state(h)) })
		return err
	}
	t.mu.Lock()
	t.rec.setFile(name, st.state(h))
	t.touch(path.Dir(name))
	t.mu.Unlock()
	return nil
}

// touch notes that the entries of folder d (and so its mtime) changed;
// t.mu is held. A tree this build made empty has no folder mtimes on
// record to forget, nor a prune to tell.
func (t *tree) touch(d string) {
	if t.empty {
		return
	}
	if t.touched == nil {
		t.touched = map[string]bool{}
	}
	t.touched[d] = true
}

// mkdirs makes the folder d of the tree, with its parents. place and
// placeStream call it when a file cannot be made for want of its folder:
// a map of the folders made, to skip the attempt, took 7 MB at 104,100
// logos (its names) or 2.4 MB (their hashes), for about one failed
// create a folder. A folder's parent is most often there already, so a
// mkdir alone makes it; MkdirAll would stat the folder and the parent
// first.
func (t *tree) mkdirs(d string) error {
	dir := filepath.Join(t.dir, filepath.FromSlash(d))
	at, rel := t.at(d)
	err := mkdirAt(at, rel, dir)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrExist) {
		err = os.MkdirAll(dir, 0o755) // makes the parents, or checks dir is a folder
	}
	if err != nil {
		return err
	}
	t.mu.Lock()
	for ; d != "."; d = path.Dir(d) {
		t.touch(path.Dir(d)) // it may have made d
	}
	t.mu.Unlock()
	return nil
}

// checkDirs gives the folders whose mtime is not the recorded one: an
// entry was added, removed or renamed since. From then on holds trusts
// the record of the files in the others; it is called before the tree's
// files are looked up by more than one goroutine.
func (t *tree) checkDirs() map[string]bool {
	dirs := slices.Collect(maps.Keys(t.rec.Dirs))
	isChanged := make([]bool, len(dirs))
	par.For(context.Background(), len(dirs), 0, func(i int) {
		st, err := t.lstat(dirs[i])
		isChanged[i] = err != nil || !st.mode.IsDir() || st.mtime != t.rec.Dirs[dirs[i]]
	})
	t.changed = map[string]bool{}
	for i, d := range dirs {
		if isChanged[i] {
			t.changed[d] = true
		}
	}
	t.dirsChecked = t.sameBoot
	return t.changed
}

// recordStands reports whether the record of the files in folder d stands
// for them with no stat of their own: the tree is trusted, or checkDirs
// found d on record and unchanged. Nothing writes the record's folders
// until the end of the build, after the last holds.
func (t *tree) recordStands(d string) bool {
	if t.trusted {
		return true
	}
	if !t.dirsChecked || t.changed[d] {
		return false
	}
	_, ok := t.rec.Dirs[d]
	return ok
}

// clean removes from the changed folders of the tree what its record does
// not name: files a killed build or a person left there.
func (t *tree) clean() error {
	gone := map[string]bool{} // folders removed, and recorded folders that were files
	for d := range t.checkDirs() {
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
			if _, wasDir := t.rec.Dirs[rel]; e.IsDir() || wasDir {
				gone[rel] = true
			}
		}
		t.touch(d)
	}
	// A folder off record may hold files on record: a build that stopped
	// wrote them there, and a memo kept its record. They are gone now.
	if len(gone) > 0 {
		for name := range t.rec.Files {
			for d := name; d != "."; d = path.Dir(d) {
				if gone[d] {
					t.rec.deleteFile(name)
					break
				}
			}
		}
	}
	return nil
}

// recordDirs records the mtime of every folder the tree's files are in:
// all of them when the record has none, else those this build changed
// and any new ones.
func (t *tree) recordDirs() error {
	if len(t.rec.Dirs) > 0 && !t.empty && t.rec.spilled == nil {
		if err := t.recordTouched(); err != nil {
			return err
		}
		return t.recordRoot()
	}
	// Every folder, then their stats on every CPU: one after another,
	// the 3,470 folders of a clean build took 18 ms at its end.
	dirs := map[string]int64{}
	err := t.rec.eachFile(func(name string, _ hash) error {
		for d := path.Dir(name); ; d = path.Dir(d) {
			if _, ok := dirs[d]; ok {
				return nil
			}
			dirs[strings.Clone(d)] = 0 // d may be a spill's
			if d == "." {
				return nil
			}
		}
	})
	if err != nil {
		return err
	}
	// Each stat goes straight into the map, under a lock: a slice of
	// the results beside it was 2.5 MB more at 104,100 logos, at the end
	// of the build, where its live heap is largest.
	names := slices.Collect(maps.Keys(dirs))
	var mu sync.Mutex
	var first error
	par.For(context.Background(), len(names), 0, func(i int) {
		st, err := t.lstat(names[i])
		mu.Lock()
		if err != nil {
			first = cmp.Or(first, err)
		} else {
			dirs[names[i]] = st.mtime
		}
		mu.Unlock()
	})
	if first != nil {
		return first
	}
	t.rec.Dirs = dirs
	t.rec.encodeWhole()
	return t.recordRoot()
}

// recordUp records the mtime of folder d and of its parents up to the
// first on record.
func (t *tree) recordUp(d string) error {
	for ; ; d = path.Dir(d) {
		if _, ok := t.rec.Dirs[d]; ok {
			return nil
		}
		st, err := t.lstat(d)
		if err != nil {
			return err
		}
		t.rec.setDir(strings.Clone(d), st.mtime) // d may be a spill's
		if d == "." {
			return nil
		}
	}
}

// recordTouched records the mtime of the folders this build changed (and
// of the root, which the swap may change), with any parent not on record:
// a new folder's parent is touched when the folder is made, so every
// folder of the tree is on record after. A folder that is gone (prune
// removed it) is not. Every file's folder took 7 ms at 3,470 logos, for a
// rebuild that changes a handful.
func (t *tree) recordTouched() error {
	dirs := append(slices.Collect(maps.Keys(t.touched)), ".")
	for _, d := range dirs {
		t.rec.deleteDir(d)
	}
	for _, d := range dirs {
		if err := t.recordUp(d); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// recordRoot records the identity of the tree's folder.
func (t *tree) recordRoot() error {
	info, err := os.Lstat(t.dir)
	if err != nil {
		return err
	}
	t.rec.Dev, t.rec.Ino = devIno(info)
	return nil
}
