package publish

import (
	"bytes"
	"context"
	"crypto/md5"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/blob/driver"
	"gocloud.dev/gcerrors"
)

// fakeStore is an in-memory blob driver that tests can watch and break:
// it logs every operation with its start and end, can fail or hold any of
// them, and can list without MD5s as stores do for multipart uploads.
type fakeStore struct {
	mu      sync.Mutex
	objects map[string]fakeObject
	log     []string // "start PUT key", "end PUT key", ... in order
	noMD5   bool     // list without MD5s
	// noConditional ignores IfNotExist, as some S3-compatible stores do.
	noConditional bool
	// before, if set, runs before each operation (op is PUT, DELETE,
	// GET, HEAD or LIST) on an object that is not the lease's, and may
	// fail it; beforeLease likewise for the lease's (LIST of its prefix
	// included).
	before, beforeLease func(ctx context.Context, op, key string) error
}

type fakeObject struct {
	data                      []byte
	contentType, cacheControl string
	noMD5                     bool // the store gives no MD5 for it, as for an upload in parts
}

var (
	errFakeNotFound = errors.New("fake: no such object")
	errFakeDenied   = errors.New("fake: access denied")
	errFakeFlaky    = errors.New("fake: 503 slow down")
	errFakeExists   = errors.New("fake: 412 precondition failed: the object exists")
)

func newFake() (*fakeStore, *blob.Bucket) {
	f := &fakeStore{objects: map[string]fakeObject{}}
	return f, blob.NewBucket(f)
}

func (f *fakeStore) op(ctx context.Context, op, key string) (end func(), err error) {
	f.mu.Lock()
	f.log = append(f.log, "start "+op+" "+key)
	hook := f.before
	if isLeaseKey(key) {
		hook = f.beforeLease
	}
	f.mu.Unlock()
	if hook != nil {
		err = hook(ctx, op, key)
	}
	if err == nil {
		err = ctx.Err()
	}
	return func() {
		f.mu.Lock()
		f.log = append(f.log, "end "+op+" "+key)
		f.mu.Unlock()
	}, err
}

// ops returns the logged operations of kind ("start" or "end") and op,
// but those on the lease.
func (f *fakeStore) ops(kind, op string) []string {
	return slices.DeleteFunc(f.allOps(kind, op), isLeaseKey)
}

// allOps is ops with those on the lease.
func (f *fakeStore) allOps(kind, op string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, l := range f.log {
		if k, rest, _ := strings.Cut(l, " "); k == kind && strings.HasPrefix(rest, op+" ") {
			out = append(out, strings.TrimPrefix(rest, op+" "))
		}
	}
	return out
}

func (f *fakeStore) put(key string, data []byte, ctype, cache string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.objects[key] = fakeObject{data: data, contentType: ctype, cacheControl: cache}
}

// content is snapshot without the lease's objects.
func (f *fakeStore) content() map[string]fakeObject {
	out := f.snapshot()
	maps.DeleteFunc(out, func(k string, _ fakeObject) bool { return isLeaseKey(k) })
	return out
}

func (f *fakeStore) snapshot() map[string]fakeObject {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]fakeObject{}
	for k, v := range f.objects {
		out[k] = v
	}
	return out
}

func (f *fakeStore) ErrorCode(err error) gcerrors.ErrorCode {
	switch {
	case errors.Is(err, errFakeNotFound):
		return gcerrors.NotFound
	case errors.Is(err, errFakeDenied):
		return gcerrors.PermissionDenied
	case errors.Is(err, errFakeExists):
		return gcerrors.FailedPrecondition
	case errors.Is(err, context.Canceled):
		return gcerrors.Canceled
	}
	return gcerrors.Unknown
}

func (f *fakeStore) As(any) bool             { return false }
func (f *fakeStore) ErrorAs(error, any) bool { return false }
func (f *fakeStore) Close() error            { return nil }
func (f *fakeStore) Copy(context.Context, string, string, *driver.CopyOptions) error {
	return errors.New("fake: copy not supported")
}
func (f *fakeStore) SignedURL(context.Context, string, *driver.SignedURLOptions) (string, error) {
	return "", errors.New("fake: no signed URLs")
}

