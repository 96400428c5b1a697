package jobs

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"slices"
	"time"

	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/imagein"
	"github.com/redactd/redactd/engine/store/record"
)

// API is the service the HTTP layer calls (Service, less Ready and
// Close, which are Engine's): job creation, reading, output and delete
// (this file), accounts and keys (accounts.go), listing (listing.go),
// reports (report.go), the demo (demo.go) and spooling (spool.go); the
// direct upload's calls are the embedded Uploads'. It asks the review
// side to end a revoked key's links and the webhook queue to check a
// callback URL.
type API struct {
	*core
	*Uploads
	rev *Reviews
	wh  *Webhooks
}

// Idempotency namespaces.
const (
	nsCreate = "create"
	nsInit   = "init"
)

const (
	purgeWaitTime = 30 * time.Second
)

// The request rules are engine/contract's, the HTTP layer's too (one
// wording per rule); the engine applies them again to what it is handed
// and turns their *contract.FieldError into an *Error (fieldError).

// limits are the bounds of the request rules, from the settings.
func (api *API) limits() contract.Limits {
	return contract.Limits{MaxTerms: api.cfg.MaxTermCount, MaxFiles: api.cfg.MaxFilesPerJob, MaxFileBytes: api.cfg.MaxUploadBytes}
}

// fieldError turns a request rule's *contract.FieldError into an *Error
// with the same field and message: ErrTooLarge for a file announced over
// the limit, ErrInvalid otherwise. Other errors pass unchanged.
func fieldError(err error) error {
	var fe *contract.FieldError
	if !errors.As(err, &fe) {
		return err
	}
	kind := ErrInvalid
	if fe.TooLarge {
		kind = ErrTooLarge
	}
	return &Error{Kind: kind, Field: fe.Field, Msg: fe.Msg}
}

// validateOptions applies the option rules (contract.Options.Validate).
func (api *API) validateOptions(o Options) (Options, error) {
	v, err := o.Validate(api.limits())
	if err != nil {
		return o, fieldError(err)
	}
	return v, nil
}

// validateRetention applies contract.CheckRetention; none given is
// ephemeral.
func validateRetention(r Retention) (Retention, error) {
	if r == "" {
		return Ephemeral, nil
	}
	if err := contract.CheckRetention(string(r)); err != nil {
		return "", fieldError(err)
	}
	return r, nil
}

// validateIdemKey applies contract.CheckIdempotencyKey.
func validateIdemKey(k string) error {
	return fieldError(contract.CheckIdempotencyKey(k))
}

// fingerprint hashes a request for idempotency comparison.
func fingerprint(v any) string {
	b, _ := json.Marshal(v)
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

var errIdemMismatch = errorf(ErrInvalid, "", "X-Idempotency-Key was already used with a different request")

// replay returns the job an idempotency key already created, nil when the
// key is unused, or errIdemMismatch.
func (api *API) replay(accountID, ns, key, fp string) (*record.Job, error) {
	r, err := api.jl.Idem(accountID, ns, key)
	if record.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, api.logErr("idempotency", err)
	}
	if r.Fingerprint != fp {
		return nil, errIdemMismatch
	}
	j, err := api.jl.Job(r.JobID)
	if record.IsNotFound(err) {
		return nil, nil // purged together with its record; cannot happen
	}
	if err != nil {
		return nil, api.logErr("idempotency", err)
	}
	return j, nil
}

// resolve applies the account's defaults to omitted options.
func resolve(o Options, a *record.Account) record.RedactOptions {
	r := record.RedactOptions{
		Categories: slices.Clone(a.Defaults.Categories),
		Included:   slices.Clone(a.Defaults.Included),
		Excluded:   slices.Clone(a.Defaults.Excluded),
		Language:   o.Language, // per request: accounts keep no default
	}
	if o.Categories != nil {
		r.Categories = categoryNames(o.Categories)
	}
	if o.Included != nil {
		r.Included = o.Included
	}
	if o.Excluded != nil {
		r.Excluded = o.Excluded
	}
	r.Categories, r.Included, r.Excluded = nonNil(r.Categories), nonNil(r.Included), nonNil(r.Excluded)
	return r
}

