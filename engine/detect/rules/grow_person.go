package rules

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/lang"
	"github.com/redactd/redactd/engine/detect/pattern"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// growPerson grows a Person span over the words next to it that belong to
// the name: honorifics, ranks and offices before it (also one wrapped
// from the line before), initials and a known first name before it, the
// surname after a lone known first name, the names listed with it
// (coordinatedBefore, coordinatedAfter), post-nominals after it, the
// name's part wrapped onto the next line, and the quotation marks that
// enclose its end (quotesAfter).
type growPerson struct{}

func (growPerson) grow(rc ruleContext, ss []page.Span) []page.Span {
	v, gz := rc.v, rc.gz
	var out []page.Span
	for _, s := range ss {
		if s.Category != page.Person {
			continue
		}
		f := honorificsBefore(v, gz, wrappedHonorific(v, gz, initialsBefore(v, gz, firstNameBefore(v, gz, s.First))))
		f = coordinatedBefore(v, gz, f)
		l := wrappedAfter(v, gz, surnameAfter(v, gz, nameLineAfter(v, gz, s.First, s.Last)))
		l = postNominalsAfter(v, gz, coordinatedAfter(v, gz, l))
		q := quotesAfter(v, ss, f, l)
		if f < s.First || q > s.Last {
			out = appendQuoted(out, v, f, l, q, s.Score, s.Recognizer)
		}
	}
	return out
}

// quotesAfter returns the last word of the name first..last grown over
// a quote that encloses its end, in tokenized text where quotation marks
// are words of their own: wiki markup sets a surname in bold after the
// first name, and the marks belong to the name they enclose:
//
//	Hassan ' '' Rohani '' ' won
//
// The quote opens inside the name, or right after it before a Person
// span on its line, and the same marks in reverse order close it after
// the name, or after that span. Other marks between two names stay out:
// those that close one quote and open the next (two people in bold), and
// those that close nothing.
func quotesAfter(v *view.View, ss []page.Span, first, last int) int {
	if n := closingMarks(v, first, last); n > 0 {
		return last + n
	}
	k := last + 1
	for k < v.Len() && v.LineOf(k) == v.LineOf(last) && quoteMarks(v.WordText(k)) {
		k++
	}
	if k == last+1 || k >= v.Len() || v.LineOf(k) != v.LineOf(last) {
		return last
	}
	for _, s := range ss {
		if s.Category == page.Person && s.First == k {
			if n := closingMarks(v, last, s.Last); n == k-last-1 {
				return s.Last + n
			}
		}
	}
	return last
}

// closingMarks returns how many quotation marks after word last close a
// quote opened after word first and before word last: a run of marks
// between two words that are none, the same in reverse order. 0 if
// none do.
func closingMarks(v *view.View, first, last int) int {
	n := 0
	for n < 3 && last+n+1 < v.Len() && v.LineOf(last+n+1) == v.LineOf(last) && quoteMarks(v.WordText(last+n+1)) {
		n++
	}
	for ; n > 0; n-- {
	opening:
		for i := first + 1; i+n <= last; i++ {
			if quoteMarks(v.WordText(i-1)) || quoteMarks(v.WordText(i+n)) {
				continue
			}
			for j := 0; j < n; j++ {
				if v.WordText(i+j) != v.WordText(last+n-j) {
					continue opening
				}
			}
			return n
		}
	}
	return 0
}

// quoteMarks reports whether w is quotation marks only.
func quoteMarks(w string) bool {
	return w != "" && strings.Trim(w, "'`\"‘’“”«»„‚‹›") == ""
}

// appendQuoted appends the Person span of words first..last, core only,
// grown to word q (quotesAfter) where q lies beyond last: quotation marks
// have no core, so the span takes those words whole.
func appendQuoted(out []page.Span, v *view.View, first, last, q int, score float32, rec string) []page.Span {
	n := len(out)
	out = appendCore(out, v, first, max(last, q), page.Person, score, rec)
	if q > last && len(out) > n {
		out[n].Last, out[n].End = q, 0
	}
	return out
}

