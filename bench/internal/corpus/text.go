package corpus

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/internal/testkit/testpdf"
)

// Page layout of the text corpus: US Letter, one-inch margins, 11pt
// Helvetica on 15pt leading, about 44 lines of 85 characters.
const (
	pageW, pageH = 612.0, 792.0
	margin       = 72.0
	fontSize     = 11.0
	leading      = 15.0
)

// TextSpec says what TextDocs builds.
type TextSpec struct {
	Prefix             string // file names are PREFIX-NNN.pdf
	Docs               int
	MinPages, MaxPages int
	// Terms are made-up words, one printed in each page's header and
	// labelled page.IncludedTerm; the bench sends them as
	// pii_included_terms.
	Terms []string
	Seed  uint64
}

// TextDocs lays presidio records out as text-layer PDFs, paragraph after
// paragraph, each page headed by one of spec.Terms. Records are taken in
// order from a random start, cycling, so successive calls with different
// seeds draw different text.
func TextDocs(recs []Record, spec TextSpec) []*Doc {
	rng := rand.New(rand.NewPCG(spec.Seed, 0x5eed))
	g := &textGen{recs: recs, next: rng.IntN(len(recs)), terms: spec.Terms}
	docs := make([]*Doc, 0, spec.Docs)
	for i := range spec.Docs {
		n := spec.MinPages
		if spec.MaxPages > spec.MinPages {
			n += rng.IntN(spec.MaxPages - spec.MinPages + 1)
		}
		docs = append(docs, g.doc(fmt.Sprintf("%s-%03d.pdf", spec.Prefix, i), max(n, 1)))
	}
	return docs
}

// tok is one word to draw: its text and, when part of it is an entity,
// the byte range [a, b) of that part and the entity's type.
type tok struct {
	text  string
	a, b  int
	cat   page.Category
	span  int // span id unique within the generator, for grouping words into entities
	plain bool
}

type textGen struct {
	recs    []Record
	next    int   // next record
	pending []tok // words of the current record not yet drawn
	spanID  int
	terms   []string
	pageNo  int
}

func (g *textGen) doc(name string, pages int) *Doc {
	pdf := testpdf.New()
	doc := &Doc{Name: name, ContentType: "application/pdf", Pages: pages, Labelled: true}
	for i := range pages {
		g.page(pdf, doc, i, pages)
	}
	doc.Data = pdf.Bytes()
	return doc
}

// page fills one page: a header line with an included term, then records.
func (g *textGen) page(pdf *testpdf.Doc, doc *Doc, idx, pages int) {
	p := pdf.AddPage(pageW, pageH, 0)
	ents := map[int]int{} // span id -> index in doc.Entities, for this page
	var words []Word
	draw := func(y float64, line []tok) {
		before := len(p.Words())
		texts := make([]string, len(line))
		for i, t := range line {
			texts[i] = t.text
		}
		p.Text(margin, y, fontSize, strings.Join(texts, " "))
		drawn := p.Words()[before:]
		if len(drawn) != len(line) {
			panic(fmt.Sprintf("corpus: drew %d words for %d tokens", len(drawn), len(line)))
		}
		for i, t := range line {
			words = append(words, g.word(doc, idx, ents, t, drawn[i]))
		}
	}

	y := pageH - margin - fontSize
	g.pageNo++
	term := "redactd"
	if len(g.terms) > 0 {
		term = g.terms[g.pageNo%len(g.terms)]
	}
	g.spanID++
	header := []tok{{text: "Case", plain: true}, {text: "file", plain: true},
		{text: term, b: len(term), cat: page.IncludedTerm, span: g.spanID},
		{text: "-", plain: true}, {text: "page", plain: true},
		{text: fmt.Sprintf("%d/%d", idx+1, pages), plain: true}}
	draw(y, header)
	y -= 2 * leading

	width := pageW - 2*margin
	for y >= margin {
		if len(g.pending) == 0 {
			g.pending = g.tokens(g.recs[g.next])
			g.next = (g.next + 1) % len(g.recs)
			if len(g.pending) == 0 {
				continue
			}
		}
		n, w := 0, 0.0
		for n < len(g.pending) {
			tw := testpdf.StringWidth(g.pending[n].text, fontSize)
			if n > 0 {
				tw += testpdf.StringWidth(" ", fontSize)
			}
			if n > 0 && w+tw > width {
				break
			}
			w += tw
			n++
		}
		draw(y, g.pending[:n])
		g.pending = g.pending[n:]
		y -= leading
		if len(g.pending) == 0 {
			y -= leading / 2 // paragraph break
		}
	}
	doc.Truth = append(doc.Truth, words)
}

