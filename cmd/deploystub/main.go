// Command deploystub runs the deployments API stub (package deploystub) on
// a local address, for trying a client of the API by hand or from another
// process:
//
//	go run ./cmd/deploystub [-addr 127.0.0.1:8787] [-root-key KEY] [-state-file FILE]
//	    [-build-delay 2s] [-public-url URL] [-rate-limit N] [-verbose]
//
// Every flag can also come from the environment variable DEPLOYSTUB_ and
// its name in upper case with _ for -: DEPLOYSTUB_ROOT_KEY,
// DEPLOYSTUB_STATE_FILE, and so on. A flag wins over its variable. Without a
// root key the stub makes one and prints it, once, to standard error.
//
// It listens on loopback by default and prints "deploystub listening on
// <url>" to standard output once it accepts connections. SIGINT or SIGTERM
// stop it gracefully. A mistake in a flag or variable, a read-only state
// file among them, exits with status 2 before listening; a state file that
// another stub holds or that does not parse, with status 1.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"logoindex/deploystub"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

// usageError is a mistake in the command line or environment: exit status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }

// exitCode prints err, once and with one "deploystub: " (package
// deploystub's own errors carry it already), and returns the exit status.
func exitCode(err error, stderr io.Writer) int {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	code := 1
	if errors.As(err, new(usageError)) {
		code = 2
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "deploystub: ") {
		msg = "deploystub: " + msg
	}
	fmt.Fprintln(stderr, msg)
	return code
}

type config struct {
	addr       string
	rootKey    string
	stateFile  string
	buildDelay time.Duration
	publicURL  string
	rateLimit  float64
	verbose    bool
}

// parseArgs reads flags, each defaulting to its DEPLOYSTUB_* variable.
func parseArgs(args []string, stderr io.Writer, getenv func(string) string) (config, error) {
	var c config
	fs := flag.NewFlagSet("deploystub", flag.ContinueOnError)
	// Quiet: a parse error is printed once, by exitCode, and -h prints the
	// usage below.
	fs.SetOutput(io.Discard)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8787", "`address` to listen on (loopback unless you mean otherwise)")
	fs.StringVar(&c.rootKey, "root-key", "", "root `key` with every scope, used exactly as given: at least 20 printable ASCII characters (default: a new random key, printed once)")
	fs.StringVar(&c.stateFile, "state-file", "", "`file` keeping deployments, key hashes and Idempotency-Keys across restarts, locked while the stub runs (default: memory only)")
	fs.DurationVar(&c.buildDelay, "build-delay", 2*time.Second, "how long a new deployment stays building")
	fs.StringVar(&c.publicURL, "public-url", "", "base `URL` of deployment URLs (default: the address a request arrived on)")
	fs.Float64Var(&c.rateLimit, "rate-limit", 0, "requests per second per key, 0 for no limit")
	fs.BoolVar(&c.verbose, "verbose", false, "log every request")
	var envErr error
	fs.VisitAll(func(f *flag.Flag) {
		name := envName(f.Name)
		if v := getenv(name); v != "" && envErr == nil {
			if err := f.Value.Set(v); err != nil {
				envErr = fmt.Errorf("%s=%q: %v", name, v, err)
			}
		}
	})
	if envErr != nil {
		return c, usageError{envErr}
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(stderr, "usage: deploystub [flags]\n\nEvery flag can also be set as DEPLOYSTUB_<NAME>, e.g. DEPLOYSTUB_ROOT_KEY.\n\n")
			fs.SetOutput(stderr)
			fs.PrintDefaults()
			return c, err
		}
		return c, usageError{fmt.Errorf("%w (deploystub -h lists the flags)", err)}
	}
	if fs.NArg() > 0 {
		return c, usageError{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	return c, nil
}

func envName(flagName string) string {
	return "DEPLOYSTUB_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	c, err := parseArgs(args, stderr, getenv)
	if err != nil {
		return err
	}
	level := slog.LevelInfo
	if c.verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	srv, err := deploystub.NewServer(deploystub.Options{
		RootKey:    c.rootKey,
		BuildDelay: c.buildDelay,
		BaseURL:    c.publicURL,
		StateFile:  c.stateFile,
		RateLimit:  c.rateLimit,
		Logger:     logger,
	})
	if errors.Is(err, deploystub.ErrInvalidOption) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	defer srv.Close() // the state file's lock; dying releases it too
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	addr := ln.Addr().(*net.TCPAddr)
	if !addr.IP.IsLoopback() {
		fmt.Fprintf(stderr, "deploystub: warning: listening on %s, reachable from other machines; the stub is for local tests\n", addr)
	}
	if c.rootKey == "" {
		fmt.Fprintf(stderr, "deploystub: root key (shown once, kept only in memory): %s\n", srv.RootKey())
	}

	hs := &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	fmt.Fprintf(stdout, "deploystub listening on %s\n", listenURL(addr))

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdownCtx); err != nil {
		return err
	}
	return nil
}

// listenURL is where a client on this machine reaches the listener: an
// unspecified address (0.0.0.0, ::) becomes loopback.
func listenURL(addr *net.TCPAddr) string {
	ip := addr.IP
	if ip.IsUnspecified() {
		ip = net.IPv4(127, 0, 0, 1)
	}
	return "http://" + net.JoinHostPort(ip.String(), fmt.Sprint(addr.Port))
}
