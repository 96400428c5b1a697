// Package review is the review state of one studio document: the masks
// the pipeline suggested, what a reviewer decided about each (accepted,
// rejected, with a reason), the masks a reviewer drew, and a version for
// optimistic concurrency (If-Match). It also holds the document's audit
// log, append-only and chained with HMAC-SHA256 under the installation's
// audit key (audit.go), and the words kept for search.
//
// The package is pure: it validates and merges states and builds audit
// entries; the job service (engine/jobs/review.go) stores them beside the
// document's files, under its account lock, and purges them with the job.
//
// Coordinates are the masks' own space (engine/page): PDF points from the
// top-left corner of the page as the output shows it, rotation and crop
// applied. Pages are 1-based here, as a caller counts them.
package review

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/page"
)

// Mask statuses.
const (
	Suggested = "suggested"
	Accepted  = "accepted"
	Rejected  = "rejected"
)

// Mask sources: what the pipeline found (ner, pattern, ocr, term) and
// what a reviewer added (search: from a word search, manual: drawn).
const (
	SourceNER     = "ner"
	SourcePattern = "pattern"
	SourceOCR     = "ocr"
	SourceTerm    = "term"
	SourceSearch  = "search"
	SourceManual  = "manual"
)

// Mask is one mask of the review state.
type Mask struct {
	ID         string  `json:"id"`
	Page       int     `json:"page"`
	X0         float64 `json:"x0"`
	Y0         float64 `json:"y0"`
	X1         float64 `json:"x1"`
	Y1         float64 `json:"y1"`
	Category   string  `json:"category"`
	Source     string  `json:"source"`
	Recognizer string  `json:"recognizer"`
	Score      float32 `json:"score"`
	Status     string  `json:"status"`
	Reason     string  `json:"reason"`
}

// Rect is the mask's box.
func (m Mask) Rect() page.Rect { return page.Rect{X0: m.X0, Y0: m.Y0, X1: m.X1, Y1: m.Y1} }

// Burned reports whether apply burns the mask: every mask not rejected.
func (m Mask) Burned() bool { return m.Status != Rejected }

// Page is one page's size in points as the output shows it: the
// contract's PageSize, which a contract.Previewer measures.
type Page = contract.PageSize

// State is a document's review state.
type State struct {
	DocumentID string `json:"document_id"`
	Version    int64  `json:"version"`
	Pages      []Page `json:"pages"`
	Masks      []Mask `json:"masks"`
	// NextID numbers new masks; ids are never reused, so an audit entry
	// names one mask for good.
	NextID int `json:"next_id"`
	// Leaks is what the re-scan of the last apply still read as PII.
	Leaks []Leak `json:"leaks,omitempty"`
}

// Word is a word of the document with its box, for search.
type Word struct {
	Page int     `json:"page"`
	Text string  `json:"text"`
	X0   float64 `json:"x0"`
	Y0   float64 `json:"y0"`
	X1   float64 `json:"x1"`
	Y1   float64 `json:"y1"`
}

// FieldError is a refused review state: the field ("masks[3].x1") and why.
type FieldError struct{ Field, Msg string }

func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }

