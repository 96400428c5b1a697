package eval

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/page"
)

// Split is one labelled corpus, with its held-out test part (Records) and
// its dev part (Dev). Rules and thresholds are tuned on Dev only; Records
// are read for the report and the floor gate (models/ner/internal/nereval)
// and nothing else.
type Split struct {
	Name string
	// Lang is the ISO 639-1 code of the corpus's language.
	Lang    string
	Domain  string // news, encyclopaedic, fiction, e-mail, web, tweets, finance, parliament
	Source  string // which part of which file is the test split
	Records []Record
	// DevSource names the dev split; Dev is empty where a corpus has only
	// a test part (uner_pud).
	DevSource string
	Dev       []Record
}

// HeldOut reads every NER corpus under root (shared/data/ner) and returns
// its test and dev splits. For the corpora the recipe trains on, the test
// splits are the sentences models/ner/train/corpora.py keeps out of
// training, and a dev split may be a training section (its NER scores are
// then optimistic: use it to compare rules, not models). The corpora added
// for issue 14 (crossner, litbank, wnut16, re3d, europarl, enron, gum) are
// never trained on; where a folder ships no split the split is drawn
// deterministically (see the specs below and docs/ner-experiments.md).
//
// Entity types map to PER, ORG and LOC (corpus-specific names in
// nerTypes); PER and ORG count for Person and Organization, LOC is read
// but left out of the Person/Organization counts (see NERCategories) and
// scored on its own (a place name alone is not a postal address).
// Corpora that annotate every mention of an entity, pronouns and common
// nouns included (gum, litbank, re3d, enron), count only the name words of
// a mention (see nameWords).
func HeldOut(root string) ([]Split, error) {
	tsv := columns{tok: 0, tag: 1, sep: "\t", docStart: true}
	ud := columns{tok: 1, tag: 2, sep: "\t", comments: true}
	specs := []spec{
		{"wnut17", "tweets", tsv, part{[]string{"wnut17/emerging.test.annotated"}, "emerging.test.annotated", nil},
			part{[]string{"wnut17/emerging.dev.conll"}, "emerging.dev", nil}, false},
		{"btc", "tweets", tsv, part{[]string{"btc/h.conll"}, "section h", nil},
			part{[]string{"btc/e.conll"}, "section e (trained on)", nil}, false},
		{"wnut16", "tweets", tsv, part{[]string{"wnut16/test"}, "test", nil},
			part{[]string{"wnut16/dev"}, "dev", nil}, false},
		{"wikigold", "encyclopaedic", columns{tok: 0, tag: 1, sep: " ", docStart: true},
			part{[]string{"wikigold/wikigold.conll.txt"}, "every 5th document", every(5, 4)},
			part{[]string{"wikigold/wikigold.conll.txt"}, "documents 5n+3 (trained on)", every(5, 3)}, false},
		{"wikiann", "encyclopaedic", columns{tok: 0, tag: 1, sep: "\t", strip: "en:"},
			part{[]string{"wikiann_en/test"}, "test", nil}, part{[]string{"wikiann_en/dev"}, "dev", nil}, false},
		{"crossner", "encyclopaedic", columns{tok: 0, tag: 1, sep: "\t"},
			part{crossnerFiles("test"), "*_test (5 domains)", nil}, part{crossnerFiles("dev"), "*_dev", nil}, false},
		{"uner_ewt", "web", ud, part{[]string{"uner_english_ewt/en_ewt-ud-test.iob2"}, "en_ewt-ud-test", nil},
			part{[]string{"uner_english_ewt/en_ewt-ud-dev.iob2"}, "en_ewt-ud-dev (trained on)", nil}, false},
		{"uner_pud", "news", ud, part{[]string{"uner_english_pud/en_pud-ud-test.iob2"}, "test", nil}, part{}, false},
		{"europarl", "parliament", columns{tok: 0, tag: 1, sep: "\t"},
			part{[]string{"europarl_ner_en/en-europarl.test.conll02"}, "sentences 4n, 4n+1, 4n+2", func(i int) bool { return i%4 != 3 }},
			part{[]string{"europarl_ner_en/en-europarl.test.conll02"}, "sentences 4n+3", every(4, 3)}, true},
		{"re3d", "news", columns{tok: 0, tag: 1, sep: "\t", nameWords: true},
			part{re3dFiles, "sentences 4n, 4n+1, 4n+2 of each source", func(i int) bool { return i%4 != 3 }},
			part{re3dFiles, "sentences 4n+3 of each source", every(4, 3)}, true},
		{"sec", "finance", columns{tok: 0, tag: 3, sep: " ", docStart: true},
			part{[]string{"sec_filings/FIN3.txt"}, "FIN3", nil}, part{[]string{"sec_filings/FIN5.txt"}, "FIN5 (trained on)", nil}, false},
	}
	out, err := readSpecs(root, "en", specs)
	if err != nil {
		return nil, err
	}
	for _, read := range []func(string) (Split, error){readLitBank, readGUM, readEnron} {
		sp, err := read(root)
		if err != nil {
			return nil, err
		}
		sp.Lang = "en"
		out = append(out, sp)
	}
	return out, nil
}

