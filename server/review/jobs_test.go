package review

import (
	"testing"

	ereview "github.com/redactd/redactd/engine/review"
)

func words(page int, y float64, texts ...string) []ereview.Word {
	var out []ereview.Word
	x := 10.0
	for _, t := range texts {
		w := float64(len(t)) * 6
		out = append(out, ereview.Word{Page: page, Text: t, X0: x, Y0: y, X1: x + w, Y1: y + 10})
		x += w + 4
	}
	return out
}

// TestFindAndTerms: a phrase is found across punctuation and case; redact
// all adds a search mask only where no burned mask covers the hit; exclude
// all rejects the masks over the hits.
func TestFindAndTerms(t *testing.T) {
	ws := append(words(1, 10, "Dear", "Ann", "Lee,"), words(2, 40, "ann", "lee", "wrote", "to", "ANN")...)
	hits := find("d", ws, "Ann Lee")
	if len(hits) != 2 || hits[0].Page != 1 || hits[1].Page != 2 || hits[0].X1 <= hits[0].X0 {
		t.Fatalf("hits %+v", hits)
	}
	if got := find("d", ws, "ann"); len(got) != 3 {
		t.Fatalf("single word: %d hits", len(got))
	}
	masks := []ereview.Mask{{ID: "m1", Page: 1, X0: hits[0].X0 - 1, Y0: 9, X1: hits[0].X1 + 1, Y1: 21, Category: "Person", Source: "ner", Status: ereview.Suggested}}
	out, n := applyTerm(masks, hits, "redact", "Person", "pii")
	if n != 1 || len(out) != 2 || out[1].Source != ereview.SourceSearch || out[1].Page != 2 || out[1].Reason != "pii" {
		t.Fatalf("redact all: n=%d %+v", n, out)
	}
	out, n = applyTerm(out, hits, "exclude", "", "other")
	if n != 2 || out[0].Status != ereview.Rejected || out[1].Status != ereview.Rejected {
		t.Fatalf("exclude all: n=%d %+v", n, out)
	}
}

// TestTallyWarnings: a word under a burned mask in one place and under
// none in another is counted both ways; a rejected mask does not count as
// masking; short words are ignored.
func TestTallyWarnings(t *testing.T) {
	ws := append(words(1, 10, "Mr", "Okafor", "paid"), words(2, 40, "Okafor", "signed")...)
	okafor := ws[1]
	masks := []ereview.Mask{
		{Page: 1, X0: okafor.X0, Y0: okafor.Y0, X1: okafor.X1, Y1: okafor.Y1, Status: ereview.Accepted},
		{Page: 2, X0: 0, Y0: 0, X1: 500, Y1: 100, Status: ereview.Rejected},
	}
	masked, unmasked := map[string]int{}, map[string]int{}
	tallyWords(masks, ws, masked, unmasked)
	if masked["okafor"] != 1 || unmasked["okafor"] != 1 {
		t.Fatalf("okafor: masked %d unmasked %d", masked["okafor"], unmasked["okafor"])
	}
	if _, ok := unmasked["mr"]; ok {
		t.Fatal("a two-letter word was counted")
	}
	if masked["paid"] != 0 || unmasked["paid"] != 1 {
		t.Fatalf("paid: %d %d", masked["paid"], unmasked["paid"])
	}
}
