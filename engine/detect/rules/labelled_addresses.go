package rules

import (
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// addressLabels are the words that announce an address ("Address:", "my
// new address is", "Anschrift:"); addressFiller may sit between the label
// and the address.
var addressLabels = gazetteer.MustWords("labels", "address")

// addressCues are verbs and labels after which an address often follows
// ("Ship to:", "lives at", "deliver to"); unlike addressLabels they need
// a word that is not a number in what follows ("sent to 3 customers").
var addressCues = gazetteer.MustWords("labels", "address-cue")

var addressFiller = gazetteer.MustWords("stopwords", "address-filler")

// labelledAddresses finds addresses right after an address label: the
// first word after the label and its filler words must be a number or a
// capitalised word, and the address must hold a number or a known place.
type labelledAddresses struct{}

func (labelledAddresses) grow(rc ruleContext, _ []page.Span) []page.Span {
	v, gz := rc.v, rc.gz
	var out []page.Span
	for i := 0; i < v.Len(); i++ {
		label, cue := addressLabels[v.CoreLower(i)], addressCues[v.CoreLower(i)]
		if !label && !cue {
			continue
		}
		k := i + 1
		for k < v.Len() && k <= i+4 && (addressFiller[v.CoreLower(k)] || classify(v, gz, k) == awNeutral) {
			k++
		}
		if k >= v.Len() || v.LineOf(k)-v.LineOf(i) > 2 || classify(v, gz, k) != awPart || !label && !cueJoined(v, i, k) || ordinaryLower(v, gz, k) {
			continue
		}
		last := addressAfter(v, gz, k)
		if anchored(v, gz, k, last) && (label || hasWord(v, gz, k, last)) {
			out = appendCore(out, v, k, last, page.Address, 0.6, "address-label")
		}
		i = last
	}
	return out
}

// ordinaryLower reports whether word k is an ordinary word written in
// lower case, which starts no address even where a list knows it as a
// town: "plz can I get" ("PLZ" labels a German postcode, "Can" is a town).
func ordinaryLower(v *view.View, gz *gazetteer.Gazetteers, k int) bool {
	t, l := bare(v, k)
	return t == l && gz.Lex[l]&gazetteer.Common != 0
}

// cueJoined reports whether the address cue at word i reaches the word
// k where an address would start the way cues do: through a colon ("Ship
// to: 12 Harlow Road", "Bill to: Acme, 3 Main St") or a preposition
// ("located in", "deliver to"). A cue right before a name or word is no
// cue: "Bill Perkins (1934)", "located Beijing, Istanbul", "return can be
// achieved", "delivered nice and hot".
func cueJoined(v *view.View, i, k int) bool {
	return k > i+1 || strings.HasPrefix(v.Text[v.CoreEnd(i):v.WordEnd(i)], ":")
}

// hasWord reports whether words [f, l] hold one without digits.
func hasWord(v *view.View, gz *gazetteer.Gazetteers, f, l int) bool {
	for k := f; k <= l; k++ {
		if t, _ := bare(v, k); t != "" && !view.HasDigit(t) {
			return true
		}
	}
	return false
}

// anchored reports whether words [f, l] hold a number or a known place,
// so a label followed by mere capitalised words ("Address Book Export")
// is not taken for an address.
func anchored(v *view.View, gz *gazetteer.Gazetteers, f, l int) bool {
	for k := f; k <= l; k++ {
		t, w := bare(v, k)
		if view.HasDigit(t) || gz.Lex[w]&(gazetteer.City|gazetteer.Country) != 0 {
			return true
		}
	}
	return false
}
