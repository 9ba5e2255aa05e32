package publish

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"logoindex/internal/headers"
)

// A release is a pinned snapshot of the collection: a tree built for
// BASE/v/VERSION, published under the prefix v/VERSION/ of the bucket,
// every object cached for ever (ImmutableCacheControl), and listed in
// ReleasesKey. A pinned URL must never change, so a release refuses a
// version that is listed, or whose prefix holds anything the tree would
// change. A release deletes nothing, and a site publish leaves releases
// alone (isReleased).

// ReleasesKey is the list of releases, at the root of the bucket: a JSON
// array of ReleaseEntry, newest first. Only a release writes it.
const ReleasesKey = "api/releases.json"

// ImmutableCacheControl is the Cache-Control of every object of a
// release: its content never changes.
var ImmutableCacheControl = fmt.Sprintf("public, max-age=%d, immutable", headers.AssetMaxAge)

// ReleasePrefix is the prefix of the bucket a release of version is
// published under.
func ReleasePrefix(version string) string { return "v/" + version + "/" }

// isReleased reports whether key belongs to the releases, which a
// publish of the site neither lists as its own nor deletes. No tree can
// hold such a key: no header rule covers v/, and readTree refuses
// ReleasesKey.
func isReleased(key string) bool { return key == ReleasesKey || strings.HasPrefix(key, "v/") }

// ReleaseEntry is one release in ReleasesKey.
type ReleaseEntry struct {
	Version string `json:"version"`
	Date    string `json:"date"`  // the day of the release, UTC, YYYY-MM-DD
	Logos   int    `json:"logos"` // the logos it holds
	Index   string `json:"index"` // the URL of its api/logos.json
}

// ReleaseRefusedError is a release that would change a pinned URL, or
// cannot tell whether it would. Nothing was written, and Options.Force
// does not override it.
type ReleaseRefusedError struct{ Reason string }

func (e *ReleaseRefusedError) Error() string { return e.Reason }

// maxReleasesSize bounds the read of ReleasesKey: about 150 bytes a
// release.
const maxReleasesSize = 16 << 20

// now is the clock of a release's date; tests replace it.
var now = time.Now

// releaseJob publishes a release (Options.Release).
type releaseJob struct {
	tree    *Tree
	b       *blob.Bucket
	opts    Options
	version string
	// What inspect read: the list of releases (raw, to keep each entry as
	// it is), and the objects the prefix holds already, all of them the
	// tree's own (a release that stopped before its end).
	releases [][]byte
	existing map[string]bool
}

// siteBase is the base URL of the site a release tree was built under:
// the tree's without /v/<version>.
func siteBase(treeBase, version string) (string, bool) {
	return strings.CutSuffix(treeBase, "/v/"+version)
}

func (j *releaseJob) inspect(ctx context.Context) error {
	base := j.tree.manifest.BaseURL
	if site, ok := siteBase(base, j.version); ok && !j.opts.Force {
		state, err := readRoot(ctx, j.b)
		if err != nil {
			return err
		}
		if state != nil && state.BaseURL != site {
			return &RefusedError{fmt.Sprintf("the bucket serves a site built for %s (its %s says so), and this release was built for %s: build it for %s/v/%s",
				describeBase(state.BaseURL), StateKey, base, state.BaseURL, j.version)}
		}
	}
	list, err := readReleases(ctx, j.b)
	if err != nil {
		return err
	}
	for _, raw := range list {
		var e ReleaseEntry
		json.Unmarshal(raw, &e) // checked by readReleases
		if e.Version == j.version {
			return &ReleaseRefusedError{fmt.Sprintf("%s already lists release %s (of %s): a pinned release never changes. Release a new version", ReleasesKey, j.version, e.Date)}
		}
	}
	j.releases = list
	j.existing, err = j.readPrefix(ctx)
	return err
}

// readRoot reads the bucket's record, if it has a readable one.
func readRoot(ctx context.Context, b *blob.Bucket) (*state, error) {
	data, err := readState(ctx, b)
	switch {
	case gcerrors.Code(err) == gcerrors.NotFound:
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("reading the bucket's %s: %w", StateKey, err)
	}
	s, _ := parseState(data) // a broken record is the next site publish's concern
	return s, nil
}

// readReleases reads ReleasesKey: none is an empty list.
func readReleases(ctx context.Context, b *blob.Bucket) ([][]byte, error) {
	data, err := readSmall(ctx, b, ReleasesKey, maxReleasesSize)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the bucket's %s: %w", ReleasesKey, err)
	}
	var raw []json.RawMessage
	err = json.Unmarshal(data, &raw)
	var out [][]byte
	for i := 0; err == nil && i < len(raw); i++ {
		var e ReleaseEntry
		if err = json.Unmarshal(raw[i], &e); err == nil && e.Version == "" {
			err = fmt.Errorf("entry %d has no version", i+1)
		}
		out = append(out, raw[i])
	}
	if err != nil {
		return nil, &ReleaseRefusedError{fmt.Sprintf("the bucket's %s is not a list of releases (%v), so publish cannot tell which versions are taken. Repair it by hand: a JSON array of {version, date, logos, index}, newest first", ReleasesKey, err)}
	}
	return out, nil
}

