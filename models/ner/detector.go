package ner

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/page"
)

// DetectorOptions tune a Detector; the zero value is the default.
type DetectorOptions struct {
	// Locations reports every location the model finds (a city or a
	// country in running text) as an Address. By default only locations
	// next to an address (a city line under a street line) are, since a
	// place name alone is not a postal address.
	Locations bool
	// MinScore drops spans whose mean token probability is below it.
	MinScore float32
	// WindowTokens is the most tokens the model sees at once (default: the
	// window the model was trained on, 64). Whole lines are packed into
	// windows; consecutive windows share one line so that an entity
	// crossing their boundary is seen whole by one of them.
	WindowTokens int
	// LowerCase reports whether a word (in lower case) is usually written
	// in lower case in running text. With it, a window mostly in capitals
	// is read twice more, its capitals lines truecased (such words in
	// lower case, others capitalised) and in lower case, and its tokens
	// are labelled from the mean over the three readings: capitals hide
	// which words are names. Only for models that give probabilities.
	LowerCase func(word string) bool
	// ObserveWindows, when set, is told per page how many windows the
	// model read as written and how many readings of windows in capitals
	// it added: the NER step's work.
	ObserveWindows func(windows, rereads int)
}

// Detector applies a Model to the words of a page. It implements the
// engine's detector interface (Name, Detect) without importing it.
type Detector struct {
	m *Model
	o DetectorOptions
}

// NewDetector returns a detector over m; m stays owned by the caller.
func NewDetector(m *Model, o DetectorOptions) *Detector {
	if o.WindowTokens <= 0 {
		o.WindowTokens = m.WindowTokens()
	}
	o.WindowTokens = max(o.WindowTokens, 8)
	return &Detector{m: m, o: o}
}

// Name identifies the detector in spans and errors.
func (d *Detector) Name() string { return "ner" }

// tokRef locates a token in the page: its word and rune range there.
type tokRef struct {
	word       int
	start, end int
}

// unit is a run of tokens of one line, at most WindowTokens long (a longer
// line is cut into several units).
type unit struct {
	line int
	toks []string
	refs []tokRef
}

// Detect finds Person, Organization and Address spans on p.
func (d *Detector) Detect(ctx context.Context, p *page.Page) ([]page.Span, error) {
	return d.detectLines(ctx, p, nil, nil)
}

// detectLines is Detect on the lines of p (p.Lines()) that keep holds
// (nil: all of them), read as if the others were not there: one run of
// the model over their windows. ent, when not nil (one per word of p),
// is set for each word read to the highest probability of a masked
// entity among its tokens (0 where the model gives no probabilities).
func (d *Detector) detectLines(ctx context.Context, p *page.Page, keep []bool, ent []float32) ([]page.Span, error) {
	return d.detectWords(ctx, p, keep, nil, ent)
}

// detectWords is detectLines reading, of the lines keep holds, only the
// words words holds (nil: all of them); each run of words kept is read
// as a line of its own.
func (d *Detector) detectWords(ctx context.Context, p *page.Page, keep, words []bool, ent []float32) ([]page.Span, error) {
	units := d.units(p, keep, words)
	if len(units) == 0 {
		return nil, nil
	}
	wins := windows(units, d.o.WindowTokens)
	seqs := make([][]string, len(wins))
	for i, w := range wins {
		seqs[i] = w.tokens(units)
	}
	views := d.caseViews(units, wins)
	for _, v := range views {
		seqs = append(seqs, v.toks)
	}
	tagged, err := d.m.TagAll(ctx, seqs)
	if err != nil {
		return nil, fmt.Errorf("ner: page %d: %w", p.Index, err)
	}
	if d.o.ObserveWindows != nil {
		d.o.ObserveWindows(len(wins), len(views))
	}
	dec := d.m.DecodeProbs
	var tokEnt []float32 // per page token
	if ent != nil {
		dec = func(probs []float32, n int) ([]Label, []float32) {
			L := len(d.m.labels)
			tokEnt = make([]float32, n)
			for t := range n {
				for j, l := range d.m.labels {
					if l.Entity.Masked() {
						tokEnt[t] += probs[t*L+j]
					}
				}
			}
			return d.m.DecodeProbs(probs, n)
		}
	}
	toks, refs, labels, scores := assemble(units, wins, views, tagged, dec)
	for t, e := range tokEnt {
		if w := refs[t].word; w >= 0 {
			ent[w] = max(ent[w], e)
		}
	}
	return d.spans(p, toks, refs, labels, scores), nil
}

// view is a window read once more with its tokens rewritten.
type view struct {
	win  int // the window it rereads
	toks []string
}

