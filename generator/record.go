package generator

import (
	"errors"
	"io/fs"
	"strings"

	"logoindex/generator/internal/digest"
	"logoindex/generator/internal/spill"
	"logoindex/generator/internal/wire"
	"logoindex/generator/problem"
	"logoindex/generator/render"
	"logoindex/generator/source"
)

// fileDigest is an output file of a build, by name and digest.
type fileDigest struct {
	name string
	sum  digest.Sum
	// static marks a collection's file copied from the source's
	// StaticDir, which a clash is blamed on.
	static bool
}

// logoRecord is what a build keeps of a logo for its own later phases and
// for the next build's log: its files, its summary and its warnings. The
// paths in the summary and the warnings are kept relative to the source
// folder, so that a build naming the folder otherwise can use it.
type logoRecord struct {
	files    []fileDigest
	sum      *render.Summary
	warnings ProblemList
}

// recordHead is the start of an encoded record, which a build reads
// without decoding the rest: how many files the logo has, the sum of their
// names and digests (digest.NameSum), the digest of its summary, and how
// many warnings it has.
type recordHead struct {
	n        int
	namesum  uint64
	summary  digest.Sum
	warnings int
}

// encode writes the record for a build whose source folder is named dir.
func (r *logoRecord) encode(dir string) ([]byte, error) {
	var sumBytes []byte
	var err error
	rel := func(p string) string {
		q, ok := source.RelPath(dir, p)
		if !ok {
			err = errors.New("a path outside the source folder: " + p)
		}
		return q
	}
	sum := *r.sum
	sum.MetaPath = rel(sum.MetaPath)
	spill.Encode(func(e *wire.Encoder) { sum.Encode(e) }, func(b []byte) error {
		sumBytes = append([]byte(nil), b...)
		return nil
	})
	var out []byte
	spill.Encode(func(e *wire.Encoder) {
		var namesum uint64
		for _, f := range r.files {
			namesum += digest.NameSum(f.name, f.sum)
		}
		e.Uint(uint64(len(r.files)))
		e.Uint(namesum)
		e.Sum(digest.Of(sumBytes))
		e.Uint(uint64(len(r.warnings)))
		for _, f := range r.files {
			e.String(f.name)
			e.Sum(f.sum)
		}
		e.Bytes(sumBytes)
		e.Uint(uint64(len(r.warnings)))
		for _, p := range r.warnings {
			encodeProblem(e, p, rel(p.Path))
		}
	}, func(b []byte) error {
		out = append([]byte(nil), b...)
		return nil
	})
	return out, err
}

// readRecordHead reads the head of an encoded record.
func readRecordHead(s string) (recordHead, error) {
	d := wire.NewDecoder(s)
	h := recordHead{n: d.Count(minFileDigest), namesum: d.Uint(), summary: d.Sum(), warnings: int(d.Uint())}
	return h, d.Err()
}

// minFileDigest is the fewest bytes an encoded fileDigest takes.
const minFileDigest = 1 + 16

// checkRecordFiles reads the head and the files of an encoded record
// without keeping them, and refuses one whose files do not decode or name
// a path outside the tree: a record of the build log is taken only then,
// for the phases after rely on its files (eachFile).
func checkRecordFiles(s string) error {
	d := wire.NewDecoder(s)
	n := d.Count(minFileDigest)
	d.Uint()
	d.Sum()
	d.Uint()
	for range n {
		if !validName(d.String()) {
			d.Fail()
		}
		d.Sum()
	}
	return d.Err()
}

// decodeRecordFiles reads the files of an encoded record. Their names
// point into s.
func decodeRecordFiles(s string) ([]fileDigest, error) {
	d := wire.NewDecoder(s)
	n := d.Count(minFileDigest)
	d.Uint()
	d.Sum()
	d.Uint()
	files := make([]fileDigest, n)
	for i := range files {
		files[i] = fileDigest{name: d.String(), sum: d.Sum()}
		if !validName(files[i].name) {
			d.Fail()
		}
	}
	return files, d.Err()
}

// decodeRecord reads a whole record, for a build whose source folder is
// named dir. Its strings are copies: warnings outlive the build.
func decodeRecord(s, dir string) (*logoRecord, error) {
	files, err := decodeRecordFiles(s)
	if err != nil {
		return nil, err
	}
	d := wire.NewDecoder(s)
	d.Count(minFileDigest)
	d.Uint()
	d.Sum()
	d.Uint()
	for range files {
		_ = d.String()
		d.Sum()
	}
	r := &logoRecord{files: files}
	sd := wire.NewDecoder(d.String())
	r.sum = render.DecodeSummary(sd)
	if sd.Done() != nil || d.Err() != nil {
		return nil, errDamagedRecord
	}
	r.sum.MetaPath = source.DisplayPath(dir, r.sum.MetaPath)
	for range d.Count(minProblem) {
		r.warnings = append(r.warnings, decodeProblem(d, dir))
	}
	if err := d.Done(); err != nil {
		return nil, errDamagedRecord
	}
	return r, nil
}

var errDamagedRecord = errors.New("a damaged logo record")

// validName reports whether name is a clean slash-separated path below a
// folder: a record restored from elsewhere must not point a build at
// "../" anything.
func validName(name string) bool { return fs.ValidPath(name) && name != "." }

// minProblem is the fewest bytes an encoded problem takes.
const minProblem = 6

func encodeProblem(e *wire.Encoder, p *Problem, rel string) {
	e.String(rel)
	e.Int(int64(p.Line))
	e.Int(int64(p.Col))
	e.Int(int64(p.Severity))
	e.String(string(p.Code))
	e.String(p.Msg)
}

func decodeProblem(d *wire.Decoder, dir string) *Problem {
	return &problem.Problem{
		Path: source.DisplayPath(dir, strings.Clone(d.String())), Line: int(d.Int()), Col: int(d.Int()),
		Severity: problem.Severity(d.Int()), Code: problem.Code(strings.Clone(d.String())), Msg: strings.Clone(d.String()),
	}
}

// collectionRecord is what the build log keeps of the collection's files:
// the digest of what they are made of, their names and digests, and the
// count and sum of every file of the tree (digest.NameSum), which the live
// tree's record should match.
type collectionRecord struct {
	digest  digest.Sum
	treeN   int
	treeSum uint64
	files   []fileDigest
}

func (c *collectionRecord) encode() string {
	var out string
	spill.Encode(func(e *wire.Encoder) {
		e.Sum(c.digest)
		e.Uint(uint64(c.treeN))
		e.Uint(c.treeSum)
		e.Uint(uint64(len(c.files)))
		for _, f := range c.files {
			e.String(f.name)
			e.Sum(f.sum)
			e.Bool(f.static)
		}
	}, func(b []byte) error {
		out = string(b)
		return nil
	})
	return out
}

func decodeCollection(s string) (collectionRecord, error) {
	d := wire.NewDecoder(s)
	c := collectionRecord{digest: d.Sum(), treeN: int(d.Uint()), treeSum: d.Uint()}
	c.files = make([]fileDigest, d.Count(minFileDigest))
	for i := range c.files {
		c.files[i] = fileDigest{name: d.String(), sum: d.Sum(), static: d.Bool()}
		if !validName(c.files[i].name) {
			d.Fail()
		}
	}
	if err := d.Done(); err != nil {
		return collectionRecord{}, err
	}
	return c, nil
}
