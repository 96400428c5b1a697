package main

import (
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// smartDataTrain reads the documents of SmartData's train.json.gz that
// the evaluation does not score (it scores documents 4n+3 as the dev
// split, and test.json.gz as the test): German news, RSS traffic
// reports and tweets, each word marked when a person, organization or
// location mention holds it.
func smartDataTrain() lowerSource {
	return lowerSource{name: "ner/smartdata_de/train.json.gz, documents not 4n+3 (those are the dev split; test.json.gz is the test)",
		licence: "CC-BY-4.0 (DFKI SmartData Corpus v1)",
		read: func(g *gen) ([]ltok, error) {
			path := filepath.Join(g.src, "ner", "smartdata_de", "train.json.gz")
			f, err := os.Open(path)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			zr, err := gzip.NewReader(f)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			dec := json.NewDecoder(zr)
			var out []ltok
			for i := 0; ; i++ {
				var d smartDoc
				if err := dec.Decode(&d); errors.Is(err, io.EOF) {
					break
				} else if err != nil {
					return nil, fmt.Errorf("%s: document %d: %w", path, i, err)
				}
				if i%4 != 3 {
					out = d.tokens(out)
				}
			}
			return out, nil
		}}
}

// smartDoc is the part of a SmartData v1 document read (AVRO-JSON).
type smartDoc struct {
	Text struct {
		String string `json:"string"`
	} `json:"text"`
	Mentions struct {
		Array []struct {
			Span struct{ Start, End int } `json:"span"`
			Type string                   `json:"type"`
		} `json:"array"`
	} `json:"conceptMentions"`
}

// smartNames are the mention types that name a person, an organization
// or a place.
var smartNames = map[string]bool{"person": true, "organization": true, "organization-company": true, "location": true,
	"location-city": true, "location-street": true, "location-stop": true, "location-route": true}

// tokens appends the document's words, each line opening a sentence,
// those inside a name mention marked. Offsets count UTF-16 code units
// (the corpus was written from Java).
func (d smartDoc) tokens(out []ltok) []ltok {
	text := d.Text.String
	var at []int // UTF-16 unit -> byte offset
	for i, r := range text {
		at = append(at, i)
		if r >= 0x10000 {
			at = append(at, i)
		}
	}
	at = append(at, len(text))
	inName := make([]bool, len(text)+1)
	for _, m := range d.Mentions.Array {
		if !smartNames[m.Type] || m.Span.Start < 0 || m.Span.End <= m.Span.Start || m.Span.End >= len(at) {
			continue
		}
		for b := at[m.Span.Start]; b < at[m.Span.End]; b++ {
			inName[b] = true
		}
	}
	start := true
	for s := 0; s < len(text); {
		e := s
		for e < len(text) && inName[e] == inName[s] && text[e] != '\n' {
			e++
		}
		n := len(out)
		out, start = tokens(out, text[s:e], start, false)
		for k := n; k < len(out); k++ {
			out[k].entity = inName[s]
		}
		if e < len(text) && text[e] == '\n' {
			start = true
			e++
		}
		s = e
	}
	return out
}
