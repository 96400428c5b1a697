package rules

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/lang"
	"github.com/redactd/redactd/engine/detect/pattern"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// The person and organization recognizers are a recall helper for the NER
// model, not a replacement: they only fire on strong, cheap evidence
// (a first name followed by a surname, an honorific, a label such as
// "Name:", a legal form such as "GmbH"), and never on a capitalised common
// word alone, so "Will you come?" and "Grace period" stay readable.

// particles join the parts of a surname ("Donald van der Voet").
var particles = gazetteer.MustWords("connectors", "name")

// nameLabels introduce a person's name in forms and letters.
var nameLabels = gazetteer.MustWords("labels", "name")

// rankTitles are ranks and offices written before a name ("General Ross
// Hoyt", "Captain Newell Beaty"); unlike honorifics they are also ordinary
// words ("General Motors"), so the name after them must be a known one.
var rankTitles = gazetteer.MustWords("people", "rank")

// salutations precede a name without a colon.
var salutations = gazetteer.MustWords("labels", "salutation")

// stopwords never belong to a name or an organization's name.
var stopwords = gazetteer.MustWords("stopwords", "name")

// dateGlue are the words that stand before a month's name in a date
// phrase ("since May", "bis Mai", "circa June"): a first name that is a
// month's is no first name after one.
var dateGlue = union(gazetteer.MustWords("dates", "life-event-glue"), gazetteer.MustWords("dates", "before-month"))

type nameFinder struct {
	gz  *gazetteer.Gazetteers
	org *orgFinder
	// known are the organizations known by name: a name of two words or
	// more of that list is no person's ("Real Madrid"), unless it is a
	// first name and a surname ("Carl Zeiss").
	known *knownOrgFinder
	// single enables lone first names; weak enables unknown word +
	// surname. Both trade precision for recall (see the evaluation).
	single, weak bool
}

func newNameFinder(gz *gazetteer.Gazetteers) *nameFinder {
	return &nameFinder{gz: gz, org: newOrgFinder(gz), known: newKnownOrgFinder(gz), single: true, weak: true}
}

// nameShaped reports whether w looks like a capitalised name: letters
// (with inner hyphens or apostrophes), first letter upper case, at least
// two letters.
func nameShaped(w string) bool {
	if len(w) < 2 {
		return false
	}
	r, _ := utf8.DecodeRuneInString(w)
	if !unicode.IsUpper(r) {
		return false
	}
	letters := 0
	prev := rune(0)
	for _, r := range w {
		switch {
		case unicode.IsLetter(r):
			letters++
		case r == '-' || r == '\'' || r == '’':
			if !unicode.IsLetter(prev) {
				return false
			}
		default:
			return false
		}
		prev = r
	}
	return letters >= 2 && unicode.IsLetter(prev)
}

// isInitial matches "J." and "J".
func isInitial(w string) bool {
	r, n := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r) && (len(w) == n || w[n:] == ".")
}

type nameTok struct {
	core, low      string
	shaped         bool
	first, surname bool
	common         bool
	initial        bool
	particle       bool
	// stop: the word ends in punctuation that ends a name (",", ";", ":").
	stop bool
	// punct is the first punctuation byte after the core, or 0.
	punct byte
	// noname: a function word, or a word of addresses, companies or
	// places ("Street", "Ltd", "Arabia") that a name never contains.
	noname bool
	city   bool
	// top: among the most frequent first names.
	top bool
	// poss: the word is in the possessive ("Walker's"); its flags are
	// those of the name.
	poss bool
	// noun: an ordinary German noun in a block read as German
	// (phraseNoun): "Ausbreitung", "Versuch".
	noun bool
	// opener: a word of the block's lower-case list opening its sentence
	// in a block surely in that language ("Dann", "Está").
	opener bool
	// sureDE: the block is surely German (sureLangFlag).
	sureDE bool
	// opens: the word opens its sentence (opensSentence).
	opens bool
	// sureLang: the Lex flag of the block's language when the block is
	// surely in it (sureLangFlag), 0 otherwise.
	sureLang uint32
	// lang: the Lex flag of the block's language (langFlag), 0 for
	// English.
	lang uint32
}

// german reports whether the word's block is read as German.
func (t nameTok) german() bool { return t.lang == gazetteer.LowerDE }

func nameTokAt(v *view.View, gz *gazetteer.Gazetteers, i int) nameTok {
	c := v.CoreText(i)
	l := v.CoreLower(i)
	t := nameTok{core: c, low: l, shaped: nameShaped(c), initial: isInitial(c), particle: particles[l],
		lang: langFlag(v, i)}
	if t.shaped {
		// A name in the possessive is the name: "Teresa Walker's".
		for _, p := range []string{"'s", "’s"} {
			if s, ok := strings.CutSuffix(l, p); ok && nameShaped(c[:len(s)]) {
				l, t.stop, t.poss = s, true, true // the name ends at its possessive
				break
			}
		}
		f := gz.Lex[l]
		if f&(gazetteer.FirstName|gazetteer.Surname) == 0 && !isASCII(l) && (f&gazetteer.LowerAny == 0 || !opensSentence(v, i)) {
			// The name lists are written without accents: "Océane",
			// "Hélène", "Jürgen" are known as "oceane", "helene", "jurgen";
			// not a word a language writes so in lower case opening its
			// sentence ("Está ameaçada" is no "Esta"; "São Bernardo" is).
			f |= gz.Lex[gazetteer.FoldAccents(l)] & (gazetteer.FirstName | gazetteer.TopFirstName | gazetteer.Surname)
		}
		t.first = f&gazetteer.FirstName != 0
		t.top = f&gazetteer.TopFirstName != 0
		t.surname = f&gazetteer.Surname != 0 || t.german() && genitiveSurnameDE(gz, l, f)
		t.noname = stopwords[l] || f&gazetteer.Country != 0 || notNameWord(gz, l, f)
		t.common = t.noname || f&gazetteer.Common != 0 || pattern.MonthNumber(l) > 0 || pattern.IsWeekday(l)
		t.city = f&gazetteer.City != 0
		t.noun = t.german() && phraseNoun(gz, c, l)
		lf := sureLangFlag(v, i)
		t.opener = lf != 0 && f&lf != 0 && opensSentence(v, i)
		t.sureDE = lf == gazetteer.LowerDE
		t.sureLang = lf
		t.opens = opensSentence(v, i)
	}
	if t.particle && articlesDE[l] && t.german() &&
		(i == 0 || v.LineOf(i-1) != v.LineOf(i) || !particles[v.CoreLower(i-1)]) {
		t.particle = false // "Boden der Tatsachen", not "von der Leyen"
	}
	_, we := v.WordRange(i)
	_, ce := v.Core(i)
	if ce < we {
		t.punct = v.Text[ce]
		switch v.Text[ce] {
		case ',', ';', ':', '!', '?', ')':
			t.stop = true
		case '.':
			t.stop = !t.initial
		}
	}
	return t
}

// opensAfterNoun reports whether toks[i], a first name that is also a
// common word, opens the name it stands before because the word before it
// is a label, a noun or another word in lower case that no name or date
// phrase takes in: "Mieterin: Mai Thi Nguyen", "der Mieter Mai Thi
// Nguyen", "the tenant Man Lee Wong", "der Brief an Mai Thi Nguyen"; not
// "Tower Man George Hauser", "im Mai Peter Müller", "Ende Mai Peter
// Müller", "am 3. Mai Peter Müller".
func opensAfterNoun(toks []nameTok, i int) bool {
	if i == 0 {
		return false
	}
	switch p := toks[i-1]; {
	case p.punct == ':':
		return true // "Mieterin: Mai Thi Nguyen"
	case dateGlue[p.low]:
		return false
	default:
		return p.noun || lowerWord(p.core)
	}
}

// notNameWord reports whether l is a word of addresses or company names
// ("Street", "Apt", "Ltd"): such a capitalised word is no evidence of a
// person.
func notNameWord(gz *gazetteer.Gazetteers, l string, f uint32) bool {
	const addrOrLegal = gazetteer.StreetSuffix | gazetteer.StreetPrefix | gazetteer.Unit | gazetteer.LegalForm
	if f&addrOrLegal != 0 {
		return true
	}
	// "S.A.", "Co." are legal forms once normalised.
	return strings.ContainsAny(l, ".-'") && gz.Is(gazetteer.NormLegal(l), gazetteer.LegalForm)
}

// inAddress reports whether the name [s, e] of line [first, end) sits in
// a street: after a house number or a prefix street type ("15 Via Carlo
// Cattaneo", "Rua Joaquim ..."), or before a street type ("Koontz Lane").
func inAddress(v *view.View, gz *gazetteer.Gazetteers, s, e, first, end int) bool {
	if s > first {
		p := v.CoreLower(s - 1)
		if houseNumber.MatchString(p) || gz.StreetPrefix.Has(p) || gz.StreetPrefix.Has(strings.TrimSuffix(p, ".")) {
			return true
		}
	}
	if e+1 < end {
		q := strings.TrimSuffix(v.CoreLower(e+1), ".")
		if gz.StreetSuffix.Has(q) && view.IsCapitalised(v.CoreText(e+1)) && !isPostNominal(v.CoreText(e+1)) || houseNumber.MatchString(q) && e+2 >= end {
			return true
		}
	}
	return false
}

