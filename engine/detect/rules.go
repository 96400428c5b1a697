package detect

import (
	"slices"

	"github.com/redactd/redactd/engine/page"
)

// Rule is one named step detect.Run takes after the detectors ran: it
// trims, grows or drops spans. Rules are declared in one registry
// (Rules), in the order Run applies them, each with the category it
// touches, an example of what it changes and what it may touch, so that
// the evaluation can switch each off in turn and show what it adds and
// costs per domain (nereval -ablate).
type Rule struct {
	Name string
	// Kind is "trim", "grow" or "drop".
	Kind string
	// Category is the category of the spans the rule changes; "" for
	// several (growth).
	Category page.Category
	// Example is an input text whose spans the rule changes
	// (TestRuleExamples), and Effect how.
	Example, Effect string
	// Scope says what the rule may touch.
	Scope string
	// beforeMerge rules see the detectors' spans before they are merged.
	beforeMerge bool
	apply       func(rc ruleContext, ss []page.Span) []page.Span
}

// ruleContext is what a rule may read.
type ruleContext struct {
	p *page.Page
	v *View
	g *grower
}

// Rules are the steps of detect.Run after the detectors, in order.
var Rules = []Rule{
	{Name: "trim-leading-function-words", Kind: "trim", beforeMerge: true,
		Example: "What's Anna Karenina reading?", Effect: `a model span starting at "What's" starts at the name`,
		Scope: "the NER model's spans: leading words no entity begins with",
		apply: func(rc ruleContext, ss []page.Span) []page.Span { return trimLeadingFunctionWords(rc.v, ss) }},
	{Name: "grow", Kind: "grow",
		Example: "Please ask Dr. Jacob Smith today.", Effect: `"Jacob Smith" grows over "Dr."; a street over its town and postcode lines`,
		Scope: "words next to a merged span, after an address label or in a block of address lines (grow.go)",
		apply: func(rc ruleContext, ss []page.Span) []page.Span {
			return Merge(append(ss, rc.g.grow(rc.v, ss)...))
		}},
	{Name: "drop-amount-rows", Kind: "drop", Category: page.Address,
		Example: "Wifi 16 GB Zilver 1 € 399,00 21% € 399,00", Effect: "a model Address over an invoice row is dropped (the built-in model no longer reads this row so; TestRuleExamples feeds the span)",
		Scope: "the NER model's Address spans holding a money amount and nothing only an address holds",
		apply: func(rc ruleContext, ss []page.Span) []page.Span { return rc.g.dropAmountRows(rc.p, rc.v, ss) }},
	{Name: "drop-common-words", Kind: "drop", Category: page.Person,
		Example: "Summary\nCharges", Effect: "a model Person of one ordinary word alone is dropped",
		Scope: "the NER model's lone Person spans and Address spans of ordinary non-name words",
		apply: func(rc ruleContext, ss []page.Span) []page.Span {
			return dropCommonWordSpans(rc.p, rc.v, rc.g.gz, ss)
		}},
	{Name: "drop-contractions", Kind: "drop", Category: page.Person,
		Example: "Don't worry, be happy.", Effect: `Person "Don" of "Don't" is dropped`,
		Scope: "one-word Person spans ending before a negated verb's ending",
		apply: func(rc ruleContext, ss []page.Span) []page.Span { return dropContractions(rc.v, ss) }},
	{Name: "drop-place-names", Kind: "drop", Category: page.Person,
		Example: "John Constantine lives in London.", Effect: `Person "London" is dropped`,
		Scope: "Person spans that are exactly a known town or country after a locative",
		apply: func(rc ruleContext, ss []page.Span) []page.Span { return dropPlaceNames(rc.v, rc.g.gz, ss) }},
	{Name: "drop-title-only", Kind: "drop", Category: page.Person,
		Example: "Thank you, Mr President.", Effect: `Person "Mr President" is dropped`,
		Scope: "Person spans made only of honorifics, ranks and offices",
		apply: func(rc ruleContext, ss []page.Span) []page.Span { return dropTitleOnly(rc.v, rc.g.gz, ss) }},
}

// applyRules runs the rules of one phase (before or after the merge),
// skipping those named in off.
func applyRules(rc ruleContext, ss []page.Span, beforeMerge bool, off []string) []page.Span {
	for _, r := range Rules {
		if r.beforeMerge == beforeMerge && !slices.Contains(off, r.Name) {
			ss = r.apply(rc, ss)
		}
	}
	return ss
}