// every keeps the documents (or sentences) numbered r modulo n.
func every(n, r int) func(int) bool { return func(d int) bool { return d%n == r } }

// part is the test or dev part of a corpus: its files, a description,
// and the documents (or, with spec.perSent, sentences) kept (nil: all).
type part struct {
	files  []string
	source string
	keep   func(int) bool
}

// spec describes one column-format corpus and its two parts.
type spec struct {
	name, domain string
	cols         columns
	test, dev    part
	perSent      bool // keep() numbers sentences, not documents
}

// readSpecs reads every spec's test and dev parts under root as splits
// of language lang.
func readSpecs(root, lang string, specs []spec) ([]Split, error) {
	var out []Split
	for _, s := range specs {
		sp := Split{Name: s.name, Lang: lang, Domain: s.domain, Source: s.test.source, DevSource: s.dev.source}
		for _, p := range []struct {
			part part
			dst  *[]Record
		}{{s.test, &sp.Records}, {s.dev, &sp.Dev}} {
			for _, f := range p.part.files {
				docs, err := s.cols.read(filepath.Join(root, f))
				if err != nil {
					return nil, err
				}
				if s.perSent {
					docs = [][]Record{flatten(docs)}
				}
				for i, d := range docs {
					d = inDoc(d, fmt.Sprintf("%s#%d", f, i))
					if s.perSent {
						for j, r := range d {
							if p.part.keep(j) {
								*p.dst = append(*p.dst, r)
							}
						}
						continue
					}
					if p.part.keep == nil || p.part.keep(i) {
						*p.dst = append(*p.dst, d...)
					}
				}
			}
		}
		out = append(out, sp)
	}
	return out, nil
}

// inDoc sets the Doc of every record of recs to doc.
func inDoc(recs []Record, doc string) []Record {
	for i := range recs {
		recs[i].Doc = doc
	}
	return recs
}

func flatten(docs [][]Record) []Record {
	var out []Record
	for _, d := range docs {
		out = append(out, d...)
	}
	return out
}

// crossnerFiles are CrossNER's five domain files of one split (its
// CoNLL-2003 folder was never copied).
func crossnerFiles(split string) []string {
	var out []string
	for _, d := range []string{"ai", "literature", "music", "politics", "science"} {
		out = append(out, "crossner/"+d+"_"+split+".txt")
	}
	return out
}

// re3dFiles are the re3d sources copied (BBC and the EU delegation were not).
var re3dFiles = []string{
	"re3d/re3d_Australian_Department_of_Foreign_Affairs.conll", "re3d/re3d_CENTCOM.conll",
	"re3d/re3d_UK_Government.conll", "re3d/re3d_US_State_Department.conll", "re3d/re3d_Wikipedia.conll",
}

