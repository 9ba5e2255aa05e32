// Package manifest is the build manifest at the root of every output
// tree: what the tree was built for, which publish reads to refuse a tree
// built for another address or only in part. It imports nothing of the
// build, so that publish does not link the build's code.
package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
)

// File is the name of the build manifest in an output tree. Its name
// starts with a dot:
// hosts that deploy a folder (Netlify, Cloudflare Pages, GitHub Pages) and
// `logoindex serve` skip hidden files, publish does not upload it, and no
// logo slug or other output can take the name.
const File = ".logoindex-build.json"

// format is the version of the manifest's layout.
const format = 1

// Manifest is the content of File.
type Manifest struct {
	Format    int    `json:"format"`
	Generator string `json:"generator"` // always "logoindex"
	// BaseURL is the URL every link in the tree starts with; empty for
	// root-relative links.
	BaseURL string `json:"base_url"`
	// Logos are the patterns of a partial build (build 'git*'): the tree
	// holds only the logos they select, so publish refuses it. Absent
	// from a full build.
	Logos []string `json:"logos,omitempty"`
	// Static are the files the build copied from the source's _static/
	// folder, sorted: files of the host's (CNAME, .well-known/) that
	// publish uploads though no rule of the site's headers types them.
	Static []string `json:"static,omitempty"`
}

// Encode is the manifest m as the build writes it, of this format and
// generator.
func Encode(m Manifest) ([]byte, error) {
	m.Format, m.Generator = format, "logoindex"
	// Without HTML escaping, as the build writes all its JSON.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// maxManifestSize bounds the read: a manifest is a few dozen bytes.
const maxManifestSize = 64 << 10

// Read reads the build manifest of a tree. A tree without one was not
// written by logoindex build; the error then matches fs.ErrNotExist.
func Read(tree fs.FS) (Manifest, error) {
	f, err := tree.Open(File)
	if err != nil {
		return Manifest{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxManifestSize+1))
	if err != nil {
		return Manifest{}, err
	}
	return parse(data)
}

func parse(data []byte) (Manifest, error) {
	if len(data) > maxManifestSize {
		return Manifest{}, errors.New("larger than a build manifest can be")
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return Manifest{}, fmt.Errorf("not a build manifest: %w", err)
	}
	if m.Generator != "logoindex" || m.Format != format {
		return Manifest{}, fmt.Errorf("not a build manifest of this version of logoindex (generator %q, format %d)", m.Generator, m.Format)
	}
	return m, nil
}
