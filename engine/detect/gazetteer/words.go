package gazetteer

import (
	"bufio"
	"embed"
	"fmt"
	"slices"
	"strings"
)

// The rule word lists: short hand-written lists of function words, labels
// and cue words that the recognizers and rules of engine/detect read.
// Unlike data/, they are not generated: they are edited by hand, and
// their provenance is written in each file's header.
//
// Each file (words/NAME.txt) holds one family of lists, one word per line
// followed by a tab and the uses it has, separated by spaces:
//
//	# What the family is.
//	# source: where the words come from.
//	# use name: what a word with this use does.
//	de	name street org
//
// A word serves every use named on its line, so lists that overlap (the
// particles of a surname, of a street name and of an organization's name)
// are one list whose differences are visible on each line. Words are kept
// as written (lower case, except where a use says otherwise). Comments
// start with "# "; the word "#" is written as itself, a tab and its uses.
//
//go:embed words/*.txt
var wordFiles embed.FS

// Words returns the words of family file (words/file.txt) that have the
// given use. It fails when the file has no "# source:" line, a line
// names a use its header does not declare, or the use is not declared:
// a list must say where it comes from and what each use means.
func Words(file, use string) (map[string]bool, error) {
	f, err := wordFiles.Open("words/" + file + ".txt")
	if err != nil {
		return nil, fmt.Errorf("gazetteer: %w", err)
	}
	defer f.Close()
	var (
		declared []string
		source   bool
		out      = map[string]bool{}
		sc       = bufio.NewScanner(f)
		n        int
	)
	for sc.Scan() {
		n++
		l := sc.Text()
		switch {
		case l == "":
			continue
		case strings.HasPrefix(l, "# source:"):
			source = true
			continue
		case strings.HasPrefix(l, "# use "):
			name, _, ok := strings.Cut(strings.TrimPrefix(l, "# use "), ":")
			if !ok || strings.ContainsAny(name, " \t") {
				return nil, fmt.Errorf("gazetteer: words/%s.txt:%d: malformed use declaration", file, n)
			}
			declared = append(declared, name)
			continue
		case l == "#" || strings.HasPrefix(l, "# "):
			continue // a comment; the word "#" is "#", a tab and its uses
		}
		word, uses, ok := strings.Cut(l, "\t")
		if !ok || word == "" || uses == "" {
			return nil, fmt.Errorf("gazetteer: words/%s.txt:%d: want word, tab, uses", file, n)
		}
		for _, u := range strings.Fields(uses) {
			if !slices.Contains(declared, u) {
				return nil, fmt.Errorf("gazetteer: words/%s.txt:%d: use %q is not declared", file, n, u)
			}
			if u == use {
				out[word] = true
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("gazetteer: words/%s.txt: %w", file, err)
	}
	if !source {
		return nil, fmt.Errorf("gazetteer: words/%s.txt: no \"# source:\" line", file)
	}
	if !slices.Contains(declared, use) {
		return nil, fmt.Errorf("gazetteer: words/%s.txt: use %q is not declared", file, use)
	}
	return out, nil
}

// MustWords is Words for package-level variables. The files are embedded,
// so an error is a build defect that every test of engine/detect shows;
// it panics.
func MustWords(file, use string) map[string]bool {
	m, err := Words(file, use)
	if err != nil {
		panic(err)
	}
	return m
}
