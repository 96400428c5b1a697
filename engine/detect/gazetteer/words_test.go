package gazetteer

import (
	"bufio"
	"io/fs"
	"strings"
	"testing"
)

// TestWordFiles checks every rule word list: each declares where its words
// come from, each use it declares is held by some word and loads, and no
// word is listed twice (a second line would hide the first one's uses
// from a reader).
func TestWordFiles(t *testing.T) {
	names, err := fs.Glob(wordFiles, "words/*.txt")
	if err != nil || len(names) == 0 {
		t.Fatalf("no word files: %v", err)
	}
	for _, name := range names {
		file := strings.TrimSuffix(strings.TrimPrefix(name, "words/"), ".txt")
		b, err := fs.ReadFile(wordFiles, name)
		if err != nil {
			t.Fatal(err)
		}
		var uses []string
		seen := map[string]bool{}
		sc := bufio.NewScanner(strings.NewReader(string(b)))
		for sc.Scan() {
			l := sc.Text()
			if u, ok := strings.CutPrefix(l, "# use "); ok {
				u, _, _ = strings.Cut(u, ":")
				uses = append(uses, u)
				continue
			}
			if l == "" || l == "#" || strings.HasPrefix(l, "# ") {
				continue
			}
			w, _, _ := strings.Cut(l, "\t")
			if seen[w] {
				t.Errorf("%s: %q is listed twice", name, w)
			}
			seen[w] = true
		}
		if len(uses) == 0 {
			t.Errorf("%s declares no use", name)
		}
		for _, u := range uses {
			m, err := Words(file, u)
			if err != nil {
				t.Errorf("%v", err)
				continue
			}
			if len(m) == 0 {
				t.Errorf("%s: no word has use %q", name, u)
			}
		}
	}
}

// TestWordsErrors checks that a use no file declares is an error, not an
// empty list that would silently switch a rule off.
func TestWordsErrors(t *testing.T) {
	if _, err := Words("connectors", "nosuchuse"); err == nil {
		t.Error("an undeclared use loaded")
	}
	if _, err := Words("nosuchfile", "name"); err == nil {
		t.Error("a missing file loaded")
	}
	if m, err := Words("connectors", "org"); err != nil || !m["&"] || m["and"] {
		t.Errorf("connectors/org = %v, %v; want \"&\" and not \"and\"", m, err)
	}
	if m, err := Words("labels", "not-phone"); err != nil || !m["#"] {
		t.Errorf("labels/not-phone = %v, %v; want the word \"#\"", m, err)
	}
}
