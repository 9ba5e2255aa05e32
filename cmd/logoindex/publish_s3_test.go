package main

// Integration tests of publish against a real S3 server: versitygw v1.8.0
// (an S3 gateway over a local folder) on a loopback port, behind a
// recording reverse proxy that can also fail requests. The objects are
// read back with a plain SigV4-signed HTTP client, not with the library
// under test.

import (
	"bytes"
	"crypto/hmac"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"logoindex/internal/headers"
	"logoindex/internal/publish"
	"logoindex/internal/syncio"
	"logoindex/internal/testtree"
)

// versitygwBinary finds the server where `make tools` installs it, or on
// PATH; the test skips without it.
func versitygwBinary(t *testing.T) string {
	t.Helper()
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		if home, err := os.UserHomeDir(); err == nil {
			cache = filepath.Join(home, ".cache")
		}
	}
	p := filepath.Join(cache, "logoindex-tools", "bin", "versitygw")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p
	}
	t.Skipf("versitygw not found in %s or on PATH: run `make tools` (go install github.com/versity/versitygw/cmd/versitygw@v1.8.0) to run the S3 integration tests", filepath.Dir(p))
	return ""
}

// s3Server is versitygw with the posix backend in a temporary folder, and
// a proxy in front of it that logs every request and can fail some.
type s3Server struct {
	backend        string // versitygw's URL, for reading back
	proxy          string // the URL publish talks to
	access, secret string

	mu     sync.Mutex
	log    []string // "start METHOD /bucket/key", "end ...", in order
	served int
	// fail, if set, decides for each request through the proxy whether
	// to fail it, and how: "503", "500", "reset" (close the connection
	// unanswered) or "lost" (forward it, then drop the answer).
	fail func(n int, r *http.Request) string
}

func startS3(t *testing.T) *s3Server {
	t.Helper()
	if testing.Short() {
		t.Skip("runs an S3 server, which -short skips (make test runs it)")
	}
	bin := versitygwBinary(t)
	s := &s3Server{access: randomHex(t, 10), secret: randomHex(t, 20)}
	root := filepath.Join(t.TempDir(), "root")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	// A free port: another process may take it before versitygw does,
	// so try a few.
	var lastOut string
	for try := 0; try < 5 && s.backend == ""; try++ {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		out := &syncio.Buffer{}
		cmd := exec.Command(bin, "--port", addr, "--quiet", "--health", "/health", "posix", root)
		// The root keys go in the environment, not on the command line.
		cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY_ID="+s.access, "ROOT_SECRET_ACCESS_KEY="+s.secret)
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		t.Cleanup(func() {
			cmd.Process.Kill()
			<-exited
		})
		deadline := time.Now().Add(60 * time.Second)
		for time.Now().Before(deadline) {
			select {
			case <-exited:
				deadline = time.Time{}
				continue
			default:
			}
			if res, err := http.Get("http://" + addr + "/health"); err == nil {
				res.Body.Close()
				if res.StatusCode == 200 {
					s.backend = "http://" + addr
					break
				}
			}
			time.Sleep(50 * time.Millisecond)
		}
		lastOut = out.String()
	}
	if s.backend == "" {
		t.Fatalf("versitygw did not start:\n%s", lastOut)
	}
	target, _ := url.Parse(s.backend)
	rp := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(target)
		r.Out.Host = r.In.Host // the signature covers the Host header
	}}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.served++
		n := s.served
		fail := s.fail
		line := r.Method + " " + r.URL.Path
		s.log = append(s.log, "start "+line)
		s.mu.Unlock()
		defer func() {
			s.mu.Lock()
			s.log = append(s.log, "end "+line)
			s.mu.Unlock()
		}()
		how := ""
		if fail != nil {
			how = fail(n, r)
		}
		switch how {
		case "503":
			w.Header().Set("Content-Type", "application/xml")
			w.WriteHeader(503)
			io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>`)
		case "500":
			w.Header().Set("Content-Type", "application/xml")
			w.WriteHeader(500)
			io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>We encountered an internal error.</Message></Error>`)
		case "reset":
			if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
				conn.Close()
			}
		case "lost":
			rp.ServeHTTP(httptest.NewRecorder(), r)
			if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
				conn.Close()
			}
		default:
			rp.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(ts.Close)
	s.proxy = ts.URL
	return s
}