// readPrefix lists what the release's prefix holds. It refuses any object
// the release would not leave as it is: one the tree lacks, or holds with
// other bytes, or whose bytes the store gives no MD5 for.
func (j *releaseJob) readPrefix(ctx context.Context) (map[string]bool, error) {
	prefix := ReleasePrefix(j.version)
	existing := map[string]bool{}
	var foreign []string
	it := j.b.List(&blob.ListOptions{Prefix: prefix})
	for {
		obj, err := it.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", prefix, err)
		}
		f := j.tree.files[strings.TrimPrefix(obj.Key, prefix)]
		if f == nil || obj.Size != int64(len(f.data)) || !bytes.Equal(obj.MD5, f.md5[:]) {
			foreign = append(foreign, obj.Key)
			continue
		}
		existing[obj.Key] = true
	}
	if len(foreign) == 0 {
		return existing, nil
	}
	return nil, &ReleaseRefusedError{fmt.Sprintf("%s already holds %d %s that this release would change or that it lacks (%s): a pinned URL never changes. %s does not list %s, so a release of it stopped before its end, or something else wrote there. Release a new version; or, if no one can have used these URLs, delete everything under %s and release again",
		prefix, len(foreign), plural(len(foreign), "object", "objects"), firstFew(foreign), ReleasesKey, j.version, prefix)}
}

// firstFew names up to three keys, and how many more there are.
func firstFew(keys []string) string {
	if len(keys) <= 3 {
		return strings.Join(keys, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(keys[:3], ", "), len(keys)-3)
}

func (j *releaseJob) execute(ctx context.Context) (*Summary, error) {
	files, p, err := j.plan()
	if err != nil {
		return nil, err
	}
	list := p.changes[len(p.changes)-1] // the list of releases, last
	r := &reporter{r: j.opts.Reporter}
	sum := startSummary(p, j.tree.manifest.BaseURL, j.opts, r)
	if j.opts.DryRun {
		return sum, nil
	}
	run := &runner{b: j.b, opts: j.opts, r: r, sum: sum}
	err = run.all(ctx, p.changes, files, func(ctx context.Context) *IncompleteError {
		return run.writeReleases(ctx, list, files[ReleasesKey])
	})
	var inc *IncompleteError
	if errors.As(err, &inc) {
		inc.Release = j.version
	}
	return sum, err
}

// plan is what a release uploads: every file of the tree under the
// prefix, with ImmutableCacheControl, but those there already; then the
// new list of releases (a StepRecord change). files maps each object key
// to what it gets.
func (j *releaseJob) plan() (map[string]*file, changes, error) {
	list, err := j.newReleases()
	if err != nil {
		return nil, changes{}, err
	}
	ctype, cache := headers.Site.Object(ReleasesKey)
	files := map[string]*file{ReleasesKey: {key: ReleasesKey, data: list, md5: md5.Sum(list), contentType: ctype, cacheControl: cache}}
	var p changes
	for key, f := range j.tree.files {
		obj := *f
		obj.key, obj.cacheControl = ReleasePrefix(j.version)+key, ImmutableCacheControl
		files[obj.key] = &obj
		if j.existing[obj.key] {
			p.skipped++
			continue
		}
		p.changes = append(p.changes, Change{Key: obj.key, Action: Upload, Reason: "new", Size: int64(len(f.data)), Step: stepOf(key)})
	}
	sortChanges(p.changes)
	p.changes = append(p.changes, Change{Key: ReleasesKey, Action: Upload, Reason: "lists " + j.version, Size: int64(len(list)), Step: StepRecord})
	return files, p, nil
}

// newReleases is the list of releases with this one first.
func (j *releaseJob) newReleases() ([]byte, error) {
	logos, err := countLogos(j.tree.files["api/logos.json"])
	if err != nil {
		return nil, err
	}
	e := ReleaseEntry{Version: j.version, Date: now().UTC().Format(time.DateOnly), Logos: logos, Index: j.tree.manifest.BaseURL + "/api/logos.json"}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	b.WriteString("[\n")
	enc.Encode(e) // cannot fail: strings and an int
	for _, raw := range j.releases {
		b.Truncate(b.Len() - 1)
		b.WriteString(",\n")
		json.Compact(&b, raw) // valid: readReleases parsed it
		b.WriteString("\n")
	}
	b.WriteString("]\n")
	return b.Bytes(), nil
}

// countLogos counts the logos of the tree's index, api/logos.json.
func countLogos(f *file) (int, error) {
	if f == nil {
		return 0, &ReleaseRefusedError{"the tree has no api/logos.json, so it is not a collection to release; build it with logoindex release"}
	}
	var index struct {
		Logos []json.RawMessage `json:"logos"`
	}
	if err := json.Unmarshal(f.data, &index); err != nil {
		return 0, &ReleaseRefusedError{fmt.Sprintf("the tree's api/logos.json is not an index of logos (%v); build it again", err)}
	}
	return len(index.Logos), nil
}

// writeReleases writes the new list of releases, the last object of a
// release: once it is there, the release is announced.
func (run *runner) writeReleases(ctx context.Context, c Change, f *file) *IncompleteError {
	err := run.retry(ctx, c, func(ctx context.Context) error {
		return run.b.WriteAll(ctx, f.key, f.data, &blob.WriterOptions{ContentType: f.contentType, CacheControl: f.cacheControl, ContentMD5: f.md5[:]})
	})
	if err != nil && ctx.Err() != nil {
		return &IncompleteError{Cause: ctx.Err()}
	}
	run.r.Done(c, err)
	if err != nil {
		return &IncompleteError{Failed: []*ObjectError{{Change: c, Err: err}}}
	}
	run.sum.Uploaded++
	run.sum.Bytes += c.Size
	return nil
}
