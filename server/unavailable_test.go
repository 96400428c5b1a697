package server

import (
	"testing"

	"github.com/valyala/fasthttp"

	"github.com/redactd/redactd/engine/jobs"
)

// TestUnavailableRetryAfter: every 503 says when to try again; a handler
// that set its own Retry-After keeps it; other errors get none.
func TestUnavailableRetryAfter(t *testing.T) {
	s := &Server{}
	for _, tc := range []struct {
		ae     *APIError
		preset string
		want   string
	}{
		{mapError(&jobs.Error{Kind: jobs.ErrUnavailable, Msg: "storage temporarily unavailable"}), "", unavailableRetryAfter},
		{mapError(jobs.ErrUnavailable), "", unavailableRetryAfter},
		{&APIError{Status: fasthttp.StatusServiceUnavailable, Code: CodeUnavailable, Message: "Not ready"}, "", unavailableRetryAfter},
		{&APIError{Status: fasthttp.StatusServiceUnavailable, Code: CodeUnavailable, Message: "x"}, "1", "1"},
		{errNotFound, "", ""},
		{errInternal, "", ""},
	} {
		r := &reqCtx{RequestCtx: &fasthttp.RequestCtx{}}
		if tc.preset != "" {
			r.Response.Header.Set("Retry-After", tc.preset)
		}
		s.writeError(r, tc.ae)
		if got := string(r.Response.Header.Peek("Retry-After")); got != tc.want || r.Response.StatusCode() != tc.ae.Status {
			t.Errorf("%d %q: Retry-After %q (status %d); want %q", tc.ae.Status, tc.ae.Message, got, r.Response.StatusCode(), tc.want)
		}
	}
}
