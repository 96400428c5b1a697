package ocr

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/redactd/redactd/models/batch"
	"github.com/redactd/redactd/models/ort"
)

// Cross-reading (issue 48): redactd-latin reads every European letter but
// loses some words PP-OCRv4 keeps (e-mails, organization names, single
// letters read in the wrong case or as a digit). A line it reads with
// doubt is read again by PP-OCRv4, when its files are installed
// (Options.NoCrossRead turns this off), and each word keeps the better of
// the two readings, redactd-latin's marks kept:
//
//   - a line is doubtful when its mean confidence is under crossLineConf,
//     a word's under crossWordConf, a character's under crossCharConf
//     (a 0 read as 9 in bold print), or a word fails shapeDoubt (a capital
//     after a small letter, a lone digit among letters, a letter among
//     digits, punctuation no word carries inside);
//   - an IBAN whose check digits fail is doubtful too, and with as many
//     words in both readings it is PP-OCRv4's where its check digits hold
//     there;
//   - a word with a letter PP-OCRv4's dictionary lacks (ł ż ș ...) is
//     redactd-latin's and not read again: PP-OCRv4 cannot read it right;
//   - with as many words in both readings, each word is PP-OCRv4's only
//     where redactd-latin's is doubtful and PP-OCRv4's is not, or where
//     PP-OCRv4 is surer by crossMargin (of the word's mean, or of its
//     least sure character under crossCharConf) and the two differ in
//     more than marks; a PP-OCRv4 word equal but for marks is never taken (it reads
//     "Muller" for "Müller"), but in an e-mail address, where marks are
//     seldom;
//   - with a different number of words, the line is PP-OCRv4's only when
//     redactd-latin's confidence is under crossLineConf and PP-OCRv4's is
//     higher by crossMargin, and then each of its words that equals one of
//     redactd-latin's but for marks is written with redactd-latin's marks.
const (
	crossLineConf = 0.9
	crossWordConf = 0.8
	crossCharConf = 0.6
	crossMargin   = 0.1
)

// openCross opens PP-OCRv4's recogniser beside redactd-latin's as
// e.cross, a reader that shares the engine's lane; it is left nil when
// the files are not installed or the engine reads with PP-OCRv4 already.
func (e *Engine) openCross(open func(string, ...ort.SessionOption) (*ort.Session, error), so []ort.SessionOption) error {
	if e.opts.Model != ModelLatin || e.opts.NoCrossRead {
		return nil
	}
	for _, f := range []string{recFile, dictFile} {
		if _, err := os.Stat(filepath.Join(e.dir, f)); err != nil {
			return nil
		}
	}
	dict, err := loadDict(filepath.Join(e.dir, dictFile))
	if err != nil {
		return err
	}
	o := e.opts
	o.Model, o.Charset = ModelPPOCRv4, CharsetLatin
	c := &Engine{opts: o, prof: profileOf(ModelPPOCRv4), dict: dict, dir: e.dir, recLUT: e.recLUT, recPar: e.recPar, closed: e.closed}
	if c.rec, err = c.openRec(open, so); err != nil {
		return err
	}
	c.twin = markTwins(c.dict)
	c.chars = map[rune]bool{}
	for _, d := range c.dict {
		for _, r := range d {
			c.chars[r] = true
		}
	}
	c.recB = batch.New("ocr_rec", c.runBatch, batch.Options[rowReq]{
		MaxBatch: o.BatchSize, MaxWait: o.BatchWait, Key: rowKey, Lane: o.Lane, Spread: true, Parallel: o.Lane.Overlap(), Observe: o.Observe,
	})
	e.cross = c
	return nil
}

// readable reports whether every character of w is one of e's classes.
func (e *Engine) readable(w string) bool {
	for _, r := range w {
		if !e.chars[r] {
			return false
		}
	}
	return true
}

// CrossReads reports whether doubtful lines are read by PP-OCRv4 too.
func (e *Engine) CrossReads() bool { return e.cross != nil }

