// Package digest is how a build tells whether a file changed: a 64-bit
// XXH64 of the content beside its length. It is no cryptographic hash and
// guards no trust boundary: whoever writes a source decides its output
// anyway, and a digest never leaves the build's own state.
package digest

import (
	"encoding/binary"

	"github.com/cespare/xxhash/v2"
)

// Sum is the digest of some bytes: their XXH64 and their length.
type Sum [16]byte

// Of is the digest of b.
func Of(b []byte) Sum { return of(xxhash.Sum64(b), len(b)) }

// OfString is the digest of s.
func OfString(s string) Sum { return of(xxhash.Sum64String(s), len(s)) }

func of(sum uint64, n int) Sum {
	var h Sum
	binary.LittleEndian.PutUint64(h[:8], sum)
	binary.LittleEndian.PutUint64(h[8:], uint64(n))
	return h
}

// Hasher digests a stream as Of digests it whole.
type Hasher struct {
	d *xxhash.Digest
	n int
}

// New returns an empty Hasher.
func New() *Hasher { return &Hasher{d: xxhash.New()} }

func (h *Hasher) Write(b []byte) (int, error) {
	h.n += len(b)
	return h.d.Write(b)
}

// Sum is the digest of what was written.
func (h *Hasher) Sum() Sum { return of(h.d.Sum64(), h.n) }

// NameSum is a 64-bit hash of a file's name and digest. The sum of the
// NameSums of a set of files, with their count, tells two sets apart
// without comparing them name by name.
// It is FNV-1a of the name, mixed with the digest, through SplitMix64's
// finalizer: no allocation, for a sum over every file of a tree.
func NameSum(name string, s Sum) uint64 {
	x := uint64(14695981039346656037)
	for i := 0; i < len(name); i++ {
		x ^= uint64(name[i])
		x *= 1099511628211
	}
	x ^= binary.LittleEndian.Uint64(s[:8])
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