// account reads the caller's account for a state change.
func (api *API) account(acct *Account) (*record.Account, error) {
	if acct == nil {
		return nil, ErrUnauthorized
	}
	a, err := api.jl.Account(acct.ID)
	if record.IsNotFound(err) {
		return nil, ErrUnauthorized
	}
	if err != nil {
		return nil, api.logErr("account", err)
	}
	return a, nil
}

// fileFP is one file of a create fingerprint.
type fileFP struct {
	Name   string `json:"name"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256,omitempty"`
	Type   string `json:"type,omitempty"`
}

type requestFP struct {
	Kind      string    `json:"kind"`
	Options   Options   `json:"options"`
	Retention Retention `json:"retention"`
	Files     []fileFP  `json:"files"`
	// Callback is omitted when empty, so fingerprints stored before
	// webhooks existed still match their requests.
	Callback string `json:"callback,omitempty"`
}

// admission is what both job-creation paths (multipart and init) decide
// the same way once their files are validated.
type admission struct {
	retention Retention
	options   Options
	fp        string
	// replay is the job an earlier request with the same idempotency key
	// created; when set, the caller answers with it and creates nothing.
	replay *record.Job
	unlock func()
}

// admit validates retention, options and the idempotency key, takes the
// per-key lock (so concurrent retries serialize), and returns either the
// job a repeated key created before or, for a new job, checks that the
// account has pages left. The caller must call unlock.
func (api *API) admit(acct *Account, ns string, ret Retention, o Options, key string, fpReq any) (*admission, error) {
	ret, err := validateRetention(ret)
	if err != nil {
		return nil, err
	}
	opts, err := api.validateOptions(o)
	if err != nil {
		return nil, err
	}
	if err := validateIdemKey(key); err != nil {
		return nil, err
	}
	ad := &admission{retention: ret, options: opts, fp: fingerprint(fpReq), unlock: func() {}}
	if key != "" {
		ad.unlock = api.idem.lock(acct.ID + "\x00" + ns + "\x00" + key)
		j, err := api.replay(acct.ID, ns, key, ad.fp)
		if err != nil || j != nil {
			ad.replay = j
			if err != nil {
				ad.unlock()
				return nil, err
			}
			return ad, nil
		}
	}
	a, err := api.account(acct)
	if err == nil && !api.quota.left(a) {
		err = ErrQuota
	}
	if err != nil {
		ad.unlock()
		return nil, err
	}
	return ad, nil
}

// CreateJob creates a job from a multipart upload. See Engine for the
// rules; the originals are durable before the job is recorded.
func (api *API) CreateJob(ctx context.Context, acct *Account, req CreateJobRequest) (*Job, error) {
	if acct == nil {
		return nil, ErrUnauthorized
	}
	if api.closing.Load() {
		return nil, errorf(ErrUnavailable, "", "shutting down")
	}
	fpReq := requestFP{Kind: nsCreate, Options: req.Options, Retention: req.Retention, Callback: req.CallbackURL}
	if err := api.wh.checkCallback(ctx, req.CallbackURL); err != nil {
		return nil, err
	}
	lim := api.limits()
	if err := contract.CheckFileCount(len(req.Files), lim); err != nil {
		return nil, fieldError(err)
	}
	docs := make([]*record.Doc, len(req.Files))
	for i, f := range req.Files {
		name := contract.CleanFileName(f.Name)
		size, head, sum := fileFacts(f)
		if err := contract.CheckFileSize(i, size, lim); err != nil {
			return nil, fieldError(err)
		}
		kind, ok := sniff(head)
		if !ok {
			return nil, errorf(ErrInvalid, contract.FileField(i), "unsupported file type (want PDF, PNG, JPEG, TIFF, GIF, BMP or WebP)")
		}
		docs[i] = &record.Doc{Index: i, FileName: name, Kind: kind, SizeBytes: size, SHA256: sum}
		fpReq.Files = append(fpReq.Files, fileFP{Name: f.Name, Size: size, SHA256: sum})
	}
	ad, err := api.admit(acct, nsCreate, req.Retention, req.Options, req.IdempotencyKey, fpReq)
	if err != nil {
		return nil, err
	}
	defer ad.unlock()
	if ad.replay != nil {
		return api.view(ad.replay)
	}
	ret, opts, fp := ad.retention, ad.options, ad.fp

	// Originals first, durable, in a directory no record points at yet; a
	// crash before the batch leaves an orphan directory that the next
	// start removes.
	jobID := newID()
	if err := api.writeOriginals(ctx, jobID, docs, req.Files); err != nil {
		api.files.removeJob(context.WithoutCancel(ctx), jobID, docIDs(docs))
		api.log.Error("engine: writing originals failed", "job", jobID, "err", err)
		return nil, storageError(err)
	}
	j, err := api.recordJob(ctx, acct.ID, jobID, nsCreate, req.IdempotencyKey, fp, ret, opts, docs, false, req.CallbackURL)
	if err != nil || j.ID != jobID {
		api.files.removeJob(context.WithoutCancel(ctx), jobID, docIDs(docs))
		if err != nil {
			return nil, err
		}
		return api.view(j) // a concurrent request with the same key won
	}
	api.sched.wake()
	api.log.Info("job created", "job", jobID, "account", acct.ID, "documents", len(docs), "retention", string(ret))
	return api.view(j)
}

