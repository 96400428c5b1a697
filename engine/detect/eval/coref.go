package eval

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Readers for the corpora that annotate entity mentions for coreference
// (LitBank, GUM, the Enron e-mail seed corpus) and re3d: their person and
// organisation mentions include pronouns ("he"), common nouns ("the
// composer") and titles, which are not names. labelOf keeps the words a
// redactor must mask.

// pronouns are words that refer to a person without naming one: masked,
// they are over-redaction, so they count as plain words.
var pronouns = set("i me my mine myself we us our ours ourselves you your yours yourself yourselves " +
	"he him his himself she her hers herself it its itself they them their theirs themselves one who whom whose")

// notNames are words inside a mention that are neither a name nor a plain
// word: determiners and honorifics or titles ("Mr", "President", "Foreign
// Minister"). Whether the service masks them is left out of the counts;
// docs/behaviour.md's title rule says what it does.
var notNames = set("the a an this that these those all both every each some any another other " +
	"mr mrs ms miss mister madam dr doctor prof professor sir lady lord dame rev reverend esq st saint " +
	"president minister secretary prime foreign general gen commander king queen prince princess emperor empress " +
	"senator governor ambassador chancellor mayor judge justice captain capt colonel col lieutenant lt sergeant sgt spc " +
	"private major admiral count countess duke duchess baron baroness pope father mother uncle aunt brother sister " +
	"deputy vice chief chairman chair director officer special envoy member members")

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// labelOf returns the type a word of a typ mention counts as. Outside PER
// and ORG mentions the type stands. Inside one, with names set (the
// corpus marks whether the mention is a proper name, or does not say), a
// name word (a capital first letter, not a pronoun, determiner or title)
// is the entity; a pronoun is a plain word (""); anything else is
// ignored ("IGN").
func labelOf(tok, typ string, proper bool) string {
	if typ != "PER" && typ != "ORG" {
		return typ
	}
	low := strings.ToLower(strings.TrimRight(tok, "."))
	if pronouns[low] {
		return ""
	}
	r, _ := utf8.DecodeRuneInString(tok)
	if proper && unicode.IsUpper(r) && !notNames[low] {
		return typ
	}
	return "IGN"
}

// tokLabel is one token and the type it counts as.
type tokLabel struct{ tok, typ string }

// records turns labelled token runs into records, one per run.
func records(runs [][]tokLabel) []Record {
	var out []Record
	for _, run := range runs {
		var s sentence
		for _, t := range run {
			s.addTyped(t.tok, t.typ, false)
		}
		if r, ok := s.record(); ok {
			out = append(out, r)
		}
	}
	return out
}

// litbankTypes maps LitBank's ACE types; VEH is a plain word.
var litbankTypes = map[string]string{"PER": "PER", "ORG": "ORG", "GPE": "LOC", "LOC": "LOC", "FAC": "LOC"}

// readLitBank reads LitBank's coreference layer (coref_*.txt, one
// paragraph of tokens per line, and coref_*.ann, brat mentions typed
// PROP/NOM/PRON_PER...). Only PROP mentions are names. The 100 books in
// name order: 5n+4 test, 5n+3 dev (the recipe trains on none).
func readLitBank(root string) (Split, error) {
	files, err := sortedGlob(filepath.Join(root, "litbank", "coref_*_brat.txt"))
	if err != nil {
		return Split{}, err
	}
	sp := Split{Name: "litbank", Domain: "fiction", Source: "books 5n+4 in name order (PROP mentions)", DevSource: "books 5n+3"}
	for i, f := range files {
		if i%5 < 3 {
			continue
		}
		recs, err := readLitBankDoc(f)
		if err != nil {
			return Split{}, err
		}
		recs = inDoc(recs, f)
		if i%5 == 4 {
			sp.Records = append(sp.Records, recs...)
		} else {
			sp.Dev = append(sp.Dev, recs...)
		}
	}
	return sp, nil
}

