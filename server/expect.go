package server

import (
	"context"
	"fmt"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/redactd/redactd/engine/jobs"
)

// Expect: 100-continue. A client that asks before sending a large body
// gets 100 Continue only once everything that can be decided from the
// headers passed: framing, path, route, key and rate limit (prepare), and
// for bodies the declared size and, for direct uploads, the upload token
// (checkDeclaredBody). Otherwise the final error answer comes instead and
// the connection is closed, so the body is never sent.

// preparedKey holds, in the fasthttp request's user values, the outcome
// of prepare for a request that expect let continue, so handle does not
// authenticate (and charge the rate limit) twice.
const preparedKey = "redactd.prepared"

type prepared struct {
	start  time.Time
	id     string
	rt     *route
	params []string
	acct   *jobs.Account
}

// expect is fasthttp's ExpectHandler: it returns 100 to let the body come,
// or the status of the error answer it wrote.
func (s *Server) expect(fctx *fasthttp.RequestCtx) (status int) {
	start := time.Now()
	r := &reqCtx{RequestCtx: fctx, ctx: context.Background(), id: requestID(fctx.Request.Header.Peek("X-Request-Id")), route: "unmatched"}
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("panic in expect", "request_id", r.id, "route", r.route, "panic", fmt.Sprint(v))
			status = s.refuse(r, start, errInternal)
		}
	}()
	rt, err := s.prepare(r)
	if err == nil {
		err = s.checkDeclaredBody(r)
	}
	if err != nil {
		return s.refuse(r, start, err)
	}
	fctx.SetUserValue(preparedKey, &prepared{start: start, id: r.id, rt: rt, params: r.params, acct: r.acct})
	return fasthttp.StatusContinue
}

// refuse writes the error answer of a request whose body is not wanted
// and records it; fasthttp closes the connection after it.
func (s *Server) refuse(r *reqCtx, start time.Time, err error) int {
	ae := mapError(err)
	if ae.Status >= 500 {
		s.log.Error("request failed", "request_id", r.id, "route", r.route, "err", err)
	}
	r.Response.Header.Set("X-Request-Id", r.id)
	s.writeError(r, ae)
	r.consumed = true
	s.record(r, start)
	return ae.Status
}

// checkDeclaredBody refuses, from the headers alone, a body its route
// would refuse: above the route's size limit by Content-Length, or a
// direct upload without a valid token or with a wrong blob type.
func (s *Server) checkDeclaredBody(r *reqCtx) error {
	cl := int64(r.Request.Header.ContentLength())
	switch r.route {
	case "/v1/jobs":
		if cl > s.lim.MaxBodyBytes {
			return tooLargef("request body exceeds the limit of %d bytes", s.lim.MaxBodyBytes)
		}
	case "/v1/jobs/init":
		if cl > maxInitBodyBytes {
			return tooLargef("request body exceeds the limit of %d bytes", maxInitBodyBytes)
		}
	case UploadPrefix + "{doc_id}":
		token := string(r.QueryArgs().Peek("token"))
		if token == "" {
			return errUnauthorized
		}
		if err := s.svc.CheckUploadToken(r.param(0), token); err != nil {
			return err
		}
		if err := checkBlobType(&r.Request.Header); err != nil {
			return err
		}
		if cl > s.lim.MaxFileBytes {
			return tooLargef("file exceeds the limit of %d bytes", s.lim.MaxFileBytes)
		}
	}
	return nil
}