// ibanSpan is an IBAN read in a line's words: words[from:to], and whether
// its check digits hold.
type ibanSpan struct {
	from, to int
	valid    bool
}

// ibanSpans finds the IBANs of a line, written whole or in groups: a word
// that starts with a country code and two digits, with the groups of up
// to four letters and digits after it, to the longest run whose check
// digits hold (or the longest run).
func ibanSpans(ws []Word) []ibanSpan {
	var out []ibanSpan
	for i := 0; i < len(ws); i++ {
		w := strings.TrimRight(ws[i].Text, ",.;")
		if len(w) < 4 || !isUpperASCII(w[0]) || !isUpperASCII(w[1]) || !isDigitASCII(w[2]) || !isDigitASCII(w[3]) || !ibanChars(w) {
			continue
		}
		sp := ibanSpan{from: i, to: i + 1}
		acc := w
		best := -1
		for j := i + 1; ; j++ {
			if len(acc) >= 15 && ibanValid(acc) {
				best = j
			}
			if j >= len(ws) {
				break
			}
			g := strings.TrimRight(ws[j].Text, ",.;")
			if len(g) == 0 || len(g) > 4 || !ibanChars(g) || len(acc)+len(g) > 34 {
				break
			}
			acc += g
			sp.to = j + 1
		}
		if len(acc) < 15 {
			continue
		}
		if best > 0 {
			sp.to, sp.valid = best, true
		}
		out = append(out, sp)
		i = sp.to - 1
	}
	return out
}

func isUpperASCII(c byte) bool { return c >= 'A' && c <= 'Z' }
func isDigitASCII(c byte) bool { return c >= '0' && c <= '9' }

// ibanChars reports whether s is capitals and digits, as IBANs are
// written.
func ibanChars(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isUpperASCII(c) && !isDigitASCII(c) {
			return false
		}
	}
	return true
}

// ibanValid checks an IBAN's mod-97 check digits (ISO 13616).
func ibanValid(s string) bool {
	s = strings.ToUpper(s)
	mod := 0
	for _, c := range s[4:] + s[:4] {
		switch {
		case c >= '0' && c <= '9':
			mod = (mod*10 + int(c-'0')) % 97
		case c >= 'A' && c <= 'Z':
			mod = (mod*100 + int(c-'A') + 10) % 97
		default:
			return false
		}
	}
	return mod == 1
}

// shapeDoubt reports a word whose shape print seldom has: a capital after
// a small letter ("LouisVille", "ZuZanna"), a lone digit among three or
// more letters ("Grass0"), a lone O, o, Ø, ø or l among digits ("Ø844"),
// a bar or an exclamation mark before the word's end ("S.r.!.", "Tel|"),
// or an e-mail
// address with a capital or a marked letter ("Zuzanna.jankowski@…",
// "@ínbox.example.eu").
func shapeDoubt(w string) bool {
	if strings.ContainsAny(w, "|¦") || strings.ContainsRune(strings.TrimRight(w, "!"), '!') {
		return true
	}
	rs := []rune(strings.Trim(w, ",.;:()\"'"))
	email := strings.ContainsRune(w, '@')
	// Capitals inside a word that print has: GmbH, McDonald, MacLeod.
	camel := 0
	switch core := string(rs); {
	case strings.HasSuffix(core, "mbH"):
		camel = len(rs) - 1
	case strings.HasPrefix(core, "Mac"):
		camel = 3
	case strings.HasPrefix(core, "Mc"):
		camel = 2
	}
	var letters, digits, lower int
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r):
			letters++
			if email && (unicode.IsUpper(r) || r > unicode.MaxASCII) {
				return true
			}
			if unicode.IsUpper(r) && lower > 0 && i > 0 && unicode.IsLower(rs[i-1]) && i != camel {
				return true
			}
			if unicode.IsLower(r) {
				lower++
			}
		case unicode.IsDigit(r):
			digits++
		}
	}
	if digits == 1 && letters >= 3 {
		return true
	}
	if letters == 1 && digits >= 3 {
		for _, r := range rs {
			if strings.ContainsRune("OoØøl", r) {
				return true
			}
		}
	}
	return false
}

