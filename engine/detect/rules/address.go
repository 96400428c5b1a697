package rules

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/pattern"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// usStates maps US state and territory abbreviations to themselves and
// full names (lower case) to abbreviations.
var usStates = func() map[string]string {
	m := map[string]string{}
	for _, p := range strings.Split("AL alabama|AK alaska|AZ arizona|AR arkansas|CA california|CO colorado|CT connecticut|"+
		"DE delaware|DC district of columbia|FL florida|GA georgia|HI hawaii|ID idaho|IL illinois|IN indiana|IA iowa|"+
		"KS kansas|KY kentucky|LA louisiana|ME maine|MD maryland|MA massachusetts|MI michigan|MN minnesota|"+
		"MS mississippi|MO missouri|MT montana|NE nebraska|NV nevada|NH new hampshire|NJ new jersey|NM new mexico|"+
		"NY new york|NC north carolina|ND north dakota|OH ohio|OK oklahoma|OR oregon|PA pennsylvania|RI rhode island|"+
		"SC south carolina|SD south dakota|TN tennessee|TX texas|UT utah|VT vermont|VA virginia|WA washington|"+
		"WV west virginia|WI wisconsin|WY wyoming|PR puerto rico|GU guam|VI virgin islands|AS american samoa|"+
		"MP northern mariana islands|AA armed forces americas|AE armed forces europe|AP armed forces pacific", "|") {
		ab, name, _ := strings.Cut(p, " ")
		m[ab] = ab
		m[name] = ab
	}
	return m
}()

// caProvinces are Canadian province and territory abbreviations.
var caProvinces = gazetteer.MustWords("addresses", "ca-province")

// addressContext are labels that make an address more certain.
var addressContext = gazetteer.MustWords("labels", "address-context")

// addrNameStop are words that end a street name: function words and
// words that introduce something else.
var addrNameStop = gazetteer.MustWords("stopwords", "street")

// addrParticles may sit inside a street name after a prefix type
// ("rue de la Paix", "Rua Joaquim de Oliveira Cruz").
var addrParticles = gazetteer.MustWords("connectors", "street")

var (
	zipUS     = regexp.MustCompile(`^(\d{5})(?:-\d{4})?$`)
	postcode5 = regexp.MustCompile(`^(?:[A-Z]{1,2}-)?\d{5}$`)
	postcode4 = regexp.MustCompile(`^(?:[A-Z]{1,2}-)?\d{4}$`)
	// ptPostcode is a Portuguese postcode ("1100-048").
	ptPostcode = regexp.MustCompile(`^[1-9]\d{3}-\d{3}$`)
	ukInward   = regexp.MustCompile(`^\d[ABD-HJLNP-UW-Z]{2}$`)
	ukCompact  = regexp.MustCompile(`^([A-Z]{1,2}\d[A-Z\d]?)(\d[ABD-HJLNP-UW-Z]{2})$`)
	caFSA      = regexp.MustCompile(`^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z]$`)
	caLDU      = regexp.MustCompile(`^\d[ABCEGHJ-NPRSTV-Z]\d$`)
	caCompact  = regexp.MustCompile(`^([ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z])(\d[ABCEGHJ-NPRSTV-Z]\d)$`)
	nlLetters  = regexp.MustCompile(`^[A-Z]{2}$`)
	nlCompact  = regexp.MustCompile(`^[1-9]\d{3}[A-Z]{2}$`)
)

// houseNumber matches house numbers: "12", "12a", "12-14", "5/7b".
var houseNumber = houseNumberMatcher{}

type houseNumberMatcher struct{}

// MatchString reports whether s is 1-5 digits with an optional letter,
// optionally followed by '-' or '/' and another such number.
func (houseNumberMatcher) MatchString(s string) bool {
	i := houseNumberPart(s)
	if i == 0 {
		return false
	}
	if i == len(s) {
		return true
	}
	if s[i] != '-' && s[i] != '/' {
		return false
	}
	j := houseNumberPart(s[i+1:])
	return j > 0 && i+1+j == len(s)
}

func houseNumberPart(s string) int {
	i := 0
	for i < len(s) && i < 6 && view.IsDigit(s[i]) {
		i++
	}
	if i == 0 || i > 5 {
		return 0
	}
	if i < len(s) && pattern.IsLetterByte(s[i]) {
		i++
	}
	return i
}

type addressFinder struct {
	gz *gazetteer.Gazetteers
	// firstWords are the first words of the multi-word forms the finder
	// looks up (post-box designators, prefix street types, state and city
	// names), so that it joins words only where a form may start.
	boxFirst, prefixFirst, stateFirst, cityFirst gazetteer.Set
	// starts are the lower-case words other than numbers and capitalised
	// words that may begin an address part.
	starts gazetteer.Set
	// standaloneUnits are the unit words that make an address alone
	// ("Suite 286"); others ("Unit 4", "Floor 2") only extend a street.
	standaloneUnits map[string]bool
}

func newAddressFinder(gz *gazetteer.Gazetteers) *addressFinder {
	a := &addressFinder{gz: gz, standaloneUnits: gazetteer.MustWords("addresses", "standalone-unit"),
		boxFirst: firstWords(gz.POBoxes), prefixFirst: firstWords(gz.StreetPrefix), cityFirst: firstWords(gz.Cities),
		stateFirst: gazetteer.Set{}}
	a.starts = gazetteer.Set{}
	for _, set := range []gazetteer.Set{gz.StreetPrefix, a.prefixFirst, gz.POBoxes, a.boxFirst} {
		for k := range set {
			a.starts[k] = struct{}{}
		}
	}
	for k := range a.standaloneUnits {
		a.starts[k] = struct{}{}
	}
	for k := range militaryPost {
		a.starts[k] = struct{}{}
	}
	a.starts["corner"] = struct{}{}
	for name := range usStates {
		if f, _, ok := strings.Cut(name, " "); ok {
			a.stateFirst[f] = struct{}{}
		}
	}
	return a
}

// firstWords returns the first words of the multi-word entries of s.
func firstWords(s gazetteer.Set) gazetteer.Set {
	out := gazetteer.Set{}
	for k := range s {
		if f, _, ok := strings.Cut(k, " "); ok {
			out[f] = struct{}{}
			out[strings.TrimSuffix(f, ".")] = struct{}{}
		}
	}
	return out
}

// part is one piece of an address on a line, in view word indices.
type part struct {
	first, last int
	score       float32
	kind        uint8
}

