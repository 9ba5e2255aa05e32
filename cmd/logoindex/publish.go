package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"logoindex/internal/cli"
)

// publishProgram is the program that publishes: `logoindex publish` runs
// it with its own arguments. It links the clients of S3, Google Cloud
// Storage and Azure, whose start-up time and memory every command would
// pay if they were linked here.
const publishProgram = "logoindex-publish"

// publishFile is the file name of publishProgram on this system.
func publishFile() string {
	if runtime.GOOS == "windows" {
		return publishProgram + ".exe"
	}
	return publishProgram
}

// publishProgramEnv, when set, is the path of the program to run instead:
// the tests set it to the one they build.
const publishProgramEnv = "LOGOINDEX_PUBLISH_PROGRAM"

// findPublish returns the path of logoindex-publish: publishProgramEnv,
// else the one beside this program (where make and `go install ./cmd/...`
// put it), else the one on PATH.
func findPublish() (string, error) {
	if p := os.Getenv(publishProgramEnv); p != "" {
		return p, nil
	}
	self, err := os.Executable()
	if err == nil {
		p := filepath.Join(filepath.Dir(self), publishFile())
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p, nil
		}
	}
	if p, err := exec.LookPath(publishProgram); err == nil {
		return p, nil
	}
	where := "beside logoindex"
	if self != "" {
		where = "in " + filepath.Dir(self)
	}
	return "", &cli.ExitError{Code: 1, Msg: "publish is done by the program " + publishProgram + ", which is neither " + where + " nor on PATH.\n" +
		"Build it beside logoindex: go build -o <folder of logoindex> ./cmd/logoindex-publish (go install ./cmd/... installs both, make publish builds both),\n" +
		"or run it with the same flags: go run ./cmd/logoindex-publish -to URL ..."}
}

// execPublish replaces this process with logoindex-publish, which then
// exits with its own status and takes its own signals. It returns only
// when it cannot; run's publish command then says why.
func execPublish(args []string) {
	p, err := findPublish()
	if err != nil {
		return
	}
	execProgram(p, args) // returns on failure, or where there is no exec
}

// runPublish runs logoindex-publish as a child process, for run: in the
// tests, on systems without exec, and when there is none to run but one
// built from source (buildPublish). Its flags are checked here first, so
// that -h and a mistyped flag need no second program.
func runPublish(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, _ := cli.PublishFlagSet(stderr)
	if _, err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	p, err := findPublish()
	if err != nil {
		built, cleanup, berr := buildPublish(ctx, stderr)
		if errors.Is(berr, errNotInSource) {
			return err
		}
		if berr != nil {
			return berr
		}
		defer cleanup()
		p = built
	}
	cmd := exec.CommandContext(ctx, p, args...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	// Ctrl-C reaches the child from the terminal, as it reaches this
	// process: a second one would end it at once, unfinished. Only
	// SIGTERM, which is sent to a process alone, is passed on.
	cmd.Cancel = func() error {
		var in *cli.Interrupted
		if errors.As(context.Cause(ctx), &in) && in.Sig == syscall.SIGINT {
			return nil
		}
		return cmd.Process.Signal(syscall.SIGTERM)
	}
	err = cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code := ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = 128 + int(ws.Signal())
		}
		return &cli.ExitError{Code: code} // it said why
	}
	return err
}

// errNotInSource is why buildPublish cannot build: no go command, or the
// working directory is not in logoindex's source.
var errNotInSource = errors.New("not in logoindex's source with the go command")

// buildPublish builds logoindex-publish into a temporary folder from the
// source of logoindex, when the working directory is in it and the go
// command is on PATH: `go run ./cmd/logoindex publish` and a lone
// `go build ./cmd/logoindex` then publish too, after a link of a few
// seconds. cleanup removes the folder.
func buildPublish(ctx context.Context, stderr io.Writer) (path string, cleanup func(), err error) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		return "", nil, errNotInSource
	}
	out, err := exec.CommandContext(ctx, goTool, "list", "-m").Output()
	if err != nil || strings.TrimSpace(string(out)) != "logoindex" {
		return "", nil, errNotInSource
	}
	dir, err := os.MkdirTemp("", publishProgram+"-")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	path = filepath.Join(dir, publishFile())
	fmt.Fprintf(stderr, "logoindex: %s is not installed; building it from ./cmd/%s\n", publishProgram, publishProgram)
	if out, err := exec.CommandContext(ctx, goTool, "build", "-o", path, "logoindex/cmd/"+publishProgram).CombinedOutput(); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("go build: %w\n%s", err, out)
	}
	return path, cleanup, nil
}
