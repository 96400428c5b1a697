// Package server is redactd's HTTP layer: routing, authentication, rate
// limiting, request parsing and validation, error bodies, request ids, the
// direct-upload endpoint, health, metrics and the OpenAPI document. It
// calls only jobs.Service and never touches storage itself.
package server

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/redactd/redactd/engine/jobs"
	reviewstate "github.com/redactd/redactd/engine/review"
	"github.com/redactd/redactd/server/review"
)

// Timeouts of the listener. A request's line and headers must arrive
// within header-read-timeout (fasthttp's ReadTimeout, applied from the
// connection's start or a kept-alive connection's next first byte);
// HeaderReceived then gives the body bodyReadTimeout, generous because a
// direct upload of max-upload-bytes over a slow link streams through one
// request.
const (
	bodyReadTimeout = 10 * time.Minute
	writeTimeout    = 10 * time.Minute
	idleTimeout     = 2 * time.Minute
	// defaultHeaderTimeout is header-read-timeout when the setting is
	// unset, and bounds the metrics server's whole exchange.
	defaultHeaderTimeout = 10 * time.Second
	// drainLimit is how much unread request body is drained after a
	// handler before giving up on the connection (it is then closed,
	// since the rest of the body would be read as the next request).
	drainLimit = 64 << 10
)

// Server serves the /v1 API over fasthttp.
type Server struct {
	cfg       Settings
	svc       jobs.Service
	log       *slog.Logger
	lim       Limits
	rl        *limiter
	authFail  *limiter // failed authentications per client address and key prefix
	proxies   proxies  // trusted-proxies
	logSample *logSampler
	routes    []*route
	// rv is the job service's review side; links issues review links and
	// editor serves /review/ (server/review). All nil without one.
	rv        jobs.Reviewer
	links     LinkIssuer
	editor    func(*fasthttp.RequestCtx)
	srv       *fasthttp.Server
	publicURL atomic.Pointer[string]
	metrics   *httpMetrics
}

// New builds a server for svc and its review side rv (the review routes
// and the editor; nil: they answer 404), with its metrics on
// cfg.Registerer. Nothing listens until Serve.
func New(cfg Settings, svc jobs.Service, rv jobs.Reviewer, log *slog.Logger) (*Server, error) {
	if log == nil {
		log = slog.Default()
	}
	m, err := newHTTPMetrics(cfg.Registerer)
	if err != nil {
		return nil, fmt.Errorf("server: metrics: %w", err)
	}
	s := &Server{
		metrics:   m,
		cfg:       cfg,
		svc:       svc,
		rv:        rv,
		log:       log,
		lim:       LimitsFrom(cfg),
		rl:        newLimiter(cfg.RateLimit, cfg.RateBurst, nil),
		authFail:  newLimiter(cfg.AuthFailRate, cfg.AuthFailBurst, nil),
		logSample: newLogSampler(),
	}
	s.routes = s.routeTable()
	if rv != nil {
		ed := review.New(rv, review.Options{
			LinkTTL: cfg.ReviewLinkTTL, Idle: cfg.ReviewIdle, MaxAge: cfg.ReviewMaxAge,
			Reasons: reviewstate.ParseReasons(cfg.ReviewReasons), SecureCookie: strings.HasPrefix(strings.ToLower(cfg.PublicURL), "https://"),
			Log: log, Previewer: cfg.Previewer,
		})
		s.links, s.editor = ed, ed.Handle
	}
	// config.Validate has parsed it already; an error cannot happen here.
	s.proxies, _ = ParseTrustedProxies(cfg.TrustedProxies)
	if cfg.PublicURL != "" {
		u := strings.TrimRight(cfg.PublicURL, "/")
		s.publicURL.Store(&u)
	}
	s.srv = &fasthttp.Server{
		Handler: s.handle,
		Name:    "redactd",
		// Bodies are streamed: the handler gets the request after the
		// headers and reads the body itself, enforcing the configured
		// limits (fasthttp's MaxRequestBodySize is only the threshold above
		// which it streams instead of buffering).
		StreamRequestBody:            true,
		MaxRequestBodySize:           int(min(cfg.MaxRequestBytes, int64(^uint(0)>>1))),
		DisablePreParseMultipartForm: true,
		ReadBufferSize:               16 << 10, // request line + headers
		ReadTimeout:                  headerTimeout(cfg),
		HeaderReceived: func(*fasthttp.RequestHeader) fasthttp.RequestConfig {
			return fasthttp.RequestConfig{ReadTimeout: bodyReadTimeout}
		},
		WriteTimeout:          writeTimeout,
		IdleTimeout:           idleTimeout,
		NoDefaultContentType:  true,
		SecureErrorLogMessage: true,
		CloseOnShutdown:       true,
		Logger:                fasthttpLogger{log},
		ErrorHandler:          s.connError,
		ExpectHandler:         s.expect,
	}
	return s, nil
}

