package server

import (
	"sort"
	"strings"
)

// route is one method + path pattern. Patterns are literal segments and
// {name} placeholders matching one non-empty segment; the pattern is also
// the metrics and log label, so raw paths (with ids) never become labels.
type route struct {
	method  string
	pattern string
	segs    []string
	auth    bool // requires X-API-Key
	h       func(*reqCtx) error
}

// UploadPrefix is where direct-upload URLs live, outside /v1 as the spec
// asks.
const UploadPrefix = "/uploads/"

func (s *Server) routeTable() []*route {
	rs := []*route{
		{method: "GET", pattern: "/v1/me", auth: true, h: s.me},
		{method: "POST", pattern: "/v1/jobs", auth: true, h: s.createJob},
		{method: "POST", pattern: "/v1/jobs/init", auth: true, h: s.initJob},
		{method: "POST", pattern: "/v1/jobs/{job_id}/commit", auth: true, h: s.commit},
		{method: "GET", pattern: "/v1/jobs/{job_id}", auth: true, h: s.getJob},
		{method: "DELETE", pattern: "/v1/jobs/{job_id}", auth: true, h: s.deleteJob},
		{method: "GET", pattern: "/v1/documents/{doc_id}/output", auth: true, h: s.output},
		{method: "GET", pattern: "/v1/demo", h: s.demo},
		{method: "GET", pattern: "/v1/demo/sample.pdf", h: s.demoPDF},
		{method: "GET", pattern: "/v1/openapi.json", h: s.openAPI},
		{method: "PUT", pattern: UploadPrefix + "{doc_id}", h: s.putUpload},
		{method: "GET", pattern: "/healthz", h: s.healthz},
		{method: "GET", pattern: "/readyz", h: s.readyz},
	}
	rs = append(rs, s.extensionRoutes()...)
	for _, r := range rs {
		r.segs = strings.Split(strings.TrimPrefix(r.pattern, "/"), "/")
	}
	return rs
}

// Route is a registered method and pattern, for documentation and tests.
type Route struct{ Method, Pattern string }

// Routes lists the registered routes.
func (s *Server) Routes() []Route {
	out := make([]Route, len(s.routes))
	for i, r := range s.routes {
		out[i] = Route{r.method, r.pattern}
	}
	return out
}

// match finds the route for method and path. When the path matches but
// the method does not, allowed lists the methods that would (for 405).
// Literal segments win over placeholders, so /v1/jobs/init is never taken
// as a job id.
func (s *Server) match(method, path string) (rt *route, params []string, allowed string) {
	if len(path) > 1024 {
		return nil, nil, ""
	}
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	if method == "HEAD" {
		method = "GET" // fasthttp drops the body of HEAD responses
	}
	var methods []string
	best := -1
	for _, r := range s.routes {
		lit, p, ok := matchSegs(r.segs, segs)
		if !ok {
			continue
		}
		if r.method != method {
			methods = append(methods, r.method)
			if r.method == "GET" {
				methods = append(methods, "HEAD")
			}
			continue
		}
		if lit > best {
			rt, params, best = r, p, lit
		}
	}
	if rt != nil {
		return rt, params, ""
	}
	sort.Strings(methods)
	return nil, nil, strings.Join(dedupe(methods), ", ")
}

// matchSegs reports whether path segments fit a pattern, how many
// literal segments matched and the placeholder values.
func matchSegs(pat, segs []string) (lit int, params []string, ok bool) {
	if len(pat) != len(segs) {
		return 0, nil, false
	}
	for i, p := range pat {
		if strings.HasPrefix(p, "{") {
			if segs[i] == "" {
				return 0, nil, false
			}
			params = append(params, segs[i])
			continue
		}
		if p != segs[i] {
			return 0, nil, false
		}
		lit++
	}
	return lit, params, true
}

func dedupe(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