// sortedGlob is filepath.Glob in name order.
func sortedGlob(pattern string) ([]string, error) {
	m, err := filepath.Glob(pattern)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	if len(m) == 0 {
		return nil, fmt.Errorf("eval: no files match %s", pattern)
	}
	sort.Strings(m)
	return m, nil
}

// NERCategories are the categories the NER corpora label.
var NERCategories = []page.Category{page.Person, page.Organization}

// nerTypes maps the corpora's entity type names to PER, ORG and LOC as
// the recipe does (corpora.py TYPE_MAP) and, for the corpora added since,
// as documented in docs/ner-experiments.md ("Training data", label mapping). A type mapped
// to "" is ignored: its words count neither for nor against a detector
// (WNUT-16 musicartist is a band as often as a person). Types absent are
// plain words (MISC, award, product, ...).
var nerTypes = map[string]string{
	"PER": "PER", "PERSON": "PER", "person": "PER",
	"ORG": "ORG", "ORGANIZATION": "ORG", "corporation": "ORG", "group": "ORG",
	"LOC": "LOC", "LOCATION": "LOC", "location": "LOC", "GPE": "LOC",
	// CrossNER: people by role, organisations by kind, places.
	"politician": "PER", "writer": "PER", "scientist": "PER", "researcher": "PER", "musicalartist": "PER",
	"organisation": "ORG", "politicalparty": "ORG", "university": "ORG", "band": "ORG",
	"country": "LOC",
	// WNUT-16.
	"company": "ORG", "sportsteam": "ORG", "geo-loc": "LOC", "facility": "LOC", "musicartist": "IGN",
	// re3d.
	"Person": "PER", "Organisation": "ORG", "Location": "LOC",
	// LeNER-Br (Portuguese legal); TEMPO, LEGISLACAO and JURISPRUDENCIA
	// are plain words.
	"PESSOA": "PER", "ORGANIZACAO": "ORG", "LOCAL": "LOC",
	// GermEval 2014: a word a name is part of ("EU-Mitglied", ORGpart)
	// counts for nothing; a derivation ("deutsche", LOCderiv) and OTH are
	// plain words.
	"PERpart": "IGN", "ORGpart": "IGN", "LOCpart": "IGN",
}

// columns describes one CoNLL-style layout, as corpora.py's _read_columns.
type columns struct {
	tok, tag  int
	sep       string // field separator; "" splits on white space
	comments  bool   // "#" lines are comments, "# newdoc" starts a document
	docStart  bool   // -DOCSTART- lines start a document
	strip     string // prefix removed from tokens
	nameWords bool   // only the name words of a PER/ORG mention count (nameWords)
	// fold reads a line as token and tag around white space (the tag is
	// the last field, so a token with a space keeps its tag) and mends
	// the tag's typos ("B_LOC", "B-PEr"): Europeana's German files.
	fold bool
	// segment ends a sentence after a token ".", "!" or "?", or after
	// segmentMax tokens: files with no sentence boundaries (Europeana).
	segment bool
	// contract writes the article or pronoun a preposition contracts
	// with as the one word a reader sees (contractions): Universal
	// Dependencies files split "da" into "de a", "am" into "an dem".
	contract *contractions
}