const (
	partStreet uint8 = iota
	partUnit
	partPostal // postcode, maybe with city or state
	partBox
)

func (a *addressFinder) find(v *view.View) []page.Span {
	var parts []part
	for k := 0; k < v.Lines(); k++ {
		first, end := v.Line(k)
		// A street ending the line before makes a postcode at the start
		// of this one likely, whatever the city.
		street := len(parts) > 0 && parts[len(parts)-1].kind != partPostal && parts[len(parts)-1].last == first-1
		parts = append(parts, a.line(v, first, end, street)...)
	}
	if wrapped := a.acrossWraps(v, parts); len(wrapped) > 0 {
		parts = mergeParts(parts, wrapped)
	}
	if len(parts) == 0 {
		return nil
	}
	return joinParts(v, a.gz, parts)
}

// wrapTail is how many words before a line break, and wrapHead how many
// after it, a part broken by the break may have: the longest parts
// (a number, a prefix type, a name of several words, a number) fit.
const (
	wrapTail = 6
	wrapHead = 8
)

// acrossWraps returns the parts broken by a line break in flowed text.
// Where a line flows on into the next as the same paragraph, the width
// ran out wherever it did, inside streets and postcodes as anywhere
// else, so the line's tail and the next line's head are read as one
// line. A part found there counts only when its core crosses the break:
// when one of the lines' own parts (lines, in word order) already starts
// where it starts, or, for a postcode, already covers its words after
// the break, it only stretches that part over the break by optional
// words (a second street type, a unit, a city before the postcode),
// which is growth's work and needs growth's checks. The tail starts at
// the line's first word when the line is short, so that "at the start
// of a line" keeps its meaning.
func (a *addressFinder) acrossWraps(v *view.View, lines []part) []part {
	var out []part
	j := 0 // first line part not before the current line
	for k := 0; k+1 < v.Lines(); k++ {
		first, end := v.Line(k)
		_, next := v.Line(k + 1)
		for j < len(lines) && lines[j].first < first {
			j++
		}
		if first == end || end == next || !v.FlowsOn(k) {
			continue
		}
		from := max(first, end-wrapTail)
		to := min(next, end+wrapHead)
		if !a.mayCross(v, end-1) || !digitIn(v, from, to) {
			continue // most lines of prose end in a plain word, many lack numbers
		}
		street := j > 0 && lines[j-1].kind != partPostal && lines[j-1].last == first-1 && from == first
		for _, p := range a.line(v, from, to, street) {
			if p.first < end && p.last >= end && !explained(v, lines[j:], p, end) && crossingHolds(v, a.gz, p, end) {
				out = append(out, p)
			}
		}
	}
	return out
}

// mayCross reports whether word i, the last of its line, may be a
// word of an address part: a number, a capitalised word, a keyword, a
// particle, a conjunction or "of" (in a crossing), a street type, or any
// word of a lower-case line. Parts that cross a break hold the word
// before it.
func (a *addressFinder) mayCross(v *view.View, i int) bool {
	t := v.CoreText(i)
	if t == "" || view.IsDigit(t[0]) || view.IsCapitalised(t) {
		return true
	}
	l := v.CoreLower(i)
	if a.starts.Has(l) || addrParticles[l] || isConjunction(l) || l == "of" || a.gz.StreetSuffix.Has(strings.TrimSuffix(l, ".")) {
		return true
	}
	return isLowerLine(v, v.LineFirst(i), i+1)
}

// digitIn reports whether any of words [f, e) has a digit.
func digitIn(v *view.View, f, e int) bool {
	for i := f; i < e; i++ {
		if view.HasDigit(v.WordText(i)) {
			return true
		}
	}
	return false
}

// crossingHolds reports whether the words of a part p after the line
// break before word brk belong to it. A label ("Bot:", "Date:") starts
// something else; and when only a place follows the break after a whole
// postcode, the next line is as likely a new sentence or paragraph
// ("... 81365" / "CAN I ...", "... 02706" / "Mary said") as the city, so
// the place must be a known city or country that is neither a first name,
// a common word nor a code.
func crossingHolds(v *view.View, gz *gazetteer.Gazetteers, p part, brk int) bool {
	for i := brk; i <= p.last; i++ {
		if _, e := v.WordRange(i); v.Text[e-1] == ':' {
			return false
		}
	}
	if p.kind != partPostal || splitsCode(v.CoreText(brk-1), v.CoreText(brk)) {
		return true
	}
	var ws []string
	for i := brk; i <= p.last; i++ {
		if view.HasDigit(v.CoreText(i)) {
			return true
		}
		ws = append(ws, v.CoreLower(i))
	}
	name := strings.Join(ws, " ")
	if _, first := gz.FirstNames[name]; first || gz.Common.Has(name) || len(name) <= 3 {
		return false
	}
	return gz.Cities.Has(name) || gz.Countries.Has(name)
}

// numberAfter reports whether the only word of p after the line break
// before brk is a number, as in "Suite" / "536": the line's part ended
// with a unit word whose number wrapped, and the number completes it.
func numberAfter(v *view.View, p part, brk int) bool {
	return p.last == brk && houseNumber.MatchString(strings.TrimPrefix(v.CoreText(brk), "#"))
}

// splitsCode reports whether a and b, the words either side of a line
// break, are the two halves of one postcode ("1234" / "AB", "SW1A" /
// "1AA", "T2P" / "1J9"): the break then falls inside the postcode, which
// proves itself.
func splitsCode(a, b string) bool {
	switch {
	case len(a) == 4 && pattern.AllDigits(a) && nlLetters.MatchString(b):
		return true
	case len(a) <= 4 && view.HasDigit(a) && view.IsAllUpper(a) && ukInward.MatchString(b):
		return true
	}
	return caFSA.MatchString(a) && caLDU.MatchString(b)
}

// explained reports whether a part p broken by the line break before
// word brk only stretches one of the lines' own parts (from those
// starting on p's line on) over the break, other than by the number of a
// unit that the break cut off.
func explained(v *view.View, lines []part, p part, brk int) bool {
	for _, q := range lines {
		if q.first > p.last {
			return false
		}
		if q.first == p.first && !numberAfter(v, p, brk) || p.kind == partPostal && q.first == brk && q.last >= p.last {
			return true
		}
	}
	return false
}

