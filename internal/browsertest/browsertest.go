// Package browsertest starts headless Chromium for the tests of several
// packages (generator/svg's inline test, the site's browser tests), so
// that each does not carry its own copy of the flags that make Chromium
// start in a container without reaching the network.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/chromedp/chromedp"

	"logoindex/internal/testskip"
)

// Find returns the path of Chromium: $LOGOINDEX_CHROMIUM, Debian's
// /usr/bin/chromium, or one on PATH; "" when there is none.
func Find() string {
	if p := os.Getenv("LOGOINDEX_CHROMIUM"); p != "" {
		return p
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// New starts headless Chromium with a fresh profile and returns a context
// for its first tab. It skips the test under -short, and where there is no
// Chromium, saying how to install it; .ci/run installs it, so CI runs the
// test.
func New(t *testing.T, ctx context.Context) context.Context {
	t.Helper()
	if testing.Short() {
		t.Skip("a browser test, which -short skips (make test runs it)")
	}
	chrome := Find()
	if chrome == "" {
		testskip.Missing(t, "chromium", "apt-get install chromium")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chrome),
		chromedp.Headless,
		chromedp.NoSandbox, // root in a container: the sandbox cannot start
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		// Without these Chromium calls Google's services at start, and a
		// closed network refuses them many at a time.
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 860),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancelBrowser()
		cancelAlloc()
	})
	if _, err := chromedp.Run(bctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("starting %s: %v", chrome, err)
	}
	return bctx
}
