package jobs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/redactd/redactd/engine/contract"
)

// Retention is the retention mode of a job.
type Retention string

const (
	Ephemeral Retention = contract.RetentionEphemeral
	Studio    Retention = contract.RetentionStudio
)

// Errors the service returns; the server maps them to HTTP codes.
// Wrapped errors carry a message meant for the caller (no PII, no paths).
var (
	ErrUnauthorized = errors.New("unauthorized")       // 401
	ErrInvalid      = errors.New("invalid request")    // 400 invalid_request
	ErrQuota        = errors.New("insufficient quota") // 402 quota_exceeded
	ErrNotFound     = errors.New("not found")          // 404 not_found
	ErrTooLarge     = errors.New("file too large")     // 413 file_too_large
	ErrConflict     = errors.New("conflict")           // 409 idempotency_conflict
	ErrUnavailable  = errors.New("unavailable")        // 503 unavailable (disk full, shutting down)
)

// Error is an error meant for the caller: its Kind (one of the Err
// sentinels above, so errors.Is(err, ErrInvalid) holds), the request field
// it is about ("pii_included_terms[3]", "files[0].size_bytes"; empty when
// none) and a message that holds no document content, key or path. The
// HTTP layer builds its error body from Field and Msg as typed values.
type Error struct {
	Kind  error
	Field string
	Msg   string
}

func (e *Error) Error() string {
	s := e.Kind.Error()
	if m := e.Message(); m != "" {
		s += ": " + m
	}
	return s
}

// Message is the caller's text: "field: message", or the message alone.
func (e *Error) Message() string {
	switch {
	case e.Field == "":
		return e.Msg
	case e.Msg == "":
		return e.Field
	}
	return e.Field + ": " + e.Msg
}

func (e *Error) Unwrap() error { return e.Kind }

