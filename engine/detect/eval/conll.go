package eval

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"github.com/redactd/redactd/engine/page"
)

// CoNLLCategories maps CoNLL entity types to categories; LOC and MISC are
// ignored (a location is not a postal address).
var CoNLLCategories = map[string]page.Category{"PER": page.Person, "ORG": page.Organization}

// LoadCoNLL reads a CoNLL-style file (token first, IOB1 or IOB2 tag last
// on each line, blank lines between sentences, -DOCSTART- lines skipped)
// into one record per sentence, tokens joined by single spaces.
func LoadCoNLL(path string) ([]Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	defer f.Close()
	var (
		out  []Record
		rec  Record
		b    strings.Builder
		open = -1 // index of the entity being built in rec.Spans
	)
	flush := func() {
		if b.Len() > 0 {
			rec.Text = b.String()
			out = append(out, rec)
		}
		rec, open = Record{}, -1
		b.Reset()
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 {
			flush()
			continue
		}
		if fs[0] == "-DOCSTART-" {
			continue
		}
		tok, tag := fs[0], fs[len(fs)-1]
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		start := b.Len()
		b.WriteString(tok)
		prefix, typ, _ := strings.Cut(tag, "-")
		switch {
		case tag == "O" || typ == "":
			open = -1
		case prefix == "I" && open >= 0 && rec.Spans[open].Type == typ:
			rec.Spans[open].End = b.Len()
		default:
			rec.Spans = append(rec.Spans, Gold{Start: start, End: b.Len(), Type: typ, Category: CoNLLCategories[typ]})
			open = len(rec.Spans) - 1
		}
	}
	flush()
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("eval: %s: %w", path, err)
	}
	return out, nil
}
