// Package smartdata reads the DFKI SmartData corpus v1 in the shared data
// (ner/smartdata_de: train.json.gz, test.json.gz): pretty-printed,
// concatenated AVRO-JSON documents whose mentions are offsets in UTF-16
// code units (the corpus was written from Java). The evaluation reads its
// dev and test splits, the gazetteer generator the rest of its train
// documents; this package is the one place that knows the format.
package smartdata

import (
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// Types maps the mention types that name a person, an organization or a
// place to PER, ORG and LOC; the others (dates, numbers, job titles,
// relation triggers, ...) are plain words.
var Types = map[string]string{
	"person": "PER", "organization": "ORG", "organization-company": "ORG",
	"location": "LOC", "location-city": "LOC", "location-street": "LOC", "location-stop": "LOC", "location-route": "LOC",
}

// Doc is a document: its text and its mentions, with byte offsets into
// the text.
type Doc struct {
	Text     string
	Mentions []Mention
}

// Mention is a mention of any type; Start and End are byte offsets.
type Mention struct {
	Start, End int
	Type       string
}

// doc is the part of a document read (AVRO-JSON).
type doc struct {
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

// Read calls each with every document of the gzipped file at path and
// its index, from 0, and stops at the first error. A mention whose span
// is empty or falls outside its text is left out.
func Read(path string, each func(i int, d Doc) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	dec := json.NewDecoder(zr)
	for i := 0; ; i++ {
		var d doc
		if err := dec.Decode(&d); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return fmt.Errorf("%s: document %d: %w", path, i, err)
		}
		at := UTF16Offsets(d.Text.String)
		out := Doc{Text: d.Text.String}
		for _, m := range d.Mentions.Array {
			if m.Span.Start < 0 || m.Span.End <= m.Span.Start || m.Span.End >= len(at) {
				continue
			}
			out.Mentions = append(out.Mentions, Mention{Start: at[m.Span.Start], End: at[m.Span.End], Type: m.Type})
		}
		if err := each(i, out); err != nil {
			return err
		}
	}
}

// UTF16Offsets maps each UTF-16 code unit index of s (and the length)
// to its byte offset; the second unit of a surrogate pair maps to the
// rune's start.
func UTF16Offsets(s string) []int {
	out := make([]int, 0, len(s)+1)
	for i, r := range s {
		out = append(out, i)
		if r >= 0x10000 {
			out = append(out, i)
		}
	}
	return append(out, len(s))
}
