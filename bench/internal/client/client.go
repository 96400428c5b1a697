// Package client speaks redactd's HTTP API (the redaction service
// interface, v1) for the benchmark: both ways of creating a job
// (multipart POST /v1/jobs, and init / PUT / commit), polling, download,
// delete, and /metrics. Rate-limited calls (429) are retried with backoff.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"strconv"
	"time"
)

// Client calls one server with one API key.
type Client struct {
	base, key string
	// MetricsURL is the server's metrics listener (metrics-listen), which
	// Metrics reads; the API listener does not serve /metrics.
	MetricsURL string
	hc         *http.Client
	// Request is sent with every job: categories and included terms.
	Request Options
}

// Options are the redaction settings sent with a job; nil fields are
// left out, so the key owner's defaults apply.
type Options struct {
	Categories []string `json:"pii_categories,omitempty"`
	Included   []string `json:"pii_included_terms,omitempty"`
}

// New returns a client of the server at base (e.g. http://127.0.0.1:8080)
// keeping up to conns connections open.
func New(base, key string, conns int) *Client {
	tr := &http.Transport{MaxIdleConns: conns, MaxIdleConnsPerHost: conns, IdleConnTimeout: time.Minute}
	return &Client{base: base, key: key, hc: &http.Client{Transport: tr, Timeout: 10 * time.Minute}}
}

// Close drops idle connections.
func (c *Client) Close() { c.hc.CloseIdleConnections() }

// Job is the job resource.
type Job struct {
	JobID     string     `json:"job_id"`
	Status    string     `json:"status"`
	Documents []Document `json:"documents"`
}

// Document is the document resource.
type Document struct {
	ID           string  `json:"id"`
	FileName     string  `json:"file_name"`
	Status       string  `json:"status"`
	PageCount    int     `json:"page_count"`
	ErrorMessage *string `json:"error_message"`
}

// Done reports whether every document is terminal.
func (j *Job) Done() bool {
	for _, d := range j.Documents {
		if d.Status != "redacted" && d.Status != "error" {
			return false
		}
	}
	return len(j.Documents) > 0
}

// APIError is an error response.
type APIError struct {
	Status  int
	Code    string `json:"code"`
	Message string `json:"error"`
}

func (e *APIError) Error() string {
	return fmt.Sprintf("HTTP %d %s: %s", e.Status, e.Code, e.Message)
}

