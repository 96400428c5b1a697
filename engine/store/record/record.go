// Package record holds the job service's stored records (accounts, keys,
// jobs, documents, events, idempotency, webhook and review records) and the
// errors every record store returns. It is a leaf shared by the engine
// and the stores under it (engine/store/joblog on pebble, engine/store/storelog on
// the engine/store contract), so neither store imports the other and the
// engine sees one set of types whichever store it runs on.
package record

import (
	"errors"
	"time"
)

var (
	// ErrNotFound reports a missing record.
	ErrNotFound = errors.New("record: not found")
	// ErrClosed reports use of a closed store.
	ErrClosed = errors.New("record: closed")
)

// IsNotFound reports whether err is (or wraps) ErrNotFound.
func IsNotFound(err error) bool { return errors.Is(err, ErrNotFound) }

// ListedJob is one job of a listing page with its documents, read
// together.
type ListedJob struct {
	Job  *Job
	Docs []*Doc
}

// RedactOptions are the redaction settings stored with an account (its
// defaults) and with a job (resolved at creation). Category names are the
// spec's pii_categories values.
type RedactOptions struct {
	Categories []string `json:"categories"`
	Included   []string `json:"included"`
	Excluded   []string `json:"excluded"`
	// Language is a job's language hint (contract.Options.Language; ""
	// for auto). Account defaults have none.
	Language string `json:"language,omitempty"`
}

// Account owns keys, jobs and the page quota.
type Account struct {
	V int `json:"v"`
	// Rev is the revision the record was read at, for stores that change
	// records by compare-and-set (engine/store/storelog); 0 for a new record.
	Rev        uint64        `json:"-"`
	ID         string        `json:"id"`
	Email      string        `json:"email"`
	Plan       string        `json:"plan"`
	PagesQuota int64         `json:"pages_quota"`
	PagesUsed  int64         `json:"pages_used"`
	Defaults   RedactOptions `json:"defaults"`
	CreatedAt  time.Time     `json:"created_at"`
	// WebhookSecret signs the account's webhook deliveries (hex, made by
	// `redactd keys webhook-secret`); empty until first asked for.
	WebhookSecret string `json:"webhook_secret,omitempty"`
}

// Key is an API key record. Only the SHA-256 of the key is stored.
type Key struct {
	V int `json:"v"`
	// Rev is the revision the record was read at, for stores that change
	// records by compare-and-set (engine/store/storelog); 0 for a new record.
	Rev       uint64    `json:"-"`
	ID        string    `json:"id"`
	AccountID string    `json:"account_id"`
	Hash      []byte    `json:"hash"`
	CreatedAt time.Time `json:"created_at"`
	Revoked   bool      `json:"revoked,omitempty"`
	RevokedAt time.Time `json:"revoked_at,omitzero"`
}

// Job is a stored job. Status is derived from the documents' states and
// rewritten in the same batch as every document change.
type Job struct {
	V int `json:"v"`
	// Rev is the revision the record was read at, for stores that change
	// records by compare-and-set (engine/store/storelog); 0 for a new record.
	Rev       uint64        `json:"-"`
	ID        string        `json:"id"`
	AccountID string        `json:"account_id"`
	Status    string        `json:"status"`
	Retention string        `json:"retention"`
	CreatedAt time.Time     `json:"created_at"`
	Options   RedactOptions `json:"options"`
	DocIDs    []string      `json:"doc_ids"`
	// Direct marks a job created by the init/upload/commit flow.
	Direct bool `json:"direct,omitempty"`
	// UploadExpires is when the direct-upload URLs expire.
	UploadExpires time.Time `json:"upload_expires,omitzero"`
	// Committed is set by the first commit of a direct-upload job.
	Committed bool `json:"committed,omitempty"`
	// ExpiresAt is the job's entry in the retention index (zero: none).
	ExpiresAt time.Time `json:"expires_at,omitzero"`
	// FinishedAt is when every document became terminal.
	FinishedAt time.Time `json:"finished_at,omitzero"`
	// IdemNS and IdemKey name the idempotency record to purge with the job.
	IdemNS  string `json:"idem_ns,omitempty"`
	IdemKey string `json:"idem_key,omitempty"`
	// Seq is the sequence number of the job's last event.
	Seq uint64 `json:"seq"`
	// CallbackURL receives the job once every document is terminal.
	CallbackURL string `json:"callback_url,omitempty"`
}

// Hook is a pending webhook delivery of a finished job.
type Hook struct {
	V         int       `json:"v"`
	JobID     string    `json:"job_id"`
	AccountID string    `json:"account_id"`
	URL       string    `json:"url"`
	Attempts  int       `json:"attempts"`
	FirstAt   time.Time `json:"first_at"`
	NextAt    time.Time `json:"next_at"`
}