// caseViews returns the extra readings of the windows mostly in capitals
// (see DetectorOptions.LowerCase): truecased and in lower case, only
// their lines in capitals rewritten.
func (d *Detector) caseViews(units []unit, wins []window) []view {
	if d.o.LowerCase == nil || !d.m.Probabilities() {
		return nil
	}
	var out []view
	for wi, w := range wins {
		caps, all := 0, 0
		for u := w.from; u < w.to; u++ {
			all += len(units[u].toks)
			if inCapitals(units[u].toks) {
				caps += len(units[u].toks)
			}
		}
		if 2*caps < all {
			continue
		}
		truecased := w.rewrite(units, func(t string) string {
			l := strings.ToLower(t)
			if d.o.LowerCase(l) {
				return l
			}
			r, n := utf8.DecodeRuneInString(l)
			return string(unicode.ToUpper(r)) + l[n:]
		})
		lower := w.rewrite(units, strings.ToLower)
		out = append(out, view{wi, truecased}, view{wi, lower})
	}
	return out
}

// rewrite returns the window's tokens with f applied to those of its
// units in capitals (f nil: none).
func (w window) rewrite(units []unit, f func(string) string) []string {
	var out []string
	for i := w.from; i < w.to; i++ {
		if i > w.from && sepAfter(units, i-1) {
			out = append(out, NL)
		}
		if f == nil || !inCapitals(units[i].toks) {
			out = append(out, units[i].toks...)
			continue
		}
		for _, t := range units[i].toks {
			out = append(out, f(t))
		}
	}
	return out
}

// inCapitals reports whether toks have a letter and none in lower case.
func inCapitals(toks []string) bool {
	upper := false
	for _, t := range toks {
		for _, r := range t {
			if unicode.IsLower(r) {
				return false
			}
			upper = upper || unicode.IsUpper(r)
		}
	}
	return upper
}

// units tokenizes the page line by line, only the lines keep holds
// (nil: all) and of them the words words holds (nil: all); a unit's line
// is the run of kept words it belongs to (the line itself when all its
// words are kept), so that an NL separates two runs.
func (d *Detector) units(p *page.Page, keep, words []bool) []unit {
	var out []unit
	maxT := d.o.WindowTokens
	run := 0
	for li, l := range p.Lines() {
		if keep != nil && !keep[li] {
			continue
		}
		cur := unit{line: run}
		for wi := l[0]; wi < l[1]; wi++ {
			if words != nil && !words[wi] {
				if len(cur.toks) > 0 {
					out = append(out, cur)
					run++
					cur = unit{line: run}
				}
				continue
			}
			for _, pc := range Pieces(p.Words[wi].Text) {
				if len(cur.toks) == maxT {
					out = append(out, cur)
					cur = unit{line: run}
				}
				cur.toks = append(cur.toks, pc.Text)
				cur.refs = append(cur.refs, tokRef{word: wi, start: pc.Start, end: pc.End})
			}
		}
		if len(cur.toks) > 0 {
			out = append(out, cur)
		}
		run++
	}
	return out
}

// window is units [from, to) run through the model together.
type window struct{ from, to int }

// sepAfter reports whether an NL token separates unit i from unit i+1.
func sepAfter(units []unit, i int) bool { return units[i].line != units[i+1].line }

// tokens is the window as the model reads it: its units joined, NL
// between lines.
func (w window) tokens(units []unit) []string { return w.rewrite(units, nil) }

// windows packs units greedily into windows of at most n tokens; each
// window after the first starts with the last unit of the one before
// (when that one held more than one unit).
func windows(units []unit, n int) []window {
	var out []window
	for i := 0; i < len(units); {
		j, size := i, 0
		for j < len(units) {
			add := len(units[j].toks)
			if j > i && sepAfter(units, j-1) {
				add++
			}
			if j > i && size+add > n {
				break
			}
			size += add
			j++
		}
		out = append(out, window{i, j})
		if j == len(units) {
			break
		}
		if j-i > 1 {
			i = j - 1
		} else {
			i = j
		}
	}
	return out
}

// assemble builds the page-wide token sequence (units joined, NL between
// lines) and labels it. A window's tokens are a run of the page's; the
// tokens of a line two windows share are seen twice, once near the end of
// the first window and once near the start of the second, each time with
// context on one side only. When the model gives class probabilities,
// each token is labelled from their mean over the windows holding it
// (dec decodes them as the model decodes its own); else each takes its
// label from the window where it has the most context on its shorter
// side, so a shared line is split between the two at its middle. views
// (tagged after the windows, in order) are further readings of a window
// and join its tokens' mean. An NL no window holds (after a window of one
// unit) is O.
func assemble(units []unit, wins []window, views []view, tagged []Tagged, dec func(probs []float32, n int) ([]Label, []float32)) (toks []string, refs []tokRef, labels []Label, scores []float32) {
	start := make([]int, len(units)) // unit u's first token on the page
	for u := range units {
		start[u] = len(toks)
		toks = append(toks, units[u].toks...)
		refs = append(refs, units[u].refs...)
		if u+1 < len(units) && sepAfter(units, u) {
			toks = append(toks, NL)
			refs = append(refs, tokRef{word: -1})
		}
	}
	spans := make([][2]int, len(wins)) // window w's tokens on the page
	for wi, w := range wins {
		spans[wi] = [2]int{start[w.from], start[w.to-1] + len(units[w.to-1].toks)}
	}
	for _, v := range views {
		spans = append(spans, spans[v.win])
	}
	if labels, scores, ok := meanLabels(len(toks), spans, tagged, dec); ok {
		return toks, refs, labels, scores
	}
	labels, scores = centralLabels(len(toks), spans[:len(wins)], tagged[:len(wins)])
	return toks, refs, labels, scores
}

