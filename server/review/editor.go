// Package review serves the studio review editor under /review/:
// server-rendered pages (html/template), one plain JavaScript module and
// a style sheet, all embedded; page previews rendered as PNG by the
// contract.Previewer it is given (the pipeline's, MuPDF); and the JSON the module talks to. A reviewer arrives with
// a single-use link their own system created with its API key
// (POST /v1/jobs/{job_id}/review-link); redeeming it opens a server-side
// session held by an HttpOnly, SameSite=Strict cookie, and no page ever
// carries an API key or the original PDF.
package review

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"html/template"
	"io"
	"log/slog"
	"math"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/engine/page"
	ereview "github.com/redactd/redactd/engine/review"
	"github.com/redactd/redactd/internal/qparam"
)

// Prefix is where the editor lives.
const Prefix = "/review/"

// Cookie names: __Host- (Secure, Path=/, no Domain) when the editor is
// reached over HTTPS (public-url https://...); on plain HTTP, where
// browsers refuse Secure cookies from anything but localhost, the
// documented fallback is redactd_review with Path=/review/.
const (
	cookieSecure = "__Host-redactd_review"
	cookiePlain  = "redactd_review"
)

// csp allows only the editor's own script, style and images: no inline
// script or style, no framing, no plugins, forms only to itself.
const csp = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

//go:embed assets/* templates/*
var files embed.FS

var pages = template.Must(template.ParseFS(files, "templates/*.html"))

// Options configure the editor.
type Options struct {
	LinkTTL      time.Duration
	Idle, MaxAge time.Duration
	Reasons      []string
	SecureCookie bool // __Host- cookie with Secure (HTTPS)
	Log          *slog.Logger
	// Previewer renders the previews (the pipeline's); nil answers
	// every preview with 500.
	Previewer contract.Previewer
}

// Editor serves /review/ and issues links.
type Editor struct {
	svc  jobs.Reviewer
	opts Options
	cop  *http.CrossOriginProtection
	log  *slog.Logger
	// renders bounds previews rendered at once: each costs a page of
	// MuPDF work, and a page of thumbnails asks for many together.
	renders chan struct{}
}

// New builds the editor over the job service's review side.
func New(svc jobs.Reviewer, opts Options) *Editor {
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	return &Editor{svc: svc, opts: opts,
		cop: http.NewCrossOriginProtection(), log: opts.Log, renders: make(chan struct{}, max(2, runtime.NumCPU()))}
}

// CreateLink registers a single-use link to a job for acct (with the key
// acct authenticated with) and returns its path (the server prefixes its
// public URL).
func (ed *Editor) CreateLink(ctx context.Context, acct *jobs.Account, jobID, role, reviewer string, ttl time.Duration) (string, time.Time, error) {
	actor := "reviewer"
	if reviewer != "" {
		actor = "reviewer:" + reviewer
	}
	if role == RoleViewer {
		actor = "viewer"
	}
	tok, exp, err := ed.svc.CreateReviewLink(ctx, acct, jobID, role, actor, ttl)
	if err != nil {
		return "", time.Time{}, err
	}
	return Prefix + "link/" + tok, exp, nil
}

// req is one editor request.
type req struct {
	*fasthttp.RequestCtx
	ctx  context.Context
	segs []string // path after /review/, split
	g    *jobs.ReviewGrant
	tok  string
}

// Handle serves everything under /review/.
func (ed *Editor) Handle(fctx *fasthttp.RequestCtx) {
	h := &fctx.Response.Header
	h.Set("Content-Security-Policy", csp)
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := &req{RequestCtx: fctx, ctx: ctx, segs: strings.Split(strings.TrimPrefix(string(fctx.Path()), Prefix), "/")}
	if err := ed.crossOrigin(fctx); err != nil {
		ed.fail(r, http.StatusForbidden, "cross-origin request refused")
		return
	}
	method := string(fctx.Method())
	switch {
	case len(r.segs) == 2 && r.segs[0] == "assets" && method == "GET":
		ed.asset(r, r.segs[1])
		return
	case len(r.segs) == 2 && r.segs[0] == "link" && method == "GET":
		ed.redeem(r, r.segs[1])
		return
	}
	if ok, err := ed.authorize(r); !ok {
		if err != nil {
			ed.engineFail(r, err)
			return
		}
		if crossSiteArrival(fctx) {
			ed.bounce(r)
			return
		}
		ed.fail(r, http.StatusUnauthorized, "no review session: open the review link again, or ask for a new one")
		return
	}
	ed.route(r, method)
}

