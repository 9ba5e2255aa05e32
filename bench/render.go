package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
)

// The visual rule of issue 6: a file changed when more than maxChangedFrac
// of its pixels differ by more than maxChannelDiff in any channel.
const (
	baseSize       = 128
	smallSize      = 512 // also rendered when the viewBox is narrower than smallViewBox
	smallViewBox   = 64
	maxChannelDiff = 16 * 257 // 16/255 in image/color's 16-bit channels
	maxChangedFrac = 0.005
	renderWorkers  = 2
)

// renderer runs rsvg-convert and keeps every PNG in a cache folder keyed by
// the SVG's content hash, so a rerun renders only what changed.
type renderer struct {
	dir      string
	rendered atomic.Int64 // renders not found in the cache
}

var errRender = errors.New("rsvg-convert failed")

func (r *renderer) png(svg []byte, size int) ([]byte, error) {
	sum := sha256.Sum256(svg)
	key := hex.EncodeToString(sum[:])
	file := filepath.Join(r.dir, key[:2], key+"-"+strconv.Itoa(size)+".png")
	if data, err := os.ReadFile(file); err == nil {
		if len(data) == 0 { // a cached failure
			return nil, errRender
		}
		return data, nil
	}
	r.rendered.Add(1)
	s := strconv.Itoa(size)
	cmd := exec.Command("rsvg-convert", "-w", s, "-h", s, "-a", "-f", "png")
	cmd.Stdin = bytes.NewReader(svg)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	err := cmd.Run()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return nil, err
	}
	if err != nil || out.Len() == 0 {
		writeAtomic(file, nil)
		return nil, errRender
	}
	if err := writeAtomic(file, out.Bytes()); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// writeAtomic writes a cache file under a temporary name and renames it,
// so that a concurrent or killed run never reads half a PNG.
func writeAtomic(file string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(file), ".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// visualResult is how many files of a corpus render differently.
type visualResult struct {
	Changed      []string // names, with the worst fraction of differing pixels
	Unrenderable []string // sources rsvg-convert cannot render: left out
}

// compareVisual renders each source and pick(file) and lists the files
// whose renders differ under the rule above. Files whose output equals the
// source byte for byte are not rendered again.
func compareVisual(c *corpus, r *renderer, pick func(*corpusFile) []byte) (visualResult, error) {
	var res visualResult
	var mu sync.Mutex
	var firstErr error
	forEach(len(c.Files), renderWorkers, func(i int) {
		f := c.Files[i]
		out := pick(f)
		sizes := []int{baseSize}
		if f.Info.ViewBox[2] < smallViewBox {
			sizes = append(sizes, smallSize)
		}
		worst := 0.0
		changed, bad := false, false
		for _, size := range sizes {
			a, err := r.png(f.Src, size)
			if err != nil {
				bad = true
				if !errors.Is(err, errRender) {
					mu.Lock()
					firstErr = cmpOr(firstErr, err)
					mu.Unlock()
				}
				break
			}
			if bytes.Equal(out, f.Src) {
				continue
			}
			b, err := r.png(out, size)
			if err != nil {
				changed, worst = true, 1
				break
			}
			frac, err := diffFraction(a, b)
			if err != nil {
				mu.Lock()
				firstErr = cmpOr(firstErr, fmt.Errorf("%s: %w", f.Name, err))
				mu.Unlock()
				return
			}
			worst = max(worst, frac)
			if frac > maxChangedFrac {
				changed = true
			}
		}
		mu.Lock()
		defer mu.Unlock()
		switch {
		case bad:
			res.Unrenderable = append(res.Unrenderable, f.Name)
		case changed:
			res.Changed = append(res.Changed, fmt.Sprintf("%s (%.2f%%)", f.Name, 100*worst))
		}
	})
	slices.Sort(res.Changed)
	slices.Sort(res.Unrenderable)
	return res, firstErr
}

// diffFraction is the fraction of pixels whose premultiplied RGBA differ by
// more than maxChannelDiff in some channel; renders of different sizes
// differ everywhere.
func diffFraction(a, b []byte) (float64, error) {
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		return 0, err
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return 0, err
	}
	ra, rb := ia.Bounds(), ib.Bounds()
	if ra.Dx() != rb.Dx() || ra.Dy() != rb.Dy() {
		return 1, nil
	}
	total := ra.Dx() * ra.Dy()
	if total == 0 {
		return 0, nil
	}
	na, ok1 := ia.(*image.NRGBA)
	nb, ok2 := ib.(*image.NRGBA)
	if ok1 && ok2 {
		return float64(nrgbaDiff(na, nb)) / float64(total), nil
	}
	diff := 0
	for y := range ra.Dy() {
		for x := range ra.Dx() {
			if pixelDiffers(ia, ib, image.Pt(ra.Min.X+x, ra.Min.Y+y), image.Pt(rb.Min.X+x, rb.Min.Y+y)) {
				diff++
			}
		}
	}
	return float64(diff) / float64(total), nil
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
