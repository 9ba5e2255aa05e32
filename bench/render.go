package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"logoindex/internal/atomicfile"
	"logoindex/internal/par"
)

// The visual rule: a file changed when more than maxChangedFrac
// of its pixels differ by more than 16/255 in a premultiplied channel, at
// baseSize px, and also at smallSize px when the viewBox is narrower than
// smallViewBox units.
const (
	baseSize       = 128
	smallSize      = 512
	smallViewBox   = 64
	maxChannelDiff = 16 * 257 // 16/255 in image/color's 16-bit channels
	maxChangedFrac = 0.005
)

// visualRule names the rule and the comparison in the result cache's key,
// so that changing either starts a new cache.
var visualRule = fmt.Sprintf("v2 %d/%d px under %d, >16/255, >%g", baseSize, smallSize, smallViewBox, maxChangedFrac)

// renderer draws an SVG into a square of size px keeping its aspect ratio
// (rsvg-convert -w size -h size -a), as image/png decodes rsvg-convert's
// PNG: *image.NRGBA, or *image.RGBA when every pixel is opaque. An SVG it
// cannot render gives errRender.
type renderer interface {
	render(svg []byte, size int) (image.Image, error)
	String() string
}

var errRender = errors.New("rsvg-convert failed")

// rsvgConvert runs rsvg-convert once per render.
type rsvgConvert struct {
	ctx     context.Context
	version string
}

func newRsvgConvert(ctx context.Context) *rsvgConvert {
	v := "rsvg-convert"
	if out, err := exec.Command("rsvg-convert", "--version").Output(); err == nil {
		v = strings.TrimSpace(string(out))
	}
	return &rsvgConvert{ctx: ctx, version: v}
}

func (r *rsvgConvert) String() string { return r.version }

func (r *rsvgConvert) render(svg []byte, size int) (image.Image, error) {
	s := strconv.Itoa(size)
	cmd := exec.CommandContext(r.ctx, "rsvg-convert", "-w", s, "-h", s, "-a", "-f", "png")
	cmd.Stdin = bytes.NewReader(svg)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil || out.Len() == 0 {
		if r.ctx.Err() != nil {
			return nil, r.ctx.Err()
		}
		return nil, errRender
	}
	return png.Decode(&out)
}

// chooseRenderer returns librsvg in process when it loads and draws a
// sample of the corpora exactly as rsvg-convert does, else rsvg-convert.
// want is the -renderer flag: auto, librsvg or rsvg-convert.
func chooseRenderer(ctx context.Context, want string, corpora []*corpus) (renderer, error) {
	ext := newRsvgConvert(ctx)
	if want == "rsvg-convert" {
		return ext, nil
	}
	in, err := newLibrsvg(strings.TrimPrefix(ext.version, "rsvg-convert version "))
	if err == nil {
		err = renderersAgree(in, ext, checkSample(corpora))
	}
	switch {
	case err == nil:
		return in, nil
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case want == "librsvg":
		return nil, err
	}
	logf("rendering with rsvg-convert, one process a render: %v", err)
	return ext, nil
}

// checkSample is the sources renderersAgree compares: a few files spread
// over each corpus.
func checkSample(corpora []*corpus) [][]byte {
	var svgs [][]byte
	for _, c := range corpora {
		for _, i := range sampleIndices(len(c.Files), 8) {
			svgs = append(svgs, c.Files[i].Src)
		}
	}
	return svgs
}

// renderersAgree renders each SVG at both sizes with both renderers and
// fails at the first pixel that differs.
func renderersAgree(a, b renderer, svgs [][]byte) error {
	for _, svg := range svgs {
		for _, size := range []int{baseSize, smallSize} {
			ia, errA := a.render(svg, size)
			ib, errB := b.render(svg, size)
			if errB != nil && !errors.Is(errB, errRender) {
				return errB
			}
			if (errA == nil) != (errB == nil) {
				return fmt.Errorf("%s and %s disagree on whether %.60q renders", a, b, svg)
			}
			if errA == nil && !sameImage(ia, ib) {
				return fmt.Errorf("%s and %s draw %.60q differently at %d px", a, b, svg, size)
			}
		}
	}
	return nil
}