// crossOrigin applies Go's http.CrossOriginProtection rules (the same
// checks, by the same code) to state-changing requests: Sec-Fetch-Site
// must be same-origin or none, or else the Origin's host must be the
// Host; requests with neither header are not from a browser.
func (ed *Editor) crossOrigin(fctx *fasthttp.RequestCtx) error {
	hr := &http.Request{Method: string(fctx.Method()), Header: http.Header{}, Host: string(fctx.Host())}
	if v := fctx.Request.Header.Peek("Sec-Fetch-Site"); len(v) > 0 {
		hr.Header.Set("Sec-Fetch-Site", string(v))
	}
	if v := fctx.Request.Header.Peek("Origin"); len(v) > 0 {
		hr.Header.Set("Origin", string(v))
	}
	return ed.cop.Check(hr)
}

func (ed *Editor) cookieName() string {
	if ed.opts.SecureCookie {
		return cookieSecure
	}
	return cookiePlain
}

// authorize finds the request's session. A session that is unknown,
// ended or made with a revoked key is no session (false, nil); err is
// the service failing.
func (ed *Editor) authorize(r *req) (bool, error) {
	tok := string(r.Request.Header.Cookie(ed.cookieName()))
	g, err := ed.svc.ReviewSession(r.ctx, tok)
	if errors.Is(err, jobs.ErrUnauthorized) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	r.g, r.tok = g, tok
	return true, nil
}

// redeem spends a link: a session cookie, then a redirect to the job's
// page, whose URL holds no token (and Referrer-Policy: no-referrer keeps
// the link's URL from leaking onward).
func (ed *Editor) redeem(r *req, tok string) {
	r.Response.Header.Set("Cache-Control", "no-store")
	stok, g, err := ed.svc.RedeemReviewLink(r.ctx, tok, ed.opts.Idle, ed.opts.MaxAge)
	if errors.Is(err, jobs.ErrNotFound) {
		ed.fail(r, http.StatusNotFound, "this review link is unknown, used or expired; ask for a new one")
		return
	}
	if err != nil {
		ed.engineFail(r, err)
		return
	}
	c := fasthttp.AcquireCookie()
	defer fasthttp.ReleaseCookie(c)
	c.SetKey(ed.cookieName())
	c.SetValue(stok)
	c.SetHTTPOnly(true)
	c.SetSameSite(fasthttp.CookieSameSiteStrictMode)
	if ed.opts.SecureCookie {
		c.SetSecure(true)
		c.SetPath("/")
	} else {
		c.SetPath(Prefix)
	}
	c.SetMaxAge(int(ed.opts.MaxAge / time.Second))
	r.Response.Header.SetCookie(c)
	r.Response.Header.Set("Location", Prefix+"jobs/"+g.JobID)
	r.SetStatusCode(http.StatusSeeOther)
}

// crossSiteArrival reports a top-level page load that came from another
// site: the redirect after redeeming a link the reviewer clicked in a mail
// client or a ticket system. Browsers do not send SameSite=Strict cookies
// with such a navigation, even to the site that just set them.
func crossSiteArrival(fctx *fasthttp.RequestCtx) bool {
	h := &fctx.Request.Header
	site := string(h.Peek("Sec-Fetch-Site"))
	return string(fctx.Method()) == "GET" && string(h.Peek("Sec-Fetch-Mode")) == "navigate" &&
		(site == "cross-site" || site == "same-site")
}

// bounce answers a cross-site arrival with a page that reloads the same
// path from this origin (a meta refresh: no script), so the session
// cookie goes with the second request. That request is same-origin, so a
// missing session then gets the 401 page, never another bounce.
func (ed *Editor) bounce(r *req) {
	var buf bytes.Buffer
	pages.ExecuteTemplate(&buf, "bounce.html", string(r.Path()))
	r.Response.Header.Set("Cache-Control", "no-store")
	r.SetStatusCode(http.StatusOK)
	r.SetContentType("text/html; charset=utf-8")
	r.SetBody(buf.Bytes())
}

