package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
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
			for _, f := range []string{"nouns_de.txt", "nouns_de_in_names.txt"} {
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
	sort.Strings(words)
	sort.Strings(inNames)
	header := append([]string{
		fmt.Sprintf("Words German writes capitalised inside its sentences (at least %d times, %d times as often as in lower case: its nouns),", nounMin, nounRatio),
		fmt.Sprintf("seldom part of a labelled entity of any kind (under 1 in %d), in the labelled sources at least %d times or in %d novels,", nounEntityShare, nounMin, nounNovels),
		"and no popular name of Germany, Austria or Switzerland; a word SmartData alone writes capitalised is left out (its tweets leave names unlabelled);",
		"lower case, one per line.",
	}, credits...)
	header = append(header, creditPopularNames)
	if err := g.write("nouns_de.txt", header, words); err != nil {
		return err
	}
	header[1] = fmt.Sprintf("part of a labelled entity of any kind 1 time in %d or more but under 1 in %d (\"Zeit\", \"Kirche\"), in the labelled sources at least %d times or in %d novels, judged without SmartData's counts,",
		nounEntityShare, nounInNamesShare, nounMin, nounNovels)
	return g.write("nouns_de_in_names.txt", header, inNames)
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
	in     map[string]uint
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
