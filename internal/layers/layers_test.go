package layers

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// mod is the module; every path below is relative to it unless it has a
// dot in its first element (another module).
const mod = "github.com/redactd/redactd"

// The packages the rules name. When one moves, change it here.
var (
	jobService = pkg("engine/jobs") // the job service
	pipeline   = tree("engine/pipeline")
	mupdf      = tree("engine/pipeline/mupdf")
	goFitz     = tree("github.com/gen2brain/go-fitz")
	detect     = tree("engine/detect")
	models     = tree("models")
	config     = pkg("engine/config")
	testKits   = tree("internal/testkit")
	httpLayer  = tree("server")
	daemon     = pkg("cmd/redactd")
	clientCLI  = pkg("cmd/redact")
	jobLog     = tree("engine/store/joblog")
	storeLog   = tree("engine/store/storelog")
	webhook    = tree("engine/webhook")
	contract   = pkg("engine/contract")
	records    = pkg("engine/store/record")
	storeIface = pkg("engine/store")
	reviewPure = pkg("engine/review")
	pageModel  = pkg("engine/page")
	// langID is the language identifier: a leaf (its own rule below),
	// so the NER model that routes by a block's language may read its
	// Result without linking the detection around it.
	langID = pkg("engine/detect/lang")
	// components are what cmd/redactd assembles: everything that takes
	// its own settings rather than reading the Config.
	components = []pattern{tree("engine"), tree("server"), tree("models"), tree("kernels")}
	// ownModule is every package of the module.
	ownModule = tree("")
)

// rules is the layering. A rule applies to the packages matched by from,
// less those matched by except, and forbids each of them to link
// (import, directly or not, in non-test code) a package matched by not,
// unless allow matches it. exceptions are known breaches: each names
// the packages and why the breach stands.
var rules = []rule{
	{
		name: "the pipeline links no job service",
		from: []pattern{pipeline},
		not:  []pattern{jobService, jobLog, storeLog, webhook},
	},
	{
		name:  "the models link no detection, pipeline or job service",
		from:  []pattern{models},
		not:   []pattern{detect, pipeline, jobService},
		allow: []pattern{langID},
		exceptions: []exception{{
			pkgs: tree("models/ner/internal/gendocs"),
			why: "the NER recipe's generator of training documents writes the documents eval.Generated " +
				"draws (another seed), so the recipe trains on the layouts the evaluation scores; it sits " +
				"under models/ner for the recipe's train.sh. Moving it beside engine/detect/eval removes this.",
		}, {
			pkgs: tree("models/ner/internal/nereval"),
			why: "the NER recipe's evaluation command scores what the service masks, so it runs " +
				"engine/detect and pipeline.Detectors; it sits under models/ner for the recipe's Makefile " +
				"(make -C models/ner eval, gate). Moving it beside engine/detect/eval removes this.",
		}},
	},
	{
		name: "the job service links no pipeline and no MuPDF",
		from: []pattern{jobService},
		not:  []pattern{pipeline, mupdf, goFitz},
	},
	{
		name: "the HTTP layer links no pipeline and no MuPDF",
		from: []pattern{httpLayer},
		not:  []pattern{pipeline, mupdf, goFitz},
	},
	{
		name:   "components take their own settings, not the Config",
		from:   components,
		except: []pattern{config},
		not:    []pattern{config},
	},
	{
		name: "the daemon and the client CLI link no test kit",
		from: []pattern{daemon, clientCLI},
		not:  []pattern{testKits},
	},
	{
		name:  "the contract is a leaf over the page model",
		from:  []pattern{contract},
		not:   []pattern{ownModule},
		allow: []pattern{contract, pageModel},
	},
	{
		name:  "the language identifier is a leaf",
		from:  []pattern{langID},
		not:   []pattern{ownModule},
		allow: []pattern{langID},
	},
	{
		name:  "the review state is pure",
		from:  []pattern{reviewPure},
		not:   []pattern{ownModule},
		allow: []pattern{reviewPure, contract, pageModel},
	},
	{
		name:  "the storage contracts are leaves",
		from:  []pattern{records, storeIface},
		not:   []pattern{ownModule},
		allow: []pattern{records, storeIface},
	},
}

type rule struct {
	name       string
	from       []pattern
	except     []pattern
	not        []pattern
	allow      []pattern
	exceptions []exception
}

type exception struct {
	pkgs pattern
	why  string
}

// pattern matches one package (pkg) or a package and those below it
// (tree).
type pattern struct {
	path    string // full import path
	subtree bool
}

func full(p string) string {
	first, _, _ := strings.Cut(p, "/")
	switch {
	case p == "":
		return mod
	case strings.Contains(first, "."):
		return p
	}
	return mod + "/" + p
}

func pkg(p string) pattern  { return pattern{path: full(p)} }
func tree(p string) pattern { return pattern{path: full(p), subtree: true} }

func (p pattern) match(path string) bool {
	return path == p.path || p.subtree && strings.HasPrefix(path, p.path+"/")
}

