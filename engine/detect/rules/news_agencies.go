package rules

import (
	"strings"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// News agencies: a wire story credits its agency in parentheses, in the
// dateline or closing its last line ("Madrid, 23 may (EFE).", "Berlin
// (dpa) -", "... an. (AFP/dpa)"). The name is an organization's, and the
// NER models read such a credit as one only now and then: they have seen
// few wire stories. Elsewhere a parenthesis defines an abbreviation
// ("alfafetoproteína (AFP): 51 ng/ml"), and names that abbreviate other
// things too ("AP", "ots", "APA") count only in a dateline.

var (
	agencies         = gazetteer.MustWords("organizations", "news-agency")
	datelineAgencies = gazetteer.MustWords("organizations", "news-agency-dateline")
	agencyNames      = gazetteer.MustWords("organizations", "news-agency-name")
)

// datelineWords is how far into its line a dateline's parenthesis may
// open: "Rio de Janeiro, 12 de março (Lusa)" has six words before it.
const datelineWords = 6

// newsAgencies masks the agencies credited in parentheses, and those
// named by a name that means nothing else wherever they stand
// (agencyNamed); grow returns them.
type newsAgencies struct{}

func (newsAgencies) grow(rc ruleContext, _ []page.Span) []page.Span {
	v := rc.v
	var out []page.Span
	for i := 0; i < v.Len(); i++ {
		if agencyNamed(v.CoreLower(i)) || agencyAfterNoun(v, i) {
			out = appendCore(out, v, i, i, page.Organization, 0.6, "news-agency")
			continue
		}
		open, credit, ok := agencyCreditAt(v, i)
		if !ok {
			continue // no agency's name: the line is not read
		}
		dateline := datelineBefore(v, open)
		if !dateline && !endsLine(v, i) {
			continue // "alfafetoproteína (AFP): 51 ng/ml" defines an abbreviation
		}
		if agencyCredit(credit, dateline) {
			out = appendCore(out, v, i, i, page.Organization, 0.6, "news-agency")
		}
	}
	return out
}

// agencyNamed reports whether w (a word's core, lower case) names news
// agencies only, one of them by a name that means nothing else
// (news-agency-name: "dpa", "Reuters"), others joined to it by "/"
// ("dpa/AP"): the agency wherever it stands, in a photo's credit, a
// byline or running text ("sagte der Agentur dpa").
func agencyNamed(w string) bool {
	named := false
	for a := range strings.SplitSeq(w, "/") {
		switch {
		case agencyNames[a]:
			named = true
		case !agencies[a] && !datelineAgencies[a]:
			return false
		}
	}
	return named
}

// agencyNouns are the nouns for a news agency in the seven languages.
var agencyNouns = map[string]bool{"agency": true, "agencia": true, "agência": true, "agence": true, "agenzia": true,
	"agentur": true, "persbureau": true, "agentschap": true}

// agencyAfterNoun reports whether word i is an agency's name
// (news-agency, news-agency-dateline) right after a noun for a news
// agency ("la agencia EFE", "l'agence AFP", "die Nachrichtenagentur AP",
// "o agência Lusa"): there it names the agency, whatever else it
// abbreviates.
func agencyAfterNoun(v *view.View, i int) bool {
	if i == 0 || v.LineOf(i-1) != v.LineOf(i) || v.CoreEnd(i-1) != v.WordEnd(i-1) {
		return false
	}
	if ws, _ := v.WordRange(i); ws != v.CoreStart(i) {
		return false // "The agency (AFP reported)": a credit's parenthesis, judged as one
	}
	a := v.CoreLower(i)
	if !agencies[a] && !datelineAgencies[a] && !agencyNames[a] {
		return false
	}
	n := v.CoreLower(i - 1)
	if _, rest, ok := elided(n); ok {
		n = rest // "l'agence"
	}
	if agencyNouns[n] {
		return true
	}
	for h := range agencyNouns {
		if len(n) > len(h)+2 && strings.HasSuffix(n, h) {
			return true // "Nachrichtenagentur", "nieuwsagentschap"
		}
	}
	return false
}

// datelineBefore reports whether the words of its line before word open
// are a dateline's: at most datelineWords of them, the first capitalised
// or a date, each capitalised, holding a digit or a short word in lower
// case ("Washington", "Rio de Janeiro, 12 de março", "Paris, 4 juin",
// "02.09.2009 -"), not a clause ("Students who passed the exam").
func datelineBefore(v *view.View, open int) bool {
	first := v.LineFirst(open)
	if f := v.CoreText(first); open == first || open-first > datelineWords ||
		!view.IsCapitalised(f) && !view.HasDigit(f) {
		return false
	}
	for j := first; j < open; j++ {
		t := v.CoreText(j)
		if !view.IsCapitalised(t) && !view.HasDigit(t) && utf8.RuneCountInString(t) > 5 {
			return false
		}
	}
	return true
}

// creditedDateline reports whether a news agency's credit opens within
// datelineWords of its line's start, from word i on, as a dateline's
// does ("Roma, 12 mar (ANSA) -"): the words before it are the story's
// place and date.
func creditedDateline(v *view.View, i int) bool {
	first := v.LineFirst(i)
	for k := i; k < v.LineEnd(i) && k-first <= datelineWords; k++ {
		if open, _, ok := agencyCreditAt(v, k); ok && datelineBefore(v, open) {
			return true
		}
	}
	return false
}

// agencyCreditAt reports whether word i is a parenthesis crediting news
// agencies only (creditAt, agencyCredit, the names of a dateline
// allowed), and returns the word that opens it and the credit in lower
// case without its brackets.
func agencyCreditAt(v *view.View, i int) (open int, credit string, ok bool) {
	open, ok = creditAt(v, i)
	if !ok {
		return 0, "", false
	}
	credit = strings.Trim(v.CoreLower(i), "()")
	return open, credit, agencyCredit(credit, true)
}

// endsLine reports whether the parenthesis holding word i closes its
// line, where a story's last line credits its agency ("... an. (AFP/dpa)",
// "im Plus (dpa-AFX).").
func endsLine(v *view.View, i int) bool {
	last := v.LineEnd(i) - 1
	return last == i || last == i+1 && strings.Trim(v.WordText(last), ").") == ""
}

// creditAt reports whether word i is the whole content of a parenthesis,
// written against it ("(dpa)", "(EFE).") or apart ("( dpa )"), and
// returns the word that opens the parenthesis.
func creditAt(v *view.View, i int) (int, bool) {
	w := strings.TrimRight(v.WordText(i), ".,;:-–")
	switch {
	case strings.HasPrefix(w, "(") && strings.HasSuffix(w, ")"):
		return i, true
	case i > 0 && i+1 < v.Len() && v.WordText(i-1) == "(" && strings.HasPrefix(v.WordText(i+1), ")") &&
		v.LineOf(i-1) == v.LineOf(i) && v.LineOf(i+1) == v.LineOf(i):
		return i - 1, true
	}
	return 0, false
}

// agencyCredit reports whether credit (lower case, brackets removed)
// names news agencies only: one, or several joined by "/" ("afp/dpa").
func agencyCredit(credit string, dateline bool) bool {
	if credit == "" {
		return false
	}
	for _, a := range strings.Split(credit, "/") {
		if !agencies[a] && !(dateline && datelineAgencies[a]) {
			return false
		}
	}
	return true
}
