package main

import (
	"context"
	"io"
	"slices"
	"strings"
	"syscall"
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

// TestInterruptSaysWhatWasSent: Ctrl-C after objects were sent says what
// the bucket serves now, not that nothing was written.
func TestInterruptSaysWhatWasSent(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(&cli.Interrupted{Sig: syscall.SIGINT})
	err := publishError(ctx, &publish.IncompleteError{Cause: context.Canceled, Step: publish.StepLeaves}, "dist", "s3", io.Discard)
	var stderr strings.Builder
	code := cli.ExitCode(err, &stderr)
	want := "logoindex: interrupted by SIGINT; The indexes were not updated and nothing was deleted: the bucket still serves the previous tree, plus new files nothing points to yet. Run publish again to finish.\n"
	if code != 130 || stderr.String() != want {
		t.Errorf("exit %d, stderr %q; want 130 and %q", code, stderr.String(), want)
	}
}