// mergeParts adds the parts broken by a line break to the parts found
// line by line (both in word order): a broken part swallows the line
// parts it overlaps, growing to cover them; it keeps the kind of
// whichever starts first, and the best score.
func mergeParts(lines, wrapped []part) []part {
	out := make([]part, 0, len(lines)+len(wrapped))
	i, j := 0, 0
	for i < len(lines) || j < len(wrapped) {
		var p part
		if j >= len(wrapped) || i < len(lines) && lines[i].first <= wrapped[j].first {
			p = lines[i]
			i++
		} else {
			p = wrapped[j]
			j++
		}
		if n := len(out); n > 0 && p.first <= out[n-1].last {
			q := &out[n-1]
			q.last = max(q.last, p.last)
			q.score = max(q.score, p.score)
			continue
		}
		out = append(out, p)
	}
	return out
}

// lw is word i's core in lower case; "" outside the line.
func lw(v *view.View, i, first, end int) string {
	if i < first || i >= end {
		return ""
	}
	return v.CoreLower(i)
}

// typeWord is word i in lower case as the street-type lists write it: the
// view's core drops a closing dot, but the lists keep it on abbreviations
// that are only ever written with one ("u.", "krt.", "boul.", "r."), and
// isSuffixType takes a dot as the sign of an abbreviation.
func typeWord(v *view.View, i, first, end int) string {
	l := lw(v, i, first, end)
	if l != "" && strings.HasPrefix(v.Text[v.CoreEnd(i):v.WordEnd(i)], ".") {
		return l + "."
	}
	return l
}

// typeDot reports whether word i's only closing punctuation is the dot of
// a street type listed as an abbreviation ("u.", "str."): that dot ends no
// clause.
func typeDot(v *view.View, gz *gazetteer.Gazetteers, i int) bool {
	return v.Text[v.CoreEnd(i):v.WordEnd(i)] == "." && gz.StreetSuffix.Has(v.CoreLower(i)+".")
}

func tw(v *view.View, i, first, end int) string {
	if i < first || i >= end {
		return ""
	}
	return v.CoreText(i)
}

// endsClause reports whether word i ends with punctuation that ends a
// street name (a comma before the city, a full stop).
func endsClause(v *view.View, i int) bool {
	s, e := v.WordRange(i)
	_, ce := v.Core(i)
	return ce < e && strings.ContainsAny(v.Text[ce:e], ",;:") || e > s && v.Text[e-1] == '.' && !strings.HasSuffix(v.CoreText(i), ".")
}

// line finds the address parts of one line.
func (a *addressFinder) line(v *view.View, first, end int, street bool) []part {
	var out []part
	for i := first; i < end; i++ {
		// Every part starts with a digit, a capital letter or a keyword
		// (prefix street type, post-box or unit word): skip other words
		// cheaply, which is most words of running text.
		if t := v.CoreText(i); t == "" || !view.IsDigit(t[0]) && !view.IsCapitalised(t) && !a.starts.Has(v.CoreLower(i)) {
			continue
		}
		afterStreet := street && i == first || len(out) > 0 && out[len(out)-1].kind != partPostal && i-out[len(out)-1].last <= 1
		if l := lw(v, i, first, end); l == "corner" {
			if n := corner(v, a.gz, i, first, end); n > i {
				s := i
				if lw(v, i-1, first, end) == "the" {
					s = i - 1
				}
				out = append(out, part{first: s, last: n, score: 0.6, kind: partStreet})
				i = n
			}
			continue
		}
		if p, ok := a.street(v, i, first, end); ok {
			p.first = unitBefore(v, a.gz, p.first, first, end)
			p.last = unitAfter(v, a.gz, p.last, first, end)
			out = append(out, p)
			i = p.last
			continue
		}
		if p, ok := a.postal(v, i, first, end, afterStreet); ok {
			out = append(out, p)
			i = p.last
			continue
		}
		if n := a.boxAt(v, i, first, end); n > 0 {
			out = append(out, part{first: i, last: n, score: 0.75, kind: partBox})
			i = n
			continue
		}
		if a.standaloneUnits[lw(v, i, first, end)] {
			if n := unitAfter(v, a.gz, i-1, first, end); n > i-1 {
				out = append(out, part{first: i, last: n, score: 0.5, kind: partUnit})
				i = n
			}
		}
	}
	return out
}

// street matches a street with its house number starting at word i.
func (a *addressFinder) street(v *view.View, i, first, end int) (part, bool) {
	w := lw(v, i, first, end)
	t := tw(v, i, first, end)
	// English order: "15 Millicent Drive", "4589 40th Street NW".
	// French order: "12 rue de la Paix", "12, rue de la Paix", "12 bis rue".
	if houseNumber.MatchString(t) && !articleBefore(v, i, first) {
		j := i + 1
		if c := lw(v, j, first, end); c == "bis" || c == "ter" {
			j++
		}
		if p, ok := a.prefixName(v, j, first, end, false); ok && !proseTypeAt(v, j, first, end) {
			return part{first: i, last: p, score: 0.65, kind: partStreet}, true
		}
		if endsClause(v, i) {
			return part{}, false
		}
		named := false // a name word with a letter: "om 1 2 u." (two o'clock) names no street
		for k := i + 1; k < end && k <= i+5; k++ {
			if k > i+1 && named && isSuffixType(a.gz, typeWord(v, k, first, end), v.CoreText(k)) {
				e := k
				// "Willow Creek Road": the last of several types.
				for e+1 < end && !endsClause(v, e) && isSuffixType(a.gz, typeWord(v, e+1, first, end), v.CoreText(e+1)) && view.IsCapitalised(v.CoreText(e+1)) {
					e++
				}
				if d := lw(v, e+1, first, end); isDirectional(d) && !endsClause(v, e) {
					e++
				} else if a.gz.NumberAfter.Has(typeWord(v, e, first, end)) && (!endsClause(v, e) || typeDot(v, a.gz, e)) &&
					houseNumber.MatchString(tw(v, e+1, first, end)) {
					// "64 Király u. 23": a type of a language that writes
					// the house number after the street takes it.
					e++
				}
				return part{first: i, last: e, score: 0.65, kind: partStreet}, true
			}
			// A bare number only right after the house number ("27 2711
			// Queens Sq"); further in, it is another part's number.
			// An abbreviation inside the name does not end it: "22 St.
			// Paul Street".
			if !streetNameWord(v, a.gz, k) || endsClause(v, k) && !abbrevInName(v, k, end) || k > i+1 && pattern.AllDigits(v.CoreText(k)) {
				break
			}
			named = named || hasLetter(lw(v, k, first, end))
		}
		return part{}, false
	}
	if !hasLetter(w) {
		return part{}, false
	}
	// Prefix type then number: "Via Roma 10", "Calle Mayor, 5", "Am Markt 3".
	if p, ok := a.prefixName(v, i, first, end, true); ok {
		return part{first: i, last: p, score: 0.65, kind: partStreet}, true
	}
	// Compound: "Hauptstraße 5", "Kerkstraat 12a".
	if view.IsCapitalised(t) && i+1 < end && houseNumber.MatchString(tw(v, i+1, first, end)) {
		for _, suf := range a.gz.StreetCompound {
			if len(w) > len(suf)+1 && strings.HasSuffix(w, suf) {
				return part{first: i, last: i + 1, score: 0.7, kind: partStreet}, true
			}
		}
	}
	// A street named without a number after a preposition of place: "lives
	// on Anderson Street", "the shop at Chloupková Street". Its first word
	// must be no ordinary word: "on Main Street", "at Wall Street" name no
	// one's home.
	if k, ok := namedStreet(v, a.gz, i, first, end); ok {
		return part{first: i, last: k, score: 0.55, kind: partStreet}, true
	}
	// Name then suffix type then number: "Berliner Straße 5", "Main Street 5".
	if view.IsCapitalised(t) && !addrNameStop[w] {
		for k := i + 1; k < end && k <= i+3; k++ {
			if isSuffixType(a.gz, typeWord(v, k, first, end), v.CoreText(k)) && k+1 < end && houseNumber.MatchString(tw(v, k+1, first, end)) {
				return part{first: i, last: k + 1, score: 0.65, kind: partStreet}, true
			}
			if !view.IsCapitalised(v.CoreText(k)) || endsClause(v, k) {
				break
			}
		}
	}
	return part{}, false
}