// inPlaceName reports whether words s..e lie inside a town or country
// name of two to four words on their line ("San Diego", "Los Angeles",
// "Santa Clara"): first names and surnames are often the words of Spanish
// and Portuguese place names.
func inPlaceName(v *view.View, gz *gazetteer.Gazetteers, s, e, first, end int) bool {
	const longest = 4
	for a := max(first, e-longest+1); a <= s; a++ {
		if gz.Lex[v.CoreLower(a)]&gazetteer.MultiStart == 0 {
			continue
		}
		phrase := v.CoreLower(a)
		for b := a + 1; b < min(end, a+longest); b++ {
			phrase += " " + v.CoreLower(b)
			if b >= e && (gz.Cities.Has(phrase) || gz.Countries.Has(phrase)) {
				return true
			}
		}
	}
	return false
}

// tokPool recycles the per-page token buffers of nameFinder.find.
var tokPool = sync.Pool{New: func() any { return new([]nameTok) }}

func (n *nameFinder) find(v *view.View) []page.Span {
	var out []page.Span
	bp := tokPool.Get().(*[]nameTok)
	defer tokPool.Put(bp)
	if cap(*bp) < v.Len() {
		*bp = make([]nameTok, v.Len())
	}
	buf := (*bp)[:v.Len()]
	for k := 0; k < v.Lines(); k++ {
		first, end := v.Line(k)
		if end-first == 0 {
			continue
		}
		lower := isLowerLine(v, first, end)
		out = append(out, contextNames(v, n.gz, first, end, lower)...)
		if lower {
			out = append(out, n.lowerNames(v, first, end)...)
			continue
		}
		toks := buf[:end-first]
		for i := first; i < end; i++ {
			toks[i-first] = nameTokAt(v, n.gz, i)
		}
		for i := 0; i < len(toks); {
			s, e, score := n.at(toks, i)
			if score == 0 && cued(n.gz, toks, i) {
				s, e, score = i, extend(toks, i, 3), 0.6
			}
			if score == 0 && i > 0 && rankedLower(n.gz, toks, i) {
				s, e, score = i, extend(toks, i, 3), 0.5
			}
			if score == 0 && rankAppositive(n.gz, toks, i) {
				s, e, score = i, i, 0.5
			}
			if score == 0 {
				if j := initialsName(toks, i); j >= 0 {
					s, e, score = i, j, 0.5
				}
			}
			if score == 0 && i > 0 && particlesAfterLowerTitle(n.gz, toks, i) {
				s, e, score = i, extend(toks, i, 4), 0.5
			}
			if score == 0 {
				i++
				continue
			}
			i = e + 1
			if n, _ := n.org.legalAt(v, first+e+1, end); n > 0 {
				continue // "Boston Consulting Group": the organization's
			}
			if inAddress(v, n.gz, first+s, first+e, first, end) {
				continue // the address recognizer's
			}
			if inPlaceName(v, n.gz, first+s, first+e, first, end) {
				continue // "San Diego", "Los Angeles": a town, not a person
			}
			if e > s && (!toks[s].first || toks[e].city) && n.known.nameAt(v, first+s, end, false) >= e-s+1 {
				// "Real Madrid": an organization's name. A first name and
				// a surname that is no town name a founder too ("Carl
				// Zeiss", "Robert Bosch"), and stay a person's as well.
				continue
			}
			if e+1 < len(toks) && toks[e+1].shaped && toks[e+1].common && !toks[e].stop && !isPostNominal(toks[e+1].core) &&
				toks[e+1].punct != ':' && !toks[e+1].noun { // "Name: Erica Smith Phone: 555 0101": the next field's label

				// "Paxton Carnegie Public Library", "Montreal Hockey
				// Club": a name runs on into capitalised common words;
				// not into a German noun ("Da Amundsen Teilnehmer der
				// Expedition war").
				continue
			}
			if sp, ok := v.CoreSpan(first+s, first+e, page.Person, score, NameGazetteer); ok {
				out = append(out, sp)
			}
		}
	}
	return out
}

// lowerNames finds names on a line written all in lower case ("have you
// been to a claudia nakajima concert?"), where capitals tell nothing: a
// known first name that is not an ordinary word, followed by a known
// surname or a word no list knows.
func (n *nameFinder) lowerNames(v *view.View, first, end int) []page.Span {
	var out []page.Span
	plain := func(i int) (string, uint32, bool) {
		l := v.CoreLower(i)
		f := n.gz.Lex[l]
		return l, f, len(l) >= 3 && isLetters(l) && f&(gazetteer.Common|gazetteer.City|gazetteer.Country|gazetteer.Title) == 0 &&
			!stopwords[l] && pattern.MonthNumber(l) == 0 && !pattern.IsWeekday(l)
	}
	for i := first; i+1 < end; i++ {
		_, f, ok := plain(i)
		if !ok || f&gazetteer.FirstName == 0 || strings.ContainsAny(v.Text[v.CoreEnd(i):v.WordEnd(i)], ",;:.!?") {
			continue
		}
		_, g, ok := plain(i + 1)
		if !ok || g&gazetteer.FirstName != 0 && g&gazetteer.Surname == 0 {
			continue
		}
		if sp, ok := v.CoreSpan(i, i+1, page.Person, 0.4, NameGazetteer); ok {
			out = append(out, sp)
		}
		i++
	}
	if !n.single || !noCaps(v, first, end) {
		return out
	}
	// Writing without capitals ("samantha is a very sympathetic person.
	// they are ..."): a lone known first name that is no ordinary word.
	pairs := len(out)
	for i := first; i < end; i++ {
		if inSpans(out[:pairs], i) {
			continue
		}
		if _, f, ok := plain(i); ok && f&gazetteer.FirstName != 0 && len(v.CoreLower(i)) >= 4 &&
			(f&gazetteer.TopFirstName != 0 || f&gazetteer.Surname == 0) {
			// A frequent first name, or one that is no surname either:
			// rare names that are also surnames are often words ("bloom").
			if sp, ok := v.CoreSpan(i, i, page.Person, 0.35, NameGazetteer); ok {
				out = append(out, sp)
			}
		}
	}
	return out
}

// noCaps reports whether the lower-case line [first, end) is written
// without capitals on purpose rather than being the middle of a
// sentence: a sentence starts in lower case on it ("... person. they
// are"), or it holds the pronoun "i" ("i'm", "i've").
func noCaps(v *view.View, first, end int) bool {
	if first > 0 && strings.ContainsAny(v.Text[v.CoreEnd(first-1):v.WordEnd(first-1)], ".?!") && len(v.CoreLower(first-1)) > 3 {
		return true // the sentence before ended on the line before
	}
	for i := first; i < end; i++ {
		l := v.CoreLower(i)
		switch l {
		case "i", "i'm", "i've", "i'll", "i'd", "im":
			return true
		}
		if i+1 < end {
			w := v.WordText(i)
			if strings.HasSuffix(w, ".") && !strings.HasSuffix(w, "..") && len(v.CoreLower(i)) > 3 ||
				strings.HasSuffix(w, "?") || strings.HasSuffix(w, "!") {
				if isLetters(v.CoreLower(i + 1)) {
					return true
				}
			}
		}
	}
	return false
}

// cued reports whether toks[i] is a capitalised word that is no ordinary
// word right after a phrase that names a person: "my name is Þórólfur",
// "her maiden name is Hyytiä", "everyone calls me Adlan".
func cued(gz *gazetteer.Gazetteers, toks []nameTok, i int) bool {
	if i < 2 || !toks[i].shaped || toks[i].noname || toks[i].common && !toks[i].first && !toks[i].surname ||
		view.IsAllUpper(toks[i].core) || pattern.MonthNumber(toks[i].low) > 0 || pattern.IsWeekday(toks[i].low) || toks[i-1].punct != 0 || toks[i-2].punct != 0 {
		return false
	}
	a, b := toks[i-2].low, toks[i-1].low
	return a == "name" && b == "is" || (a == "call" || a == "calls" || a == "called") && b == "me"
}

// lowerRanks are the ranks and offices Dutch, French, Spanish, Italian
// and Portuguese write in lower case before a name ("prins Couza").
var lowerRanks = gazetteer.MustWords("people", "rank-lower")

// rankedLower reports whether toks[i], in a block of one of the five
// languages that write their nouns in lower case, is a capitalised word
// right after one of their ranks or offices (lowerRanks: "prins Couza",
// "le comte Walewski", "el ministro Solbes") that no list knows as an
// ordinary word of the block's language or of English, a place, a title,
// a month or a weekday. Those languages capitalise names, not nouns, so
// the word after the rank is its holder's name, whether the lists know
// it or not.
func rankedLower(gz *gazetteer.Gazetteers, toks []nameTok, i int) bool {
	t, r := toks[i], toks[i-1]
	// A heading in capitals names so too ("GABINETE DO DESEMBARGADOR
	// SILVANIO BARBOSA DOS SANTOS"), where the lists of ordinary words
	// tell less ("DEPUTADO DISTRITAL"): there the word or the next one
	// must be a known name.
	capitals := view.IsAllUpper(r.core) && view.IsAllUpper(t.core) &&
		(t.first || t.surname || i+1 < len(toks) && !t.stop && (toks[i+1].first || toks[i+1].surname))
	if view.IsAllUpper(t.core) && !capitals || r.punct != 0 || r.shaped && !r.opener && !capitals || !lowerRanks[r.low] && !eponymNouns[r.low] {
		return false
	}
	return rankHolder(gz, t)
}

