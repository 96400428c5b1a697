package eval

import "strings"

// Pages lays records out as pages the way a document reaches the
// service: up to n consecutive records of the same document (Record.Doc)
// on one page, as running text wrapped at lineWidth (a text PDF's lines
// break inside sentences, not between them). A record whose Doc is ""
// stays alone, and a page of one record is left as it is. With n of 1
// or less the records are returned as they are.
//
// Scoring pages rather than sentences lets rules that read the rest of
// the page (a name found in one sentence and repeated in another) show
// what they add; the per-word counts are the same words either way.
func Pages(recs []Record, n int) []Record { return pages(recs, n, " ") }

// Paragraphs is Pages with each record a paragraph of its own, a blank
// line between two: the layout of an article whose records are its
// headline and paragraphs (SmartData's), where each paragraph is a
// block the language identifier reads alone (view.PageFromText).
func Paragraphs(recs []Record, n int) []Record { return pages(recs, n, "\n\n") }

func pages(recs []Record, n int, sep string) []Record {
	if n <= 1 {
		return recs
	}
	var out []Record
	for i := 0; i < len(recs); {
		j := i + 1
		for j < len(recs) && j-i < n && recs[i].Doc != "" && recs[j].Doc == recs[i].Doc {
			j++
		}
		out = append(out, join(recs[i:j], sep))
		i = j
	}
	return out
}

// join runs records on as one text, sep between them, wrapped at
// lineWidth, shifting their gold spans; one record is returned as it is.
func join(recs []Record, sep string) Record {
	if len(recs) == 1 {
		return recs[0]
	}
	var b strings.Builder
	out := Record{Doc: recs[0].Doc}
	for k, r := range recs {
		if k > 0 {
			b.WriteString(sep)
		}
		off := b.Len()
		b.WriteString(r.Text)
		for _, g := range r.Spans {
			g.Start += off
			g.End += off
			out.Spans = append(out.Spans, g)
		}
	}
	out.Text = wrap(b.String(), lineWidth)
	return out
}

// lineWidth is the width in bytes at which Pages wraps running text, about
// a line of a text PDF at 11 points.
const lineWidth = 80

// wrap breaks s into lines of at most width bytes (a longer word stands
// alone) by turning spaces into line breaks, so byte offsets do not move.
// A line break already in s starts a new line.
func wrap(s string, width int) string {
	b := []byte(s)
	lineStart, lastSpace := 0, -1
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\n':
			lineStart, lastSpace = i+1, -1
			continue
		case ' ':
			lastSpace = i
		}
		if i-lineStart >= width && lastSpace > lineStart {
			b[lastSpace] = '\n'
			lineStart, lastSpace = lastSpace+1, -1
		}
	}
	return string(b)
}