// placePreps are the prepositions before a street named without a
// number.
var placePreps = gazetteer.MustWords("context", "place-prep")

// namedStreet matches a capitalised street name of one to three words and
// a capitalised suffix type at i, after a preposition of place, and returns
// the last word (after further types: "Anderson Street Street").
func namedStreet(v *view.View, gz *gazetteer.Gazetteers, i, first, end int) (int, bool) {
	t, w := tw(v, i, first, end), lw(v, i, first, end)
	if i == first || !placePreps[lw(v, i-1, first, end)] || endsClause(v, i-1) || !view.IsCapitalised(t) || view.IsAllUpper(t) ||
		addrNameStop[w] || gz.Lex[w]&(gazetteer.Common|gazetteer.StreetSuffix|gazetteer.StreetPrefix) != 0 || !isLetters(w) {
		return 0, false
	}
	for k := i + 1; k < end && k <= i+3; k++ {
		kt := v.CoreText(k)
		if isSuffixType(gz, typeWord(v, k, first, end), kt) && view.IsCapitalised(kt) {
			e := k
			for e+1 < end && !endsClause(v, e) && isSuffixType(gz, typeWord(v, e+1, first, end), v.CoreText(e+1)) && view.IsCapitalised(v.CoreText(e+1)) {
				e++
			}
			return e, true
		}
		if endsClause(v, k-1) || !view.IsCapitalised(kt) || !isLetters(lw(v, k, first, end)) {
			break
		}
	}
	return 0, false
}

// corner matches a street crossing after "corner" at i: "corner of
// Ilichova 50 and Salcido Street". Each street is a short run of name
// words (capitalised, numbers, particles; any in a lower-case line), the
// first holding a number or a street type, the second ending with a
// street type ("corner of Page 4 and Figure 2" is none).
// It returns the last word, or i when there is none.
func corner(v *view.View, gz *gazetteer.Gazetteers, i, first, end int) int {
	if lw(v, i+1, first, end) != "of" {
		return i
	}
	lower := isLowerLine(v, first, end)
	name := func(k int) bool {
		t, l := tw(v, k, first, end), lw(v, k, first, end)
		if l == "" || addrNameStop[l] || endsClause(v, k) && !view.HasDigit(t) && !abbrevInName(v, k, end) {
			return false
		}
		return view.IsCapitalised(t) || view.HasDigit(t) || addrParticles[l] || lower
	}
	k, proof := i+2, false
	for ; k < end && k <= i+7 && !isConjunction(lw(v, k, first, end)); k++ {
		if !name(k) {
			return i
		}
		proof = proof || view.HasDigit(tw(v, k, first, end)) || isSuffixType(gz, typeWord(v, k, first, end), tw(v, k, first, end))
	}
	if !proof || k == i+2 || k >= end || lw(v, k, first, end) == "or" {
		return i
	}
	for j := k + 1; j < end && j <= k+4; j++ {
		t, l := tw(v, j, first, end), lw(v, j, first, end)
		if j > k+1 && (isSuffixType(gz, typeWord(v, j, first, end), t) || lower && gz.StreetSuffix.Has(strings.TrimSuffix(l, "."))) {
			return j
		}
		if !name(j) {
			return i
		}
	}
	return i
}

// abbrevInName reports whether word k is an abbreviation inside a street
// name ("Calle Proc. San Sebastián", "N. Stadion"): a capitalised word of
// at most four letters closed by a dot, followed on the line by a
// capitalised word.
func abbrevInName(v *view.View, k, end int) bool {
	t := v.CoreText(k)
	return k+1 < end && view.IsCapitalised(t) && utf8.RuneCountInString(t) <= 4 && isLetters(strings.ToLower(t)) &&
		strings.HasPrefix(v.Text[v.CoreEnd(k):v.WordEnd(k)], ".") && view.IsCapitalised(v.CoreText(k+1))
}

