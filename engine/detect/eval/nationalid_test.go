package eval

import (
	"context"
	"slices"
	"testing"

	"github.com/redactd/redactd/engine/detect"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// TestNationalIDOrdinaryNumbers measures what the NationalID recognizer
// masks on presidio-research's corpus, word by word, among the words
// that hold a digit: how many of the labelled US_SSN words it masks, and
// how many words of other entities (phone numbers, dates, card numbers,
// IBANs, addresses, ...) and of no entity (amounts, invoice and order
// numbers, years) it masks as a NationalID. The second figure is the one
// that matters: an ordinary number must stay in its category or none.
// The corpus's only national IDs are US SSNs, each behind a label
// ("Here's my SSN:", "his social security number is"); their recall is
// printed, not asserted.
func TestNationalIDOrdinaryNumbers(t *testing.T) {
	recs := loadOrSkip(t)
	ds, err := detect.Recognizers()
	if err != nil {
		t.Fatal(err)
	}
	var (
		digitWords, ssnWords, ssnHit int
		falseByType                  = map[string]int{}
	)
	for _, r := range recs {
		p, offs := detect.PageFromText(r.Text)
		spans, err := detect.Run(context.Background(), p, ds, detect.Options{Categories: []page.Category{page.NationalID}})
		if err != nil {
			t.Fatal(err)
		}
		hit := make([]bool, len(p.Words))
		for _, s := range spans {
			for w := s.First; w <= s.Last; w++ {
				hit[w] = true
			}
		}
		for w, word := range p.Words {
			if !view.HasDigit(word.Text) {
				continue
			}
			digitWords++
			typ := presidioType(r.Spans, offs[w], offs[w]+len(word.Text))
			switch {
			case typ == "US_SSN":
				ssnWords++
				if hit[w] {
					ssnHit++
				}
			case hit[w]:
				if typ == "" {
					typ = "none"
				}
				falseByType[typ]++
			}
		}
	}
	falses := 0
	for _, n := range falseByType {
		falses += n
	}
	t.Logf("%d records, %d words with a digit; US_SSN words masked %d of %d; other words masked as NationalID: %d %v",
		len(recs), digitWords, ssnHit, ssnWords, falses, falseByType)
	for _, typ := range []string{"PHONE_NUMBER", "DATE_TIME", "CREDIT_CARD", "IBAN_CODE"} {
		if falseByType[typ] > 0 {
			t.Errorf("%d %s words masked as NationalID", falseByType[typ], typ)
		}
	}
	// Measured: 0 (see docs/behaviour.md, "National IDs"); a few would be
	// tolerable, dozens mean a recognizer that masks ordinary numbers.
	if falses > digitWords/1000 {
		t.Errorf("%d words with a digit outside SSNs masked as NationalID, more than 0.1%% of %d", falses, digitWords)
	}
}

// presidioType is the presidio type of the entity that holds bytes [s, e),
// or "".
func presidioType(spans []Gold, s, e int) string {
	i := slices.IndexFunc(spans, func(g Gold) bool { return s < g.End && e > g.Start })
	if i < 0 {
		return ""
	}
	return spans[i].Type
}
