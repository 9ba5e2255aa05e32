package preview

import (
	"context"
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"logoindex/generator/ignore"
)

// DefaultQuiet is how long a Notifier waits after the last file event
// before it reports: an editor's save (a temporary file, a rename, a
// chmod) or a git checkout arrives as a burst within a few milliseconds,
// and gives one rebuild.
const DefaultQuiet = 25 * time.Millisecond

// Notifier reports changes to a source folder from the system's file
// events (inotify on Linux), naming the logo folders they touched, so a
// rebuild need not look at the others. It watches the folder and each of
// its folders, one level down, as the source layout has.
type Notifier struct {
	dir    string
	quiet  time.Duration
	w      *fsnotify.Watcher
	ignore *ignore.Matcher // what the build skips; read again when its file changes
}

// NewNotifier watches dir. It fails where the system has no file events
// or too few watches for the folders (fs.inotify.max_user_watches); the
// caller then polls with a Watcher.
func NewNotifier(dir string, quiet time.Duration) (*Notifier, error) {
	if quiet <= 0 {
		quiet = DefaultQuiet
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	n := &Notifier{dir: dir, quiet: quiet, w: w}
	n.ignore, _ = ignore.Load(os.DirFS(dir), "") // a bad file is the build's to report
	if err := n.add(dir); err != nil {
		w.Close()
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		w.Close()
		return nil, err
	}
	for _, e := range entries {
		if e.IsDir() {
			if err := n.add(filepath.Join(dir, e.Name())); err != nil {
				w.Close()
				return nil, err
			}
		}
	}
	return n, nil
}

func (n *Notifier) add(dir string) error {
	if err := n.w.Add(dir); err != nil {
		return &os.PathError{Op: "watch", Path: dir, Err: err}
	}
	return nil
}

// Close stops watching.
func (n *Notifier) Close() error { return n.w.Close() }

// Run calls onChange after each burst of changes, until ctx is done, and
// returns ctx's error. changed names the top-level entries of the folder
// the burst touched (a logo's slug, "categories.yaml"); it is nil when
// events were lost (the kernel's queue overflowed) and anything may have
// changed. onChange runs on Run's goroutine: events that arrive while it
// runs are reported after it returns.
func (n *Notifier) Run(ctx context.Context, onChange func(changed map[string]bool)) error {
	defer n.w.Close()
	var (
		changed = map[string]bool{}
		lost    bool
		timer   *time.Timer
		fire    <-chan time.Time
	)
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case ev, ok := <-n.w.Events:
			if !ok {
				return errors.New("file events closed")
			}
			rel := filepath.ToSlash(mustRel(n.dir, ev.Name))
			top, rest, _ := strings.Cut(rel, "/")
			if top == "" || top == "." || top == ".." {
				continue
			}
			if rel == ignore.FileName {
				n.ignore, _ = ignore.Load(os.DirFS(n.dir), "")
			} else if n.ignored(rel) {
				continue // an editor's swap file, .DS_Store
			}
			changed[top] = true
			if rest == "" && ev.Has(fsnotify.Create) {
				if info, err := os.Lstat(ev.Name); err == nil && info.IsDir() {
					// A new logo folder: watch it, and treat what it
					// already holds as changed (it is, by its slug).
					if n.add(ev.Name) != nil {
						lost = true
					}
				}
			}
		case err, ok := <-n.w.Errors:
			if !ok {
				return errors.New("file events closed")
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				lost = true
			}
		case <-fire:
			fire = nil
			report := changed
			if lost {
				report = nil
			}
			changed, lost = map[string]bool{}, false
			onChange(report)
			continue
		}
		if timer == nil {
			timer = time.NewTimer(n.quiet)
		} else {
			timer.Reset(n.quiet)
		}
		fire = timer.C
	}
}

// ignored reports whether the build skips rel or a folder it is in.
func (n *Notifier) ignored(rel string) bool {
	for p := rel; p != "."; p = path.Dir(p) {
		info, err := os.Lstat(filepath.Join(n.dir, filepath.FromSlash(p)))
		isDir := err == nil && info.IsDir()
		if n.ignore.Match(p, isDir) != nil {
			return true
		}
	}
	return false
}

func mustRel(dir, name string) string {
	rel, err := filepath.Rel(dir, name)
	if err != nil {
		return ""
	}
	return rel
}
