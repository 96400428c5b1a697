package rules

import (
	"maps"
	"slices"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
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
	// File is the Go file of this package that holds the rule, and
	// Testdata its datadriven cases in engine/detect/testdata/rules
	// (TestRegistryFiles).
	File, Testdata string
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
	// merge: the spans are merged (view.Merge) after the rule.
	merge bool
	// impl is the rule's own type, declared with its methods in File: a
	// step, or a growPart, which has no step of its own (the grow rule
	// runs the parts on the same merged spans).
	impl any
}

// step is the type of a rule that is a step of its own: apply returns
// the spans after it.
type step interface {
	apply(rc ruleContext, ss []page.Span) []page.Span
}

// growPart is the type of a grow part: grow returns the spans it adds
// to ss, which the grow rule merges with them.
type growPart interface {
	grow(rc ruleContext, ss []page.Span) []page.Span
}

// ruleContext is what a rule may read.
type ruleContext struct {
	p   *page.Page
	v   *view.View
	gz  *gazetteer.Gazetteers
	off []string // rules switched off
}

// Rules are the steps of detect.Run after the detectors, in order.
var Rules = []Rule{
	{Name: "trim-german-clauses", File: "trim_german_clauses.go", Testdata: "trim-german-clauses",
		Kind: "trim", beforeMerge: true,
		Example: "Lufthansa streicht acht Prozent der Arbeitsplätze in Frankfurt, meldet die Zeitung am Mittwoch.", Effect: `a model Organization "Lufthansa streicht acht Prozent der Arbeitsplätze" ends before "streicht" (TestRuleExamples feeds the span)`,
		Scope: "the NER model's Organization spans in blocks read as German: a verb (a word of the German lower-case list of three letters or more in lower case, no function word, after a capitalised word and not before one) or an ordinary noun between two towns (also the span's last word, the second town after it; from Person spans too) leaves the span; the pieces on either side stay",
		impl:  trimGermanClauses{}},
	{Name: "trim-leading-function-words", File: "trim_leading_function_words.go", Testdata: "trim-leading-function-words",
		Kind: "trim", beforeMerge: true,
		Example: "There's Anna Karenina", Effect: `a model span starting at "There's" starts at the name`,
		Scope: "the NER model's spans: leading words no entity begins with (in the six other languages, articles and prepositions in lower case too; punctuation written as a word of its own, but quotation marks, and an elided word's apostrophe); every recognizer's spans: a wiki's redirect keyword",
		impl:  trimLeadingFunctionWords{}},
	{Name: "trim-lowercase-names", File: "trim_lowercase_names.go", Testdata: "trim-lowercase-names",
		Kind: "trim", Category: page.Person, beforeMerge: true,
		Example: "Contacto de emergência: a Maria Santos e o Dr. Costa.", Effect: `a model Person "a Maria Santos e" becomes "Maria Santos" (TestRuleExamples feeds the span)`,
		Scope: "the NER model's Person spans in blocks read as German, French, Spanish, Italian, Dutch or Portuguese: function words in lower case at either end (particles at the end only), salutations at the start, function words, conjunctions and adverbs opening a sentence capitalised (\"Mais Duroy\", \"Quand Georges Duroy\") and punctuation written apart (\"d ' Afrique\") at the start, and spans of such words only",
		impl:  trimLowercaseNames{}},
	{Name: "trim-noun-of", File: "trim_noun_of.go", Testdata: "trim-noun-of",
		Kind: "trim", beforeMerge: true,
		Example: "Sie machen 32 % der Fläche der Volksrepublik China aus, aber nur 2 % der Bevölkerung.", Effect: `a model span "Fläche der Volksrepublik China" starts at "Volksrepublik" (TestRuleExamples feeds the span)`,
		Scope: "the NER model's Person and Organization spans in blocks read as German: an ordinary noun and \"der\", \"des\", \"von\" or \"vom\" opening the span, before a capitalised word; a span of only such a noun, before them and a capitalised word, is dropped",
		impl:  trimNounOf{}},
	{Name: "trim-portfolios", File: "trim_portfolios.go", Testdata: "trim-portfolios",
		Kind: "trim", Category: page.Person, beforeMerge: true,
		Example: "De minister van Financiën, Gerrit Zalm, zei dat de begroting klopt.", Effect: `a model Person "Financiën, Gerrit Zalm," becomes "Gerrit Zalm," (TestRuleExamples feeds the span)`,
		Scope: `Person spans that open with a minister's portfolio: the capitalised words after "minister", "Ministerin", "ministre", "ministra" or "ministro" and a genitive particle ("van", "der", "des", "de", "delle", "das", "of", "for", ...), its first word a portfolio of people.txt (use portfolio) or an ordinary word of a lower-case list or a German noun and no name of the lists, then portfolio words and words in lower case up to a punctuation mark; a span of the portfolio only (with the office and particles before it) is dropped, one that runs on past it starts at the name after it`,
		impl:  trimPortfolios{}},
	{Name: "trim-address-sentences", File: "trim_address_sentences.go", Testdata: "trim-address-sentences",
		Kind: "trim", Category: page.Address, beforeMerge: true,
		Example: "Dans l'affaire Alice Garcia, demeurant 161 bis impasse de la République, 89332 Marignane, la commission a décidé de faire droit à la demande.",
		Effect:  `a model Address from "161" to "droit" ends at "Marignane," (TestRuleExamples feeds the span)`,
		Scope:   "the NER model's Address spans in blocks read as German, French, Spanish, Italian, Dutch or Portuguese that hold words of running text (in lower case, in the language's lower-case list, no street, unit or particle word): cut to their pieces with a street word or a postcode before a capitalised word, or dropped when none has one",
		impl:    trimAddressSentences{}},
	{Name: "person-fields", File: "person_fields.go", Testdata: "person-fields",
		Kind: "trim", Category: page.Person, beforeMerge: true,
		Example: "Huisarts: Milan De Wit, Stationsstraat 172", Effect: `a model Organization "Milan De Wit" becomes a Person (TestRuleExamples feeds the span)`,
		Scope: `the NER model's Organization spans that are the whole value of a person's field ("Patiënt:", "Huisarts:", "Emergency contact:", gazetteer words/labels.txt, use person-field): two to five name words opening with a known first name, no legal form or organization head word, up to a comma or the line's end`,
		impl:  personFields{}},
	{Name: "grow-person", File: "grow_person.go", Testdata: "grow-person",
		Kind: "grow", Category: page.Person,
		Example: "Please ask Dr. Jacob Smith today.", Effect: `"Jacob Smith" grows over "Dr."`,
		Scope: "words next to a Person span: honorifics, ranks and offices before it, initials before it, a known first name before it, the surname after a lone known first name, names listed with it, post-nominals, a name wrapped onto the next line, the one unknown word after a lone first name on a line of two, and (in tokenized text) the quotation marks that enclose the name's end (\"Hassan ' '' Rohani '' '\", wiki markup)",
		impl:  growPerson{}},
	{Name: "grow-organization", File: "grow_organization.go", Testdata: "grow-organization",
		Kind: "grow", Category: page.Organization,
		Example: growOrgExample, Effect: `a model Organization "Google Public Data" grows over "Explorer" (no input was found where the built-in stack needs it; TestRuleExamples feeds the span alone)`,
		Scope: "organization words next to an Organization span",
		impl:  growOrganization{}},
	{Name: "grow-address", File: "grow_address.go", Testdata: "grow-address",
		Kind: "grow", Category: page.Address,
		Example: "It is at 1121 Maple Avenue Apt. 676 Hamilton ON for the mail.", Effect: `"1121 Maple Avenue" grows over "Apt. 676 Hamilton ON"`,
		Scope: "the rest of an address's line and the unit, town, postcode and country lines under it",
		impl:  growAddress{}},
	{Name: "affiliations", File: "affiliations.go", Testdata: "affiliations",
		Kind: "grow", Category: page.Organization,
		Example: affiliationExample, Effect: `the field "Muckrockcom" between two people is an Organization (the built-in model reads it as a third person; TestRuleExamples feeds the two people's spans)`,
		Scope: "a short field between a Person span and another contact field",
		impl:  affiliations{}},
	{Name: "org-lists", File: "org_lists.go", Testdata: "org-lists",
		Kind: "grow", Category: page.Organization,
		Example: orgListExample, Effect: `"Transunion", listed between two found organizations, is one`,
		Scope: "short runs of organization words listed with an Organization span",
		impl:  orgLists{}},
	{Name: "news-agencies", File: "news_agencies.go", Testdata: "news-agencies",
		Kind: "grow", Category: page.Organization,
		Example: "Madrid, 23 may (EFE). El Gobierno aprobó ayer la reforma.", Effect: `"EFE", the agency credited in the dateline, is an Organization`,
		Scope: `a news agency's name as the whole content of a parenthesis ("(dpa)", "(AFP/dpa)"; gazetteer words/organizations.txt, use news-agency), or in a dateline only for names that abbreviate other things too ("(AP)", "(ots)"; use news-agency-dateline); a name that means nothing else wherever it stands as a word ("Foto: dpa", "reported by Reuters"; use news-agency-name)`,
		impl:  newsAgencies{}},
	{Name: "labelled-addresses", File: "labelled_addresses.go", Testdata: "labelled-addresses",
		Kind: "grow", Category: page.Address,
		Example: "My zip code is 35649", Effect: `"35649" after an address label is an Address`,
		Scope: "what follows an address label when it holds a number or a known place",
		impl:  labelledAddresses{}},
	{Name: "address-blocks", File: "address_blocks.go", Testdata: "address-blocks",
		Kind: "grow", Category: page.Address,
		Example: addressBlockExample, Effect: "a block of short address lines is an Address (with the recognizers alone: the built-in model finds such blocks itself)",
		Scope: "two or more short lines made only of address words, each with evidence",
		impl:  addressBlocks{}},
	{Name: "grow", File: "grow.go", Testdata: "grow",
		Kind:    "grow",
		Example: "Please ask Dr. Jacob Smith today.", Effect: "applies the enabled grow parts above to the merged spans at once and merges the result",
		Scope: "the step that runs the grow-* parts; off, no part runs",
		impl:  grow{}},
	{Name: "repeat-names", File: "repeat_names.go", Testdata: "repeat-names",
		Kind: "grow", Category: page.Person,
		Example: "Ramona Betancourt wrote it. Ask Betancourt.", Effect: `the second "Betancourt", which the built-in stack leaves, is masked as a word of "Ramona Betancourt"`,
		Scope: "other occurrences on the page of a capitalised name word a Person span or an e-mail address's local part holds (\"ramona.betancourt@\"), no ordinary word, title, month, weekday or nationality, where no span covers them",
		merge: true, impl: repeatNames{}},
	{Name: "header-names", File: "header_names.go", Testdata: "header-names",
		Kind: "grow", Category: page.Person,
		Example: "From: Frazier, Perry Sent: Monday\nTo: Donoho, Lindy; Lohman, TK Subject: Rates", Effect: `"Donoho", "Lohman" and "TK", listed with the names the model finds in the fields, are masked`,
		Scope: `the words of a name field ("From:", "To:", "Cc:", "Name:") up to the next word with a colon or the line's end, when they are only name words, commas and semicolons and a Person span holds one (or, with no Person, a comma and a word no list knows as ordinary, a place, a title or a legal form: "From: Frolov, Yevgeny")`,
		merge: true, impl: headerNames{}},
	{Name: "family-names", File: "family_names.go", Testdata: "family-names",
		Kind: "grow", Category: page.Person,
		Example: "Nobody asked the Claytons about the mare.", Effect: `"Claytons", a surname in the plural after "the" that the built-in model leaves, is masked as a Person`,
		Scope: "a capitalised word after \"the\" ending in \"s\" whose singular is a listed surname and no ordinary word, the plural no ordinary word, place or nationality, where no span covers it",
		merge: true, impl: familyNames{}},
	{Name: "repeat-orgs", File: "repeat_orgs.go", Testdata: "repeat-orgs",
		Kind: "grow", Category: page.Organization,
		Example: "Heerenveen won 4-2 at Groningen on Sunday. Heerenveen are now top, and Groningen sixth.", Effect: `the first "Groningen", which the built-in model leaves, is masked as the second is`,
		Scope: "other occurrences on the page of an Organization span's words, in order (one word: no ordinary word, title, month, weekday or nationality, or initials such as \"ISIL\"; no country), where no span covers them",
		merge: true, impl: repeatOrgs{}},
	{Name: "trim-pattern-edges", File: "trim_pattern_edges.go", Testdata: "trim-pattern-edges",
		Kind: "trim", Category: page.Address,
		Example: "El contrato se firma con DNI n.º 42957217W el lunes.", Effect: `a model Address "con DNI n.º 42957217W" is dropped; the DNI stays masked as a NationalID (TestRuleExamples feeds the span)`,
		Scope: "Person, Organization and Address spans that end or begin with a value a pattern recognizer found (NationalID, IBAN, PhoneNumber, Email, CreditCard, Date): the value and the label words before it (number signs, form and ID labels, words in lower case of the block's language) leave the span",
		impl:  trimPatternEdges{}},
	{Name: "drop-amount-rows", File: "drop_amount_rows.go", Testdata: "drop-amount-rows",
		Kind: "drop", Category: page.Address,
		Example: "Wifi 16 GB Zilver 1 € 399,00 21% € 399,00", Effect: "a model Address over an invoice row is dropped (the built-in model no longer reads this row so; TestRuleExamples feeds the span)",
		Scope: "the NER model's Address spans holding a money amount and nothing only an address holds",
		impl:  dropAmountRows{}},
	{Name: "drop-common-words", File: "drop_common_words.go", Testdata: "drop-common-words",
		Kind: "drop", Category: page.Person,
		Example: "Notes\nSummary", Effect: "a model Person of one ordinary word alone is dropped (the built-in model reads this \"Notes\" as an Organization; TestRuleExamples feeds a Person span)",
		Scope: "the NER model's lone Person spans and Address spans of ordinary non-name words (not, outside German, one capitalised word opening a sentence that the page writes capitalised after a lower-case word that is no article), its Person spans of one letter alone on their line (\"B.\", a section's letter), its Organization spans of two or more ordinary words written in lower case in a sentence with capitals, its Person or Organization spans of one ordinary word opening a sentence before a comma (\"Furthermore,\"), and those of one of the novels' words (prose_words.txt) written in lower case in a sentence with capitals (\"a bookworm\"), and in a German block its Person or Organization spans of German nouns, function words and words written in lower case (\"Das Gehalt von\") and its Person spans of one listed noun after a determiner (\"ein junger Mann\"), and its Organization spans of one listed noun alone, the nouns of the name lists included (\"im Sommer\"; not a body's head, nor before a capitalised word, a number or \"der\"), and its Person spans opening with a month's name no name list holds (\"Januar\") or with a currency after an amount (\"46000 Mark\")",
		impl:  dropCommonWords{}},
	{Name: "drop-headings", File: "drop_headings.go", Testdata: "drop-headings",
		Kind: "drop", Category: page.Person,
		Example: "INFORME DE ALTA\nPaciente: Daniela Suárez Romero\nLa paciente ingresó el 28 de junio y recibió el alta al día siguiente.", Effect: `a model Organization "INFORME DE ALTA" is dropped (TestRuleExamples feeds the span)`,
		Scope: "Person and Organization spans in a line written in capitals whose words are all ordinary words of its block's language (German, French, Spanish, Italian, Dutch or Portuguese: the lower-case lists; one word no list has, built with a suffix of abstract nouns, may stand beside two they know: \"COMPTE RENDU D'HOSPITALISATION\"), number signs and numbers aside",
		impl:  dropHeadings{}},
	{Name: "drop-contractions", File: "drop_contractions.go", Testdata: "drop-contractions",
		Kind: "drop", Category: page.Person,
		Example: "Don't tell Mary.", Effect: `Person "Don" of "Don't" is dropped`,
		Scope: "Person spans ending before a contraction's ending (one word) or starting at its tail",
		impl:  dropContractions{}},
	{Name: "drop-place-names", File: "drop_place_names.go", Testdata: "drop-place-names",
		Kind: "drop", Category: page.Person,
		Example: "John Constantine lives in London.", Effect: `Person "London" is dropped`,
		Scope: "Person spans that are exactly a known town or country after a locative; a letter's place before a comma and a date (a known town, a village of the postcode lists that is no name, or capitalised words of no name list before \"den\", \"le\", \"el\", ...): Person, Organization and Address spans that are that place are dropped, and those that end with it stop before its line; a signature's place opening its line (after French \"Fait à\", or before a comma and \"firmato\", \"signé\", ...: a known town or capitalised words of no name list) is cut out of the span",
		impl:  dropPlaceNames{}},
	{Name: "drop-nationalities", File: "drop_nationalities.go", Testdata: "drop-nationalities",
		Kind: "drop", Category: page.Person,
		Example: "A Dutch passenger was on board.", Effect: `Person "Dutch" (a surname in the lists) is dropped`,
		Scope: "Person spans of one or two words that are adjectives of nationality, region, language or faith (gazetteer words/nationalities.txt)",
		impl:  dropNationalities{}},
	{Name: "drop-event-names", File: "drop_event_names.go", Testdata: "drop-event-names",
		Kind: "drop", Category: page.Organization,
		Example: "They won the World Cup in 2010.", Effect: `Organization "World Cup" (the built-in model's) is dropped`,
		Scope: "Organization spans whose last word ends the name of an award, contest, festival, war, election or law (gazetteer words/organizations.txt, use event), or where such a word is followed by \"of\", \"for\" or \"in\" (\"National Medal of Science\")",
		impl:  dropEventNames{}},
	{Name: "drop-thing-names", File: "drop_thing_names.go", Testdata: "drop-thing-names",
		Kind: "drop", Category: page.Person,
		Example: "Hurricane Rita is now a Category 5 storm. Rita packed winds of 175 mph.", Effect: `the Person spans "Rita" (the name recognizer's and the model's) are dropped`,
		Scope: `Person and Organization spans made only of a storm or ship noun (gazetteer words/things.txt, use named: "Hurricane", "Cyclone", "HMS") and the capitalised word it names, wherever on the page that word stands alone`,
		impl:  dropThingNames{}},
	{Name: "drop-title-only", File: "drop_title_only.go", Testdata: "drop-title-only",
		Kind: "drop", Category: page.Person,
		Example: "Thank you, Mr President.", Effect: `Person "Mr President" is dropped`,
		Scope: "Person spans made only of honorifics, ranks and offices, and the articles before or between them (\"Le Premier\", \"Monsieur le Président\")",
		impl:  dropTitleOnly{}},
	{Name: "trim-office-of", File: "trim_office_of.go", Testdata: "trim-office-of",
		Kind: "trim", Category: page.Organization,
		Example: "I thank the President of the Commission.", Effect: `a model Organization "President of the Commission" becomes "Commission"`,
		Scope: `Organization spans that open with an office (people.txt, use office-of) and "of": the office, "of" and "the" after it; and those that open with a Person span and a word of signing for a firm ("per", "namens", "pour", "für", "por", "for"): the name and that word`,
		impl:  trimOfficeOf{}},
	{Name: "trim-role-before-name", File: "trim_role_before_name.go", Testdata: "trim-role-before-name",
		Kind: "trim", Category: page.Person,
		Example: "Zu allem Überfluss wurde Linksverteidiger Dennis Aogo am Flughafen bestohlen, sagte der Verein.", Effect: `a Person "Linksverteidiger Dennis Aogo" becomes "Dennis Aogo"`,
		Scope: `Person spans in blocks read as German that open with one or two nouns of a role (an ordinary noun or a compound of one, no office, rank, title or name) or "von" before a known first name: those words`,
		impl:  trimRoleBeforeName{}},
	{Name: "trim-field-labels", File: "trim_field_labels.go", Testdata: "trim-field-labels",
		Kind: "trim", Category: page.Person,
		Example: "To: Allen, Phillip K. Cc: Driscoll, Michael M.", Effect: `the label "Cc" leaves the Person span before it`,
		Scope: `Person and Organization spans: a name label ("Cc", "From", "To", "Name", gazetteer words/labels.txt, use name) followed by a colon at either end; at the end, any label that opens the next line ("Envoyé :", "Enviado el:"), unless it is a known name`,
		impl:  trimFieldLabels{}},
	{Name: "split-listed-names", File: "split_listed_names.go", Testdata: "split-listed-names",
		Kind: "trim", Category: page.Person,
		Example: "It starred Carol Cleveland and Libby Morris.", Effect: `one Person "Carol Cleveland and Libby Morris" becomes "Carol Cleveland" and "Libby Morris"`,
		Scope: `"and", "or", "&", "und" and "en" inside a Person span, between two of its words, and "e", "y" and "et" before a capitalised first name or title of the lists and another capitalised word of the span, and a dash or an ellipsis written as a word of its own between two names (a hyphen only after two words of the span, both sides capitalised: "al - Sadr" is one tokenized name): the names stay masked, the word that lists them does not`,
		impl:  splitListedNames{}},
}

