package server

import (
	"github.com/valyala/fasthttp"

	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/internal/qparam"
)

// listLimit is the limit parameter of GET /v1/jobs.
var listLimit = qparam.Int{Name: "limit", Min: 1, Max: jobs.MaxListLimit}

// jobListBody is the answer of GET /v1/jobs.
type jobListBody struct {
	Jobs       []jobBody `json:"jobs"`
	NextCursor *string   `json:"next_cursor"`
}

// listJobs serves GET /v1/jobs?limit=N&cursor=C&status=S: the caller's
// jobs, newest first. Unknown or repeated parameters are refused, like
// unknown form fields, so a misspelt "status" cannot silently list
// everything.
func (s *Server) listJobs(r *reqCtx) error {
	req := jobs.ListJobsRequest{Limit: jobs.DefaultListLimit}
	seen := map[string]bool{}
	for k, v := range r.QueryArgs().All() {
		name := string(k)
		if seen[name] {
			return invalidf(truncName(name), "given more than once")
		}
		seen[name] = true
		switch name {
		case "limit":
			n, err := listLimit.Parse(v)
			if err != nil {
				return paramError(err)
			}
			req.Limit = int(n)
		case "cursor":
			if len(v) == 0 {
				return invalidf("cursor", "empty; omit it for the first page")
			}
			req.Cursor = string(v)
		case "status":
			if len(v) == 0 {
				return invalidf("status", "empty; omit it for every status")
			}
			req.Status = jobs.Status(v)
		default:
			return invalidf(truncName(name), "unknown query parameter (allowed: limit, cursor, status)")
		}
	}
	list, err := s.svc.ListJobs(r.ctx, r.acct, req)
	if err != nil {
		return err
	}
	body := jobListBody{Jobs: make([]jobBody, len(list.Jobs))}
	for i, j := range list.Jobs {
		body.Jobs[i] = toJobBody(j)
	}
	if list.NextCursor != "" {
		body.NextCursor = &list.NextCursor
	}
	writeJSON(r, fasthttp.StatusOK, body)
	return nil
}

// truncName keeps a caller-chosen parameter name short and printable in an
// error message.
func truncName(s string) string {
	out := make([]rune, 0, 40)
	for _, c := range s {
		if len(out) == 40 {
			break
		}
		if c < 0x20 || c == 0x7f {
			c = '?'
		}
		out = append(out, c)
	}
	return string(out)
}
