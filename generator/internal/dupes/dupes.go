// Package dupes finds whether a list that may not fit in memory twice
// holds two equal items, by 64-bit hashes kept in passes of bounded size:
// most lists hold none, and then need no set of every item.
package dupes

// passHashes is the most hashes a pass keeps: 1 MB.
const passHashes = 1 << 17

// Passes runs pass once for each share of about n hashes, until one
// reports true or an error: mine tells the hashes of its share, and size
// is about how many they are. Two equal hashes are in one share, so a
// pass that finds none equal among its own has found none.
func Passes(n int, pass func(mine func(h uint64) bool, size int) (bool, error)) (bool, error) {
	p := uint64(max(1, (n+passHashes-1)/passHashes))
	for i := range p {
		found, err := pass(func(h uint64) bool { return h%p == i }, n/int(p)+1)
		if found || err != nil {
			return found, err
		}
	}
	return false, nil
}
