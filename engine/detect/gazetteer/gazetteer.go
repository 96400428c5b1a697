// Package gazetteer holds the word lists the pattern recognizers use to
// confirm a match: first names and surnames, common words, cities and
// countries, postcode prefixes, street and unit types, company legal forms
// and honorifics. The lists are built by engine/detect/internal/gen from
// the shared data sources and embedded, so the service needs no data
// files at run time; data/README.md names every source and its licence.
//
// It also holds the rules' hand-written word lists (words/*.txt: particles,
// stop words, labels, cue words; see Words), each file with its provenance
// in its header.
package gazetteer

import (
	"bufio"
	"embed"
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

//go:embed data/*.txt
var files embed.FS

// Set is a set of lower-case strings.
type Set map[string]struct{}

// Has reports whether s (already lower case) is in the set.
func (s Set) Has(k string) bool { _, ok := s[k]; return ok }

// Sorted is a large list of keys kept sorted: a slice costs a fraction
// of a map's memory, and a binary search is fast enough where a rule
// asks rarely.
type Sorted []string

// Has reports whether k is in s.
func (s Sorted) Has(k string) bool {
	i := sort.SearchStrings(s, k)
	return i < len(s) && s[i] == k
}

// Ranked maps lower-case strings to their frequency rank (0 = most
// frequent).
type Ranked map[string]int32

// Has reports whether k is in the list.
func (r Ranked) Has(k string) bool { _, ok := r[k]; return ok }

// Rank returns k's rank, or -1 when absent.
func (r Ranked) Rank(k string) int {
	if n, ok := r[k]; ok {
		return int(n)
	}
	return -1
}

// Flag bits of Lex: what a lower-case word is known as.
const (
	FirstName uint32 = 1 << iota
	Surname
	Common
	City
	Country
	Title
	LegalForm // the word alone is a legal form (normalised with NormLegal)
	StreetSuffix
	StreetPrefix
	Unit
	POBox
	// MultiStart marks the first word of a multi-word entry of Cities,
	// Countries, StreetPrefix or POBoxes: only there is joining words worth
	// trying.
	MultiStart
	TopFirstName // among the 1000 most frequent first names
	// Prose marks words that novels write in lower case inside their
	// sentences and no name list holds (prose_words.txt): wider than
	// Common, read only where a model span is judged to be made of
	// ordinary words.
	Prose
	// LowerDE ... LowerPT mark the words German, French, Spanish, Italian,
	// Dutch and Portuguese write in lower case inside their sentences
	// (lower_words_<lang>.txt; LowerIn): the ordinary words of a block in
	// that language, where the English name lists hold many of its
	// function words ("de", "la", "bien", "merci").
	LowerDE
	LowerFR
	LowerES
	LowerIT
	LowerNL
	LowerPT
	// NounDE marks the words German writes capitalised inside its
	// sentences, seldom in a name (nouns_de.txt): its nouns, which no
	// lower-case list holds ("Vertrag", "Gehalt"). Many surnames are
	// nouns too ("Fischer"): a reader checks the name lists as well.
	NounDE
	// NounDEInNames marks German nouns that names hold more often
	// (nouns_de_in_names.txt: "Zeit", "Regierung", 1 use in 20 to 1 in
	// 4 inside a labelled entity): ordinary words only beside other
	// ordinary words.
	NounDEInNames
	// NounDENamed marks German nouns that a name or place list holds too
	// (nouns_de_named.txt: "Mann", "Koch", "Gott"), which NounDE and
	// NounDEInNames leave out: capitalised in a German sentence, such a
	// word alone is as likely the noun as the name.
	NounDENamed
	// NounDELexicon marks every noun of Wiktionary's German lexicon that
	// no name or place list holds (nouns_de_lexicon.txt), heads of names
	// too ("Partei", "Amt"): read only where a capitalised word that no
	// other list holds would be taken for a name alone.
	NounDELexicon
)

// LowerAny is any of the six lower-case lists' flags.
const LowerAny = LowerDE | LowerFR | LowerES | LowerIT | LowerNL | LowerPT

// lowerFiles are the lower-case word lists of the six other languages,
// by ISO 639-1 code, with their Lex flags.
var lowerFiles = []struct {
	code string
	flag uint32
}{{"de", LowerDE}, {"fr", LowerFR}, {"es", LowerES}, {"it", LowerIT}, {"nl", LowerNL}, {"pt", LowerPT}}

// LowerIn returns the Lex flag of the words the language of ISO 639-1
// code writes in lower case, or 0 for English (whose lists are Common
// and Prose) and any other code.
func LowerIn(code string) uint32 {
	for _, l := range lowerFiles {
		if l.code == code {
			return l.flag
		}
	}
	return 0
}

// Gazetteers are the loaded lists. All keys are lower case except the UK
// outward codes and Canadian FSAs, which are upper case.
type Gazetteers struct {
	// FirstNames are ranked by how many people bear them.
	FirstNames Ranked
	Surnames   Set
	// Common holds words written in lower case in running text.
	Common Set
	// Prose holds words written in lower case in novels (see Prose).
	Prose             Set
	Cities, Countries Set
	// Places are the places of the postcode lists (places_eu.txt), sorted:
	// villages as well as towns. Read only where a letter names its place.
	Places Sorted
	Titles Set
	// LegalForms are normalised with NormLegal.
	LegalForms Set
	GBOutward  Set
	CAFSA      Set
	// USZip3 maps a ZIP prefix to the states it serves ("606" -> "IL").
	USZip3 map[string]string
	// Street types by position: StreetSuffix follow the name as a word
	// ("Main Street"), StreetPrefix precede it ("rue", "Via"), and
	// StreetCompound end a word ("Hauptstraße"), longest first.
	StreetSuffix, StreetPrefix Set
	StreetCompound             []string
	// NumberAfter are the suffix types of the languages that write the
	// house number after the street ("Király u. 23", "Berliner Straße 5",
	// "Kerkweg 12"): every suffix type the English list does not hold.
	NumberAfter    Set
	Units, POBoxes Set
	// Lex maps a lower-case word to its Flag bits, so a recognizer learns
	// everything about a word with one lookup.
	Lex map[string]uint32
	// ends counts the endings of Lex's words on first use (CommonEnding).
	ends *lazyEndings
}

// LowerCase reports whether w (lower case) is usually written in lower
// case in running text: a word of Common or Prose. The NER detector reads
// a window in capitals once more truecased by it (models/ner
// DetectorOptions.LowerCase).
func (z *Gazetteers) LowerCase(w string) bool { return z.Lex[w]&(Common|Prose) != 0 }

var (
	once sync.Once
	g    *Gazetteers
	gErr error
)

// Get returns the lists, loading them on first use (about 30 ms). The
// embedded files are part of the binary, so an error here is a build
// defect; callers may treat it as fatal.
func Get() (*Gazetteers, error) {
	once.Do(func() { g, gErr = load() })
	return g, gErr
}

func load() (*Gazetteers, error) {
	z := &Gazetteers{USZip3: map[string]string{}, StreetSuffix: Set{}, StreetPrefix: Set{}, Units: Set{}, POBoxes: Set{},
		ends: &lazyEndings{}}
	sets := []struct {
		file string
		dst  *Set
	}{
		{"surnames.txt", &z.Surnames}, {"common_words.txt", &z.Common}, {"prose_words.txt", &z.Prose},
		{"cities.txt", &z.Cities}, {"countries.txt", &z.Countries}, {"titles.txt", &z.Titles},
		{"legal_forms.txt", &z.LegalForms}, {"gb_outward.txt", &z.GBOutward}, {"ca_fsa.txt", &z.CAFSA},
	}
	for _, s := range sets {
		m := Set{}
		if err := eachLine(s.file, func(l string) { m[l] = struct{}{} }); err != nil {
			return nil, err
		}
		*s.dst = m
	}
	// The US names first, by births; the six languages' names its lists
	// lack after them, at the lowest ranks.
	z.FirstNames = Ranked{}
	for _, f := range []string{"first_names.txt", "first_names_eu.txt"} {
		if err := eachLine(f, func(l string) {
			if _, dup := z.FirstNames[l]; !dup {
				z.FirstNames[l] = int32(len(z.FirstNames))
			}
		}); err != nil {
			return nil, err
		}
	}
	if err := eachLine("us_zip3.txt", func(l string) {
		if p, st, ok := strings.Cut(l, " "); ok {
			z.USZip3[p] = st
		}
	}); err != nil {
		return nil, err
	}
	compound := map[string]bool{}
	english, foreign := Set{}, Set{}
	if err := eachLine("street_types.txt", func(l string) {
		f := strings.Split(l, "\t")
		if len(f) != 3 {
			return
		}
		for _, form := range strings.Split(f[2], "|") {
			switch f[1] {
			case "suffix":
				z.StreetSuffix[form] = struct{}{}
				if f[0] == "en" {
					english[form] = struct{}{}
				} else {
					foreign[form] = struct{}{}
				}
			case "prefix":
				z.StreetPrefix[form] = struct{}{}
			case "compound":
				compound[form] = true
			}
		}
	}); err != nil {
		return nil, err
	}
	z.NumberAfter = Set{}
	for form := range foreign {
		if !english.Has(form) {
			z.NumberAfter[form] = struct{}{}
		}
	}
	for c := range compound {
		z.StreetCompound = append(z.StreetCompound, c)
	}
	sort.Slice(z.StreetCompound, func(i, j int) bool {
		a, b := z.StreetCompound[i], z.StreetCompound[j]
		return len(a) > len(b) || len(a) == len(b) && a < b
	})
	if err := eachLine("unit_types.txt", func(l string) {
		kind, forms, _ := strings.Cut(l, "\t")
		dst := z.Units
		if kind == "pobox" {
			dst = z.POBoxes
		}
		for _, f := range strings.Split(forms, "|") {
			dst[f] = struct{}{}
		}
	}); err != nil {
		return nil, err
	}
	if err := eachLine("places_eu.txt", func(l string) { z.Places = append(z.Places, l) }); err != nil {
		return nil, err
	}
	if !sort.StringsAreSorted(z.Places) {
		return nil, fmt.Errorf("gazetteer: places_eu.txt is not sorted")
	}
	z.buildLex()
	for _, l := range lowerFiles {
		if err := eachLine("lower_words_"+l.code+".txt", func(w string) { z.Lex[w] |= l.flag }); err != nil {
			return nil, err
		}
	}
	if err := eachLine("nouns_de.txt", func(w string) { z.Lex[w] |= NounDE }); err != nil {
		return nil, err
	}
	if err := eachLine("nouns_de_in_names.txt", func(w string) { z.Lex[w] |= NounDEInNames }); err != nil {
		return nil, err
	}
	if err := eachLine("nouns_de_named.txt", func(w string) { z.Lex[w] |= NounDENamed }); err != nil {
		return nil, err
	}
	if err := eachLine("nouns_de_lexicon.txt", func(w string) { z.Lex[w] |= NounDELexicon }); err != nil {
		return nil, err
	}
	return z, nil
}

func (z *Gazetteers) buildLex() {
	z.Lex = make(map[string]uint32, len(z.Surnames)+len(z.Cities)+len(z.FirstNames))
	mark := func(s Set, f uint32) {
		for k := range s {
			if first, _, multi := strings.Cut(k, " "); multi {
				z.Lex[first] |= MultiStart
				z.Lex[strings.TrimSuffix(first, ".")] |= MultiStart
				continue
			}
			z.Lex[k] |= f
			if t := strings.TrimSuffix(k, "."); t != k && t != "" {
				z.Lex[t] |= f
			}
		}
	}
	for k, r := range z.FirstNames {
		z.Lex[k] |= FirstName
		if r < 1000 {
			z.Lex[k] |= TopFirstName
		}
	}
	mark(z.Surnames, Surname)
	mark(z.Common, Common)
	mark(z.Prose, Prose)
	mark(z.Cities, City)
	mark(z.Countries, Country)
	mark(z.Titles, Title)
	mark(z.LegalForms, LegalForm)
	mark(z.StreetSuffix, StreetSuffix)
	mark(z.StreetPrefix, StreetPrefix)
	mark(z.Units, Unit)
	mark(z.POBoxes, POBox)
}

// FoldAccents removes combining marks after canonical decomposition
// ("montréal" -> "montreal", "océane" -> "oceane"); letters with no
// decomposition (ß, ø, ł) stay.
func FoldAccents(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(r)
	}
	return norm.NFC.String(b.String())
}

// Is reports whether the lower-case word w has any of the flags f.
func (z *Gazetteers) Is(w string, f uint32) bool { return z.Lex[w]&f != 0 }

func eachLine(name string, fn func(string)) error {
	f, err := files.Open("data/" + name)
	if err != nil {
		return fmt.Errorf("gazetteer: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if l == "" || l[0] == '#' {
			continue
		}
		fn(l)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("gazetteer: %s: %w", name, err)
	}
	return nil
}

// NormLegal is how legal forms are compared: lower case, without dots,
// spaces, hyphens, commas or apostrophes ("S.p.A." = "spa").
func NormLegal(s string) string {
	plain := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' || c == '.' || c == ' ' || c == '-' || c == ',' || c == '\'' || c >= 0x80 {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range strings.ToLower(s) {
		switch r {
		case '.', ' ', '-', ',', '\'':
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