// headerTimeout is header-read-timeout, or its default when unset.
func headerTimeout(cfg Settings) time.Duration {
	if cfg.HeaderReadTimeout > 0 {
		return cfg.HeaderReadTimeout
	}
	return defaultHeaderTimeout
}

// Serve accepts connections on ln until Shutdown. Without a configured
// public-url, upload_url and redacted_pdf_path are built from ln's
// address.
func (s *Server) Serve(ln net.Listener) error {
	if s.publicURL.Load() == nil {
		u := "http://" + listenHost(s.cfg.Listen, ln.Addr())
		s.publicURL.CompareAndSwap(nil, &u)
	}
	return s.srv.Serve(newCapListener(lingerListener{ln}, s.cfg.MaxConnsPerAddress, s.proxies, s.metrics))
}

// Shutdown stops accepting connections and waits for in-flight requests
// until ctx is done.
func (s *Server) Shutdown(ctx context.Context) error {
	return s.srv.ShutdownWithContext(ctx)
}

// PublicURL is the base of the absolute URLs the server hands out.
func (s *Server) PublicURL() string {
	if p := s.publicURL.Load(); p != nil {
		return *p
	}
	return "http://" + s.cfg.Listen
}

// listenHost picks the host:port for the default public URL: the
// configured listen address, with the real port when it was 0, and a
// loopback host when it was unspecified.
func listenHost(listen string, addr net.Addr) string {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return addr.String()
	}
	if ta, ok := addr.(*net.TCPAddr); ok && (port == "0" || port == "") {
		port = strconv.Itoa(ta.Port)
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

// reqCtx is one request being served.
type reqCtx struct {
	*fasthttp.RequestCtx
	ctx    context.Context
	id     string
	route  string
	params []string // values of the route's {placeholders}, in order
	acct   *jobs.Account
	code   string // error code, for logs and metrics
	// limitedBy names the bucket of a 429 (a key hash, a client address),
	// for sampling its log lines; never logged itself.
	limitedBy string
	consumed  bool // the request body was read to its end
}

// param returns the i-th path parameter.
func (r *reqCtx) param(i int) string { return r.params[i] }

// handle is the root handler: request id, framing and path checks,
// routing, auth, rate limit, the route's handler, error body, metrics and
// the access log. A request that went through expect (Expect:
// 100-continue) arrives prepared: its checks already passed.
func (s *Server) handle(fctx *fasthttp.RequestCtx) {
	start := time.Now()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := &reqCtx{RequestCtx: fctx, ctx: ctx, route: "unmatched"}
	var rt *route
	if p, ok := fctx.UserValue(preparedKey).(*prepared); ok {
		fctx.RemoveUserValue(preparedKey)
		start, r.id, r.route, r.params, r.acct, rt = p.start, p.id, p.rt.pattern, p.params, p.acct, p.rt
	} else {
		r.id = requestID(fctx.Request.Header.Peek("X-Request-Id"))
	}
	fctx.Response.Header.Set("X-Request-Id", r.id)
	defer s.finish(r, start)
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("panic in handler", "request_id", r.id, "route", r.route, "panic", fmt.Sprint(v))
			s.writeError(r, errInternal)
		}
	}()
	err := error(nil)
	if rt == nil {
		rt, err = s.prepare(r)
	}
	if err == nil {
		err = rt.h(r)
	}
	if err != nil {
		ae := mapError(err)
		if ae.Status >= 500 {
			s.log.Error("request failed", "request_id", r.id, "route", r.route, "err", err)
		}
		s.writeError(r, ae)
	}
}

