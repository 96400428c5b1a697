// Package rules holds the context rules: the gazetteer recognizers of
// addresses, people's names and organizations, which read the words
// around a candidate, and the registry of named steps detect.Run takes
// after the detectors (Rules: trim, grow and drop), each with its
// category, an example and what it may touch. Apply runs the registry;
// the word lists the rules read are data files in
// engine/detect/gazetteer/words.
//
// One registered rule is one type in one file, both named after the rule
// (drop-title-only: dropTitleOnly in drop_title_only.go), with its
// datadriven cases in engine/detect/testdata/rules/drop-title-only
// (TestRegistryFiles requires all three). A rule's type is a step, which
// returns the spans after it, or a growPart, whose added spans the grow
// rule merges. What several rules share are plain functions of the view
// and the gazetteers, in files named for what they are: address_reach.go
// (address words and how far an address grows), org_words.go,
// name_words.go, repeat.go, and appendCore in rules.go. The recognizers
// are address.go (addressFinder), names.go (nameFinder, orgFinder) and
// names_context.go (the name recognizer's context rules).
package rules
