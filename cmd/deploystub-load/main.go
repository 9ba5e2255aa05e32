// Command deploystub-load is the load check of the deployments stub (make
// stub-load): it starts the stub binary on 127.0.0.1 as a child process (or
// uses a running stub given with -url, which must be on loopback), sends a
// bounded burst of mixed requests from this process, prints requests per
// second and latency percentiles, and fails on any 5xx, transport error or
// status the request should not get.
//
//	deploystub-load -stub ./deploystub [-n 4000] [-c 8] [-timeout 30s]
//	DEPLOYSTUB_ROOT_KEY=... deploystub-load -url http://127.0.0.1:8787
package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"logoindex/internal/syncio"
)

func main() {
	err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	var ue usageError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
	case errors.As(err, &ue):
		fmt.Fprintln(os.Stderr, "deploystub-load:", err)
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "deploystub-load:", err)
		os.Exit(1)
	}
}

type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }

func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("deploystub-load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	stubPath := fs.String("stub", "", "deploystub `binary` to start on 127.0.0.1")
	target := fs.String("url", "", "`URL` of a running stub on loopback instead (key from DEPLOYSTUB_ROOT_KEY)")
	n := fs.Int("n", 4000, "number of requests at most")
	c := fs.Int("c", 8, "concurrent clients")
	timeout := fs.Duration("timeout", 30*time.Second, "time bound of the burst")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	switch {
	case fs.NArg() > 0:
		return usageError{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	case (*stubPath == "") == (*target == ""):
		return usageError{errors.New("give exactly one of -stub and -url")}
	case *n < 1 || *c < 1 || *timeout <= 0:
		return usageError{errors.New("-n, -c and -timeout must be positive")}
	}

	key := getenv("DEPLOYSTUB_ROOT_KEY")
	base := *target
	if *stubPath != "" {
		key = "load-" + randomHex(16)
		child, url, err := startStub(ctx, *stubPath, key)
		if err != nil {
			return err
		}
		defer func() {
			if err := child.stop(); err != nil {
				fmt.Fprintf(stderr, "deploystub-load: stopping the stub: %v\n", err)
			}
		}()
		base = url
	} else if key == "" {
		return usageError{errors.New("-url needs the stub's root key in DEPLOYSTUB_ROOT_KEY")}
	}
	if err := checkLoopback(base); err != nil {
		return usageError{err}
	}

	burstCtx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	res := burst(burstCtx, base, key, *n, *c)
	res.report(stdout, *c)
	if len(res.failures) > 0 {
		for _, f := range res.failures[:min(len(res.failures), 10)] {
			fmt.Fprintln(stderr, "  ", f)
		}
		return fmt.Errorf("%d failed requests (5xx, transport errors or unexpected statuses)", len(res.failures))
	}
	return nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// checkLoopback refuses any target that is not this machine's loopback.
func checkLoopback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "http" {
		return fmt.Errorf("target %q is not an http URL", raw)
	}
	host := u.Hostname()
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("target %q is not on loopback; the load check only runs against this machine", raw)
	}
	return nil
}

// child is the stub process this command started.
type child struct {
	cmd    *exec.Cmd
	stderr *syncio.Buffer
}

func (c *child) stop() error {
	c.cmd.Process.Signal(os.Interrupt) // graceful: the stub shuts its server down
	err := c.cmd.Wait()
	if err != nil {
		return fmt.Errorf("%v\n%s", err, c.stderr)
	}
	return nil
}

// startStub starts the stub on a free loopback port, the root key passed in
// its environment (not its arguments, which other users can read), and
// returns once it prints its address.
func startStub(ctx context.Context, path, key string) (*child, string, error) {
	cmd := exec.CommandContext(ctx, path, "-addr", "127.0.0.1:0", "-build-delay", "0s")
	cmd.Env = []string{"DEPLOYSTUB_ROOT_KEY=" + key}
	cmd.WaitDelay = 5 * time.Second
	stderr := &syncio.Buffer{}
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, "", err
	}
	if err := cmd.Start(); err != nil {
		return nil, "", err
	}
	c := &child{cmd: cmd, stderr: stderr}
	line, err := bufio.NewReader(out).ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "deploystub listening on ")
	if err != nil || !ok {
		c.stop()
		return nil, "", fmt.Errorf("the stub did not start: %q %v\n%s", line, err, stderr)
	}
	go io.Copy(io.Discard, out)
	return c, url, nil
}

// result is what the burst measured.
type result struct {
	elapsed   time.Duration
	latencies []time.Duration
	statuses  map[int]int
	ops       map[string]int
	failures  []string
	timedOut  bool
}

// pool holds deployments that are live and not yet deleted.
type pool struct {
	mu  sync.Mutex
	ids []string
}

func (p *pool) add(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ids = append(p.ids, id)
}

func (p *pool) pick(i int64, remove bool) (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.ids) == 0 {
		return "", false
	}
	k := int(i % int64(len(p.ids)))
	id := p.ids[k]
	if remove {
		p.ids = slices.Delete(p.ids, k, k+1)
	}
	return id, true
}

