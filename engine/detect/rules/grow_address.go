package rules

import (
	"github.com/redactd/redactd/engine/page"
)

// growAddress grows an Address span over the rest of its line and the
// unit, town, postcode and country lines under it (addressBefore,
// addressAfter: address_reach.go).
type growAddress struct{}

func (growAddress) grow(rc ruleContext, ss []page.Span) []page.Span {
	v, gz := rc.v, rc.gz
	var out []page.Span
	for _, s := range ss {
		if s.Category != page.Address {
			continue
		}
		f := addressBefore(v, gz, s.First)
		l := addressAfter(v, gz, s.Last)
		if f < s.First || l > s.Last {
			out = appendCore(out, v, f, l, page.Address, s.Score, s.Recognizer)
		}
	}
	return out
}