// sameImage reports whether two images have the same type, bounds and
// pixels.
func sameImage(a, b image.Image) bool {
	switch a := a.(type) {
	case *image.NRGBA:
		b, ok := b.(*image.NRGBA)
		return ok && a.Rect == b.Rect && samePix(a.Pix, b.Pix, a.Stride, b.Stride, a.Rect.Dx(), a.Rect.Dy())
	case *image.RGBA:
		b, ok := b.(*image.RGBA)
		return ok && a.Rect == b.Rect && samePix(a.Pix, b.Pix, a.Stride, b.Stride, a.Rect.Dx(), a.Rect.Dy())
	}
	return false
}

func samePix(a, b []byte, sa, sb, w, h int) bool {
	for y := range h {
		if !bytes.Equal(a[y*sa:y*sa+4*w], b[y*sb:y*sb+4*w]) {
			return false
		}
	}
	return true
}

// fitSize is rsvg-convert's size for -w size -h size -a: the natural size
// scaled to fit the square (xMinYMin meet); !ok when the SVG has no size.
func fitSize(naturalW, naturalH, size float64) (w, h float64, ok bool) {
	if naturalW == 0 || naturalH == 0 {
		return 0, 0, false
	}
	factor := min(size/naturalW, size/naturalH)
	return naturalW * factor, naturalH * factor, true
}

// cairoImage turns a cairo ARGB32 surface (premultiplied, one uint32 a
// pixel in native byte order: B, G, R, A on little-endian machines) into
// what cairo's PNG writer and image/png's decoder make of it: opaque
// images are written as RGB and read as *image.RGBA; others are
// un-premultiplied with cairo's rounding, (c*255 + a/2) / a, and read as
// *image.NRGBA.
func cairoImage(data []byte, w, h, stride int) image.Image {
	opaque := true
	for y := 0; y < h && opaque; y++ {
		row := data[y*stride : y*stride+4*w]
		for i := 3; i < len(row); i += 4 {
			if row[i] != 0xFF {
				opaque = false
				break
			}
		}
	}
	rect := image.Rect(0, 0, w, h)
	var pix []byte
	var img image.Image
	if opaque {
		m := image.NewRGBA(rect)
		pix, img = m.Pix, m
	} else {
		m := image.NewNRGBA(rect)
		pix, img = m.Pix, m
	}
	for y := range h {
		row := data[y*stride : y*stride+4*w]
		out := pix[y*4*w : (y+1)*4*w]
		for i := 0; i < len(row); i += 4 {
			b, g, r, a := uint32(row[i]), uint32(row[i+1]), uint32(row[i+2]), uint32(row[i+3])
			switch a {
			case 0: // stays zero
			case 0xFF:
				out[i], out[i+1], out[i+2], out[i+3] = byte(r), byte(g), byte(b), 0xFF
			default:
				out[i] = byte((r*0xFF + a/2) / a)
				out[i+1] = byte((g*0xFF + a/2) / a)
				out[i+2] = byte((b*0xFF + a/2) / a)
				out[i+3] = byte(a)
			}
		}
	}
	return img
}

// visualCache keeps the result of every comparison, keyed by the renderer,
// the rule, both files' bytes and the size, in one append-only file, so
// that a rerun renders only pairs it has not compared before. A value is
// the fraction of differing pixels, 1 when the output does not render, or
// srcFailed when the source does not.
type visualCache struct {
	mu   sync.Mutex
	file *os.File
	path string
	m    map[string]float64
	used map[string]bool
}

const srcFailed = -1

func openVisualCache(dir, rendererID string) (*visualCache, error) {
	sum := sha256.Sum256([]byte(rendererID + "\x00" + visualRule))
	path := filepath.Join(dir, "visual-"+hex.EncodeToString(sum[:6])+".txt")
	c := &visualCache{path: path, m: map[string]float64{}, used: map[string]bool{}}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if f, err := os.Open(path); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			// A run killed mid-write leaves half a line: skip it.
			k, v, ok := strings.Cut(sc.Text(), " ")
			if f, err := strconv.ParseFloat(v, 64); ok && err == nil && len(k) == 32 {
				c.m[k] = f
			}
		}
		f.Close()
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	c.file = f
	return c, nil
}

