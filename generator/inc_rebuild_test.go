package generator

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator/outtree"
	"logoindex/generator/problem"
	"logoindex/generator/render"
	"logoindex/internal/testtree"
)

// incSource is a source folder for the rebuild tests, with the edits they
// make to it.
type incSource struct {
	dir   string
	logo  string // the logo edited
	other string // the logo removed and added back
	// Edits of the logo: its name (logo.yaml), its artwork (icon.svg),
	// one that gives a warning (logo.yaml).
	nameFrom, nameTo, artFrom, artTo, warnFrom, warnTo string
	// darkFrom is the logo whose icon-dark.svg is added to the logo, which
	// has none.
	darkFrom string
	pattern  string // of a partial build, which selects the logo
}

var incGolden = incSource{
	dir: "testdata/golden/src", logo: "acme", other: "night-owl",
	nameFrom: "name: Acme & Co.", nameTo: "name: Acme and Co.",
	artFrom: "M 2.000 2.000 L 22.000", artTo: "M 2.000 2.000 L 21.000",
	warnFrom: "hex: ff5500", warnTo: "hex: 123456",
	darkFrom: "night-owl", pattern: "ac*",
}

var incShipped = incSource{
	dir: "../source-logos", logo: "docker", other: "github",
	nameFrom: "name: Docker", nameTo: "name: Docker Inc",
	artFrom: "M13.983 11.078", artTo: "M13.984 11.078",
	warnFrom: `hex: "#2496ED"`, warnTo: `hex: "#2496EE"`,
	darkFrom: "github", pattern: "dock*",
}

// What a step's build should leave as it was.
const (
	incTouchesAny = iota
	incKeepsDist  // the output folder: every file and folder's inode, mtime and ctime
	incKeepsTrees // and the state folder, but for the build log
	incKeepsAll   // and the build log
)

// How many logos a step's build should make anew, besides a count.
const (
	incComputedAny  = 0
	incComputedAll  = -1
	incComputedNone = -2
)

// incStep is one change between two builds of a rebuild test.
type incStep struct {
	name string
	// edit changes the sources, the output or the state folder, or the
	// options of the builds from this one on (r.opts).
	edit func(t *testing.T, r *incRun)
	// build: the options of this build alone.
	build    func(o *Options)
	fails    bool // the build fails, with problems
	upToDate bool
	computed int // logos made anew: incComputedAny (unset), incComputedAll, incComputedNone or a count
	keeps    int // incTouchesAny, incKeepsDist, incKeepsTrees or incKeepsAll
	// strays: the output's paths that the build warns it leaves out, on
	// top of a clean build's warnings.
	strays []string
}

// incRun is a source folder and an output folder that builds go through.
type incRun struct {
	s        incSource
	src, out string
	opts     Options
}

func (r *incRun) path(rel string) string { return filepath.Join(r.src, filepath.FromSlash(rel)) }

func (r *incRun) state(rel string) string {
	return filepath.Join(outtree.StateDir(r.out), filepath.FromSlash(rel))
}

func incMove(t *testing.T, from, to string) {
	t.Helper()
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
}

func incRemove(t *testing.T, name string) {
	t.Helper()
	if err := os.RemoveAll(name); err != nil {
		t.Fatal(err)
	}
}