func (p pattern) String() string {
	s := strings.TrimPrefix(strings.TrimPrefix(p.path, mod), "/")
	if p.path == mod {
		s = "(module)"
	}
	if p.subtree {
		s += "/..."
	}
	return s
}

func matchAny(ps []pattern, path string) bool {
	return slices.ContainsFunc(ps, func(p pattern) bool { return p.match(path) })
}

// graph is the import graph of the module's non-test code and
// everything it links.
type graph struct {
	own     []string            // the module's packages, sorted
	imports map[string][]string // package -> its direct imports
}

// loadGraph runs go list once over the module.
func loadGraph(t *testing.T) *graph {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-f",
		"{{if .DepOnly}}dep{{else}}own{{end}} {{.ImportPath}}{{range .Imports}} {{.}}{{end}}", mod+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	g := &graph{imports: map[string][]string{}}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 {
			continue
		}
		g.imports[f[1]] = f[2:]
		if f[0] == "own" {
			g.own = append(g.own, f[1])
		}
	}
	if len(g.own) == 0 {
		t.Fatal("go list found no package of the module")
	}
	slices.Sort(g.own)
	return g
}

// breach returns the import chain from p to the first package it links
// that bad matches, or nil.
func (g *graph) breach(p string, bad func(string) bool) []string {
	prev := map[string]string{p: ""}
	queue := []string{p}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if cur != p && bad(cur) {
			var chain []string
			for n := cur; n != ""; n = prev[n] {
				chain = append(chain, n)
			}
			slices.Reverse(chain)
			return chain
		}
		for _, next := range g.imports[cur] {
			if _, seen := prev[next]; !seen {
				prev[next] = cur
				queue = append(queue, next)
			}
		}
	}
	return nil
}

func short(chain []string) string {
	s := make([]string, len(chain))
	for i, p := range chain {
		s[i] = strings.TrimPrefix(p, mod+"/")
	}
	return strings.Join(s, " → ")
}

// TestLayering checks every rule on the module's import graph.
func TestLayering(t *testing.T) {
	g := loadGraph(t)
	known := func(p pattern) bool {
		for q := range g.imports {
			if p.match(q) {
				return true
			}
		}
		return false
	}
	for _, r := range rules {
		// A path that names no package is a table gone stale after a
		// move: the rule would pass by checking nothing.
		for _, ps := range [][]pattern{r.from, r.except, r.not, r.allow} {
			for _, p := range ps {
				if !known(p) {
					t.Errorf("rule %q names %s, which is no package: update the table in layers_test.go", r.name, p)
				}
			}
		}
		bad := func(q string) bool { return matchAny(r.not, q) && !matchAny(r.allow, q) }
		needed := make([]bool, len(r.exceptions))
		checked := 0
		for _, p := range g.own {
			if !matchAny(r.from, p) || matchAny(r.except, p) {
				continue
			}
			checked++
			chain := g.breach(p, bad)
			if chain == nil {
				continue
			}
			if i := slices.IndexFunc(r.exceptions, func(e exception) bool { return e.pkgs.match(p) }); i >= 0 {
				needed[i] = true
				continue
			}
			t.Errorf("%s: %s", r.name, short(chain))
		}
		if checked == 0 {
			t.Errorf("rule %q applies to no package", r.name)
		}
		for i, e := range r.exceptions {
			if !known(e.pkgs) {
				t.Errorf("rule %q: exception %s is no package: update the table", r.name, e.pkgs)
			} else if !needed[i] {
				t.Errorf("rule %q: exception %s is no longer needed: remove it from the table", r.name, e.pkgs)
			}
		}
	}
}

// TestPatterns: a tree is the package and those below it, never a
// sibling that shares a prefix of its name.
func TestPatterns(t *testing.T) {
	for _, c := range []struct {
		p    pattern
		path string
		want bool
	}{
		{pkg("engine"), mod + "/engine", true},
		{pkg("engine"), mod + "/engine/pipeline", false},
		{tree("engine/detect"), mod + "/engine/detect", true},
		{tree("engine/detect"), mod + "/engine/detect/rules", true},
		{tree("engine/detect"), mod + "/engine/detectx", false},
		{tree("github.com/gen2brain/go-fitz"), "github.com/gen2brain/go-fitz", true},
		{tree(""), mod + "/server", true},
		{tree(""), "github.com/redactd/redactdx", false},
	} {
		if got := c.p.match(c.path); got != c.want {
			t.Errorf("%v.match(%s) = %v", c.p, c.path, got)
		}
	}
	if s := fmt.Sprint(tree("engine/detect")); s != "engine/detect/..." {
		t.Errorf("String %q", s)
	}
}

// TestNoRootPackages: engine/ is a folder of siblings, each one stage of
// a document's path or one service; no package at its root holds
// behaviour (issue 44), so the folder tree and the import graph say the
// same thing.
func TestNoRootPackages(t *testing.T) {
	g := loadGraph(t)
	for _, root := range []string{"engine"} {
		if slices.Contains(g.own, mod+"/"+root) {
			t.Errorf("%s/ holds a package of its own; it is a folder of siblings: move its code into one of them", root)
		}
	}
}
