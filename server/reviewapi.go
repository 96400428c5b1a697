package server

import (
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/valyala/fasthttp"

	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/engine/review"
)

// The review extension (docs/behaviour.md: The review editor): the review state of a
// studio document, apply, the audit log, and review links for the
// editor under /review/ (server/review).

// maxReviewBodyBytes bounds a PUT of a review state: 20 000 masks of about
// 200 bytes each, with room.
const maxReviewBodyBytes = 8 << 20

func (s *Server) reviewRoutes() []*route {
	return []*route{
		{method: "GET", pattern: "/v1/documents/{doc_id}/masks", auth: true, h: s.getMasks},
		{method: "PUT", pattern: "/v1/documents/{doc_id}/masks", auth: true, h: s.putMasks},
		{method: "POST", pattern: "/v1/documents/{doc_id}/apply", auth: true, h: s.apply},
		{method: "GET", pattern: "/v1/documents/{doc_id}/audit", auth: true, h: s.audit},
		{method: "POST", pattern: "/v1/jobs/{job_id}/review-link", auth: true, h: s.reviewLink},
	}
}

// reviewer is the job service's review side, or a 404 when the service
// has none.
func (s *Server) reviewer() (jobs.Reviewer, error) {
	if s.rv == nil {
		return nil, errNotFound
	}
	return s.rv, nil
}

// reviewTarget is what every /v1 review route starts with: the service's
// review side and the id in the path.
func (s *Server) reviewTarget(r *reqCtx) (jobs.Reviewer, string, error) {
	rv, err := s.reviewer()
	if err != nil {
		return nil, "", err
	}
	id, err := pathID(r, 0)
	if err != nil {
		return nil, "", err
	}
	return rv, id, nil
}

// apiActor names the caller of a /v1 review route in the audit log: the
// account, never the key.
func apiActor(r *reqCtx) string { return "api:" + r.acct.ID }

func (s *Server) getMasks(r *reqCtx) error {
	rv, id, err := s.reviewTarget(r)
	if err != nil {
		return err
	}
	st, err := rv.ReviewState(r.ctx, r.acct, id)
	if err != nil {
		return err
	}
	writeReviewState(r, st)
	return nil
}

// writeReviewState answers with the state and its version as ETag.
func writeReviewState(r *reqCtx, st *review.State) {
	r.Response.Header.Set("ETag", strconv.Quote(strconv.FormatInt(st.Version, 10)))
	r.Response.Header.Set("Cache-Control", "no-store")
	writeJSON(r, fasthttp.StatusOK, st)
}