func incRead(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// incSteps is the sequence of edits of a rebuild test. Each build after
// the first goes through the output and state of the ones before it.
func incSteps(s incSource) []incStep {
	var brokenIcon []byte // the icon a broken edit replaced
	return []incStep{
		{name: "first build", computed: incComputedAll},
		{name: "no change", upToDate: true, keeps: incKeepsAll},
		{name: "the artwork edited", edit: func(t *testing.T, r *incRun) {
			editFile(t, r.path(s.logo+"/icon.svg"), s.artFrom, s.artTo)
		}, computed: 1},
		{name: "the standby prepared", edit: func(t *testing.T, r *incRun) {
			before := incStats(t, r.out, false)
			if err := PrepareStandby(r.out); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(before, incStats(t, r.out, false)); diff != "" {
				t.Errorf("PrepareStandby touched the output (-before +after):\n%s", diff)
			}
			if diff := cmp.Diff(testtree.Read(t, r.out), testtree.Read(t, r.state("standby"))); diff != "" {
				t.Errorf("the standby prepared differs from the output (-output +standby):\n%s", diff)
			}
		}, upToDate: true, keeps: incKeepsAll},
		{name: "the artwork back, into a prepared standby", edit: func(t *testing.T, r *incRun) {
			editFile(t, r.path(s.logo+"/icon.svg"), s.artTo, s.artFrom)
		}, computed: 1},
		{name: "an ignored file added to a logo", edit: func(t *testing.T, r *incRun) {
			writeFile(t, r.path(s.logo+"/.DS_Store"), []byte("x"))
		}, upToDate: true, keeps: incKeepsTrees},
		{name: "the categories edited", edit: func(t *testing.T, r *incRun) {
			b := incRead(t, r.path("categories.yaml"))
			writeFile(t, r.path("categories.yaml"), append(b, "- {slug: zzz, name: Last}\n"...))
		}, computed: incComputedAll},
		{name: "the categories back", edit: func(t *testing.T, r *incRun) {
			b := incRead(t, r.path("categories.yaml"))
			writeFile(t, r.path("categories.yaml"), []byte(strings.TrimSuffix(string(b), "- {slug: zzz, name: Last}\n")))
		}, computed: incComputedAll},
		{name: "the name edited", edit: func(t *testing.T, r *incRun) {
			editFile(t, r.path(s.logo+"/logo.yaml"), s.nameFrom, s.nameTo)
		}, computed: 1},
		{name: "the name back", edit: func(t *testing.T, r *incRun) {
			editFile(t, r.path(s.logo+"/logo.yaml"), s.nameTo, s.nameFrom)
		}, computed: 1},
		{name: "a logo removed", edit: func(t *testing.T, r *incRun) {
			incMove(t, r.path(s.other), filepath.Join(filepath.Dir(r.src), "away"))
		}, computed: incComputedNone},
		{name: "no change after a removal", upToDate: true, keeps: incKeepsAll},
		{name: "the name edited after a removal", edit: func(t *testing.T, r *incRun) {
			editFile(t, r.path(s.logo+"/logo.yaml"), s.nameFrom, s.nameTo)
		}, computed: 1},
		{name: "the logo added back", edit: func(t *testing.T, r *incRun) {
			incMove(t, filepath.Join(filepath.Dir(r.src), "away"), r.path(s.other))
		}, computed: 1},
		{name: "a variant added", edit: func(t *testing.T, r *incRun) {
			writeFile(t, r.path(s.logo+"/icon-dark.svg"), incRead(t, r.path(s.darkFrom+"/icon-dark.svg")))
		}, computed: 1},
		{name: "the variant removed", edit: func(t *testing.T, r *incRun) {
			incRemove(t, r.path(s.logo+"/icon-dark.svg"))
		}, computed: 1},
		{name: "a source touched, not changed", edit: func(t *testing.T, r *incRun) {
			later := time.Now().Add(3 * time.Second)
			if err := os.Chtimes(r.path(s.logo+"/icon.svg"), later, later); err != nil {
				t.Fatal(err)
			}
		}, upToDate: true, keeps: incKeepsTrees},
		{name: "a source written again, the same bytes", edit: func(t *testing.T, r *incRun) {
			writeFile(t, r.path(s.other+"/logo.yaml"), incRead(t, r.path(s.other+"/logo.yaml")))
		}, upToDate: true, keeps: incKeepsTrees},
		{name: "a logo's file deleted from the output", edit: func(t *testing.T, r *incRun) {
			incRemove(t, filepath.Join(r.out, "logos", s.logo, "icon.svg"))
		}, computed: 1},
		{name: "a file of the collection deleted from the output", edit: func(t *testing.T, r *incRun) {
			incRemove(t, filepath.Join(r.out, "index.html"))
		}, computed: incComputedNone},
		{name: "junk added to the output", edit: func(t *testing.T, r *incRun) {
			writeFile(t, filepath.Join(r.out, "junk.txt"), []byte("junk"))
			writeFile(t, filepath.Join(r.out, "logos", s.logo, "junk.svg"), []byte("junk"))
			writeFile(t, filepath.Join(r.out, "logos/junk/deep/junk.svg"), []byte("junk"))
		}, computed: incComputedNone, strays: []string{"junk.txt", "logos/" + s.logo + "/junk.svg", "logos/junk"}},
		{name: "junk added to the standby", edit: func(t *testing.T, r *incRun) {
			writeFile(t, r.state("standby/junk.txt"), []byte("junk"))
			writeFile(t, r.state("standby/logos/"+s.logo+"/junk.svg"), []byte("junk"))
			writeFile(t, r.state("standby/logos/junk/deep/junk.svg"), []byte("junk"))
		}, upToDate: true, keeps: incKeepsDist},
		{name: "the name back, the standby made live", edit: func(t *testing.T, r *incRun) {
			editFile(t, r.path(s.logo+"/logo.yaml"), s.nameTo, s.nameFrom)
		}, computed: 1},
		{name: "the artwork edited, the junk's tree made live", edit: func(t *testing.T, r *incRun) {
			editFile(t, r.path(s.logo+"/icon.svg"), s.artFrom, s.artTo)
		}, computed: 1},
		{name: "the build log deleted", edit: func(t *testing.T, r *incRun) {
			incRemove(t, r.state("cache"))
		}, computed: incComputedAll},
		{name: "the trees' records deleted", edit: func(t *testing.T, r *incRun) {
			incRemove(t, r.state("trees"))
		}},
		{name: "the trees' records cut short", edit: func(t *testing.T, r *incRun) {
			b := incRead(t, r.state("trees"))
			writeFile(t, r.state("trees"), b[:len(b)/2])
		}},
		{name: "the standby deleted", edit: func(t *testing.T, r *incRun) {
			incRemove(t, r.state("standby"))
		}, upToDate: true, keeps: incKeepsDist},
		{name: "the artwork back, with no standby", edit: func(t *testing.T, r *incRun) {
			editFile(t, r.path(s.logo+"/icon.svg"), s.artTo, s.artFrom)
		}, computed: 1},
		{name: "the output deleted", edit: func(t *testing.T, r *incRun) {
			incRemove(t, r.out)
		}},
		{name: "a broken edit", edit: func(t *testing.T, r *incRun) {
			brokenIcon = incRead(t, r.path(s.logo+"/icon.svg"))
			editFile(t, r.path(s.logo+"/icon.svg"), "<svg", `<svg onload="alert(1)"`)
			editFile(t, r.path(s.other+"/logo.yaml"), "name: ", "name: Renamed ") // and a good one
		}, fails: true, keeps: incKeepsDist},
		{name: "a broken rebuild", build: func(o *Options) { o.Rebuild = true }, fails: true, keeps: incKeepsDist},
		{name: "fixed", edit: func(t *testing.T, r *incRun) {
			writeFile(t, r.path(s.logo+"/icon.svg"), brokenIcon)
		}},
		{name: "the good edit undone", edit: func(t *testing.T, r *incRun) {
			editFile(t, r.path(s.other+"/logo.yaml"), "name: Renamed ", "name: ")
		}, computed: 1},
		{name: "an edit that warns", edit: func(t *testing.T, r *incRun) {
			editFile(t, r.path(s.logo+"/logo.yaml"), s.warnFrom, s.warnTo)
		}, computed: 1},
		{name: "no change, warnings from the log", upToDate: true, keeps: incKeepsAll},
		{name: "strict fails on the warning", build: func(o *Options) { o.Strict = true }, fails: true, keeps: incKeepsDist},
		{name: "the source folder renamed", edit: func(t *testing.T, r *incRun) {
			to := filepath.Join(filepath.Dir(r.src), "renamed")
			incMove(t, r.src, to)
			r.src, r.opts.Dir = to, "elsewhere/renamed"
		}, upToDate: true, keeps: incKeepsDist},
		{name: "strict fails on the warning at its new path", build: func(o *Options) { o.Strict = true }, fails: true, keeps: incKeepsDist},
		{name: "the warning fixed", edit: func(t *testing.T, r *incRun) {
			editFile(t, r.path(s.logo+"/logo.yaml"), s.warnTo, s.warnFrom)
		}, computed: 1},
		{name: "a partial build", edit: func(t *testing.T, r *incRun) {
			editFile(t, r.path(s.logo+"/logo.yaml"), s.nameFrom, s.nameTo)
		}, build: func(o *Options) { o.Logos = []string{s.pattern} }},
		{name: "a full build after the partial one"},
		{name: "no change after the partial one", upToDate: true, keeps: incKeepsAll},
		{name: "a rebuild", build: func(o *Options) { o.Rebuild = true }, computed: incComputedAll},
		{name: "the name back after a rebuild", edit: func(t *testing.T, r *incRun) {
			editFile(t, r.path(s.logo+"/logo.yaml"), s.nameTo, s.nameFrom)
		}, computed: 1},
		{name: "no change at the end", upToDate: true, keeps: incKeepsAll},
	}
}

// TestRebuildsGolden runs the rebuild steps on the golden sources, with
// the build log dated an hour ahead (every source stands by its stat, and
// a build with nothing to do writes nothing at all) and, without -short,
// as builds leave it (a source just written is racy: read again).
func TestRebuildsGolden(t *testing.T) {
	for _, aged := range []bool{true, false} {
		t.Run(map[bool]string{false: "fresh", true: "aged"}[aged], func(t *testing.T) {
			if !aged && testing.Short() {
				t.Skip("the same steps again; skipped with -short")
			}
			incRebuilds(t, incGolden, aged)
		})
	}
}

// TestRebuildsShipped runs the rebuild steps on the shipped collection.
func TestRebuildsShipped(t *testing.T) {
	if testing.Short() {
		t.Skip("about 150 builds of the shipped collection; skipped with -short")
	}
	for _, aged := range []bool{true, false} {
		t.Run(map[bool]string{false: "fresh", true: "aged"}[aged], func(t *testing.T) { incRebuilds(t, incShipped, aged) })
	}
}

// incRebuilds runs the steps of s through one output folder. After each,
// the output must be what a clean build of the sources writes, byte for
// byte and folder for folder, with the same warnings; a build that fails
// leaves the output as it was; and a build with nothing to do (UpToDate)
// touches nothing.
func incRebuilds(t *testing.T, s incSource, aged bool) {
	r := &incRun{s: s, src: copyDir(t, s.dir)}
	r.out = filepath.Join(t.TempDir(), "dist")
	r.opts = Options{Dir: "src", Out: r.out, Render: render.Options{BaseURL: "https://logos.example.com"}}
	for _, step := range incSteps(s) {
		if aged {
			incAgeLog(t, r.src, r.out)
		}
		if step.edit != nil {
			step.edit(t, r)
		}
		opts := r.opts
		if step.build != nil {
			step.build(&opts)
		}
		keeps := step.keeps
		if !aged {
			keeps = min(keeps, incKeepsTrees) // a racy source is read and its entry put again
		}
		// A build with nothing to do makes no link either: the ctimes stay.
		ctime := step.upToDate
		dist, state := incStats(t, r.out, ctime), incStats(t, outtree.StateDir(r.out), ctime)
		res, err := Build(context.Background(), os.DirFS(r.src), opts)
		if step.fails {
			var probs ProblemList
			if !errors.As(err, &probs) {
				t.Fatalf("%s: the build gave %v, %+v; want it to fail with problems", step.name, err, res)
			}
		} else if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if keeps >= incKeepsDist {
			if diff := cmp.Diff(dist, incStats(t, r.out, ctime)); diff != "" {
				t.Errorf("%s: the build touched the output (-before +after):\n%s", step.name, diff)
			}
		}
		if keeps >= incKeepsTrees {
			after := incStats(t, outtree.StateDir(r.out), ctime)
			if keeps == incKeepsTrees {
				// The log written again, and the folder it is in.
				for _, m := range []map[string]string{state, after} {
					delete(m, "cache")
					delete(m, "cache-spare")
					delete(m, ".")
				}
			}
			if diff := cmp.Diff(state, after); diff != "" {
				t.Errorf("%s: the build wrote the state folder (-before +after):\n%s", step.name, diff)
			}
		}
		if extra := incLeftovers(t, r.out); len(extra) > 0 {
			t.Errorf("%s: the build left %q in the state folder", step.name, extra)
		}
		if step.fails {
			continue
		}
		clean := incClean(t, r.src, opts)
		if diff := cmp.Diff(clean.tree, testtree.Read(t, r.out)); diff != "" {
			t.Errorf("%s: the output differs from a clean build's (-clean +rebuild):\n%s", step.name, diff)
		}
		warnings, strays := incStrays(r.out, res.Warnings)
		if diff := cmp.Diff(step.strays, strays); diff != "" {
			t.Errorf("%s: the files of the output warned of (-want +got):\n%s", step.name, diff)
		}
		if got := warnings.Error(); got != clean.warnings {
			t.Errorf("%s: warnings\n%s\nwant a clean build's:\n%s", step.name, got, clean.warnings)
		}
		if res.CacheError != nil {
			t.Errorf("%s: %v", step.name, res.CacheError)
		}
		if res.UpToDate != step.upToDate && step.build == nil {
			t.Errorf("%s: UpToDate %v, want %v", step.name, res.UpToDate, step.upToDate)
		}
		if res.Logos != clean.logos || res.Files != clean.files {
			t.Errorf("%s: %d logos and %d files, a clean build %d and %d", step.name, res.Logos, res.Files, clean.logos, clean.files)
		}
		switch want := step.computed; {
		case want == incComputedAll && res.Computed != res.Logos,
			want == incComputedNone && res.Computed != 0,
			want > 0 && res.Computed != want:
			t.Errorf("%s: %d logos of %d made anew, want %s", step.name, res.Computed, res.Logos, incComputedName(want))
		}
		if step.name == "the source folder renamed" && !strings.Contains(clean.warnings, "elsewhere/renamed/"+s.logo+"/logo.yaml") {
			t.Errorf("%s: the clean build's warnings name no file of the folder as named: %s", step.name, clean.warnings)
		}
	}
}

func incComputedName(n int) string {
	switch n {
	case incComputedAll:
		return "all"
	case incComputedNone:
		return "none"
	}
	return strconv.Itoa(n)
}

// TestConcurrentBuilds builds one output from several goroutines at once,
// for two base URLs: each build waits for the one before it, and the
// output is always a clean build's tree of one or the other.
func TestConcurrentBuilds(t *testing.T) {
	src := copyDir(t, "testdata/golden/src")
	out := filepath.Join(t.TempDir(), "dist")
	bases := []string{"https://a.example", "https://b.example"}
	want := map[string]bool{}
	opts := func(base string) Options {
		return Options{Dir: "src", Out: out, Render: render.Options{BaseURL: base}}
	}
	for _, base := range bases {
		want[incDigest(incClean(t, src, opts(base)).tree)] = true
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 3 {
				if _, err := Build(context.Background(), os.DirFS(src), opts(bases[(g+i)%2])); err != nil {
					t.Error(err)
					return
				}
				if !want[incDigest(testtree.Read(t, out))] {
					t.Error("the output is neither base URL's tree")
				}
			}
		})
	}
	wg.Wait()
	res, err := Build(context.Background(), os.DirFS(src), opts(bases[0]))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(incClean(t, src, opts(bases[0])).tree, testtree.Read(t, out)); diff != "" {
		t.Errorf("the build after them (-clean +got):\n%s", diff)
	}
	if extra := incLeftovers(t, out); len(extra) > 0 || res.CacheError != nil {
		t.Errorf("left %q, cache error %v", extra, res.CacheError)
	}
}

// incStrays splits the output-stray warnings from the others, giving
// the paths they name in out.
func incStrays(out string, warnings ProblemList) (ProblemList, []string) {
	var rest ProblemList
	var strays []string
	for _, p := range warnings {
		if p.Code != problem.OutputStray {
			rest = append(rest, p)
			continue
		}
		strays = append(strays, strings.TrimPrefix(p.Path, filepath.ToSlash(out)+"/"))
	}
	return rest, strays
}
