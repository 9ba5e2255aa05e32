package render

import (
	"reflect"
	"strconv"
	"strings"
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
	w := shapeWalker{spaced: spaced, ok: true}
	in := reflect.ValueOf(data)
	out := reflect.New(in.Type()).Elem()
	w.copy(out, in, false)
	return shaped{data: out.Interface(), key: w.key.String(), values: w.values}, w.ok
}

// shapeWalker builds a shaped copy of a value.
type shapeWalker struct {
	spaced func(string) (bool, bool)
	key    strings.Builder
	values []string
	ok     bool
	buf    []byte
}

// copy sets dst, which is settable, to a copy of src with its text values
// replaced; literal keeps strings as they are, as part of the key.
func (w *shapeWalker) copy(dst, src reflect.Value, literal bool) {
	switch src.Kind() {
	case reflect.String:
		w.text(dst, src.String(), literal)
		return
	case reflect.Bool:
		w.key.WriteString(strconv.FormatBool(src.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		w.key.WriteString(strconv.FormatInt(src.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		w.key.WriteString(strconv.FormatUint(src.Uint(), 10))
	case reflect.Struct:
		w.structure(dst, src)
		return
	case reflect.Slice:
		w.list(dst, src, literal)
		return
	case reflect.Pointer:
		if src.IsNil() {
			w.key.WriteByte('N')
			break
		}
		p := reflect.New(src.Type().Elem())
		w.copy(p.Elem(), src.Elem(), literal)
		dst.Set(p)
		return
	default:
		w.ok = false // a kind no template data of the site has: maps among them
	}
	dst.Set(src)
	w.key.WriteByte(';')
}

func (w *shapeWalker) text(dst reflect.Value, s string, literal bool) {
	switch {
	case literal:
		w.key.WriteString(strconv.Quote(s))
		dst.SetString(s)
		return
	case s == "":
		w.key.WriteString("E;")
		return
	}
	spaced, ok := w.spaced(s)
	w.ok = w.ok && ok
	if spaced {
		w.key.WriteString("S;")
	} else {
		w.key.WriteString("V;")
	}
	w.buf = placeholder(w.buf[:0], len(w.values), spaced)
	w.values = append(w.values, s)
	dst.SetString(string(w.buf))
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
	if !src.CanAddr() {
		a := reflect.New(src.Type()).Elem()
		a.Set(src)
		src = a
	}
	dst.Set(src) // fields no template reads, as they are
	w.key.WriteByte('{')
	for _, f := range fieldsOf(src.Type()) {
		s, d := src.Field(f.index), dst.Field(f.index)
		if f.hidden {
			s = reflect.NewAt(s.Type(), unsafe.Pointer(s.UnsafeAddr())).Elem()
			d = reflect.NewAt(d.Type(), unsafe.Pointer(d.UnsafeAddr())).Elem()
		}
		w.copy(d, s, f.literal)
	}
	w.key.WriteByte('}')
}

func (w *shapeWalker) list(dst, src reflect.Value, literal bool) {
	if src.IsNil() {
		w.key.WriteString("N;")
		return
	}
	c := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
	w.key.WriteString("[" + strconv.Itoa(src.Len()))
	for i := range src.Len() {
		w.copy(c.Index(i), src.Index(i), literal)
	}
	w.key.WriteByte(']')
	dst.Set(c)
}
