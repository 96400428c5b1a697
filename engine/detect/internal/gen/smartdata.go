package main

import (
	"path/filepath"

	"github.com/redactd/redactd/internal/shareddata/smartdata"
)

// smartDataTrain reads the documents of SmartData's train.json.gz that
// the evaluation does not score (it scores documents 4n+3 as the dev
// split, and test.json.gz as the test): German news, RSS traffic
// reports and tweets, each word marked when a person, organization or
// location mention holds it (smartdata.Types).
func smartDataTrain() lowerSource {
	return lowerSource{name: "ner/smartdata_de/train.json.gz, documents not 4n+3 (those are the dev split; test.json.gz is the test)",
		licence: "CC-BY-4.0 (DFKI SmartData Corpus v1)",
		read: func(g *gen) ([]ltok, error) {
			var out []ltok
			err := smartdata.Read(filepath.Join(g.src, "ner", "smartdata_de", "train.json.gz"), func(i int, d smartdata.Doc) error {
				if i%4 != 3 {
					out = smartTokens(out, d)
				}
				return nil
			})
			return out, err
		}}
}

// smartTokens appends the document's words, each line opening a
// sentence, those inside a name mention marked (and those of a person's
// name as such, its first word too).
func smartTokens(out []ltok, d smartdata.Doc) []ltok {
	text := d.Text
	// mention[b] is 1 + the index of the name mention holding byte b.
	mention := make([]int, len(text)+1)
	for k, m := range d.Mentions {
		if smartdata.Types[m.Type] == "" {
			continue
		}
		for b := m.Start; b < m.End; b++ {
			mention[b] = k + 1
		}
	}
	start := true
	for s := 0; s < len(text); {
		e := s
		for e < len(text) && mention[e] == mention[s] && text[e] != '\n' {
			e++
		}
		person := mention[s] > 0 && smartdata.Types[d.Mentions[mention[s]-1].Type] == "PER"
		n := len(out)
		out, start = tokens(out, text[s:e], start, person)
		for k := n; k < len(out); k++ {
			out[k].entity = mention[s] > 0
		}
		if person && n < len(out) && s == d.Mentions[mention[s]-1].Start {
			out[n].personStart = true
		}
		if e < len(text) && text[e] == '\n' {
			start = true
			e++
		}
		s = e
	}
	return out
}
