// Package templates holds the templates the build renders: the HTML pages
// of the site and the component source of the registry. They are embedded
// in the binary so that `logoindex build` works from any folder; edit the
// files here and rebuild, or point -templates at a copy to try changes
// without recompiling.
package templates

import "embed"

// FS holds every template file of this folder.
//
//go:embed *.tmpl
var FS embed.FS
