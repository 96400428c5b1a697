package main

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/internal/shareddata"
)

// nounsDE writes nouns_de.txt: the words German writes capitalised
// inside its sentences (its nouns: at least nounMin times, nounRatio
// times as often as in lower case), that the labelled sources seldom put
// in an entity of any kind (under 1 in nounEntityShare) and that are no
// popular name of a German-speaking country. German capitalises every
// noun, so its lower-case list (lowerWords) holds none; the rules read
// these as the ordinary words of a German block where case cannot tell
// them from names: headings in capitals ("ARBEITSVERTRAG"), a span the
// model made of an article and a noun ("Das Gehalt").
//
// The labelled sources (the lft part of the Europeana newspapers,
// WikiANN's German train file, SmartData's train documents the
// evaluation does not score) tell how often a word is part of a name;
// the German novels of ELTeC (fetched, not committed), which are not
// labelled, count only for a word capitalised in at least nounNovels of
// them: a novel's characters stay in their novel. The entity share is
// that of the labelled sources. SmartData (news, traffic reports,
// tweets) brings today's words ("Umsatz", "Quartal"), but its tweets
// leave some names unlabelled: a word it alone writes capitalised is left
// out ("Davutoglu"), and nouns_de_in_names.txt is judged without its
// counts (they would put "Mann" and "Internet" there, which the rules
// then read as ordinary words). The rules leave out words the name,
// place and title lists hold ("Fischer", "Müller" are nouns too).
func (g *gen) nounsDE() error {
	names, err := popularNames(filepath.Join(g.src, "gazetteers", "popular_names_by_country"))
	if err != nil {
		return fmt.Errorf("nouns_de: %w", err)
	}
	sources := []lowerSource{
		columns("ner/europeana_de/enp_DE.lft.bio (the lft part: onb is the test, sbb the dev)", licCC0Europeana, "ner/europeana_de/enp_DE.lft.bio", 0, 1),
		columnsStrip("ner/wikiann_de/train (test and dev are scored)", "WikiANN, text from Wikipedia (CC-BY-SA-3.0); silver labels",
			"ner/wikiann_de/train", 0, 1, "de:"),
		smartDataTrain(),
		eltec("deu", "d1eed488bd579ee95151b1a291a0056a90c36fa4"),
	}
	c, base := newNounCounts(), newNounCounts()
	var credits []string
	for k, s := range sources {
		toks, err := s.read(g)
		if errors.Is(err, errFetchedMissing) {
			for _, f := range nounFiles {
				g.skip(f, s.name+" is not fetched")
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("nouns_de: %s: %w", s.name, err)
		}
		c.count(toks, k)
		if k != smartData {
			base.count(toks, k)
		}
		credits = append(credits, "source: "+s.name+"; "+s.licence)
	}
	var words, inNames []string
	for w := range c.capital {
		if c.in[w] == 1<<smartData || names["de"][w] {
			continue
		}
		if c.share(w) == nounShareRare {
			words = append(words, w)
		} else if base.share(w) == nounShareInNames {
			// SmartData's counts judge no noun names hold: its
			// words would move "Mann" and "Internet" here.
			inNames = append(inNames, w)
		}
	}
	lexicon, err := wiktionaryNounsDE()
	if err == nil {
		c.spoken, err = spokenWordsDE()
	}
	if errors.Is(err, errFetchedMissing) {
		for _, f := range nounFiles {
			g.skip(f, err.Error())
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("nouns_de: %w", err)
	}
	listed := map[string]bool{}
	for _, w := range append(words, inNames...) {
		listed[w] = true
	}
	named, err := g.namesAndPlaces()
	if err != nil {
		return fmt.Errorf("nouns_de: %w", err)
	}
	var namedNouns []string
	for _, w := range lexicon {
		isNamed := names["de"][w] || named[w] || named[gazetteer.FoldAccents(w)]
		switch {
		case !listed[w] && !isNamed && c.lexiconNoun(w):
			words = append(words, w)
			listed[w] = true
		case !listed[w] && isNamed:
			namedNouns = append(namedNouns, w)
		}
	}
	sort.Strings(namedNouns)
	sort.Strings(words)
	sort.Strings(inNames)
	counted := []string{
		fmt.Sprintf("Words German writes capitalised inside its sentences (at least %d times, %d times as often as in lower case: its nouns),", nounMin, nounRatio),
		fmt.Sprintf("seldom part of a labelled entity of any kind (under 1 in %d), in the labelled sources at least %d times or in %d novels,", nounEntityShare, nounMin, nounNovels),
		"and no popular name of Germany, Austria or Switzerland; a word SmartData alone writes capitalised is left out (its tweets leave names unlabelled);",
	}
	lexiconLines := []string{
		fmt.Sprintf("and the nouns of Wiktionary's German lexicon (lemma and plural, letters only, %d or more) in no name or place list, that the sources write capitalised (or that are among the 50,000 words most said in German subtitles),", lexiconMinLetters),
		fmt.Sprintf("at least %d times as often as in lower case, and put in an entity under 1 time in %d;", nounRatio, nounEntityShare),
	}
	lexiconCredits := []string{"source: " + wiktionaryNounsName + "; " + wiktionaryNounsLicence,
		"source: " + spokenWordsName + "; " + spokenWordsLicence}
	format := []string{"lower case, one per line."}
	header := slices.Concat(counted, lexiconLines, format, credits, lexiconCredits, []string{creditPopularNames})
	if err := g.write("nouns_de.txt", header, words); err != nil {
		return err
	}
	// The lexicon adds to nouns_de.txt only.
	inHeader := slices.Concat(counted, format, credits, []string{creditPopularNames})
	inHeader[1] = fmt.Sprintf("part of a labelled entity of any kind 1 time in %d or more but under 1 in %d (\"Zeit\", \"Kirche\"), in the labelled sources at least %d times or in %d novels, judged without SmartData's counts,",
		nounEntityShare, nounInNamesShare, nounMin, nounNovels)
	if err := g.write("nouns_de_in_names.txt", inHeader, inNames); err != nil {
		return err
	}
	namedHeader := []string{
		"The nouns of Wiktionary's German lexicon (lemma and plural, letters only) that a name or place list holds too (\"Mann\", \"Koch\", \"Gott\"),",
		"and that nouns_de.txt and nouns_de_in_names.txt therefore leave out: a capitalised word of a German sentence that is one of them is as likely the noun as the name.",
		"lower case, one per line.",
		"source: " + wiktionaryNounsName + "; " + wiktionaryNounsLicence,
		"source: the name and place lists of this folder (first_names.txt, surnames.txt, cities.txt, countries.txt)",
		"source: popular names by country (github.com/sigpwned/popular-names-by-country-dataset), CC0-1.0: the names of Germany, Austria and Switzerland",
	}
	return g.write("nouns_de_named.txt", namedHeader, namedNouns)
}

// nounsDELexicon writes nouns_de_lexicon.txt: every noun of Wiktionary's
// German lexicon (lemma and plural, letters only, lexiconListMin letters
// or more) that no name or place list holds, whether the sources have
// seen it or not. nouns_de.txt keeps the nouns that seldom head a name,
// as the rules read those as ordinary words anywhere; this list is read
// only where a capitalised word of a German sentence that no list holds
// would be taken for a name alone, and there any noun ("Partei", "Amt")
// or a compound's head ("Spitzenkandidat") tells it is none.
func (g *gen) nounsDELexicon() error {
	const file = "nouns_de_lexicon.txt"
	lexicon, err := wiktionaryNounsDE()
	if errors.Is(err, errFetchedMissing) {
		g.skip(file, err.Error())
		return nil
	}
	if err != nil {
		return fmt.Errorf("nouns_de_lexicon: %w", err)
	}
	names, err := popularNames(filepath.Join(g.src, "gazetteers", "popular_names_by_country"))
	if err != nil {
		return fmt.Errorf("nouns_de_lexicon: %w", err)
	}
	named, err := g.namesAndPlaces()
	if err != nil {
		return fmt.Errorf("nouns_de_lexicon: %w", err)
	}
	var words []string
	for _, w := range lexicon {
		if len([]rune(w)) >= lexiconListMin && !names["de"][w] && !named[w] && !named[gazetteer.FoldAccents(w)] {
			words = append(words, w)
		}
	}
	sort.Strings(words)
	header := []string{
		fmt.Sprintf("The nouns of Wiktionary's German lexicon (lemma and plural, letters only, %d letters or more) that no name or place list holds,", lexiconListMin),
		"heads of names too (\"Partei\", \"Amt\"): read only where a capitalised word of a German sentence would be taken for a name no list holds.",
		"lower case, one per line.",
		"source: " + wiktionaryNounsName + "; " + wiktionaryNounsLicence,
		"source: the name and place lists of this folder (first_names.txt, surnames.txt, cities.txt, countries.txt)",
		"source: popular names by country (github.com/sigpwned/popular-names-by-country-dataset), CC0-1.0: the names of Germany, Austria and Switzerland",
	}
	return g.write(file, header, words)
}

// lexiconListMin is the shortest word nouns_de_lexicon.txt holds.
const lexiconListMin = 3

// nounFiles are the files nounsDE writes.
var nounFiles = []string{"nouns_de.txt", "nouns_de_in_names.txt", "nouns_de_named.txt"}

// lexiconNoun judges w, a noun of Wiktionary's German lexicon that the
// counts alone did not make one (too seldom seen: "Zulieferer",
// "Verleiher" in today's news, not in the old newspapers and novels).
// The lexicon holds rare nouns that are surnames too ("Farre"), so it
// needs the sources to have seen w capitalised at least once, or w to be
// a word German speaks often (c.spoken); then it is a noun unless the
// sources write it in lower case more than a noun would be (a word of
// both kinds: "aber", "recht") or put it in an entity 1 time in
// nounEntityShare or more ("Bank", "Stiftung", "Partei" head names), by
// every source's counts.
func (c *nounCounts) lexiconNoun(w string) bool {
	n := c.capital[w]
	if len([]rune(w)) < lexiconMinLetters || n == 0 && !c.spoken[w] {
		return false
	}
	if c.lower[w] > 0 && n < nounRatio*c.lower[w] {
		return false
	}
	labelled := n - c.inNovels[w]
	return c.entity[w] == 0 || nounEntityShare*c.entity[w] < labelled
}

// lexiconMinLetters is the shortest word lexiconNoun takes: the
// lexicon lists abbreviations as nouns ("ARD", "CSU", "USPD"), which
// name bodies.
const lexiconMinLetters = 5

// namesAndPlaces returns the words of the name and place lists written
// before (first names, surnames, towns, countries), in lower case: a
// word list without counts holds many of them as ordinary words
// ("bakker", "müller"), which the rules read as names first, so
// dictionaryWords and nounsDE leave them out.
func (g *gen) namesAndPlaces() (map[string]bool, error) {
	named := map[string]bool{}
	for _, f := range []string{"first_names.txt", "surnames.txt", "cities.txt", "countries.txt"} {
		ws, err := readLines(filepath.Join(g.out, f))
		if err != nil {
			return nil, err
		}
		for _, w := range ws {
			named[strings.ToLower(w)] = true
		}
	}
	return named, nil
}

// spokenWordsName and spokenWordsLicence credit the word list
// spokenWordsDE reads.
const (
	spokenWordsRepo    = "hermitdave/FrequencyWords"
	spokenWordsCommit  = "525f9b560de45753a5ea01069454e72e9aa541c6"
	spokenWordsName    = "github.com/hermitdave/FrequencyWords content/2018/de/de_50k.txt at 525f9b560de4 (fetched, not committed): the 50,000 words most frequent in German subtitles (OpenSubtitles 2018)"
	spokenWordsLicence = "CC-BY-SA-4.0 (the content; the code MIT)"
)

// spokenWordsDE reads the 50,000 words most frequent in German
// subtitles (hermitdave/FrequencyWords, in lower case, "word count" a
// line), fetched at spokenWordsCommit.
func spokenWordsDE() (map[string]bool, error) {
	dir := shareddata.Fetched(spokenWordsRepo)
	b, err := exec.Command("git", "--git-dir", dir, "show", spokenWordsCommit+":content/2018/de/de_50k.txt").Output()
	if err != nil {
		return nil, fmt.Errorf("%w: %s at %s", errFetchedMissing, spokenWordsName, spokenWordsCommit)
	}
	out := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) > 0 {
			out[f[0]] = true
		}
	}
	return out, nil
}

