package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// client talks to the redactd HTTP API.
type client struct {
	base string // server base URL without trailing slash
	key  string
	hc   *http.Client
	// maxRetries bounds retries of one call (429, 502-504, network).
	maxRetries int
}

func newClient(base, key string) *client {
	return &client{
		base:       strings.TrimRight(base, "/"),
		key:        key,
		hc:         &http.Client{Timeout: 0}, // bounded per call by contexts
		maxRetries: 5,
	}
}

// apiError is an error body from the server.
type apiError struct {
	Status    int
	Code      string `json:"code"`
	Message   string `json:"error"`
	RequestID string `json:"request_id"`
}

func (e *apiError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	s := fmt.Sprintf("server: %s (HTTP %d", msg, e.Status)
	if e.Code != "" {
		s += ", code " + e.Code
	}
	if e.RequestID != "" {
		s += ", request_id " + e.RequestID
	}
	return s + ")"
}

// job mirrors the Job resource.
type job struct {
	JobID     string     `json:"job_id"`
	Status    string     `json:"status"`
	Retention string     `json:"retention"`
	CreatedAt string     `json:"created_at"`
	Documents []document `json:"documents"`
}

type document struct {
	ID           string  `json:"id"`
	FileName     string  `json:"file_name"`
	Status       string  `json:"status"`
	PageCount    int     `json:"page_count"`
	ErrorMessage *string `json:"error_message"`
	PagesDone    int     `json:"pages_done"` // extension: pages written so far
}

func terminal(status string) bool { return status == "redacted" || status == "error" }

type reservation struct {
	JobID   string `json:"job_id"`
	Uploads []struct {
		DocumentID string `json:"document_id"`
		FileName   string `json:"filename"`
		UploadURL  string `json:"upload_url"`
	} `json:"uploads"`
}

// options are the redaction settings sent with a job; nil means "not
// given" (the account's defaults apply).
type options struct {
	Categories []string
	Included   []string
	Excluded   []string
	Retention  string
}

// newIdempotencyKey makes one key per job creation, reused by its
// retries, so a retry after a lost response never creates a second job.
func newIdempotencyKey() string {
	var b [16]byte
	rand.Read(b[:])
	return "redact-cli-" + hex.EncodeToString(b[:])
}

// do sends one request built by mk (called again for each retry, so
// bodies can be rebuilt) and decodes a JSON answer into out. It retries
// 429 (after Retry-After), 502/503/504 and connection failures, up to
// maxRetries times; retrying POSTs is safe because they carry an
// idempotency key or are idempotent (commit).
func (c *client) do(ctx context.Context, mk func() (*http.Request, error), out any) error {
	var last error
	for attempt := 0; attempt <= c.maxRetries; attempt++ {
		req, err := mk()
		if err != nil {
			return err
		}
		req = req.WithContext(ctx)
		if c.key != "" && !strings.HasPrefix(req.URL.String(), c.base+"/uploads/") && req.Header.Get("X-API-Key") == "" && sameHost(req.URL, c.base) {
			req.Header.Set("X-API-Key", c.key)
		}
		resp, err := c.hc.Do(req)
		wait := backoff(attempt)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			last = &netError{err}
		} else {
			last = decode(resp, out)
			var ae *apiError
			if !errors.As(last, &ae) {
				return last
			}
			switch ae.Status {
			case http.StatusTooManyRequests:
				if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
					wait = min(time.Duration(s)*time.Second, time.Minute)
				}
			case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			default:
				return last
			}
		}
		if attempt == c.maxRetries {
			break
		}
		if err := sleep(ctx, wait); err != nil {
			return err
		}
	}
	return last
}

// sameHost reports whether u points at the API server (the key is never
// sent elsewhere, e.g. to an upload URL on another host).
func sameHost(u *url.URL, base string) bool {
	b, err := url.Parse(base)
	return err == nil && strings.EqualFold(b.Host, u.Host) && b.Scheme == u.Scheme
}

// netError marks a failure to reach the server (exit code 4).
type netError struct{ err error }

func (e *netError) Error() string { return "cannot reach the server: " + e.err.Error() }
func (e *netError) Unwrap() error { return e.err }

func backoff(attempt int) time.Duration {
	d := 500 * time.Millisecond << attempt
	return min(d, 8*time.Second)
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// decode reads a response: a JSON body into out on 2xx (out may be nil or
// an io.Writer for raw bodies), an *apiError otherwise.
func decode(resp *http.Response, out any) error {
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		ae := &apiError{Status: resp.StatusCode}
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		if json.Unmarshal(b, ae) != nil || ae.Message == "" {
			ae.Message = strings.TrimSpace(string(b))
			if len(ae.Message) > 200 || ae.Message == "" {
				ae.Message = http.StatusText(resp.StatusCode)
			}
		}
		if ae.RequestID == "" {
			ae.RequestID = resp.Header.Get("X-Request-Id")
		}
		return ae
	}
	switch out := out.(type) {
	case nil:
		_, err := io.Copy(io.Discard, resp.Body)
		return err
	case io.Writer:
		_, err := io.Copy(out, resp.Body)
		return err
	default:
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			return fmt.Errorf("server answered with malformed JSON: %w", err)
		}
		return nil
	}
}

// localFile is one input file.
type localFile struct {
	Path string
	Size int64
	PDF  bool
}