// route dispatches a request with a session.
func (ed *Editor) route(r *req, method string) {
	s := r.segs
	n := len(s)
	switch {
	case n == 2 && s[0] == "jobs" && method == "GET":
		ed.jobPage(r, s[1])
	case n == 2 && s[0] == "docs" && method == "GET":
		ed.editorPage(r, s[1])
	case n == 1 && s[0] == "signout" && method == "POST":
		if err := ed.svc.EndReviewSession(r.ctx, r.tok); err != nil {
			ed.engineFail(r, err)
			return
		}
		r.Response.Header.Set("Clear-Site-Data", `"cookies"`)
		ed.json(r, http.StatusOK, map[string]bool{"signed_out": true})
	case n == 4 && s[0] == "api" && s[1] == "docs" && s[3] == "state" && method == "GET":
		ed.state(r, s[2])
	case n == 4 && s[0] == "api" && s[1] == "docs" && s[3] == "masks" && method == "PUT":
		ed.putMasks(r, s[2])
	case n == 4 && s[0] == "api" && s[1] == "docs" && s[3] == "apply" && method == "POST":
		ed.apply(r, s[2])
	case n == 4 && s[0] == "api" && s[1] == "docs" && s[3] == "audit" && method == "GET":
		ed.audit(r, s[2])
	case n == 6 && s[0] == "api" && s[1] == "docs" && s[3] == "pages" && method == "GET":
		ed.preview(r, s[2], s[4], s[5])
	case n == 4 && s[0] == "api" && s[1] == "jobs" && s[3] == "search" && method == "GET":
		ed.search(r, s[2])
	case n == 4 && s[0] == "api" && s[1] == "jobs" && s[3] == "terms" && method == "POST":
		ed.terms(r, s[2])
	case n == 4 && s[0] == "api" && s[1] == "jobs" && s[3] == "summary" && method == "GET":
		ed.summary(r, s[2])
	default:
		ed.fail(r, http.StatusNotFound, "not found")
	}
}

// jobDoc checks that docID belongs to the session's job and returns the
// job.
func (ed *Editor) jobDoc(r *req, docID string) (*jobs.Job, bool) {
	j, err := ed.svc.StudioJob(r.ctx, r.g.Account, r.g.JobID)
	if err != nil {
		ed.engineFail(r, err)
		return nil, false
	}
	if docID != "" {
		for _, d := range j.Documents {
			if d.ID == docID {
				return j, true
			}
		}
		ed.fail(r, http.StatusNotFound, "not found")
		return nil, false
	}
	return j, true
}

// sameJob is for job-scoped API routes: the path's job must be the
// session's.
func (ed *Editor) sameJob(r *req, jobID string) (*jobs.Job, bool) {
	if jobID != r.g.JobID {
		ed.fail(r, http.StatusNotFound, "not found")
		return nil, false
	}
	return ed.jobDoc(r, "")
}

func (ed *Editor) mayEdit(r *req) bool {
	if r.g.Role != RoleReviewer {
		ed.fail(r, http.StatusForbidden, "this link is for viewing only")
		return false
	}
	return true
}

// pageData is what the templates see: ids, names, the role, and the
// settings the module reads from data attributes. Never a key.
type pageData struct {
	JobID      string
	Job        *jobs.Job
	Doc        *jobs.Document
	Role       string
	Actor      string
	Reasons    string
	Categories string
	Docs       []jobs.Document
}

func (ed *Editor) jobPage(r *req, jobID string) {
	j, ok := ed.sameJob(r, jobID)
	if !ok {
		return
	}
	ed.html(r, "job.html", pageData{JobID: j.ID, Job: j, Role: r.g.Role, Actor: r.g.Actor, Docs: j.Documents})
}

func (ed *Editor) editorPage(r *req, docID string) {
	j, ok := ed.jobDoc(r, docID)
	if !ok {
		return
	}
	var doc *jobs.Document
	for i := range j.Documents {
		if j.Documents[i].ID == docID {
			doc = &j.Documents[i]
		}
	}
	cats := make([]string, 0, len(page.Categories)+1)
	for _, c := range page.Categories {
		cats = append(cats, string(c))
	}
	cats = append(cats, string(page.IncludedTerm))
	ed.html(r, "editor.html", pageData{JobID: j.ID, Job: j, Doc: doc, Role: r.g.Role, Actor: r.g.Actor,
		Reasons: strings.Join(ed.opts.Reasons, ","), Categories: strings.Join(cats, ","), Docs: j.Documents})
}

func (ed *Editor) html(r *req, name string, data pageData) {
	var buf bytes.Buffer
	if err := pages.ExecuteTemplate(&buf, name, data); err != nil {
		ed.log.Error("review: template", "name", name, "err", err)
		ed.fail(r, http.StatusInternalServerError, "internal error")
		return
	}
	r.Response.Header.Set("Cache-Control", "no-store")
	r.SetStatusCode(http.StatusOK)
	r.SetContentType("text/html; charset=utf-8")
	r.SetBody(buf.Bytes())
}

