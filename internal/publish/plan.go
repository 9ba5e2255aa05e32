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
// the record gives it the same headers; or, when checked is not nil (a
// verify), when checked has nothing to say about it. Objects the tree
// lacks are deleted in the reverse order of the steps: pages before the
// SVGs they show.
func plan(files map[string]*file, r *remote, checked map[string]string) changes {
	var out changes
	for key, f := range files {
		reason := checked[key]
		if checked == nil {
			reason = compare(f, r)
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
	sortChanges(out.changes)
	return out
}

// compare says why f must be uploaded, going by the listing and the
// record; "" when it need not be.
func compare(f *file, r *remote) string {
	obj, listed := r.objects[f.key]
	rec, recHeaders, recorded := r.state.headersOf(f.key)
	switch {
	case !listed:
		return "new"
	case obj.Size != int64(len(f.data)):
		return "changed"
	case len(obj.MD5) > 0 && !bytes.Equal(obj.MD5, f.md5[:]):
		return "changed"
	case len(obj.MD5) == 0 && (!recorded || rec.MD5 != hex.EncodeToString(f.md5[:])):
		return "changed" // as far as anyone can tell
	case !recorded || recHeaders != [2]string{f.contentType, f.cacheControl}:
		return "headers changed"
	}
	return ""
}

// sortChanges puts changes in the order they are made: by step, and the
// deletions in the reverse step order of the files deleted.
func sortChanges(changes []Change) {
	slices.SortFunc(changes, func(a, b Change) int {
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
}
