package problem

// Code names the rule a problem breaks, in kebab-case: "hex-invalid",
// "svg-element-not-allowed". Codes are a stable interface for tools and CI
// (check -format github and -format json show them) where messages are
// free to improve: a code, once published, keeps its meaning, and a rule
// that changes meaning gets a new code. One rule has one code whatever
// file it is found in. The "Problem codes" table of docs/source-format.md
// lists every code in this order; a test keeps the two in step.
type Code string

// Files and folders of the source tree.
const (
	// FileUnreadable: a file or folder cannot be read (permissions, I/O).
	FileUnreadable Code = "file-unreadable"
	// FileSymlink: a symbolic link; links are never followed.
	FileSymlink Code = "file-symlink"
	// FileNotRegular: a device, pipe or socket, or a folder where a file belongs.
	FileNotRegular Code = "file-not-regular"
	// FileUnexpected: a file or folder the source layout has no place for.
	FileUnexpected Code = "file-unexpected"
	// FileMissing: categories.yaml, or a logo's logo.yaml or icon.svg, is missing.
	FileMissing Code = "file-missing"
	// FileTooLarge: a file is over its size limit and was not read.
	FileTooLarge Code = "file-too-large"
	// SVGLarge (warning): an SVG is large enough that it likely needs re-exporting.
	SVGLarge Code = "svg-large"
	// SlugInvalid: a logo folder's name, or a category slug, is not a valid slug or is reserved.
	SlugInvalid Code = "slug-invalid"
	// SlugCollision: two logo folders differ only in case, or a slug would
	// write a file that another logo or the collection writes.
	SlugCollision Code = "slug-collision"
	// EncodingInvalid: a file is not UTF-8, or an SVG declares another encoding.
	EncodingInvalid Code = "encoding-invalid"
	// FileIgnored (warning): with -strict only, a file .logoindexignore or
	// a default pattern ignores, such as .DS_Store, is in the source tree.
	FileIgnored Code = "file-ignored"
	// IgnorePatternInvalid: a line of .logoindexignore is not a pattern, or
	// a pattern ignores a source file (logo.yaml, an SVG variant).
	IgnorePatternInvalid Code = "ignore-pattern-invalid"
	// PatternUnmatched: a logo pattern given to check or build is not a
	// pattern on slugs, or selects no logo.
	PatternUnmatched Code = "pattern-unmatched"
)

// The YAML files: logo.yaml and categories.yaml.
const (
	// YAMLInvalid: not YAML the build reads: a syntax error, an empty file,
	// several documents, an alias, or a root of the wrong kind.
	YAMLInvalid Code = "yaml-invalid"
	// KeyUnknown: a key (or a files: variant) the file does not define.
	KeyUnknown Code = "key-unknown"
	// KeyDuplicate: a key given twice in one mapping.
	KeyDuplicate Code = "key-duplicate"
	// KeyMissing: a required key is absent (source and license have codes of their own).
	KeyMissing Code = "key-missing"
	// ValueEmpty: a key has an empty value.
	ValueEmpty Code = "value-empty"
	// TypeInvalid: a value of the wrong kind: a list where one value
	// belongs, a value where a mapping belongs.
	TypeInvalid Code = "type-invalid"
	// TextInvalid: text with a control, line-break or bidirectional
	// character, or over its length limit.
	TextInvalid Code = "text-invalid"
	// ListSize: a list with too few or too many entries.
	ListSize Code = "list-size"
	// ValueDuplicate: an entry listed twice (a category, an alias, a category slug).
	ValueDuplicate Code = "value-duplicate"
	// SourceMissing: logo.yaml does not say where the artwork comes from
	// (source: absent or empty).
	SourceMissing Code = "source-missing"
	// LicenseMissing: logo.yaml does not give the artwork's licence
	// (license: absent or empty).
	LicenseMissing Code = "license-missing"
	// LicenseInvalid: a licence that is not a current SPDX identifier or LicenseRef-<name>.
	LicenseInvalid Code = "license-invalid"
	// LicenseURLMissing: a LicenseRef-<name> licence without license_url.
	LicenseURLMissing Code = "license-url-missing"
	// ViaIncomplete: a via: that does not give the distribution's name,
	// the version the file was taken from and its URL, all three.
	ViaIncomplete Code = "via-incomplete"
	// ViaVersionUnpinned: a via: version that names no one release: a
	// range (^1.2.0, >=1), a wildcard (1.x) or a tag or branch that moves
	// (latest, main).
	ViaVersionUnpinned Code = "via-version-unpinned"
	// URLInvalid: a URL that is not an absolute http(s) URL.
	URLInvalid Code = "url-invalid"
	// HexInvalid: hex is not a colour written #RRGGBB.
	HexInvalid Code = "hex-invalid"
	// CategoryUnknown: a logo names a category categories.yaml does not list.
	CategoryUnknown Code = "category-unknown"
	// ComponentInvalid: component is not a PascalCase JS identifier, or is a reserved word.
	ComponentInvalid Code = "component-invalid"
	// ComponentDuplicate: a component name (given or default) that another
	// logo or the component template already declares.
	ComponentDuplicate Code = "component-duplicate"
	// InstallInvalid: install is not one plain command line.
	InstallInvalid Code = "install-invalid"
	// FilesUnused: files: describes a variant file the logo does not have.
	FilesUnused Code = "files-unused"
)