func pairKey(src, out []byte, size int) string {
	h := sha256.New()
	s1, s2 := sha256.Sum256(src), sha256.Sum256(out)
	h.Write(s1[:])
	h.Write(s2[:])
	fmt.Fprint(h, size)
	return hex.EncodeToString(h.Sum(nil)[:16])
}

func (c *visualCache) get(key string) (float64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[key]
	if ok {
		c.used[key] = true
	}
	return v, ok
}

func (c *visualCache) put(key string, v float64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[key], c.used[key] = v, true
	_, err := fmt.Fprintf(c.file, "%s %g\n", key, v)
	return err
}

// close closes the file, first writing it anew with only the entries this
// run used when compact is set (a run over every corpus: the others are
// for outputs that no longer exist).
func (c *visualCache) close(compact bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	err := c.file.Close()
	if err != nil || !compact || len(c.used) == len(c.m) {
		return err
	}
	var b strings.Builder
	for _, k := range sortedKeys(c.used) {
		fmt.Fprintf(&b, "%s %g\n", k, c.m[k])
	}
	return atomicfile.Write(c.path, []byte(b.String()), 0o644)
}

// renderStats counts the work of the visual comparison.
type renderStats struct {
	Renderer  string  `json:"renderer"`
	Renders   int64   `json:"renders"`           // images drawn this run
	Cached    int64   `json:"cached_pairs"`      // comparisons found in the cache
	Identical int64   `json:"identical_outputs"` // outputs equal to their source byte for byte: nothing to render
	Seconds   float64 `json:"seconds"`
}

// visualResult is how many files of a corpus render differently.
type visualResult struct {
	Changed      []string // names, with the fraction of differing pixels at the first size that differs
	Unrenderable []string // sources rsvg-convert cannot render: left out
}

// visual compares, for every file, the source with each output, at the
// sizes of the rule. An output equal to its source byte for byte is not
// rendered; the source is rendered once for all outputs at a size; an
// output found changed at 128 px is not rendered at 512 px; and pairs
// compared before come from the cache. Files run on one worker per CPU.
type visual struct {
	r     renderer
	cache *visualCache
	stats *renderStats
}

// compare fills one result per pick (ours, SVGO...) for corpus c.
func (v *visual) compare(ctx context.Context, c *corpus, st *stage, picks ...func(*corpusFile) []byte) ([]visualResult, error) {
	res := make([]visualResult, len(picks))
	var mu sync.Mutex
	var firstErr error
	fail := func(err error) {
		mu.Lock()
		firstErr = cmpOr(firstErr, err)
		mu.Unlock()
	}
	par.For(ctx, len(c.Files), runtime.GOMAXPROCS(0), func(i int) {
		runtime.LockOSThread() // pango keeps a font map per thread; one per worker
		defer runtime.UnlockOSThread()
		defer st.Add(1)
		f := c.Files[i]
		outs := make([][]byte, len(picks))
		for j, pick := range picks {
			outs[j] = pick(f)
		}
		fracs, unrenderable, err := v.compareFile(f, outs)
		if err != nil {
			fail(fmt.Errorf("%s: %w", f.Name, err))
			return
		}
		mu.Lock()
		defer mu.Unlock()
		for j, frac := range fracs {
			switch {
			case unrenderable:
				res[j].Unrenderable = append(res[j].Unrenderable, f.Name)
			case frac > maxChangedFrac:
				res[j].Changed = append(res[j].Changed, fmt.Sprintf("%s (%.2f%%)", f.Name, 100*frac))
			}
		}
	})
	for j := range res {
		slices.Sort(res[j].Changed)
		slices.Sort(res[j].Unrenderable)
	}
	return res, cmpOr(firstErr, ctx.Err())
}