// segmentMax is the longest sentence columns.segment lets run on.
const segmentMax = 40

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
	n := 0 // tokens in sent
	var pend pending
	endSent := func() {
		pend.flush(&sent, c)
		if r, ok := sent.record(); ok {
			doc = append(doc, r)
		}
		sent, n = sentence{}, 0
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
			if strings.HasPrefix(line, "# newdoc") || strings.HasPrefix(line, "# file:") {
				endDoc()
			}
			continue
		}
		if strings.TrimSpace(line) == "" {
			endSent()
			continue
		}
		var fs []string
		switch {
		case c.fold:
			fs = strings.Fields(line)
			if len(fs) < 2 {
				continue
			}
			fs = []string{fs[0], foldTag(fs[len(fs)-1])}
		case c.sep == "":
			fs = strings.Fields(line)
		default:
			fs = strings.Split(line, c.sep)
		}
		if c.docStart && fs[0] == "-DOCSTART-" {
			endDoc()
			continue
		}
		if len(fs) <= max(c.tok, c.tag) {
			continue
		}
		tok := strings.TrimPrefix(fs[c.tok], c.strip)
		if c.contract != nil {
			pend.add(&sent, c, tok, fs[c.tag])
			continue
		}
		sent.add(tok, fs[c.tag], c.nameWords)
		if n++; c.segment && (n >= segmentMax || tok == "." || tok == "!" || tok == "?") {
			endSent()
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("eval: %s: %w", path, err)
	}
	endDoc()
	return docs, nil
}

// pending holds a token that may contract with the next (columns.contract).
type pending struct {
	tok, tag string
	prev     string // the token before tok
	ok       bool
}

// add adds tok to s, contracted with the pending token where the two
// make one word: the word takes the preposition's tag (an article
// inside a name is in it: "Miguel Ângelo da Luz"; one before it is not:
// "da Fazenda").
func (p *pending) add(s *sentence, c columns, tok, tag string) {
	if p.ok {
		if w, ok := c.contract.pairs[[2]string{strings.ToLower(p.tok), strings.ToLower(tok)}]; ok && !(c.contract.notAfterComma && p.prev == ",") {
			if first, _ := utf8.DecodeRuneInString(p.tok); unicode.IsUpper(first) {
				w = capitalise(w)
			}
			s.add(w, p.tag, c.nameWords)
			p.ok, p.prev = false, tok
			return
		}
		p.flush(s, c)
	}
	if c.contract.first[strings.ToLower(tok)] {
		*p = pending{tok: tok, tag: tag, prev: p.prev, ok: true}
		return
	}
	s.add(tok, tag, c.nameWords)
	p.prev = tok
}

// flush adds the pending token as it is.
func (p *pending) flush(s *sentence, c columns) {
	if p.ok {
		s.add(p.tok, p.tag, c.nameWords)
		p.ok, p.prev = false, p.tok
	}
}

// capitalise writes w's first letter in upper case.
func capitalise(w string) string {
	r, n := utf8.DecodeRuneInString(w)
	return string(unicode.ToUpper(r)) + w[n:]
}

// contractions are the prepositions and the articles or pronouns a
// language writes as one word, by their two words in lower case.
type contractions struct {
	pairs map[[2]string]string
	first map[string]bool // the first words of pairs
	// notAfterComma keeps a pair after a comma apart: a German "in dem"
	// there is a relative clause's, never contracted ("das Haus, in dem").
	notAfterComma bool
}

// contractionsPT and contractionsDE are the contractions Portuguese
// always writes, and German outside a relative clause. Portuguese "em
// um" stays as it is: Brazil writes it so.
var (
	contractionsPT = newContractions(false, map[string]map[string]string{
		"de": {"o": "do", "a": "da", "os": "dos", "as": "das", "ele": "dele", "ela": "dela", "eles": "deles",
			"elas": "delas", "este": "deste", "esta": "desta", "estes": "destes", "estas": "destas", "esse": "desse",
			"essa": "dessa", "esses": "desses", "essas": "dessas", "aquele": "daquele", "aquela": "daquela",
			"aqueles": "daqueles", "aquelas": "daquelas", "isto": "disto", "isso": "disso", "aquilo": "daquilo"},
		"em": {"o": "no", "a": "na", "os": "nos", "as": "nas", "ele": "nele", "ela": "nela", "eles": "neles",
			"elas": "nelas", "este": "neste", "esta": "nesta", "estes": "nestes", "estas": "nestas", "esse": "nesse",
			"essa": "nessa", "esses": "nesses", "essas": "nessas", "aquele": "naquele", "aquela": "naquela",
			"aqueles": "naqueles", "aquelas": "naquelas", "isto": "nisto", "isso": "nisso", "aquilo": "naquilo"},
		"a":   {"o": "ao", "os": "aos", "a": "à", "as": "às", "aquele": "àquele", "aquela": "àquela", "aquilo": "àquilo"},
		"por": {"o": "pelo", "a": "pela", "os": "pelos", "as": "pelas"},
	})
	contractionsDE = newContractions(true, map[string]map[string]string{
		"an": {"dem": "am", "das": "ans"}, "in": {"dem": "im", "das": "ins"}, "zu": {"dem": "zum", "der": "zur"},
		"von": {"dem": "vom"}, "bei": {"dem": "beim"},
	})
)

