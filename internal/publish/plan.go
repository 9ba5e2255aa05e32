package publish

import (
	"bytes"
	"cmp"
	"encoding/hex"
	"slices"
)

// changes is the outcome of comparing the tree with the bucket.
type changes struct {
	changes []Change // in the order they will be made
	skipped int
}

// plan compares the tree with the bucket. A file is unchanged when the
// bucket has an object of the same size and MD5 (from the listing, or from
// the record where the store lists no MD5, as for multipart uploads) and
// the record gives it the same headers. Objects the tree lacks are deleted
// in the reverse order of the steps: pages before the SVGs they show.
func plan(files map[string]*file, r *remote) changes {
	var out changes
	for key, f := range files {
		reason := ""
		obj, listed := r.objects[key]
		rec, recHeaders, recorded := r.state.headersOf(key)
		switch {
		case !listed:
			reason = "new"
		case obj.Size != int64(len(f.data)):
			reason = "changed"
		case len(obj.MD5) > 0 && !bytes.Equal(obj.MD5, f.md5[:]):
			reason = "changed"
		case len(obj.MD5) == 0 && (!recorded || rec.MD5 != hex.EncodeToString(f.md5[:])):
			reason = "changed" // as far as anyone can tell
		case !recorded || recHeaders != [2]string{f.contentType, f.cacheControl}:
			reason = "headers changed"
		}
		if reason == "" {
			out.skipped++
			continue
		}
		out.changes = append(out.changes, Change{Key: key, Action: Upload, Reason: reason, Size: int64(len(f.data)), Step: stepOf(key)})
	}
	for key := range r.objects {
		if _, ok := files[key]; !ok {
			out.changes = append(out.changes, Change{Key: key, Action: Delete, Reason: "not in the tree", Step: StepDelete})
		}
	}
	slices.SortFunc(out.changes, func(a, b Change) int {
		if c := cmp.Compare(a.Step, b.Step); c != 0 {
			return c
		}
		if a.Action == Delete {
			// Reverse step order of the files deleted.
			if c := cmp.Compare(stepOf(b.Key), stepOf(a.Key)); c != 0 {
				return c
			}
		}
		return cmp.Compare(a.Key, b.Key)
	})
	return out
}
