// Package svgtest holds test helpers that more than one package's tests
// use: a comparison of the picture two SVG documents draw, written apart
// from the code it tests (encoding/xml and regular expressions, not
// package svg), so that the two cannot share a blind spot.
package svgtest

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/google/go-cmp/cmp"
)

// textElements are the elements whose text is compared.
var textElements = map[string]bool{"text": true, "tspan": true, "textPath": true, "title": true, "desc": true, "style": true}

func rawName(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// Elem is an element of an SVG as Compare sees it.
type Elem struct {
	Name     string
	Attrs    map[string]string
	Text     string
	Children []*Elem
}

// The attributes of the root that the component owns.
var componentRootAttrs = map[string]bool{"width": true, "height": true, "role": true}

// Compare compares the picture markup draws with the one file draws:
// the same elements with the same attributes and text, after giving every
// id of file, and every url(#id) and href="#id" reference, the prefix. It
// ignores what does not paint or what the component owns: comments, white
// space between elements, namespace declarations, the root's <title>,
// width, height, role and aria-* attributes. Classes and stylesheets are
// compared with the prefix taken out of markup (TestSVGToJSX checks how
// they are prefixed). It returns a diff, or "".
func Compare(file, markup []byte, prefix string) string {
	want, err := Elems(file, prefix, "")
	if err != nil {
		return "file: " + err.Error()
	}
	got, err := Elems(markup, "", prefix)
	if err != nil {
		return "markup: " + err.Error()
	}
	return cmp.Diff(want, got)
}

var (
	urlRefRE  = regexp.MustCompile(`url\(\s*(['"]?)#`)
	styleDecl = regexp.MustCompile(`\s*;\s*`)
)

// Elems parses data for Compare, prefixing ids and references when
// prefix is set, and taking strip out of classes and stylesheets. Its
// prefixing is written independently of ToJSX's, so that a reference
// ToJSX misses shows up as a difference.
func Elems(data []byte, prefix, strip string) (*Elem, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	var root *Elem
	var stack []*Elem
	for {
		tok, err := d.RawToken()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			e := &Elem{Name: rawName(t.Name), Attrs: map[string]string{}}
			for _, a := range t.Attr {
				name := rawName(a.Name)
				v := a.Value
				if a.Name.Space == "xmlns" || len(stack) == 0 && (componentRootAttrs[name] || strings.HasPrefix(name, "aria-")) {
					continue
				}
				if prefix != "" {
					switch {
					case name == "id":
						v = prefix + v
					case name == "href" || name == "xlink:href":
						if strings.HasPrefix(v, "#") {
							v = "#" + prefix + v[1:]
						}
					default:
						v = urlRefRE.ReplaceAllString(v, "url(${1}#"+prefix)
					}
				}
				if name == "class" && strip != "" {
					v = strings.ReplaceAll(v, strip, "")
				}
				if name == "style" {
					v = strings.Trim(styleDecl.ReplaceAllString(v, ";"), "; ")
					v = regexp.MustCompile(`\s*:\s*`).ReplaceAllString(v, ":")
				}
				e.Attrs[name] = v
			}
			if len(stack) == 0 {
				root = e
			} else {
				parent := stack[len(stack)-1]
				parent.Children = append(parent.Children, e)
			}
			stack = append(stack, e)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 && textElements[stack[len(stack)-1].Name] {
				text := string(t)
				if stack[len(stack)-1].Name == "style" && strip != "" {
					text = strings.ReplaceAll(text, strip, "")
				}
				stack[len(stack)-1].Text += text
			}
		}
	}
	if root == nil {
		return nil, errors.New("no root element")
	}
	root.Children = slices.DeleteFunc(root.Children, func(e *Elem) bool { return e.Name == "title" })
	return root, nil
}
