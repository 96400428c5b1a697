package server

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"mime"
	"net/url"
	"strings"

	"github.com/google/uuid"
	"github.com/valyala/fasthttp"

	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/jobs"
)

// JSON shapes of the spec. Field names are the spec's, exactly.

type errorBody struct {
	Error     string `json:"error"`
	Code      string `json:"code"`
	RequestID string `json:"request_id"`
}

type meBody struct {
	UserID string `json:"user_id"`
	Email  string `json:"email"`
}

type jobBody struct {
	JobID     string `json:"job_id"`
	Status    string `json:"status"`
	Retention string `json:"retention"`
	// Language is an extension: the job's language hint, "auto" when
	// none was given.
	Language  string         `json:"language"`
	CreatedAt string         `json:"created_at"`
	Documents []documentBody `json:"documents"`
}

type documentBody struct {
	ID           string  `json:"id"`
	FileName     string  `json:"file_name"`
	Status       string  `json:"status"`
	PageCount    int     `json:"page_count"`
	ErrorMessage *string `json:"error_message"`
	// PagesDone is an extension beside the spec's fields: pages written
	// to the output so far, stored about once a second.
	PagesDone int `json:"pages_done"`
}

type reservationBody struct {
	JobID   string       `json:"job_id"`
	Uploads []uploadBody `json:"uploads"`
}

type uploadBody struct {
	DocumentID string `json:"document_id"`
	FileName   string `json:"filename"`
	UploadURL  string `json:"upload_url"`
}

type demoBody struct {
	Status          string          `json:"status"`
	Message         string          `json:"message"`
	SampleInput     string          `json:"sample_input"`
	DetectedPII     []demoDetection `json:"detected_pii"`
	RedactedPDFPath string          `json:"redacted_pdf_path"`
}

type demoDetection struct {
	Category string `json:"category"`
	Example  string `json:"example"`
	Masked   bool   `json:"masked"`
}

type successBody struct {
	Success bool `json:"success"`
}

type statusBody struct {
	Status string `json:"status"`
}

// timeFormat is ISO 8601 in UTC with millisecond precision.
const timeFormat = "2006-01-02T15:04:05.000Z"

func toJobBody(j *jobs.Job) jobBody {
	docs := make([]documentBody, len(j.Documents))
	for i, d := range j.Documents {
		docs[i] = documentBody{ID: d.ID, FileName: d.FileName, Status: string(d.Status), PageCount: d.PageCount, PagesDone: d.PagesDone}
		if d.Status == jobs.StatusError {
			msg := d.ErrorMessage
			if msg == "" {
				msg = "processing failed"
			}
			docs[i].ErrorMessage = &msg
		}
	}
	return jobBody{
		JobID:     j.ID,
		Status:    string(j.Status),
		Retention: string(j.Retention),
		Language:  cmp.Or(j.Language, contract.LanguageAuto),
		CreatedAt: j.CreatedAt.UTC().Format(timeFormat),
		Documents: docs,
	}
}

// pathID returns the i-th path parameter when it is a canonical UUID.
// Anything else cannot name a resource: 404, like an unknown id.
func pathID(r *reqCtx, i int) (string, error) {
	id := r.param(i)
	if len(id) != 36 {
		return "", errNotFound
	}
	if _, err := uuid.Parse(id); err != nil {
		return "", errNotFound
	}
	return id, nil
}

func (s *Server) me(r *reqCtx) error {
	writeJSON(r, fasthttp.StatusOK, meBody{UserID: r.acct.ID, Email: r.acct.Email})
	return nil
}

// bodyReader returns the request body as a stream, refusing bodies over
// max by their Content-Length before reading anything.
func bodyReader(r *reqCtx, max int64) (io.Reader, error) {
	if ce := r.Request.Header.Peek("Content-Encoding"); len(ce) > 0 && !bytes.EqualFold(ce, []byte("identity")) {
		return nil, invalidf("Content-Encoding", "not supported; send the body uncompressed")
	}
	if cl := r.Request.Header.ContentLength(); cl > 0 && int64(cl) > max {
		return nil, tooLargef("request body exceeds the limit of %d bytes", max)
	}
	if bs := r.RequestBodyStream(); bs != nil {
		return bs, nil
	}
	return bytes.NewReader(r.Request.Body()), nil
}

// consumed drains a little trailing data (a multipart epilogue) and
// records whether the body was read to its end.
func consumed(r *reqCtx, body io.Reader) {
	n, err := io.Copy(io.Discard, io.LimitReader(body, drainLimit+1))
	r.consumed = err == nil && n <= drainLimit
}

