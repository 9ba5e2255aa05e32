package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"logoindex/generator/render"
	"logoindex/internal/cli"
)

// releaseArgs are the flags of release.
type releaseArgs struct {
	sourceFlags
	version, baseURL, to string
	dryRun               bool
	wait                 time.Duration
	workers              int
}

func releaseFlagSet(stderr io.Writer) (*flag.FlagSet, *releaseArgs) {
	fs := cli.NewFlagSet("release", "", stderr)
	var a releaseArgs
	a.sourceFlags.register(fs)
	fs.StringVar(&a.version, "version", "", "`version` of the release (required): a semantic version (1.0.0, 1.2.3-rc.1; a leading v, as in a git tag, is dropped) or a date (2026-05-01)")
	fs.StringVar(&a.baseURL, "base-url", "", "`URL` the bucket is served at (required); the release is built for URL/v/version")
	fs.StringVar(&a.to, "to", "", "bucket `URL` (required), as for publish; the release goes under v/version/ of it")
	fs.BoolVar(&a.dryRun, "dry-run", false, "build, list what would be uploaded, change nothing")
	fs.DurationVar(&a.wait, "wait", cli.PublishWait, "how long to wait while a publish holds the bucket's lease, then refuse (`duration`; 0 refuses at once)")
	fs.IntVar(&a.workers, "workers", cli.PublishWorkers, "`objects` uploaded at once")
	return fs, &a
}

// validate checks the flags before anything is built, and normalises the
// version and the base URL.
func (a *releaseArgs) validate() error {
	if err := a.sourceFlags.validate(); err != nil {
		return err
	}
	if a.version == "" {
		return cli.UsageError("release needs -version, such as -version 1.0.0 or -version 2026-05-01")
	}
	v, err := cli.CheckVersion("-version", a.version)
	if err != nil {
		return err
	}
	a.version = v
	if a.baseURL, err = cli.CheckBaseURL(a.baseURL); err != nil {
		return err
	}
	if !strings.Contains(a.baseURL, "://") {
		return cli.UsageError("release needs -base-url, the absolute URL the bucket is served at, such as https://logos.example.com: api/releases.json names each release's index in full")
	}
	if _, err := cli.CheckBucketURL("release", a.to); err != nil {
		return err
	}
	if a.workers < 1 {
		return cli.UsageError("-workers must be at least 1")
	}
	if a.wait < 0 {
		return cli.UsageError("-wait must not be negative; 0 refuses at once while a publish holds the bucket")
	}
	return nil
}

// runRelease builds the collection for BASE/v/VERSION into a temporary
// folder, then has logoindex-publish publish it as that pinned release.
func runRelease(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, a := releaseFlagSet(stderr)
	pos, err := cli.ParseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return cli.UsageError("release takes no arguments, got %q", pos)
	}
	typed := a.version
	if err := a.validate(); err != nil {
		return err
	}
	base := a.baseURL + "/v/" + a.version
	if typed != a.version {
		fmt.Fprintf(stdout, "releasing %s (the v of %s is dropped): %s/\n", a.version, typed, base)
	}
	dir, err := os.MkdirTemp("", "logoindex-release-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "dist")
	bf := buildFlags{sourceFlags: a.sourceFlags, baseURL: base, install: render.DefaultInstallTemplate, noCache: true}
	if err := writeBuild(ctx, bf, out, stdout, stderr); err != nil {
		return err
	}
	pub := []string{"-dir", out, "-to", a.to, "-base-url", a.baseURL, "-release", a.version,
		"-wait", a.wait.String(), "-workers", strconv.Itoa(a.workers)}
	if a.dryRun {
		pub = append(pub, "-dry-run")
	}
	return runPublish(ctx, pub, stdout, stderr)
}