// removed.yaml: the logos the collection no longer has.
const (
	// RemovedLive: removed.yaml lists a slug that is still a logo folder.
	RemovedLive Code = "removed-live"
	// RemovedReplacementUnknown: a replaced_by that names no logo of the
	// collection.
	RemovedReplacementUnknown Code = "removed-replacement-unknown"
	// RemovedChain: a replaced_by that is itself removed; name the logo
	// that is live now.
	RemovedChain Code = "removed-chain"
	// RemovedDateInvalid: removed is not a date written YYYY-MM-DD.
	RemovedDateInvalid Code = "removed-date-invalid"
	// RemovedDuplicate: a slug listed twice in removed.yaml.
	RemovedDuplicate Code = "removed-duplicate"
	// StaticCollision: a file of _static/ has the path of a file the
	// build writes.
	StaticCollision Code = "static-collision"
	// OutputStray (warning): the output folder holds a file no build
	// wrote, which the new tree leaves out; its place is _static/.
	OutputStray Code = "output-stray"
	// LogoDropped: a logo of the published index (check -published) is
	// neither a logo folder nor in removed.yaml: its URLs would stop
	// answering.
	LogoDropped Code = "logo-dropped"
)

// Brand checks across a logo's files; these are warnings.
const (
	// ContrastLow (warning): the brand colour or the wordmark reads poorly on a
	// dark page, and the logo has no dark variant.
	ContrastLow Code = "contrast-low"
	// HexUnused (warning): icon.svg never paints the brand colour.
	HexUnused Code = "hex-unused"
)

// The SVG files.
const (
	// SVGInvalid: not an SVG logo: empty, a PNG, binary, an HTML document,
	// no <svg> root in the SVG namespace.
	SVGInvalid Code = "svg-invalid"
	// XMLInvalid: not well-formed XML (or XML namespaces).
	XMLInvalid Code = "xml-invalid"
	// XMLNotAllowed: a DOCTYPE, an entity declaration or a processing instruction.
	XMLNotAllowed Code = "xml-not-allowed"
	// SVGTooComplex: more elements, nesting, attributes or drawn copies than
	// a logo needs, or more steps to match its <style> rules and resolve
	// its paint and references.
	SVGTooComplex Code = "svg-too-complex"
	// SVGElementNotAllowed: an element outside the allowlist.
	SVGElementNotAllowed Code = "svg-element-not-allowed"
	// SVGAttributeNotAllowed: an attribute outside the allowlist, an event
	// handler, or a javascript: URL.
	SVGAttributeNotAllowed Code = "svg-attribute-not-allowed"
	// SVGAttributeUnused (warning): an attribute that does nothing on its
	// element; it is not published.
	SVGAttributeUnused Code = "svg-attribute-unused"
	// SVGValueInvalid: an attribute or CSS value that cannot be read: a
	// number, path data, a transform, a colour.
	SVGValueInvalid Code = "svg-value-invalid"
	// SVGViewBoxInvalid: the root has no viewBox, or a viewBox is not four
	// numbers with a positive size.
	SVGViewBoxInvalid Code = "svg-viewbox-invalid"
	// SVGIDDuplicate: an id used twice.
	SVGIDDuplicate Code = "svg-id-duplicate"
	// SVGReferenceExternal: an href or url() that points outside the document.
	SVGReferenceExternal Code = "svg-reference-external"
	// SVGReferenceMissing: a reference to an id the document does not have;
	// a warning where the reference draws nothing and is dropped.
	SVGReferenceMissing Code = "svg-reference-missing"
	// SVGReferenceCycle: references that lead back to where they start.
	SVGReferenceCycle Code = "svg-reference-cycle"
	// SVGReferenceInvalid: a reference to an element it cannot use.
	SVGReferenceInvalid Code = "svg-reference-invalid"
	// SVGCSSInvalid: CSS that cannot be read.
	SVGCSSInvalid Code = "svg-css-invalid"
	// SVGCSSNotAllowed: CSS a logo may not use: an at-rule other than
	// @media, a property or function outside the allowlist, a selector
	// that could reach outside the logo.
	SVGCSSNotAllowed Code = "svg-css-not-allowed"
	// SVGCSSTooDeep: CSS blocks (@media in @media) or functions and
	// parentheses (calc( in calc() nested deeper than a logo needs.
	SVGCSSTooDeep Code = "svg-css-too-deep"
	// SVGRootStyle: styling of the root <svg> that moves it, resizes it or
	// lets it paint outside its box when it is inlined in a page.
	SVGRootStyle Code = "svg-root-style"
	// SVGRootOverflow (warning): an overflow attribute on the root <svg>,
	// which design tools write and the optimiser drops, so that the
	// published logo never paints outside its box.
	SVGRootOverflow Code = "svg-root-overflow"
	// SVGMonoColour: icon-mono paints something other than currentColor.
	SVGMonoColour Code = "svg-mono-colour"
	// SVGSpacePreserve: text under xml:space="preserve" whose spaces the optimiser would collapse.
	SVGSpacePreserve Code = "svg-space-preserve"
)

// Internal: a bug in logoindex, not in the input; please report it.
const Internal Code = "internal"
