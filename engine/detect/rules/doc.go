// Package rules holds the context rules: the gazetteer recognizers of
// addresses, people's names and organizations, which read the words
// around a candidate, and the registry of named steps detect.Run takes
// after the detectors (Rules: trim, grow and drop), each with its
// category, an example and what it may touch. Apply runs the registry;
// the word lists the rules read are data files in
// engine/detect/gazetteer/words.
package rules
