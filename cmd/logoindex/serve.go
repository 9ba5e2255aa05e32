package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"logoindex/generator"
	"logoindex/internal/cli"
	"logoindex/internal/preview"
	"logoindex/internal/syncio"
)

// serveArgs are the flags of serve.
type serveArgs struct {
	dir, addr   string
	watch       bool
	interval    time.Duration
	logRequests bool
	bf          buildFlags
}

func serveFlagSet(stderr io.Writer) (*flag.FlagSet, *serveArgs) {
	fs := cli.NewFlagSet("serve", "", stderr)
	var a serveArgs
	fs.StringVar(&a.dir, "dir", "dist", "`folder` to serve: the output of build")
	fs.StringVar(&a.addr, "addr", "127.0.0.1:8080", "`address` to listen on; the default is reachable from this machine only")
	fs.BoolVar(&a.watch, "watch", false, "build -dir from -src now and again whenever a source changes, and reload open pages")
	fs.DurationVar(&a.interval, "interval", preview.DefaultInterval, "how often -watch looks at the sources where the system gives no file events")
	fs.BoolVar(&a.logRequests, "log", false, "print one line per request")
	a.bf.register(fs, "dir")
	return fs, &a
}

// runServe serves the output folder like a CDN would (see internal/preview)
// and, with -watch, rebuilds it whenever a source changes.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, a := serveFlagSet(stderr)
	pos, err := cli.ParseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return cli.UsageError("serve takes no arguments, got %q", pos)
	}
	if a.dir == "" {
		return cli.UsageError("-dir must name a folder")
	}
	if a.watch {
		if err := a.bf.validate(); err != nil {
			return err
		}
		// Checked now: a watch of a missing folder would wait for ever.
		if info, err := os.Stat(a.bf.src); err != nil || !info.IsDir() {
			return cli.UsageError("-src %s is not a folder", a.bf.src)
		}
	}
	// The handler, the watcher and the server all print: one lock each
	// keeps their lines whole.
	stdout, stderr = syncio.NewWriter(stdout), syncio.NewWriter(stderr)

	ln, err := net.Listen("tcp", a.addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	h := &preview.Handler{Dir: a.dir}
	if a.logRequests {
		h.Log = stdout
	}
	if a.watch {
		h.Live = &preview.Live{}
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		// Requests end with the server: the open event streams of a live
		// preview would otherwise hold Shutdown for its whole timeout.
		BaseContext: func(net.Listener) context.Context { return ctx },
	}
	fmt.Fprintf(stdout, "serving %s at http://%s/ (Ctrl-C to stop)\n", a.dir, ln.Addr())
	if _, err := os.Stat(filepath.Join(a.dir, "api", "logos.json")); err != nil && !a.watch {
		fmt.Fprintf(stderr, "logoindex: %s holds no build yet; run logoindex build -out %s (or make build)\n", a.dir, a.dir)
	}

	var wg sync.WaitGroup
	built := false // by a build of this run; read after wg.Wait
	if a.watch {
		wg.Go(func() { built = watchAndBuild(ctx, a.bf, a.dir, a.interval, h.Live, stdout, stderr) })
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
		return serveStopped(ctx, a.dir, a.watch, built)
	case err != nil && !errors.Is(err, http.ErrServerClosed):
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// serveStopped is what serve returns once ctx has stopped it: the cause,
// and for a signal what serve leaves of dir. Check and build say that
// nothing was written; serve -watch has written every good build, and one
// cut short leaves dir as the build before it left it.
func serveStopped(ctx context.Context, dir string, watch, built bool) error {
	var in *cli.Interrupted
	if !errors.As(context.Cause(ctx), &in) {
		return context.Cause(ctx)
	}
	left := "stopped serving " + dir
	switch {
	case watch && built:
		left += ", which holds the last good build"
	case watch:
		left += "; no build succeeded, so it is as it was"
	}
	return &cli.Interrupted{Sig: in.Sig, Left: left}
}

// watchAndBuild builds dir from the sources now and after every change,
// through the same writeBuild as the build command, and reloads the open
// pages. A failed build prints its problems, shows them in the open pages
// and leaves the last good tree being served. Changes come from the
// system's file events; where there are none, the sources are polled
// every interval. After the first good build the standby tree is
// prepared, so that the first save does not wait for it. It returns when
// ctx is done, and reports whether a build succeeded.
func watchAndBuild(ctx context.Context, bf buildFlags, dir string, interval time.Duration, live *preview.Live, stdout, stderr io.Writer) (built bool) {
	prepared := false
	rebuild := func() {
		err := writeBuild(ctx, bf, dir, stdout, stderr)
		built = built || err == nil // written, even if ctx ended meanwhile
		switch {
		case ctx.Err() != nil:
		case err == nil:
			live.Reload()
			if !prepared && !bf.noCache {
				prepared = true
				if err := generator.PrepareStandby(dir); err != nil && ctx.Err() == nil {
					fmt.Fprintf(stderr, "logoindex: could not prepare the standby tree (the next build will): %v\n", err)
				}
			}
		default:
			var ee *cli.ExitError
			if !errors.As(err, &ee) || ee.Msg != "" {
				fmt.Fprintf(stderr, "logoindex: %v\n", err)
			}
			fmt.Fprintf(stderr, "logoindex: build failed; still serving the last good %s. Watching %s for changes.\n", dir, bf.src)
			live.Failed(pageProblems(err))
		}
	}
	// Watch first, so an edit made during the first build is seen.
	n, err := preview.NewNotifier(bf.src, 0)
	if err != nil {
		fmt.Fprintf(stderr, "logoindex: no file events for %s (%v); looking for changes every %s\n", bf.src, err, interval)
		w := preview.NewWatcher(bf.src, interval)
		rebuild()
		w.Run(ctx, rebuild)
		return built
	}
	rebuild()
	n.Run(ctx, func(map[string]bool) { rebuild() })
	return built
}

// pageProblems are the problems of a failed build as the open pages show
// them: those it printed, or the error that stopped it, which names no
// place in the sources.
func pageProblems(err error) []preview.Problem {
	var failed *failedRun
	if !errors.As(err, &failed) {
		return []preview.Problem{{Severity: "error", Message: err.Error()}}
	}
	out := make([]preview.Problem, len(failed.problems))
	for i, p := range failed.problems {
		out[i] = preview.Problem{Path: p.Path, Line: p.Line, Col: p.Col, Severity: p.Severity.String(), Code: string(p.Code), Message: p.Msg}
	}
	return out
}