// prefixName matches a prefix street type at i followed by a name; with
// wantNumber, the name must be followed by a house number (which the part
// then includes). It returns the last word.
func (a *addressFinder) prefixName(v *view.View, i, first, end int, wantNumber bool) (int, bool) {
	w := lw(v, i, first, end)
	if d := typeWord(v, i, first, end); d != w && a.gz.StreetPrefix.Has(d) {
		w = d
	}
	n := 1
	if !a.gz.StreetPrefix.Has(w) {
		if !a.prefixFirst.Has(w) {
			return 0, false
		}
		two := w + " " + lw(v, i+1, first, end)
		if !a.gz.StreetPrefix.Has(two) {
			return 0, false
		}
		n = 2
	}
	prose := proseTypeAt(v, i, first, end)
	// found returns the house number at k, which a prose type takes only
	// when it is no year: "Im Jahr 2002", "In der Saison 1953/54".
	found := func(k int) (int, bool) {
		if prose && yearLike(tw(v, k, first, end)) {
			return 0, false
		}
		return k, true
	}
	// Before a name and number the type is capitalised, or an
	// abbreviation written in lower case by convention ("ul. Miła 5").
	abbrev := n == 1 && strings.HasSuffix(v.WordText(i), ".") && view.IsCapitalised(tw(v, i+1, first, end))
	if wantNumber && !view.IsCapitalised(tw(v, i, first, end)) && !abbrev && !isLowerLine(v, first, end) {
		return 0, false
	}
	last := -1
	for k := i + n; k < end && k < i+n+6; k++ {
		t := tw(v, k, first, end)
		l := lw(v, k, first, end)
		if wantNumber && last >= 0 && houseNumber.MatchString(t) {
			return found(k)
		}
		// "Rua 25 de Abril, n.º 32", "Via Roma, n. 10": a number sign
		// before the house number.
		if wantNumber && last >= 0 && k+1 < end && numberSign(v.WordText(k)) && houseNumber.MatchString(tw(v, k+1, first, end)) {
			return found(k + 1)
		}
		if addrParticles[l] || strings.HasPrefix(l, "d'") || strings.HasPrefix(l, "l'") || strings.HasPrefix(l, "d’") {
			continue
		}
		// A street named after a date: "Rua 25 de Abril", "Avenida 5 de
		// Outubro", "Calle 2 de Mayo".
		if k == i+n && isDayNumber(t) && addrParticles[lw(v, k+1, first, end)] && pattern.MonthNumber(lw(v, k+2, first, end)) > 0 {
			last = k
			continue
		}
		if !hasLetter(l) || addrNameStop[l] || isLink(v.WordText(k)) || !(view.IsCapitalised(t) || view.HasDigit(t) || isLowerLine(v, first, end) && !a.gz.Common.Has(l)) {
			break
		}
		if wantNumber && pattern.MonthNumber(l) > 0 && k+1 < end && isDayNumber(tw(v, k+1, first, end)) {
			return 0, false // "AM December 15": a time and a date, not "Am Markt 3"
		}
		last = k
		if endsClause(v, k) {
			if wantNumber && k+1 < end && houseNumber.MatchString(tw(v, k+1, first, end)) {
				return found(k + 1)
			}
			if wantNumber && k+2 < end && numberSign(v.WordText(k+1)) && houseNumber.MatchString(tw(v, k+2, first, end)) {
				return found(k + 2)
			}
			break
		}
	}
	if wantNumber || last < 0 {
		return 0, false
	}
	return last, true
}

// proseTypes are the German street types that are also prepositions or
// adjectives of running text ("Am Markt 3", but "Im Jahr 2002", "1986 im
// Turnverein", "200 neue Funktionen").
var proseTypes = gazetteer.MustWords("addresses", "prose-street-type")

// proseTypeAt reports whether a prose type (proseTypes, of one or two
// words) opens at word i.
func proseTypeAt(v *view.View, i, first, end int) bool {
	w := lw(v, i, first, end)
	return proseTypes[w] || proseTypes[w+" "+lw(v, i+1, first, end)]
}

// yearLike reports whether t is a year of the last millennium or this
// one, alone or opening a range ("1998", "1953/54", "2012-2014"): no
// German house number runs that high.
func yearLike(t string) bool {
	if len(t) < 4 || !pattern.AllDigits(t[:4]) || len(t) > 4 && t[4] != '/' && t[4] != '-' {
		return false
	}
	y, _ := strconv.Atoi(t[:4])
	return y >= 1000 && y < 2100
}

// isDayNumber reports whether t is a day of the month, 1 to 31, in one
// or two digits.
func isDayNumber(t string) bool {
	if len(t) == 0 || len(t) > 2 || !pattern.AllDigits(t) {
		return false
	}
	d, _ := strconv.Atoi(t)
	return d >= 1 && d <= 31
}

// isLowerLine reports whether the line has no capitalised word, as in
// chat text or OCR of a lower-case form, where capitalisation says nothing.
func isLowerLine(v *view.View, first, end int) bool {
	for i := first; i < end; i++ {
		if view.IsCapitalised(v.CoreText(i)) {
			return false
		}
	}
	return true
}

func hasLetter(s string) bool {
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x80 {
			return true
		}
	}
	return false
}

func isSuffixType(gz *gazetteer.Gazetteers, l, t string) bool {
	if l == "" {
		return false
	}
	base := strings.TrimSuffix(l, ".")
	if gz.StreetSuffix.Has(l) || gz.StreetSuffix.Has(base) {
		// English abbreviations count only as written with a capital
		// ("St", "Ave."): "ext. 37625", "est. 1850" and "ch. 5" are no
		// streets. Another language's listed abbreviation counts in lower
		// case with its dot ("Király u. 23", "Berliner str. 5"); its short
		// types are whole words, written in lower case after the name
		// ("Király utca 15", "Erzsébet tér 9", "Pernilles vei 115").
		return len(base) > 4 || view.IsCapitalised(t) || l != base && gz.NumberAfter.Has(l) || shortTypes[base] || !isASCII(base)
	}
	return false
}

// shortTypes are short street types that are no abbreviation.
var shortTypes = gazetteer.MustWords("addresses", "short-street-type")

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// streetNameWord reports whether word k may be part of a street name
// between the house number and the street type.
func streetNameWord(v *view.View, gz *gazetteer.Gazetteers, k int) bool {
	t := v.CoreText(k)
	l := v.CoreLower(k)
	if addrNameStop[l] || !hasLetter(l) && !houseNumber.MatchString(t) || isLink(v.WordText(k)) {
		return false
	}
	// "40th", "5th"; "Main"; lower case only inside a lower-case line.
	return view.IsCapitalised(t) || view.HasDigit(t) || isDirectional(l) || isLowerLine(v, v.LineFirst(k), v.LineEnd(k))
}

// isLink reports whether a word is a web address or an account handle
// ("http://t.co/QGBMGU3w3o", "www.example.com", "@ESPNNFL"): no street's
// name holds one, and a tweet's "18 2015 http://t.co/m6Mli6Bxa6 RT" (a
// number, a link, "RT" read as Route) is no address.
func isLink(w string) bool {
	return strings.Contains(w, "://") || strings.HasPrefix(strings.ToLower(w), "www.") || strings.HasPrefix(w, "@")
}