func randomHex(t *testing.T, n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// reset forgets the log and the fault.
func (s *s3Server) reset(fail func(int, *http.Request) string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log, s.served, s.fail = nil, 0, fail
}

// requests returns the logged lines of kind ("start" or "end") for method
// on bucket, as keys, but those on the lease.
func (s *s3Server) requests(kind, method, bucket string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	prefix := kind + " " + method + " /" + bucket + "/"
	for _, l := range s.log {
		if key, ok := strings.CutPrefix(l, prefix); ok && !strings.HasPrefix(key, publish.LeasePrefix) {
			out = append(out, key)
		}
	}
	return out
}

// bucketURL is the -to of a bucket on the proxy. Credentials come from the
// environment, set by env.
func (s *s3Server) bucketURL(bucket string) string {
	return "s3://" + bucket + "?endpoint=" + url.QueryEscape(s.proxy) + "&use_path_style=true"
}

// env gives publish the server's keys the way a user would: AWS's
// environment variables, with no config file of the machine in the way.
func (s *s3Server) env(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, nil, 0o600)
	for k, v := range map[string]string{
		"AWS_ACCESS_KEY_ID": s.access, "AWS_SECRET_ACCESS_KEY": s.secret, "AWS_REGION": "us-east-1",
		"AWS_CONFIG_FILE": empty, "AWS_SHARED_CREDENTIALS_FILE": empty, "AWS_PROFILE": "",
		"AWS_SESSION_TOKEN": "", "AWS_EC2_METADATA_DISABLED": "true", "AWS_ENDPOINT_URL": "",
	} {
		t.Setenv(k, v)
	}
}

// do sends a request signed with AWS Signature Version 4 straight to
// versitygw. It is small enough to write here, and keeps the read-back
// independent of gocloud and of the AWS SDK that publish uses.
func (s *s3Server) do(t *testing.T, method, path string, query url.Values) (*http.Response, []byte) {
	t.Helper()
	return s.send(t, method, path, query, nil, nil)
}

// send is do with headers, which are signed too, and a body.
func (s *s3Server) send(t *testing.T, method, path string, query url.Values, header map[string]string, body []byte) (*http.Response, []byte) {
	t.Helper()
	const region, service = "us-east-1", "s3"
	now := time.Now().UTC()
	amzDate, day := now.Format("20060102T150405Z"), now.Format("20060102")
	payload := sha256Hex(body)
	u, _ := url.Parse(s.backend)
	var segs []string
	for _, seg := range strings.Split(path, "/") {
		segs = append(segs, awsEscape(seg))
	}
	canonicalURI := strings.Join(segs, "/")
	var qs []string
	for k, vs := range query {
		for _, v := range vs {
			qs = append(qs, awsEscape(k)+"="+awsEscape(v))
		}
	}
	sort.Strings(qs)
	canonicalQuery := strings.Join(qs, "&")
	signed := map[string]string{"host": u.Host, "x-amz-content-sha256": payload, "x-amz-date": amzDate}
	for k, v := range header {
		signed[strings.ToLower(k)] = v
	}
	names := slices.Sorted(maps.Keys(signed))
	var canonicalHeaders strings.Builder
	for _, k := range names {
		canonicalHeaders.WriteString(k + ":" + strings.TrimSpace(signed[k]) + "\n")
	}
	signedHeaders := strings.Join(names, ";")
	canonical := strings.Join([]string{method, canonicalURI, canonicalQuery, canonicalHeaders.String(), signedHeaders, payload}, "\n")
	scope := day + "/" + region + "/" + service + "/aws4_request"
	toSign := "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n" + sha256Hex([]byte(canonical))
	key := []byte("AWS4" + s.secret)
	for _, part := range []string{day, region, service, "aws4_request"} {
		key = hmacSHA256(key, part)
	}
	req, err := http.NewRequest(method, s.backend+canonicalURI+"?"+canonicalQuery, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range signed {
		if k != "host" {
			req.Header.Set(k, v)
		}
	}
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential="+s.access+"/"+scope+
		", SignedHeaders="+signedHeaders+", Signature="+hex.EncodeToString(hmacSHA256(key, toSign)))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, data
}

// putBehind uploads data as key with the headers given, straight to
// versitygw, as another tool would.
func (s *s3Server) putBehind(t *testing.T, bucket, key string, data []byte, ctype, cache string) {
	t.Helper()
	res, body := s.send(t, "PUT", "/"+bucket+"/"+key, nil, map[string]string{"Content-Type": ctype, "Cache-Control": cache}, data)
	if res.StatusCode != 200 {
		t.Fatalf("PUT %s: %s\n%s", key, res.Status, body)
	}
}