func fieldf(field, format string, args ...any) error {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// sourceOf maps the pipeline's mask source (the producer of the first
// word, or the recognizer kind) to the review source.
func sourceOf(m contract.Mask) string {
	switch {
	case m.Category == page.IncludedTerm || strings.HasPrefix(m.Recognizer, "term"):
		return SourceTerm
	case m.Source == "ocr":
		return SourceOCR
	case strings.HasPrefix(strings.ToLower(m.Recognizer), "ner"):
		return SourceNER
	}
	return SourcePattern
}

// New builds the first review state of a document from the pipeline's
// masks (0-based pages) and page sizes: every mask suggested.
func New(docID string, pages []contract.PageInfo, masks []contract.Mask) *State {
	s := &State{DocumentID: docID, Version: 1, Pages: make([]Page, len(pages)), Masks: make([]Mask, 0, len(masks))}
	for i, p := range pages {
		s.Pages[i] = Page{Page: i + 1, Width: round2(p.Width), Height: round2(p.Height)}
	}
	for _, m := range masks {
		s.NextID++
		s.Masks = append(s.Masks, Mask{
			ID: "m" + strconv.Itoa(s.NextID), Page: m.Page + 1,
			X0: round2(m.Box.X0), Y0: round2(m.Box.Y0), X1: round2(m.Box.X1), Y1: round2(m.Box.Y1),
			Category: string(m.Category), Source: sourceOf(m), Recognizer: m.Recognizer,
			Score: m.Score, Status: Suggested,
		})
	}
	return s
}

// Words converts the pipeline's words (0-based pages).
func Words(ws []contract.Word) []Word {
	out := make([]Word, len(ws))
	for i, w := range ws {
		out[i] = Word{Page: w.Page + 1, Text: w.Text, X0: round2(w.Box.X0), Y0: round2(w.Box.Y0), X1: round2(w.Box.X1), Y1: round2(w.Box.Y1)}
	}
	return out
}

// round2 keeps two decimals: a hundredth of a point is far below a pixel
// at any preview scale, and the JSON stays short.
func round2(v float64) float64 { return math.Round(v*100) / 100 }

// Limits bound what a PUT may hold.
type Limits struct {
	MaxMasks int
	Reasons  []string // allowed reason codes; "" is always allowed
}

// Categories a mask may have: the spec's, and IncludedTerm for the masks
// of pii_included_terms.
func validCategory(c string) bool {
	_, ok := page.ParseCategory(c)
	return ok || c == string(page.IncludedTerm)
}

func validStatus(s string) bool { return s == Suggested || s == Accepted || s == Rejected }

// Validate checks a proposed mask list against the document's pages and
// the limits: boxes inside their page and not empty, known categories,
// statuses and reasons.
func Validate(pages []Page, masks []Mask, lim Limits) error {
	if lim.MaxMasks > 0 && len(masks) > lim.MaxMasks {
		return fieldf("masks", "more than %d masks", lim.MaxMasks)
	}
	for i, m := range masks {
		f := "masks[" + strconv.Itoa(i) + "]"
		if m.Page < 1 || m.Page > len(pages) {
			return fieldf(f+".page", "no page %d (the document has %d)", m.Page, len(pages))
		}
		p := pages[m.Page-1]
		for _, v := range []float64{m.X0, m.Y0, m.X1, m.Y1} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fieldf(f, "coordinates must be numbers")
			}
		}
		const slack = 0.01 // rounding of the page size
		if m.X0 < 0 || m.Y0 < 0 || m.X1 > p.Width+slack || m.Y1 > p.Height+slack {
			return fieldf(f, "box outside page %d (%.2f x %.2f pt)", m.Page, p.Width, p.Height)
		}
		if m.X1 <= m.X0 || m.Y1 <= m.Y0 {
			return fieldf(f, "empty box (x0 < x1 and y0 < y1 required)")
		}
		if !validCategory(m.Category) {
			return fieldf(f+".category", "unknown category %q", m.Category)
		}
		if !validStatus(m.Status) {
			return fieldf(f+".status", "want suggested, accepted or rejected")
		}
		if m.Reason != "" && !slices.Contains(lim.Reasons, m.Reason) {
			return fieldf(f+".reason", "unknown reason code (allowed: %s)", strings.Join(lim.Reasons, ", "))
		}
		if len(m.ID) > 64 {
			return fieldf(f+".id", "too long")
		}
	}
	return nil
}

// Change is one audited difference between two states.
type Change struct {
	Action   string // accept, reject, unreview, add, delete, edit
	MaskID   string
	Page     int
	Category string
	Reason   string
}