func isDirectional(l string) bool {
	switch strings.TrimSuffix(l, ".") {
	case "n", "s", "e", "w", "ne", "nw", "se", "sw", "north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest":
		return true
	}
	return false
}

// unitAfter extends an address ending at word last over a following unit
// ("Apt. 305", "Suite 603", "#12", "Unit 4B"), possibly after a comma.
func unitAfter(v *view.View, gz *gazetteer.Gazetteers, last, first, end int) int {
	k := last + 1
	l := lw(v, k, first, end)
	if l == "" {
		return last
	}
	if strings.HasPrefix(l, "#") && len(l) > 1 && houseNumber.MatchString(l[1:]) {
		return k
	}
	if unitWord(gz, l) && unitNumber(tw(v, k+1, first, end)) {
		return k + 1
	}
	// "38, 2.º Esq.": a floor ordinal and the side of the landing.
	if k < end && floorOrdinal(v.WordText(k)) {
		if k+1 < end && floorSides[strings.ToLower(strings.TrimRight(v.WordText(k+1), ","))] {
			return k + 1
		}
		return k
	}
	return last
}

// numberSign reports whether w (a word's text) is a number sign written
// before a house number: "n.º", "nº", "n°", "N.", "nr.", "núm.".
func numberSign(w string) bool {
	return houseNumberSigns[strings.ToLower(strings.TrimRight(w, ","))]
}

// houseNumberSigns are the number signs numberSign knows, in lower case.
var houseNumberSigns = setOf("n.º", "nº", "n°", "n.°", "n.", "nr.", "nr", "núm.", "num.", "no.")

// floorSides are the words after a Portuguese or Spanish floor ordinal that
// say which flat of the floor ("2.º Esq.": second floor, left).
var floorSides = map[string]bool{"esq": true, "esq.": true, "esqº": true, "dto": true, "dto.": true, "dt.º": true, "dtº": true,
	"dta.": true, "dir.": true, "drt.": true, "dt.": true, "frente": true, "fte.": true, "izq.": true, "izda.": true,
	"dcha.": true, "der.": true, "izq": true, "izda": true, "dcha": true}

// floorOrdinal reports whether t is a floor written as an ordinal: "2.º",
// "3º", "1.ª", "4°".
func floorOrdinal(t string) bool {
	t = strings.TrimRight(t, ",")
	d := 0
	for d < len(t) && d < 2 && view.IsDigit(t[d]) {
		d++
	}
	if d == 0 {
		return false
	}
	switch strings.TrimPrefix(t[d:], ".") {
	case "º", "ª", "°":
		return true
	}
	return false
}

// unitWord reports whether l (lower case) designates a unit: "apt.",
// "suite", "flat", "#".
func unitWord(gz *gazetteer.Gazetteers, l string) bool {
	return gz.Units.Has(l) || gz.Units.Has(strings.TrimSuffix(l, "."))
}

// unitNumber reports whether t may number a unit: "305", "#12", "4B", "C".
func unitNumber(t string) bool {
	return houseNumber.MatchString(strings.TrimPrefix(t, "#")) || len(t) == 1 && view.IsCapitalised(t)
}

// unitBefore extends a street starting at word s back over a unit written
// before it ("Flat 4B, 221 MG Road", "Unit 7 / 45 George Street",
// "Apartment 3B 221 Baker Street"), as British, Indian and Australian
// addresses put it.
func unitBefore(v *view.View, gz *gazetteer.Gazetteers, s, first, end int) int {
	k := s - 1
	if k >= first && v.Word(k).Text == "/" {
		k--
	}
	if k-1 < first || !unitNumber(tw(v, k, first, end)) {
		return s
	}
	if unit := lw(v, k-1, first, end); !unitWord(gz, unit) || unit == "#" || endsClause(v, k-1) {
		return s
	}
	if endsClause(v, k) && !strings.HasSuffix(v.Word(k).Text, ",") {
		return s // "one floor 2. 14 Hill Road": a sentence ends between them
	}
	if v.LineOf(k-1) != v.LineOf(s) {
		return s
	}
	return k - 1
}

// boxAt matches a post-office box at i ("P.O. Box 101", "Postfach 12 34",
// "PSC 7004, Box 8380") and returns its last word, or 0.
func (a *addressFinder) boxAt(v *view.View, i, first, end int) int {
	if l := v.CoreLower(i); !a.gz.POBoxes.Has(l) && !a.boxFirst.Has(l) && !strings.HasSuffix(l, ".") {
		return 0
	}
	for n := min(4, end-i); n >= 1; n-- {
		var parts []string
		for k := i; k < i+n; k++ {
			parts = append(parts, v.CoreLower(k))
		}
		form := strings.Join(parts, " ")
		if !a.gz.POBoxes.Has(form) && !a.gz.POBoxes.Has(strings.TrimSuffix(form, ".")) {
			continue
		}
		if len(form) <= 3 && !view.IsAllUpper(v.CoreText(i)) {
			continue // "bp", "pmb", "psc" only in capitals
		}
		k := i + n
		if !pattern.AllDigits(tw(v, k, first, end)) {
			return 0
		}
		last := k
		// Grouped digits ("Postfach 12 34 56") and "PSC 7004, Box 8380".
		for k+1 < end && pattern.AllDigits(tw(v, k+1, first, end)) && len(tw(v, k+1, first, end)) <= 3 {
			k++
			last = k
		}
		if lw(v, last+1, first, end) == "box" && pattern.AllDigits(tw(v, last+2, first, end)) {
			last += 2
		}
		return last
	}
	return 0
}