// honorificsBefore returns the first word of up to two honorifics ("Dr.",
// "Prof. Dr.", "Mme") right before word first on its line. Ranks and
// offices ("General", "President") count too when capitalised: one rule
// for all titles (isTitleWord, name_words.go).
func honorificsBefore(v *view.View, gz *gazetteer.Gazetteers, first int) int {
	f := first
	for k := first - 1; k >= 0 && k >= first-2 && v.LineOf(k) == v.LineOf(first); k-- {
		l := strings.TrimSuffix(v.CoreLower(k), ".")
		if l == "" || strings.ContainsAny(v.Text[v.CoreEnd(k):v.WordEnd(k)], ",;:") {
			break
		}
		if !gz.Titles.Has(l) && !((rankTitles[l] || offices[l]) && view.IsCapitalised(v.CoreText(k))) && !maitre(v, k) {
			break
		}
		// One-letter titles ("M." for Monsieur) only in capitals with a dot.
		if len(l) == 1 && v.CoreText(k) != strings.ToUpper(l)+"." {
			break
		}
		f = k
	}
	// Dutch "de heer" (Mr): the article belongs to the title.
	if f < first && f > 0 && strings.EqualFold(v.CoreText(f), "heer") && strings.EqualFold(v.WordText(f-1), "de") && v.LineOf(f-1) == v.LineOf(f) {
		f--
	}
	return f
}

// maitre reports whether word k is "Me", the French title of a lawyer or
// notary (Maître), in French text. In English it is the pronoun, so it
// counts only in a block identified as French, or in a short block (a
// salutation line, "Me Fournier,") after French text.
func maitre(v *view.View, k int) bool {
	if v.CoreText(k) != "Me" {
		return false
	}
	for b := v.BlockOf(k); b >= 0; b-- {
		switch v.BlockLang(b).Lang {
		case lang.French:
			return true
		case lang.Unknown:
			continue
		}
		return false
	}
	return false
}

// Coordination: names listed with a name ("Kovalev, Lee and Phillips",
// "Lang and Fowler") are names too when the gazetteers know them as first
// names or surnames and they are neither ordinary words nor places.

// knownName reports whether word i is a capitalised first name or surname
// that is not also an ordinary word or a place.
func knownName(v *view.View, gz *gazetteer.Gazetteers, i int) bool {
	t, l := v.CoreText(i), v.CoreLower(i)
	if !nameShaped(t) {
		return false
	}
	f := gz.Lex[l]
	return f&(gazetteer.FirstName|gazetteer.Surname) != 0 && f&(gazetteer.Common|gazetteer.City|gazetteer.Country|gazetteer.Title) == 0
}

// coordinatedAfter grows a name ending at last over the names listed
// after it on its line and, where the paragraph wraps, the next.
func coordinatedAfter(v *view.View, gz *gazetteer.Gazetteers, last int) int {
	ln := v.LineOf(last)
	_, end := v.Line(ln)
	if v.FlowsOn(ln) {
		_, end = v.Line(ln + 1) // a list wrapped onto the next line
	}
	for {
		k := last + 1
		switch {
		case k < end && isConjunction(v.CoreLower(k)):
			k++
		case strings.HasPrefix(v.Text[v.CoreEnd(last):v.WordEnd(last)], ","):
		default:
			return last
		}
		if k >= end || !knownName(v, gz, k) && !coordName(v, gz, last, k) && !listTail(v, gz, last, k, end) {
			return last
		}
		last = k
		if k+1 < end && knownName(v, gz, k+1) && !strings.ContainsAny(v.Text[v.CoreEnd(k):v.WordEnd(k)], ",;:") {
			last = k + 1
		}
	}
}

