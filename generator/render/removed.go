package render

import (
	"io"
	"strings"

	"logoindex/generator/source"
)

// Removed is a logo of removed.yaml, as its pages and JSON say it.
type Removed struct {
	source.Removal
	// ReplacementName is the display name of the logo that replaces it.
	ReplacementName string
}

// redirectsFile is the file of redirects Netlify and Cloudflare Pages
// read, beside _headers; like it, it is never published to a bucket.
const redirectsFile = "_redirects"

// tombstone is the detail JSON of a removed logo.
func (r *Renderer) tombstone(rm *Removed) Tombstone {
	t := Tombstone{Slug: rm.Slug, Removed: rm.Removed, ReplacedBy: rm.ReplacedBy, Reason: rm.Reason}
	if rm.ReplacedBy != "" {
		t.Replacement = r.base + "/api/logos/" + rm.ReplacedBy + ".json"
	}
	return t
}

// removedFiles hands emit the files of the removed logos: each one's
// tombstone at its detail URL and its page at its page's, and _redirects,
// which sends the URLs of a replaced logo to its replacement's.
func (r *Renderer) removedFiles(removed []Removed, emit func(name string, write func(io.Writer) error) error) error {
	var redirects strings.Builder
	root := basePath(r.base)
	for i := range removed {
		rm := &removed[i]
		b, err := marshal(r.tombstone(rm))
		if err != nil {
			return err
		}
		if err := emitAll([]File{{Name: "api/logos/" + rm.Slug + ".json", Data: append(b, '\n')}}, emit); err != nil {
			return err
		}
		page, err := r.site.removedPage(rm)
		if err != nil {
			return err
		}
		if err := emitAll([]File{page}, emit); err != nil {
			return err
		}
		if rm.ReplacedBy != "" {
			redirects.WriteString(root + logoDir(rm.Slug) + "/* " + root + logoDir(rm.ReplacedBy) + "/:splat 301\n")
		}
	}
	if redirects.Len() == 0 {
		return nil
	}
	return emitAll([]File{{Name: redirectsFile, Data: []byte(redirects.String())}}, emit)
}

// removedData is the data of site-removed.html.tmpl.
type removedData struct {
	pageData
	Removed
	// Replacement is the replacement's page, relative to this one.
	Replacement string
}

// removedPage is the page at a removed logo's address: when and why it
// was removed, and a link to its replacement, which a browser follows by
// itself.
func (r *siteRenderer) removedPage(rm *Removed) (File, error) {
	d := removedData{
		pageData: pageData{
			Title:       rm.Slug + " was removed · Logo index",
			Description: "The logo " + rm.Slug + " was removed from the collection on " + rm.Removed + ".",
			Root:        logoRoot, CSS: r.css, JS: r.js, Icon: logoRoot + faviconFile, Page: "removed",
		},
		Removed: *rm,
	}
	if rm.ReplacedBy != "" {
		d.Replacement = "../" + rm.ReplacedBy + "/"
		d.Refresh = "0; url=" + d.Replacement
	}
	return r.page(logoDir(rm.Slug)+"/index.html", siteRemovedTmpl, d)
}
