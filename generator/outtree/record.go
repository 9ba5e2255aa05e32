package outtree

import (
	"errors"
	"io/fs"
	"maps"
	"math/bits"
	"os"
	"path"
	"slices"
	"sort"
	"strings"

	"logoindex/generator/internal/digest"
	"logoindex/generator/internal/spill"
	"logoindex/generator/internal/wire"
)

// file is what a record keeps of a file: its digest, and the stat it had
// once written, which tells whether anyone changed it since.
type file struct {
	Sum         digest.Sum
	Size, MTime int64
	Ino         uint64
}

// record is what a tree folder holds, as far as the build that wrote it
// knows. Its files stay encoded as the records file holds them, sorted by
// name, and are looked up through an index of where each starts; what a
// build changes is kept beside them (edits) and merged in when the record
// is written, so that a build that changes a few files neither decodes
// nor encodes the others.
type record struct {
	dev, ino uint64
	// dirs maps every folder of the tree ("." for its root) to its mtime,
	// which changes when an entry in it is added, removed or renamed.
	dirs map[string]int64
	n    int    // files
	sum  uint64 // of digest.NameSum over the files

	enc     string   // the encoded files: each name, digest and stat
	sorted  bool     // enc is in name order
	index   []uint32 // where each file of enc starts, in name order; nil until indexed
	indexed bool
	// edits are the files changed since enc, nil for one removed.
	edits map[string]*file
	// spilled holds the files of a tree this build made empty, encoded,
	// instead of edits: a clean build never looks one up.
	spilled *spill.File
}

func newRecord() *record {
	return &record{dirs: map[string]int64{}, edits: map[string]*file{}, sorted: true, indexed: true}
}

// errDamaged is the error of a record whose files do not decode.
var errDamaged = errors.New("a damaged tree record")

// buildIndex finds where each file of enc starts, and sorts those by name
// when enc is not in name order. It refuses a record whose files do not
// decode, name a path outside the tree, or do not add up to its count and
// sum.
func (r *record) buildIndex() error {
	if r.indexed {
		return nil
	}
	d := wire.NewDecoder(r.enc)
	n := d.Count(minFile)
	index := make([]uint32, 0, n)
	var sum uint64
	sorted, last := true, ""
	for range n {
		off := uint32(len(r.enc) - len(d.Left()))
		name := d.String()
		s := d.Sum()
		d.Int()
		d.Int()
		d.Uint()
		if !validName(name) {
			d.Fail()
		}
		sorted = sorted && name > last
		last = name
		index = append(index, off)
		sum += digest.NameSum(name, s)
	}
	if d.Done() != nil || n != r.n || sum != r.sum || len(r.enc) > 1<<31 {
		return errDamaged
	}
	if !sorted {
		sort.Slice(index, func(i, j int) bool { return r.nameAt(index[i]) < r.nameAt(index[j]) })
	}
	r.index, r.sorted, r.indexed = index, true, true
	return nil
}

// nameAt is the name of the file encoded at off.
func (r *record) nameAt(off uint32) string {
	return wire.NewDecoder(r.enc[off:]).String()
}

// fileAt decodes the file encoded at off.
func (r *record) fileAt(off uint32) (string, file) {
	d := wire.NewDecoder(r.enc[off:])
	name := d.String()
	return name, file{Sum: d.Sum(), Size: d.Int(), MTime: d.Int(), Ino: d.Uint()}
}

// lookup finds the file name; a record whose files do not decode holds
// none.
func (r *record) lookup(name string) (file, bool) {
	if r.buildIndex() != nil {
		return file{}, false
	}
	if f, ok := r.edits[name]; ok {
		if f == nil {
			return file{}, false
		}
		return *f, true
	}
	i, found := slices.BinarySearchFunc(r.index, name, func(off uint32, name string) int {
		return strings.Compare(r.nameAt(off), name)
	})
	if !found {
		return file{}, false
	}
	_, f := r.fileAt(r.index[i])
	return f, true
}

// copy is a record of the same files, for a tree of links to them.
func (r *record) copy() *record {
	c := *r
	c.dirs = maps.Clone(r.dirs)
	c.edits = maps.Clone(r.edits)
	c.spilled = nil
	return &c
}

func (r *record) set(name string, f file) {
	r.delete(name)
	r.edits[name] = &f
	r.sum += digest.NameSum(name, f.Sum)
	r.n++
}

func (r *record) delete(name string) {
	if old, ok := r.lookup(name); ok {
		r.sum -= digest.NameSum(name, old.Sum)
		r.n--
		r.edits[name] = nil
	}
}

// eachFile calls fn with every file of the record, in name order but for
// a spilled one's; a spilled name is valid only during the call.
func (r *record) eachFile(fn func(name string, f file) error) error {
	if err := r.buildIndex(); err != nil {
		return err
	}
	edited := slices.Sorted(maps.Keys(r.edits))
	i := 0
	for _, off := range r.index {
		name, f := r.fileAt(off)
		for ; i < len(edited) && edited[i] < name; i++ {
			if err := r.eachEdit(edited[i], fn); err != nil {
				return err
			}
		}
		if i < len(edited) && edited[i] == name {
			continue // the edit comes in its turn
		}
		if err := fn(name, f); err != nil {
			return err
		}
	}
	for ; i < len(edited); i++ {
		if err := r.eachEdit(edited[i], fn); err != nil {
			return err
		}
	}
	return r.spilled.Each(func(entry string) error {
		d := wire.NewDecoder(entry)
		name := d.String()
		f := file{Sum: d.Sum(), Size: d.Int(), MTime: d.Int(), Ino: d.Uint()}
		if err := d.Done(); err != nil {
			return err
		}
		return fn(name, f)
	})
}