// Doc is a stored document.
type Doc struct {
	V int `json:"v"`
	// Rev is the revision the record was read at, for stores that change
	// records by compare-and-set (engine/store/storelog); 0 for a new record.
	Rev          uint64 `json:"-"`
	ID           string `json:"id"`
	JobID        string `json:"job_id"`
	AccountID    string `json:"account_id"`
	Index        int    `json:"index"`
	FileName     string `json:"file_name"`
	Kind         string `json:"kind"` // pdf, png, jpeg, tiff
	SizeBytes    int64  `json:"size_bytes"`
	SHA256       string `json:"sha256,omitempty"`
	Status       string `json:"status"`
	ErrorMessage string `json:"error_message,omitempty"`
	PageCount    int    `json:"page_count"`
	// PagesDone counts the pages written to the output, stored at most
	// about once a second while the document is processed.
	PagesDone int `json:"pages_done,omitempty"`
	// Released means the document may be processed (multipart: at
	// creation; direct upload: when a commit found its blob).
	Released bool `json:"released,omitempty"`
	// QueuedAt is the time part of the document's ready-queue key; 0 when
	// it is not queued.
	QueuedAt    int64 `json:"queued_at,omitempty"`
	HasOriginal bool  `json:"has_original,omitempty"`
	HasOutput   bool  `json:"has_output,omitempty"`
	HasMasks    bool  `json:"has_masks,omitempty"`
	HasReport   bool  `json:"has_report,omitempty"`
	OutputBytes int64 `json:"output_bytes,omitempty"`
	// Charged is set in the batch that adds ChargedPages to the account,
	// so a page count is charged exactly once.
	Charged      bool      `json:"charged,omitempty"`
	ChargedPages int64     `json:"charged_pages,omitempty"`
	Refunded     bool      `json:"refunded,omitempty"`
	Attempts     int       `json:"attempts,omitempty"`
	UpdatedAt    time.Time `json:"updated_at"`
}

// Idem is an idempotency record: the job a key created and a fingerprint
// of the request that created it.
type Idem struct {
	V           int       `json:"v"`
	JobID       string    `json:"job_id"`
	Fingerprint string    `json:"fingerprint"`
	CreatedAt   time.Time `json:"created_at"`
}

// Event is one entry of a job's transition log. Doc is empty for a change
// of the job's own status.
type Event struct {
	V    int       `json:"v"`
	Seq  uint64    `json:"seq"`
	At   time.Time `json:"at"`
	Doc  string    `json:"doc,omitempty"`
	From string    `json:"from,omitempty"`
	To   string    `json:"to"`
	Note string    `json:"note,omitempty"`
}

// QueueEntry is one document waiting in the ready queue.
type QueueEntry struct {
	At    int64 // enqueue time, unix ns; orders the queue
	DocID string
	JobID string
	// AccountID is the document's account, so that a transition of the
	// document takes its account's lock without reading the document
	// first. Empty in an entry written before entries carried it.
	AccountID string
}

// RetentionEntry is one job in the retention index.
type RetentionEntry struct {
	At    time.Time
	JobID string
}

// Kinds of ReviewGrant.
const (
	ReviewLink    = "link"
	ReviewSession = "session"
)

// ReviewGrant is a review link or an editor session (server/review): what
// it allows (one job of one account, a role, the name the audit log gives
// the person) and the API key that made it, so that revoking the key ends
// it. It is stored under the SHA-256 of its token, never the token, so
// the records show nothing a browser could present.
type ReviewGrant struct {
	V int `json:"v"`
	// Rev is the revision the record was read at: UpdateReviewGrant and
	// DeleteReviewGrant act only on an unchanged record.
	Rev       uint64    `json:"-"`
	AccountID string    `json:"account_id"`
	KeyID     string    `json:"key_id"`
	JobID     string    `json:"job_id"`
	Role      string    `json:"role"`
	Actor     string    `json:"actor"`
	Created   time.Time `json:"created"`
	// Expires is a link's end, or a session's absolute end (its
	// redemption plus review-session-max).
	Expires time.Time `json:"expires"`
	// Seen is a session's last use as stored (refreshed only now and
	// then, see engine/jobs/reviewaccess.go); Idle is the idle bound it was
	// opened with. Both are zero for a link.
	Seen time.Time     `json:"seen,omitzero"`
	Idle time.Duration `json:"idle,omitempty"`
}

// Ended reports whether g no longer works at now: past its end, or, for
// a session, idle for its idle bound.
func (g *ReviewGrant) Ended(now time.Time) bool {
	return !now.Before(g.Expires) || (g.Idle > 0 && now.Sub(g.Seen) >= g.Idle)
}
