package main

import (
	"testing"

	"logoindex/internal/cli"
	"logoindex/internal/publish"
)

// TestDefaultWorkers: logoindex lists publish's flags without linking
// internal/publish, so its default -workers is a copy of this one.
func TestDefaultWorkers(t *testing.T) {
	if cli.PublishWorkers != publish.DefaultWorkers {
		t.Errorf("cli.PublishWorkers = %d, internal/publish.DefaultWorkers = %d", cli.PublishWorkers, publish.DefaultWorkers)
	}
}