// get runs op (HEAD or GET) on key and returns the object there.
func (f *fakeStore) get(ctx context.Context, op, key string) (fakeObject, error) {
	end, err := f.op(ctx, op, key)
	defer end()
	if err != nil {
		return fakeObject{}, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	o, ok := f.objects[key]
	if !ok {
		return fakeObject{}, errFakeNotFound
	}
	return o, nil
}

func (f *fakeStore) Attributes(ctx context.Context, key string) (*driver.Attributes, error) {
	o, err := f.get(ctx, "HEAD", key)
	if err != nil {
		return nil, err
	}
	a := &driver.Attributes{ContentType: o.contentType, CacheControl: o.cacheControl, Size: int64(len(o.data))}
	if !o.noMD5 {
		sum := md5.Sum(o.data)
		a.MD5 = sum[:]
	}
	return a, nil
}

func (f *fakeStore) ListPaged(ctx context.Context, opts *driver.ListOptions) (*driver.ListPage, error) {
	end, err := f.op(ctx, "LIST", opts.Prefix)
	defer end()
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range f.objects {
			if strings.HasPrefix(k, opts.Prefix) && !yield(k) {
				return
			}
		}
	})
	// Pages of two, so paging is exercised.
	start := 0
	if len(opts.PageToken) > 0 {
		fmt.Sscan(string(opts.PageToken), &start)
	}
	page := &driver.ListPage{}
	for i := start; i < len(keys) && i < start+2; i++ {
		o := f.objects[keys[i]]
		lo := &driver.ListObject{Key: keys[i], Size: int64(len(o.data)), ModTime: time.Unix(0, 0)}
		if !f.noMD5 && !o.noMD5 {
			sum := md5.Sum(o.data)
			lo.MD5 = sum[:]
		}
		page.Objects = append(page.Objects, lo)
	}
	if start+2 < len(keys) {
		page.NextPageToken = []byte(fmt.Sprint(start + 2))
	}
	return page, nil
}

func (f *fakeStore) NewRangeReader(ctx context.Context, key string, offset, length int64, _ *driver.ReaderOptions) (driver.Reader, error) {
	o, err := f.get(ctx, "GET", key)
	if err != nil {
		return nil, err
	}
	data := o.data[offset:]
	if length >= 0 && length < int64(len(data)) {
		data = data[:length]
	}
	return &fakeReader{Reader: bytes.NewReader(data), attrs: driver.ReaderAttributes{ContentType: o.contentType, Size: int64(len(o.data))}}, nil
}

type fakeReader struct {
	*bytes.Reader
	attrs driver.ReaderAttributes
}

func (r *fakeReader) Close() error                         { return nil }
func (r *fakeReader) Attributes() *driver.ReaderAttributes { return &r.attrs }
func (r *fakeReader) As(any) bool                          { return false }

func (f *fakeStore) NewTypedWriter(ctx context.Context, key, contentType string, opts *driver.WriterOptions) (driver.Writer, error) {
	return &fakeWriter{f: f, ctx: ctx, key: key, contentType: contentType, cacheControl: opts.CacheControl, ifNotExist: opts.IfNotExist}, nil
}

// fakeWriter stores the object on Close, like a PUT that sends it whole.
type fakeWriter struct {
	f                         *fakeStore
	ctx                       context.Context
	key                       string
	contentType, cacheControl string
	ifNotExist                bool
	buf                       bytes.Buffer
}

func (w *fakeWriter) Write(p []byte) (int, error) { return w.buf.Write(p) }

func (w *fakeWriter) Close() error {
	end, err := w.f.op(w.ctx, "PUT", w.key)
	defer end()
	if err != nil {
		return err
	}
	w.f.mu.Lock()
	defer w.f.mu.Unlock()
	if _, ok := w.f.objects[w.key]; ok && w.ifNotExist && !w.f.noConditional {
		return errFakeExists
	}
	w.f.objects[w.key] = fakeObject{data: bytes.Clone(w.buf.Bytes()), contentType: w.contentType, cacheControl: w.cacheControl}
	return nil
}

func (f *fakeStore) Delete(ctx context.Context, key string, _ *driver.DeleteOptions) error {
	end, err := f.op(ctx, "DELETE", key)
	defer end()
	if err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.objects[key]; !ok {
		return errFakeNotFound
	}
	delete(f.objects, key)
	return nil
}

var _ io.Closer = (*fakeReader)(nil)