// applyRules runs the rules of one phase (before or after the merge),
// skipping those named in off.
func applyRules(rc ruleContext, ss []page.Span, beforeMerge bool, off []string) []page.Span {
	rc.off = off
	for _, r := range Rules {
		st, ok := r.impl.(step)
		if !ok || r.beforeMerge != beforeMerge || slices.Contains(off, r.Name) {
			continue
		}
		ss = st.apply(rc, ss)
		if r.merge {
			ss = view.Merge(ss)
		}
	}
	return ss
}

// Examples of the grow parts that need several lines.
const (
	growOrgExample      = "The Google Public Data Explorer office is at the corner."
	affiliationExample  = ">Haley Fukunaga\n>Muckrockcom\n>Christopher Roseby"
	orgListExample      = "Three firms lead here: Flightstats, Transunion and Impaq International."
	addressBlockExample = "Unit 7\nHamilton ON\nCanada"
)

// Apply runs the registry's rules on the detectors' spans on p (seen
// through v): the rules that work before the merge, the merge of
// overlapping spans of one category, then the others, in order, skipping
// those named in off.
func Apply(p *page.Page, v *view.View, ss []page.Span, off []string) ([]page.Span, error) {
	gz, err := gazetteer.Get()
	if err != nil {
		return nil, err
	}
	rc := ruleContext{p: p, v: v, gz: gz}
	ss = applyRules(rc, ss, true, off)
	return applyRules(rc, view.Merge(ss), false, off), nil
}

