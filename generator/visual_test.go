package generator

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path"
	"strconv"
	"strings"
	"sync"
	"testing"

	"logoindex/internal/testskip"
)

// rsvgRender renders an SVG to an image at the given width with librsvg,
// the renderer of GNOME and of many CDNs' thumbnailers.
func rsvgRender(t *testing.T, svg []byte, width int) image.Image {
	t.Helper()
	cmd := exec.Command("rsvg-convert", "-w", strconv.Itoa(width), "-f", "png")
	cmd.Stdin = bytes.NewReader(svg)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Errorf("rsvg-convert: %v: %s", err, errb.String())
		return nil
	}
	img, err := png.Decode(&out)
	if err != nil {
		t.Errorf("decoding rsvg-convert output: %v", err)
		return nil
	}
	return img
}

// pixelDiff returns the fraction of pixels where any channel differs by
// more than 16/255.
func pixelDiff(a, b image.Image) float64 {
	if a.Bounds() != b.Bounds() {
		return 1
	}
	r := a.Bounds()
	differ := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			ar, ag, ab, aa := a.At(x, y).RGBA()
			br, bg, bb, ba := b.At(x, y).RGBA()
			for _, d := range [][2]uint32{{ar, br}, {ag, bg}, {ab, bb}, {aa, ba}} {
				if diff := int(d[0]>>8) - int(d[1]>>8); diff > 16 || diff < -16 {
					differ++
					break
				}
			}
		}
	}
	return float64(differ) / float64(r.Dx()*r.Dy())
}

func TestPixelDiffCanFail(t *testing.T) {
	a := image.NewRGBA(image.Rect(0, 0, 10, 10))
	b := image.NewRGBA(image.Rect(0, 0, 10, 10))
	b.Pix[0], b.Pix[3] = 255, 255
	if got := pixelDiff(a, b); got != 0.01 {
		t.Errorf("pixelDiff = %v, want 0.01", got)
	}
}

// TestOptimisedLooksTheSame renders every variant of the shipped collection
// and of the golden tree before and after optimising (the source file and
// the file the build writes), and fails when more than 0.5% of the pixels
// change.
func TestOptimisedLooksTheSame(t *testing.T) {
	if testing.Short() {
		t.Skip("renders every shipped SVG twice with rsvg-convert, which takes a while; run without -short")
	}
	if _, err := exec.LookPath("rsvg-convert"); err != nil {
		testskip.Missing(t, "rsvg-convert", "apt-get install librsvg2-bin")
	}
	type job struct {
		name     string
		src, out []byte
		vbWidth  float64
	}
	var jobs []job
	for _, dir := range []string{"../source-logos", "testdata/golden/src"} {
		tree, _ := buildTree(t, os.DirFS(dir), Options{})
		logos, _ := siteCheckedLogos(t, os.DirFS(dir))
		n := 0
		for _, l := range logos {
			for _, v := range l.Variants {
				name := path.Join(l.Slug, v.Name+".svg")
				src, err := os.ReadFile(path.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				out, ok := tree["logos/"+name]
				if !ok {
					t.Fatalf("%s: the build wrote no logos/%s", dir, name)
				}
				jobs = append(jobs, job{name: path.Join(dir, name), src: src, out: []byte(out), vbWidth: v.Info.ViewBox[2]})
				n++
			}
		}
		// Every SVG the build wrote is compared.
		if shipped := len(only(tree, func(name string) bool { return strings.HasPrefix(name, "logos/") && strings.HasSuffix(name, ".svg") })); shipped != n {
			t.Errorf("%s: the build wrote %d SVGs, %d compared", dir, shipped, n)
		}
	}
	if len(jobs) < 100 {
		t.Fatalf("only %d files to compare; the shipped collection should give hundreds", len(jobs))
	}
	var mu sync.Mutex
	var report []string
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for _, j := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			widths := []int{128}
			if j.vbWidth < 64 {
				widths = append(widths, 512) // small coordinates: look closer
			}
			for _, w := range widths {
				a, b := rsvgRender(t, j.src, w), rsvgRender(t, j.out, w)
				if a == nil || b == nil {
					return
				}
				if d := pixelDiff(a, b); d > 0.005 {
					mu.Lock()
					report = append(report, fmt.Sprintf("%s at %d px: %.2f%% of pixels differ", j.name, w, 100*d))
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	for _, r := range report {
		t.Error(r)
	}
	t.Logf("compared %d files", len(jobs))
}