// putInParts uploads data as key in a multipart upload of one part, as
// large files are: the object's ETag is then no MD5, and the store lists
// no checksum for it.
func (s *s3Server) putInParts(t *testing.T, bucket, key string, data []byte, ctype, cache string) {
	t.Helper()
	path := "/" + bucket + "/" + key
	res, body := s.send(t, "POST", path, url.Values{"uploads": {""}}, map[string]string{"Content-Type": ctype, "Cache-Control": cache}, nil)
	var started struct{ UploadId string }
	if res.StatusCode != 200 || xml.Unmarshal(body, &started) != nil || started.UploadId == "" {
		t.Fatalf("CreateMultipartUpload %s: %s\n%s", key, res.Status, body)
	}
	res, body = s.send(t, "PUT", path, url.Values{"partNumber": {"1"}, "uploadId": {started.UploadId}}, nil, data)
	if res.StatusCode != 200 {
		t.Fatalf("UploadPart %s: %s\n%s", key, res.Status, body)
	}
	done := fmt.Sprintf(`<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>%s</ETag></Part></CompleteMultipartUpload>`, res.Header.Get("ETag"))
	res, body = s.send(t, "POST", path, url.Values{"uploadId": {started.UploadId}}, map[string]string{"Content-Type": "application/xml"}, []byte(done))
	if res.StatusCode != 200 {
		t.Fatalf("CompleteMultipartUpload %s: %s\n%s", key, res.Status, body)
	}
	if etag := s.list(t, bucket)[key]; !strings.Contains(etag, "-") {
		t.Fatalf("%s: ETag %s after a multipart upload, want one that is no MD5", key, etag)
	}
}

func sha256Hex(b []byte) string { sum := sha256.Sum256(b); return hex.EncodeToString(sum[:]) }

func hmacSHA256(key []byte, data string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(data))
	return m.Sum(nil)
}