// spool is the PutFile of a request: files go to disk as they stream in,
// so a job's uploads never sit in the server's memory.
func (s *Server) spool(r *reqCtx) PutFile {
	return func(name string, body io.Reader) (jobs.File, error) {
		sp, err := s.svc.Spool(r.ctx, body, s.lim.MaxFileBytes)
		if err != nil {
			return jobs.File{}, err
		}
		return jobs.File{Name: name, Spool: sp}, nil
	}
}

func (s *Server) createJob(r *reqCtx) error {
	key, err := ParseIdempotencyKey(r.Request.Header.Peek("X-Idempotency-Key"))
	if err != nil {
		return err
	}
	body, err := bodyReader(r, s.lim.MaxBodyBytes)
	if err != nil {
		return err
	}
	req, err := ParseMultipart(string(r.Request.Header.ContentType()), body, s.lim, s.spool(r))
	if err != nil {
		return err
	}
	defer req.Remove() // what CreateJob did not take: a failed or replayed request
	consumed(r, body)
	req.IdempotencyKey = key
	job, err := s.svc.CreateJob(r.ctx, r.acct, req)
	if err != nil {
		return err
	}
	writeJSON(r, fasthttp.StatusOK, toJobBody(job))
	return nil
}

func (s *Server) initJob(r *reqCtx) error {
	key, err := ParseIdempotencyKey(r.Request.Header.Peek("X-Idempotency-Key"))
	if err != nil {
		return err
	}
	if ct := r.Request.Header.ContentType(); len(ct) > 0 {
		if mt, _, err := mime.ParseMediaType(string(ct)); err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
			return invalidf("Content-Type", "must be application/json")
		}
	}
	body, err := bodyReader(r, maxInitBodyBytes)
	if err != nil {
		return err
	}
	lr := &limitReader{r: body, n: maxInitBodyBytes}
	raw, err := io.ReadAll(lr)
	if err != nil {
		return bodyError(lr, "body", "could not be read")
	}
	r.consumed = true
	req, err := ParseInit(raw, s.lim)
	if err != nil {
		return err
	}
	req.IdempotencyKey = key
	res, err := s.svc.InitJob(r.ctx, r.acct, req)
	if err != nil {
		return err
	}
	out := reservationBody{JobID: res.JobID, Uploads: make([]uploadBody, len(res.Uploads))}
	for i, u := range res.Uploads {
		out.Uploads[i] = uploadBody{DocumentID: u.DocumentID, FileName: u.FileName, UploadURL: s.uploadURL(u)}
	}
	writeJSON(r, fasthttp.StatusOK, out)
	return nil
}

// uploadURL is the absolute direct-upload address of a reserved document.
func (s *Server) uploadURL(u jobs.ReservedUpload) string {
	return s.PublicURL() + UploadPrefix + url.PathEscape(u.DocumentID) + "?token=" + url.QueryEscape(u.Token)
}

// putUpload is direct-upload step 2: the raw bytes of one reserved
// document, authorised by the token in the URL instead of an API key.
func (s *Server) putUpload(r *reqCtx) error {
	docID, err := pathID(r, 0)
	if err != nil {
		return err
	}
	token := string(r.QueryArgs().Peek("token"))
	if token == "" {
		return errUnauthorized
	}
	if err := checkBlobType(&r.Request.Header); err != nil {
		return err
	}
	body, err := bodyReader(r, s.lim.MaxFileBytes)
	if err != nil {
		return err
	}
	size := int64(r.Request.Header.ContentLength())
	if size < 0 {
		size = -1 // chunked: the engine counts what arrives
	}
	lr := &limitReader{r: body, n: s.lim.MaxFileBytes}
	err = s.svc.PutUpload(r.ctx, docID, token, string(r.Request.Header.ContentType()), size, lr)
	if lr.exceeded {
		return tooLargef("file exceeds the limit of %d bytes", s.lim.MaxFileBytes)
	}
	if err != nil {
		return err
	}
	consumed(r, body)
	r.SetStatusCode(fasthttp.StatusCreated)
	return nil
}

// checkBlobType accepts any x-<vendor>-blob-type header (x-ms-blob-type
// from Azure-style clients) as long as it says BlockBlob; the header may
// also be absent.
func checkBlobType(h *fasthttp.RequestHeader) error {
	var bad string
	for k, v := range h.All() {
		name := strings.ToLower(string(k))
		if strings.HasPrefix(name, "x-") && strings.HasSuffix(name, "-blob-type") && !strings.EqualFold(string(v), "BlockBlob") {
			bad = string(k)
		}
	}
	if bad != "" {
		return invalidf(quoteField(bad), "only BlockBlob is supported")
	}
	return nil
}

