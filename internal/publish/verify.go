package publish

import (
	"bytes"
	"context"
	"crypto/md5"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"
)

// VerifyReporter follows the checks of Options.Verify. A Reporter that
// also implements it is told of them, one call at a time.
type VerifyReporter interface {
	// VerifyStart is called once, before the first check, with the number
	// of objects to check.
	VerifyStart(objects int)
	// Verified is called when an object has been checked: diff says how
	// it differs from the tree ("" when it matches), err why it could not
	// be checked.
	Verified(key, diff string, err error)
}

// VerifyError is a verify that could not check some objects. Nothing was
// written.
type VerifyError struct{ Failed []*ObjectError }

func (e *VerifyError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "could not check %d %s, so nothing was written:", len(e.Failed), plural(len(e.Failed), "object", "objects"))
	for _, f := range e.Failed {
		b.WriteString("\n  " + f.Error())
	}
	b.WriteString("\nRun publish -verify again.")
	return b.String()
}

// verify asks the bucket for every file's object (a HEAD request each, up
// to Workers at once) and compares its size, MD5, Content-Type and
// Cache-Control with the file's. Where the store gives no MD5 (an object
// uploaded in parts, or written behind the store's API), it reads the
// object back. It returns how each object that differs does; the
// listing and the record, which another tool may have left out of date,
// play no part.
func verify(ctx context.Context, b *blob.Bucket, files map[string]*file, opts Options, r *reporter) (map[string]string, error) {
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range files {
			if !yield(k) {
				return
			}
		}
	})
	r.VerifyStart(len(keys))
	var (
		mu     sync.Mutex
		diffs  = map[string]string{}
		failed []*ObjectError
		wg     sync.WaitGroup
	)
	workers := opts.Workers
	if workers <= 0 {
		workers = DefaultWorkers
	}
	sem := make(chan struct{}, workers)
	for _, key := range keys {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Go(func() {
			defer func() { <-sem }()
			diff, err := check(ctx, b, files[key], opts, r)
			if ctx.Err() != nil {
				return
			}
			r.Verified(key, diff, err)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				failed = append(failed, &ObjectError{Change: Change{Key: key, Action: Check}, Err: err})
			} else if diff != "" {
				diffs[key] = diff
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(failed) > 0 {
		slices.SortFunc(failed, func(a, b *ObjectError) int { return strings.Compare(a.Change.Key, b.Change.Key) })
		return nil, &VerifyError{Failed: failed}
	}
	return diffs, nil
}

// check says how the object of f differs from it, "" when it does not.
// A missing object differs.
func check(ctx context.Context, b *blob.Bucket, f *file, opts Options, r *reporter) (string, error) {
	c := Change{Key: f.key, Action: Check}
	var attrs *blob.Attributes
	err := retry(ctx, opts, func(ctx context.Context) (err error) {
		attrs, err = b.Attributes(ctx, f.key)
		return err
	}, func(err error, attempt int) { r.Retry(c, err, attempt) })
	if gcerrors.Code(err) == gcerrors.NotFound {
		return "missing", nil
	}
	if err != nil {
		return "", err
	}
	var diffs []string
	switch {
	case attrs.Size != int64(len(f.data)):
		diffs = append(diffs, fmt.Sprintf("%d bytes, not %d", attrs.Size, len(f.data)))
	case len(attrs.MD5) > 0 && !bytes.Equal(attrs.MD5, f.md5[:]):
		diffs = append(diffs, "other bytes")
	case opts.ReadBack || len(attrs.MD5) == 0:
		same, err := readsBack(ctx, b, f, opts, func(err error, attempt int) { r.Retry(c, err, attempt) })
		if err != nil {
			return "", err
		}
		switch {
		case same:
		case len(attrs.MD5) == 0:
			diffs = append(diffs, "other bytes (read back: the store gives no MD5)")
		default:
			diffs = append(diffs, "other bytes (read back)")
		}
	}
	if attrs.ContentType != f.contentType {
		diffs = append(diffs, fmt.Sprintf("Content-Type %q, not %q", attrs.ContentType, f.contentType))
	}
	if attrs.CacheControl != f.cacheControl {
		diffs = append(diffs, fmt.Sprintf("Cache-Control %q, not %q", attrs.CacheControl, f.cacheControl))
	}
	return strings.Join(diffs, "; "), nil
}

// readsBack reads the object of f and reports whether it holds f's bytes.
func readsBack(ctx context.Context, b *blob.Bucket, f *file, opts Options, onRetry func(error, int)) (bool, error) {
	var sum [md5.Size]byte
	err := retry(ctx, opts, func(ctx context.Context) error {
		rd, err := b.NewReader(ctx, f.key, nil)
		if err != nil {
			return err
		}
		defer rd.Close()
		h := md5.New()
		if _, err := io.Copy(h, io.LimitReader(rd, maxFileSize+1)); err != nil {
			return err
		}
		copy(sum[:], h.Sum(nil))
		return nil
	}, onRetry)
	return sum == f.md5, err
}