// prepare runs what comes before a route's handler and before any byte of
// the body is read: the framing check, the path check, routing, and for
// routes that need one, the key and its rate limit.
func (s *Server) prepare(r *reqCtx) (*route, error) {
	if err := checkFraming(&r.Request.Header); err != nil {
		// Nothing more is read from this connection: its body, and what
		// may hide after it, could be framed either way.
		r.consumed = true
		r.SetConnectionClose()
		return nil, err
	}
	if err := checkPath(string(r.URI().PathOriginal()), string(r.Path())); err != nil {
		return nil, err
	}
	if s.editor != nil && strings.HasPrefix(string(r.Path()), review.Prefix) {
		r.route = review.Prefix + "*"
		return &route{method: string(r.Method()), pattern: r.route, h: s.serveEditor}, nil
	}
	rt, params, allowed := s.match(string(r.Method()), string(r.Path()))
	if rt == nil {
		if allowed != "" {
			r.Response.Header.Set("Allow", allowed)
			return nil, &APIError{Status: fasthttp.StatusMethodNotAllowed, Code: CodeMethodNotAllowed, Message: "Method not allowed"}
		}
		return nil, errNotFound
	}
	r.route, r.params = rt.pattern, params
	if rt.auth {
		if err := s.authenticate(r); err != nil {
			return nil, err
		}
	}
	return rt, nil
}

// serveEditor hands a /review/ request to the editor, which
// authenticates by its session cookie and writes its own answers.
func (s *Server) serveEditor(r *reqCtx) error {
	s.editor(r.RequestCtx)
	return nil
}

// authenticate resolves X-API-Key to an account and applies the key's rate
// limit. The key is looked up first (by its SHA-256, compared in constant
// time: jobs.Authenticate), so a valid key is never delayed by anyone's
// failures. Only failures count, in auth-fail-rate/auth-fail-burst
// buckets per client address (clientAddr: trusted-proxies decides whether
// Forwarded headers are believed) and per key prefix (keyPrefixLen bytes,
// hashed), and once either bucket is empty a failure is answered 429
// instead of 401. API keys hold 256 random bits, so the limit bounds the
// cost and log volume of failures; it is not what makes keys unguessable.
func (s *Server) authenticate(r *reqCtx) error {
	key := r.Request.Header.Peek("X-API-Key")
	if len(key) > 0 {
		acct, err := s.svc.Authenticate(r.ctx, string(key))
		if err == nil {
			sum := sha256.Sum256(key)
			if ok, wait := s.rl.allow(string(sum[:])); !ok {
				r.limitedBy = "key:" + string(sum[:8])
				return rateLimited(r, wait)
			}
			r.acct = acct
			return nil
		}
		if !errors.Is(err, jobs.ErrUnauthorized) {
			return err
		}
	}
	return s.authFailed(r, key)
}

// keyPrefixLen is how much of a failed key names its failure bucket:
// "rdk_" and 8 random characters, enough to tell clients apart, far too
// little to matter as a secret (and only its hash is kept).
const keyPrefixLen = 12

// authFailed counts a failed authentication against the client address
// and the key prefix and answers 401, or 429 when either is over its
// budget.
func (s *Server) authFailed(r *reqCtx, key []byte) error {
	buckets := []string{"addr:" + s.proxies.clientAddr(r.RequestCtx).String()}
	if len(key) > 0 {
		p := sha256.Sum256(key[:min(len(key), keyPrefixLen)])
		buckets = append(buckets, "prefix:"+string(p[:16]))
	}
	var wait time.Duration
	for _, b := range buckets {
		wait = max(wait, s.authFail.wait(b))
	}
	if wait > 0 {
		r.limitedBy = buckets[0]
		return rateLimited(r, wait)
	}
	for _, b := range buckets {
		s.authFail.allow(b)
	}
	return errUnauthorized
}

// rateLimited is the 429 answer with its Retry-After header.
func rateLimited(r *reqCtx, wait time.Duration) error {
	secs := retryAfterSeconds(wait)
	r.Response.Header.Set("Retry-After", strconv.Itoa(secs))
	return &APIError{Status: fasthttp.StatusTooManyRequests, Code: CodeRateLimited, Message: fmt.Sprintf("Rate limited; retry after %d s", secs)}
}

// finish drains what is left of the request body (or marks the
// connection for closing), records metrics and writes the access log.
func (s *Server) finish(r *reqCtx, start time.Time) {
	s.drain(r)
	s.record(r, start)
}