// word turns a drawn token into a truth word, narrowing the box of a
// partly labelled token to the labelled characters.
func (g *textGen) word(doc *Doc, pageIdx int, ents map[int]int, t tok, w testpdf.Word) Word {
	out := Word{Text: t.text, Entity: -1}
	q := w.Quad
	if t.plain {
		out.Quad = normQuad(q.UL, q.UR, q.LR, q.LL)
		return out
	}
	full := testpdf.StringWidth(t.text, fontSize)
	t0, t1 := 0.0, 1.0
	if full > 0 {
		t0 = testpdf.StringWidth(t.text[:t.a], fontSize) / full
		t1 = testpdf.StringWidth(t.text[:t.b], fontSize) / full
	}
	lerp := func(a, b page.Point, f float64) page.Point {
		return page.Point{X: a.X + (b.X-a.X)*f, Y: a.Y + (b.Y-a.Y)*f}
	}
	out.Quad = normQuad(lerp(q.UL, q.UR, t0), lerp(q.UL, q.UR, t1), lerp(q.LL, q.LR, t1), lerp(q.LL, q.LR, t0))
	part := t.text[t.a:t.b]
	if t.cat == "" {
		out.Ignore = true
		return out
	}
	out.Text, out.Cat = part, t.cat
	i, ok := ents[t.span]
	if !ok {
		i = len(doc.Entities)
		ents[t.span] = i
		doc.Entities = append(doc.Entities, Entity{Cat: t.cat, Page: pageIdx})
	}
	e := &doc.Entities[i]
	if e.Text != "" {
		e.Text += " "
	}
	e.Text += part
	out.Entity = i
	return out
}

func normQuad(ul, ur, lr, ll page.Point) Quad {
	n := func(p page.Point) Point { return Point{p.X / pageW, p.Y / pageH} }
	return Quad{n(ul), n(ur), n(lr), n(ll)}
}

// tokens splits a record at whitespace and labels each word with the
// span it overlaps, if any.
func (g *textGen) tokens(r Record) []tok {
	ids := make([]int, len(r.Spans))
	for i := range ids {
		g.spanID++
		ids[i] = g.spanID
	}
	var out []tok
	start := -1
	emit := func(end int) {
		t := tok{text: r.Text[start:end], plain: true}
		for i, s := range r.Spans {
			if s.Start < end && s.End > start {
				a, b := max(s.Start, start)-start, min(s.End, end)-start
				if s.End <= end {
					b = a + len(trimEndPunct(t.text[a:b]))
				}
				if a >= b {
					continue
				}
				t = tok{text: t.text, a: a, b: b, cat: Categories[s.Type], span: ids[i]}
				break
			}
		}
		out = append(out, t)
	}
	for i, r := range r.Text {
		if unicode.IsSpace(r) {
			if start >= 0 {
				emit(i)
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		emit(len(r.Text))
	}
	return out
}

// trimEndPunct drops the punctuation closing an entity's last word ("23."
// of "Király u. 23.", "Sq," of an address the labels end at a comma):
// records label it inside the entity, but it is no personal data, and the
// services mask the entity's letters and digits. A word of punctuation
// only is kept whole.
func trimEndPunct(w string) string {
	t := strings.TrimRightFunc(w, unicode.IsPunct)
	if strings.IndexFunc(t, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0 {
		return w
	}
	return t
}
