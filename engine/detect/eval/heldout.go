package eval

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/redactd/redactd/engine/page"
)

// Split is a named held-out part of a labelled corpus.
type Split struct {
	Name    string
	Source  string // which part of which file
	Records []Record
}

// HeldOut reads the held-out test splits of the NER corpora under root
// (shared/data/ner), the same sentences models/ner/train/corpora.py keeps
// out of training, so the detector stack can be scored on text the model
// never saw. Entity types map as in the recipe (PER, ORG, LOC and their
// corpus spellings); locations are read but left out of the counts (see
// NERCategories), since a place name alone is not a postal address.
func HeldOut(root string) ([]Split, error) {
	tsv := columns{tok: 0, tag: 1, sep: "\t", docStart: true}
	ud := columns{tok: 1, tag: 2, sep: "\t", comments: true}
	specs := []struct {
		name, file, source string
		cols               columns
		keep               func(doc int) bool
	}{
		{"wnut17", "wnut17/emerging.test.annotated", "emerging.test.annotated", tsv, nil},
		{"btc", "btc/h.conll", "section h", tsv, nil},
		{"wikigold", "wikigold/wikigold.conll.txt", "every 5th document",
			columns{tok: 0, tag: 1, sep: " ", docStart: true}, func(d int) bool { return d%5 == 4 }},
		{"wikiann", "wikiann_en/test", "test", columns{tok: 0, tag: 1, sep: "\t", strip: "en:"}, nil},
		{"uner_ewt", "uner_english_ewt/en_ewt-ud-test.iob2", "en_ewt-ud-test", ud, nil},
		{"uner_pud", "uner_english_pud/en_pud-ud-test.iob2", "test", ud, nil},
		{"sec", "sec_filings/FIN3.txt", "FIN3", columns{tok: 0, tag: 3, sep: " ", docStart: true}, nil},
	}
	var out []Split
	for _, s := range specs {
		docs, err := s.cols.read(filepath.Join(root, s.file))
		if err != nil {
			return nil, err
		}
		sp := Split{Name: s.name, Source: s.source}
		for i, d := range docs {
			if s.keep == nil || s.keep(i) {
				sp.Records = append(sp.Records, d...)
			}
		}
		out = append(out, sp)
	}
	return out, nil
}

// NERCategories are the categories the NER corpora label.
var NERCategories = []page.Category{page.Person, page.Organization}

// nerTypes maps the corpora's entity type names as the recipe does
// (corpora.py TYPE_MAP); LOC stays a type with no category (ignored).
var nerTypes = map[string]string{
	"PER": "PER", "PERSON": "PER", "person": "PER",
	"ORG": "ORG", "ORGANIZATION": "ORG", "corporation": "ORG", "group": "ORG",
	"LOC": "LOC", "LOCATION": "LOC", "location": "LOC", "GPE": "LOC",
}

// columns describes one CoNLL-style layout, as corpora.py's _read_columns.
type columns struct {
	tok, tag int
	sep      string // field separator; "" splits on white space
	comments bool   // "#" lines are comments, "# newdoc" starts a document
	docStart bool   // -DOCSTART- lines start a document
	strip    string // prefix removed from tokens
}

// read returns the file's documents, each a list of sentences as records
// (tokens joined by single spaces, IO or BIO tags turned into spans).
func (c columns) read(path string) ([][]Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	defer f.Close()
	var (
		docs [][]Record
		doc  []Record
		sent sentence
	)
	endSent := func() {
		if r, ok := sent.record(); ok {
			doc = append(doc, r)
		}
		sent = sentence{}
	}
	endDoc := func() {
		endSent()
		if len(doc) > 0 {
			docs = append(docs, doc)
		}
		doc = nil
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if c.comments && strings.HasPrefix(line, "#") {
			if strings.HasPrefix(line, "# newdoc") {
				endDoc()
			}
			continue
		}
		if strings.TrimSpace(line) == "" {
			endSent()
			continue
		}
		var fs []string
		if c.sep == "" {
			fs = strings.Fields(line)
		} else {
			fs = strings.Split(line, c.sep)
		}
		if c.docStart && fs[0] == "-DOCSTART-" {
			endDoc()
			continue
		}
		if len(fs) <= max(c.tok, c.tag) {
			continue
		}
		sent.add(strings.TrimPrefix(fs[c.tok], c.strip), fs[c.tag])
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("eval: %s: %w", path, err)
	}
	endDoc()
	return docs, nil
}

// sentence builds one record from tagged tokens.
type sentence struct {
	b     strings.Builder
	spans []Gold
	prev  string // type of the previous token's entity, "" outside
}

// add appends a token; an entity starts at a B- tag or a change of type
// (IO tags mark only the type), as corpora.py's _to_bio.
func (s *sentence) add(tok, tag string) {
	tok = strings.TrimSpace(tok)
	if tok == "" {
		return
	}
	if s.b.Len() > 0 {
		s.b.WriteByte(' ')
	}
	start := s.b.Len()
	s.b.WriteString(tok)
	prefix, raw, ok := strings.Cut(tag, "-")
	typ := nerTypes[raw]
	if !ok || typ == "" {
		s.prev = ""
		return
	}
	if prefix == "B" || s.prev != typ {
		s.spans = append(s.spans, Gold{Start: start, End: s.b.Len(), Type: typ, Category: nerCategory[typ]})
	} else {
		s.spans[len(s.spans)-1].End = s.b.Len()
	}
	s.prev = typ
}

var nerCategory = map[string]page.Category{"PER": page.Person, "ORG": page.Organization}

func (s *sentence) record() (Record, bool) {
	if s.b.Len() == 0 {
		return Record{}, false
	}
	return Record{Text: s.b.String(), Spans: s.spans}, true
}