// record counts the request in the metrics and writes its access-log line
// (for 429 answers, sampled: logRateLimited).
func (s *Server) record(r *reqCtx, start time.Time) {
	status := r.Response.StatusCode()
	el := time.Since(start)
	s.metrics.answered(r.route, status, r.code, el)
	attrs := []any{"request_id", r.id, "method", string(r.Method()), "route", r.route, "status", status, "duration_ms", float64(el.Microseconds()) / 1000}
	if r.code != "" {
		attrs = append(attrs, "code", r.code)
	}
	if r.acct != nil {
		attrs = append(attrs, "account", r.acct.ID)
	}
	if status == fasthttp.StatusTooManyRequests && r.limitedBy != "" {
		s.metrics.limited(limitKind(r.limitedBy))
		ok, suppressed := s.logSample.allow(r.limitedBy, time.Now())
		if !ok {
			return
		}
		if suppressed > 0 {
			attrs = append(attrs, "suppressed", suppressed)
		}
	}
	s.log.Info("request", attrs...)
}

// drain reads a small unread remainder of the request body so the
// connection can be reused; a larger one closes the connection instead
// (an early 401 or 413 must not wait for a 100 MB upload).
func (s *Server) drain(r *reqCtx) {
	if r.consumed || r.Request.Header.ContentLength() == 0 {
		return
	}
	body := r.RequestBodyStream()
	if body == nil {
		return
	}
	if cl := r.Request.Header.ContentLength(); cl > drainLimit || cl == -1 {
		r.SetConnectionClose()
		return
	}
	n, err := io.Copy(io.Discard, io.LimitReader(body, drainLimit+1))
	if err != nil || n > drainLimit {
		r.SetConnectionClose()
	}
}

// unavailableRetryAfter is the Retry-After of a 503, in seconds. A
// store call has been retried for store.DefaultRetryFor (14 s) before a
// request gets one; a cluster that is still electing leaders needs a few
// more seconds, a full or read-only disk or a node shutting down longer.
const unavailableRetryAfter = "5"

// writeError writes the JSON error body; a 503 says when to try again
// (Retry-After) unless its handler said so already.
func (s *Server) writeError(r *reqCtx, ae *APIError) {
	r.code = ae.Code
	r.Response.ResetBody() // also closes a body stream already set
	r.Response.Header.Del("Content-Disposition")
	if ae.Status == fasthttp.StatusServiceUnavailable && len(r.Response.Header.Peek("Retry-After")) == 0 {
		r.Response.Header.Set("Retry-After", unavailableRetryAfter)
	}
	writeJSON(r, ae.Status, errorBody{Error: ae.Message, Code: ae.Code, RequestID: r.id})
}

func writeJSON(r *reqCtx, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		// Only our own response types are marshalled; this cannot happen
		// short of a programming error.
		status = fasthttp.StatusInternalServerError
		b = []byte(`{"error":"Internal error","code":"internal"}`)
	}
	r.SetStatusCode(status)
	r.SetContentType("application/json")
	r.SetBody(append(b, '\n'))
}

// connError answers requests fasthttp could not parse (bad headers, body
// read failures) with a JSON error body.
func (s *Server) connError(fctx *fasthttp.RequestCtx, err error) {
	id := newRequestID()
	status, code, msg := fasthttp.StatusBadRequest, CodeInvalid, "request: malformed HTTP request"
	var small *fasthttp.ErrSmallBuffer
	if errors.As(err, &small) {
		status, code, msg = fasthttp.StatusRequestHeaderFieldsTooLarge, CodeInvalid, "request: headers too large"
	}
	b, _ := json.Marshal(errorBody{Error: msg, Code: code, RequestID: id})
	fctx.Response.Header.Set("X-Request-Id", id)
	fctx.SetStatusCode(status)
	fctx.SetContentType("application/json")
	fctx.SetBody(append(b, '\n'))
	fctx.SetConnectionClose()
	s.metrics.answered("unparsed", status, code, -1)
}

// fasthttpLogger routes fasthttp's own messages into slog at debug level
// (they may quote request lines).
type fasthttpLogger struct{ log *slog.Logger }

func (l fasthttpLogger) Printf(format string, args ...any) {
	l.log.Debug("fasthttp", "msg", fmt.Sprintf(format, args...))
}