// wiktionaryNounsName and wiktionaryNounsLicence credit the lexicon
// wiktionaryNounsDE reads.
const (
	wiktionaryNounsRepo    = "gambolputty/german-nouns"
	wiktionaryNounsCommit  = "0c8464794f7282fb34f87fce7e66ae5b4bd7839d"
	wiktionaryNounsName    = "github.com/gambolputty/german-nouns nouns.csv at 0c8464794f72 (fetched, not committed): German nouns of de.wiktionary.org"
	wiktionaryNounsLicence = "CC-BY-SA-3.0 (Wiktionary)"
)

// wiktionaryNounsDE reads the lemmas and plurals of the German nouns
// Wiktionary lists (gambolputty/german-nouns, nouns.csv: lemma, plural,
// gender, in lower case), fetched at wiktionaryNounsCommit: the words of
// letters only.
func wiktionaryNounsDE() ([]string, error) {
	dir := shareddata.Fetched(wiktionaryNounsRepo)
	b, err := exec.Command("git", "--git-dir", dir, "show", wiktionaryNounsCommit+":nouns.csv").Output()
	if err != nil {
		return nil, fmt.Errorf("%w: %s", errFetchedMissing, wiktionaryNounsName)
	}
	r := csv.NewReader(bytes.NewReader(b))
	r.FieldsPerRecord = -1
	seen := map[string]bool{}
	var out []string
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", wiktionaryNounsRepo, err)
		}
		for _, f := range rec[:min(2, len(rec))] {
			w := strings.ToLower(strings.TrimSpace(f))
			if w == "" || seen[w] || !letters([]rune(w)) {
				continue
			}
			seen[w] = true
			out = append(out, w)
		}
	}
	return out, nil
}