// asset serves the embedded module, style sheet and icons.
func (ed *Editor) asset(r *req, name string) {
	b, err := files.ReadFile("assets/" + name)
	if err != nil || strings.Contains(name, "..") {
		ed.fail(r, http.StatusNotFound, "not found")
		return
	}
	ct := "application/octet-stream"
	switch {
	case strings.HasSuffix(name, ".js"):
		ct = "text/javascript; charset=utf-8"
	case strings.HasSuffix(name, ".css"):
		ct = "text/css; charset=utf-8"
	case strings.HasSuffix(name, ".svg"):
		ct = "image/svg+xml"
	}
	r.Response.Header.Set("Cache-Control", "no-cache")
	r.SetStatusCode(http.StatusOK)
	r.SetContentType(ct)
	r.SetBody(b)
}

// stateBody is the state as the module gets it, with the role.
type stateBody struct {
	*ereview.State
	Role string `json:"role"`
}

func (ed *Editor) state(r *req, docID string) {
	if _, ok := ed.jobDoc(r, docID); !ok {
		return
	}
	st, err := ed.svc.ReviewState(r.ctx, r.g.Account, docID)
	if err != nil {
		ed.engineFail(r, err)
		return
	}
	r.Response.Header.Set("ETag", strconv.Quote(strconv.FormatInt(st.Version, 10)))
	ed.json(r, http.StatusOK, stateBody{State: st, Role: r.g.Role})
}

// previewWait is how long a preview waits for a render slot before 503.
const previewWait = 30 * time.Second

// maxBody bounds a request body of the module (a whole review state).
const maxBody = 8 << 20

func (ed *Editor) body(r *req) ([]byte, bool) {
	if cl := r.Request.Header.ContentLength(); cl > maxBody {
		ed.fail(r, http.StatusRequestEntityTooLarge, "body too large")
		return nil, false
	}
	var src io.Reader = bytes.NewReader(r.Request.Body())
	if bs := r.RequestBodyStream(); bs != nil {
		src = bs
	}
	b, err := io.ReadAll(io.LimitReader(src, maxBody+1))
	if err != nil || len(b) > maxBody {
		ed.fail(r, http.StatusBadRequest, "body could not be read")
		return nil, false
	}
	return b, true
}

