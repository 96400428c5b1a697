package rules

import (
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// trimRoleBeforeName starts a Person span in a German block at the known
// first name after one or two words of a role that open it:
// "Linksverteidiger Dennis Aogo", "Rapper Alpa Gun", or "von" before the
// name, a byline's "Von Dietmar Fuchs". German news names people after
// what they do, and the model (or two of its spans merged) takes the role
// in; the role tells nothing of who. An office, rank or honorific stays
// ("Finanzminister Wolfgang Schäuble", "Dr. Helmut Pauls"): those are
// masked with the name (docs/behaviour.md, Titles). It runs after the
// spans are merged, so a role the model read as a name of its own, next
// to the name, goes too.
type trimRoleBeforeName struct{}

func (trimRoleBeforeName) apply(rc ruleContext, ss []page.Span) []page.Span {
	v := rc.v
	for i, s := range ss {
		if n := roleLeadDE(v, rc.gz, s); n > 0 {
			ss[i] = cutTo(v, s, s.First-v.First+n, s.Last-v.First)
		}
	}
	return ss
}

// roleLeadDE is how many words open Person span s, in a German block,
// before a known first name that are a noun of a role (roleNounDE), or
// "von" between them and the name: at most two, and a first name must
// follow them.
func roleLeadDE(v *view.View, gz *gazetteer.Gazetteers, s page.Span) int {
	if s.Category != page.Person {
		return 0
	}
	f, last := s.First-v.First, s.Last-v.First
	if f < 0 || last >= v.Len() || langFlag(v, f) != gazetteer.LowerDE {
		return 0
	}
	for k := f; k < last && k <= f+2; k++ {
		t, l := v.CoreText(k), v.CoreLower(k)
		if isTitleWord(gz, strings.TrimSuffix(l, ".")) {
			return 0 // a title phrase stays whole: "Brigadier General Ross Hoyt"
		}
		if k > f && view.IsCapitalised(t) && gz.Lex[gazetteer.FoldAccents(l)]&gazetteer.FirstName != 0 {
			return k - f
		}
		if ws, we := v.WordRange(k); we-ws != len(t) {
			return 0 // "Fürnberg, Daniel Mayer": a list of names, not a role
		}
		switch {
		case l == "von":
		case view.IsCapitalised(t) && roleNounDE(gz, l):
		default:
			return 0
		}
	}
	return 0
}

// roleNounDE reports whether l (lower case) is a German noun that may
// name what a person does: an ordinary noun (plainNounDE: "Rapper",
// "Geschäftsmann") or a compound whose head of four letters or more,
// after three or more, is one ("Links" + "verteidiger"); a head a name
// list holds does not count ("Fürn" + "berg", "Hum" + "precht", "Kaus" +
// "mann" are surnames), nor a compound with a hyphen; in no name list,
// and no office, rank or title.
func roleNounDE(gz *gazetteer.Gazetteers, l string) bool {
	if nameListed(gz, l) || isTitleWord(gz, l) || nobility[l] || headedInAnyForm(l, germanOffices) {
		return false
	}
	return plainNounDE(gz, l) ||
		!strings.ContainsRune(l, '-') && compoundHeaded(l, func(h string) bool { return plainNounDE(gz, h) })
}
