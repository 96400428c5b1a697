package view

import (
	"strings"
	"testing"

	"github.com/redactd/redactd/engine/detect/lang"
	"github.com/redactd/redactd/engine/page"
)

// TestBlockLang lays out a page of three paragraphs, in German, French
// and English, the German one over two lines at the usual leading; each
// is a block with its own language, and its words read it.
func TestBlockLang(t *testing.T) {
	var p page.Page
	top := 0.0
	for ln, para := range []struct {
		text string
		gap  float64 // before the line: 15 flows on, 30 is a paragraph break
	}{
		{"Sehr geehrte Damen und Herren, anbei erhalten Sie die Rechnung", 0},
		{"für den Monat März und die Unterlagen zu Ihrem Vertrag.", 15},
		{"Nous vous remercions de votre courrier concernant le renouvellement du bail.", 30},
		{"Thank you for your letter regarding the renewal of the lease.", 30},
	} {
		top += para.gap
		for i, w := range strings.Fields(para.text) {
			x := float64(i) * 50
			q := page.Quad{UL: page.Point{X: x, Y: top}, UR: page.Point{X: x + 40, Y: top},
				LL: page.Point{X: x, Y: top + 12}, LR: page.Point{X: x + 40, Y: top + 12}}
			p.Words = append(p.Words, page.Word{Text: w, Line: ln, Quad: q, Conf: 1})
		}
	}
	v := PageView(&p)
	if v.Blocks() != 3 {
		t.Fatalf("%d blocks, want 3", v.Blocks())
	}
	want := []lang.Code{lang.German, lang.French, lang.English}
	for b, w := range want {
		if got := v.BlockLang(b); got.Lang != w {
			t.Errorf("block %d: %+v, want %s", b, got, w)
		}
	}
	for i := range v.Len() {
		ln := v.LineOf(i)
		wantBlock := max(0, ln-1)
		if v.BlockOf(i) != wantBlock || v.Lang(i) != want[wantBlock] {
			t.Errorf("word %d %q (line %d): block %d %s, want %d %s", i, v.WordText(i), ln, v.BlockOf(i), v.Lang(i), wantBlock, want[wantBlock])
		}
	}
	// Plain text flows on from line to line: one block.
	tp, _ := PageFromText("Bonjour à tous.\nMerci de votre lettre.")
	if tv := PageView(tp); tv.Blocks() != 1 || tv.Lang(0) != lang.French {
		t.Errorf("plain text: %d blocks, %s", tv.Blocks(), tv.Lang(0))
	}
	if ev := PageView(&page.Page{}); ev.Blocks() != 0 {
		t.Errorf("empty page: %d blocks", ev.Blocks())
	}
}

// TestBlockLangVote: a block too short to tell alone (a headline, a
// form's line) takes the language the page's blocks vote (lang.Vote);
// a sure block keeps its own, and the request's hint wins over the vote.
func TestBlockLangVote(t *testing.T) {
	const text = "Streik bei Vivantes\n\n" +
		"In den Berliner Kliniken wird gestreikt, an diesem Dienstag legen nur ein paar hundert die Arbeit nieder.\n\n" +
		"Doch bald werden es mehr, und aus der regierenden Partei kommen widersprüchliche Signale.\n\n" +
		"The parties agree that this contract is governed by the laws of England and Wales."
	p, _ := PageFromText(text)
	v := PageView(p)
	if v.Blocks() != 4 {
		t.Fatalf("%d blocks, want 4 (a blank line breaks a paragraph)", v.Blocks())
	}
	if got := lang.Identify("Streik bei Vivantes"); got.Sure() {
		t.Fatalf("the headline alone is told surely (%+v): the case checks nothing", got)
	}
	for b, want := range []lang.Code{lang.German, lang.German, lang.German, lang.English} {
		got := v.BlockLang(b)
		if got.Lang != want || got.Hinted != (b == 0) {
			t.Errorf("block %d: %+v, want %s (voted: %v)", b, got, want, b == 0)
		}
	}
	hv := PageView(p)
	hv.SetLangHint(lang.Dutch)
	if got := hv.BlockLang(0); got.Lang != lang.Dutch || hv.BlockLang(1).Lang != lang.German {
		t.Errorf("hinted nl: headline %+v, paragraph %s", got, hv.BlockLang(1).Lang)
	}
}