func (r *record) eachEdit(name string, fn func(string, file) error) error {
	if f := r.edits[name]; f != nil {
		return fn(name, *f)
	}
	return nil
}

// minFile is the fewest bytes an encoded file takes.
const minFile = 1 + 16 + 3

// validName reports whether name is a clean slash-separated path below a
// folder: a record is trusted to name what to link and remove, and one
// restored from elsewhere must not reach outside its tree.
func validName(name string) bool { return fs.ValidPath(name) && name != "." }

func encodeFile(e *wire.Encoder, name string, f file) {
	e.String(name)
	e.Sum(f.Sum)
	e.Int(f.Size)
	e.Int(f.MTime)
	e.Uint(f.Ino)
}

func fileLen(name string, f file) int {
	return uvarintLen(uint64(len(name))) + len(name) + len(f.Sum) + varintLen(f.Size) + varintLen(f.MTime) + uvarintLen(f.Ino)
}

// encode writes the record: its identity, count and sum, its folders, then
// its files as one string, which a build indexes only when it looks a file
// up. A record with no edits is written as it was read.
func (r *record) encode(e *wire.Encoder) error {
	e.Uint(r.dev)
	e.Uint(r.ino)
	e.Uint(uint64(r.n))
	e.Uint(r.sum)
	dirs := slices.Sorted(maps.Keys(r.dirs))
	e.Uint(uint64(len(dirs)))
	for _, d := range dirs {
		e.String(d)
		e.Int(r.dirs[d])
	}
	if len(r.edits) == 0 && r.spilled == nil {
		e.Bool(r.sorted)
		e.String(r.enc)
		return nil
	}
	// The files as one string, written as it is counted: its length
	// first, by arithmetic, then each file straight to e.
	size := uvarintLen(uint64(r.n))
	err := r.eachFile(func(name string, f file) error {
		size += fileLen(name, f)
		return nil
	})
	if err != nil {
		return err
	}
	e.Bool(r.spilled == nil)
	e.Uint(uint64(size))
	e.Uint(uint64(r.n))
	return r.eachFile(func(name string, f file) error {
		encodeFile(e, name, f)
		return nil
	})
}

func uvarintLen(x uint64) int { return (bits.Len64(x|1) + 6) / 7 }

// varintLen is the length of x as binary.AppendVarint writes it (zig-zag).
func varintLen(x int64) int { return uvarintLen(uint64(x<<1) ^ uint64(x>>63)) }

// decodeRecord reads what encode wrote; the files are indexed when a
// build first looks one up.
func decodeRecord(d *wire.Decoder) *record {
	r := &record{dev: d.Uint(), ino: d.Uint(), edits: map[string]*file{}}
	if n := d.Uint(); n <= uint64(len(d.Left())) {
		r.n = int(n)
	} else {
		d.Fail()
	}
	r.sum = d.Uint()
	n := d.Count(2)
	r.dirs = make(map[string]int64, n)
	for range n {
		name := d.String()
		if name != "." && !validName(name) {
			d.Fail()
		}
		r.dirs[name] = d.Int()
	}
	r.sorted = d.Bool()
	r.enc = d.String()
	return r
}

// stateFile is the file, in the state folder, that holds the records of
// the two trees.
const stateFile = "trees"

// magic starts the records file and names its layout.
const magic = "logoindex-trees-1\n"

// records is the content of the records file.
type records struct {
	boot  string
	trees []*record
	// differ names the files in which the standby may differ from the
	// live tree; nil when unknown (everything may).
	differ []string
}

// readRecords reads the records file; a missing or damaged one gives
// empty records.
func readRecords(state string) *records {
	data, err := os.ReadFile(state + "/" + stateFile)
	if err != nil {
		return &records{}
	}
	d, err := wire.OpenFile(data, magic)
	if err != nil {
		return &records{}
	}
	rs := &records{boot: d.String()}
	if d.Bool() {
		rs.differ = d.Strings()
		if rs.differ == nil {
			rs.differ = []string{}
		}
		for _, name := range rs.differ {
			if !validName(name) {
				d.Fail()
			}
		}
	}
	for range d.Count(8) {
		rs.trees = append(rs.trees, decodeRecord(d))
	}
	if d.Done() != nil {
		return &records{}
	}
	return rs
}

// find returns the record of the folder dev, ino.
func (rs *records) find(dev, ino uint64) *record {
	if ino == 0 {
		return nil
	}
	for _, r := range rs.trees {
		if r.dev == dev && r.ino == ino {
			return r
		}
	}
	return nil
}

// parents lists name's folders, innermost first, without ".".
func parents(name string) []string {
	var ds []string
	for d := path.Dir(name); d != "."; d = path.Dir(d) {
		ds = append(ds, d)
	}
	return ds
}

// under reports whether name is in folder d or below.
func under(name, d string) bool { return strings.HasPrefix(name, d+"/") }
