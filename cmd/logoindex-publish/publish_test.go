package main

import (
	"slices"
	"testing"

	"gocloud.dev/blob"

	"logoindex/internal/cli"
	"logoindex/internal/publish"
)

// TestDefaults: logoindex lists publish's flags without linking
// internal/publish, so its defaults of -workers and -wait are copies of
// this one's.
func TestDefaults(t *testing.T) {
	if cli.PublishWorkers != publish.DefaultWorkers {
		t.Errorf("cli.PublishWorkers = %d, internal/publish.DefaultWorkers = %d", cli.PublishWorkers, publish.DefaultWorkers)
	}
	if cli.PublishWait != publish.DefaultWait {
		t.Errorf("cli.PublishWait = %s, internal/publish.DefaultWait = %s", cli.PublishWait, publish.DefaultWait)
	}
	// logoindex checks the -to of release before it builds.
	if got := blob.DefaultURLMux().BucketSchemes(); !slices.Equal(cli.BucketSchemes, got) {
		t.Errorf("cli.BucketSchemes = %v, the stores linked here: %v", cli.BucketSchemes, got)
	}
}
