package detect

import (
	"context"
	"slices"
	"sync"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/pattern"
	"github.com/redactd/redactd/engine/detect/rules"
	"github.com/redactd/redactd/engine/page"
)

// recognizer adapts a function over a View to Detector and ViewDetector.
type recognizer struct {
	name string
	fn   func(v *View) []page.Span
}

func (r *recognizer) Name() string { return r.name }

func (r *recognizer) Detect(ctx context.Context, p *page.Page) ([]page.Span, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return r.fn(PageView(p)), nil
}

func (r *recognizer) DetectView(v *View) []page.Span { return r.fn(v) }

var (
	recOnce sync.Once
	recs    []Detector
	recErr  error
)

// Recognizers returns the pattern recognizers: Email, user handles
// (Person), PhoneNumber, IBAN, CreditCard, NationalID, the prefixes of
// IBANs, cards and phone numbers that the page's edge cuts (edge-cut),
// Date, Address, Person and Organization (legal forms, and the
// organizations of the word list). They are built once
// (regular expressions compiled, gazetteers loaded) and shared; all are
// safe for concurrent use.
func Recognizers() ([]Detector, error) {
	recOnce.Do(func() {
		gz, err := gazetteer.Get()
		if err != nil {
			recErr = err
			return
		}
		recs = []Detector{
			&recognizer{"email", pattern.FindEmails},
			&recognizer{"handle", pattern.FindHandles},
			&recognizer{"phone", pattern.FindPhones},
			&recognizer{"iban", pattern.FindIBANs},
			&recognizer{"credit-card", pattern.FindCards},
			&recognizer{"national-id", pattern.FindNationalIDs},
			&recognizer{"edge-cut", pattern.FindEdgeCut},
			&recognizer{"date", pattern.FindDates},
			&recognizer{"address", rules.AddressRecognizer(gz)},
			&recognizer{rules.NameGazetteer, rules.NameRecognizer(gz)},
			&recognizer{"org-legal-form", rules.OrgRecognizer(gz)},
			&recognizer{rules.KnownOrgs, rules.KnownOrgRecognizer(gz)},
		}
	})
	// A copy, so that callers may append their own detectors (the NER
	// model) without writing into the shared slice.
	return slices.Clone(recs), recErr
}