// writeOriginals stores a new job's originals, before any record points
// at them, and names its documents.
func (api *API) writeOriginals(ctx context.Context, jobID string, docs []*record.Doc, files []File) error {
	if err := api.files.newJob(jobID); err != nil {
		return err
	}
	dir, err := api.files.workDir(jobID)
	if err != nil {
		return err
	}
	ps := make([]placement, len(docs))
	for i, d := range docs {
		d.ID = newID()
		tmp, err := api.originalTemp(dir, files[i])
		if err != nil {
			return err
		}
		ps[i] = placement{tmp, d.ID + sufOrig}
	}
	if err := api.files.place(ctx, jobID, ps...); err != nil {
		return err
	}
	for i, d := range docs {
		d.HasOriginal = true
		if s := files[i].Spool; s != nil {
			s.taken = true
		}
	}
	return nil
}

// docIDs lists the documents' ids (those named so far).
func docIDs(docs []*record.Doc) []string {
	ids := make([]string, 0, len(docs))
	for _, d := range docs {
		if d.ID != "" {
			ids = append(ids, d.ID)
		}
	}
	return ids
}

// recordJob commits a new job with its documents in one synced batch,
// under the account lock, after rechecking idempotency and quota. direct
// jobs are reservations (documents not released); others are queued at
// once. If the idempotency key was taken meanwhile it returns that job.
func (api *API) recordJob(ctx context.Context, accountID, jobID, ns, idemKey, fp string, ret Retention, opts Options, docs []*record.Doc, direct bool, callback string) (*record.Job, error) {
	var job *record.Job
	err := api.change(accountID, func(t *tx) error {
		if idemKey != "" {
			if j, err := api.replay(accountID, ns, idemKey, fp); err != nil || j != nil {
				job = j
				if err != nil {
					return err
				}
				return errNoChange
			}
		}
		a, err := t.account()
		if record.IsNotFound(err) {
			return ErrUnauthorized
		}
		if err != nil {
			return err
		}
		if !api.quota.left(a) {
			return ErrQuota
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		job = api.newJob(t, jobID, ns, idemKey, fp, ret, opts, docs, direct, callback)
		return nil
	})
	if err != nil {
		return nil, api.apiErr("create job", err)
	}
	return job, nil
}

// newJob is recordJob's transition: the job and its documents, their
// first events, the idempotency record, and the queue entries or (for a
// direct-upload job) the upload deadline.
func (api *API) newJob(t *tx, jobID, ns, idemKey, fp string, ret Retention, opts Options, docs []*record.Doc, direct bool, callback string) *record.Job {
	now := api.now()
	j := &record.Job{
		ID: jobID, AccountID: t.accountID, Retention: string(ret), CreatedAt: now,
		Options: resolve(opts, t.acct), Direct: direct, CallbackURL: callback,
	}
	if idemKey != "" {
		j.IdemNS, j.IdemKey = ns, idemKey
		t.b.PutIdem(t.accountID, ns, idemKey, &record.Idem{JobID: jobID, Fingerprint: fp, CreatedAt: now})
	}
	if direct {
		j.UploadExpires = now.Add(api.cfg.UploadURLTTL)
		j.ExpiresAt = j.UploadExpires
		setExpiry(t.b, j.ID, time.Time{}, j.ExpiresAt)
	}
	t.adopt(j, docs)
	for _, d := range docs {
		if d.ID == "" {
			d.ID = newID()
		}
		d.JobID, d.AccountID, d.Status, d.UpdatedAt = jobID, t.accountID, string(StatusUploaded), now
		j.DocIDs = append(j.DocIDs, d.ID)
		t.event(d, "", StatusUploaded, "")
		if !direct {
			d.Released = true
			t.enqueue(d)
		}
	}
	t.onCommit(func() {
		if !direct {
			api.updateQueueGauge()
		}
		api.metrics.jobsCreated.Inc()
	})
	return j
}

// DeleteJob purges the job at once, whatever its retention mode: records,
// files, events and idempotency record; processing of its documents is
// canceled and pages charged for unfinished documents are refunded.
func (api *API) DeleteJob(ctx context.Context, acct *Account, jobID string) error {
	j, err := api.ownedJob(acct, jobID)
	if err != nil {
		return err
	}
	if err := api.purge(ctx, j.ID, acct.ID); err != nil {
		return err
	}
	api.log.Info("job deleted", "job", jobID, "account", acct.ID)
	return nil
}

// Output opens a redacted document's PDF.
func (api *API) Output(ctx context.Context, acct *Account, docID string) (io.ReadCloser, int64, error) {
	d, err := api.ownedDoc(acct, docID, "output")
	if err != nil {
		return nil, 0, err
	}
	if d.Status != string(StatusRedacted) || !d.HasOutput {
		return nil, 0, errorf(ErrNotFound, "", "output not ready")
	}
	f, size, err := api.files.open(ctx, d.JobID, d.ID+sufOut)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, ErrNotFound // purged meanwhile
	}
	if err != nil {
		api.log.Error("engine: opening output failed", "doc", docID, "err", err)
		return nil, 0, storageError(err)
	}
	return &namedFile{ReadCloser: f, name: d.FileName}, size, nil
}

