package main

import (
	"bytes"
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
func ensureRsvg() error {
	if _, err := exec.LookPath("rsvg-convert"); err == nil {
		return nil
	}
	if os.Geteuid() != 0 {
		return errors.New("rsvg-convert is missing: install Debian's librsvg2-bin (apt-get install librsvg2-bin)")
	}
	logf("installing librsvg2-bin for rsvg-convert")
	env := append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
	for _, args := range [][]string{{"update", "-qq"}, {"install", "-y", "-qq", "--no-install-recommends", "librsvg2-bin"}} {
		cmd := exec.Command("apt-get", args...)
		cmd.Env, cmd.Stdout, cmd.Stderr = env, os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("apt-get %s: %w", args[0], err)
		}
	}
	_, err := exec.LookPath("rsvg-convert")
	return err
}

// ensureNodeModules installs the pinned SVGO and corpora into cache with
// npm ci, unless the lock file installed there is already the repository's.
func ensureNodeModules(repo, cache string) error {
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
	logf("installing SVGO and the corpora with npm ci into %s", cache)
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(cache, "package.json"), pkg, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(cache, "package-lock.json"), lock, 0o644); err != nil {
		return err
	}
	cmd := exec.Command("npm", "ci", "--prefix", cache, "--no-audit", "--no-fund", "--ignore-scripts")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("npm ci: %w", err)
	}
	return os.WriteFile(stamp, lock, 0o644)
}

// buildBinary compiles the real logoindex command into the cache.
func buildBinary(repo, cache string) (string, error) {
	bin := filepath.Join(cache, "bin", "logoindex")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/logoindex")
	cmd.Dir, cmd.Stdout, cmd.Stderr = repo, os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build: %w", err)
	}
	return bin, nil
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
}
