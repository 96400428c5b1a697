package jobs

import (
	"fmt"

	"github.com/redactd/redactd/engine/store/record"
)

// quota holds the page-quota rules (the package documentation, doc.go,
// states them): what a plan grants, whether a job may start, whether a
// document may be charged. Charges and refunds are transition steps
// (tx.charge, tx.refund), so a document's pages move in the same batch
// as its state.
type quota struct {
	freePages     int64 // a free account's quota
	standardPages int64 // a standard account's quota
	maxPagesDoc   int   // the page limit of one document
}

// grant is the quota of a new account on plan.
func (q quota) grant(plan string) int64 {
	if plan == PlanFree {
		return q.freePages
	}
	return q.standardPages
}

// left reports whether a can start a job: some quota is left.
func (q quota) left(a *record.Account) bool { return a.PagesUsed < a.PagesQuota }

// denial returns why a document of pages pages cannot be charged to a,
// or "" when it can.
func (q quota) denial(a *record.Account, pages int) string {
	switch {
	case pages > q.maxPagesDoc:
		return fmt.Sprintf("document has %d pages; the limit is %d", pages, q.maxPagesDoc)
	case a.Plan == PlanFree && int64(pages) > a.PagesQuota:
		return fmt.Sprintf("free plan: documents up to %d pages", a.PagesQuota)
	case int64(pages) > a.PagesQuota-a.PagesUsed:
		return "insufficient page quota"
	}
	return ""
}

// charge charges d's pages to the account once, in the transition's
// batch, or returns why it may not (a message for the document's
// error). A document already charged is left as it is.
func (t *tx) charge(d *record.Doc, pages int) (denied string, err error) {
	if d.Charged {
		return "", nil
	}
	a, err := t.account()
	if err != nil {
		return "", err
	}
	use := *a
	if cr, ok := t.e.jl.(record.ChargeReader); ok {
		// An attempt that died after charging counted these pages
		// already; they are this document's own.
		charged, ok, err := cr.Charged(a.ID, d.ID)
		if err != nil {
			return "", err
		}
		if ok {
			use.PagesUsed -= charged
		}
	}
	if msg := t.e.quota.denial(&use, pages); msg != "" {
		return msg, nil
	}
	t.b.Charge(a, d.ID, int64(pages))
	d.Charged, d.ChargedPages, d.PageCount = true, int64(pages), pages
	t.touch(d)
	t.event(d, Status(d.Status), Status(d.Status), fmt.Sprintf("charged %d pages", pages))
	t.onCommit(func() { t.e.metrics.quotaPages.Add(float64(pages)) })
	return "", nil
}

// refund gives back d's charged pages once, in the transition's batch.
func (t *tx) refund(d *record.Doc) error {
	if !d.Charged || d.Refunded {
		return nil
	}
	a, err := t.account()
	if err != nil {
		return err
	}
	t.b.Refund(a, d.ID, d.ChargedPages)
	d.Refunded = true
	t.touch(d)
	t.event(d, Status(d.Status), Status(d.Status), fmt.Sprintf("refunded %d pages", d.ChargedPages))
	return nil
}

// refundUnfinished gives back the pages of the job's documents that were
// charged but are deleted before they finished, so that only redacted
// documents consume quota. The records go with the job, so no event.
func (t *tx) refundUnfinished() error {
	for _, d := range t.docs {
		// A document with an output was delivered: one in the middle of
		// a review apply is not unfinished.
		if !d.Charged || d.Refunded || Status(d.Status).Terminal() || d.HasOutput {
			continue
		}
		a, err := t.account()
		if err != nil {
			return err
		}
		t.b.Refund(a, d.ID, d.ChargedPages)
	}
	return nil
}