// namedFile is the reader Output returns; it implements NamedOutput so the
// server can name the download after the uploaded file.
type namedFile struct {
	io.ReadCloser
	name string
}

func (f *namedFile) FileName() string { return f.name }

// InitJob reserves a direct-upload job (PDFs only). See the package documentation.
func (api *API) InitJob(ctx context.Context, acct *Account, req InitJobRequest) (*Reservation, error) {
	if acct == nil {
		return nil, ErrUnauthorized
	}
	if api.closing.Load() {
		return nil, errorf(ErrUnavailable, "", "shutting down")
	}
	lim := api.limits()
	if err := contract.CheckFileCount(len(req.Files), lim); err != nil {
		return nil, fieldError(err)
	}
	fpReq := initRequestFP{Kind: nsInit, Options: req.Options, Retention: req.Retention, Callback: req.CallbackURL}
	if err := api.wh.checkCallback(ctx, req.CallbackURL); err != nil {
		return nil, err
	}
	docs := make([]*record.Doc, len(req.Files))
	for i, f := range req.Files {
		name := contract.CleanFileName(f.FileName)
		if err := contract.CheckInitFile(i, f.ContentType, f.SizeBytes, lim); err != nil {
			return nil, fieldError(err)
		}
		docs[i] = &record.Doc{Index: i, FileName: name, Kind: imagein.KindPDF.String(), SizeBytes: f.SizeBytes}
		fpReq.Files = append(fpReq.Files, initFP{Name: f.FileName, ContentType: f.ContentType, Size: f.SizeBytes})
	}
	ad, err := api.admit(acct, nsInit, req.Retention, req.Options, req.IdempotencyKey, fpReq)
	if err != nil {
		return nil, err
	}
	defer ad.unlock()
	if ad.replay != nil {
		return api.reservation(ad.replay)
	}
	ret, opts, fp := ad.retention, ad.options, ad.fp
	jobID := newID()
	if err := api.files.newJob(jobID); err != nil {
		return nil, storageError(err)
	}
	j, err := api.recordJob(ctx, acct.ID, jobID, nsInit, req.IdempotencyKey, fp, ret, opts, docs, true, req.CallbackURL)
	if err != nil || j.ID != jobID {
		api.files.removeJob(context.WithoutCancel(ctx), jobID, nil) // nothing uploaded yet
		if err != nil {
			return nil, err
		}
	} else {
		api.log.Info("upload reserved", "job", jobID, "account", acct.ID, "documents", len(docs))
	}
	return api.reservation(j)
}
