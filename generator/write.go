package generator

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"logoindex/internal/par"
)

// marker is a file every output tree holds. WriteTree only replaces a
// folder that has it, so a mistyped -out never swaps away someone's work.
const marker = "api/logos.json"

// WriteTree writes files as the complete content of dir, atomically: the
// tree is written to a temporary folder beside dir and swapped in at the
// end, so a crash or interrupt at any point leaves either the complete old
// tree or the complete new one. Temporary folders left by a killed build
// are removed by the next one. An existing dir is replaced only if it looks
// like an earlier output (it holds api/logos.json) or is empty.
//
// WriteTree is the in-memory counterpart of BuildTree, which streams the
// files of each logo into the tree as they are made.
func WriteTree(ctx context.Context, dir string, files []OutFile) error {
	for _, f := range files {
		if !fs.ValidPath(f.Name) || f.Name == "." {
			return fmt.Errorf("internal error: output name %q is not a clean relative path", f.Name)
		}
	}
	if c := findClashes(files); len(c) > 0 {
		return c[0]
	}
	out, err := openOutput(dir)
	if err != nil {
		return err
	}
	defer out.unlock()

	tmp, err := out.tempTree()
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()
	if err := writeFiles(ctx, tmp, files); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	old, err := out.exchange(tmp)
	if err != nil {
		return err
	}
	done = true
	if old == "" {
		return nil
	}
	return os.RemoveAll(old)
}

// output is an output folder, locked for one build.
type output struct {
	dir, parent, base string
	unlock            func()
}

// openOutput checks that dir may be replaced by a build, takes the lock of
// its builds and removes what a killed build left beside it.
func openOutput(dir string) (*output, error) {
	dir = filepath.Clean(dir)
	parent, base := filepath.Dir(dir), filepath.Base(dir)
	if base == "." || base == string(filepath.Separator) || base == ".." {
		return nil, fmt.Errorf("refusing to write the output to %q: name a folder of its own, such as dist", dir)
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	unlock, err := lockOutput(parent, base)
	if err != nil {
		return nil, err
	}
	if err := cleanLeftovers(parent, base); err != nil {
		unlock()
		return nil, err
	}
	if err := checkReplaceable(dir); err != nil {
		unlock()
		return nil, err
	}
	return &output{dir: dir, parent: parent, base: base, unlock: unlock}, nil
}

// writeFiles writes files under root, which is empty.
func writeFiles(ctx context.Context, root string, files []OutFile) error {
	made := map[string]bool{".": true}
	for _, f := range files {
		d := path.Dir(f.Name)
		if !made[d] {
			if err := os.MkdirAll(filepath.Join(root, filepath.FromSlash(d)), 0o755); err != nil {
				return err
			}
			for ; d != "."; d = path.Dir(d) {
				made[d] = true
			}
		}
	}
	errs := make([]error, len(files))
	par.For(ctx, len(files), 0, func(i int) {
		errs[i] = os.WriteFile(filepath.Join(root, filepath.FromSlash(files[i].Name)), files[i].Data, 0o644)
	})
	return errors.Join(errs...)
}

// tempTree makes a new, empty folder beside the output for a tree being
// written; cleanLeftovers removes it if the build dies.
func (o *output) tempTree() (string, error) {
	tmp, err := os.MkdirTemp(o.parent, tempPrefix(o.base))
	if err != nil {
		return "", err
	}
	if err := os.Chmod(tmp, 0o755); err != nil { // MkdirTemp makes it 0700
		os.RemoveAll(tmp)
		return "", err
	}
	return tmp, nil
}

// newSpill makes a spill file beside the output, named as its temporary
// trees are, so that cleanLeftovers removes one a killed build left (on
// Unix it has no name from the start).
func (o *output) newSpill() (*spill, error) {
	return newSpill(o.parent, tempPrefix(o.base)+"spill-")
}

// tempPrefix starts the names of what a build of the output base makes
// beside it for its own use: cleanLeftovers removes them.
func tempPrefix(base string) string { return "." + base + "-tmp-" }

// exchange makes the tree at tmp the output folder and returns where the
// old tree is now: at tmp after an atomic exchange, in a hidden -old-
// folder beside the output after the two-rename fallback, or "" when
// there was none. The caller removes it or keeps it as a standby.
func (o *output) exchange(tmp string) (old string, err error) {
	if _, err := os.Lstat(o.dir); errors.Is(err, fs.ErrNotExist) {
		return "", os.Rename(tmp, o.dir)
	}
	ok, err := exchange(tmp, o.dir)
	if err != nil {
		return "", err
	}
	if ok {
		return tmp, nil
	}
	// No atomic exchange here: two renames, with a moment where the
	// output is missing. cleanLeftovers puts the old tree back if a crash
	// hits it.
	old = filepath.Join(o.parent, "."+o.base+"-old-"+filepath.Base(tmp))
	if err := os.Rename(o.dir, old); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, o.dir); err != nil {
		os.Rename(old, o.dir)
		return "", err
	}
	return old, nil
}

// cleanLeftovers removes what a killed build left beside dir, restoring the
// old tree first if the build died between the two renames of exchange.
func cleanLeftovers(parent, base string) error {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return err
	}
	_, statErr := os.Lstat(filepath.Join(parent, base))
	missing := errors.Is(statErr, fs.ErrNotExist)
	for _, e := range entries {
		name := e.Name()
		switch {
		case strings.HasPrefix(name, "."+base+"-old-") && missing:
			if err := os.Rename(filepath.Join(parent, name), filepath.Join(parent, base)); err != nil {
				return err
			}
			missing = false
		case strings.HasPrefix(name, tempPrefix(base)), strings.HasPrefix(name, "."+base+"-old-"):
			if err := os.RemoveAll(filepath.Join(parent, name)); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkReplaceable(dir string) error {
	info, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !info.IsDir() {
		return fmt.Errorf("refusing to replace %s: it is not a folder", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(marker))); err == nil {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	if len(entries) > 0 {
		return fmt.Errorf("refusing to replace %s: it is not empty and holds no %s, so it is not an earlier build; remove it or choose another -out", dir, marker)
	}
	return nil
}

// lockOutput serialises builds into the same folder (a watch rebuild and a
// manual one, say), so one never removes the other's temporary tree.
func lockOutput(parent, base string) (func(), error) {
	f, err := os.OpenFile(filepath.Join(parent, "."+base+".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := lockFile(f.Fd()); err != nil && !errors.Is(err, syscall.ENOLCK) {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}

// outputClash is two outputs that would land on one path: they have the
// same name, or B's name is a folder in A's.
type outputClash struct{ A, B OutFile }

func (c outputClash) Error() string {
	if c.A.Name == c.B.Name {
		return fmt.Sprintf("internal error: two outputs are named %s", c.A.Name)
	}
	return fmt.Sprintf("internal error: output %s is also a folder of %s", c.B.Name, c.A.Name)
}

// findClashes returns every pair of files that cannot both be written, in
// the order of files.
func findClashes(files []OutFile) []outputClash {
	byName := make(map[string]int, len(files))
	var clashes []outputClash
	for i, f := range files {
		if j, dup := byName[f.Name]; dup {
			clashes = append(clashes, outputClash{files[j], f})
		} else {
			byName[f.Name] = i
		}
	}
	for _, f := range files {
		for d := path.Dir(f.Name); d != "."; d = path.Dir(d) {
			if j, ok := byName[d]; ok {
				clashes = append(clashes, outputClash{f, files[j]})
			}
		}
	}
	return clashes
}
