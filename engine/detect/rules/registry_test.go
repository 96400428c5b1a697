package rules

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode"
)

// TestRegistryFiles holds every registered rule to one rule, one type,
// one file (and the type to a step or a growPart, so that it runs): its File is its name in snake case ("drop-title-only":
// drop_title_only.go), and that file declares the rule's type (impl),
// named after the rule in camel case (dropTitleOnly), with all of the
// type's methods. Every rule has its own datadriven file, Testdata, named
// as the rule, under engine/detect/testdata/rules (engine/detect's
// TestRuleCases runs it and requires a case there that the rule changes).
func TestRegistryFiles(t *testing.T) {
	decls := typeFiles(t)
	seen := map[string]bool{}
	for _, r := range Rules {
		if seen[r.Name] {
			t.Errorf("rule %s registered twice", r.Name)
		}
		seen[r.Name] = true
		if _, err := os.Stat(r.File); err != nil {
			t.Errorf("rule %s: File: %v", r.Name, err)
		}
		if _, err := os.Stat(filepath.Join("..", "testdata", "rules", r.Testdata)); err != nil || r.Testdata != r.Name {
			t.Errorf("rule %s has no datadriven file testdata/rules/%s (Testdata %q)", r.Name, r.Name, r.Testdata)
		}
		if problem := ownType(r, decls); problem != "" {
			t.Errorf("rule %s: %s", r.Name, problem)
		}
		// applyRules runs steps and the grow rule runs parts: a type
		// that is neither (or both) would never run (or run twice).
		_, isStep := r.impl.(step)
		_, isPart := r.impl.(growPart)
		switch {
		case isStep == isPart:
			t.Errorf("rule %s: its type %T must be a step or a growPart, and only one", r.Name, r.impl)
		case isPart && (r.beforeMerge || r.merge):
			t.Errorf("rule %s: a grow part runs on the merged spans and is merged by grow (beforeMerge, merge)", r.Name)
		}
	}
}

// ownType says what keeps r from being one type in one file of its own
// ("" when nothing does).
func ownType(r Rule, decls map[string][]string) string {
	file := strings.ReplaceAll(r.Name, "-", "_") + ".go"
	if r.File != file {
		return "File is " + r.File + ", not " + file
	}
	if r.impl == nil {
		return "no type of its own (impl)"
	}
	typ := reflect.TypeOf(r.impl).Name()
	if want := camel(r.Name); typ != want {
		return "its type is " + typ + ", not " + want
	}
	files := decls[typ]
	if len(files) == 0 {
		return "type " + typ + " is not declared in the package"
	}
	for _, f := range files {
		if f != file {
			return "type " + typ + " or a method of it is in " + f + ", not " + file
		}
	}
	return ""
}

// camel writes a rule's name in camel case: "drop-title-only" is
// dropTitleOnly.
func camel(name string) string {
	var b strings.Builder
	for i, w := range strings.Split(name, "-") {
		if i > 0 && w != "" {
			w = string(unicode.ToUpper(rune(w[0]))) + w[1:]
		}
		b.WriteString(w)
	}
	return b.String()
}

// typeFiles maps every type declared in the package (tests left out) to
// the files that declare it or a method of it.
func typeFiles(t *testing.T) map[string][]string {
	t.Helper()
	fs := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fs, n, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok {
						out[ts.Name.Name] = append(out[ts.Name.Name], n)
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil {
					continue
				}
				x := d.Recv.List[0].Type
				if s, ok := x.(*ast.StarExpr); ok {
					x = s.X
				}
				if id, ok := x.(*ast.Ident); ok {
					out[id.Name] = append(out[id.Name], n)
				}
			}
		}
	}
	return out
}
