package render

import (
	"reflect"
	"strconv"
	"sync"
	"unsafe"
)

// A template executed for thousands of logos is executed once for each
// shape of its data instead: the data with each text value replaced by a
// placeholder (placeholders). The output of that run, its skeleton, is
// the output of every page of the shape but for the values, which are
// then filled in (skeleton.go). The shape is everything a template can
// branch on: which strings are empty, the length of each list, every
// number and boolean, and the strings marked `skeleton:"literal"` (values
// from a small set, which a template may compare). A map makes its data
// unfit: a template may range over it in the order of its keys.

// shaped is a copy of a template's data with placeholders for its values.
type shaped struct {
	data any
	// key names the shape: two data of one key give one skeleton.
	key string
	// values are the text values, by the number of their placeholder.
	values []string
}

// placeholder is the text that stands for value i in a skeleton: "Qz",
// i, then "q", or " q" for a spaced value (quoted attributes: see fits).
func placeholder(b []byte, i int, spaced bool) []byte {
	b = strconv.AppendInt(append(b, "Qz"...), int64(i), 10)
	if spaced {
		b = append(b, ' ')
	}
	return append(b, 'q')
}

// placeholders returns the shape of data, whose values are placed by
// spaced: it reports whether a value gets a spaced placeholder, or false
// when the value cannot be filled in at all (the page is then executed
// whole).
func placeholders(data any, spaced func(string) (bool, bool)) (shaped, bool) {
	w := shapeWalker{spaced: spaced, ok: true, copying: true}
	in := reflect.ValueOf(data)
	out := reflect.New(in.Type()).Elem()
	w.copy(out, in, false)
	return shaped{data: out.Interface(), key: string(w.key), values: w.values}, w.ok
}

// shapeOf reads the shape of data into w, as placeholders does but
// without the copy with placeholders, which only making a skeleton needs:
// w.key and w.values then hold its key and values, and w.ok whether it
// is fit for a skeleton. w is reused from one page to the next.
func (w *shapeWalker) shapeOf(data any, spaced func(string) (bool, bool)) {
	*w = shapeWalker{spaced: spaced, ok: true, key: w.key[:0], values: w.values[:0], buf: w.buf}
	w.copy(reflect.Value{}, reflect.ValueOf(data), false)
}

// walkers are shapeWalkers for shapeOf, kept from page to page.
var walkers = sync.Pool{New: func() any { return new(shapeWalker) }}

// shapeWalker reads the shape of a value and, when copying, builds a copy
// of it with placeholders for its values.
type shapeWalker struct {
	spaced  func(string) (bool, bool)
	copying bool
	key     []byte
	values  []string
	ok      bool
	buf     []byte
}

// copy reads src and, when copying, sets dst, which is settable, to a
// copy of src with its text values replaced; literal keeps strings as
// they are, as part of the key.
func (w *shapeWalker) copy(dst, src reflect.Value, literal bool) {
	switch src.Kind() {
	case reflect.String:
		w.text(dst, src.String(), literal)
		return
	case reflect.Bool:
		w.key = strconv.AppendBool(w.key, src.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		w.key = strconv.AppendInt(w.key, src.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		w.key = strconv.AppendUint(w.key, src.Uint(), 10)
	case reflect.Struct:
		w.structure(dst, src)
		return
	case reflect.Slice:
		w.list(dst, src, literal)
		return
	case reflect.Pointer:
		if src.IsNil() {
			w.key = append(w.key, 'N')
			break
		}
		if !w.copying {
			w.copy(dst, src.Elem(), literal)
			return
		}
		p := reflect.New(src.Type().Elem())
		w.copy(p.Elem(), src.Elem(), literal)
		dst.Set(p)
		return
	default:
		w.ok = false // a kind no template data of the site has: maps among them
	}
	if w.copying {
		dst.Set(src)
	}
	w.key = append(w.key, ';')
}

func (w *shapeWalker) text(dst reflect.Value, s string, literal bool) {
	switch {
	case literal:
		w.key = strconv.AppendQuote(w.key, s)
		if w.copying {
			dst.SetString(s)
		}
		return
	case s == "":
		w.key = append(w.key, "E;"...)
		return
	}
	spaced, ok := w.spaced(s)
	w.ok = w.ok && ok
	if spaced {
		w.key = append(w.key, "S;"...)
	} else {
		w.key = append(w.key, "V;"...)
	}
	if w.copying {
		w.buf = placeholder(w.buf[:0], len(w.values), spaced)
		dst.SetString(string(w.buf))
	}
	w.values = append(w.values, s)
}

// shapeField is a field of a struct as the walker reads it.
type shapeField struct {
	index   int
	literal bool // tagged `skeleton:"literal"`
	hidden  bool // an embedded struct of an unexported type
}

// shapeFields holds the fields of each struct type the walker has read.
var shapeFields sync.Map // reflect.Type -> []shapeField

func fieldsOf(t reflect.Type) []shapeField {
	if fs, ok := shapeFields.Load(t); ok {
		return fs.([]shapeField)
	}
	var fs []shapeField
	for i := range t.NumField() {
		f := t.Field(i)
		if f.IsExported() || f.Anonymous {
			fs = append(fs, shapeField{index: i, literal: f.Tag.Get("skeleton") == "literal", hidden: !f.IsExported()})
		}
	}
	shapeFields.Store(t, fs)
	return fs
}

// structure copies a struct, field by field. An embedded struct of an
// unexported type, whose fields a template reads as the outer struct's,
// is read and set through its address.
func (w *shapeWalker) structure(dst, src reflect.Value) {
	if !w.copying {
		w.fields(dst, src)
		return
	}
	if !src.CanAddr() {
		a := reflect.New(src.Type()).Elem()
		a.Set(src)
		src = a
	}
	dst.Set(src) // fields no template reads, as they are
	w.fields(dst, src)
}

// fields reads, and when copying copies, the fields of a struct a
// template reads.
func (w *shapeWalker) fields(dst, src reflect.Value) {
	w.key = append(w.key, '{')
	for _, f := range fieldsOf(src.Type()) {
		s := src.Field(f.index)
		var d reflect.Value
		if w.copying {
			d = dst.Field(f.index)
			if f.hidden {
				s = reflect.NewAt(s.Type(), unsafe.Pointer(s.UnsafeAddr())).Elem()
				d = reflect.NewAt(d.Type(), unsafe.Pointer(d.UnsafeAddr())).Elem()
			}
		}
		w.copy(d, s, f.literal)
	}
	w.key = append(w.key, '}')
}

func (w *shapeWalker) list(dst, src reflect.Value, literal bool) {
	if src.IsNil() {
		w.key = append(w.key, "N;"...)
		return
	}
	w.key = append(w.key, '[')
	w.key = strconv.AppendInt(w.key, int64(src.Len()), 10)
	if !w.copying {
		for i := range src.Len() {
			w.copy(reflect.Value{}, src.Index(i), literal)
		}
		w.key = append(w.key, ']')
		return
	}
	c := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
	for i := range src.Len() {
		w.copy(c.Index(i), src.Index(i), literal)
	}
	w.key = append(w.key, ']')
	dst.Set(c)
}
