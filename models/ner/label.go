package ner

import (
	"slices"
	"strings"
)

// Entity is the kind of thing a token belongs to.
type Entity uint8

const (
	None Entity = iota
	Person
	Organization
	Location
	Address
	// Misc is any other entity type a bring-your-own model knows (MISC,
	// DATE, ...); the detector ignores it.
	Misc
)

var entityTags = [...]string{None: "O", Person: "PER", Organization: "ORG", Location: "LOC", Address: "ADDR", Misc: "MISC"}

// Masked reports whether the detector masks entities of e: Person,
// Organization, Location (as an address, see DetectorOptions) and
// Address; not None or Misc.
func (e Entity) Masked() bool { return e != None && e != Misc }

func (e Entity) String() string {
	if int(e) < len(entityTags) {
		return entityTags[e]
	}
	return "?"
}

// Label is one token's tag in the BIO scheme: the entity it belongs to and
// whether it continues the entity of the token before it.
type Label struct {
	Entity Entity
	Inside bool // I- (continues); false is B- (begins), or O when Entity is None
}

// O is the label of tokens outside any entity.
var O = Label{}

func (l Label) String() string {
	if l.Entity == None {
		return "O"
	}
	if l.Inside {
		return "I-" + l.Entity.String()
	}
	return "B-" + l.Entity.String()
}

// entityOf maps an entity type name from a label map to an Entity.
func entityOf(name string) Entity {
	switch strings.ToUpper(strings.TrimSpace(name)) {
	case "", "O":
		return None
	case "PER", "PERSON", "PERS", "PEOPLE", "NAME", "NAME_STUDENT", "FIRST_NAME", "LAST_NAME", "FIRSTNAME", "LASTNAME", "GIVENNAME", "SURNAME":
		return Person
	case "ORG", "ORGANIZATION", "ORGANISATION", "CORPORATION", "COMPANY", "COMPANY_NAME":
		return Organization
	case "LOC", "LOCATION", "GPE", "FAC", "CITY", "COUNTRY", "STATE":
		return Location
	case "ADDR", "ADDRESS", "STREET_ADDRESS", "STREET", "STREETADDRESS", "ZIPCODE", "POSTCODE", "BUILDINGNUMBER":
		return Address
	}
	return Misc
}

// ParseLabel reads a label name as found in model label maps: "O",
// "B-PER", "I-ORG", BIOES/BILOU prefixes (S-/U- begin, E-/L- continue) and
// bare types ("PER", read as inside so that consecutive tokens join).
func ParseLabel(s string) Label {
	s = strings.TrimSpace(s)
	if s == "" || s == "O" || s == "o" {
		return O
	}
	if len(s) > 2 && (s[1] == '-' || s[1] == '_') {
		e := entityOf(s[2:])
		switch s[0] {
		case 'B', 'b', 'S', 's', 'U', 'u':
			return Label{Entity: e}
		case 'I', 'i', 'E', 'e', 'L', 'l', 'M', 'm':
			return Label{Entity: e, Inside: e != None}
		}
	}
	e := entityOf(s)
	return Label{Entity: e, Inside: e != None}
}

// Span is an entity found in a token sequence: tokens First..Last
// inclusive.
type Span struct {
	Entity      Entity
	First, Last int
	Score       float32 // mean score of its tokens
}

// Decode turns per-token labels into spans greedily, repairing invalid
// BIO: an I- after O starts a new span. An I- of a place (or an ignored
// type) inside a person, organization or address continues that span, and
// an I- of one of those after a place makes the place part of it (see
// continues): the I- says the token belongs to the entity before it, the
// type is what the model is least sure of ("Ľubomír/B-PER Ďurčo/I-LOC" is
// one person; "Washington/B-LOC Irving/I-PER" too). NL
// tokens and punctuation at the edges of a span are trimmed (see
// trimSpan); an NL inside a span (an address over two lines) keeps it
// whole. It mirrors decode() in train/train.py.
func Decode(tokens []string, labels []Label, scores []float32) []Span {
	var (
		out []Span
		cur Span
		in  bool
	)
	closeSpan := func() {
		if !in {
			return
		}
		in = false
		a, b := trimSpan(tokens, cur.First, cur.Last)
		if a > b {
			return
		}
		var sum float32
		for i := a; i <= b; i++ {
			if i < len(scores) {
				sum += scores[i]
			}
		}
		out = append(out, Span{Entity: cur.Entity, First: a, Last: b, Score: sum / float32(b-a+1)})
	}
	for i, l := range labels {
		switch {
		case l.Entity == None:
			closeSpan()
		case !l.Inside || !in || !continues(cur.Entity, l.Entity):
			closeSpan()
			cur, in = Span{Entity: l.Entity, First: i, Last: i}, true
		default:
			cur.Last = i
			if weak(cur.Entity) {
				cur.Entity = l.Entity
			}
		}
	}
	closeSpan()
	return out
}

// weak reports whether e is a place or a type the detector ignores: what
// the model may call a word of a name it is unsure of ("Ďurčo", "Irving").
func weak(e Entity) bool { return e == Location || e == Misc }

// continues reports whether a token labelled I-next continues a span of
// type open: the same type, or one of the two is weak and the other not.
// Two masked types (a person, then an organization) stay two spans: both
// are masked, each in its own category.
func continues(open, next Entity) bool {
	return open == next || weak(open) != weak(next)
}

// trimSpan narrows tokens[a..b] to drop NL tokens at both ends, single
// punctuation tokens at the start, at the end punctuation other than "."
// (Inc., J., St.) and ")" closing a "(" of the span, and lower-case
// function words at the end ("Acme Corp in" Berlin): no name, company or
// address ends in one, and the model sometimes runs on into them.
func trimSpan(tokens []string, a, b int) (int, int) {
	for a <= b && (tokens[a] == NL || Shape(tokens[a]) == shapePunct) {
		a++
	}
	for b >= a {
		t := tokens[b]
		if t == NL || (Shape(t) == shapePunct && t != "." && !(t == ")" && slices.Contains(tokens[a:b], "("))) || b > a && trailingWords[t] {
			b--
			continue
		}
		break
	}
	return a, b
}

// trailingWords are lower-case function words that end no entity.
var trailingWords = map[string]bool{"in": true, "at": true, "on": true, "of": true, "and": true, "or": true,
	"the": true, "a": true, "an": true, "to": true, "for": true, "from": true, "with": true, "by": true, "is": true,
	"was": true, "as": true, "who": true, "which": true, "that": true, "und": true, "et": true, "y": true, "en": true}