// burst sends up to n requests from c clients until done or ctx ends. The
// mix, by request number: 30% create (one in five fails its build), 30%
// list (plain, filtered, paged), 25% serve a live deployment, 10% delete,
// 5% issue a key or try a wrong key.
func burst(ctx context.Context, base, key string, n, c int) *result {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: c, MaxConnsPerHost: c}}
	defer client.CloseIdleConnections()
	var (
		next atomic.Int64
		mu   sync.Mutex
		res  = &result{statuses: map[int]int{}, ops: map[string]int{}}
		live pool
		wg   sync.WaitGroup
	)
	start := time.Now()
	for range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1)
				if i > int64(n) || ctx.Err() != nil {
					return
				}
				op, method, path, body, reqKey, want := plan(i, &live, key)
				t0 := time.Now()
				status, data, err := send(ctx, client, method, base+path, reqKey, body)
				lat := time.Since(t0)
				if ctx.Err() != nil {
					return // cut off by the time bound: not a failure of the stub
				}
				failure := ""
				switch {
				case err != nil:
					failure = fmt.Sprintf("%s %s: %v", method, path, err)
				case status >= 500:
					failure = fmt.Sprintf("%s %s: %d %s", method, path, status, data)
				case !slices.Contains(want, status):
					failure = fmt.Sprintf("%s %s: %d, want %v: %s", method, path, status, want, data)
				}
				if op == "create" && status == 200 && !strings.Contains(body, "main.py") {
					var d struct{ ID string }
					json.Unmarshal(data, &d)
					live.add(d.ID)
				}
				mu.Lock()
				res.latencies = append(res.latencies, lat)
				res.statuses[status]++
				res.ops[op]++
				if failure != "" {
					res.failures = append(res.failures, failure)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	res.timedOut = ctx.Err() != nil
	return res
}

// plan decides request number i: operation name, method, path, body, key
// and the statuses it may get.
func plan(i int64, live *pool, key string) (op, method, path, body, reqKey string, want []int) {
	slot := i % 20
	switch {
	case slot < 6:
		ep := fmt.Sprintf("src/fn%d.ts", i)
		if i%10 == 5 {
			ep = "main.py" // the build fails
		}
		return "create", "POST", "/v2/deployments", `{"entrypoint":"` + ep + `","env":{"N":"` + fmt.Sprint(i) + `"}}`, key, []int{200}
	case slot < 12:
		q := []string{"", "?status=live&limit=5", "?status=failed", "?limit=100"}[i%4]
		if id, ok := live.pick(i, false); ok && i%3 == 0 {
			q = "?limit=10&starting_after=" + id
		}
		return "list", "GET", "/v2/deployments" + q, "", key, []int{200}
	case slot < 17:
		if id, ok := live.pick(i, false); ok {
			// 404 when a delete got there first.
			return "serve", "GET", "/_deployments/" + id + "/", "", "", []int{200, 404}
		}
		return "list", "GET", "/v2/deployments", "", key, []int{200}
	case slot < 19:
		if id, ok := live.pick(i, true); ok {
			return "delete", "DELETE", "/v2/deployments/" + id, "", key, []int{200}
		}
		return "list", "GET", "/v2/deployments", "", key, []int{200}
	case i%40 == 19:
		return "key", "POST", "/v2/keys", `{"name":"load","scopes":["deployments:read"]}`, key, []int{200}
	default:
		return "bad-key", "GET", "/v2/deployments", "", "not-a-key-of-this-stub-000", []int{401}
	}
}

func send(ctx context.Context, client *http.Client, method, url, key, body string) (int, []byte, error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return 0, nil, err
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, data, err
}

// percentile returns the p-th percentile (nearest rank) of sorted latencies.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(float64(len(sorted))*p/100+0.999999) - 1
	return sorted[min(max(rank, 0), len(sorted)-1)]
}

func (r *result) report(w io.Writer, c int) {
	lat := slices.Clone(r.latencies)
	slices.Sort(lat)
	rate := float64(len(lat)) / r.elapsed.Seconds()
	fmt.Fprintf(w, "deploystub-load: %d requests, %d clients, %.2fs: %.0f requests/s\n", len(lat), c, r.elapsed.Seconds(), rate)
	if r.timedOut {
		fmt.Fprintln(w, "  stopped by the time bound before all requests were sent")
	}
	fmt.Fprintf(w, "  latency p50 %v  p90 %v  p99 %v  max %v\n",
		round(percentile(lat, 50)), round(percentile(lat, 90)), round(percentile(lat, 99)), round(percentile(lat, 100)))
	var codes []int
	for code := range r.statuses {
		codes = append(codes, code)
	}
	sort.Ints(codes)
	var parts []string
	for _, code := range codes {
		parts = append(parts, fmt.Sprintf("%d: %d", code, r.statuses[code]))
	}
	fmt.Fprintf(w, "  statuses  %s\n", strings.Join(parts, ", "))
	var ops []string
	for op, k := range r.ops {
		ops = append(ops, fmt.Sprintf("%s: %d", op, k))
	}
	sort.Strings(ops)
	fmt.Fprintf(w, "  requests  %s\n", strings.Join(ops, ", "))
	fmt.Fprintf(w, "  failures  %d\n", len(r.failures))
}

func round(d time.Duration) time.Duration {
	if d < time.Millisecond {
		return d.Round(time.Microsecond)
	}
	return d.Round(10 * time.Microsecond)
}
