package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"logoindex/internal/preview"
)

// runServe serves the output folder like a CDN would (see internal/preview)
// and, with -watch, rebuilds it whenever a source changes.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("serve", stderr)
	dir := fs.String("dir", "dist", "`folder` to serve: the output of build")
	addr := fs.String("addr", "127.0.0.1:8080", "`address` to listen on; the default is reachable from this machine only")
	watch := fs.Bool("watch", false, "build -dir from -src now and again whenever a source changes")
	interval := fs.Duration("interval", preview.DefaultInterval, "how often -watch looks at the sources")
	logRequests := fs.Bool("log", false, "print one line per request")
	var bf buildFlags
	bf.register(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError("serve takes no arguments, got %q", pos)
	}
	if *dir == "" {
		return usageError("-dir must name a folder")
	}
	if *watch {
		if err := bf.validate(); err != nil {
			return err
		}
		// Checked now: a watch of a missing folder would wait for ever.
		if info, err := os.Stat(bf.src); err != nil || !info.IsDir() {
			return usageError("-src %s is not a folder", bf.src)
		}
	}
	// The handler, the watcher and the server all print: one lock each
	// keeps their lines whole.
	stdout, stderr = &lockedWriter{w: stdout}, &lockedWriter{w: stderr}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	h := &preview.Handler{Dir: *dir}
	if *logRequests {
		h.Log = stdout
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
	}
	fmt.Fprintf(stdout, "serving %s at http://%s/ (Ctrl-C to stop)\n", *dir, ln.Addr())
	if _, err := os.Stat(filepath.Join(*dir, "api", "logos.json")); err != nil && !*watch {
		fmt.Fprintf(stderr, "logoindex: %s holds no build yet; run logoindex build -out %s (or make build)\n", *dir, *dir)
	}

	var wg sync.WaitGroup
	if *watch {
		wg.Go(func() { watchAndBuild(ctx, bf, *dir, *interval, stdout, stderr) })
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err = <-served:
	case <-ctx.Done():
		// Requests in flight get a moment to finish, then the
		// connections are closed: a signal stops serve within a second.
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		if srv.Shutdown(shutdownCtx) != nil {
			srv.Close()
		}
		cancel()
	}
	wg.Wait()
	switch {
	case ctx.Err() != nil:
		// Stopped, like check and build, by a signal: main exits with
		// its status (130, 143).
		return context.Cause(ctx)
	case err != nil && !errors.Is(err, http.ErrServerClosed):
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// watchAndBuild builds dir from the sources now and after every change,
// through the same writeBuild as the build command. A failed build prints
// its problems and leaves the last good tree being served.
func watchAndBuild(ctx context.Context, bf buildFlags, dir string, interval time.Duration, stdout, stderr io.Writer) {
	rebuild := func() {
		err := writeBuild(ctx, bf, dir, stdout, stderr)
		switch {
		case err == nil, ctx.Err() != nil:
		default:
			var ee *exitError
			if !errors.As(err, &ee) || ee.msg != "" {
				fmt.Fprintf(stderr, "logoindex: %v\n", err)
			}
			fmt.Fprintf(stderr, "logoindex: build failed; still serving the last good %s. Watching %s for changes.\n", dir, bf.src)
		}
	}
	// Snapshot first, so an edit made during the first build is seen.
	w := preview.NewWatcher(bf.src, interval)
	rebuild()
	w.Run(ctx, rebuild)
}

// lockedWriter serialises writes from several goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
