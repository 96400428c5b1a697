package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"time"
)

// Report summarises what redaction did to one document (extension: GET
// /v1/documents/{doc_id}/report). It holds counts, categories, sources and
// times only, never document text, so it is safe to keep as long as the
// output and to show to anyone who may download the output.
type Report struct {
	DocumentID string         `json:"document_id"`
	PageCount  int            `json:"page_count"`
	Masks      ReportMasks    `json:"masks"`
	Pages      []ReportPage   `json:"pages"`
	TimingsMS  map[string]int `json:"timings_ms"`
}

// ReportMasks counts a document's masks.
type ReportMasks struct {
	Total      int            `json:"total"`
	ByCategory map[string]int `json:"by_category"`
	BySource   map[string]int `json:"by_source"`
}

// ReportPage is one page of a report; Page counts from 1.
type ReportPage struct {
	Page  int  `json:"page"`
	Masks int  `json:"masks"`
	OCR   bool `json:"ocr"`
}

// buildReport summarises a processing result.
func buildReport(docID string, res *ProcessResult) *Report {
	r := &Report{
		DocumentID: docID,
		PageCount:  res.PageCount,
		Masks:      ReportMasks{ByCategory: map[string]int{}, BySource: map[string]int{}},
		Pages:      make([]ReportPage, res.PageCount),
		TimingsMS:  map[string]int{},
	}
	for i := range r.Pages {
		r.Pages[i].Page = i + 1
		if i < len(res.Pages) {
			r.Pages[i].OCR = res.Pages[i].OCR
		}
	}
	for _, m := range res.Masks {
		r.Masks.Total++
		r.Masks.ByCategory[string(m.Category)]++
		r.Masks.BySource[m.Source]++
		if m.Page >= 0 && m.Page < len(r.Pages) {
			r.Pages[m.Page].Masks++
		}
	}
	for k, d := range res.Timings {
		r.TimingsMS[k] = int(d.Round(time.Millisecond) / time.Millisecond)
	}
	return r
}

// Report returns a redacted document's report. It exists exactly while
// the output does (same checks as Output): another account's document, an
// unfinished or failed one, or one whose output was purged is ErrNotFound.
// Documents redacted before reports existed have none (ErrNotFound).
func (api *API) Report(ctx context.Context, acct *Account, docID string) (*Report, error) {
	d, err := api.ownedDoc(acct, docID, "report")
	if err != nil {
		return nil, err
	}
	if d.Status != string(StatusRedacted) || !d.HasOutput || !d.HasReport {
		return nil, errorf(ErrNotFound, "", "report not ready")
	}
	if ok, err := api.files.exists(ctx, d.JobID, d.ID+sufOut); err == nil && !ok {
		return nil, ErrNotFound // purged meanwhile
	}
	b, err := api.files.read(ctx, d.JobID, d.ID+sufReport)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNotFound
	}
	if err != nil {
		api.log.Error("engine: reading report failed", "doc", docID, "err", err)
		return nil, storageError(err)
	}
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, api.logErr("report", fmt.Errorf("decoding report of %s: %w", docID, err))
	}
	return &r, nil
}