// compareFile returns, for each output, the fraction of differing pixels
// at the first size where it is over the rule, else the largest; or
// unrenderable when the source does not render.
func (v *visual) compareFile(f *corpusFile, outs [][]byte) (fracs []float64, unrenderable bool, err error) {
	sizes := []int{baseSize}
	if f.Info.ViewBox[2] < smallViewBox {
		sizes = append(sizes, smallSize)
	}
	fracs = make([]float64, len(outs))
	done := make([]bool, len(outs))
	for j, out := range outs {
		if bytes.Equal(out, f.Src) {
			done[j] = true
			atomic.AddInt64(&v.stats.Identical, 1)
		}
	}
	for _, size := range sizes {
		var src image.Image
		drawn := map[string]image.Image{} // outputs drawn at this size, by bytes
		for j, out := range outs {
			if done[j] {
				continue
			}
			key := pairKey(f.Src, out, size)
			frac, ok := v.cache.get(key)
			if ok {
				atomic.AddInt64(&v.stats.Cached, 1)
			} else {
				if src == nil {
					if src, err = v.draw(f.Src, size); errors.Is(err, errRender) {
						return fracs, true, v.cache.put(key, srcFailed)
					} else if err != nil {
						return nil, false, err
					}
				}
				img, seen := drawn[string(out)]
				if !seen {
					if img, err = v.draw(out, size); err != nil && !errors.Is(err, errRender) {
						return nil, false, err
					}
					drawn[string(out)] = img
				}
				frac = 1 // an output that does not render differs everywhere
				if img != nil {
					frac = diffFraction(src, img)
				}
				if err := v.cache.put(key, frac); err != nil {
					return nil, false, err
				}
			}
			if frac == srcFailed {
				return fracs, true, nil
			}
			fracs[j] = max(fracs[j], frac)
			if frac > maxChangedFrac {
				fracs[j], done[j] = frac, true
			}
		}
	}
	return fracs, false, nil
}

func (v *visual) draw(svg []byte, size int) (image.Image, error) {
	atomic.AddInt64(&v.stats.Renders, 1)
	return v.r.render(svg, size)
}

// diffFraction is the fraction of pixels whose premultiplied RGBA differ by
// more than 16/255 in some channel; renders of different sizes differ
// everywhere.
func diffFraction(ia, ib image.Image) float64 {
	ra, rb := ia.Bounds(), ib.Bounds()
	if ra.Dx() != rb.Dx() || ra.Dy() != rb.Dy() {
		return 1
	}
	total := ra.Dx() * ra.Dy()
	if total == 0 {
		return 0
	}
	na, ok1 := ia.(*image.NRGBA)
	nb, ok2 := ib.(*image.NRGBA)
	if ok1 && ok2 {
		return float64(nrgbaDiff(na, nb)) / float64(total)
	}
	diff := 0
	for y := range ra.Dy() {
		for x := range ra.Dx() {
			if pixelDiffers(ia, ib, image.Pt(ra.Min.X+x, ra.Min.Y+y), image.Pt(rb.Min.X+x, rb.Min.Y+y)) {
				diff++
			}
		}
	}
	return float64(diff) / float64(total)
}

// nrgbaDiff counts differing pixels of two same-size NRGBA images (what
// image/png returns for rsvg-convert's output) without a call per pixel.
func nrgbaDiff(a, b *image.NRGBA) int {
	diff := 0
	w, h := a.Rect.Dx(), a.Rect.Dy()
	for y := range h {
		ra := a.Pix[y*a.Stride : y*a.Stride+4*w]
		rb := b.Pix[y*b.Stride : y*b.Stride+4*w]
		for i := 0; i < len(ra); i += 4 {
			if premulDiffers(ra[i:i+4:i+4], rb[i:i+4:i+4]) {
				diff++
			}
		}
	}
	return diff
}

// premulDiffers compares two non-premultiplied RGBA pixels as
// premultiplied colours, so that fully transparent pixels are equal
// whatever colour they carry.
func premulDiffers(p, q []byte) bool {
	if p[0] == q[0] && p[1] == q[1] && p[2] == q[2] && p[3] == q[3] {
		return false
	}
	const limit = 16 * 255 // 16/255 after dividing by 255 for the alpha
	for c := range 3 {
		if absDiff(uint32(p[c])*uint32(p[3]), uint32(q[c])*uint32(q[3])) > limit {
			return true
		}
	}
	return absDiff(uint32(p[3]), uint32(q[3])) > 16
}

func pixelDiffers(ia, ib image.Image, pa, pb image.Point) bool {
	r1, g1, b1, a1 := ia.At(pa.X, pa.Y).RGBA()
	r2, g2, b2, a2 := ib.At(pb.X, pb.Y).RGBA()
	return absDiff(r1, r2) > maxChannelDiff || absDiff(g1, g2) > maxChannelDiff ||
		absDiff(b1, b2) > maxChannelDiff || absDiff(a1, a2) > maxChannelDiff
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}