// rankHolder reports whether t, beside a rank in a block of one of the
// five languages that write their nouns in lower case, is its holder's
// name: a capitalised word that no list knows as an ordinary word of the
// block's language or of English, a place, a title, a month or a
// weekday (rankedLower, rankAppositive).
func rankHolder(gz *gazetteer.Gazetteers, t nameTok) bool {
	return t.lang != 0 && !t.german() && t.shaped && !t.noname && (!t.common || t.first || t.surname) && !t.city &&
		!inLang(gz, t.lang, t.low) && !titleTok(gz, t) && pattern.MonthNumber(t.low) == 0 && !pattern.IsWeekday(t.low)
}

// rankAppositive reports whether toks[i], in a block of one of the five
// languages that write their nouns in lower case, is a capitalised word
// that a comma and one of their ranks or offices follow, as a report
// names a man and then says who he is ("Lacroix, commissaire du
// quartier", "Mallet, commissaire spécial à la gare"): the word must be
// one rankedLower would take after the rank.
func rankAppositive(gz *gazetteer.Gazetteers, toks []nameTok, i int) bool {
	t, j := toks[i], i+1
	if t.punct != ',' {
		if j >= len(toks) || toks[j].core != "" || toks[j].punct != ',' {
			return false
		}
		j++ // a comma standing alone, as tokenised text writes it
	}
	if j >= len(toks) || !lowerRanks[toks[j].low] {
		return false
	}
	return !view.IsAllUpper(t.core) && rankHolder(gz, t)
}

// initialsName returns the surname of a name written as initials,
// particles in lower case and a surname from toks[i] on ("J. A. van der
// Burgh", "A. de Jong"; tokenised text writes each dot alone: "J . A .
// van der Burgh"), or -1. Initials and particles make the name whatever
// the surname is: Dutch newspapers and registers name people so. Not
// before a number, where the initial is a street type's ("C. de Alcalá
// 45"), nor when the word after the particles is a rank, where the
// initials are an honorific's ("Z. M. den Koning": Zijne Majesteit).
func initialsName(toks []nameTok, i int) int {
	k := i
	for k < len(toks) && toks[k].initial {
		switch {
		case toks[k].punct == '.':
			k++
		case k+1 < len(toks) && toks[k+1].core == "" && toks[k+1].punct == '.':
			k += 2
		default:
			return -1
		}
	}
	if k == i || k >= len(toks) || !toks[k].particle || !lowerWord(toks[k].core) {
		return -1
	}
	j := nameAfterParticles(toks, k)
	if j < 0 || j+1 < len(toks) && view.HasDigit(toks[j+1].core) || lowerRanks[toks[j].low] {
		return -1
	}
	return j
}

// particlesAfterLowerTitle reports whether toks[i] opens a surname's
// particles (particlesToName) right after an honorific of four letters
// or more written in lower case: "de heer von Bismarck", "l'onorevole
// von Wogau". The title's own rule starts only at a capitalised word.
// Not after a rank or an office, which the particle joins to a place or
// a body ("maire de Vernouillet", "minister van Oorlog"), nor after a
// short one ("mm de Hg"), nor before an ordinary word of the block's
// language ("professor de Direito").
func particlesAfterLowerTitle(gz *gazetteer.Gazetteers, toks []nameTok, i int) bool {
	r := toks[i-1]
	if r.punct != 0 || !lowerWord(r.core) || utf8.RuneCountInString(r.low) < 4 || !gz.Titles.Has(r.low) ||
		!toks[i].particle || toks[i].initial {
		return false
	}
	k := nameAfterParticles(toks, i)
	// "professor de Direito": a subject, a word of the block's
	// language capitalised.
	return k >= 0 && !inLang(gz, toks[k].lang, toks[k].low)
}

// titledName reports whether a name word that is also a word of
// addresses ("Ford", "Park", "Hill" are street types) is a name after an
// honorific: "Mr. Ford", "Dr. Park". Function words and countries are not.
func titledName(gz *gazetteer.Gazetteers, u nameTok) bool {
	return (u.first || u.surname) && !stopwords[u.low] && !gz.Countries.Has(u.low) && gz.Lex[u.low]&gazetteer.LegalForm == 0
}

// isPostNominal reports whether w is post-nominal letters written in
// capitals or with a dot ("MD", "PhD", "Jr."), which may follow a name.
func isPostNominal(w string) bool {
	t := strings.TrimSuffix(w, ".")
	return postNominals[strings.ToLower(t)] && (view.IsAllUpper(t) || strings.HasSuffix(w, ".") || t == "PhD" || t == "Esq")
}

// titleTok reports whether t is an honorific; one- and two-letter ones
// other than the usual English ones need their dot ("M. Dupont").
func titleTok(gz *gazetteer.Gazetteers, v nameTok) bool {
	l := strings.TrimSuffix(v.low, ".")
	if !gz.Titles.Has(l) || !view.IsCapitalised(v.core) {
		return false
	}
	switch l {
	case "mr", "mrs", "ms", "dr", "mx", "mme", "mlle", "sir", "herr", "frau", "miss", "prof", "dame", "lord", "lady":
		return true
	}
	return len([]rune(l)) > 2 || strings.HasSuffix(v.core, ".") || strings.HasSuffix(v.low, ".")
}

// extend grows a name from toks[s] to the right over further name words,
// initials and particles; it returns the last word.
func extend(toks []nameTok, s int, max int) int {
	e := s
	words := 1
	for j := s + 1; j < len(toks) && words < max && !toks[j-1].stop; j++ {
		t := toks[j]
		switch {
		case t.noname:
			return e
		case t.punct == ':' && !t.first && !t.surname:
			return e // the next field's label: "Selas NºCol: 28 20943"
		case t.shaped && (!t.common || t.surname || t.first):
			e = j
			words++
		case t.initial && j+1 < len(toks) && toks[j+1].shaped:
			continue
		case t.particle && !t.stop && particleRun(toks, j):
			if pairWords[t.low] {
				// "e" and "y" may open a second person's name
				// ("Moses Schönfinkel e Gottlob Frege"): its words
				// count anew, so the name is not cut short before its
				// surname; split-listed-names cuts the two apart.
				words = 0
			}
			continue
		default:
			return e
		}
	}
	return e
}

// joinLow is the tokens' lower-case cores joined by spaces.
func joinLow(toks []nameTok) string {
	ws := make([]string, len(toks))
	for i, t := range toks {
		ws[i] = t.low
	}
	return strings.Join(ws, " ")
}

// particleRun reports whether the particles from toks[j] on ("van der")
// lead to a name word ("Voet").
func particleRun(toks []nameTok, j int) bool { return nameAfterParticles(toks, j) >= 0 }

// nameAfterParticles returns the index of the name word the particles
// from toks[j] on lead to, or -1 where they lead to none.
func nameAfterParticles(toks []nameTok, j int) int {
	for ; j < len(toks); j++ {
		switch t := toks[j]; {
		case t.particle && !t.stop && pairWords[t.low] && j+1 < len(toks) && pairArticles[toks[j+1].low]:
			return -1 // "Real Madrid y el Barcelona": two names, not a double surname
		case t.particle && !t.stop:
			continue
		case t.shaped && !t.noname && !t.common:
			return j
		default:
			return -1
		}
	}
	return -1
}

// pairArticles are the articles that follow "y" or "e" when they join
// two names ("el Real Madrid y el Barcelona", "o Benfica e o Porto"); a
// double surname has its second part right after the conjunction
// ("Ortega y Gasset", "Sousa e Silva").
var pairArticles = map[string]bool{"el": true, "la": true, "los": true, "las": true, "o": true, "a": true, "os": true, "as": true}

// particlesToName reports whether toks[s] opens a run of particles that
// leads to a name word (particleRun): "von Stauffenberg", "de Marelle".
func particlesToName(toks []nameTok, s int) bool {
	return toks[s].particle && !toks[s].initial && particleRun(toks, s)
}

// placeAfter reports whether toks[i] is followed by ", <state or
// country>" ("Austin, Texas"), which makes it a place.
func placeAfter(gz *gazetteer.Gazetteers, toks []nameTok, i int) bool {
	if toks[i].punct != ',' || i+1 >= len(toks) {
		return false
	}
	l := toks[i+1].low
	_, state := usStates[l]
	_, abbr := usStates[toks[i+1].core]
	return state || abbr || gz.Countries.Has(l)
}

// inPlace reports whether toks[i] sits where a city would in an address:
// after a comma, or before a word with digits (a postcode).
func inPlace(gz *gazetteer.Gazetteers, toks []nameTok, i int) bool {
	return i > 0 && toks[i-1].punct == ',' || i+1 < len(toks) && view.HasDigit(toks[i+1].core)
}