func (s *Server) commit(r *reqCtx) error {
	id, err := pathID(r, 0)
	if err != nil {
		return err
	}
	job, err := s.svc.Commit(r.ctx, r.acct, id)
	if err != nil {
		return err
	}
	writeJSON(r, fasthttp.StatusOK, toJobBody(job))
	return nil
}

func (s *Server) getJob(r *reqCtx) error {
	id, err := pathID(r, 0)
	if err != nil {
		return err
	}
	job, err := s.svc.GetJob(r.ctx, r.acct, id)
	if err != nil {
		return err
	}
	writeJSON(r, fasthttp.StatusOK, toJobBody(job))
	return nil
}

func (s *Server) deleteJob(r *reqCtx) error {
	id, err := pathID(r, 0)
	if err != nil {
		return err
	}
	if err := s.svc.DeleteJob(r.ctx, r.acct, id); err != nil {
		return err
	}
	writeJSON(r, fasthttp.StatusOK, successBody{Success: true})
	return nil
}

func (s *Server) output(r *reqCtx) error {
	id, err := pathID(r, 0)
	if err != nil {
		return err
	}
	rc, size, err := s.svc.Output(r.ctx, r.acct, id)
	if err != nil {
		return err
	}
	name := id
	if n, ok := rc.(jobs.NamedOutput); ok && n.FileName() != "" {
		name = n.FileName()
	}
	r.SetStatusCode(fasthttp.StatusOK)
	r.SetContentType("application/pdf")
	r.Response.Header.Set("Content-Disposition", contentDisposition(outputName(name)))
	r.Response.Header.Set("Cache-Control", "no-store")
	if r.IsHead() {
		rc.Close()
		r.Response.Header.SetContentLength(int(size))
		return nil
	}
	// fasthttp closes rc (it is an io.Closer) once written.
	r.SetBodyStream(rc, int(size))
	return nil
}

// outputName derives the download name: the document's base name without
// its extension, plus "-redacted.pdf".
func outputName(doc string) string {
	base := SanitizeFileName(doc)
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	const suffix = "-redacted.pdf"
	return SanitizeFileName(truncateUTF8(base, maxFileName-len(suffix)) + suffix)
}

// contentDisposition builds an attachment header with an ASCII fallback
// name and the exact UTF-8 name in filename* (RFC 6266 / 5987).
func contentDisposition(name string) string {
	ascii := strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' || r == ';' || r == '%' {
			return '_'
		}
		return r
	}, name)
	return fmt.Sprintf(`attachment; filename="%s"; filename*=UTF-8''%s`, ascii, url.PathEscape(name))
}

func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && (s[n]&0xC0) == 0x80 {
		n--
	}
	return s[:n]
}

func (s *Server) demo(r *reqCtx) error {
	res, _, err := s.svc.Demo(r.ctx)
	if err != nil {
		return err
	}
	out := demoBody{
		Status:          res.Status,
		Message:         res.Message,
		SampleInput:     res.SampleInput,
		DetectedPII:     make([]demoDetection, len(res.DetectedPII)),
		RedactedPDFPath: s.PublicURL() + "/v1/demo/sample.pdf",
	}
	for i, d := range res.DetectedPII {
		out.DetectedPII[i] = demoDetection{Category: d.Category, Example: d.Example, Masked: d.Masked}
	}
	writeJSON(r, fasthttp.StatusOK, out)
	return nil
}

func (s *Server) demoPDF(r *reqCtx) error {
	_, pdf, err := s.svc.Demo(r.ctx)
	if err != nil {
		return err
	}
	r.SetStatusCode(fasthttp.StatusOK)
	r.SetContentType("application/pdf")
	r.Response.Header.Set("Content-Disposition", contentDisposition("sample-redacted.pdf"))
	r.SetBody(pdf)
	return nil
}

func (s *Server) openAPI(r *reqCtx) error {
	r.SetStatusCode(fasthttp.StatusOK)
	r.SetContentType("application/json")
	r.SetBody(openAPIDoc)
	return nil
}

func (s *Server) healthz(r *reqCtx) error {
	writeJSON(r, fasthttp.StatusOK, statusBody{Status: "ok"})
	return nil
}

func (s *Server) readyz(r *reqCtx) error {
	if err := s.svc.Ready(); err != nil {
		s.log.Warn("not ready", "request_id", r.id, "err", err)
		return &APIError{Status: fasthttp.StatusServiceUnavailable, Code: CodeUnavailable, Message: "Not ready"}
	}
	writeJSON(r, fasthttp.StatusOK, statusBody{Status: "ok"})
	return nil
}