// awsEscape is the URI encoding SigV4 wants: everything but unreserved
// characters, spaces as %20.
func awsEscape(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || strings.IndexByte("-_.~", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func (s *s3Server) createBucket(t *testing.T, bucket string) {
	t.Helper()
	if res, body := s.do(t, "PUT", "/"+bucket, nil); res.StatusCode != 200 {
		t.Fatalf("creating bucket %s: %s\n%s", bucket, res.Status, body)
	}
}

// content returns every key of the bucket with its ETag, but the
// lease's.
func (s *s3Server) content(t *testing.T, bucket string) map[string]string {
	t.Helper()
	out := s.list(t, bucket)
	maps.DeleteFunc(out, func(k, _ string) bool { return strings.HasPrefix(k, publish.LeasePrefix) })
	return out
}

// list returns every key of the bucket with its ETag, page by page.
func (s *s3Server) list(t *testing.T, bucket string) map[string]string {
	t.Helper()
	out := map[string]string{}
	token := ""
	for {
		q := url.Values{"list-type": {"2"}, "max-keys": {"100"}}
		if token != "" {
			q.Set("continuation-token", token)
		}
		res, body := s.do(t, "GET", "/"+bucket, q)
		if res.StatusCode != 200 {
			t.Fatalf("listing %s: %s\n%s", bucket, res.Status, body)
		}
		var page struct {
			Contents []struct {
				Key  string
				ETag string
			}
			IsTruncated           bool
			NextContinuationToken string
		}
		if err := xml.Unmarshal(body, &page); err != nil {
			t.Fatal(err)
		}
		for _, c := range page.Contents {
			out[c.Key] = c.ETag
		}
		if !page.IsTruncated {
			return out
		}
		token = page.NextContinuationToken
	}
}

// checkHolds reads the bucket back: exactly the files of the tree and the
// record, each with its bytes, its MD5 as ETag, and the Content-Type and
// Cache-Control of the site's rules.
func (s *s3Server) checkHolds(t *testing.T, bucket string, files map[string]string) {
	t.Helper()
	listed := s.content(t, bucket)
	var want []string
	for k := range files {
		want = append(want, k)
	}
	want = append(want, publish.StateKey)
	slices.Sort(want)
	got := slices.Sorted(keys(listed))
	if !slices.Equal(want, got) {
		t.Errorf("bucket %s holds %d objects, want %d:\nmissing %v\nextra %v", bucket, len(got), len(want), minus(want, got), minus(got, want))
	}
	for key, data := range files {
		res, body := s.do(t, "GET", "/"+bucket+"/"+key, nil)
		ctype, cache := headers.Site.Object(key)
		sum := md5.Sum([]byte(data))
		if res.StatusCode != 200 || string(body) != data {
			t.Errorf("GET %s: %s, %d bytes, want the file's %d", key, res.Status, len(body), len(data))
			continue
		}
		if got := res.Header.Get("Content-Type"); got != ctype {
			t.Errorf("GET %s: Content-Type %q, want %q", key, got, ctype)
		}
		if got := res.Header.Get("Cache-Control"); got != cache {
			t.Errorf("GET %s: Cache-Control %q, want %q", key, got, cache)
		}
		if got, want := res.Header.Get("ETag"), `"`+hex.EncodeToString(sum[:])+`"`; got != want {
			t.Errorf("GET %s: ETag %s, want the MD5 %s", key, got, want)
		}
	}
}

// twoPublishesAtOnce publishes the trees in the folders second and third
// into one bucket at once: one waits for the other, and the bucket ends
// holding exactly its tree. Then one that will not wait is refused.
func twoPublishesAtOnce(t *testing.T, srv *s3Server) {
	srv.createBucket(t, "race")
	// What the lease stands on: a write under If-None-Match: * fails
	// where the object exists.
	for i, want := range []int{200, 412} {
		res, body := srv.send(t, "PUT", "/race/probe", nil, map[string]string{"If-None-Match": "*"}, []byte("x"))
		if res.StatusCode != want {
			t.Fatalf("conditional PUT %d: %s, want %d\n%s", i+1, res.Status, want, body)
		}
	}
	if res, body := srv.do(t, "DELETE", "/race/probe", nil); res.StatusCode != 204 {
		t.Fatalf("DELETE: %s\n%s", res.Status, body)
	}
	trees := map[string]map[string]string{"second": published(t, "second"), "third": published(t, "third")}
	// Each upload takes a while, so that the two overlap.
	srv.reset(func(_ int, r *http.Request) string {
		if r.Method == "PUT" && !strings.Contains(r.URL.Path, "/"+publish.LeasePrefix) {
			time.Sleep(100 * time.Millisecond)
		}
		return ""
	})
	type outcome struct{ code, stdout, stderr string }
	results := map[string]outcome{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for dir := range trees {
		wg.Go(func() {
			code, stdout, stderr := runCmd("publish", "-dir", dir, "-to", srv.bucketURL("race"))
			mu.Lock()
			results[dir] = outcome{fmt.Sprint(code), stdout, stderr}
			mu.Unlock()
		})
	}
	wg.Wait()
	var waited []string
	for dir, o := range results {
		if o.code != "0" {
			t.Fatalf("%s: exit %s\n%s%s", dir, o.code, o.stdout, o.stderr)
		}
		if strings.Contains(o.stderr, "logoindex: waiting for the bucket's lease, held by ") {
			waited = append(waited, dir)
		}
		if strings.Contains(o.stderr, "best-effort") {
			t.Errorf("%s: versitygw honours If-None-Match, yet:\n%s", dir, o.stderr)
		}
	}
	if len(waited) != 1 {
		t.Fatalf("%d publishes waited for the other, want 1: %+v", len(waited), results)
	}
	// The one that waited published last, over the other's tree.
	srv.checkHolds(t, "race", trees[waited[0]])

	// One that will not wait is refused while the other publishes,
	// naming it, and changes nothing.
	other := "second"
	if waited[0] == "second" {
		other = "third"
	}
	// Its uploads wait until the refused one has run, so that it holds the
	// lease throughout, however slowly the refused one starts (and at most
	// a while, should the refused one upload after all).
	gate := make(chan struct{})
	var open sync.Once
	release := func() { open.Do(func() { close(gate) }) }
	defer release()
	srv.reset(func(_ int, r *http.Request) string {
		if r.Method == "PUT" && !strings.Contains(r.URL.Path, "/"+publish.LeasePrefix) {
			select {
			case <-gate:
			case <-time.After(30 * time.Second):
			}
		}
		return ""
	})
	done := make(chan outcome, 1)
	go func() {
		code, stdout, stderr := runCmd("publish", "-dir", other, "-to", srv.bucketURL("race"))
		done <- outcome{fmt.Sprint(code), stdout, stderr}
	}()
	for deadline := time.Now().Add(time.Minute); len(srv.requests("start", "PUT", "race")) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the publish sent no PUT in a minute")
		}
	}
	code, stdout, stderr := runCmd("publish", "-dir", waited[0], "-to", srv.bucketURL("race"), "-wait", "0")
	release()
	if want := "logoindex: another publish holds the bucket's lease: "; code != 1 || !strings.HasPrefix(stderr, want) || !strings.Contains(stderr, "(pid ") || stdout != "" {
		t.Errorf("with -wait 0: exit %d\nstdout:\n%s\nstderr:\n%s\nwant exit 1 and %q", code, stdout, stderr, want)
	}
	if o := <-done; o.code != "0" {
		t.Fatalf("%s: exit %s\n%s%s", other, o.code, o.stdout, o.stderr)
	}
	srv.reset(nil)
	srv.checkHolds(t, "race", trees[other])
}

// verifyRepairs changes two objects of the tree in the folder third, the
// last published, behind publish's back, in ways only -verify sees.
func verifyRepairs(t *testing.T, srv *s3Server) {
	third := published(t, "third")
	// The same bytes with another Content-Type, and other bytes of the
	// same size in a multipart upload, which leaves no MD5 to compare.
	const retyped, replaced = "logos/acme/icon.svg", "logos/acme/wordmark.svg"
	_, cache := headers.Site.Object(retyped)
	srv.putBehind(t, "logos", retyped, []byte(third[retyped]), "text/plain", cache)
	ctype, cache := headers.Site.Object(replaced)
	srv.putInParts(t, "logos", replaced, []byte(strings.Replace(third[replaced], "<svg", "<SVG", 1)), ctype, cache)

	srv.reset(nil)
	code, stdout, stderr := runCmd("publish", "-dir", "third", "-to", srv.bucketURL("logos"))
	if code != 0 || !strings.HasPrefix(stdout, "nothing to publish: ") {
		t.Fatalf("a plain publish, which trusts its record: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCmd("publish", "-dir", "third", "-to", srv.bucketURL("logos"), "-verify")
	for _, want := range []string{
		"differs logos/acme/icon.svg: Content-Type \"text/plain\", not \"image/svg+xml\"\n",
		"differs logos/acme/wordmark.svg: other bytes (read back: the store gives no MD5)\n",
		fmt.Sprintf("verified %d objects of %s (2 differed from third): uploaded 2 files (", len(third), srv.bucketURL("logos")),
	} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("-verify: exit %d, stdout lacks %q:\n%s%s", code, want, stdout, stderr)
		}
	}
	if puts := slices.Sorted(slices.Values(srv.requests("start", "PUT", "logos"))); !slices.Equal(puts, []string{retyped, replaced}) {
		t.Errorf("-verify sent PUT %v, want only the two objects", puts)
	}
	if heads := srv.requests("start", "HEAD", "logos"); len(heads) < len(third) {
		t.Errorf("-verify sent %d HEAD requests for %d objects", len(heads), len(third))
	}
	if gets := srv.requests("start", "GET", "logos"); !slices.Contains(gets, replaced) {
		t.Errorf("-verify did not read back %s: GET %v", replaced, gets)
	}
	srv.checkHolds(t, "logos", third)
	code, stdout, _ = runCmd("publish", "-dir", "third", "-to", srv.bucketURL("logos"), "-verify")
	if want := fmt.Sprintf("verified %s: its %d objects match third", srv.bucketURL("logos"), len(third)); code != 0 || !strings.Contains(stdout, want) {
		t.Errorf("-verify again: exit %d, stdout lacks %q:\n%s", code, want, stdout)
	}
}

// releaseTwice releases src as 1.0.0 into the bucket of the site, reads
// it back, and is refused the same release again.
func releaseTwice(t *testing.T, srv *s3Server, src, base string, build func(out, base string) map[string]string) {
	before := srv.content(t, "logos")
	srv.reset(nil)
	code, stdout, stderr := runCmd("release", "-version", "1.0.0", "-src", src, "-base-url", base, "-to", srv.bucketURL("logos"))
	if code != 0 || !strings.Contains(stdout, "\nreleased 1.0.0 to "+srv.bucketURL("logos")+": uploaded ") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	// The same build, to compare with: builds are reproducible.
	release := build("release", base+"/v/1.0.0")
	srv.checkRelease(t, "logos", "1.0.0", release)
	after := srv.content(t, "logos")
	for key, etag := range before {
		if after[key] != etag {
			t.Errorf("the release changed %s of the site", key)
		}
	}
	if len(after) != len(before)+len(release)+1 {
		t.Errorf("the bucket holds %d objects, want the site's %d, the release's %d and api/releases.json", len(after), len(before), len(release))
	}
	res, body := srv.do(t, "GET", "/logos/api/releases.json", nil)
	var list []publish.ReleaseEntry
	if err := json.Unmarshal(body, &list); err != nil || res.Header.Get("Content-Type") != "application/json; charset=utf-8" ||
		res.Header.Get("Cache-Control") != "public, max-age=300, stale-while-revalidate=86400" {
		t.Fatalf("api/releases.json: %s, %v\n%s", res.Header, err, body)
	}
	want := []publish.ReleaseEntry{{Version: "1.0.0", Date: time.Now().UTC().Format(time.DateOnly), Logos: 1, Index: base + "/v/1.0.0/api/logos.json"}}
	if !slices.Equal(list, want) {
		t.Errorf("api/releases.json lists %+v, want %+v", list, want)
	}
	// It was written after every object of the release was up.
	srv.mu.Lock()
	log := slices.Clone(srv.log)
	srv.mu.Unlock()
	listed := slices.Index(log, "start PUT /logos/api/releases.json")
	for i, l := range log {
		if strings.HasPrefix(l, "end PUT /logos/v/1.0.0/") && i > listed {
			t.Errorf("%s came after api/releases.json was written (%d > %d)", l, i, listed)
		}
	}

	// Again: refused, and not a request that writes.
	all := srv.list(t, "logos")
	srv.reset(nil)
	code, _, stderr = runCmd("release", "-version", "1.0.0", "-src", src, "-base-url", base, "-to", srv.bucketURL("logos"))
	if want := "logoindex: refusing to release: api/releases.json already lists release 1.0.0 (of "; code != 1 || !strings.HasPrefix(stderr, want) {
		t.Errorf("again: exit %d\n%s\nwant %q", code, stderr, want)
	}
	srv.mu.Lock()
	for _, l := range srv.log {
		if !strings.HasPrefix(l, "start GET ") && !strings.HasPrefix(l, "end GET ") && !strings.HasPrefix(l, "start HEAD ") && !strings.HasPrefix(l, "end HEAD ") {
			t.Errorf("a refused release sent %s", l)
		}
	}
	srv.mu.Unlock()
	if got := srv.list(t, "logos"); !maps.Equal(all, got) {
		t.Errorf("a refused release changed the bucket")
	}
}

// checkRelease reads the release of version back: every file of the
// tree under v/<version>/, with its bytes, its Content-Type and the
// Cache-Control of a release.
func (s *s3Server) checkRelease(t *testing.T, bucket, version string, files map[string]string) {
	t.Helper()
	prefix := publish.ReleasePrefix(version)
	for key, data := range files {
		res, body := s.do(t, "GET", "/"+bucket+"/"+prefix+key, nil)
		ctype, _ := headers.Site.Object(key)
		if res.StatusCode != 200 || string(body) != data {
			t.Errorf("GET %s%s: %s, %d bytes, want the file's %d", prefix, key, res.Status, len(body), len(data))
			continue
		}
		if got := res.Header.Get("Content-Type"); got != ctype {
			t.Errorf("GET %s%s: Content-Type %q, want %q", prefix, key, got, ctype)
		}
		if got := res.Header.Get("Cache-Control"); got != "public, max-age=31536000, immutable" {
			t.Errorf("GET %s%s: Cache-Control %q, want the release's, immutable", prefix, key, got)
		}
	}
}

func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// TestPublishS3 runs publish against versitygw, one bucket per story:
// publish and read back, publish again unchanged, change a logo, remove a
// logo (refused without its tombstone), two publishes at once, -verify
// after changes behind publish's back, a release, a server that fails one
// request in ten, an object that keeps failing, and the localhost tree.
func TestPublishS3(t *testing.T) {
	srv := startS3(t)
	srv.env(t)
	golden, err := filepath.Abs("../../generator/testdata/golden/src")
	if err != nil {
		t.Fatal(err)
	}
	collection, err := filepath.Abs("../../source-logos")
	if err != nil {
		t.Fatal(err)
	}
	dir := inTempDir(t, nil)
	src := filepath.Join(dir, "src")
	if err := os.CopyFS(src, os.DirFS(golden)); err != nil {
		t.Fatal(err)
	}
	build := func(out, base string) map[string]string {
		t.Helper()
		if code, _, stderr := runCmd("build", "-src", src, "-out", out, "-base-url", base, "-no-cache"); code != 0 {
			t.Fatalf("build: %s", stderr)
		}
		return published(t, out)
	}
	const base = "https://logos.example.com"
	first := build("first", base)
	srv.createBucket(t, "logos")

	t.Run("publish and read back", func(t *testing.T) {
		srv.reset(nil)
		code, stdout, stderr := runCmd("publish", "-dir", "first", "-to", srv.bucketURL("logos"), "-base-url", base)
		if code != 0 {
			t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
		}
		if want := fmt.Sprintf(": uploaded %d files (", len(first)); !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
		srv.checkHolds(t, "logos", first)
	})

	t.Run("publish unchanged", func(t *testing.T) {
		srv.reset(nil)
		code, stdout, stderr := runCmd("publish", "-dir", "first", "-to", srv.bucketURL("logos"))
		if code != 0 || !strings.HasPrefix(stdout, "nothing to publish: ") {
			t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
		}
		if puts, dels := srv.requests("start", "PUT", "logos"), srv.requests("start", "DELETE", "logos"); len(puts)+len(dels) > 0 {
			t.Errorf("an unchanged publish sent PUT %v and DELETE %v", puts, dels)
		}
	})

	t.Run("change one logo", func(t *testing.T) {
		yaml := filepath.Join(src, "acme", "logo.yaml")
		data, _ := os.ReadFile(yaml)
		testtree.Write(t, filepath.Dir(yaml), map[string]string{filepath.Base(yaml): strings.Replace(string(data), "name: Acme & Co.", "name: Acme Inc.", 1)})
		second := build("second", base)
		var changed []string
		for k, v := range second {
			if first[k] != v {
				changed = append(changed, k)
				if !strings.Contains(k, "acme") && k != "api/logos.json" && k != "r/registry.json" && k != "index.html" {
					t.Errorf("%s changed, but it is neither acme's nor an index", k)
				}
			}
		}
		if len(changed) < 4 {
			t.Fatalf("the change reached only %v", changed)
		}
		srv.reset(nil)
		if code, stdout, stderr := runCmd("publish", "-dir", "second", "-to", srv.bucketURL("logos")); code != 0 {
			t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
		}
		want := slices.Sorted(slices.Values(append(changed, publish.StateKey)))
		if got := slices.Sorted(slices.Values(srv.requests("start", "PUT", "logos"))); !slices.Equal(want, got) {
			t.Errorf("PUT %v\nwant %v", got, want)
		}
		srv.checkHolds(t, "logos", second)
		first = second
	})

	t.Run("remove a logo", func(t *testing.T) {
		if err := os.RemoveAll(filepath.Join(src, "night-owl")); err != nil {
			t.Fatal(err)
		}
		third := build("third", base)
		// Dropped without a word: refused, with nothing sent.
		srv.reset(nil)
		code, stdout, stderr := runCmd("publish", "-dir", "third", "-to", srv.bucketURL("logos"))
		if want := "logoindex: refusing to publish: the tree drops 1 logo the bucket serves, and every URL of it would stop working: night-owl. To remove a logo on purpose, add it to source-logos/removed.yaml, with replaced_by if it has a successor"; code != 1 || !strings.HasPrefix(stderr, want) {
			t.Fatalf("exit %d\n%s%s\nwant exit 1 and %q", code, stdout, stderr, want)
		}
		if puts, dels := srv.requests("start", "PUT", "logos"), srv.requests("start", "DELETE", "logos"); len(puts)+len(dels) > 0 {
			t.Errorf("a refused publish sent PUT %v and DELETE %v", puts, dels)
		}
		// With its tombstone, which the build writes for a logo listed in
		// removed.yaml, the logo goes and its detail stays.
		const detail = "api/logos/night-owl.json"
		testtree.Write(t, "third", map[string]string{detail: `{"slug":"night-owl","removed":true}` + "\n"})
		third = published(t, "third")
		var gone []string
		for k := range first {
			if _, ok := third[k]; !ok {
				gone = append(gone, k)
			}
		}
		srv.reset(nil)
		if code, stdout, stderr := runCmd("publish", "-dir", "third", "-to", srv.bucketURL("logos")); code != 0 {
			t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
		}
		if puts := srv.requests("start", "PUT", "logos"); !slices.Contains(puts, detail) {
			t.Errorf("the tombstone was not uploaded: PUT %v", puts)
		}
		if got := slices.Sorted(slices.Values(srv.requests("start", "DELETE", "logos"))); !slices.Equal(slices.Sorted(slices.Values(gone)), got) || len(got) < 4 {
			t.Errorf("DELETE %v\nwant %v", got, gone)
		}
		// Every deletion starts after the indexes and the record are in
		// place, as the server saw it; the page goes before its SVGs.
		srv.mu.Lock()
		log := slices.DeleteFunc(slices.Clone(srv.log), func(l string) bool { return strings.Contains(l, "/"+publish.LeasePrefix) })
		srv.mu.Unlock()
		lastIndexEnd, firstDelete, pageDeleted, firstSVGDelete := -1, -1, -1, -1
		for i, l := range log {
			switch {
			case strings.HasPrefix(l, "end PUT /logos/") && slices.Contains([]string{"api/logos.json", "r/registry.json", "index.html", publish.StateKey}, strings.TrimPrefix(l, "end PUT /logos/")):
				lastIndexEnd = i
			case strings.HasPrefix(l, "start DELETE /logos/") && firstDelete < 0:
				firstDelete = i
			}
			if l == "end DELETE /logos/logos/night-owl/index.html" {
				pageDeleted = i
			}
			if strings.HasPrefix(l, "start DELETE /logos/logos/night-owl/") && strings.HasSuffix(l, ".svg") && firstSVGDelete < 0 {
				firstSVGDelete = i
			}
		}
		if lastIndexEnd < 0 || firstDelete < lastIndexEnd {
			t.Errorf("a deletion (request %d) started before the indexes and record were up (request %d):\n%s", firstDelete, lastIndexEnd, strings.Join(log, "\n"))
		}
		if pageDeleted < 0 || firstSVGDelete < pageDeleted {
			t.Errorf("an SVG was deleted (request %d) before the page that shows it (request %d)", firstSVGDelete, pageDeleted)
		}
		srv.checkHolds(t, "logos", third)
	})

	t.Run("two publishes at once", func(t *testing.T) { twoPublishesAtOnce(t, srv) })
	t.Run("verify repairs what changed behind publish's back", func(t *testing.T) { verifyRepairs(t, srv) })
	t.Run("release", func(t *testing.T) { releaseTwice(t, srv, src, base, build) })

	t.Run("one request in ten fails", func(t *testing.T) {
		// The shipped collection: enough requests for dozens of faults.
		if code, _, stderr := runCmd("build", "-src", collection, "-out", "collection", "-base-url", base, "-no-cache"); code != 0 {
			t.Fatalf("build: %s", stderr)
		}
		faults := []string{"503", "500", "reset", "lost"}
		// Twice. Every tenth request fails: the AWS SDK's standard
		// retryer (3 attempts; gocloud installs it, so AWS_MAX_ATTEMPTS
		// has no say) absorbs most of these. Then every tenth object fails
		// its first three requests, more than the SDK tries, so publish's
		// own retries (the only ones some stores' clients have) must finish.
		for _, tc := range []struct {
			bucket string
			fail   func(n, attempt int) bool
		}{
			{"flaky", func(n, _ int) bool { return n%10 == 0 }},
			{"flakier", func(n, attempt int) bool { return n%10 == 0 && attempt <= 3 }},
		} {
			srv.createBucket(t, tc.bucket)
			var mu sync.Mutex // the proxy serves requests concurrently
			failed, objects, attempts := 0, map[string]int{}, map[string]int{}
			srv.reset(func(n int, r *http.Request) string {
				mu.Lock()
				defer mu.Unlock()
				if _, ok := objects[r.URL.Path]; !ok {
					objects[r.URL.Path] = len(objects) + 1
				}
				attempts[r.URL.Path]++
				if tc.bucket == "flakier" {
					n = objects[r.URL.Path]
				}
				if !tc.fail(n, attempts[r.URL.Path]) {
					return ""
				}
				failed++
				return faults[failed%len(faults)]
			})
			code, stdout, stderr := runCmd("publish", "-dir", "collection", "-to", srv.bucketURL(tc.bucket))
			srv.reset(nil)
			if code != 0 {
				// Publish may exit 1 naming what failed; with retries it
				// should not come to that.
				t.Fatalf("%s: exit %d\n%s%s", tc.bucket, code, stdout, stderr)
			}
			if failed < 20 {
				t.Errorf("%s: only %d requests failed: the fault is not reached", tc.bucket, failed)
			}
			if retried := strings.Count(stdout, "\nretrying "); tc.bucket == "flakier" && retried < 10 {
				t.Errorf("%s: %d retries by publish for %d faults", tc.bucket, retried, failed)
			}
			srv.checkHolds(t, tc.bucket, published(t, "collection"))
		}
	})

	t.Run("an object that keeps failing", func(t *testing.T) {
		srv.createBucket(t, "broken")
		const bad = "/broken/logos/acme/icon.svg"
		srv.reset(func(n int, r *http.Request) string {
			if r.Method == "PUT" && r.URL.Path == bad {
				return "503"
			}
			return ""
		})
		code, stdout, stderr := runCmd("publish", "-dir", "third", "-to", srv.bucketURL("broken"))
		if code != 1 || !strings.Contains(stderr, "1 object failed\n  upload logos/acme/icon.svg: ") || strings.Count(stdout, "retrying upload logos/acme/icon.svg") != publish.DefaultAttempts-1 ||
			!strings.Contains(stderr, "the bucket still serves the previous tree") || !strings.Contains(stdout, "stopped publishing third") {
			t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
		for _, k := range srv.requests("start", "PUT", "broken") {
			if k == "api/logos.json" || k == "index.html" || k == "r/registry.json" || k == publish.StateKey || strings.HasSuffix(k, "index.html") {
				t.Errorf("%s was uploaded although an SVG failed", k)
			}
		}
		srv.reset(nil)
	})

	t.Run("a localhost tree is refused", func(t *testing.T) {
		build("local", "http://localhost:8080")
		srv.reset(nil)
		code, _, stderr := runCmd("publish", "-dir", "local", "-to", srv.bucketURL("logos"))
		if code != 1 || !strings.Contains(stderr, "refusing to publish: the tree was built for http://localhost:8080") {
			t.Errorf("exit %d: %s", code, stderr)
		}
		if srv.served != 0 {
			t.Errorf("a refused tree sent %d requests", srv.served)
		}
		// And a tree for another URL than the bucket's.
		build("other", "https://other.example.com")
		code, _, stderr = runCmd("publish", "-dir", "other", "-to", srv.bucketURL("logos"))
		if code != 1 || !strings.Contains(stderr, "the bucket serves a tree built for https://logos.example.com") {
			t.Errorf("exit %d: %s", code, stderr)
		}
		if puts := srv.requests("start", "PUT", "logos"); len(puts) > 0 {
			t.Errorf("a refused publish sent PUT %v", puts)
		}
	})
}
