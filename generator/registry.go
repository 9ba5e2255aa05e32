package generator

import "io/fs"

// renderRegistry renders the shadcn registry under r/ from the component
// template in tmpl (issue 8).
func renderRegistry(col *Collection, opts RenderOptions, tmpl fs.FS) ([]OutFile, error) {
	return nil, nil
}
