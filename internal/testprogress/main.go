// Command testprogress reads the events of `go test -json` on its input
// and prints what go test prints without -v: a line for each package and
// the output of each failing test. Unlike go test, it is never silent for
// long: after a while without a line it names the packages and tests
// still running, so that make test shows it is alive through a long suite
// or a cold compile. It exits 1 when a package failed.
//
//	go test -json ./... | go run ./internal/testprogress [-every 30s]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	if errors.Is(err, errFailed) {
		os.Exit(1)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "testprogress:", err)
		os.Exit(2)
	}
}

var errFailed = errors.New("a package failed")

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("testprogress", flag.ContinueOnError)
	fs.SetOutput(stderr)
	every := fs.Duration("every", 30*time.Second, "longest `time` without a line before the running tests are named")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 || *every <= 0 {
		fs.Usage()
		return errors.New("usage: testprogress [-every duration] < events")
	}
	p := newPrinter(stdout, time.Now)
	done := make(chan struct{})
	go p.heartbeat(ctx, *every, done)
	err := p.read(stdin)
	close(done)
	if err != nil {
		return err
	}
	if p.failed {
		return errFailed
	}
	return nil
}