// coordinatedBefore grows a name starting at first over the names listed
// before it on its line and, where the paragraph wraps, the one before.
func coordinatedBefore(v *view.View, gz *gazetteer.Gazetteers, first int) int {
	ln := v.LineOf(first)
	lf, _ := v.Line(ln)
	if ln > 0 && v.FlowsOn(ln-1) {
		lf, _ = v.Line(ln - 1) // a list wrapped from the line before
	}
	for {
		k := first - 1
		switch {
		case k > lf && isConjunction(v.CoreLower(k)):
			k--
		case k >= lf && strings.HasPrefix(v.Text[v.CoreEnd(k):v.WordEnd(k)], ","):
		default:
			return first
		}
		if k < lf || isConjunction(v.CoreLower(k)) || !knownName(v, gz, k) && !(k > lf && !view.EndsSentence(v, k-1) && coordName(v, gz, first, k)) {
			return first
		}
		if townAfterPreposition(v, gz, k) {
			return first // "el alcalde de Madrid, José María ...": the town is his office's
		}
		first = k
	}
}

// townAfterPreposition reports whether word k is a town or country
// right after a preposition in lower case ("de Madrid", "van Amsterdam",
// "of Leeds"): an office's place before an appositive name, not a name
// listed with it.
func townAfterPreposition(v *view.View, gz *gazetteer.Gazetteers, k int) bool {
	if k == 0 || v.LineOf(k-1) != v.LineOf(k) || gz.Lex[v.CoreLower(k)]&(gazetteer.City|gazetteer.Country) == 0 {
		return false
	}
	p := v.CoreText(k - 1)
	return lowerWord(p) && (portfolioParticles[p] || particles[p] || p == "in" || p == "à" || p == "a")
}

// Coordination with surnames that are also ordinary words or towns:
// "Willis and Green were engineers", "founders: Mazzi, Bowman and Hill",
// "Nadbath, Smith and Stanton". knownName refuses "Green", "Hill" and
// "Stanton" on their own, rightly; listed with a name they are names.
// The ordinary reading still wins where the word heads a phrase of its
// own ("Hill Street", "Green Group"), names a firm's kin ("Smith and
// Sons") or a date ("and April"), or where the neighbour is no name the
// lists know ("Research and Development").

// coordName reports whether word k, listed with the name word anchor
// (the last word of the name before it or the first of the name after
// it), is a name: a capitalised known surname or first name, ordinary
// word and town allowed, but no country, title, street, unit or legal
// word, no month or weekday, not followed by another capitalised word.
//
// Names written in lower case ("founders: chaussée, blair and parks.",
// as text typed without capitals has them) have no capitals to go by:
// when the anchor, a name the model read, is in lower case, a lower-case
// word stands for a capitalised one, and the phrase test below asks for
// the list to end with the word (punctuation, a conjunction or the line's
// end after it). The rest of the line may have capitals: OCR reads a
// stray one ("of Our 3 founders").
func coordName(v *view.View, gz *gazetteer.Gazetteers, anchor, k int) bool {
	t, l := v.CoreText(k), v.CoreLower(k)
	lower := isLowerWord(v.CoreText(anchor)) && isLowerWord(t)
	shaped := func(w string) bool { return nameShaped(w) || lower && nameShaped(capitalise(w)) }
	if !shaped(t) || view.IsAllUpper(t) || stopwords[l] || kinWords[l] || orgHeads[l] || pattern.MonthNumber(l) > 0 || pattern.IsWeekday(l) {
		return false
	}
	// Street types are allowed ("Hill", "Green"): they are streets only
	// before or after a street name, which the test below refuses.
	const not = gazetteer.Country | gazetteer.Title | gazetteer.Unit | gazetteer.LegalForm
	f := gz.Lex[l]
	if f&(gazetteer.FirstName|gazetteer.Surname) == 0 || f&not != 0 {
		return false
	}
	// An ordinary word needs an anchor the lists know as a name: the
	// model's "Research" does not make "Development" a name. A town
	// ("Lopez", "Cantu") listed with any name is a name.
	a := v.CoreLower(anchor)
	if f&gazetteer.Common != 0 && (!shaped(v.CoreText(anchor)) || gz.Lex[a]&(gazetteer.FirstName|gazetteer.Surname) == 0 || gz.Lex[a]&gazetteer.Country != 0) {
		return false
	}
	// "Hill Street", "Green Group": the word starts a phrase of its own.
	_, end := v.Line(v.LineOf(k))
	ends := strings.ContainsAny(v.Text[v.CoreEnd(k):v.WordEnd(k)], ",;:.!?")
	if k+1 < end && view.IsCapitalised(v.CoreText(k+1)) && !ends {
		return false
	}
	// In lower case "parks department" cannot be told from a name by its
	// capitals: the word must end the list.
	if lower && !view.IsCapitalised(t) && k+1 < end && !ends && !isConjunction(v.CoreLower(k+1)) {
		return false
	}
	return true
}

