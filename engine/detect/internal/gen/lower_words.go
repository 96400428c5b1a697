package main

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"html"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/redactd/redactd/internal/shareddata"
)

// lowerWords writes lower_words_<lang>.txt for German, French, Spanish,
// Italian, Dutch and Portuguese: the words each language writes in lower
// case inside its sentences (at least lowerMin times, at least lowerRatio
// times as often as capitalised there), seldom capitalised in a person's
// name in the labelled sources (lowerPersonShare), and no popular name of
// the language's countries.
// They are what the rules (engine/detect/rules) count as an ordinary word
// of a block in that language, where the built-in model, trained on
// English, takes unknown words for names and runs addresses on into the
// sentence after them ("bien reçu", "il est convenu ce qui suit le").
//
// The sources are training text only: the train parts of the NER corpora
// (never a split engine/detect/eval scores) and public-domain novels of
// the European Literary Text Collection (ELTeC), fetched from GitHub at a
// pinned commit and read where they lie (shareddata.Fetched); they are
// not committed. A language whose fetched source is absent is skipped,
// and its committed file kept.
func (g *gen) lowerWords() error {
	names, err := popularNames(filepath.Join(g.src, "gazetteers", "popular_names_by_country"))
	if err != nil {
		return fmt.Errorf("lower words: %w", err)
	}
	for _, l := range lowerLangs {
		lower, capital, person := map[string]int{}, map[string]int{}, map[string]int{}
		var credits []string
		missing := ""
		for _, s := range l.sources {
			toks, err := s.read(g)
			if errors.Is(err, errFetchedMissing) {
				missing = s.name
				break
			}
			if err != nil {
				return fmt.Errorf("lower words %s: %s: %w", l.code, s.name, err)
			}
			countLower(toks, lower, capital, person)
			credits = append(credits, "source: "+s.name+"; "+s.licence)
		}
		file := "lower_words_" + l.code + ".txt"
		if missing != "" {
			g.skip(file, missing+" is not fetched")
			continue
		}
		var words []string
		for w, n := range lower {
			if n >= lowerMin && n >= lowerRatio*capital[w] && lowerPersonShare*person[w] < n && !names[l.code][w] {
				words = append(words, w)
			}
		}
		if l.dictionary != nil {
			dict, err := g.dictionaryWords(l.dictionary, lower, capital, person, names[l.code])
			if errors.Is(err, errFetchedMissing) {
				g.skip(file, l.dictionary.name+" is not fetched")
				continue
			}
			if err != nil {
				return fmt.Errorf("lower words %s: %s: %w", l.code, l.dictionary.name, err)
			}
			words = append(words, dict...)
			credits = append(credits, "source: "+l.dictionary.name+"; "+l.dictionary.licence+
				" (only its words the sources above show in lower case: the list itself stays out of the project)")
		}
		sort.Strings(words)
		words = slices.Compact(words)
		header := append([]string{
			fmt.Sprintf("Words written in lower case inside sentences in %s (at least %d times, %d times as often as capitalised),", l.name, lowerMin, lowerRatio),
			"seldom capitalised in a person's name in the labelled sources (under 1 in 20), and no popular name of the language's countries;",
			"lower case, ' for the apostrophe, elided articles apart (\"l'\", \"dell'\"), one per line.",
		}, credits...)
		header = append(header, creditPopularNames)
		if err := g.write(file, header, words); err != nil {
			return err
		}
	}
	return nil
}

const (
	lowerMin   = 3
	lowerRatio = 4
	// A word capitalised in persons' names at least once for every
	// lowerPersonShare times it is written in lower case is a name too
	// ("Rose"); the elided article of "L'Estrange" is not.
	lowerPersonShare = 20
)

// lowerLang is one language's sources for lowerWords.
type lowerLang struct {
	code, name string
	countries  []string // ISO codes whose popular names are left out
	sources    []lowerSource
	// dictionary, when set, adds the words a spelling list writes in
	// lower case that the sources show at least once (dictionaryWords):
	// for a language whose running text here is too little to count its
	// words at lowerMin.
	dictionary *dictSource
}