// smartData is the index of SmartData among nounsDE's sources: a word
// only its news, traffic reports and tweets write capitalised is left
// out, as they leave some names unlabelled ("Davutoglu").
const smartData = 2

const (
	nounMin         = 3
	nounRatio       = 4
	nounEntityShare = 20
	// nounInNamesShare bounds nouns_de_in_names.txt: nouns that names
	// hold often ("Zeit", "Kirche", "Unternehmen"), still under 1 in
	// nounInNamesShare of their uses.
	nounInNamesShare = 4
	// nounNovels is the fewest novels a word of the unlabelled novels
	// alone must be capitalised in: a character's name stays in its
	// novel, a noun is in many.
	nounNovels = 8
)

// The verdicts of share.
const (
	nounShareNone    = iota // no noun, or too often in names
	nounShareRare           // under 1 in nounEntityShare: nouns_de.txt
	nounShareInNames        // under 1 in nounInNamesShare: nouns_de_in_names.txt
)

// share judges w: counted often enough, capitalised nounRatio times as
// often as in lower case, and how often an entity holds it.
func (c *nounCounts) share(w string) int {
	n := c.capital[w]
	labelled := n - c.inNovels[w]
	if n < nounMin || n < nounRatio*c.lower[w] || labelled < nounMin && len(c.novels[w]) < nounNovels || len([]rune(w)) < 3 {
		return nounShareNone
	}
	switch {
	case c.entity[w] == 0 || nounEntityShare*c.entity[w] < labelled:
		return nounShareRare
	case nounInNamesShare*c.entity[w] < labelled:
		return nounShareInNames
	}
	return nounShareNone
}

