package generator

import "io/fs"

// renderSite renders the HTML pages and CDN files of the site from the
// templates in tmpl (issue 4: gallery, logo pages, _headers). details[i] is
// the detail JSON of col.Logos[i].
func renderSite(col *Collection, opts RenderOptions, tmpl fs.FS, idx *Index, details []Detail) ([]OutFile, error) {
	return nil, nil
}