// isLowerWord reports whether w has letters and none of them is a
// capital.
func isLowerWord(w string) bool {
	return w != "" && strings.ToLower(w) == w && strings.ToUpper(w) != w
}

// capitalise returns w with its first letter in upper case.
func capitalise(w string) string {
	r, n := utf8.DecodeRuneInString(w)
	return string(unicode.ToUpper(r)) + w[n:]
}

// listTail reports whether word k, a month or weekday that is also a
// first name ("April", "June"), ends a list of names: "Brandon, John,
// Evan and April." It must follow "and" after a name that itself follows
// a comma, and end the sentence.
func listTail(v *view.View, gz *gazetteer.Gazetteers, last, k, end int) bool {
	l := v.CoreLower(k)
	if pattern.MonthNumber(l) == 0 && !pattern.IsWeekday(l) || !nameShaped(v.CoreText(k)) || gz.Lex[l]&gazetteer.FirstName == 0 {
		return false
	}
	lf, _ := v.Line(v.LineOf(last))
	if k-1 != last+1 || !isConjunction(v.CoreLower(k-1)) || last-1 < lf ||
		!strings.HasPrefix(v.Text[v.CoreEnd(last-1):v.WordEnd(last-1)], ",") || !firstName(v, gz, last) || !firstName(v, gz, last-1) {
		return false
	}
	tail := v.Text[v.CoreEnd(k):v.WordEnd(k)]
	return view.EndsSentence(v, k) || k+1 == end && tail == ""
}

// Person growth beyond honorifics and lists: post-nominal letters after a
// name ("Amanda Sultygov MD", "John Smith, Jr.") and names that wrap onto
// the next line ("Mr. Sean" at the end of one line, "Vizirov" at the
// start of the next). Detectors work line by line, so a name broken by
// the layout leaves its second half unmasked unless growth joins them.

// postNominals are letters written after a name: degrees, professions
// and generational suffixes. Ambiguous ones ("DO", "PA", "MA") are left
// out: they are also ordinary words or state codes.
var postNominals = gazetteer.MustWords("people", "post-nominal")

// postNominalAt reports whether word i is a post-nominal as written
// after a name: in capitals ("MD", "PhD"), capitalised with a dot
// ("Jr."), or in lower case on a line that is all lower case.
func postNominalAt(v *view.View, gz *gazetteer.Gazetteers, i int, lowerLine bool) bool {
	t := strings.TrimSuffix(v.CoreText(i), ".")
	l := strings.ToLower(t)
	if !postNominals[l] {
		return false
	}
	switch {
	case lowerLine:
		return true
	case view.IsAllUpper(t) && len(t) > 1:
		return true
	case view.IsCapitalised(t):
		// "Jr.", "Sr.", "PhD", "Esq." but not "Md" alone.
		return strings.HasSuffix(v.CoreText(i), ".") || l == "phd" || l == "ph.d" || l == "esq" || l == "jr" || l == "sr"
	}
	return false
}