// SubmitMultipart creates a job from one file by multipart POST /v1/jobs.
func (c *Client) SubmitMultipart(ctx context.Context, name, contentType string, data []byte) (*Job, error) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="files"; filename=%q`, name))
	h.Set("Content-Type", contentType)
	fw, err := mw.CreatePart(h)
	if err != nil {
		return nil, err
	}
	fw.Write(data)
	for field, v := range map[string][]string{"pii_categories": c.Request.Categories, "pii_included_terms": c.Request.Included} {
		if v == nil {
			continue
		}
		b, _ := json.Marshal(v)
		if err := mw.WriteField(field, string(b)); err != nil {
			return nil, err
		}
	}
	if err := mw.Close(); err != nil {
		return nil, err
	}
	var job Job
	err = c.call(ctx, "POST", "/v1/jobs", mw.FormDataContentType(), body.Bytes(), &job)
	return &job, err
}

// SubmitDirect creates a job the direct-upload way: POST /v1/jobs/init,
// PUT of the bytes to the returned upload_url, POST .../commit.
func (c *Client) SubmitDirect(ctx context.Context, name, contentType string, data []byte) (*Job, error) {
	type file struct {
		Filename    string `json:"filename"`
		ContentType string `json:"content_type"`
		SizeBytes   int    `json:"size_bytes"`
	}
	req := struct {
		Files []file `json:"files"`
		Options
	}{[]file{{name, contentType, len(data)}}, c.Request}
	b, _ := json.Marshal(req)
	var res struct {
		JobID   string `json:"job_id"`
		Uploads []struct {
			UploadURL string `json:"upload_url"`
		} `json:"uploads"`
	}
	if err := c.call(ctx, "POST", "/v1/jobs/init", "application/json", b, &res); err != nil {
		return nil, fmt.Errorf("init: %w", err)
	}
	if len(res.Uploads) != 1 {
		return nil, fmt.Errorf("init: %d uploads for one file", len(res.Uploads))
	}
	err := c.retry(ctx, func() (*http.Response, error) {
		r, err := http.NewRequestWithContext(ctx, "PUT", res.Uploads[0].UploadURL, bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		r.Header.Set("x-ms-blob-type", "BlockBlob")
		r.Header.Set("Content-Type", contentType)
		return c.hc.Do(r)
	}, nil)
	if err != nil {
		return nil, fmt.Errorf("upload: %w", err)
	}
	var job Job
	if err := c.call(ctx, "POST", "/v1/jobs/"+res.JobID+"/commit", "", nil, &job); err != nil {
		return nil, fmt.Errorf("commit: %w", err)
	}
	return &job, nil
}

// Get returns the job's current state.
func (c *Client) Get(ctx context.Context, jobID string) (*Job, error) {
	var job Job
	err := c.call(ctx, "GET", "/v1/jobs/"+jobID, "", nil, &job)
	return &job, err
}

// Wait polls the job until every document is terminal, sleeping first
// poll and growing the interval by half each time up to maxPoll.
func (c *Client) Wait(ctx context.Context, jobID string, poll, maxPoll time.Duration) (*Job, error) {
	for {
		job, err := c.Get(ctx, jobID)
		if err != nil {
			return nil, err
		}
		if job.Done() {
			return job, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(poll):
		}
		poll = min(poll*3/2, maxPoll)
	}
}

// Output downloads a redacted document.
func (c *Client) Output(ctx context.Context, docID string) ([]byte, error) {
	var out []byte
	err := c.call(ctx, "GET", "/v1/documents/"+docID+"/output", "", nil, &out)
	return out, err
}

// Delete deletes a job.
func (c *Client) Delete(ctx context.Context, jobID string) error {
	return c.call(ctx, "DELETE", "/v1/jobs/"+jobID, "", nil, nil)
}

// Metrics returns the server's /metrics text, from its metrics listener.
func (c *Client) Metrics(ctx context.Context) (string, error) {
	if c.MetricsURL == "" {
		return "", fmt.Errorf("metrics: no metrics URL (the server's metrics-listen)")
	}
	var out []byte
	err := c.retry(ctx, func() (*http.Response, error) {
		r, err := http.NewRequestWithContext(ctx, "GET", c.MetricsURL+"/metrics", nil)
		if err != nil {
			return nil, err
		}
		return c.hc.Do(r)
	}, &out)
	return string(out), err
}

// call sends one API request; a 2xx body is decoded into out (JSON), or
// copied when out is a *[]byte.
func (c *Client) call(ctx context.Context, method, path, contentType string, body []byte, out any) error {
	return c.retry(ctx, func() (*http.Response, error) {
		r, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		r.Header.Set("X-API-Key", c.key)
		if contentType != "" {
			r.Header.Set("Content-Type", contentType)
		}
		return c.hc.Do(r)
	}, out)
}

// retry runs send until it is not rate limited (at most a minute of
// tries), then reads the response.
func (c *Client) retry(ctx context.Context, send func() (*http.Response, error), out any) error {
	wait := 50 * time.Millisecond
	deadline := time.Now().Add(time.Minute)
	for {
		resp, err := send()
		if err != nil {
			return err
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		if resp.StatusCode == http.StatusTooManyRequests && time.Now().Before(deadline) {
			d := wait
			if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
				d = time.Duration(s) * time.Second
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(d):
			}
			wait = min(wait*2, 2*time.Second)
			continue
		}
		if resp.StatusCode/100 != 2 {
			e := &APIError{Status: resp.StatusCode}
			if json.Unmarshal(b, e) != nil || e.Code == "" && e.Message == "" {
				e.Message = string(bytes.TrimSpace(b[:min(len(b), 200)]))
			}
			return e
		}
		switch o := out.(type) {
		case nil:
			return nil
		case *[]byte:
			*o = b
			return nil
		default:
			if err := json.Unmarshal(b, out); err != nil {
				return fmt.Errorf("decoding response: %w", err)
			}
			return nil
		}
	}
}
