package eval

import "strings"

// Detokenize writes each record's text the way prose is printed: the NER
// corpora come tokenised, a space on both sides of every comma, stop,
// bracket and possessive ("Smith 's office , he said ."), while a real
// PDF's words carry their punctuation ("Smith's office, he said."). The
// rules read whole words, punctuation included (a stop ends a sentence,
// a comma a clause), so scoring the corpora as printed shows what they do
// on real documents. Gold spans move with their words; a word that now
// holds a gold span's word and its punctuation counts as that span's, as
// any word overlapping one does (goldOf).
//
// Only spaces are removed, and only between tokens of one line: before a
// closing mark (. , ; : ! ? ) ] } % and the clitics 's 're 've 'll 'd 'm
// n't), after an opening one (( [ { $ and the quote “ or “), and around
// a straight double quote by turns (opening, then closing).
func Detokenize(recs []Record) []Record {
	out := make([]Record, len(recs))
	for i, r := range recs {
		out[i] = detokenize(r)
	}
	return out
}

func detokenize(r Record) Record {
	var b strings.Builder
	// moved[k] is where byte k of r.Text went (one more entry for the
	// end); a removed space maps to where the next byte goes.
	moved := make([]int, len(r.Text)+1)
	openQuote := false
	prevOpens := true // the token before is printed against the next one
	for k := 0; k < len(r.Text); {
		if c := r.Text[k]; c == '\n' {
			moved[k] = b.Len()
			b.WriteByte(c)
			prevOpens = true
			k++
			continue
		}
		if r.Text[k] == ' ' {
			j := k + 1
			for j < len(r.Text) && r.Text[j] == ' ' {
				j++
			}
			e := j
			for e < len(r.Text) && r.Text[e] != ' ' && r.Text[e] != '\n' {
				e++
			}
			tok := r.Text[j:e]
			keep := !prevOpens && !closes(tok) && !(tok == `"` && openQuote)
			for ; k < j; k++ {
				moved[k] = b.Len()
				if keep {
					b.WriteByte(' ')
					keep = false // runs of spaces become one
				}
			}
			continue
		}
		e := k
		for e < len(r.Text) && r.Text[e] != ' ' && r.Text[e] != '\n' {
			e++
		}
		tok := r.Text[k:e]
		for ; k < e; k++ {
			moved[k] = b.Len()
			b.WriteByte(r.Text[k])
		}
		if tok == `"` {
			openQuote = !openQuote
			prevOpens = openQuote
		} else {
			prevOpens = opens(tok)
		}
	}
	moved[len(r.Text)] = b.Len()
	out := Record{Text: b.String(), Doc: r.Doc, Spans: make([]Gold, len(r.Spans))}
	for i, g := range r.Spans {
		g.Start, g.End = moved[g.Start], moved[g.End]
		out.Spans[i] = g
	}
	return out
}

// closes reports whether tok is printed against the word before it.
func closes(tok string) bool {
	switch tok {
	case ".", ",", ";", ":", "!", "?", ")", "]", "}", "%", "''", "”", "...",
		"'s", "'S", "’s", "'re", "'ve", "'ll", "'d", "'m", "n't", "'":
		return true
	}
	return false
}

// opens reports whether tok is printed against the word after it.
func opens(tok string) bool {
	switch tok {
	case "(", "[", "{", "$", "``", "“", "£", "€":
		return true
	}
	return false
}

// Uppercase writes each record's text in capitals (ASCII letters only,
// so no offset moves), as headlines, form fields and some letterheads
// are printed: the model loses the capital letters that mark a name, and
// scoring the corpora so shows what is left.
func Uppercase(recs []Record) []Record {
	out := make([]Record, len(recs))
	for i, r := range recs {
		b := []byte(r.Text)
		for k, c := range b {
			if 'a' <= c && c <= 'z' {
				b[k] = c - 'a' + 'A'
			}
		}
		r.Text = string(b)
		out[i] = r
	}
	return out
}