// initialsBefore grows a name starting at first over up to three initials
// right before it on its line ("T. S. Eliot", "J. R. R. Tolkien" where the
// model found only the surname): a capital letter and a dot, written as a
// word of its own, with no punctuation after it but its dot.
func initialsBefore(v *view.View, gz *gazetteer.Gazetteers, first int) int {
	f := first
	for k := first - 1; k >= 0 && k >= first-3 && v.LineOf(k) == v.LineOf(first); k-- {
		w := v.WordText(k)
		if len(w) != 2 || w[1] != '.' || w[0] < 'A' || w[0] > 'Z' {
			break
		}
		f = k
	}
	return f
}

// postNominalsAfter grows a name ending at last over up to two
// post-nominals on its line, after a space or a comma ("Smith, MD").
func postNominalsAfter(v *view.View, gz *gazetteer.Gazetteers, last int) int {
	_, end := v.Line(v.LineOf(last))
	first, _ := v.Line(v.LineOf(last))
	lower := isLowerLine(v, first, end)
	for n := 0; n < 2; n++ {
		k := last + 1
		if k >= end {
			return last
		}
		if p := v.Text[v.CoreEnd(last):v.WordEnd(last)]; p != "" && p != "," {
			return last // "Smith: MD" or "Smith. MD is ..."
		}
		if !postNominalAt(v, gz, k, lower) {
			return last
		}
		last = k
	}
	return last
}

// nameContinues reports whether word i, the first word of a line, goes on
// a name that ended the line before: a capitalised word that no list
// knows as an ordinary word (of its block's language too, where that is
// surely not English, unless a name list holds it), place or title, or, when both
// lines are in lower case, such a word in lower case.
func nameContinues(v *view.View, gz *gazetteer.Gazetteers, i int, lower bool) bool {
	t, l := v.CoreText(i), v.CoreLower(i)
	if strings.Contains(v.Text[v.CoreEnd(i):v.WordEnd(i)], ":") {
		return false // "Bot:", a speaker or a label, starts something new
	}
	if stopwords[l] || pattern.MonthNumber(l) > 0 || pattern.IsWeekday(l) || !isLetters(strings.ReplaceAll(strings.ReplaceAll(l, "-", ""), "'", "")) {
		return false
	}
	f := gz.Lex[l]
	if f&notName != 0 || f&(gazetteer.FirstName|gazetteer.Surname) == 0 && inLang(gz, sureLangFlag(v, i), l) {
		return false // in the six other languages, their ordinary words too: "Fecha" (de nacimiento)
	}
	if k := strings.IndexAny(l, "'’"); k >= 0 && (stopwords[l[:k]] || gz.Common.Has(l[:k]) || k == 0) {
		return false // "It's", "I'd", "Here's": a sentence, not a surname
	}
	if lower {
		// Without capitals only a known surname goes on a name.
		return len(l) >= 3 && t == l && f&gazetteer.Surname != 0
	}
	return nameShaped(t) && !view.IsAllUpper(t)
}

// wrappedAfter grows a name whose last word ends its line, with nothing
// after it, over the first word of the next line when that word goes on
// the name ("Mr. Allen" / "Tazuka?").
func wrappedAfter(v *view.View, gz *gazetteer.Gazetteers, last int) int {
	ln := v.LineOf(last)
	_, end := v.Line(ln)
	if last != end-1 || !v.FlowsOn(ln) || v.CoreEnd(last) != v.WordEnd(last) {
		return last
	}
	nf, ne := v.Line(ln + 1)
	if nf >= ne {
		return last
	}
	lf, _ := v.Line(ln)
	lower := isLowerLine(v, lf, end)
	if lower != isLowerLine(v, nf, ne) || !nameContinues(v, gz, nf, lower) {
		return last
	}
	if lower && !knownLower(v, gz, last) {
		return last
	}
	return nf
}

