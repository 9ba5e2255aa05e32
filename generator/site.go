package generator

import "io/fs"

// renderSite renders the HTML pages and CDN files of the site from the
// templates in tmpl (issue 4: gallery, logo pages, _headers).
func renderSite(col *Collection, opts RenderOptions, tmpl fs.FS, idx *Index) ([]OutFile, error) {
	return nil, nil
}