// newNounCounts returns empty counts.
func newNounCounts() *nounCounts {
	return &nounCounts{capital: map[string]int{}, lower: map[string]int{}, entity: map[string]int{}, inNovels: map[string]int{},
		novels: map[string]map[int]bool{}, in: map[string]uint{}}
}

// nounCounts are the counts of nounsDE: capitalised and lower-case
// occurrences, capitalised ones inside labelled entities, and for the
// unlabelled novels, the capitalised occurrences there and the novels
// each word is capitalised in.
type nounCounts struct {
	capital, lower, entity map[string]int
	inNovels               map[string]int
	// in marks, bit k, the sources (by index) a word is capitalised in.
	in map[string]uint
	// spoken are the words German speaks most (spokenWordsDE), for
	// lexiconNoun.
	spoken map[string]bool
	novels map[string]map[int]bool
}

// count counts toks, of nounsDE's source'th source, leaving out each
// sentence's first word and words not of letters only.
func (c *nounCounts) count(toks []ltok, source int) {
	for _, t := range toks {
		rs := []rune(t.text)
		if t.start || !letters(rs) {
			continue
		}
		w := strings.ToLower(t.text)
		rest := string(rs[1:])
		switch {
		case unicode.IsUpper(rs[0]) && rest == strings.ToLower(rest):
			c.capital[w]++
			c.in[w] |= 1 << source
			if t.entity {
				c.entity[w]++
			}
			if t.doc > 0 {
				c.inNovels[w]++
				if c.novels[w] == nil {
					c.novels[w] = map[int]bool{}
				}
				c.novels[w][t.doc] = true
			}
		case unicode.IsLower(rs[0]):
			c.lower[w]++
		}
	}
}

// letters reports whether rs are letters only.
func letters(rs []rune) bool {
	for _, r := range rs {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}