// at tries the name rules at toks[i]; it returns the words [s, e] of a
// name and its score, or score 0.
func (n *nameFinder) at(toks []nameTok, i int) (int, int, float32) {
	t := toks[i]
	if !t.shaped && t.punct != ':' && !view.IsCapitalised(t.core) {
		return 0, 0, 0 // no rule starts at a lower-case word without a colon
	}
	next := func(j int) (int, bool) {
		if toks[j].stop {
			return 0, false
		}
		for k := j + 1; k < len(toks); k++ {
			if toks[k].initial || toks[k].particle {
				if toks[k].stop {
					return 0, false
				}
				continue
			}
			return k, toks[k].shaped
		}
		return 0, false
	}
	// Honorific + capitalised words: "Dr. Smith", "Herr Müller", "Mme Dupont".
	if titleTok(n.gz, t) {
		if t.punct != 0 && t.punct != '.' {
			// "Mr, ..." or "Dr:" is no title of a name.
			return 0, 0, 0
		}
		s := i + 1
		if s < len(toks) && toks[s].initial && s+1 < len(toks) {
			s++
		}
		if s < len(toks) {
			if u := toks[s]; u.shaped && (!u.noname || titledName(n.gz, u)) && (!u.common || u.first || u.surname) {
				return i + 1, extend(toks, s, 4), 0.75
			}
			if particlesToName(toks, s) {
				// "Herr von Stauffenberg", "Mme de Marelle": the
				// surname's particles right after the title.
				return s, extend(toks, s, 4), 0.7
			}
		}
		return 0, 0, 0
	}
	// Label + capitalised words: "Name: May Chen", "Dear John,".
	if (nameLabels[t.low] && t.punct == ':' || salutations[t.low] && t.punct == 0) && i+1 < len(toks) {
		if u := toks[i+1]; u.shaped && !u.noname && (!u.common || u.first || u.surname) && !titleTok(n.gz, u) {
			e := extend(toks, i+1, 3)
			if e > i+1 || u.first || u.surname {
				return i + 1, e, 0.6
			}
		}
	}
	if !t.shaped || t.noname {
		return 0, 0, 0
	}
	j, ok := next(i)
	if !ok {
		if n.single && t.first && !t.common && (!t.city || t.top) && !t.poss && !celestial[t.low] &&
			!view.IsAllUpper(t.core) && !placeAfter(n.gz, toks, i) && !(t.city && inPlace(n.gz, toks, i)) &&
			!n.wordOfText(toks, i) {
			// A lone known first name: "Why is David so impulsive?"
			return i, i, 0.4
		}
		if n.single && loneSurnameDE(n.gz, toks, i) {
			return i, i, 0.4
		}
		if n.single && properNounAlone(n.gz, toks, i) {
			return i, i, 0.4
		}
		return 0, 0, 0
	}
	u := toks[j]
	if (u.noun || lexiconNounAfter(n.gz, u)) && j == i+1 && !legalFormAt(n.gz, toks, j+1) && n.single && loneSurnameDE(n.gz, toks, i) {
		// A noun after it is no part of the name ("Da Amundsen Chef
		// der Expedition war", "Da Amundsen Teilnehmer der ..."),
		// unless a legal form makes the two a firm's name ("Becker
		// Immobilien GmbH").
		return i, i, 0.4
	}
	if t.first && toks[i+1].particle && n.gz.Lex[u.low]&gazetteer.Country != 0 {
		// A first name "of" a country, a royal's name: "Berta da
		// Holanda", "Catarina de Áustria" (Portugal is a surname too);
		// the country alone is no name.
		return i, j, 0.55
	}
	if u.noname {
		return 0, 0, 0
	}
	if rankTitles[t.low] {
		if (u.first || u.surname) && !u.common {
			return j, extend(toks, j, 4), 0.6
		}
		return n.afterOffice(toks, i, j)
	}
	switch {
	case t.first && !t.common && j > i+1 && toks[i+1].particle && !toks[i+1].initial && u.shaped && !u.common && !u.city &&
		!n.gz.Cities.Has(joinLow(toks[i:j+1])):
		// A first name and a surname with a particle: "Teresa de Vaan",
		// "William ten Pas", even when the first name is also a town
		// ("Gary", "Teresa"); not a town named so ("Rio de Janeiro").
		return i, extend(toks, i, 4), 0.55
	case t.first && (u.surname || u.first) && !(t.common && u.common):
		// "Will Smith", "May Chen", "Mary Ann Smith"
		if t.common && u.first && j+1 < len(toks) && toks[j+1].shaped && !toks[j].stop && !opensAfterNoun(toks, i) {
			// "Tower Man George Hauser": the name starts at the
			// first name after the common word.
			return j, extend(toks, j, 4), 0.6
		}
		score := float32(0.6)
		if !t.common && !u.common {
			score = 0.7
		}
		return i, extend(toks, i, 4), score
	case t.first && !t.common && !u.common && !u.first && !t.city && !u.city:
		// A known first name and an unknown capitalised word:
		// "Brian Berločnik".
		return i, extend(toks, i, 3), 0.5
	case n.weak && !t.common && !t.first && !t.city && u.surname && !u.common && !view.IsAllUpper(t.core) &&
		!genitiveArticles[toks[i+1].low]:
		// An unknown capitalised word and a known surname: "Ngozi Johnson",
		// "Tiago dos Santos"; not a word before a genitive article, a
		// German noun: "die Einschätzung der Lehrer", "eine Tochter der
		// Schweizer Versicherung" ("Lehrer", "Schweizer" are surnames too).
		if t.noun || t.opener && t.german() {
			// In a German block, an ordinary noun or a word opening
			// its sentence before the surname, with or without a
			// preposition between, is no part of the name: the name
			// is the surname alone ("die Erklärung von Eichinger",
			// "der Trainer Herzog", "Als Millican starb"), unless it
			// is a noun too ("Ausbreitung von Mensch zu Mensch",
			// "Dieses Buch").
			if u.noun && (j > i+1 || t.opener) {
				return 0, 0, 0
			}
			if !u.noun {
				return j, extend(toks, j, 3), 0.45
			}
			// Two nouns side by side may name a body or a campaign:
			// the whole, as for any word.
		}
		if t.opener && !t.german() {
			// A word of the block's language opening its sentence
			// is no part of the name after it: "Alors Rachel les
			// voyant fuir", "Ahora Fernández dice".
			return j, extend(toks, j, 3), 0.45
		}
		return i, extend(toks, i, 3), 0.45
	}
	return n.afterOffice(toks, i, j)
}

// afterOffice is the name after an office in a German block where no
// other rule found one: "Botschafter Layard", "des Ministerpräsidenten
// Freycinet" (officeBeforeSurname); German names an office's holder by
// the surname alone.
func (n *nameFinder) afterOffice(toks []nameTok, i, j int) (int, int, float32) {
	if !officeBeforeSurname(n.gz, toks, i, j) {
		return 0, 0, 0
	}
	return j, extend(toks, j, 3), 0.45
}

// germanOffices are the German offices and ranks written before a bare
// surname ("Botschafter Layard", "Kanzlerin Merkel").
var germanOffices = gazetteer.MustWords("people", "rank-de")

// officeBeforeSurname reports whether toks[i], in a German block, is an
// office or rank (germanOffices: inflected, "des Ministers", or a
// compound's head, "Ministerpräsident") right before toks[j], a
// capitalised word that no list knows as a German noun, an ordinary
// word of German or English, a place or a title, or that is a known
// name: German capitalises its nouns, so after an office the word that is
// none is the holder's name ("der Präsident Frankreichs" is a place's,
// "der Minister des Innern" has its article between).
func officeBeforeSurname(gz *gazetteer.Gazetteers, toks []nameTok, i, j int) bool {
	t, u := toks[i], toks[j]
	if !t.german() || j != i+1 || t.poss || t.stop || !u.shaped || u.noun || u.city || u.opener || view.IsAllUpper(u.core) ||
		u.common && !u.first && !u.surname || titleTok(gz, u) || inLang(gz, gazetteer.LowerDE, u.low) ||
		placeGenitive(gz, u.low) {
		return false
	}
	return headedInAnyForm(t.low, germanOffices) || headedInAnyForm(t.low, eponymNouns)
}

// eponymNouns are the things a parliament names after a person, written
// before the surname: a report after its rapporteur ("der Bericht
// Berend", "le rapport Lamassoure", "la relazione Koch"). The word after
// one is judged as after an office (officeBeforeSurname, rankedLower);
// the noun stays readable.
var eponymNouns = gazetteer.MustWords("people", "eponym")

// placeGenitive reports whether l is a town's or country's German
// genitive ("frankreichs", "berlins").
func placeGenitive(gz *gazetteer.Gazetteers, l string) bool {
	b, ok := strings.CutSuffix(l, "s")
	return ok && gz.Lex[b]&(gazetteer.City|gazetteer.Country) != 0
}

// lexiconNounAfter reports whether u, in a German block, is a noun of
// Wiktionary's lexicon (lexiconNounDE: "Teilnehmer") that no name list
// holds: after a lone surname it is the sentence's next noun, not the
// name's second word. The noun lists the rest of the finder reads keep
// only nouns that seldom head a name; here the word after a known
// surname is judged, so any noun tells.
func lexiconNounAfter(gz *gazetteer.Gazetteers, u nameTok) bool {
	return u.german() && !u.first && !u.surname && lexiconNounDE(gz, u.low)
}

// genitiveSurnameDE reports whether l (lower case, with the lists' flags
// f), in a German block, is a known surname in the genitive: German
// writes "Merkels Rede", "Zabels Entscheidung", "Nerudas Verfassung",
// the surname and an "s". The word itself must be in no list (so no
// first name, ordinary word or other surname: "Hans", "Alles") and no
// noun of any German list in any form ("Fischers" is the fisher's too),
// and the surname before its "s" no ordinary word of any list.
func genitiveSurnameDE(gz *gazetteer.Gazetteers, l string, f uint32) bool {
	s, ok := strings.CutSuffix(l, "s")
	if !ok || f != 0 || utf8.RuneCountInString(s) < 4 || strings.HasSuffix(s, "s") {
		return false
	}
	g := gz.Lex[s]
	return g&gazetteer.Surname != 0 && g&(gazetteer.Common|gazetteer.Prose|gazetteer.LowerAny) == 0 &&
		!namedNounDE(gz, l) && !lexiconNounDE(gz, l)
}

// articlesDE are German articles that other languages' surnames hold as
// particles ("van der Voet", "Joop den Uyl", "das Neves"): in a block read
// as German one joins a name only after another particle ("von der
// Leyen"); alone it is the article of a noun phrase ("auf dem Boden der
// Tatsachen", "Ehren von Karl Liebknecht den Namen").
var articlesDE = map[string]bool{"der": true, "den": true, "das": true}