// ParseIfMatch reads If-Match as a review version: a number, quoted or
// not ("3", 3, W/"3").
func ParseIfMatch(v []byte) (int64, error) {
	s := strings.TrimSpace(string(v))
	if s == "" {
		return 0, &APIError{Status: fasthttp.StatusPreconditionRequired, Code: CodePreconditionRequired, Message: "If-Match: required (the version from GET .../masks)"}
	}
	s = strings.TrimPrefix(s, "W/")
	if uq, err := strconv.Unquote(s); err == nil {
		s = uq
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 {
		return 0, invalidf("If-Match", "must be a review state version")
	}
	return n, nil
}

// ParseMasks reads a PUT body: {"masks": [...]}, nothing else.
func ParseMasks(raw []byte) ([]review.Mask, error) {
	var body struct {
		Masks *[]review.Mask `json:"masks"`
	}
	if err := decodeStrict(raw, &body); err != nil {
		return nil, invalidf("body", "%s", jsonProblem(err, `a JSON object {"masks": [...]}`))
	}
	if body.Masks == nil {
		return nil, invalidf("masks", "required")
	}
	for i, m := range *body.Masks {
		if len(m.Reason) > 64 || len(m.Category) > 64 || len(m.Source) > 16 || len(m.Status) > 16 {
			return nil, invalidf("masks["+strconv.Itoa(i)+"]", "a field is too long")
		}
	}
	return *body.Masks, nil
}

func (s *Server) putMasks(r *reqCtx) error {
	rv, id, err := s.reviewTarget(r)
	if err != nil {
		return err
	}
	version, err := ParseIfMatch(r.Request.Header.Peek("If-Match"))
	if err != nil {
		return err
	}
	raw, err := s.readJSONBody(r, maxReviewBodyBytes)
	if err != nil {
		return err
	}
	masks, err := ParseMasks(raw)
	if err != nil {
		return err
	}
	st, err := rv.PutReview(r.ctx, r.acct, id, version, masks, apiActor(r))
	if err != nil {
		return err
	}
	writeReviewState(r, st)
	return nil
}

// readJSONBody reads a JSON request body of at most max bytes.
func (s *Server) readJSONBody(r *reqCtx, max int64) ([]byte, error) {
	if ct := r.Request.Header.ContentType(); len(ct) > 0 && !bytes.Contains(bytes.ToLower(ct), []byte("json")) {
		return nil, invalidf("Content-Type", "must be application/json")
	}
	body, err := bodyReader(r, max)
	if err != nil {
		return nil, err
	}
	lr := &limitReader{r: body, n: max}
	raw, err := io.ReadAll(lr)
	if err != nil {
		return nil, bodyError(lr, "body", "could not be read")
	}
	r.consumed = true
	return raw, nil
}

// applyBody answers POST .../apply.
type applyBody struct {
	DocumentID string `json:"document_id"`
	Status     string `json:"status"`
	Version    int64  `json:"version"`
	Burned     int    `json:"masks_burned"`
	// Rescanned and Leaks are the re-scan of the new output with the
	// appliance's OCR and detection: what it still reads as PII.
	Rescanned bool          `json:"rescanned"`
	Leaks     []review.Leak `json:"leaks"`
	// TimingsMS: re-burn and re-scan, in milliseconds.
	TimingsMS map[string]int64 `json:"timings_ms"`
}

func (s *Server) apply(r *reqCtx) error {
	rv, id, err := s.reviewTarget(r)
	if err != nil {
		return err
	}
	ap, err := rv.ApplyReview(r.ctx, r.acct, id, apiActor(r))
	if err != nil {
		return err
	}
	writeJSON(r, fasthttp.StatusOK, applyResult(ap))
	return nil
}

func applyResult(ap *review.Applied) applyBody {
	n := 0
	for _, m := range ap.State.Masks {
		if m.Burned() {
			n++
		}
	}
	return applyBody{DocumentID: ap.State.DocumentID, Status: string(jobs.StatusRedacted), Version: ap.State.Version, Burned: n,
		Rescanned: ap.Rescanned, Leaks: ap.Leaks, TimingsMS: ap.Timings}
}

// auditBody is GET .../audit as JSON.
type auditBody struct {
	Entries []review.Entry `json:"entries"`
}

func (s *Server) audit(r *reqCtx) error {
	rv, id, err := s.reviewTarget(r)
	if err != nil {
		return err
	}
	ents, err := rv.ReviewAudit(r.ctx, r.acct, id)
	if err != nil {
		return err
	}
	r.Response.Header.Set("Vary", "Accept")
	if wantsCSV(r.Request.Header.Peek("Accept")) {
		var buf bytes.Buffer
		review.WriteCSV(&buf, ents)
		r.SetStatusCode(fasthttp.StatusOK)
		r.SetContentType("text/csv; charset=utf-8")
		r.Response.Header.Set("Content-Disposition", `attachment; filename="redaction-log-`+id+`.csv"`)
		r.SetBody(buf.Bytes())
		return nil
	}
	writeJSON(r, fasthttp.StatusOK, auditBody{Entries: ents})
	return nil
}

// wantsCSV reports whether Accept prefers text/csv over JSON (a plain
// listing of text/csv without application/json before it).
func wantsCSV(accept []byte) bool {
	a := strings.ToLower(string(accept))
	c := strings.Index(a, "text/csv")
	if c < 0 {
		return false
	}
	j := strings.Index(a, "application/json")
	return j < 0 || c < j
}

// reviewLinkRequest is the optional body of POST .../review-link.
type reviewLinkRequest struct {
	Role     string `json:"role"`     // reviewer (default) or viewer
	Reviewer string `json:"reviewer"` // who the link is for, as the audit log names them
	Minutes  int    `json:"minutes"`  // validity; default review-link-ttl
}

type reviewLinkBody struct {
	URL       string `json:"url"`
	ExpiresAt string `json:"expires_at"`
	Role      string `json:"role"`
}

// LinkIssuer creates single-use review links (server/review.Editor).
type LinkIssuer interface {
	CreateLink(ctx context.Context, acct *jobs.Account, jobID, role, reviewer string, ttl time.Duration) (path string, expires time.Time, err error)
}

// maxLinkMinutes bounds a link's validity: a day.
const maxLinkMinutes = 24 * 60

// ParseReviewLink reads the optional body of POST .../review-link.
func ParseReviewLink(raw []byte) (reviewLinkRequest, error) {
	var req reviewLinkRequest
	if len(bytes.TrimSpace(raw)) > 0 {
		if err := decodeStrict(raw, &req); err != nil {
			return req, invalidf("body", "%s", jsonProblem(err, "a JSON object"))
		}
	}
	switch req.Role {
	case "":
		req.Role = "reviewer"
	case "reviewer", "viewer":
	default:
		return req, invalidf("role", "want reviewer or viewer")
	}
	if req.Minutes < 0 || req.Minutes > maxLinkMinutes {
		return req, invalidf("minutes", "must be between 1 and %d", maxLinkMinutes)
	}
	if len(req.Reviewer) > 100 || strings.IndexFunc(req.Reviewer, func(c rune) bool { return !unicode.IsPrint(c) }) >= 0 {
		return req, invalidf("reviewer", "at most 100 printable characters")
	}
	return req, nil
}

func (s *Server) reviewLink(r *reqCtx) error {
	rv, err := s.reviewer()
	if err != nil {
		return err
	}
	if s.links == nil {
		return errNotFound
	}
	id, err := pathID(r, 0)
	if err != nil {
		return err
	}
	raw, err := s.readJSONBody(r, 4<<10)
	if err != nil {
		return err
	}
	req, err := ParseReviewLink(raw)
	if err != nil {
		return err
	}
	if _, err := rv.StudioJob(r.ctx, r.acct, id); err != nil {
		return err
	}
	ttl := s.cfg.ReviewLinkTTL
	if req.Minutes > 0 {
		ttl = time.Duration(req.Minutes) * time.Minute
	}
	path, exp, err := s.links.CreateLink(r.ctx, r.acct, id, req.Role, req.Reviewer, ttl)
	if err != nil {
		return err
	}
	r.Response.Header.Set("Cache-Control", "no-store")
	writeJSON(r, fasthttp.StatusOK, reviewLinkBody{URL: s.PublicURL() + path, ExpiresAt: exp.UTC().Format(time.RFC3339), Role: req.Role})
	return nil
}