// dictSource is a spelling list: files of one word a line in a fetched
// repository at a pinned commit.
type dictSource struct {
	name, licence, repo, commit string
	files                       []string
}

// dictionaryWords returns the words of d written in lower case, of
// letters (a hyphen or an apostrophe inside), that no name list holds
// (first names, surnames, towns, the popular names of the language's
// countries), that the counted sources show in lower case at least once,
// never put in a person's name and do not write capitalised as often as
// in lower case: a spelling list has no counts, holds many surnames as
// words ("bakker", "visser"), and is fetched data, so only the words the
// sources confirm are written.
func (g *gen) dictionaryWords(d *dictSource, lower, capital, person map[string]int, popular map[string]bool) ([]string, error) {
	dir := shareddata.Fetched(d.repo)
	skip, err := g.namesAndPlaces()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range d.files {
		b, err := exec.Command("git", "--git-dir", dir, "show", d.commit+":"+f).Output()
		if err != nil {
			return nil, fmt.Errorf("%w: %s at %s", errFetchedMissing, d.repo, d.commit)
		}
		for _, w := range strings.Split(string(b), "\n") {
			w = strings.TrimSpace(w)
			if !dictWord.MatchString(w) || skip[w] || popular[w] || person[w] > 0 || lower[w] == 0 || capital[w] > 0 && capital[w] >= lower[w] {
				continue
			}
			out = append(out, w)
		}
	}
	return out, nil
}

// dictWord matches a word of a spelling list that dictionaryWords
// takes: lower-case letters, a hyphen or an apostrophe inside.
var dictWord = regexp.MustCompile(`^\p{Ll}+(['-]\p{Ll}+)*$`)

type lowerSource struct {
	name, licence string
	read          func(g *gen) ([]ltok, error)
}

var lowerLangs = []lowerLang{
	{"de", "German", []string{"DE", "AT", "CH"}, []lowerSource{
		columns("ner/europeana_de/enp_DE.lft.bio (the lft part: onb is the test, sbb the dev)", licCC0Europeana, "ner/europeana_de/enp_DE.lft.bio", 0, 1),
		eltec("deu", "d1eed488bd579ee95151b1a291a0056a90c36fa4"),
	}, nil},
	{"fr", "French", []string{"FR", "BE", "CH"}, []lowerSource{
		columns("ner/icdar_europeana_fr/train.txt", licCC0Europeana, "ner/icdar_europeana_fr/train.txt", 0, 1),
		novelsFR(),
		// Madame Bovary and Bel-Ami are obtic_7romans_fr's test and dev.
		eltec("fra", "83f0a43fdb967cd1db646027a1a237307e4924a1", "FRA01302_Flaubert.xml", "FRA02701_Maupassant.xml"),
	}, nil},
	{"es", "Spanish", []string{"ES"}, []lowerSource{
		meddocanTrain(),
		eltec("spa", "83e2a22d5ef66f96e59f47f7ef810358c4236322"),
	}, nil},
	{"it", "Italian", []string{"IT"}, []lowerSource{
		eltec("ita", "100a4851ed1a1092f082c0ecd109f621c8f62ed4"),
	}, nil},
	{"nl", "Dutch", []string{"NL", "BE"}, []lowerSource{
		columns("ner/icdar_europeana_nl/train.txt", licCC0Europeana, "ner/icdar_europeana_nl/train.txt", 0, 1),
		// ELTeC has no Dutch novels; WikiANN's train file (its test and
		// dev files are the scored splits) adds present-day words.
		columnsStrip("ner/wikiann_nl/train (test and dev are scored)", "WikiANN, text from Wikipedia (CC-BY-SA-3.0); silver labels",
			"ner/wikiann_nl/train", 0, 1, "nl:"),
	}, &dictSource{
		name:    "github.com/OpenTaal/opentaal-wordlist basiswoorden-gekeurd.txt and flexies-ongekeurd.txt at 6d53e65b59cc (fetched, not committed)",
		licence: "OpenTaal, Revised BSD License or CC-BY-3.0 (chosen: CC-BY-3.0)",
		repo:    "OpenTaal/opentaal-wordlist", commit: "6d53e65b59cc0f019e2161b120b5dfaae3aded01",
		files: []string{"basiswoorden-gekeurd.txt", "flexies-ongekeurd.txt"},
	}},
	{"pt", "Portuguese", []string{"PT", "BR"}, []lowerSource{
		columns("ner/uner_portuguese_bosque/pt_bosque-ud-train.iob2", "CC-BY-SA-4.0 (UNER Portuguese-Bosque)", "ner/uner_portuguese_bosque/pt_bosque-ud-train.iob2", 1, 2),
		columns("ner/lener_br/train.conll", "MIT (LeNER-Br, Copyright (c) 2022 Pedro Henrique Luz de Araujo)", "ner/lener_br/train.conll", 0, 1),
		eltec("por", "8886868916311001a8a8dd99aa6f18f6a2c68408"),
	}, nil},
}