func (ed *Editor) putMasks(r *req, docID string) {
	if !ed.mayEdit(r) {
		return
	}
	if _, ok := ed.jobDoc(r, docID); !ok {
		return
	}
	v, err := strconv.ParseInt(strings.Trim(string(r.Request.Header.Peek("If-Match")), `"`), 10, 64)
	if err != nil {
		ed.fail(r, http.StatusPreconditionRequired, "If-Match: required")
		return
	}
	raw, ok := ed.body(r)
	if !ok {
		return
	}
	var body struct {
		Masks []ereview.Mask `json:"masks"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil || body.Masks == nil {
		ed.fail(r, http.StatusBadRequest, `body: want {"masks": [...]}`)
		return
	}
	st, err := ed.svc.PutReview(r.ctx, r.g.Account, docID, v, body.Masks, r.g.Actor)
	if err != nil {
		ed.engineFail(r, err)
		return
	}
	ed.json(r, http.StatusOK, stateBody{State: st, Role: r.g.Role})
}

func (ed *Editor) apply(r *req, docID string) {
	if !ed.mayEdit(r) {
		return
	}
	if _, ok := ed.jobDoc(r, docID); !ok {
		return
	}
	start := time.Now()
	ap, err := ed.svc.ApplyReview(r.ctx, r.g.Account, docID, r.g.Actor)
	if err != nil {
		ed.engineFail(r, err)
		return
	}
	ed.json(r, http.StatusOK, map[string]any{"document_id": docID, "status": "redacted", "version": ap.State.Version,
		"apply_ms": time.Since(start).Milliseconds(), "rescanned": ap.Rescanned, "leaks": ap.Leaks, "timings_ms": ap.Timings})
}

func (ed *Editor) audit(r *req, docID string) {
	if _, ok := ed.jobDoc(r, docID); !ok {
		return
	}
	ents, err := ed.svc.ReviewAudit(r.ctx, r.g.Account, docID)
	if err != nil {
		ed.engineFail(r, err)
		return
	}
	ed.json(r, http.StatusOK, map[string]any{"entries": ents})
}

// The numbers of a preview's URL: the page (a path segment) and the
// dpi parameter (default 72).
var (
	previewPage = qparam.Int{Name: "page", Min: 1, Max: math.MaxInt32}
	previewDPI  = qparam.Number{Name: "dpi", Min: 9, Max: contract.MaxPreviewDPI}
)

// preview renders a page: layer original (reviewers only; never cached)
// or burned (the real output file).
func (ed *Editor) preview(r *req, docID, pageStr, file string) {
	if _, ok := ed.jobDoc(r, docID); !ok {
		return
	}
	layer, ok := strings.CutSuffix(file, ".png")
	if !ok || (layer != "original" && layer != "burned") {
		ed.fail(r, http.StatusNotFound, "not found")
		return
	}
	if layer == "original" && r.g.Role != RoleReviewer {
		ed.fail(r, http.StatusForbidden, "viewers see the burned layer only")
		return
	}
	pg64, err := previewPage.Parse([]byte(pageStr))
	if err != nil {
		ed.fail(r, http.StatusNotFound, "not found") // a path, not a parameter
		return
	}
	pg := int(pg64)
	dpi, err := previewDPI.From(r.QueryArgs(), 72)
	if err != nil {
		ed.fail(r, http.StatusBadRequest, err.Error())
		return
	}
	path, release, err := ed.svc.ReviewFile(r.ctx, r.g.Account, docID, layer != "original")
	if err != nil {
		ed.engineFail(r, err)
		return
	}
	defer release()
	select {
	case ed.renders <- struct{}{}:
	case <-time.After(previewWait):
		r.Response.Header.Set("Retry-After", "1")
		ed.fail(r, http.StatusServiceUnavailable, "busy rendering previews; retry")
		return
	}
	png, err := ed.render(r.ctx, path, pg, dpi)
	<-ed.renders
	if errors.Is(err, contract.ErrNoPage) {
		ed.fail(r, http.StatusNotFound, "no such page")
		return
	}
	if err != nil {
		ed.log.Error("review: preview failed", "doc", docID, "page", pg, "err", err)
		ed.fail(r, http.StatusInternalServerError, "preview failed")
		return
	}
	// Neither layer is kept by the browser: the original is the very
	// thing redaction protects, and the burned one changes at apply.
	r.Response.Header.Set("Cache-Control", "no-store")
	r.SetStatusCode(http.StatusOK)
	r.SetContentType("image/png")
	r.SetBody(png)
}

// render renders one preview with the Previewer of the options.
func (ed *Editor) render(ctx context.Context, path string, pg int, dpi float64) ([]byte, error) {
	if ed.opts.Previewer == nil {
		return nil, errors.New("review: no previewer")
	}
	return ed.opts.Previewer.RenderPNG(ctx, path, pg, dpi)
}

func (ed *Editor) json(r *req, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"internal error"}`)
	}
	r.Response.Header.Set("Cache-Control", "no-store")
	r.SetStatusCode(status)
	r.SetContentType("application/json")
	r.SetBody(append(b, '\n'))
}

// fail answers an error as JSON for the module's routes and as a short
// HTML page for pages.
func (ed *Editor) fail(r *req, status int, msg string) {
	if len(r.segs) > 0 && (r.segs[0] == "api" || r.segs[0] == "signout") {
		ed.json(r, status, map[string]string{"error": msg})
		return
	}
	var buf bytes.Buffer
	pages.ExecuteTemplate(&buf, "error.html", map[string]any{"Status": status, "Message": msg})
	r.Response.Header.Set("Cache-Control", "no-store")
	r.SetStatusCode(status)
	r.SetContentType("text/html; charset=utf-8")
	r.SetBody(buf.Bytes())
}

// engineFail maps a job-service error: the same kinds as the API.
func (ed *Editor) engineFail(r *req, err error) {
	var ee *jobs.Error
	msg := ""
	if errors.As(err, &ee) {
		msg = ee.Message()
	}
	switch {
	case errors.Is(err, jobs.ErrNotFound):
		ed.fail(r, http.StatusNotFound, "not found")
	case errors.Is(err, jobs.ErrInvalid):
		ed.fail(r, http.StatusBadRequest, msg)
	case errors.Is(err, jobs.ErrStale):
		ed.fail(r, http.StatusPreconditionFailed, "the review state changed meanwhile; reload")
	case errors.Is(err, jobs.ErrOutputRejected):
		ed.fail(r, http.StatusUnprocessableEntity, msg)
	case errors.Is(err, jobs.ErrConflict):
		ed.fail(r, http.StatusConflict, msg)
	case errors.Is(err, jobs.ErrUnavailable):
		ed.fail(r, http.StatusServiceUnavailable, "service unavailable")
	default:
		ed.log.Error("review: request failed", "err", err)
		ed.fail(r, http.StatusInternalServerError, "internal error")
	}
}