// loneSurnameDE reports whether toks[i], in a block surely German and
// followed by no capitalised word, is a surname alone: German capitalises
// its nouns, so a capitalised word inside a sentence is a noun or a name,
// and one the surname lists know that is no noun (nouns_de.txt, nor one
// of nouns_de_named.txt in any case: "Mann", "Landes"), no ordinary word,
// no pronoun of polite address ("Ihnen"), no town and not after an
// article is a name ("konnten sich Blatter und ...", "mit Fuentes, die
// ..."). Elsewhere a lone capitalised surname is as often a place, a firm
// or a product.
func loneSurnameDE(gz *gazetteer.Gazetteers, toks []nameTok, i int) bool {
	t := toks[i]
	if !t.sureDE || !t.surname || t.common || t.city || t.noun || t.opener || t.poss || t.initial || view.IsAllUpper(t.core) ||
		inLang(gz, gazetteer.LowerDE, t.low) || namedNounDE(gz, t.low) || courtesyPronouns[gazetteer.LowerDE][t.low] {
		return false
	}
	return i == 0 || !determinersDE[toks[i-1].low]
}

// properNounAlone reports whether toks[i], in a block surely French,
// Spanish, Italian, Portuguese, Dutch or German, is a name no list holds,
// standing alone inside its sentence. The Romance languages and Dutch
// (but for its adjectives of a people or place and its ranks) capitalise
// only proper nouns inside a sentence (not their nouns, nationalities,
// months or weekdays), so a capitalised word there that is no ordinary
// word of any list (Common, Prose, the six lower-case lists), no first
// name (the lone first name's own conditions judge those), no town,
// village or country, and that does not end like the language's ordinary
// words (gazetteer.CommonEnding: "Executivo", "Apelação", "Oncología")
// is a person's name: a novel's "Duroy", "Saint-Potin", a member's
// "Jonckheer".
//
// Only a word written as a name is one: capitalised, the rest in lower
// case, each part of a hyphenated word capitalised ("Laroche-Mathieu";
// not "Trata-se", "IgG"). It is not a label ("NºCol:", "Courriel :"),
// not in a firm's name ("Dubois & Fils", "Dubois et Fils SARL"), not
// before a number (a drug's dose: "Prilosec 20 mg"), not on a line that
// opens with a number (a postcode's: "84067 Policastro Bussentino") nor
// up to three words after one (a floor's side, a town after its
// postcode: "2.º Esq.", "39556 Puente Pumar"), not after a determiner
// ("la Vie", "el Tribunal") or a locative ("en Vortalie", "nel Molise"),
// and a known surname is not one after a preposition of place
// (placePrepositions).
//
// German capitalises its nouns too, so there the word must also be no
// noun of any German list nor of Wiktionary's lexicon, inflected or as a
// compound's head (lexiconNounDE: "Polizei", "Spitzenkandidat"), no
// pronoun of polite address, and not after an article (as for
// loneSurnameDE).
func properNounAlone(gz *gazetteer.Gazetteers, toks []nameTok, i int) bool {
	t := toks[i]
	switch t.sureLang {
	case gazetteer.LowerFR, gazetteer.LowerES, gazetteer.LowerIT, gazetteer.LowerPT:
	case gazetteer.LowerNL:
		if dutchOriginAdjective(t.low) || dutchRanks[t.low] {
			return false
		}
	case gazetteer.LowerDE:
		if t.noun || t.poss || t.initial || inLang(gz, gazetteer.LowerDE, t.low) || namedNounDE(gz, t.low) || lexiconNounDE(gz, t.low) ||
			courtesyPronouns[gazetteer.LowerDE][t.low] || i > 0 && determinersDE[toks[i-1].low] {
			return false
		}
	default:
		return false
	}
	if t.opens || t.common || t.first || t.city || t.punct == ':' || !writtenAsName(t.core) || utf8.RuneCountInString(t.low) < 3 ||
		gz.Lex[t.low]&(gazetteer.Prose|gazetteer.LowerAny) != 0 || gz.Places.Has(t.low) || gz.CommonEnding(t.sureLang, t.low) {
		return false
	}
	for k := i + 1; k < min(i+4, len(toks)); k++ {
		if toks[k].low == "&" || legalFormAt(gz, toks, k) {
			return false // a firm's name: "Dubois et Fils SARL"
		}
	}
	if i+1 < len(toks) && toks[i+1].low == "" && toks[i+1].punct == ':' {
		return false // a label: "Courriel :"
	}
	if i+1 < len(toks) && view.HasDigit(toks[i+1].core) {
		return false // a drug's dose, a product's model: "Prilosec 20 mg"
	}
	if view.HasDigit(toks[0].core) {
		return false // a postcode's line: "84067 Policastro Bussentino"
	}
	if i == 0 {
		return true
	}
	for k := max(0, i-3); k < i; k++ {
		if view.HasDigit(toks[k].core) {
			return false
		}
	}
	p := toks[i-1].low
	return !properNounDeterminers[p] && !properNounLocatives[p] &&
		!(t.surname && placePrepositions[p])
}

// dutchOriginAdjective reports whether l (lower case) ends like a Dutch
// adjective of a people or place, which Dutch capitalises inside a
// sentence: "Franse", "Engelsche", "Spaanschen" (older spelling),
// "Amerikaanse".
func dutchOriginAdjective(l string) bool {
	for _, e := range []string{"se", "sche", "schen", "sch"} {
		if strings.HasSuffix(l, e) && utf8.RuneCountInString(l) > len(e)+2 {
			return true
		}
	}
	return false
}

// dutchRanks are Dutch ranks and offices written capitalised before or
// instead of a name ("Koning", "Keizerin"): a title, not a name alone.
var dutchRanks = setOf("koning", "koningin", "keizer", "keizerin", "prins", "prinses", "graaf", "gravin", "hertog",
	"hertogin", "baron", "barones", "paus", "bisschop", "kardinaal", "minister", "president", "majesteit", "regter",
	"rechter", "burgemeester", "kamer", "kamers", "senaat", "regering")

// properNounLocatives put a place after them, seldom a person: "en
// Angleterre", "em Berlim", "dans Arkansas", "nel Molise".
var properNounLocatives = setOf("en", "em", "in", "dans", "nel", "nella", "nei", "negli", "nelle")

// placePrepositions stand before a town's name as often as before a
// person's in French, Spanish, Italian and Portuguese ("universidade de
// Lisboa", "em Braga"): after one, a known surname may be a town that the
// town list names in English only ("Lisbon"), and stays; a word no list
// holds does not ("la cuisse de Duroy").
var placePrepositions = setOf("de", "di", "da", "em", "en", "in", "à", "a", "dans", "desde", "para", "per", "por", "pour")

// writtenAsName reports whether w is capitalised with the rest in lower
// case, each part after a hyphen capitalised too ("Saint-Potin").
func writtenAsName(w string) bool {
	for _, part := range strings.Split(w, "-") {
		r, n := utf8.DecodeRuneInString(part)
		if n == 0 || !unicode.IsUpper(r) {
			return false
		}
		for _, c := range part[n:] {
			if !unicode.IsLower(c) {
				return false
			}
		}
	}
	return true
}

// properNounDeterminers stand before a noun or a place's or body's name in
// French, Spanish, Italian and Portuguese ("la Vie", "el Tribunal", "il
// Senato", "o Executivo"), seldom before a person's name.
var properNounDeterminers = setOf("le", "la", "les", "un", "une", "du", "des", "au", "aux", "ce", "cette", "son", "sa", "ses",
	"el", "los", "las", "una", "unos", "del", "al", "il", "lo", "gli", "uno", "dello", "della", "dei", "degli", "nel", "nella",
	"o", "os", "as", "um", "uma", "do", "da", "dos", "das", "no", "na")

// legalFormAt reports whether toks[k] is a legal form ("GmbH", "AG").
func legalFormAt(gz *gazetteer.Gazetteers, toks []nameTok, k int) bool {
	return k < len(toks) && isLegalForm(gz, toks[k].low, toks[k].core)
}

// isLegalForm reports whether the word written t (lower case l) is a
// legal form on its own. orgFinder.legalAt reads forms of several words.
func isLegalForm(gz *gazetteer.Gazetteers, l, t string) bool {
	return gz.Lex[l]&gazetteer.LegalForm != 0 || gz.LegalForms.Has(gazetteer.NormLegal(t))
}

// namedNounDE reports whether l is a German noun that the name lists hold
// too (gazetteer.NounDENamed), as written or in a case of its own with
// -s, -es, -e, -n or -en ("Landes", "Hause", "Kosten"). Not germanStems:
// with its plural endings -er, -ern and -nen, surnames read as nouns
// ("Blatter" as "Blatt" and -er).
func namedNounDE(gz *gazetteer.Gazetteers, l string) bool {
	if gz.Lex[l]&gazetteer.NounDENamed != 0 {
		return true
	}
	for _, end := range []string{"es", "en", "s", "e", "n"} {
		if stem, ok := strings.CutSuffix(l, end); ok && len(stem) >= 3 && gz.Lex[stem]&(gazetteer.NounDENamed|gazetteer.NounDE) != 0 {
			return true
		}
	}
	return false
}

// nounsDEAny are the flags of every German noun list.
const nounsDEAny = gazetteer.NounDE | gazetteer.NounDEInNames | gazetteer.NounDENamed | gazetteer.NounDELexicon