// errorf builds an *Error of kind about field.
func errorf(kind error, field, format string, args ...any) error {
	return &Error{Kind: kind, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Account owns keys, jobs, documents and defaults.
type Account struct {
	ID         string
	Email      string
	Plan       string // free or standard
	PagesQuota int64
	PagesUsed  int64
	Defaults   Options
	CreatedAt  time.Time
	// KeyID is the API key the caller authenticated with (Authenticate):
	// a review link records it, so that revoking the key ends the link
	// and the sessions opened with it.
	KeyID string
}

// Job is the API view of a job.
type Job struct {
	ID        string
	AccountID string
	Status    Status
	Retention Retention
	CreatedAt time.Time
	// Language is the job's language hint ("" for auto).
	Language  string
	Documents []Document
}

// Document is the API view of a document.
type Document struct {
	ID           string
	FileName     string
	Status       Status
	PageCount    int
	ErrorMessage string // empty unless Status is error
	PagesDone    int    // pages written to the output so far (extension)
}

// File is one uploaded file of a multipart job: its name and its bytes,
// either spooled to a temporary file under the data directory as they
// arrived (Service.Spool; how the HTTP server receives uploads, so that a
// job's files never sit in memory) or, for callers that hold them, in
// Data.
type File struct {
	Name  string
	Data  []byte
	Spool *Spooled
}

// Size is the file's length in bytes.
func (f File) Size() int64 {
	if f.Spool != nil {
		return f.Spool.size
	}
	return int64(len(f.Data))
}

// Remove deletes the file's spooled bytes unless CreateJob took them.
func (f File) Remove() {
	if f.Spool != nil {
		f.Spool.Remove()
	}
}

// CreateJobRequest is POST /v1/jobs after parsing.
type CreateJobRequest struct {
	Files          []File
	Options        Options
	Retention      Retention
	IdempotencyKey string
	// CallbackURL, when set, receives the job once every document is
	// terminal (extension; must be allowed by webhook-allow-hosts).
	CallbackURL string
}

// Remove deletes the spooled files CreateJob did not take (all of them
// when it was not called or failed). It is safe to call more than once.
func (r CreateJobRequest) Remove() {
	for _, f := range r.Files {
		f.Remove()
	}
}

// InitFile is one entry of POST /v1/jobs/init.
type InitFile struct {
	FileName    string
	ContentType string
	SizeBytes   int64
}

// InitJobRequest is POST /v1/jobs/init after parsing.
type InitJobRequest struct {
	Files          []InitFile
	Options        Options
	Retention      Retention
	IdempotencyKey string
	CallbackURL    string // as in CreateJobRequest
}

// Reservation answers InitJob.
type Reservation struct {
	JobID   string
	Uploads []ReservedUpload
}

// ReservedUpload is one file slot; Token is the signed, expiring secret the
// server puts into the upload URL.
type ReservedUpload struct {
	DocumentID string
	FileName   string
	Token      string
	Expires    time.Time
}

// DemoResult describes the redaction of the built-in sample.
type DemoResult struct {
	Status      string
	Message     string
	SampleInput string
	DetectedPII []DemoDetection
}

// DemoDetection is one category found in the sample.
type DemoDetection struct {
	Category string
	Example  string
	Masked   bool
}

// KeyInfo describes an API key without revealing it.
type KeyInfo struct {
	ID        string // short public id, usable with revoke
	AccountID string
	Email     string
	CreatedAt time.Time
	Revoked   bool
}

// Service is everything the HTTP layer needs; it never touches storage
// itself. All methods are safe for concurrent use.
type Service interface {
	Authenticate(ctx context.Context, apiKey string) (*Account, error)
	// Spool writes an upload to a temporary file under the data directory,
	// reading at most max+1 bytes (a longer upload shows as Size() > max,
	// for the caller to refuse), for CreateJob to move into the job it
	// creates. A failure to store is ErrUnavailable; any other error is
	// r's. The caller removes what CreateJob did not take
	// (CreateJobRequest.Remove).
	Spool(ctx context.Context, r io.Reader, max int64) (*Spooled, error)
	CreateJob(ctx context.Context, acct *Account, req CreateJobRequest) (*Job, error)
	InitJob(ctx context.Context, acct *Account, req InitJobRequest) (*Reservation, error)
	// PutUpload stores the bytes of a reserved document. token is the
	// secret from the upload URL; an expired, forged or reused-for-another
	// document token gives ErrNotFound or ErrUnauthorized.
	PutUpload(ctx context.Context, docID, token, contentType string, size int64, body io.Reader) error
	// CheckUploadToken checks an upload URL's token as PutUpload does
	// first (ErrNotFound for a malformed id, ErrUnauthorized for a forged
	// or expired token), without touching storage: the server asks it
	// before answering Expect: 100-continue.
	CheckUploadToken(docID, token string) error
	Commit(ctx context.Context, acct *Account, jobID string) (*Job, error)
	GetJob(ctx context.Context, acct *Account, jobID string) (*Job, error)
	// ListJobs returns a page of the caller's jobs, newest first
	// (extension: GET /v1/jobs).
	ListJobs(ctx context.Context, acct *Account, req ListJobsRequest) (*JobList, error)
	DeleteJob(ctx context.Context, acct *Account, jobID string) error
	// Output opens a redacted document's PDF. The caller closes it.
	Output(ctx context.Context, acct *Account, docID string) (io.ReadCloser, int64, error)
	// Report returns a redacted document's report while its output exists
	// (extension: GET /v1/documents/{doc_id}/report).
	Report(ctx context.Context, acct *Account, docID string) (*Report, error)
	Demo(ctx context.Context) (*DemoResult, []byte, error)

	// Admin.
	CreateKey(ctx context.Context, email, plan string, pages int64) (key string, info KeyInfo, err error)
	ListKeys(ctx context.Context) ([]KeyInfo, error)
	RevokeKey(ctx context.Context, keyID string) error
	SetDefaults(ctx context.Context, email string, opts Options) error

	Ready() error
	Close() error
}

// NamedOutput is optionally implemented by the reader Service.Output
// returns: FileName is the document's file_name, from which the server
// derives the download name (NAME-redacted.pdf) for Content-Disposition.
// Without it the server names the download after the document id.
type NamedOutput interface {
	FileName() string
}
