package generator

import (
	"path"

	"logoindex/generator/buildcache"
	"logoindex/generator/internal/digest"
	"logoindex/generator/internal/sysfs"
	"logoindex/generator/source"
)

// inputs are the stats of a logo folder and of the files a build reads in
// it, as the build log records them.
type inputs struct {
	folder buildcache.Input
	files  []buildcache.Input
}

func inputOf(name string, st sysfs.Stat) buildcache.Input {
	return buildcache.Input{Name: name, Size: st.Size, MTime: st.MTime, CTime: st.CTime, Ino: st.Ino}
}

// currentInputs compares a logo folder with its entry e of the build log.
// A file whose stat is the recorded one, and old enough not to be racy, is
// the same; any other is read and compared by digest. It returns the
// current inputs when they are the recorded ones (same: with the same
// stats too), or nil.
func (b *build) currentInputs(slug string, e buildcache.Entry) (in *inputs, same bool) {
	cur := b.restat(slug, e)
	if cur == nil || len(cur.files) != len(e.Inputs) {
		return nil, false
	}
	started := b.cache.Started()
	same = cur.folder.SameStat(e.Folder)
	for i := range cur.files {
		old, c := e.Inputs[i], &cur.files[i]
		if old.Name != c.Name {
			return nil, false
		}
		c.Digest = old.Digest
		if old.SameStat(*c) && !c.Racy(started) {
			continue
		}
		same = false
		data, err := b.src.ReadFile(path.Join(slug, c.Name), maxInputSize)
		if err != nil || digest.Of(data) != old.Digest {
			return nil, false
		}
	}
	return cur, same
}

// maxInputSize bounds the read of a source whose stat changed: the
// largest a source may be.
const maxInputSize = source.MaxCategoriesSize

// restat takes the stat of the folder and of the files the entry names,
// without listing the folder while its own stat is the recorded one (and
// not racy): then no name in it was added, removed or renamed. Otherwise
// it lists the folder and takes the stat of what a build would read. It
// returns nil when the folder cannot be reused by its stats (a file that
// is not a regular file, an ignored file to report): only a full check
// reports on those.
func (b *build) restat(slug string, e buildcache.Entry) *inputs {
	folder, ok := b.src.FolderStat(slug)
	if !ok {
		return nil
	}
	cur := &inputs{folder: inputOf(".", folder)}
	if cur.folder.SameStat(e.Folder) && !cur.folder.Racy(b.cache.Started()) {
		cur.files = make([]buildcache.Input, len(e.Inputs))
		for i, old := range e.Inputs {
			st, ok := b.src.FileStat(slug, old.Name)
			if !ok {
				return nil
			}
			cur.files[i] = inputOf(old.Name, st)
		}
		return cur
	}
	names, ok := b.src.InputNames(slug, nil)
	if !ok {
		return nil
	}
	for _, name := range names {
		st, ok := b.src.FileStat(slug, name)
		if !ok {
			return nil
		}
		cur.files = append(cur.files, inputOf(name, st))
	}
	return cur
}

// readInputs are the inputs of a logo as it was just read: each file's
// stat from the read itself, taken before the read, so that an edit made
// meanwhile shows as a changed stat next time. It returns nil when the
// folder held anything but the files read (only a full check reports on
// those) or the file system gives no inodes.
func (b *build) readInputs(ls *source.Logo, folder sysfs.Stat, listed bool) *inputs {
	if !listed || folder.Ino == 0 {
		return nil
	}
	read := map[string]*source.File{}
	if ls.Meta != nil {
		read["logo.yaml"] = ls.Meta
	}
	for v, f := range ls.Variants {
		read[v+".svg"] = f
	}
	names, ok := b.src.InputNames(ls.Slug, ls.Entries)
	if !ok || len(names) != len(read) {
		return nil
	}
	in := &inputs{folder: inputOf(".", folder)}
	for _, name := range names {
		f := read[name]
		if f == nil || f.Stat.Ino == 0 || !f.Stat.Mode.IsRegular() {
			return nil
		}
		st := inputOf(name, f.Stat)
		st.Digest = digest.Of(f.Data)
		in.files = append(in.files, st)
	}
	return in
}
