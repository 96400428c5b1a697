package server

import (
	"github.com/valyala/fasthttp"
)

// extensionRoutes are additions under /v1 that the interface leaves "not
// shown" (docs/behaviour.md: Extensions under /v1); each is described in
// openapi.json. They are kept apart from the spec's routes.
func (s *Server) extensionRoutes() []*route {
	return append([]*route{
		{method: "GET", pattern: "/v1/jobs", auth: true, h: s.listJobs},
		{method: "GET", pattern: "/v1/documents/{doc_id}/report", auth: true, h: s.report},
	}, s.reviewRoutes()...)
}

// report serves GET /v1/documents/{doc_id}/report: what redaction did to
// one document (counts, categories, sources, OCR per page, times; no
// text), while its output exists. Unknown ids, other accounts' documents
// and documents without an output give the same 404.
func (s *Server) report(r *reqCtx) error {
	id, err := pathID(r, 0)
	if err != nil {
		return err
	}
	rep, err := s.svc.Report(r.ctx, r.acct, id)
	if err != nil {
		return err
	}
	writeJSON(r, fasthttp.StatusOK, rep)
	return nil
}