// lexiconNounDE reports whether l (lower case) is a German noun by any
// noun list, Wiktionary's lexicon included: listed, inflected from one
// ("Parteien", "Amtes"), or a compound whose head of at least four
// letters, after at least three, is one ("Spitzenkandidat",
// "Verteidigungsministerium"). German writes new compounds every day, so
// a capitalised word no list holds is a noun far more often than a name
// when its tail is a noun. The price: a surname no list holds whose tail
// is a noun ("Beckenbauer") is left to the model.
func lexiconNounDE(gz *gazetteer.Gazetteers, l string) bool {
	return listedNounDE(gz, l) || compoundHeaded(l, func(h string) bool { return listedNounDE(gz, h) })
}

// compoundHeaded reports whether l (lower case) is a compound whose head
// of at least four letters, after at least three, passes isHead.
func compoundHeaded(l string, isHead func(string) bool) bool {
	rs := []rune(l)
	for k := 3; k <= len(rs)-4; k++ {
		if isHead(string(rs[k:])) {
			return true
		}
	}
	return false
}

// nounEndings are the German case and number endings a noun list's word
// may carry ("Parteien", "Amtes").
var nounEndings = []string{"s", "es", "n", "en", "e"}

// listedNounDE reports whether l (lower case) is a noun of a German noun
// list, as listed or inflected (nounEndings); lexiconNounDE also reads
// compounds.
func listedNounDE(gz *gazetteer.Gazetteers, l string) bool {
	return inflectedFrom(gz, l, nounEndings, nounsDEAny, 0)
}

// inflectedFrom reports whether l (lower case) has a flag of want, as
// written or, after cutting one of ends, as a stem of three letters or
// more that has a flag of want and none of not.
func inflectedFrom(gz *gazetteer.Gazetteers, l string, ends []string, want, not uint32) bool {
	if gz.Lex[l]&want != 0 {
		return true
	}
	for _, end := range ends {
		if stem, ok := strings.CutSuffix(l, end); ok && utf8.RuneCountInString(stem) >= 3 &&
			gz.Lex[stem]&want != 0 && gz.Lex[stem]&not == 0 {
			return true
		}
	}
	return false
}

// determinersDE stand before a German noun, seldom before a name: the
// articles, their contractions with a preposition, and the possessive
// and demonstrative determiners ("Unsere Fraktion", "seinem Bericht").
var determinersDE = func() map[string]bool {
	m := setOf("der", "die", "das", "dem", "den", "des", "ein", "eine", "einem", "einen", "einer", "eines",
		"im", "am", "zum", "zur", "vom", "beim", "ins", "jede", "jedem", "jeden", "jeder", "jedes",
		"jene", "jenem", "jenen", "jener", "jenes", "eure", "eurem", "euren", "eurer", "eures")
	// "kein", "dies-" and the possessives, each with every ending.
	for _, stem := range []string{"kein", "dies", "mein", "dein", "sein", "ihr", "unser", "euer"} {
		for _, end := range []string{"", "e", "em", "en", "er", "es"} {
			m[stem+end] = true
		}
	}
	return m
}()

// genitiveArticles follow a German noun, not a first name: "Einschätzung
// der Lehrer" is no "Walther von der Vogelweide".
var genitiveArticles = map[string]bool{"der": true, "des": true}

// Organizations: capitalised words ending in a legal form.

type orgFinder struct {
	gz *gazetteer.Gazetteers
	// prefixes holds every prefix of every legal form, so that legalAt
	// stops joining words as soon as no form can match.
	prefixes gazetteer.Set
}

func newOrgFinder(gz *gazetteer.Gazetteers) *orgFinder {
	o := &orgFinder{gz: gz, prefixes: gazetteer.Set{}}
	for f := range gz.LegalForms {
		for i := range f {
			if i > 0 {
				o.prefixes[f[:i]] = struct{}{}
			}
		}
		o.prefixes[f] = struct{}{}
	}
	return o
}

// lowerLegalOK are legal forms people write in lower case ("acme inc.").
var lowerLegalOK = gazetteer.MustWords("organizations", "lower-legal-form")

// orgConnectors may sit between the capitalised words of a name.
// "and" is left out: "Carfax and Keychain Logistics Corp." is two names.
var orgConnectors = gazetteer.MustWords("connectors", "org")

func (o *orgFinder) find(v *view.View) []page.Span {
	var out []page.Span
	for k := 0; k < v.Lines(); k++ {
		first, end := v.Line(k)
		lower := isLowerLine(v, first, end)
		// On a line printed in capitals every word looks like a name's:
		// a legal form there needs a distinctive word before it too
		// ("ACME HOLDINGS LIMITED", not "A PERIOD OF LIMITED EXPOSURE").
		upper := isUpperLine(v, first, end)
		for j := first; j < end; j++ {
			if n := firmAt(v, o.gz, j, end, lower); n > 0 {
				if sp, ok := orgSpan(v, o.gz, j, j+n-1, 0.6); ok {
					out = append(out, sp)
				}
				j += n - 1
				continue
			}
			if s := placeOfWork(v, o.gz, j, first); s >= 0 {
				if sp, ok := orgSpan(v, o.gz, s, j-1, 0.5); ok {
					out = append(out, sp)
				}
				continue
			}
			if institutionAt(v, o.gz, j, end) {
				if sp, ok := orgSpan(v, o.gz, j, j, 0.5); ok {
					out = append(out, sp)
				}
				continue
			}
			n := headFirstAt(v, j, end)
			if n == 0 {
				n = bodyAt(v, j, end)
			}
			if n == 0 && !upper && acronymAt(v, o.gz, j) {
				n = 1
			}
			if n > 0 {
				if sp, ok := orgSpan(v, o.gz, j, j+n-1, 0.5); ok {
					out = append(out, sp)
				}
				j += n - 1
				continue
			}
			n, score := o.legalAt(v, j, end)
			head := false
			if n == 0 {
				if !headAt(v, o.gz, j) {
					continue
				}
				n, score, head = 1, 0.5, true
			}
			s := nameStart(v, o.gz, j, first, n)
			if s < 0 || head && !distinctive(v, o.gz, s, j) || upper && !distinctiveOrPlace(v, o.gz, s, j) {
				continue
			}
			if sp, ok := orgSpan(v, o.gz, s, j+n-1, score); ok {
				out = append(out, sp)
			}
			j += n - 1
		}
	}
	return out
}

// firmAt returns the number of words of a firm named after its partners
// at word j, or 0: three surnames listed ("Craig, Palmer and Quinn",
// "Rose, Turner & Thompson") or two joined into one word by a hyphen
// ("Weeks-Rivas"; capitalised even on a line in lower case, where a
// wrapped line of prose puts "bunk-house" and "palm-trees"). Every part
// must be a surname the lists know, and one
// of them at least no ordinary word and no town: many surnames are both
// ("Palmer", "Turner"), but "Paris, London and Berlin" and "Long-Term"
// name no firm.
func firmAt(v *view.View, gz *gazetteer.Gazetteers, j, end int, lower bool) int {
	if j+3 < end && strings.HasSuffix(v.WordText(j), ",") && v.WordText(j+1) == v.CoreText(j+1) &&
		(v.WordLower(j+2) == "and" || v.WordText(j+2) == "&") &&
		partners(gz, lower, v.CoreText(j), v.CoreText(j+1), v.CoreText(j+3)) {
		return 4
	}
	w := v.CoreText(j)
	a, b, ok := strings.Cut(w, "-")
	if ok && !strings.Contains(b, "-") && !gz.Cities.Has(strings.ToLower(w)) && partners(gz, false, a, b) {
		return 1
	}
	return 0
}

// partners reports whether ws can be the surnames in a firm's name:
// capitalised (any case on a line written in lower case), known surnames
// that are no country, title or office ("Vice-President"), street or
// legal word, one of them at least neither an ordinary word nor a town.
func partners(gz *gazetteer.Gazetteers, lower bool, ws ...string) bool {
	const not = gazetteer.Country | gazetteer.Title | gazetteer.StreetSuffix | gazetteer.StreetPrefix |
		gazetteer.Unit | gazetteer.LegalForm
	plain := false
	for _, w := range ws {
		l := strings.ToLower(w)
		if !(nameShaped(w) && !view.IsAllUpper(w) || lower && l == w && len(w) > 1) || stopwords[l] || pattern.MonthNumber(l) > 0 || pattern.IsWeekday(l) {
			return false
		}
		f := gz.Lex[l]
		if f&gazetteer.Surname == 0 || f&not != 0 || isTitleWord(gz, l) {
			return false
		}
		plain = plain || f&(gazetteer.Common|gazetteer.City) == 0
	}
	return plain
}

// institutions are public bodies that a capitalised noun names on its
// own after "the" ("the Commission", "the Senate"); properInstitutions
// name one without the article too ("Congress authorized it").
var (
	institutions       = gazetteer.MustWords("organizations", "institution")
	properInstitutions = gazetteer.MustWords("organizations", "proper")
)

// institutionAt reports whether word j is an institution named by its
// noun alone: capitalised (not all capitals: a heading); after "the" or
// "this", on its line or ending the line before ("the Commission must
// address", "this Parliament"), or after any word when the noun names
// one body by itself ("for Congress to say"); and not the start of a
// longer name, which is the model's to find ("the House of
// Representatives", "the Senate Armed Services Committee", "The House of
// Mirth").
func institutionAt(v *view.View, gz *gazetteer.Gazetteers, j, end int) bool {
	t := v.CoreText(j)
	if j == 0 || !institutions[v.CoreLower(j)] || !view.IsCapitalised(t) || view.IsAllUpper(t) {
		return false
	}
	if p := v.WordLower(j - 1); p != "the" && p != "this" && !properInstitutions[v.CoreLower(j)] {
		return false
	}
	if j+1 < end && v.CoreEnd(j) == v.WordEnd(j) {
		next := v.CoreText(j + 1)
		if v.CoreLower(j+1) == "of" || view.IsCapitalised(next) && next != "I" {
			return false
		}
	}
	return true
}