const licCC0Europeana = "CC0-1.0 (Europeana Newspapers NER corpora)"

// creditPopularNames is the header line of the lists that leave out the
// popular names of their language's countries.
const creditPopularNames = "source: popular names by country (github.com/sigpwned/popular-names-by-country-dataset), CC0-1.0: the names left out"

// ltok is a word of a source: its text, whether it opens a sentence, and
// whether it is part of a person's name.
type ltok struct {
	text   string
	start  bool
	person bool
	// personStart marks the first word of a person's name.
	personStart bool
	entity      bool // part of any labelled entity (person, place, organization, ...)
	doc         int  // the document (a novel) of an unlabelled source, from 1; 0 in labelled ones
}

// lowerToken splits text into words, an elided article apart with its
// apostrophe ("l'affaire": "l'", "affaire"), and single marks.
var lowerToken = regexp.MustCompile(`\p{L}+['’]?|\S`)

// opensUtterance are the marks after which a word is written capitalised
// whatever it is: a sentence's end, and the quotes, dashes and colons of
// dialogue.
const opensUtterance = ".!?«»\"“”„—–-:;…"

// tokens appends the words of text, the first opening a sentence when
// start is set, each after ".", "!" or "?" opening one.
func tokens(out []ltok, text string, start, person bool) ([]ltok, bool) {
	for _, t := range lowerToken.FindAllString(text, -1) {
		if t == "'" || t == "’" {
			// An elided article its corpus cut apart: "l", "'".
			if n := len(out); n > 0 && !strings.HasSuffix(out[n-1].text, "'") && unicode.IsLetter([]rune(out[n-1].text)[0]) {
				out[n-1].text += "'"
			}
			continue
		}
		if strings.Contains(opensUtterance, t) {
			start = true // ". « Merci", ": Fait", "— Non"
			continue
		}
		out = append(out, ltok{text: strings.ReplaceAll(t, "’", "'"), start: start, person: person})
		start = false
	}
	return out, start
}

// countLower counts, leaving out each sentence's first word, the words
// written in lower case and those capitalised (lower case after their
// first letter), and marks the capitalised words of persons' names.
func countLower(toks []ltok, lower, capital, person map[string]int) {
	for _, t := range toks {
		rs := []rune(t.text)
		if !unicode.IsLetter(rs[0]) {
			continue
		}
		w := strings.ToLower(t.text)
		if t.person && !unicode.IsLower(rs[0]) {
			person[w]++ // particles of names ("de", "d'") stay words
		}
		if t.start {
			continue
		}
		switch rest := string(rs[1:]); {
		case unicode.IsLower(rs[0]) && rest == strings.ToLower(rest):
			lower[w]++
		case unicode.IsUpper(rs[0]) && rest == strings.ToLower(rest):
			capital[w]++
		}
	}
}

