package publish

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"
)

// StateKey is the bucket's record of what publish put there: the base URL
// the tree was built for, and the MD5 and headers of every object. A
// listing gives sizes and (on most stores) MD5s but no headers, so the
// record is what lets a publish see that only the headers of a file have
// changed. It is written after the indexes and before any deletion. It is
// public in a public bucket; it says nothing the objects do not.
const StateKey = ".logoindex-publish.json"

// stateFormat is the version of the record's layout.
const stateFormat = 1

// maxStateSize bounds the read of the record: about 150 bytes a file.
const maxStateSize = 64 << 20

// state is the content of StateKey.
type state struct {
	Format    int    `json:"format"`
	Generator string `json:"generator"` // "logoindex publish"
	BaseURL   string `json:"base_url"`
	// Headers are the distinct Content-Type, Cache-Control pairs, which
	// objects name by index: a few pairs serve thousands of files.
	Headers [][2]string            `json:"headers"`
	Objects map[string]stateObject `json:"objects"`
}

type stateObject struct {
	MD5     string `json:"md5"` // hex
	Size    int64  `json:"size"`
	Headers int    `json:"headers"` // index into state.Headers
}

// newState records files as published for base.
func newState(base string, files map[string]*file) *state {
	s := &state{Format: stateFormat, Generator: "logoindex publish", BaseURL: base, Headers: [][2]string{}, Objects: map[string]stateObject{}}
	index := map[[2]string]int{}
	pairs := map[[2]string]bool{}
	for _, f := range files {
		pairs[[2]string{f.contentType, f.cacheControl}] = true
	}
	// Sorted, so the same tree always gives the same bytes.
	for _, h := range slices.SortedFunc(maps.Keys(pairs), func(a, b [2]string) int { return slices.Compare(a[:], b[:]) }) {
		index[h] = len(s.Headers)
		s.Headers = append(s.Headers, h)
	}
	for key, f := range files {
		s.Objects[key] = stateObject{MD5: hex.EncodeToString(f.md5[:]), Size: int64(len(f.data)), Headers: index[[2]string{f.contentType, f.cacheControl}]}
	}
	return s
}

func (s *state) marshal() ([]byte, error) {
	b, err := json.MarshalIndent(s, "", "\t")
	return append(b, '\n'), err
}

// headersOf returns the recorded headers of key.
func (s *state) headersOf(key string) (o stateObject, h [2]string, ok bool) {
	if s == nil {
		return stateObject{}, h, false
	}
	o, ok = s.Objects[key]
	if !ok {
		return o, h, false
	}
	return o, s.Headers[o.Headers], true
}

// parseState reads a record, checking what the rest of the package
// relies on: known format, valid MD5s and header indexes.
func parseState(data []byte) (*state, error) {
	if len(data) > maxStateSize {
		return nil, fmt.Errorf("larger than %d MiB", maxStateSize>>20)
	}
	var s state
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, err
	}
	if s.Format != stateFormat || s.Generator != "logoindex publish" {
		return nil, fmt.Errorf("not a record of this version of logoindex publish (generator %q, format %d)", s.Generator, s.Format)
	}
	for key, o := range s.Objects {
		if b, err := hex.DecodeString(o.MD5); err != nil || len(b) != 16 {
			return nil, fmt.Errorf("object %q: md5 %q is not 32 hex digits", key, o.MD5)
		}
		if o.Headers < 0 || o.Headers >= len(s.Headers) || o.Size < 0 {
			return nil, fmt.Errorf("object %q: headers %d or size %d out of range", key, o.Headers, o.Size)
		}
	}
	return &s, nil
}

// remote is what the bucket holds.
type remote struct {
	objects   map[string]*blob.ListObject // every object but the record, the lease and the releases
	state     *state                      // nil when there is none (or force ignored a broken one)
	stateData []byte                      // the record as read
}

// readRemote lists the bucket and reads its record. A record that does
// not parse is an error unless force is set (then it is replaced).
func readRemote(ctx context.Context, b *blob.Bucket, force bool) (*remote, error) {
	r := &remote{objects: map[string]*blob.ListObject{}}
	data, err := readState(ctx, b)
	switch {
	case gcerrors.Code(err) == gcerrors.NotFound:
	case err != nil:
		return nil, fmt.Errorf("reading the bucket's %s: %w", StateKey, err)
	default:
		r.stateData = data
		r.state, err = parseState(data)
		if err != nil && !force {
			return nil, &RefusedError{fmt.Sprintf("the bucket's %s is not a record publish can read (%v), so publish cannot tell what the bucket holds", StateKey, err)}
		}
	}
	it := b.List(nil)
	for {
		obj, err := it.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("listing the bucket: %w", err)
		}
		if obj.Key != StateKey && !obj.IsDir && !isLeaseKey(obj.Key) && !isReleased(obj.Key) {
			r.objects[obj.Key] = obj
		}
	}
	return r, nil
}

func readState(ctx context.Context, b *blob.Bucket) ([]byte, error) {
	rd, err := b.NewReader(ctx, StateKey, nil)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	data, err := io.ReadAll(io.LimitReader(rd, maxStateSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxStateSize {
		return nil, errors.New("the record is larger than a record can be")
	}
	return data, nil
}

// writeState writes the record of next unless the bucket holds it
// already, as it does after a publish that changed nothing.
func (run *runner) writeState(ctx context.Context, old []byte, next *state) *IncompleteError {
	data, err := next.marshal()
	if err == nil && bytes.Equal(data, old) {
		return nil
	}
	c := Change{Key: StateKey, Action: Upload, Reason: "record", Size: int64(len(data)), Step: StepRecord}
	if err == nil {
		err = run.retry(ctx, c, func(ctx context.Context) error {
			return run.b.WriteAll(ctx, StateKey, data, &blob.WriterOptions{
				ContentType: "application/json; charset=utf-8",
				// Never cached: it is read by the next publish only.
				CacheControl: "no-store",
			})
		})
	}
	if err != nil {
		if ctx.Err() != nil {
			return &IncompleteError{Cause: ctx.Err()}
		}
		return &IncompleteError{Failed: []*ObjectError{{Change: c, Err: err}}}
	}
	return nil
}