// workplaces are nouns that, after "the" and a name, make the name an
// organization's: "the Seeclickfix office", "the Social Explorer team".
var workplaces = gazetteer.MustWords("organizations", "workplace")

// placeOfWork returns the first word of an organization's name that word
// j, a workplace noun in lower case, follows after "the" ("The Social
// Explorer office is at ..."), or -1. The name is one to four
// capitalised words (any words of letters on a line in lower case, "the
// blackrock office"; connectors inside, "The House of Innography
// office"), one of them no ordinary word, place or person's name ("the
// London office", "the Sales team", "the John team" are none).
func placeOfWork(v *view.View, gz *gazetteer.Gazetteers, j, first int) int {
	if !workplaces[v.WordLower(j)] || j-first < 2 {
		return -1
	}
	_, end := v.Line(v.LineOf(j))
	lower := isLowerLine(v, first, end)
	s := j
	for k := j - 1; k > first && j-k <= 4 && v.Text[v.CoreEnd(k):v.WordEnd(k)] == ""; k-- {
		l := v.CoreLower(k)
		if !nameShaped(v.CoreText(k)) && !(lower && l != "the" && !stopwords[l] && isLetters(l)) && !(orgConnectors[l] && k+1 < j) {
			break
		}
		s = k
	}
	if s == j || v.CoreLower(s-1) != "the" || orgConnectors[v.CoreLower(s)] {
		return -1
	}
	const known = gazetteer.City | gazetteer.Country | gazetteer.FirstName | gazetteer.Surname | gazetteer.Title
	for k := s; k < j; k++ {
		l := v.CoreLower(k)
		if !gz.Common.Has(l) && !stopwords[l] && !orgHeads[l] && gz.Lex[l]&known == 0 {
			return s
		}
	}
	return -1
}

// orgHeads are nouns that end organization names without a legal form
// ("Palantir Technologies", "Nera Economic Consulting", "Arrive Labs").
var orgHeads = gazetteer.MustWords("organizations", "head")

// headFirst are the nouns that begin organizations' names in the six
// languages besides English ("Supremo Tribunal Federal", "Ministerio de
// Sanidad", "Gemeente Utrecht"), and orgOf the small words that join
// the capitalised words after them ("Ministério da Saúde").
var (
	headFirst = gazetteer.MustWords("organizations", "head-first")
	orgOf     = gazetteer.MustWords("connectors", "org-of")
)

// headFirstMax is the most words a head-first name runs to.
const headFirstMax = 8

// headFirstAt returns how many words from j name an organization that
// begins with a head-first noun, or 0: in a block in one of the six
// languages besides English, a capitalised head noun followed by at least
// one capitalised word, with connectors only between capitalised words;
// a word in lower case or punctuation after a word ends it.
func headFirstAt(v *view.View, j, end int) int {
	switch v.Lang(j) {
	case lang.English, lang.Unknown:
		return 0
	}
	if !headFirst[v.CoreLower(j)] || !view.IsCapitalised(v.CoreText(j)) || v.WordText(j) != v.CoreText(j) {
		return 0
	}
	last := j
	for k := j + 1; k < end && k-j < headFirstMax; k++ {
		w, low := v.CoreText(k), v.CoreLower(k)
		if view.IsCapitalised(w) {
			last = k
		} else if !orgOf[low] || k > last+2 || k == last+2 && !orgOf[v.CoreLower(k-1)] {
			break // a word in lower case, or a third connector in a row
		}
		if v.WordText(k) != w {
			break // punctuation after the word ends the name
		}
	}
	if last == j {
		return 0
	}
	return last - j + 1
}

// bodyAt returns how many words from j name a public body by its noun
// alone, or 0: in a block in German, French, Spanish, Italian, Dutch or
// Portuguese, a capitalised noun of the body-alone lists (bodyNoun)
// after an article or demonstrative of the block's language ("chiedo
// alla Commissione di agire", "el Gobierno", "de Raad") or elided into
// one ("l'Assemblée", "dell'Unione"), with the adjective "europeo" in
// lower case after it in the name ("il Parlamento europeo"). These languages capitalise such a
// noun only where it names the body ("la commissione" is any committee),
// as English does after "the" (institutionAt). German capitalises every
// noun: there only the nouns that name one body wherever they stand
// count (bodyNoun). A capitalised word after the noun, or after a
// connector after it, makes a longer name: headFirstAt's or the model's
// ("la Comisión de Peticiones").
func bodyAt(v *view.View, j, end int) int {
	arts := bodyArticles[v.Lang(j)]
	if arts == nil {
		return 0
	}
	t := v.CoreText(j)
	if art, noun, ok := elided(strings.ReplaceAll(t, "’", "'")); ok && elidedArticles[strings.ToLower(art)] {
		t = noun
	} else if j == 0 || !arts[v.WordLower(j-1)] && !elidedBefore(v, j) {
		return 0
	}
	if !bodyNoun(v.Lang(j), strings.ToLower(t)) || !view.IsCapitalised(t) || view.IsAllUpper(t) {
		return 0
	}
	if j+1 >= end || v.WordText(j) != v.CoreText(j) {
		return 1
	}
	next := v.CoreLower(j + 1)
	switch {
	case view.IsCapitalised(v.CoreText(j + 1)):
		return 0
	case orgOf[next] && j+2 < end && view.IsCapitalised(v.CoreText(j+2)):
		return 0
	case europeanAdjectives[next]:
		return 2
	}
	return 1
}

// elidedBefore reports whether an elided article stands as a word of
// its own before word j: "dell' Unione", or "dell ' Unione" as text
// split into tokens writes it.
func elidedBefore(v *view.View, j int) bool {
	p := strings.ReplaceAll(v.WordLower(j-1), "’", "'")
	if p == "'" {
		return j >= 2 && elidedArticles[v.WordLower(j-2)+"'"]
	}
	return elidedArticles[p]
}

// acronymAt reports whether word j, in a German block, is an acronym
// that names an organization: two to five capital letters ("CDU",
// "ADAC", "UEFA", "dpa" is no acronym here) in a sentence not set in
// capitals, that no list holds as a place, title, legal form, unit or
// street word, as a German word, as a Roman numeral ("XIV"), or as a
// thing, point of the compass or currency (acronyms.txt: "ISBN", "NW",
// "EUR"). German news and letters name parties, firms, clubs and
// public bodies so far more often than anything else, and the
// multilingual model leaves them: germeval2014_de dev Organization R
// 0.550 -> 0.659. In the Romance languages the acronyms of legal and
// clinical text are mostly things ("HTA", "TAC", "CPC"): lener_br
// Organization P fell 0.545 -> 0.345 there, so they are left out.
func acronymAt(v *view.View, gz *gazetteer.Gazetteers, j int) bool {
	if v.Lang(j) != lang.German {
		return false
	}
	t := v.CoreText(j)
	if n := utf8.RuneCountInString(t); n < 2 || n > 5 || !view.IsAllUpper(t) {
		return false
	}
	l := strings.ToLower(t)
	if !isLetters(l) || !sentenceHasLower(v, j) || romanNumeral.MatchString(t) || notOrgAcronyms[l] || stopwords[l] || isLegalForm(gz, l, t) {
		return false
	}
	const not = gazetteer.City | gazetteer.Country | gazetteer.Title | gazetteer.Unit | gazetteer.StreetSuffix |
		gazetteer.StreetPrefix | gazetteer.POBox | gazetteer.LowerDE | gazetteer.NounDE // legal forms: isLegalForm
	return gz.Lex[l]&not == 0
}

// sentenceHasLower reports whether the sentence around word i (up to
// sentenceReach words either way) has a word with a lower-case letter:
// in a text set in capitals every word looks like an acronym.
func sentenceHasLower(v *view.View, i int) bool {
	return sentenceHas(v, i, func(t string) bool { return strings.ToUpper(t) != t })
}

// notOrgAcronyms are the acronyms that name no organization
// (acronyms.txt).
var notOrgAcronyms = func() map[string]bool {
	m := gazetteer.MustWords("acronyms", "thing")
	for _, use := range []string{"compass", "currency-code"} {
		for w := range gazetteer.MustWords("acronyms", use) {
			m[w] = true
		}
	}
	return m
}()

// bodyNoun reports whether l (lower case) names a public body alone in
// language c: in German, which capitalises every noun, only the few
// nouns that name one body wherever they stand (body-alone-de:
// "Kommission", "Bundestag"), as written or in the genitive
// ("Parlaments").
func bodyNoun(c lang.Code, l string) bool {
	if c != lang.German {
		return bodiesAlone[l]
	}
	if bodiesAloneDE[l] {
		return true
	}
	for _, end := range []string{"es", "s"} {
		if stem, ok := strings.CutSuffix(l, end); ok && bodiesAloneDE[stem] {
			return true
		}
	}
	return false
}

