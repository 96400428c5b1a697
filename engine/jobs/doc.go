// Package engine is redactd's job service: accounts and keys, jobs and
// documents, the durable job log, the work queue, quotas, idempotency,
// retention and direct uploads. Engine implements Service; the document
// pipeline plugs in as a Processor, and measures pages for the review
// side as a contract.Previewer (Settings.Previewer), so the job service
// links neither the pipeline nor MuPDF (internal/layers: TestLayering).
//
// # Its parts
//
// Engine, which Open returns, owns the lifecycle (Drain, Close, Ready)
// and the parts, each a type over the one shared core (core.go: settings,
// record store and queue, files, account locks, the in-flight set, and
// change, the one transition function, transition.go):
//
//   - API: the calls of Service (jobs.go, accounts.go, listing.go,
//     report.go, demo.go, spool.go); Engine embeds it.
//   - Uploads: the direct upload (upload.go, secrets.go); API embeds it.
//   - Reviews: the review side (review.go, reviewaccess.go), handed out
//     by Engine.Reviewer.
//   - Webhooks: the webhook queue and the dispatcher's store (hooks.go),
//     handed out by Engine.Webhooks.
//   - dispatcher: the scheduler's loops and the attempts at a document
//     (dispatch.go, attempt.go).
//   - janitor: recovery at Open and the periodic pass (janitor.go).
//
// # What the job service decides
//
// Where the interface description leaves behaviour open, Engine decides:
//
// Storage. Records live in a record.Store (records.go), package storelog
// on an engine/store engine: on one node pebble at DATA/store (package
// pebblestore; a job log of an earlier release at DATA/joblog is moved
// there once at start and kept as DATA/joblog.migrated, migrate.go), on
// a cluster node the shared NATS JetStream engine; files under
// files-dir (default DATA/files)/<job id>/. Every state change is one
// batch (document state, job state, queue entry, quota charge and
// transition event together), committed durably before anything is
// acknowledged, as compare-and-set steps (one log sync for all of them
// on one node) that a lost race makes the transition retry on a cluster. Files are
// written to a temporary name, fsynced, renamed and their directory
// fsynced before the batch that refers to them. A failing disk (full,
// read-only) on job creation gives ErrUnavailable and leaves no job.
//
// Job status is derived from the documents' statuses: while any document
// is not terminal, the job shows the least advanced state among those
// documents, where a document that is released to processing but still
// waiting in the queue counts as analyzing (so a new multipart job shows
// analyzing while its documents show uploaded) and a direct-upload
// document not yet released counts as uploaded. Once all documents are
// terminal the job is redacted if at least one document is redacted, and
// error if all failed; callers check each document's status.
//
// Documents move uploaded → analyzing → redacting → redacted as the
// Processor reports progress (never backwards, also when a document is
// processed again after a restart), or to error with error_message set:
// the Processor's DocError message, a generic message for internal
// failures and panics, "output failed verification" when the written
// output fails the verifier, "insufficient page quota" and the free-plan
// and page-limit messages below, "upload not received" / "upload not
// committed" for direct uploads, "server storage unavailable" when the
// output cannot be written for a reason other than a full or read-only
// disk (those keep the document queued and retry it every few seconds
// until space returns), and "processing failed repeatedly" for a
// document whose processing was interrupted (crash) maxAttempts times.
//
// Quota. Each account has a page quota (plan free: cfg.FreePages, plan
// standard: cfg.StandardPages, unless CreateKey gives pages). Creating a
// job (multipart or init) when no pages are left gives ErrQuota (402).
// Pages are charged when the page count becomes known (the Processor's
// progress report, or its result if it never reported one), in the same
// batch that records the count on the document, so a document is charged
// exactly once across retries, crashes and reprocessing. A document that
// does not fit the remaining pages ends in error "insufficient page
// quota", and nothing is charged. Documents are never redacted partially.
// A document that fails after being charged is refunded in the batch that
// records the failure, and deleting a job refunds its unfinished
// documents, so only redacted documents consume quota. Free
// plan: the whole allowance is cfg.FreePages pages (5); a document longer
// than the allowance ends in error "free plan: documents up to N pages";
// so the first document of up to 5 pages is redacted in full. Documents
// above cfg.MaxPagesPerDoc end in error on every plan.
//
// Idempotency. X-Idempotency-Key (at most 200 characters) is scoped to
// the account, with separate namespaces for POST /v1/jobs and
// /v1/jobs/init. A repeated request returns the original job (or
// reservation) without creating or charging anything, also under
// concurrent retries (creation with a key is serialized per account and
// key, and rechecked inside the account lock before the batch). A key
// reused with a different request (options as given, retention, file
// names, sizes and SHA-256 for multipart; names, content types and sizes
// for init) gives ErrInvalid "X-Idempotency-Key was already used with a
// different request". The record lives as long as its job: deleting or
// expiring the job frees the key.
//
// Options. Omitted (nil) pii_categories, pii_included_terms and
// pii_excluded_terms take the account's saved defaults when the job is
// created; the resolved options are stored with the job, so later changes
// to the defaults do not affect it. A new account's defaults are all
// categories and no terms.
//
// Direct upload. InitJob reserves documents (status uploaded, not
// released) and returns one token per document: HMAC-SHA256 over the
// document id and the expiry (now + cfg.UploadURLTTL) with a secret kept
// in DATA/upload-secret (0600, apart from the record store), so URLs
// survive restarts and the move of an earlier release's job log. PutUpload checks the token in
// constant time and its expiry (both ErrUnauthorized; an unknown document
// is ErrNotFound), that the document is not yet released (ErrConflict), the size (the declared and the received
// size must equal the reserved size, else ErrInvalid) and that the bytes
// are a PDF (ErrInvalid); a repeated PUT before release replaces the file.
// Commit is idempotent: it releases every reserved document whose file
// has landed. A document without its file stays reserved (uploaded) while
// its URL is valid, so the caller can PUT it and commit again; once the
// URL has expired it ends in error "upload not received". When no file of
// the job has landed at all, commit puts every document, and so the job,
// in error. Reservations never committed expire with their URLs (the
// janitor puts their documents in error), and then follow the retention
// rules below.
//
// Retention. The retention clock starts when every document of a job is
// terminal. Ephemeral: each original is deleted as soon as its document is
// terminal; outputs are kept cfg.OutputTTL. Studio: originals, outputs and
// masks (DATA/files/<job>/<doc>.masks.json) are kept cfg.StudioTTL, with
// the words, review state and audit log of the review editor (review.go);
// a review apply moves a redacted studio document to redacting and back,
// the one backward move, on the caller's request. The
// janitor purges expired jobs every cfg.JanitorInterval. DeleteJob purges
// the job, its documents, files, events and idempotency record at once,
// whatever the retention mode, and stops its processing.
//
// Privacy. Other accounts' job and document ids behave exactly like
// unknown ids (ErrNotFound). Logs carry ids and counts, never file names,
// keys, terms or document content.
package jobs
