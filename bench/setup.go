package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// defaultCache is where the benchmark keeps what it downloads and renders:
// outside the repository, so nothing fetched is ever committed.
func defaultCache() string {
	base := os.Getenv("XDG_CACHE_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			home = os.TempDir()
		}
		base = filepath.Join(home, ".cache")
	}
	return filepath.Join(base, "logoindex-bench")
}

// ensureRsvg installs librsvg2-bin when rsvg-convert is missing, as CI does.
func ensureRsvg(ctx context.Context) error {
	if _, err := exec.LookPath("rsvg-convert"); err == nil {
		return nil
	}
	if os.Geteuid() != 0 {
		return errors.New("rsvg-convert is missing: install Debian's librsvg2-bin (apt-get install librsvg2-bin)")
	}
	st := startStage("install librsvg2-bin (rsvg-convert)", -1)
	env := append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
	for _, args := range [][]string{{"update", "-qq"}, {"install", "-y", "-qq", "--no-install-recommends", "librsvg2-bin"}} {
		cmd := exec.CommandContext(ctx, "apt-get", args...)
		cmd.Env = env
		if err := runQuiet(cmd); err != nil {
			st.End("failed")
			return fmt.Errorf("apt-get %s: %w", args[0], err)
		}
	}
	st.End("installed")
	_, err := exec.LookPath("rsvg-convert")
	return err
}

// ensureNodeModules installs the pinned SVGO and corpora into cache with
// npm ci, unless the lock file installed there is already the repository's.
func ensureNodeModules(ctx context.Context, repo, cache string) error {
	lock, err := os.ReadFile(filepath.Join(repo, "bench", "package-lock.json"))
	if err != nil {
		return err
	}
	pkg, err := os.ReadFile(filepath.Join(repo, "bench", "package.json"))
	if err != nil {
		return err
	}
	stamp := filepath.Join(cache, "node_modules", ".installed-lock.json")
	if old, err := os.ReadFile(stamp); err == nil && bytes.Equal(old, lock) {
		return nil
	}
	if _, err := exec.LookPath("npm"); err != nil {
		return errors.New("npm is missing: install Node.js 20 with npm")
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(cache, "package.json"), pkg, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(cache, "package-lock.json"), lock, 0o644); err != nil {
		return err
	}
	st := startStage("npm ci: SVGO and the corpora into "+cache, -1)
	cmd := exec.CommandContext(ctx, "npm", "ci", "--prefix", cache, "--no-audit", "--no-fund", "--ignore-scripts")
	if err := runQuiet(cmd); err != nil {
		st.End("failed")
		return fmt.Errorf("npm ci: %w", err)
	}
	st.End("installed")
	return os.WriteFile(stamp, lock, 0o644)
}

// buildBinary compiles the real logoindex command into the cache, as the
// Makefile builds it: static (CGO_ENABLED=0).
func buildBinary(ctx context.Context, repo, cache string) (string, error) {
	bin := filepath.Join(cache, "bin", "logoindex")
	st := startStage("go build ./cmd/logoindex", -1)
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/logoindex")
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if err := runQuiet(cmd); err != nil {
		st.End("failed")
		return "", fmt.Errorf("go build: %w", err)
	}
	st.End("built %s", bin)
	return bin, nil
}

// runQuiet runs cmd with its output kept, and shows the output only when
// it fails (a bar is drawing meanwhile).
func runQuiet(cmd *exec.Cmd) error {
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%w\n%s", err, tail(out.String(), 4000))
	}
	return nil
}