func newContractions(notAfterComma bool, m map[string]map[string]string) *contractions {
	c := &contractions{pairs: map[[2]string]string{}, first: map[string]bool{}, notAfterComma: notAfterComma}
	for a, seconds := range m {
		c.first[a] = true
		for b, w := range seconds {
			c.pairs[[2]string{a, b}] = w
		}
	}
	return c
}

// foldTag mends a tag's typos: "_" for "-", a type in mixed case.
func foldTag(tag string) string {
	prefix, typ, ok := strings.Cut(strings.ReplaceAll(tag, "_", "-"), "-")
	if !ok {
		return tag
	}
	return strings.ToUpper(prefix) + "-" + strings.ToUpper(typ)
}

// sentence builds one record from tagged tokens.
type sentence struct {
	b     strings.Builder
	spans []Gold
	prev  string // type of the previous token's entity, "" outside
	// glue: the previous token was an "@" that starts an entity. The
	// Broad Twitter Corpus tokenizes "@Theory_Versa" as "@" and
	// "Theory_Versa", each tagged B-PER; a tweet writes it as one word,
	// so the next token joins the "@" without a space, in its entity.
	glue bool
}

// add appends a token; an entity starts at a B- tag or a change of type
// (IO tags mark only the type), as corpora.py's _to_bio. With nameWords a
// PER or ORG token counts only if it is a name word (labelOf).
func (s *sentence) add(tok, tag string, nameWords bool) {
	prefix, raw, ok := strings.Cut(tag, "-")
	typ := nerTypes[raw]
	if !ok {
		typ = ""
	}
	if nameWords {
		typ = labelOf(strings.TrimSpace(tok), typ, true)
	}
	s.addTyped(tok, typ, prefix == "B")
}

// addTyped appends a token of entity type typ ("" outside any entity;
// "IGN" for an ignored word); begin starts a new entity even when the
// previous token has the same type.
func (s *sentence) addTyped(tok, typ string, begin bool) {
	tok = strings.TrimSpace(tok)
	if tok == "" {
		return
	}
	if s.glue {
		s.glue = false
		s.b.WriteString(tok)
		s.spans[len(s.spans)-1].End = s.b.Len()
		return
	}
	if s.b.Len() > 0 {
		s.b.WriteByte(' ')
	}
	start := s.b.Len()
	s.b.WriteString(tok)
	if typ == "" && len(tok) > 1 && tok[0] == '@' {
		// A user handle no corpus labelled: masking it is no error
		// (it names an account), missing it is none either.
		typ = "IGN"
	}
	if typ == "" {
		s.prev = ""
		return
	}
	if begin || s.prev != typ {
		s.spans = append(s.spans, Gold{Start: start, End: s.b.Len(), Type: typ, Category: nerCategory[typ]})
	} else {
		s.spans[len(s.spans)-1].End = s.b.Len()
	}
	s.prev = typ
	s.glue = tok == "@" && begin && typ != "IGN"
}

var nerCategory = map[string]page.Category{"PER": page.Person, "ORG": page.Organization}

func (s *sentence) record() (Record, bool) {
	if s.b.Len() == 0 {
		return Record{}, false
	}
	return Record{Text: s.b.String(), Spans: s.spans}, true
}