// columns reads a corpus of one word a line (column tok) with its IOB
// label (column lab), sentences apart by blank lines.
func columns(name, licence, path string, tok, lab int) lowerSource {
	return columnsStrip(name, licence, path, tok, lab, "")
}

// columnsStrip is columns for a corpus that writes prefix before every
// word (WikiANN: "nl:Het").
func columnsStrip(name, licence, path string, tok, lab int, prefix string) lowerSource {
	return lowerSource{name: name, licence: licence, read: func(g *gen) ([]ltok, error) {
		b, err := os.ReadFile(filepath.Join(g.src, path))
		if err != nil {
			return nil, err
		}
		var out []ltok
		start, inPerson := true, false
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "#") {
				continue
			}
			f := strings.Fields(l)
			if len(f) <= max(tok, lab) {
				start = len(f) == 0 || start
				inPerson = inPerson && len(f) > 0
				continue
			}
			label := strings.ToUpper(f[lab])
			person := strings.Contains(label, "PER") || strings.Contains(label, "PESSOA")
			n := len(out)
			out, start = tokens(out, strings.TrimPrefix(f[tok], prefix), start, person)
			for i := n; i < len(out); i++ {
				out[i].entity = label != "O"
			}
			if person && n < len(out) && (!inPerson || strings.HasPrefix(label, "B-")) {
				out[n].personStart = true
			}
			inPerson = person
		}
		return out, nil
	}}
}

// novelsFR reads the five novels of obtic_7romans_fr that the evaluation
// does not score (Madame Bovary is the test, Bel-Ami the dev).
func novelsFR() lowerSource {
	s := lowerSource{name: "ner/obtic_7romans_fr, five novels (not MadameBovary, the test, nor BelAmi, the dev)",
		licence: "MIT as declared by the corpus's authors; the novels are public domain"}
	s.read = func(g *gen) ([]ltok, error) {
		var out []ltok
		for _, n := range []string{"EugénieGrandet", "Germinal", "LeRougeEtLeNoir", "LesTroisMousquetaires", "NotreDameDeParis"} {
			toks, err := columns("", "", filepath.Join("ner", "obtic_7romans_fr", n+".conll"), 0, 1).read(g)
			if err != nil {
				return nil, err
			}
			out = append(out, toks...)
		}
		return out, nil
	}
	return s
}

// meddocanTrain reads the clinical reports of MEDDOCAN's train part, the
// names of patients and staff marked from their annotations.
func meddocanTrain() lowerSource {
	return lowerSource{name: "ner/meddocan_es/train (dev and test are scored)", licence: "CC-BY-4.0 (SPACCC MEDDOCAN, Plan TL)",
		read: func(g *gen) ([]ltok, error) {
			files, err := filepath.Glob(filepath.Join(g.src, "ner", "meddocan_es", "train", "*.txt"))
			if err != nil || len(files) == 0 {
				return nil, fmt.Errorf("no reports: %v", err)
			}
			sort.Strings(files)
			var out []ltok
			for _, f := range files {
				text, err := os.ReadFile(f)
				if err != nil {
					return nil, err
				}
				ann, err := os.ReadFile(strings.TrimSuffix(f, ".txt") + ".ann")
				if err != nil {
					return nil, err
				}
				for _, l := range strings.Split(string(ann), "\n") {
					f := strings.Split(l, "\t")
					if len(f) == 3 && strings.HasPrefix(f[1], "NOMBRE_") {
						n := len(out)
						if out, _ = tokens(out, f[2], true, true); n < len(out) {
							out[n].personStart = true
						}
					}
				}
				for _, para := range strings.Split(string(text), "\n") {
					out, _ = tokens(out, para, true, false)
				}
			}
			return out, nil
		}}
}

var errFetchedMissing = errors.New("fetched source missing")

