package testtree

import "testing/fstest"

// The files of a valid logo, for tests of the build's stages to start
// from and break.
const (
	Categories = "- {slug: devtools, name: Developer tools}\n- {slug: social, name: Social}\n"
	Icon       = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="#FC6D26"><title>X</title><path d="M0 0h24v24H0z"/></svg>`
	Mono       = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="currentColor"><path d="M0 0h24v24H0z"/></svg>`
)

// Meta is a valid logo.yaml for a logo of name and brand colour hex.
func Meta(name, hex string) string {
	return "name: " + name + "\nhex: \"" + hex + "\"\ncategories: [devtools]\nsource: https://example.com/press\nlicense: CC0-1.0\n"
}

// Sources is a valid source tree with two logos, for tests to break.
func Sources() fstest.MapFS {
	return fstest.MapFS{
		"categories.yaml":      {Data: []byte(Categories)},
		"gitlab/logo.yaml":     {Data: []byte(Meta("GitLab", "#FC6D26"))},
		"gitlab/icon.svg":      {Data: []byte(Icon)},
		"gitlab/icon-mono.svg": {Data: []byte(Mono)},
		"gitea/logo.yaml":      {Data: []byte(Meta("Gitea", "#FC6D26"))},
		"gitea/icon.svg":       {Data: []byte(Icon)},
	}
}