// postal matches a postcode line part at i: US state + ZIP, UK and
// Canadian postcodes, NL "1234 AB", and 4- or 5-digit codes followed by a
// known city. Cities before the code on the same line are included.
func (a *addressFinder) postal(v *view.View, i, first, end int, afterStreet bool) (part, bool) {
	t := tw(v, i, first, end)
	l := lw(v, i, first, end)
	// Every form has digits in its first four words.
	if !view.HasDigit(t) && !view.HasDigit(tw(v, i+1, first, end)) && !view.HasDigit(tw(v, i+2, first, end)) && !view.HasDigit(tw(v, i+3, first, end)) {
		return part{}, false
	}
	// US military: "FPO AE 09499", "APO AP 96205", after the ship or
	// unit ("USNS Vestergaard FPO AA 08331"). The three words together
	// are the proof; the ZIP is not checked against the region, since
	// military ZIPs move with the units.
	if militaryPost[l] && militaryRegion[lw(v, i+1, first, end)] && zipUS.MatchString(tw(v, i+2, first, end)) {
		return part{first: shipBefore(v, i, first), last: i + 2, score: 0.8, kind: partPostal}, true
	}
	// US: "IL 62704", "Illinois 62704-1234", "APO AP 11949".
	if st, ok := a.usState(v, i, first, end); ok {
		n := 1
		if strings.Contains(st.name, " ") {
			n = strings.Count(st.name, " ") + 1
		}
		if m := zipUS.FindStringSubmatch(tw(v, i+n, first, end)); m != nil {
			if states, ok := a.gz.USZip3[m[1][:3]]; ok && strings.Contains(states, st.abbr) {
				return part{first: cityBefore(v, a.gz, i, first), last: i + n, score: 0.8, kind: partPostal}, true
			}
		}
	}
	// UK: "SW1A 1AA", "M1 1AE", "SW1A1AA".
	digit := view.HasDigit(t)
	if digit && len(t) <= 4 && view.IsAllUpper(t) && a.gz.GBOutward.Has(t) && ukInward.MatchString(tw(v, i+1, first, end)) {
		return part{first: cityBefore(v, a.gz, i, first), last: i + 1, score: 0.8, kind: partPostal}, true
	}
	if !digit {
		return part{}, false
	}
	if m := ukCompact.FindStringSubmatch(t); len(t) >= 5 && len(t) <= 7 && m != nil && a.gz.GBOutward.Has(m[1]) {
		return part{first: cityBefore(v, a.gz, i, first), last: i, score: 0.7, kind: partPostal}, true
	}
	// Canada: "T2P 1J9", "T2P1J9".
	if len(t) == 3 && caFSA.MatchString(t) && a.gz.CAFSA.Has(t) && caLDU.MatchString(tw(v, i+1, first, end)) {
		s := i
		if caProvinces[tw(v, i-1, first, end)] {
			s = cityBefore(v, a.gz, i-1, first)
		}
		return part{first: s, last: i + 1, score: 0.8, kind: partPostal}, true
	}
	if len(t) == 6 {
		if m := caCompact.FindStringSubmatch(t); m != nil && a.gz.CAFSA.Has(m[1]) {
			return part{first: i, last: i, score: 0.7, kind: partPostal}, true
		}
	}
	// PT: "1100-048 Lisboa": four digits, a hyphen and three, then the
	// town. Alone (not after a street), the town must be a known one:
	// "LOT 2026-117 QTY 40" on a product label is no address.
	if len(t) == 8 && ptPostcode.MatchString(t) && view.IsCapitalised(tw(v, i+1, first, end)) {
		if last := a.cityAfter(v, i+1, first, end, afterStreet); last > i {
			return part{first: i, last: last, score: 0.75, kind: partPostal}, true
		}
	}
	// NL: "1234 AB Amsterdam", "1234AB".
	if len(t) == 4 && pattern.AllDigits(t) && t[0] != '0' && nlLetters.MatchString(tw(v, i+1, first, end)) {
		if ab := tw(v, i+1, first, end); ab != "SA" && ab != "SD" && ab != "SS" && view.IsCapitalised(tw(v, i+2, first, end)) {
			return part{first: i, last: a.cityAfter(v, i+2, first, end, true), score: 0.75, kind: partPostal}, true
		}
	}
	if len(t) == 6 && nlCompact.MatchString(t) && view.IsCapitalised(tw(v, i+1, first, end)) {
		return part{first: i, last: a.cityAfter(v, i+1, first, end, true), score: 0.7, kind: partPostal}, true
	}
	// "10115 Berlin", "F-75002 Paris", "1010 Wien": the city must be known.
	if len(t) <= 8 && (postcode5.MatchString(t) || postcode4.MatchString(t) && (i == first || endsClause(v, i-1))) && !articleBefore(v, i, first) {
		if c := a.cityAfter(v, i+1, first, end, afterStreet); c > i && !(pattern.BareYear(t) && (sentenceGoesOn(v, c, end) || monthBefore(v, i, first))) {
			score := float32(0.7)
			if len(l) == 4 {
				score = 0.6
			}
			return part{first: i, last: c, score: score, kind: partPostal}, true
		}
	}
	return part{}, false
}

// articleBefore reports whether word i, on the line starting at first,
// follows an article: "the 2017 BRICS summit", "a 1979 Ford Mustang",
// also at the end of the line before where the paragraph flows on (a
// line of prose wrapped after "the"). A house number or a postcode
// never does.
func articleBefore(v *view.View, i, first int) bool {
	if i <= 0 || i < first {
		return false
	}
	if ln := v.LineOf(i); i == first && (v.LineFirst(i) != i || ln == 0 || !v.FlowsOn(ln-1)) {
		return false
	}
	switch v.CoreLower(i - 1) {
	case "the", "a", "an":
		return v.CoreEnd(i-1) == v.WordEnd(i-1)
	}
	return false
}

// monthBefore reports whether a month name is among the three words
// before word i on its line: the number ends a date ("Dec. 31, 1999
// Bloomfield Compression", "JUNE , 2015 LEEDS , UK").
func monthBefore(v *view.View, i, first int) bool {
	for k := i - 1; k >= first && k >= i-3; k-- {
		if pattern.MonthNumber(strings.TrimSuffix(v.CoreLower(k), ".")) > 0 {
			return true
		}
	}
	return false
}

// sentenceGoesOn reports whether the sentence goes on after word c with a
// word in lower case: "1979 Baltimore mayoral election", "2007 Ontario
// general election" are a year and a place, not a postcode and a town,
// which end an address line or come before a country.
func sentenceGoesOn(v *view.View, c, end int) bool {
	if c+1 >= end || endsClause(v, c) {
		return false
	}
	n := v.CoreText(c + 1)
	return n != "" && n == strings.ToLower(n) && hasLetter(n)
}

// militaryPost are the US military post office designators, and
// militaryRegion the "states" they go with.
var (
	militaryPost   = gazetteer.MustWords("addresses", "military-post")
	militaryRegion = gazetteer.MustWords("addresses", "military-region")
	// shipPrefixes name ships (and their crews' postal addresses).
	shipPrefixes = gazetteer.MustWords("addresses", "ship")
)

