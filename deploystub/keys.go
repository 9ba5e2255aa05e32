package deploystub

import (
	"crypto/rand"
	"crypto/sha256"
	"hash/crc32"
	"regexp"
	"slices"
	"strings"
)

// Scopes a key can carry. The root key has all of them.
const (
	ScopeDeploymentsRead  = "deployments:read"
	ScopeDeploymentsWrite = "deployments:write"
	ScopeKeysWrite        = "keys:write"
)

var allScopes = []string{ScopeDeploymentsRead, ScopeDeploymentsWrite, ScopeKeysWrite}

// SecretPrefix starts every secret the stub issues, so that secret scanners
// can find leaked ones (see SecretPattern).
const SecretPrefix = "dsk_"

const (
	secretRandomLen   = 30 // base62 characters: about 178 bits
	secretChecksumLen = 6  // base62 CRC-32 of the random part
	secretLen         = len(SecretPrefix) + secretRandomLen + secretChecksumLen
)

// SecretPattern matches the secrets the stub issues (not a root key given
// as an option, which can be any string). The format follows GitHub's tokens:
// a fixed prefix, 30 random base62 characters, and a 6-character base62
// CRC-32 of them that lets a scanner discard look-alikes offline.
var SecretPattern = regexp.MustCompile(`\bdsk_[0-9A-Za-z]{36}\b`)

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// newSecret returns a new random secret with its checksum.
func newSecret() string {
	random := randomString(base62, secretRandomLen)
	return SecretPrefix + random + checksum(random)
}

func checksum(random string) string {
	n := crc32.ChecksumIEEE([]byte(random))
	var b [secretChecksumLen]byte
	for i := secretChecksumLen - 1; i >= 0; i-- {
		b[i] = base62[n%62]
		n /= 62
	}
	return string(b[:])
}

// ValidSecretChecksum reports whether s has the stub's secret format and a
// correct checksum. It says nothing about whether the secret was issued.
func ValidSecretChecksum(s string) bool {
	if len(s) != secretLen || !strings.HasPrefix(s, SecretPrefix) || !SecretPattern.MatchString(s) {
		return false
	}
	random := s[len(SecretPrefix) : len(SecretPrefix)+secretRandomLen]
	return s[len(s)-secretChecksumLen:] == checksum(random)
}

// randomString draws n characters from alphabet with crypto/rand, without
// modulo bias.
func randomString(alphabet string, n int) string {
	out := make([]byte, 0, n)
	var buf [64]byte
	limit := 256 - 256%len(alphabet)
	for len(out) < n {
		rand.Read(buf[:]) // never returns an error (crypto/rand, Go 1.24+)
		for _, b := range buf {
			if int(b) < limit && len(out) < n {
				out = append(out, alphabet[int(b)%len(alphabet)])
			}
		}
	}
	return string(out)
}

func hashSecret(secret string) [32]byte {
	return sha256.Sum256([]byte(secret))
}

// apiKey is an issued key as the stub keeps it: never the secret itself.
type apiKey struct {
	id     string
	name   string
	scopes []string
	hash   [32]byte
}

func (k *apiKey) has(scope string) bool { return slices.Contains(k.scopes, scope) }

// Identifiers. Deployment ids start with the creation time in sortable base32
// so that list order and cursors need nothing but the id.
const (
	deploymentIDPrefix = "dep_"
	keyIDPrefix        = "key_"
	rootKeyID          = "key_root"
	base32hex          = "0123456789abcdefghijklmnopqrstuv" // sorts like the numbers it encodes
	idTimeLen          = 13                                 // 13*5 = 65 bits hold a uint64
	idRandomLen        = 8
)

var deploymentIDPattern = regexp.MustCompile(`^dep_[0-9a-v]{21}$`)

// newDeploymentID encodes t (nanoseconds, strictly increasing per server) and
// a random tail that keeps ids unguessable.
func newDeploymentID(t uint64) string {
	var b [idTimeLen]byte
	for i := idTimeLen - 1; i >= 0; i-- {
		b[i] = base32hex[t&31]
		t >>= 5
	}
	return deploymentIDPrefix + string(b[:]) + randomString(base32hex, idRandomLen)
}

// deploymentIDTime decodes the time part of a well-formed deployment id.
func deploymentIDTime(id string) uint64 {
	var t uint64
	for _, c := range []byte(id[len(deploymentIDPrefix) : len(deploymentIDPrefix)+idTimeLen]) {
		t = t<<5 | uint64(strings.IndexByte(base32hex, c))
	}
	return t
}

func newKeyID() string { return keyIDPrefix + randomString(base32hex, 16) }

func newRequestID() string { return "req_" + randomString(base32hex, 16) }