// nameLineAfter grows a lone first name over the one word after it when
// the two are the whole line ("Bartholomew euennell", a letterhead or
// signature line whose surname OCR misread in case): a line of a known
// first name and one word of letters that no list knows as an ordinary
// word, place, title or company form is a name. Anything else on the
// line ("John said", "Will Power") leaves the span as it is.
func nameLineAfter(v *view.View, gz *gazetteer.Gazetteers, first, last int) int {
	lf, le := v.Line(v.LineOf(first))
	if first != last || first != lf || le-lf != 2 {
		return last
	}
	if f := gz.Lex[v.CoreLower(first)]; f&gazetteer.FirstName == 0 || f&gazetteer.Common != 0 || !nameShaped(v.CoreText(first)) {
		return last
	}
	w := last + 1
	l := v.CoreLower(w)
	if len(l) < 3 || !isLetters(l) || stopwords[l] || gz.Lex[l]&notName != 0 || v.CoreEnd(w) != v.WordEnd(w) {
		return last
	}
	return w
}

// surnameAfter grows a name whose last word is a known first name over the
// capitalised word right after it on its line that goes on a name
// (nameContinues): "Ulf Grenander", "Sepp Hochreiter" where the model
// found only the first name.
func surnameAfter(v *view.View, gz *gazetteer.Gazetteers, last int) int {
	w := last + 1
	if w >= v.Len() || v.LineOf(w) != v.LineOf(last) || v.CoreEnd(last) != v.WordEnd(last) ||
		!nameShaped(v.CoreText(last)) || gz.Lex[v.CoreLower(last)]&gazetteer.FirstName == 0 ||
		orgHeads[v.CoreLower(w)] || !nameContinues(v, gz, w, false) {
		return last
	}
	return w
}

// knownLower reports whether word i is a lower-case first name or
// surname that is no ordinary word: in lower-case text only a name the
// lists know may pull the next line's word into it.
func knownLower(v *view.View, gz *gazetteer.Gazetteers, i int) bool {
	f := gz.Lex[v.CoreLower(i)]
	return f&(gazetteer.FirstName|gazetteer.Surname) != 0 && f&(gazetteer.Common|gazetteer.City|gazetteer.Country) == 0
}

// firstNameBefore grows a name starting at first over the known first
// name right before it on its line ("Sandra" of "Sandra Kowalczyk", where
// the model found only the surname): a capitalised first name of the lists
// that is no ordinary word, place or title, with nothing but a space
// between them.
func firstNameBefore(v *view.View, gz *gazetteer.Gazetteers, first int) int {
	k := first - 1
	if k < 0 || v.LineOf(k) != v.LineOf(first) || v.CoreEnd(k) != v.WordEnd(k) || !nameShaped(v.CoreText(first)) ||
		!knownName(v, gz, k) || !firstName(v, gz, k) {
		return first
	}
	return k
}

// wrappedHonorific returns the last word of the line before first when
// first starts its line and that word is an honorific written as one
// ("Mr." / "Allen Tazuka"), else first.
func wrappedHonorific(v *view.View, gz *gazetteer.Gazetteers, first int) int {
	ln := v.LineOf(first)
	lf, _ := v.Line(ln)
	if first != lf || ln == 0 || first == 0 || !v.FlowsOn(ln-1) {
		return first
	}
	k := first - 1
	w := v.WordText(k)
	l := strings.TrimSuffix(strings.ToLower(w), ".")
	if !gz.Titles.Has(l) {
		return first
	}
	switch l {
	case "mr", "mrs", "ms", "dr", "prof", "mx", "mme", "mlle", "herr", "frau", "sir", "miss":
	default:
		if !strings.HasSuffix(w, ".") {
			return first
		}
	}
	return k
}