// eltec reads the novels of ELTeC's collection for lang (level 1 TEI),
// fetched from github.com/COST-ELTeC/ELTeC-<lang> at commit: the text of
// every paragraph and verse line of their bodies. A novel the snapshot
// lacks (files of 4 MiB or more are left out) is not read.
func eltec(lang, commit string, exclude ...string) lowerSource {
	repo := "COST-ELTeC/ELTeC-" + lang
	name := fmt.Sprintf("github.com/%s level1/*.xml at %s (fetched, not committed)", repo, commit[:12])
	if len(exclude) > 0 {
		name = fmt.Sprintf("github.com/%s level1/*.xml at %s but %s (fetched, not committed)", repo, commit[:12], strings.Join(exclude, ", "))
	}
	return lowerSource{
		name:    name,
		licence: "the novels are public domain; ELTeC's markup CC-BY-4.0",
		read: func(*gen) ([]ltok, error) {
			dir := shareddata.Fetched(repo)
			list, err := exec.Command("git", "--git-dir", dir, "ls-tree", "--name-only", commit, "level1/").Output()
			if err != nil {
				return nil, fmt.Errorf("%w: %s at %s", errFetchedMissing, repo, commit)
			}
			var out []ltok
			for doc, f := range strings.Fields(string(list)) {
				if !strings.HasSuffix(f, ".xml") || slices.Contains(exclude, path.Base(f)) {
					continue
				}
				b, err := exec.Command("git", "--git-dir", dir, "show", commit+":"+f).Output()
				if err != nil {
					continue // left out of the snapshot
				}
				n := len(out)
				out = teiText(out, b)
				for i := n; i < len(out); i++ {
					out[i].doc = doc + 1
				}
			}
			return out, nil
		},
	}
}

// teiSpaces turns the no-break spaces French writes before "!", "?",
// ":" and after a dialogue's dash into spaces, which the tokens are split
// on: else "— Oui" reads as a capital inside a sentence.
var teiSpaces = strings.NewReplacer("\u00a0", " ", "\u202f", " ", "\u2009", " ")

var (
	teiPara = regexp.MustCompile(`(?s)<(p|l)\b[^>]*>(.*?)</(p|l)>`)
	teiTag  = regexp.MustCompile(`<[^>]*>`)
)

// teiText appends the words of the paragraphs and verse lines of a TEI
// document's body, each opening a sentence.
func teiText(out []ltok, doc []byte) []ltok {
	if i := bytes.Index(doc, []byte("<body")); i >= 0 {
		doc = doc[i:]
	}
	for _, m := range teiPara.FindAllSubmatch(doc, -1) {
		text := teiSpaces.Replace(html.UnescapeString(teiTag.ReplaceAllString(string(m[2]), " ")))
		out, _ = tokens(out, text, true, false)
	}
	return out
}

// popularNames reads the forenames and surnames of the popular-names
// dataset, lower case, by the language of their country.
func popularNames(dir string) (map[string]map[string]bool, error) {
	byCountry := map[string][]string{}
	for _, l := range lowerLangs {
		for _, c := range l.countries {
			byCountry[c] = append(byCountry[c], l.code)
		}
	}
	out := map[string]map[string]bool{}
	for _, f := range []string{"common-forenames-by-country.csv", "common-surnames-by-country.csv"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return nil, err
		}
		r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))))
		r.FieldsPerRecord = -1
		head, err := r.Read()
		if err != nil {
			return nil, err
		}
		col := map[string]int{}
		for i, h := range head {
			col[strings.TrimSpace(h)] = i
		}
		for {
			row, err := r.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
			for _, code := range byCountry[row[col["Country"]]] {
				if out[code] == nil {
					out[code] = map[string]bool{}
				}
				for _, k := range []string{"Localized Name", "Romanized Name"} {
					if i, ok := col[k]; ok && i < len(row) {
						ws := strings.Fields(strings.ToLower(row[i]))
						for _, w := range ws {
							if len(ws) == 1 || len([]rune(w)) > 3 {
								out[code][w] = true // not the particles of "De Smet", "Da Silva"
							}
						}
					}
				}
			}
		}
	}
	return out, nil
}