func readLitBankDoc(txtPath string) ([]Record, error) {
	txt, err := os.ReadFile(txtPath)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	ann, err := os.ReadFile(strings.TrimSuffix(txtPath, ".txt") + ".ann")
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	// rank: 0 none, 1 other mention, 2 NOM/PRON name word (ignored), 3 PROP.
	type lab struct {
		typ  string
		rank int
	}
	// brat offsets count characters, not bytes.
	runes := []rune(string(txt))
	byte2 := make([]lab, len(runes))
	for _, line := range strings.Split(string(ann), "\n") {
		f := strings.Split(line, "\t")
		if len(f) < 2 || !strings.HasPrefix(f[0], "T") {
			continue
		}
		g := strings.Fields(f[1])
		if len(g) != 3 {
			continue
		}
		kind, t, _ := strings.Cut(g[0], "_")
		typ, ok := litbankTypes[t]
		if !ok {
			continue
		}
		s, err1 := strconv.Atoi(g[1])
		e, err2 := strconv.Atoi(g[2])
		if err1 != nil || err2 != nil || s < 0 || e > len(runes) || s > e {
			return nil, fmt.Errorf("eval: %s: bad mention %q", txtPath, line)
		}
		rank := 1
		if kind == "PROP" {
			rank = 3
		}
		for b := s; b < e; b++ {
			if rank > byte2[b].rank {
				byte2[b] = lab{typ, rank}
			}
		}
	}
	var runs [][]tokLabel
	off := 0
	for _, line := range strings.Split(string(txt), "\n") {
		var run []tokLabel
		pos := 0
		for _, tok := range strings.Fields(line) {
			i := strings.Index(line[pos:], tok) + pos
			pos = i + len(tok)
			l := byte2[off+utf8.RuneCountInString(line[:i])]
			typ := ""
			switch l.rank {
			case 3:
				typ = labelOf(tok, l.typ, true)
			case 1:
				// a common noun or pronoun mention: its name words
				// ("Esq.", a name inside "the wife of James") are
				// left out, its other words are plain.
				if t := labelOf(tok, l.typ, true); t == l.typ && t != "LOC" {
					typ = "IGN"
				}
			}
			run = append(run, tokLabel{tok, typ})
		}
		runs = append(runs, run)
		off += utf8.RuneCountInString(line) + 1
	}
	return records(runs), nil
}

// gumMention matches one opening "(type-id[-identity]" or closing
// "type-id[-identity])" of GUM's coreference column.
var gumMention = regexp.MustCompile(`\(?([a-z]+)-(\d+)(?:-([^()]*))?\)?`)

// readGUM reads GUM's coreference CoNLL (token, nested mentions typed
// person, organization, place, ... with a Wikipedia identity when the
// entity has one). A word counts as a name when it is a name word inside a
// person or organization mention and part of the entity's identity
// ("Dvořák" in Antonín_Dvořák, not "composer"); other name words in such
// mentions (unlinked people) are ignored. Splits are GUM's own
// (splits.md): test and test2 (GENTLE) for test, dev for dev; the reddit
// documents, whose words are blanked, are skipped. A record ends after
// ".", "?" or "!".
func readGUM(root string) (Split, error) {
	b, err := os.ReadFile(filepath.Join(root, "gum", "splits.md"))
	if err != nil {
		return Split{}, fmt.Errorf("eval: %w", err)
	}
	docs := map[string][]string{}
	part := ""
	for _, line := range strings.Split(string(b), "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			part = strings.TrimSpace(h)
			continue
		}
		if d, ok := strings.CutPrefix(strings.TrimSpace(line), "* "); ok && !strings.Contains(d, "reddit") {
			docs[part] = append(docs[part], strings.TrimSpace(d))
		}
	}
	sp := Split{Name: "gum", Domain: "encyclopaedic", Source: "test + test2 (splits.md; documents present)", DevSource: "dev (splits.md)"}
	for _, p := range []struct {
		parts []string
		dst   *[]Record
	}{{[]string{"test", "test2"}, &sp.Records}, {[]string{"dev"}, &sp.Dev}} {
		for _, part := range p.parts {
			for _, d := range docs[part] {
				path := filepath.Join(root, "gum", d+".conll")
				if _, err := os.Stat(path); err != nil {
					continue // not every document of the split was copied
				}
				recs, err := readGUMDoc(path)
				if err != nil {
					return Split{}, err
				}
				recs = inDoc(recs, path)
				*p.dst = append(*p.dst, recs...)
			}
		}
	}
	if len(sp.Records) == 0 || len(sp.Dev) == 0 {
		return Split{}, fmt.Errorf("eval: gum: empty split (%d test, %d dev records)", len(sp.Records), len(sp.Dev))
	}
	return sp, nil
}