// createMultipart creates a job by POST /v1/jobs, streaming the files.
func (c *client) createMultipart(ctx context.Context, files []localFile, opts options) (*job, error) {
	key := newIdempotencyKey()
	var j job
	err := c.do(ctx, func() (*http.Request, error) {
		pr, pw := io.Pipe()
		mw := multipart.NewWriter(pw)
		go func() { pw.CloseWithError(writeForm(mw, files, opts)) }()
		req, err := http.NewRequest("POST", c.base+"/v1/jobs", pr)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("X-Idempotency-Key", key)
		return req, nil
	}, &j)
	if err != nil {
		return nil, err
	}
	return &j, nil
}

func writeForm(mw *multipart.Writer, files []localFile, opts options) error {
	fields := []struct {
		name string
		val  []string
	}{{"pii_categories", opts.Categories}, {"pii_included_terms", opts.Included}, {"pii_excluded_terms", opts.Excluded}}
	for _, f := range fields {
		if f.val == nil {
			continue
		}
		b, _ := json.Marshal(f.val)
		if err := mw.WriteField(f.name, string(b)); err != nil {
			return err
		}
	}
	if opts.Retention != "" {
		if err := mw.WriteField("retention", opts.Retention); err != nil {
			return err
		}
	}
	for _, f := range files {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="files"; filename="%s"`, escapeQuotes(filepath.Base(f.Path))))
		ct := "application/octet-stream"
		if f.PDF {
			ct = "application/pdf"
		}
		h.Set("Content-Type", ct)
		w, err := mw.CreatePart(h)
		if err != nil {
			return err
		}
		in, err := os.Open(f.Path)
		if err != nil {
			return err
		}
		_, err = io.Copy(w, in)
		in.Close()
		if err != nil {
			return err
		}
	}
	return mw.Close()
}

var quoteEscaper = strings.NewReplacer("\\", "\\\\", `"`, "\\\"", "\r", "", "\n", "")

func escapeQuotes(s string) string { return quoteEscaper.Replace(s) }

// createDirect creates a job by the direct-upload flow: init, one PUT per
// file, commit.
func (c *client) createDirect(ctx context.Context, files []localFile, opts options) (*job, error) {
	type initFile struct {
		FileName    string `json:"filename"`
		ContentType string `json:"content_type"`
		SizeBytes   int64  `json:"size_bytes"`
	}
	body := map[string]any{}
	fs := make([]initFile, len(files))
	for i, f := range files {
		fs[i] = initFile{FileName: filepath.Base(f.Path), ContentType: "application/pdf", SizeBytes: f.Size}
	}
	body["files"] = fs
	if opts.Categories != nil {
		body["pii_categories"] = opts.Categories
	}
	if opts.Included != nil {
		body["pii_included_terms"] = opts.Included
	}
	if opts.Excluded != nil {
		body["pii_excluded_terms"] = opts.Excluded
	}
	if opts.Retention != "" {
		body["retention"] = opts.Retention
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	key := newIdempotencyKey()
	var res reservation
	err = c.do(ctx, func() (*http.Request, error) {
		req, err := http.NewRequest("POST", c.base+"/v1/jobs/init", bytes.NewReader(raw))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Idempotency-Key", key)
		return req, nil
	}, &res)
	if err != nil {
		return nil, err
	}
	if len(res.Uploads) != len(files) {
		return nil, fmt.Errorf("server reserved %d uploads for %d files", len(res.Uploads), len(files))
	}
	for i, u := range res.Uploads {
		if err := c.put(ctx, u.UploadURL, files[i]); err != nil {
			return nil, fmt.Errorf("%s: upload: %w", files[i].Path, err)
		}
	}
	var j job
	err = c.do(ctx, func() (*http.Request, error) {
		return http.NewRequest("POST", c.base+"/v1/jobs/"+url.PathEscape(res.JobID)+"/commit", nil)
	}, &j)
	if err != nil {
		return nil, err
	}
	return &j, nil
}

// put sends one file to its upload URL (no API key).
func (c *client) put(ctx context.Context, uploadURL string, f localFile) error {
	return c.do(ctx, func() (*http.Request, error) {
		in, err := os.Open(f.Path)
		if err != nil {
			return nil, err
		}
		req, err := http.NewRequest("PUT", uploadURL, in)
		if err != nil {
			in.Close()
			return nil, err
		}
		req.ContentLength = f.Size
		req.Header.Set("Content-Type", "application/pdf")
		req.Header.Set("x-ms-blob-type", "BlockBlob")
		return req, nil
	}, nil)
}

func (c *client) getJob(ctx context.Context, id string) (*job, error) {
	var j job
	err := c.do(ctx, func() (*http.Request, error) {
		return http.NewRequest("GET", c.base+"/v1/jobs/"+url.PathEscape(id), nil)
	}, &j)
	return &j, err
}

// getReport fetches a document's report (extension: GET
// /v1/documents/{id}/report) as the server sent it, compacted to one line.
func (c *client) getReport(ctx context.Context, docID string) ([]byte, error) {
	var raw json.RawMessage
	err := c.do(ctx, func() (*http.Request, error) {
		return http.NewRequest("GET", c.base+"/v1/documents/"+url.PathEscape(docID)+"/report", nil)
	}, &raw)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, fmt.Errorf("server answered with malformed JSON: %w", err)
	}
	return buf.Bytes(), nil
}

// download writes a document's output to path through a temporary file
// renamed into place, so a partial download never looks finished.
func (c *client) download(ctx context.Context, docID, path string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".redact-*.part")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	err = c.do(ctx, func() (*http.Request, error) {
		if _, err := tmp.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		if err := tmp.Truncate(0); err != nil {
			return nil, err
		}
		return http.NewRequest("GET", c.base+"/v1/documents/"+url.PathEscape(docID)+"/output", nil)
	}, tmp)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