// AddressRecognizer, NameRecognizer and OrgRecognizer return the
// gazetteer recognizers of addresses, people's names and organizations
// (with a legal form) over a View; engine/detect wraps them as Detectors.
func AddressRecognizer(gz *gazetteer.Gazetteers) func(*view.View) []page.Span {
	return newAddressFinder(gz).find
}

// NameRecognizer: see AddressRecognizer.
func NameRecognizer(gz *gazetteer.Gazetteers) func(*view.View) []page.Span {
	return newNameFinder(gz).find
}

// OrgRecognizer: see AddressRecognizer.
func OrgRecognizer(gz *gazetteer.Gazetteers) func(*view.View) []page.Span {
	return newOrgFinder(gz).find
}

// KnownOrgRecognizer: see AddressRecognizer.
func KnownOrgRecognizer(gz *gazetteer.Gazetteers) func(*view.View) []page.Span {
	return newKnownOrgFinder(gz).find
}

// nerRecognizer is the name models/ner's detector gives its spans.
const nerRecognizer = "ner"

// NameGazetteer is the Recognizer of the name finder's spans
// (NameRecognizer): engine/detect registers the finder under it, and
// rules that treat its spans as they treat the model's match it.
const NameGazetteer = "name-gazetteer"

func setOf(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// union returns a new set holding the words of every set given.
func union(sets ...map[string]bool) map[string]bool {
	m := map[string]bool{}
	for _, s := range sets {
		maps.Copy(m, s)
	}
	return m
}

// appendCore appends the span of words first..last without the
// punctuation around them.
func appendCore(out []page.Span, v *view.View, first, last int, c page.Category, score float32, rec string) []page.Span {
	if sp, ok := v.CoreSpan(first, last, c, score, rec); ok {
		out = append(out, sp)
	}
	return out
}
