package review

import (
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"unicode"

	ereview "github.com/redactd/redactd/engine/review"
)

// Job-wide tools: word search, "redact all" and "exclude all" across the
// job's documents, counts and the consistency warnings.

// hit is one found word.
type hit struct {
	Doc  string  `json:"doc"`
	Page int     `json:"page"`
	X0   float64 `json:"x0"`
	Y0   float64 `json:"y0"`
	X1   float64 `json:"x1"`
	Y1   float64 `json:"y1"`
}

// norm folds a word for matching: lower case, surrounding punctuation
// dropped.
func norm(s string) string {
	return strings.ToLower(strings.TrimFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
}

// find returns the boxes of every occurrence of q (one or more words, in
// reading order on one page) in ws.
func find(docID string, ws []ereview.Word, q string) []hit {
	terms := strings.Fields(q)
	for i := range terms {
		terms[i] = norm(terms[i])
	}
	if len(terms) == 0 {
		return nil
	}
	var out []hit
	for i := 0; i+len(terms) <= len(ws); i++ {
		ok := true
		for k, t := range terms {
			w := ws[i+k]
			if w.Page != ws[i].Page || norm(w.Text) != t {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		h := hit{Doc: docID, Page: ws[i].Page, X0: ws[i].X0, Y0: ws[i].Y0, X1: ws[i].X1, Y1: ws[i].Y1}
		for _, w := range ws[i+1 : i+len(terms)] {
			h.X0, h.Y0, h.X1, h.Y1 = min(h.X0, w.X0), min(h.Y0, w.Y0), max(h.X1, w.X1), max(h.Y1, w.Y1)
		}
		out = append(out, h)
	}
	return out
}

func (ed *Editor) search(r *req, jobID string) {
	// A viewer sees the burned layer only: searching the words would tell
	// what lies under the masks.
	if !ed.mayEdit(r) {
		return
	}
	j, ok := ed.sameJob(r, jobID)
	if !ok {
		return
	}
	q := string(r.QueryArgs().Peek("q"))
	if len(q) > 200 || strings.TrimSpace(q) == "" {
		ed.fail(r, http.StatusBadRequest, "q: 1 to 200 characters")
		return
	}
	hits := []hit{}
	for _, d := range j.Documents {
		ws, err := ed.svc.ReviewWords(r.ctx, r.g.Account, d.ID)
		if err != nil {
			continue // not reviewable (error, in progress)
		}
		hits = append(hits, find(d.ID, ws, q)...)
	}
	ed.json(r, http.StatusOK, map[string]any{"hits": hits})
}

// overlap is the share of b's area that a covers.
func overlap(a ereview.Mask, h hit) float64 {
	x0, y0, x1, y1 := max(a.X0, h.X0), max(a.Y0, h.Y0), min(a.X1, h.X1), min(a.Y1, h.Y1)
	if x1 <= x0 || y1 <= y0 {
		return 0
	}
	area := (h.X1 - h.X0) * (h.Y1 - h.Y0)
	if area <= 0 {
		return 0
	}
	return (x1 - x0) * (y1 - y0) / area
}

// terms applies "redact all" (a search mask over every occurrence not
// already under a burned mask) or "exclude all" (reject every mask over
// an occurrence) to every reviewable document of the job, each through
// the job service's PutReview at its current version.
func (ed *Editor) terms(r *req, jobID string) {
	if !ed.mayEdit(r) {
		return
	}
	j, ok := ed.sameJob(r, jobID)
	if !ok {
		return
	}
	raw, ok := ed.body(r)
	if !ok {
		return
	}
	var in struct {
		Q        string `json:"q"`
		Action   string `json:"action"` // redact or exclude
		Category string `json:"category"`
		Reason   string `json:"reason"`
	}
	if err := json.Unmarshal(raw, &in); err != nil || strings.TrimSpace(in.Q) == "" || len(in.Q) > 200 ||
		(in.Action != "redact" && in.Action != "exclude") {
		ed.fail(r, http.StatusBadRequest, `body: want {"q", "action": "redact"|"exclude", "category", "reason"}`)
		return
	}
	if in.Category == "" {
		in.Category = "Person"
	}
	changed := map[string]int64{}
	for _, d := range j.Documents {
		ws, err := ed.svc.ReviewWords(r.ctx, r.g.Account, d.ID)
		if err != nil {
			continue
		}
		hits := find(d.ID, ws, in.Q)
		if len(hits) == 0 {
			continue
		}
		st, err := ed.svc.ReviewState(r.ctx, r.g.Account, d.ID)
		if err != nil {
			continue
		}
		masks, n := applyTerm(st.Masks, hits, in.Action, in.Category, in.Reason)
		if n == 0 {
			continue
		}
		st, err = ed.svc.PutReview(r.ctx, r.g.Account, d.ID, st.Version, masks, r.g.Actor)
		if err != nil {
			ed.engineFail(r, err)
			return
		}
		changed[d.ID] = st.Version
	}
	ed.json(r, http.StatusOK, map[string]any{"versions": changed})
}

// applyTerm returns masks with the action applied to hits, and how many
// masks it added or changed.
func applyTerm(masks []ereview.Mask, hits []hit, action, category, reason string) ([]ereview.Mask, int) {
	out := append([]ereview.Mask(nil), masks...)
	n := 0
	for _, h := range hits {
		covered := false
		for i := range out {
			m := &out[i]
			if m.Page != h.Page || overlap(*m, h) < 0.5 {
				continue
			}
			if action == "exclude" && m.Status != ereview.Rejected {
				m.Status, m.Reason = ereview.Rejected, reason
				n++
			}
			covered = covered || m.Burned()
		}
		if action == "redact" && !covered {
			out = append(out, ereview.Mask{Page: h.Page, X0: h.X0, Y0: h.Y0, X1: h.X1, Y1: h.Y1, Category: category,
				Source: ereview.SourceSearch, Status: ereview.Accepted, Reason: reason})
			n++
		}
	}
	return out, n
}

// counts is the per-job tally of masks.
type counts struct {
	ByStatus   map[string]int            `json:"by_status"`
	ByCategory map[string]map[string]int `json:"by_category"` // category → status → n
	BySource   map[string]map[string]int `json:"by_source"`
}

// warning names a word masked in one place and readable in another.
type warning struct {
	Term     string `json:"term"`
	Masked   int    `json:"masked"`
	Unmasked int    `json:"unmasked"`
}

// summary counts the job's masks (suggested, accepted, rejected, added:
// by status, category and source) and finds inconsistent terms: a word
// of three or more letters or digits under a burned mask somewhere and
// under none elsewhere in the job.
func (ed *Editor) summary(r *req, jobID string) {
	j, ok := ed.sameJob(r, jobID)
	if !ok {
		return
	}
	c := counts{ByStatus: map[string]int{}, ByCategory: map[string]map[string]int{}, BySource: map[string]map[string]int{}}
	masked, unmasked := map[string]int{}, map[string]int{}
	for _, d := range j.Documents {
		st, err := ed.svc.ReviewState(r.ctx, r.g.Account, d.ID)
		if err != nil {
			continue
		}
		for _, m := range st.Masks {
			status := m.Status
			if m.Source == ereview.SourceManual || m.Source == ereview.SourceSearch {
				c.ByStatus["added"]++
			}
			c.ByStatus[status]++
			inc(c.ByCategory, m.Category, status)
			inc(c.BySource, m.Source, status)
		}
		if r.g.Role != RoleReviewer {
			continue // a viewer is not shown words of the document
		}
		ws, err := ed.svc.ReviewWords(r.ctx, r.g.Account, d.ID)
		if err != nil {
			continue
		}
		tallyWords(st.Masks, ws, masked, unmasked)
	}
	warnings := []warning{}
	for t, n := range masked {
		if u := unmasked[t]; u > 0 {
			warnings = append(warnings, warning{Term: t, Masked: n, Unmasked: u})
		}
	}
	sort.Slice(warnings, func(a, b int) bool { return warnings[a].Term < warnings[b].Term })
	ed.json(r, http.StatusOK, map[string]any{"job_id": j.ID, "counts": c, "warnings": warnings})
}

func inc(m map[string]map[string]int, k, status string) {
	if m[k] == nil {
		m[k] = map[string]int{}
	}
	m[k][status]++
}

// tallyWords counts, per folded word, how often its centre is under a
// burned mask and how often not.
func tallyWords(masks []ereview.Mask, ws []ereview.Word, masked, unmasked map[string]int) {
	for _, w := range ws {
		t := norm(w.Text)
		if len([]rune(t)) < 3 {
			continue
		}
		cx, cy := (w.X0+w.X1)/2, (w.Y0+w.Y1)/2
		under := false
		for _, m := range masks {
			if m.Page == w.Page && m.Burned() && cx >= m.X0 && cx <= m.X1 && cy >= m.Y0 && cy <= m.Y1 {
				under = true
				break
			}
		}
		if under {
			masked[t]++
		} else {
			unmasked[t]++
		}
	}
}
