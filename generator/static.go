package generator

import (
	"path/filepath"
	"strings"

	"logoindex/generator/internal/digest"
	"logoindex/generator/problem"
	"logoindex/generator/source"
)

// staticFile is a file of the source's StaticDir, at its path in the
// output.
type staticFile struct {
	name string
	data []byte
	sum  digest.Sum
}

// readStatic reads the source's StaticDir, when it has one.
func (b *build) readStatic(has bool) {
	if !has {
		return
	}
	for _, f := range b.src.Static(&b.probs) {
		rel, _ := source.RelPath(b.opts.Dir, f.Path)
		name := strings.TrimPrefix(rel, source.StaticDir+"/")
		b.static = append(b.static, staticFile{name: name, data: f.Data, sum: digest.Of(f.Data)})
	}
}

// digestStatic adds the static files to the digest of the collection's
// files.
func (b *build) digestStatic(h *digest.Hasher) {
	for _, f := range b.static {
		h.Write([]byte(f.name))
		h.Write([]byte{0})
		h.Write(f.sum[:])
	}
}

// putStatic copies the static files into the output, among the
// collection's files.
func (b *build) putStatic(out output) error {
	for _, f := range b.static {
		if err := out.Put(f.name, f.sum, f.data); err != nil {
			return err
		}
		b.coll.files = append(b.coll.files, fileDigest{name: f.name, sum: f.sum, static: true})
	}
	return nil
}

// reportStrays warns of each file in the output that no build wrote,
// which the new tree leaves out: a file a host needs has its place in
// the source's StaticDir.
func (b *build) reportStrays(strays []string) {
	for _, name := range strays {
		where := filepath.ToSlash(filepath.Join(b.opts.Out, name))
		if !source.StaticAllowed(name) {
			b.warnings.Warnf(problem.OutputStray, where, 0, 0,
				"is not a file the build writes, so the new tree leaves it out; the build keeps this place for its own files, so keep yours at the top of %s or in a folder of their own there", source.DisplayPath(b.opts.Dir, source.StaticDir))
			continue
		}
		b.warnings.Warnf(problem.OutputStray, where, 0, 0,
			"is not a file the build writes, so the new tree leaves it out; to publish it, put it in %s/%s", source.DisplayPath(b.opts.Dir, source.StaticDir), name)
	}
	b.warnings.Sort()
}