// Merge applies a proposed mask list to the current state and returns the
// new mask list and the changes, for the audit log. Masks without an id
// are new: they get the next id, source manual (or search, when the
// caller says so) and no recognizer or score. A mask with an id must exist
// in the current state; its source, recognizer and score are kept from
// there (a caller cannot relabel a detection), its box, category, status
// and reason are the caller's. A detection cannot be deleted, only
// rejected, so every suggestion stays in the record; drawn and searched
// masks can be.
func Merge(cur *State, in []Mask) ([]Mask, []Change, error) {
	old := make(map[string]Mask, len(cur.Masks))
	for _, m := range cur.Masks {
		old[m.ID] = m
	}
	next := cur.NextID
	seen := make(map[string]bool, len(in))
	out := make([]Mask, 0, len(in))
	var ch []Change
	for i, m := range in {
		f := "masks[" + strconv.Itoa(i) + "]"
		if m.ID == "" {
			next++
			m.ID = "m" + strconv.Itoa(next)
			if m.Source != SourceSearch {
				m.Source = SourceManual
			}
			m.Recognizer, m.Score = "", 0
			if m.Status == Suggested {
				m.Status = Accepted // a reviewer's own mask is accepted
			}
			seen[m.ID] = true
			out = append(out, m)
			ch = append(ch, Change{Action: "add", MaskID: m.ID, Page: m.Page, Category: m.Category, Reason: m.Reason})
			continue
		}
		o, ok := old[m.ID]
		if !ok {
			return nil, nil, fieldf(f+".id", "no mask with this id; new masks have no id")
		}
		if seen[m.ID] {
			return nil, nil, fieldf(f+".id", "given twice")
		}
		seen[m.ID] = true
		m.Source, m.Recognizer, m.Score = o.Source, o.Recognizer, o.Score
		out = append(out, m)
		if m.Page != o.Page || m.Rect() != o.Rect() || m.Category != o.Category || (m.Reason != o.Reason && m.Status == o.Status) {
			ch = append(ch, Change{Action: "edit", MaskID: m.ID, Page: m.Page, Category: m.Category, Reason: m.Reason})
		}
		if m.Status != o.Status {
			a := map[string]string{Accepted: "accept", Rejected: "reject", Suggested: "unreview"}[m.Status]
			ch = append(ch, Change{Action: a, MaskID: m.ID, Page: m.Page, Category: m.Category, Reason: m.Reason})
		}
	}
	for _, o := range cur.Masks {
		if seen[o.ID] {
			continue
		}
		if o.Source != SourceManual && o.Source != SourceSearch {
			return nil, nil, fieldf("masks", "mask %s is a detection: reject it instead of leaving it out", o.ID)
		}
		ch = append(ch, Change{Action: "delete", MaskID: o.ID, Page: o.Page, Category: o.Category})
	}
	cur.NextID = next
	return out, ch, nil
}

// Burn returns the masks apply burns (all but rejected) in the pipeline's
// form (0-based pages).
func Burn(masks []Mask) []contract.Mask {
	out := make([]contract.Mask, 0, len(masks))
	for _, m := range masks {
		if !m.Burned() {
			continue
		}
		out = append(out, contract.Mask{Page: m.Page - 1, Box: m.Rect(), Category: page.Category(m.Category),
			Source: m.Source, Recognizer: m.Recognizer, Score: m.Score})
	}
	return out
}

// Leak is something the appliance's own OCR and detection still read as
// PII in a re-burned output (the re-scan at apply). Expected marks a leak
// under a mask the reviewer rejected: readable on purpose. A leak that is
// not expected makes the job service refuse the apply (the old output
// stays).
type Leak struct {
	Page       int     `json:"page"`
	X0         float64 `json:"x0"`
	Y0         float64 `json:"y0"`
	X1         float64 `json:"x1"`
	Y1         float64 `json:"y1"`
	Category   string  `json:"category"`
	Recognizer string  `json:"recognizer"`
	Score      float32 `json:"score"`
	Expected   bool    `json:"expected"`
}

// Leaks turns what detection found in an output (0-based pages) into
// leaks, marking those that lie mostly under a rejected mask.
func Leaks(found []contract.Mask, masks []Mask) []Leak {
	out := make([]Leak, 0, len(found))
	for _, f := range found {
		l := Leak{Page: f.Page + 1, X0: round2(f.Box.X0), Y0: round2(f.Box.Y0), X1: round2(f.Box.X1), Y1: round2(f.Box.Y1),
			Category: string(f.Category), Recognizer: f.Recognizer, Score: f.Score}
		area := f.Box.Area()
		for _, m := range masks {
			if m.Page == l.Page && m.Status == Rejected && area > 0 && m.Rect().Intersect(f.Box).Area() >= area/2 {
				l.Expected = true
				break
			}
		}
		out = append(out, l)
	}
	return out
}

// Applied is what an apply reports: the state it burned, and what the
// re-scan of the new output still read as PII (Rescanned is false when
// the re-scan is off, OCR is off, or it failed).
type Applied struct {
	State     *State `json:"-"`
	Rescanned bool   `json:"rescanned"`
	Leaks     []Leak `json:"leaks"`
	// Timings are milliseconds of the re-burn (render, burn, encode,
	// write, verify) and of the re-scan.
	Timings map[string]int64 `json:"timings_ms"`
}

// ParseReasons is the review-reasons setting as a list of reason codes,
// without blanks.
func ParseReasons(s string) []string {
	var out []string
	for _, r := range strings.Split(s, ",") {
		if r = strings.TrimSpace(r); r != "" {
			out = append(out, r)
		}
	}
	return out
}
