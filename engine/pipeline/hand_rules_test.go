package pipeline

import (
	"testing"

	"github.com/redactd/redactd/engine/page"
)

func handWord(text string, conf float32, x0, y0, x1, y1 float64) page.Word {
	return page.Word{Text: text, Conf: conf, Source: page.SourceOCR,
		Quad: page.Quad{UL: page.Point{X: x0, Y: y0}, UR: page.Point{X: x1, Y: y0}, LL: page.Point{X: x0, Y: y1}, LR: page.Point{X: x1, Y: y1}}}
}

// TestBetweenPrint: a caption's word OCR doubted ("Signature nf the
// applicant", as a scan's form reads) is print between two words read
// with confidence on its line; handwriting beside one printed word, or
// below a caption, or much taller than its neighbours, is not.
func TestBetweenPrint(t *testing.T) {
	confident := func(w page.Word) bool { return w.Conf >= handPrintConf }
	caption := []page.Word{
		handWord("Signature", 0.95, 74, 294, 104, 304),
		handWord("nf", 0.69, 104, 294, 113, 304),
		handWord("the", 0.96, 113, 294, 124, 304),
		handWord("annlicant", 0.99, 124, 294, 156, 304),
		handWord("ŊYY¯(ÕX", 0.49, 93, 317, 136, 331), // the signature, under the caption
	}
	if !betweenPrint(caption, 1, confident) {
		t.Error(`"nf" between "Signature" and "the": not taken for print`)
	}
	if betweenPrint(caption, 4, confident) {
		t.Error("the signature under the caption taken for print")
	}
	beside := []page.Word{
		handWord("Signed:", 0.97, 72, 400, 104, 410),
		handWord("Xy9", 0.55, 110, 398, 160, 411), // nothing printed on its right
	}
	if betweenPrint(beside, 1, confident) {
		t.Error("handwriting right of a label, nothing after it, taken for print")
	}
	tall := []page.Word{
		handWord("I,", 0.97, 72, 400, 80, 410),
		handWord("Qqly", 0.6, 84, 390, 130, 414), // twice the line's height
		handWord("agree", 0.97, 134, 400, 160, 410),
	}
	if betweenPrint(tall, 1, confident) {
		t.Error("handwriting twice the height of the print around it taken for print")
	}
}

// TestBesideOnLine: OCR's confident word beside handwriting on its line
// joins it; the printed name under a signature, and a word further along
// the line than handNearPt, do not.
func TestBesideOnLine(t *testing.T) {
	sig := page.Rect{X0: 343, Y0: 274, X1: 410, Y1: 297}
	for _, c := range []struct {
		name string
		w    page.Rect
		want bool
	}{
		{`a loop read as "y", right of it`, page.Rect{X0: 415, Y0: 273, X1: 450, Y1: 302}, true},
		{"overlapping it", page.Rect{X0: 400, Y0: 280, X1: 430, Y1: 296}, true},
		{"the printed name under it", page.Rect{X0: 343, Y0: 300, X1: 420, Y1: 310}, false},
		{"far along its line", page.Rect{X0: 440, Y0: 276, X1: 470, Y1: 296}, false},
	} {
		if got := besideOnLine(c.w, sig); got != c.want {
			t.Errorf("%s: besideOnLine %v, want %v", c.name, got, c.want)
		}
	}
}

// TestFieldThreshold: an entry under a form field's caption ("Date",
// "Full name", as OCR read them on the dev corpus's scanned forms) is
// handwriting from handFieldThreshold; a candidate away from it, or a
// caption that is not a field's, keeps handThreshold, and a signature
// label still wins.
func TestFieldThreshold(t *testing.T) {
	date := page.Rect{X0: 392, Y0: 145, X1: 410, Y1: 154}
	name := page.Rect{X0: 87, Y0: 145, X1: 107, Y1: 154}
	fields := []page.Rect{date, name}
	for _, c := range []struct {
		what string
		c    page.Rect
		want float32
	}{
		{"the date written under Date", page.Rect{X0: 407, Y0: 162, X1: 425, Y1: 171}, handFieldThreshold},
		{"a name's second word under Full name", page.Rect{X0: 135, Y0: 163, X1: 181, Y1: 189}, handFieldThreshold},
		{`"Date: ..." on the caption's line`, page.Rect{X0: 414, Y0: 144, X1: 460, Y1: 156}, handFieldThreshold},
		{"a box two fields below", page.Rect{X0: 92, Y0: 296, X1: 155, Y1: 348}, handThreshold},
		{"far right of Date", page.Rect{X0: 500, Y0: 162, X1: 540, Y1: 171}, handThreshold},
	} {
		if got := candThreshold(c.c, nil, fields); got != c.want {
			t.Errorf("%s: threshold %.2f, want %.2f", c.what, got, c.want)
		}
	}
	if got := candThreshold(page.Rect{X0: 407, Y0: 162, X1: 425, Y1: 171}, []page.Rect{date}, fields); got != handLabelThreshold {
		t.Errorf("a signature label beside a field: threshold %.2f, want %.2f", got, handLabelThreshold)
	}
	for w, want := range map[string]bool{"Date": true, "Date:": true, "name": true, "Datum": true, "Signature": false, "Dates": false} {
		if isField(w) != want {
			t.Errorf("isField(%q) = %v, want %v", w, !want, want)
		}
	}
}

// TestFieldCaption: a field word is a caption when it ends its line (a
// form's "Date", "Full name"), not in a sentence (the contracts' "invoice
// date to the account" and "Place and date: Amsterdam", whose next
// line's words and the words after them got Signature masks at 0.5 when
// every "date" was a caption, seeds 11-13); and a word OCR read under a
// date's caption without a digit is not a typed date.
func TestFieldCaption(t *testing.T) {
	form := []page.Word{
		handWord("Full", 0.97, 74, 145, 87, 154),
		handWord("name", 1.0, 87, 145, 107, 154),
		handWord("Date", 1.0, 392, 145, 410, 154),
	}
	sentence := []page.Word{
		handWord("invoice", 0.99, 200, 180, 232, 190),
		handWord("date", 0.99, 234, 180, 252, 190),
		handWord("to", 0.99, 255, 180, 264, 190),
	}
	for _, c := range []struct {
		what  string
		words []page.Word
		i     int
		want  bool
	}{
		{`"name" of "Full name"`, form, 1, true},
		{`"Date" alone in its box`, form, 2, true},
		{`"date" in a sentence`, sentence, 1, false},
	} {
		if got := lastOnLine(c.words, c.i); got != c.want {
			t.Errorf("%s: lastOnLine %v, want %v", c.what, got, c.want)
		}
	}
	dates := []page.Rect{{X0: 392, Y0: 145, X1: 410, Y1: 154}}
	for _, c := range []struct {
		what string
		w    page.Word
		want bool
	}{
		{`a date's loops read as "m" under Date`, handWord("m", 0.95, 406, 161, 425, 172), true},
		{"a typed date under Date", handWord("12.03.2026", 0.98, 406, 161, 460, 172), false},
		{`"m" far from Date`, handWord("m", 0.95, 100, 400, 119, 411), false},
		{"a word on Date's line, right of it", handWord("m", 0.95, 414, 145, 430, 154), false},
	} {
		if got := undatedEntry(c.w, dates); got != c.want {
			t.Errorf("%s: undatedEntry %v, want %v", c.what, got, c.want)
		}
	}
}
