package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"logoindex/internal/cli"
)

// maxIndexSize bounds the published index check -published reads, with
// room to spare for the index of a very large collection.
const maxIndexSize = 256 << 20

// publishedSlugs reads the logos a published index names, live or
// removed, from where: the base URL of a published site (or the URL of
// its api/logos.json), or a folder holding a built tree.
func publishedSlugs(ctx context.Context, where string) ([]string, error) {
	body, err := openIndex(ctx, where)
	if err != nil {
		return nil, err
	}
	defer body.Close()
	var idx struct {
		Logos   []struct{ Slug string } `json:"logos"`
		Removed []struct{ Slug string } `json:"removed"`
	}
	if err := json.NewDecoder(io.LimitReader(body, maxIndexSize)).Decode(&idx); err != nil {
		return nil, &cli.ExitError{Code: 1, Msg: fmt.Sprintf("-published %s: not a logo index: %v", where, err)}
	}
	var slugs []string
	for _, l := range append(idx.Logos, idx.Removed...) {
		slugs = append(slugs, l.Slug)
	}
	return slugs, nil
}

// openIndex opens the api/logos.json of where.
func openIndex(ctx context.Context, where string) (io.ReadCloser, error) {
	if !strings.HasPrefix(where, "http://") && !strings.HasPrefix(where, "https://") {
		f, err := os.Open(filepath.Join(where, "api", "logos.json"))
		if err != nil {
			return nil, cli.UsageError("-published %s: %v; give the base URL of the published site or a folder holding a built tree", where, err)
		}
		return f, nil
	}
	url := where
	if !strings.HasSuffix(url, ".json") {
		url = strings.TrimRight(url, "/") + "/api/logos.json"
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		cancel()
		return nil, cli.UsageError("-published %s: %v", where, err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err == nil && resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		err = fmt.Errorf("%s answered %s", url, resp.Status)
	}
	if err != nil {
		cancel()
		return nil, &cli.ExitError{Code: 1, Msg: fmt.Sprintf("-published: reading the published index: %v", err)}
	}
	return readCloser{resp.Body, cancel}, nil
}

// readCloser closes a response's body and ends its request's context.
type readCloser struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (r readCloser) Close() error {
	defer r.cancel()
	return r.ReadCloser.Close()
}
