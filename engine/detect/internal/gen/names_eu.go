package main

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
)

// firstNamesEU writes first_names_eu.txt: the first names that the six
// languages' labelled train parts write at the head of a person's name
// of two words or more ("Florent Mothe", "Uwe Seeler", "Wouter Bos")
// and the US lists of first_names.txt lack. The service reads them as
// first names of the lowest rank, after the US ones: a lone one is no
// name, one before a capitalised word opens a person's name.
//
// A word is kept when it opens such a name at least euNameMin times, when
// at least half of its capitalised uses in the same sources open one
// (else it is mostly a word, a place or a surname: "Santa", "Van"), and
// when no list of words or places the steps before wrote holds it.
//
// The sources are train parts only, never a split engine/detect/eval
// scores; WikiANN's labels are silver, hence the counts above.
func (g *gen) firstNamesEU() error {
	skip, err := g.wordsAndPlaces()
	if err != nil {
		return fmt.Errorf("first names eu: %w", err)
	}
	opens, capital := map[string]int{}, map[string]int{}
	var credits []string
	for _, s := range euNameSources() {
		toks, err := s.read(g)
		if err != nil {
			return fmt.Errorf("first names eu: %s: %w", s.name, err)
		}
		countOpeners(toks, opens, capital)
		credits = append(credits, "source: "+s.name+"; "+s.licence)
	}
	var names []string
	for w, n := range opens {
		if n >= euNameMin && 2*n >= capital[w] && !skip[w] && len([]rune(w)) > 2 {
			names = append(names, w)
		}
	}
	// Most often opening a name first, as first_names.txt ranks its own.
	sort.Slice(names, func(i, j int) bool {
		if opens[names[i]] != opens[names[j]] {
			return opens[names[i]] > opens[names[j]]
		}
		return names[i] < names[j]
	})
	header := append([]string{
		fmt.Sprintf("First names of the six languages that first_names.txt lacks: words opening a person's name of two words or more at least %d times,", euNameMin),
		"at least half of their capitalised uses, in the labelled train parts below; in no list of words or places; lower case, most often first.",
	}, credits...)
	return g.write("first_names_eu.txt", header, names)
}

const euNameMin = 3

// euNameSources are the labelled train parts of the six languages.
func euNameSources() []lowerSource {
	wikiann := func(code string) lowerSource {
		return columnsStrip("ner/wikiann_"+code+"/train (test and dev are scored)", "WikiANN, text from Wikipedia (CC-BY-SA-3.0); silver labels",
			"ner/wikiann_"+code+"/train", 0, 1, code+":")
	}
	return []lowerSource{
		wikiann("de"), wikiann("fr"), wikiann("nl"), wikiann("pt"),
		columns("ner/europeana_de/enp_DE.lft.bio (the lft part: onb is the test, sbb the dev)", licCC0Europeana, "ner/europeana_de/enp_DE.lft.bio", 0, 1),
		smartDataTrain(),
		columns("ner/icdar_europeana_fr/train.txt", licCC0Europeana, "ner/icdar_europeana_fr/train.txt", 0, 1),
		columns("ner/icdar_europeana_nl/train.txt", licCC0Europeana, "ner/icdar_europeana_nl/train.txt", 0, 1),
		novelsFR(),
		meddocanTrain(),
		columns("ner/uner_portuguese_bosque/pt_bosque-ud-train.iob2", "CC-BY-SA-4.0 (UNER Portuguese-Bosque)", "ner/uner_portuguese_bosque/pt_bosque-ud-train.iob2", 1, 2),
		columns("ner/lener_br/train.conll", "MIT (LeNER-Br, Copyright (c) 2022 Pedro Henrique Luz de Araujo)", "ner/lener_br/train.conll", 0, 1),
	}
}

// countOpeners counts, per lower-cased word, its capitalised uses
// (capital) and those that open a person's name another capitalised
// word of the name follows (opens).
func countOpeners(toks []ltok, opens, capital map[string]int) {
	for i, t := range toks {
		rs := []rune(t.text)
		if !unicode.IsUpper(rs[0]) {
			continue
		}
		w := strings.ToLower(t.text)
		capital[w]++
		if t.personStart && i+1 < len(toks) && toks[i+1].person && !toks[i+1].personStart &&
			unicode.IsUpper([]rune(toks[i+1].text)[0]) {
			opens[w]++
		}
	}
}

// wordsAndPlaces reads the lists of words and places the steps before
// wrote (and the first names already listed), or their committed copies
// where a step skipped one: a word they hold is no new first name.
func (g *gen) wordsAndPlaces() (map[string]bool, error) {
	files := []string{"first_names.txt", "common_words.txt", "prose_words.txt", "cities.txt", "countries.txt",
		"places_eu.txt", "nouns_de.txt", "nouns_de_lexicon.txt", "titles.txt", "legal_forms.txt"}
	for _, l := range lowerLangs {
		files = append(files, "lower_words_"+l.code+".txt")
	}
	skip := map[string]bool{}
	for _, f := range files {
		dir := g.out
		if _, skipped := g.skipped[f]; skipped {
			dir = g.committed
		}
		ls, err := readLines(filepath.Join(dir, f))
		if err != nil {
			return nil, err
		}
		for _, l := range ls {
			if !strings.ContainsAny(l, " \t") { // a place or title of several words holds no word alone
				skip[strings.ToLower(l)] = true
			}
		}
	}
	return skip, nil
}