// shipBefore extends a military postcode at i to the left over a ship's
// name ("USNS Vestergaard", "USCGC Lussier") on the same line; it
// returns the first word.
func shipBefore(v *view.View, i, first int) int {
	for k := i - 1; k >= first && k >= i-3; k-- {
		if shipPrefixes[v.CoreLower(k)] {
			return k
		}
		if !view.IsCapitalised(v.CoreText(k)) || endsClause(v, k) {
			break
		}
	}
	return i
}

type stateMatch struct{ name, abbr string }

// usState matches a state abbreviation (upper case) or full name at i.
func (a *addressFinder) usState(v *view.View, i, first, end int) (stateMatch, bool) {
	t := tw(v, i, first, end)
	if len(t) == 2 && view.IsAllUpper(t) {
		if ab, ok := usStates[t]; ok {
			return stateMatch{t, ab}, true
		}
	}
	if !view.IsCapitalised(t) {
		return stateMatch{}, false
	}
	l := lw(v, i, first, end)
	if ab, ok := usStates[l]; ok && len(l) > 2 && !a.stateFirst.Has(l) {
		return stateMatch{l, ab}, true
	}
	if !a.stateFirst.Has(l) {
		return stateMatch{}, false
	}
	for n := 3; n >= 1; n-- {
		if i+n > end {
			continue
		}
		var ws []string
		for k := i; k < i+n; k++ {
			ws = append(ws, lw(v, k, first, end))
		}
		name := strings.Join(ws, " ")
		if ab, ok := usStates[name]; ok && len(name) > 2 {
			return stateMatch{name, ab}, true
		}
	}
	return stateMatch{}, false
}

// cityBefore extends a postcode at i to the left over a city name: up to
// three capitalised words, the last of which may end with a comma
// ("Springfield, IL"). It returns the first word.
func cityBefore(v *view.View, gz *gazetteer.Gazetteers, i, first int) int {
	s := i
	for k := i - 1; k >= first && k >= i-3; k-- {
		t := v.CoreText(k)
		if !view.IsCapitalised(t) || addrNameStop[v.CoreLower(k)] || view.HasDigit(t) {
			break
		}
		if k < i-1 && endsClause(v, k) {
			break
		}
		s = k
	}
	return s
}

// cityAfter matches a city starting at word i (one to three words); when
// any is true a capitalised word is enough, else the city must be in the
// gazetteer. It returns the city's last word, or i-1 when none.
func (a *addressFinder) cityAfter(v *view.View, i, first, end int, any bool) int {
	if i >= end || !view.IsCapitalised(v.CoreText(i)) {
		return i - 1
	}
	if f := a.gz.Lex[v.CoreLower(i)]; f&gazetteer.MultiStart == 0 || !a.cityFirst.Has(v.CoreLower(i)) {
		if f&gazetteer.City != 0 || any {
			return i
		}
		return i - 1
	}
	for n := min(3, end-i); n >= 1; n-- {
		var ws []string
		for k := i; k < i+n; k++ {
			ws = append(ws, v.CoreLower(k))
		}
		if a.gz.Cities.Has(strings.Join(ws, " ")) {
			return i + n - 1
		}
	}
	if any {
		return i
	}
	return i - 1
}

// joinParts merges the parts of one address: a street followed, on the same
// line or the next few, by units, a city line and a postcode becomes one
// span; parts that stand alone become spans of their own.
func joinParts(v *view.View, gz *gazetteer.Gazetteers, parts []part) []page.Span {
	var out []page.Span
	for i := 0; i < len(parts); {
		p := parts[i]
		score := p.score
		j := i + 1
		for j < len(parts) && parts[j].kind != partStreet && parts[j].kind != partBox &&
			parts[j-1].kind != partPostal && adjacentPart(v, gz, parts[j-1].last, parts[j].first) {
			p.last = parts[j].last
			score = max(score, parts[j].score) + 0.05
			j++
		}
		if j > i+1 {
			score = min(score+0.1, 0.95)
		} else if p.kind == partStreet || p.kind == partPostal {
			// A lone street or postcode line followed by a city or country
			// line: "12 Main St" / "Springfield".
			if k := placeLineAfter(v, gz, p.last); k > p.last {
				p.last = k
				score += 0.05
			}
		}
		if v.LineContext(p.first, addressContext) {
			score = min(score+0.1, 0.95)
		}
		if sp, ok := v.CoreSpan(p.first, p.last, page.Address, score, "address"); ok {
			out = append(out, sp)
		}
		i = j
	}
	return out
}

// adjacentPart reports whether an address part ending at word a continues
// with a part starting at word b: on the same line with at most three
// words between (a city), or on one of the next three lines with only
// place-like lines between.
func adjacentPart(v *view.View, gz *gazetteer.Gazetteers, last, next int) bool {
	la, lb := v.LineOf(last), v.LineOf(next)
	if la == lb {
		return next-last <= 4
	}
	if lb-la > 3 || next != v.LineFirst(next) && !placeWords(v, gz, v.LineFirst(next), next) {
		return false
	}
	for k := la + 1; k < lb; k++ {
		f, e := v.Line(k)
		if !placeWords(v, gz, f, e) {
			return false
		}
	}
	return last == v.LineEnd(last)-1 || placeWords(v, gz, last+1, v.LineEnd(last))
}

// placeWords reports whether words [f, e) are a short run of capitalised
// words (a city, region or country line), possibly with commas.
func placeWords(v *view.View, gz *gazetteer.Gazetteers, f, e int) bool {
	if e-f > 4 {
		return false
	}
	for i := f; i < e; i++ {
		t := v.CoreText(i)
		if t == "" {
			continue
		}
		if !view.IsCapitalised(t) || addrNameStop[v.CoreLower(i)] || view.HasDigit(t) {
			return false
		}
	}
	return true
}

// placeLineAfter extends an address ending a line over the next line when
// that line is a known city or country; it returns the new last word.
func placeLineAfter(v *view.View, gz *gazetteer.Gazetteers, last int) int {
	if last != v.LineEnd(last)-1 || v.LineOf(last)+1 >= v.Lines() {
		return last
	}
	f, e := v.Line(v.LineOf(last) + 1)
	if e-f == 0 || e-f > 3 || !placeWords(v, gz, f, e) {
		return last
	}
	var ws []string
	for i := f; i < e; i++ {
		ws = append(ws, v.CoreLower(i))
	}
	name := strings.Join(ws, " ")
	if gz.Cities.Has(name) || gz.Countries.Has(name) {
		return e - 1
	}
	return last
}
