package main

import (
	"fmt"
	"image"
	"math"
	"runtime"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// librsvg renders in this process with the librsvg and cairo that
// rsvg-convert links, called as rsvg-convert 2.54 calls them (its
// src/bin/rsvg-convert.rs with -w N -h N -a and PNG output). Starting
// rsvg-convert is most of the cost of a render, and a call here has none
// of it. renderersAgree checks the two give the same pixels on a sample of
// every run.
//
// The functions are loaded with purego (dlopen without cgo), so neither a C
// compiler nor librsvg's headers are needed, and the bench still builds
// where the libraries are missing: newLibrsvg fails and rsvg-convert runs.
type librsvg struct{ version string }

// rsvgDimensions is RsvgDimensionData; em and ex hold the natural size
// before rounding, which is what rsvg-convert sizes by.
type rsvgDimensions struct {
	Width, Height int32
	Em, Ex        float64
}

// rsvgRectangle is RsvgRectangle.
type rsvgRectangle struct{ X, Y, Width, Height float64 }

// librsvgFuncs holds the C functions, loaded once.
type librsvgFuncs struct {
	once sync.Once
	err  error

	newFromData    func(data []byte, n uintptr, gerr *uintptr) uintptr
	setDPI         func(h uintptr, dpi float64)
	getDimensions  func(h uintptr, d *rsvgDimensions)
	renderDocument func(h, cr uintptr, viewport *rsvgRectangle, gerr *uintptr) bool
	objectUnref    func(p uintptr)
	errorFree      func(gerr uintptr)

	surfaceCreate  func(format, w, h int32) uintptr
	surfaceStatus  func(s uintptr) int32
	surfaceFlush   func(s uintptr)
	surfaceData    func(s uintptr) unsafe.Pointer
	surfaceStride  func(s uintptr) int32
	surfaceDestroy func(s uintptr)
	create         func(s uintptr) uintptr
	translate      func(cr uintptr, x, y float64)
	scale          func(cr uintptr, x, y float64)
	destroy        func(cr uintptr)
	cairoVersion   func() string

	version string
}

var lib librsvgFuncs

func loadLibrsvg() error {
	lib.once.Do(func() {
		open := func(name string) uintptr {
			if lib.err != nil {
				return 0
			}
			h, err := purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_GLOBAL)
			if err != nil {
				lib.err = err
			}
			return h
		}
		rsvg, cairo := open("librsvg-2.so.2"), open("libcairo.so.2")
		gobject, glib := open("libgobject-2.0.so.0"), open("libglib-2.0.so.0")
		if lib.err != nil {
			return
		}
		defer func() {
			// RegisterLibFunc panics on a missing symbol: an older librsvg.
			if r := recover(); r != nil {
				lib.err = fmt.Errorf("%v", r)
			}
		}()
		purego.RegisterLibFunc(&lib.newFromData, rsvg, "rsvg_handle_new_from_data")
		purego.RegisterLibFunc(&lib.setDPI, rsvg, "rsvg_handle_set_dpi")
		purego.RegisterLibFunc(&lib.getDimensions, rsvg, "rsvg_handle_get_dimensions")
		purego.RegisterLibFunc(&lib.renderDocument, rsvg, "rsvg_handle_render_document")
		purego.RegisterLibFunc(&lib.objectUnref, gobject, "g_object_unref")
		purego.RegisterLibFunc(&lib.errorFree, glib, "g_error_free")
		purego.RegisterLibFunc(&lib.surfaceCreate, cairo, "cairo_image_surface_create")
		purego.RegisterLibFunc(&lib.surfaceStatus, cairo, "cairo_surface_status")
		purego.RegisterLibFunc(&lib.surfaceFlush, cairo, "cairo_surface_flush")
		purego.RegisterLibFunc(&lib.surfaceData, cairo, "cairo_image_surface_get_data")
		purego.RegisterLibFunc(&lib.surfaceStride, cairo, "cairo_image_surface_get_stride")
		purego.RegisterLibFunc(&lib.surfaceDestroy, cairo, "cairo_surface_destroy")
		purego.RegisterLibFunc(&lib.create, cairo, "cairo_create")
		purego.RegisterLibFunc(&lib.translate, cairo, "cairo_translate")
		purego.RegisterLibFunc(&lib.scale, cairo, "cairo_scale")
		purego.RegisterLibFunc(&lib.destroy, cairo, "cairo_destroy")
		purego.RegisterLibFunc(&lib.cairoVersion, cairo, "cairo_version_string")
		lib.version = "cairo " + lib.cairoVersion()
	})
	return lib.err
}

// newLibrsvg loads librsvg and cairo, or says why it cannot. version is
// rsvg-convert's, whose library this is.
func newLibrsvg(version string) (renderer, error) {
	if err := loadLibrsvg(); err != nil {
		return nil, fmt.Errorf("librsvg in process: %w", err)
	}
	return &librsvg{version: fmt.Sprintf("librsvg %s in process, %s", version, lib.version)}, nil
}

func (l *librsvg) String() string { return l.version }

const cairoFormatARGB32 = 0

func (l *librsvg) render(svg []byte, size int) (image.Image, error) {
	var gerr uintptr
	h := lib.newFromData(svg, uintptr(len(svg)), &gerr)
	runtime.KeepAlive(svg)
	if h == 0 {
		lib.freeError(gerr)
		return nil, errRender
	}
	defer lib.objectUnref(h)
	lib.setDPI(h, 96) // rsvg-convert's default
	var d rsvgDimensions
	lib.getDimensions(h, &d)
	w, ht, ok := fitSize(d.Em, d.Ex, float64(size))
	if !ok {
		return nil, errRender // rsvg-convert: "The SVG has no dimensions"
	}
	width, height := math.Ceil(w), math.Ceil(ht) // rsvg-convert's ceil, not to chop a partial pixel
	if width > 32767 || height > 32767 {
		return nil, errRender
	}
	s := lib.surfaceCreate(cairoFormatARGB32, int32(width), int32(height))
	defer lib.surfaceDestroy(s)
	if lib.surfaceStatus(s) != 0 {
		return nil, errRender
	}
	cr := lib.create(s)
	lib.translate(cr, 0, 0)
	lib.scale(cr, w/d.Em, ht/d.Ex)
	viewport := rsvgRectangle{0, 0, d.Em, d.Ex}
	ok = lib.renderDocument(h, cr, &viewport, &gerr)
	lib.destroy(cr)
	if !ok {
		lib.freeError(gerr)
		return nil, errRender
	}
	lib.surfaceFlush(s)
	stride := int(lib.surfaceStride(s))
	data := unsafe.Slice((*byte)(lib.surfaceData(s)), stride*int(height))
	return cairoImage(data, int(width), int(height), stride), nil
}

// freeError frees a GError the library set, if any.
func (f *librsvgFuncs) freeError(gerr uintptr) {
	if gerr != 0 {
		f.errorFree(gerr)
	}
}