// bodiesAlone are the nouns that name a public body on their own after
// an article (organizations.txt, use body-alone); bodyArticles are the
// articles and demonstratives before one in each language (Dutch "de" is
// its article; Italian and Portuguese fuse them with prepositions);
// elidedArticles those written into the noun with an apostrophe (as
// elided returns them);
// europeanAdjectives the lower-case adjective after "Parlamento".
var (
	bodiesAlone   = gazetteer.MustWords("organizations", "body-alone")
	bodiesAloneDE = gazetteer.MustWords("organizations", "body-alone-de")
	bodyArticles  = map[lang.Code]map[string]bool{
		lang.German: setOf("der", "die", "das", "dem", "den", "des", "im", "am", "vom", "zum", "zur", "beim", "dieser", "diese",
			"dieses", "diesem", "diesen", "unser", "unsere", "unseres", "unserem", "unseren"),
		lang.French:  setOf("le", "la", "du", "au", "ce", "cette"),
		lang.Spanish: setOf("el", "la", "del", "al", "este", "esta", "ese", "esa"),
		lang.Italian: setOf("il", "lo", "la", "del", "dello", "della", "al", "allo", "alla", "dal", "dallo", "dalla", "nel",
			"nello", "nella", "sul", "sullo", "sulla", "col", "questo", "questa", "quel", "quello", "quella"),
		lang.Dutch: setOf("de", "het", "deze", "dit"),
		lang.Portuguese: setOf("o", "a", "do", "da", "no", "na", "ao", "à", "pelo", "pela", "este", "esta", "esse", "essa",
			"deste", "desta", "neste", "nesta", "desse", "dessa"),
	}
	elidedArticles     = setOf("l'", "dell'", "all'", "dall'", "nell'", "sull'", "quest'")
	europeanAdjectives = setOf("europeo", "europea", "européen", "européenne", "europeu", "europeia")
)

// headAt reports whether word j is a capitalised organization head noun.
func headAt(v *view.View, gz *gazetteer.Gazetteers, j int) bool {
	return orgHeads[v.CoreLower(j)] && view.IsCapitalised(v.CoreText(j))
}

// distinctive reports whether the words s..j-1 before a head noun hold a
// word that is not an ordinary one: "Palantir Technologies" but not
// "Customer Services" or "Human Resources".
func distinctive(v *view.View, gz *gazetteer.Gazetteers, s, j int) bool {
	for k := s; k < j; k++ {
		l := v.CoreLower(k)
		if !gz.Common.Has(l) && !stopwords[l] && !orgConnectors[l] && !orgHeads[l] && gz.Lex[l]&(gazetteer.City|gazetteer.Country) == 0 {
			return true
		}
	}
	return false
}

// distinctiveOrPlace is distinctive with towns and countries counted:
// in capitals a legal form after a place still names a firm ("SYRIA
// SUPPORT GROUP", "BANK OF AMERICA CORPORATION").
func distinctiveOrPlace(v *view.View, gz *gazetteer.Gazetteers, s, j int) bool {
	for k := s; k < j; k++ {
		l := v.CoreLower(k)
		if gz.Lex[l]&(gazetteer.City|gazetteer.Country) != 0 {
			return true
		}
	}
	return distinctive(v, gz, s, j)
}

// orgSpan is the organization's span: the words' cores, except that a
// period right after the legal form belongs to the name ("Inc.", "Co.").
func orgSpan(v *view.View, gz *gazetteer.Gazetteers, first, last int, score float32) (page.Span, bool) {
	s, _ := v.Core(first)
	_, e := v.Core(last)
	if s >= e {
		return v.WordSpan(first, last, page.Organization, score, "org-legal-form"), true
	}
	if e < v.WordEnd(last) && v.Text[e] == '.' {
		e++
	}
	return v.Span(s, e, page.Organization, score, "org-legal-form")
}

// legalAt returns how many words starting at j form a legal form (up to
// four: "GmbH & Co. KG", "Pty. Ltd."), preferring the longest, and the
// score; 0 when none.
func (o *orgFinder) legalAt(v *view.View, j, end int) (int, float32) {
	best := 0
	for n := 1; n <= 4 && j+n <= end; n++ {
		s, _ := v.Core(j)
		_, e := v.Core(j + n - 1)
		if e <= s {
			break
		}
		norm := gazetteer.NormLegal(v.Lower[s:e])
		if !o.prefixes.Has(norm) {
			break
		}
		if o.gz.LegalForms.Has(norm) {
			best = n
		}
	}
	if best == 0 {
		return 0, 0
	}
	n := best
	s, _ := v.Core(j)
	_, e := v.Core(j + n - 1)
	surface, norm := v.Text[s:e], gazetteer.NormLegal(v.Lower[s:e])
	// "APO AA 65303", "Calgary AB T2P": a state or province code before
	// a postcode, not a legal form.
	if len(norm) <= 2 && j+n < end && view.HasDigit(v.CoreText(j+n)) && !endsClause(v, j+n-1) {
		return 0, 0
	}
	lowerSurface := v.Lower[s:e] == surface
	switch {
	case len(norm) <= 4 && lowerSurface && !lowerLegalOK[norm]:
		return 0, 0
	case o.gz.Common.Has(norm) && !view.IsCapitalised(surface):
		return 0, 0
	case len(norm) <= 3 && !lowerSurface && !lowerLegalOK[norm] && !view.IsAllUpper(surface) && !strings.Contains(surface, ".") && !view.IsCapitalised(surface):
		return 0, 0
	case len(norm) <= 2 && norm != "co" && !lowerLegalOK[norm] && !view.IsAllUpper(surface) && !strings.Contains(surface, "."):
		// "Se practica", "Sa femme": a two-letter form is written in
		// capitals or with its dots ("SE", "S.A."), but for "Co".
		return 0, 0
	}
	if o.gz.Common.Has(norm) {
		return n, 0.55
	}
	return n, 0.75
}

// nameStart walks left from the legal form at j over capitalised words
// and connectors and returns the first word of the organization's name,
// or -1 when there is none.
func nameStart(v *view.View, gz *gazetteer.Gazetteers, j, first, n int) int {
	s := -1
	for k := j - 1; k >= first && j-k <= 6; k-- {
		c := v.CoreText(k)
		l := v.CoreLower(k)
		if stopwords[l] && !orgConnectors[l] {
			break
		}
		if w := v.WordText(k); k < j-1 && (strings.HasSuffix(w, ".") && !isInitial(c) || strings.HasSuffix(w, ":") ||
			strings.HasSuffix(w, ";") || strings.HasSuffix(w, ",")) {
			break
		}
		if pattern.AllDigits(c) || houseNumber.MatchString(c) || capitalisedOpener(v, gz, k, j, leadPrepositions) {
			break // "Zwischen der Bäckerei Fischer AG": the preposition opens the contract
		}
		if view.IsCapitalised(c) || hasLetter(c) && strings.ContainsAny(c, "0123456789&") && len(c) > 1 || c == "&" {
			s = k
			continue
		}
		if orgConnectors[l] && s >= 0 {
			// "Bank of America Corp." but not "Priya Raman of Raman &
			// Associates Ltd.": "of" and "for" follow a common noun.
			if (l == "of" || l == "for") && (k == first || !gz.Common.Has(v.CoreLower(k-1)) || !view.IsCapitalised(v.CoreText(k-1))) {
				break
			}
			continue
		}
		break
	}
	if s < 0 && j > first {
		// "morningstar inc.": one lower-case word that is not common.
		l := v.CoreLower(j - 1)
		if lowerLegalOK[gazetteer.NormLegal(v.CoreLower(j))] && len(l) > 2 && !gz.Common.Has(l) && !stopwords[l] && !view.HasDigit(l) {
			s = j - 1
		}
	}
	// Drop connectors left dangling at the start, but for a capitalised
	// particle before a capitalised word, which begins a surname ("Van
	// Leeuwen Advies V.O.F.", "De Boer Vastgoed B.V.").
	for s >= 0 && s < j && orgConnectors[v.CoreLower(s)] &&
		!(particles[v.CoreLower(s)] && view.IsCapitalised(v.CoreText(s)) && view.IsCapitalised(v.CoreText(s+1))) {
		s++
	}
	if s == j {
		return -1
	}
	return s
}

// inSpans reports whether word i lies in one of ss.
func inSpans(ss []page.Span, i int) bool {
	for _, s := range ss {
		if s.First <= i && i <= s.Last {
			return true
		}
	}
	return false
}

// wordOfText reports whether toks[i], a lone first name of the lists
// that is no common one (TopFirstName), is rather a word of the text
// around it: a word of the block's language opening its sentence ("Dann
// kam der Bus", "Está ameaçada") or, where the language is sure, standing
// anywhere ("souriant : - Très bien"); in German a noun of any list
// ("drei Tage", "nach seinem Tod"); or a thing cited by its number, a law
// or a form ("da Lei n.º 10.931"), whatever its rank.
func (n *nameFinder) wordOfText(toks []nameTok, i int) bool {
	t := toks[i]
	if i+1 < len(toks) && citedNumberSigns[toks[i+1].low] {
		return true
	}
	if t.top {
		return false
	}
	f := n.gz.Lex[t.low]
	return t.opener || t.german() && f&nounsDE != 0 || t.sureLang != 0 && f&t.sureLang != 0
}

// citedNumberSigns are the cores, in lower case, of the number signs
// that follow a thing cited by its number: "Lei n.º 10.931", "Gesetz
// Nr. 5", "Loi n° 78-17" ("n°" and "n." leave "n").
var citedNumberSigns = setOf("n.º", "nº", "n.°", "n", "nr", "núm", "num")

// nounsDE are the flags of the German noun lists, the nouns that are
// names too and Wiktionary's lexicon included.
const nounsDE = gazetteer.NounDE | gazetteer.NounDEInNames | gazetteer.NounDENamed | gazetteer.NounDELexicon