// meanLabels labels n page tokens from the mean of the class
// probabilities of the windows holding each; ok is false when some window
// has no probabilities.
func meanLabels(n int, spans [][2]int, tagged []Tagged, dec func([]float32, int) ([]Label, []float32)) (labels []Label, scores []float32, ok bool) {
	if dec == nil || len(tagged) == 0 {
		return nil, nil, false
	}
	L := len(tagged[0].Probs) / max(1, len(tagged[0].Labels))
	if L == 0 {
		return nil, nil, false
	}
	for wi, sp := range spans {
		if len(tagged[wi].Probs) != (sp[1]-sp[0])*L {
			return nil, nil, false
		}
	}
	sum := make([]float32, n*L)
	views := make([]float32, n)
	for wi, sp := range spans {
		p := tagged[wi].Probs
		for t := sp[0]; t < sp[1]; t++ {
			row := p[(t-sp[0])*L : (t-sp[0]+1)*L]
			for j, v := range row {
				sum[t*L+j] += v
			}
			views[t]++
		}
	}
	for t := range n {
		for j := range L {
			sum[t*L+j] /= max(views[t], 1)
		}
	}
	labels, scores = dec(sum, n)
	for t := range n {
		if views[t] == 0 {
			labels[t], scores[t] = O, 1
		}
	}
	return labels, scores, true
}

// centralLabels labels each of n page tokens from the window where it has
// the most context on its shorter side (the page's own start and end
// count as whole context), the first on a tie.
func centralLabels(n int, spans [][2]int, tagged []Tagged) (labels []Label, scores []float32) {
	labels = make([]Label, n)
	scores = make([]float32, n)
	best := make([]int, n)
	for t := range n {
		labels[t], scores[t], best[t] = O, 1, -1
	}
	const whole = 1 << 30
	for wi, sp := range spans {
		for t := sp[0]; t < sp[1]; t++ {
			left, right := t-sp[0], sp[1]-1-t
			if wi == 0 {
				left = whole
			}
			if wi == len(spans)-1 {
				right = whole
			}
			if c := min(left, right); c > best[t] {
				best[t] = c
				labels[t], scores[t] = tagged[wi].Labels[t-sp[0]], tagged[wi].Scores[t-sp[0]]
			}
		}
	}
	return labels, scores
}

// spans decodes the labels and maps token spans to page spans.
func (d *Detector) spans(p *page.Page, toks []string, refs []tokRef, labels []Label, scores []float32) []page.Span {
	decoded := Decode(toks, labels, scores)
	addr := addressLike(decoded, toks, d.o.Locations)
	var out []page.Span
	for k, s := range decoded {
		var cat page.Category
		switch {
		case s.Entity == Person:
			cat = page.Person
		case s.Entity == Organization:
			cat = page.Organization
		case addr[k]:
			cat = page.Address
		default:
			continue
		}
		if s.Score < d.o.MinScore {
			continue
		}
		first, last := refs[s.First], refs[s.Last]
		end := last.end
		if end >= utf8.RuneCountInString(p.Words[last.word].Text) {
			end = 0
		}
		out = append(out, page.Span{
			First: first.word, Last: last.word,
			Start: first.start, End: end,
			Category: cat, Score: s.Score, Recognizer: d.Name(),
		})
	}
	return out
}

// addressLike marks the spans reported as Address: Address spans, and
// Location spans either all (locations) or those chained to an Address
// span through other such spans with only punctuation and line breaks
// (at most three tokens) between them: "Springfield, IL" under a street.
func addressLike(spans []Span, toks []string, locations bool) []bool {
	out := make([]bool, len(spans))
	for k, s := range spans {
		out[k] = s.Entity == Address || (locations && s.Entity == Location)
	}
	gapOK := func(a, b int) bool { // tokens strictly between a and b
		if b-a-1 > 3 {
			return false
		}
		for i := a + 1; i < b; i++ {
			if toks[i] != NL && Shape(toks[i]) != shapePunct {
				return false
			}
		}
		return true
	}
	for changed := true; changed; {
		changed = false
		for k, s := range spans {
			if out[k] || s.Entity != Location {
				continue
			}
			if (k > 0 && out[k-1] && gapOK(spans[k-1].Last, s.First)) ||
				(k+1 < len(spans) && out[k+1] && gapOK(s.Last, spans[k+1].First)) {
				out[k], changed = true, true
			}
		}
	}
	return out
}
