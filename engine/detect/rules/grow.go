package rules

import (
	"slices"

	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// Growth: after every detector has run and their spans are merged, spans
// grow over neighbouring words that belong to the same entity but that no
// detector claimed. Detectors see an entity's core (a street with its
// number, a surname the model knows); the words around it are where real
// documents leak: the honorific before a name, the unit, town, postcode
// and country lines under a street, a foreign street name before a house
// number. Growth works on the merged spans of all detectors, so a street
// the NER model found grows as one the address recognizer found does.
//
// Growth only ever adds words next to an existing span, after an address
// label or cue, or in a block of address lines each of which holds
// evidence of an address (address_reach.go), so it does not mask words far
// from personal data.

// grow is the step that runs the grow parts: the rules of the registry
// whose type is a growPart (grow-person, grow-organization, grow-address,
// affiliations, org-lists, labelled-addresses, address-blocks) and that
// are not switched off, each on the same merged spans, in the registry's
// order; what they add is merged with the spans. Off, no part runs.
type grow struct{}

func (grow) apply(rc ruleContext, ss []page.Span) []page.Span {
	var out []page.Span
	for _, r := range Rules {
		if p, ok := r.impl.(growPart); ok && !slices.Contains(rc.off, r.Name) {
			out = append(out, p.grow(rc, ss)...)
		}
	}
	return view.Merge(append(ss, out...))
}