func readGUMDoc(path string) ([]Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	defer f.Close()
	type mention struct{ typ, id, identity string }
	var (
		open []mention
		runs [][]tokLabel
		run  []tokLabel
	)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) < 3 || strings.HasPrefix(fs[0], "#") {
			continue
		}
		tok, col := fs[1], fs[2]
		var closes []string
		for _, m := range gumMention.FindAllStringSubmatch(col, -1) {
			if strings.HasPrefix(m[0], "(") {
				open = append(open, mention{m[1], m[2], m[3]})
			}
			if strings.HasSuffix(m[0], ")") {
				closes = append(closes, m[2])
			}
		}
		typ := ""
		for _, m := range open {
			switch m.typ {
			case "person", "organization":
				t := map[string]string{"person": "PER", "organization": "ORG"}[m.typ]
				l := labelOf(tok, t, true)
				if l == t && !identityHas(m.identity, tok) {
					l = "IGN"
				}
				if rankOf(l) > rankOf(typ) {
					typ = l
				}
			case "place":
				if l := labelOf(tok, "PER", true); l == "PER" && rankOf("LOC") > rankOf(typ) {
					typ = "LOC"
				}
			}
		}
		run = append(run, tokLabel{tok, typ})
		for _, id := range closes {
			for i := len(open) - 1; i >= 0; i-- {
				if open[i].id == id {
					open = append(open[:i], open[i+1:]...)
					break
				}
			}
		}
		if tok == "." || tok == "?" || tok == "!" {
			runs, run = append(runs, run), nil
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("eval: %s: %w", path, err)
	}
	return records(append(runs, run)), nil
}

// rankOf orders labels when mentions nest: a name beats an ignored word,
// which beats a place, which beats a plain word.
func rankOf(typ string) int {
	switch typ {
	case "PER", "ORG":
		return 3
	case "IGN":
		return 2
	case "LOC":
		return 1
	}
	return 0
}

// identityHas reports whether tok is one of the parts of a GUM identity
// (Wikipedia title with "_" for spaces).
func identityHas(identity, tok string) bool {
	if identity == "" {
		return false
	}
	for _, p := range strings.FieldsFunc(identity, func(r rune) bool { return r == '_' || r == '-' || r == ',' }) {
		if p == tok {
			return true
		}
	}
	return false
}

// enronTypes maps the Enron seed corpus's mention types; D (digital: an
// address, an account) is ignored.
var enronTypes = map[byte]string{'P': "PER", 'O': "ORG", 'L': "LOC", 'D': "IGN"}

// enronMention matches "(P0*", "P0)", "(P0*)" in the entity column.
var enronMention = regexp.MustCompile(`\(?([POLD])\d+\*?\)?`)

// readEnron reads the Enron e-mail coreference seed corpus (token,
// speaker, mention type with chain id, coreference): its own test_*
// threads are the test split and its train_* threads the dev split (the
// recipe trains on neither). Mentions include pronouns and e-mail
// addresses; an address inside a person mention is ignored (the Email
// recognizer's business).
func readEnron(root string) (Split, error) {
	sp := Split{Name: "enron", Domain: "e-mail", Source: "test_* threads", DevSource: "train_* threads"}
	for _, p := range []struct {
		glob string
		dst  *[]Record
	}{{"test_*.conll", &sp.Records}, {"train_*.conll", &sp.Dev}} {
		files, err := sortedGlob(filepath.Join(root, "enron_emailcoref", p.glob))
		if err != nil {
			return Split{}, err
		}
		for _, f := range files {
			recs, err := readEnronDoc(f)
			if err != nil {
				return Split{}, err
			}
			recs = inDoc(recs, f)
			*p.dst = append(*p.dst, recs...)
		}
	}
	return sp, nil
}

func readEnronDoc(path string) ([]Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	defer f.Close()
	var (
		open []string
		runs [][]tokLabel
		run  []tokLabel
	)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Split(line, "\t")
		if len(fs) < 3 {
			if len(run) > 0 {
				runs, run = append(runs, run), nil
			}
			continue
		}
		tok := fs[0]
		var closes int
		for _, m := range enronMention.FindAllStringSubmatch(fs[2], -1) {
			if strings.HasPrefix(m[0], "(") {
				open = append(open, enronTypes[m[1][0]])
			}
			if strings.HasSuffix(m[0], ")") {
				closes++
			}
		}
		typ := ""
		for _, t := range open {
			l := t
			if strings.Contains(tok, "@") {
				l = "IGN"
			} else {
				l = labelOf(tok, t, true)
			}
			if rankOf(l) > rankOf(typ) {
				typ = l
			}
		}
		run = append(run, tokLabel{tok, typ})
		if closes > len(open) {
			closes = len(open)
		}
		open = open[:len(open)-closes]
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("eval: %s: %w", path, err)
	}
	return records(append(runs, run)), nil
}