// crossFold is s without its marks: combining marks dropped, and the
// letters that carry theirs in one glyph (ł ø đ ı) written plain.
func crossFold(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		switch r {
		case 'ł':
			r = 'l'
		case 'Ł':
			r = 'L'
		case 'ø':
			r = 'o'
		case 'Ø':
			r = 'O'
		case 'đ':
			r = 'd'
		case 'Đ':
			r = 'D'
		case 'ı':
			r = 'i'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// mergeReadings keeps, word by word, the better of redactd-latin's
// reading a and PP-OCRv4's b of the same crop.
// readable, when not nil, reports whether PP-OCRv4 can read a word at all
// (every character in its dictionary): a word it cannot is
// redactd-latin's ("Żółkiewska", which it reads "Zotkiewska").
func mergeReadings(a, b Line, readable func(string) bool) Line {
	if b.Text == "" {
		return a
	}
	if len(a.Words) == len(b.Words) {
		out := a
		out.Words = append([]Word(nil), a.Words...)
		changed := false
		// An IBAN whose check digits fail in redactd-latin's reading and
		// hold in PP-OCRv4's, group for group, is PP-OCRv4's.
		fixed := make([]bool, len(a.Words))
		valid := map[[2]int]bool{}
		for _, sp := range ibanSpans(b.Words) {
			valid[[2]int{sp.from, sp.to}] = sp.valid
		}
		for _, sp := range ibanSpans(a.Words) {
			if !sp.valid && valid[[2]int{sp.from, sp.to}] {
				for k := sp.from; k < sp.to; k++ {
					out.Words[k], fixed[k] = b.Words[k], true
				}
				changed = true
			}
		}
		for i := range out.Words {
			if fixed[i] {
				continue
			}
			wa, wb := a.Words[i], b.Words[i]
			if wa.Text == wb.Text || readable != nil && !readable(wa.Text) {
				continue
			}
			if crossFold(wa.Text) == crossFold(wb.Text) && !strings.ContainsRune(wa.Text, '@') {
				continue // redactd-latin's marks, which PP-OCRv4 mostly lacks
			}
			da, db := shapeDoubt(wa.Text), shapeDoubt(wb.Text)
			surer := wa.Conf < crossWordConf && wb.Conf >= wa.Conf+crossMargin ||
				wa.minP < crossCharConf && wb.minP >= wa.minP+crossMargin
			if (da && !db) || (!db && surer) {
				out.Words[i] = wb
				changed = true
			}
		}
		if changed {
			out.Text = joinWords(out.Words)
		}
		return out
	}
	if a.Conf >= crossLineConf || b.Conf < a.Conf+crossMargin {
		return a
	}
	marked := map[string]string{}
	for _, w := range a.Words {
		marked[crossFold(w.Text)] = w.Text
	}
	out := b
	out.Words = append([]Word(nil), b.Words...)
	for i, w := range out.Words {
		if m, ok := marked[crossFold(w.Text)]; ok && len([]rune(m)) == len([]rune(w.Text)) {
			out.Words[i].Text = m
		}
	}
	out.Text = joinWords(out.Words)
	return out
}

func joinWords(ws []Word) string {
	s := make([]string, len(ws))
	for i, w := range ws {
		s[i] = w.Text
	}
	return strings.Join(s, " ")
}

// crossSpan is a part of a line to read again: words[from:to] of line
// i, or the whole line (whole).
type crossSpan struct {
	i, from, to int
	whole       bool
}

// doubtfulSpans returns the parts of l worth a second reading: the whole
// line when its confidence is under crossLineConf, else each doubtful
// word and each IBAN whose check digits fail, overlapping ones joined.
// The words of an IBAN whose check digits hold are not doubtful: the
// check vouches for them, and a second reading could only break it (an
// Italian IBAN's CIN letter, "IT75 O836 ...", whose O shapeDoubt
// doubts, was read alone by PP-OCRv4 as 0 or O depending on the crops it
// shared its batch with).
func doubtfulSpans(i int, l Line, readable func(string) bool) []crossSpan {
	if l.Text == "" || len(l.Words) == 0 {
		return nil
	}
	if l.Conf < crossLineConf {
		return []crossSpan{{i: i, from: 0, to: len(l.Words), whole: true}}
	}
	var out []crossSpan
	add := func(from, to int) {
		if n := len(out); n > 0 && from < out[n-1].to {
			out[n-1].to = max(out[n-1].to, to)
			return
		}
		out = append(out, crossSpan{i: i, from: from, to: to})
	}
	ibans := ibanSpans(l.Words)
	vouched := make([]bool, len(l.Words)) // in an IBAN whose check digits hold
	for _, sp := range ibans {
		for k := sp.from; k < sp.to && sp.valid; k++ {
			vouched[k] = true
		}
	}
	for k, w := range l.Words {
		for _, sp := range ibans {
			if !sp.valid && sp.from == k {
				add(sp.from, sp.to)
			}
		}
		if vouched[k] {
			continue
		}
		if (w.Conf < crossWordConf || w.minP < crossCharConf || shapeDoubt(w.Text)) && readable(w.Text) {
			add(k, k+1)
		}
	}
	return out
}

// spanQuad is the quad of words[from:to] of l.
func spanQuad(l Line, from, to int) Quad {
	a, b := l.Words[from].Quad, l.Words[to-1].Quad
	return Quad{UL: a.UL, LL: a.LL, UR: b.UR, LR: b.LR}
}

// crossRead reads the doubtful parts of lines (redactd-latin's readings
// of img) with PP-OCRv4 and merges each pair: a doubtful word (or IBAN)
// is read alone, cut from the line at its word boundaries, so the second
// recogniser's work is a few words a line, not the line.
func (e *Engine) crossRead(ctx context.Context, img Image, lines []Line) error {
	if e.cross == nil {
		return nil
	}
	var jobs []*lineJob
	var spans []crossSpan
	nLines := 0
	for i, l := range lines {
		sps := doubtfulSpans(i, l, e.cross.readable)
		if len(sps) > 0 {
			nLines++
		}
		for _, sp := range sps {
			q := l.Quad
			if !sp.whole {
				q = spanQuad(l, sp.from, sp.to)
			}
			if c, ok := cropQuad(img, q); ok {
				jobs = append(jobs, &lineJob{quad: q, c: c})
				spans = append(spans, sp)
			}
		}
	}
	e.linesRead.Add(int64(len(lines)))
	e.linesCrossRead.Add(int64(nLines))
	if len(jobs) == 0 {
		return nil
	}
	read, err := e.cross.read(ctx, jobs)
	if err != nil {
		return err
	}
	// Later spans of a line first, so earlier word indices stay valid
	// when a merge changes the number of words.
	for k := len(read) - 1; k >= 0; k-- {
		sp, b := spans[k], read[k]
		a := lines[sp.i]
		var m Line
		if sp.whole {
			m = mergeReadings(a, b, e.cross.readable)
		} else {
			part := Line{Quad: b.Quad, Text: joinWords(a.Words[sp.from:sp.to]), Conf: a.Conf, Words: a.Words[sp.from:sp.to]}
			if len(b.Words) != len(part.Words) {
				continue // a word cut differently: redactd-latin's stands
			}
			mp := mergeReadings(part, b, e.cross.readable)
			m = a
			m.Words = append(append(append([]Word(nil), a.Words[:sp.from]...), mp.Words...), a.Words[sp.to:]...)
			if mp.Text != part.Text {
				m.Text = joinWords(m.Words)
			}
		}
		if debugf != nil && m.Text != a.Text {
			debugf("cross-read %q (%.2f) + %q (%.2f) -> %q", a.Text, a.Conf, b.Text, b.Conf, m.Text)
		}
		lines[sp.i] = m
	}
	return nil
}
