package engine

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"os"
	"strconv"
	"time"

	"github.com/redactd/redactd/engine/imagein"
	"github.com/redactd/redactd/engine/joblog"
)

// Upload tokens are base64url(expiry unix seconds, 8 bytes BE || MAC),
// MAC = HMAC-SHA256(secret, "redactd-upload-v1\x00" docID "\x00" expiry).
// A token is bound to one document and cannot be extended.

func (e *Engine) uploadMAC(docID string, exp int64) []byte {
	m := hmac.New(sha256.New, e.secret)
	m.Write([]byte("redactd-upload-v1\x00" + docID + "\x00" + strconv.FormatInt(exp, 10)))
	return m.Sum(nil)
}

func (e *Engine) uploadToken(docID string, exp time.Time) string {
	b := binary.BigEndian.AppendUint64(nil, uint64(exp.Unix()))
	return base64.RawURLEncoding.EncodeToString(append(b, e.uploadMAC(docID, exp.Unix())...))
}

// CheckUploadToken implements Service.
func (e *Engine) CheckUploadToken(docID, token string) error {
	if !validID(docID) {
		return ErrNotFound
	}
	exp, ok := e.checkToken(docID, token)
	if !ok {
		return errorf(ErrUnauthorized, "", "invalid upload token")
	}
	if !e.now().Before(exp) {
		return errorf(ErrUnauthorized, "", "upload URL expired")
	}
	return nil
}

// checkToken verifies a token for docID in constant time and returns its
// expiry.
func (e *Engine) checkToken(docID, token string) (time.Time, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(raw) != 8+sha256.Size {
		return time.Time{}, false
	}
	exp := int64(binary.BigEndian.Uint64(raw))
	if !hmac.Equal(raw[8:], e.uploadMAC(docID, exp)) {
		return time.Time{}, false
	}
	return time.Unix(exp, 0), true
}

func isPDFType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "application/pdf"
}

type initFP struct {
	Name        string `json:"name"`
	ContentType string `json:"content_type"`
	Size        int64  `json:"size"`
}

type initRequestFP struct {
	Kind      string    `json:"kind"`
	Options   Options   `json:"options"`
	Retention Retention `json:"retention"`
	Files     []initFP  `json:"files"`
	Callback  string    `json:"callback,omitempty"` // see requestFP
}

// InitJob reserves a direct-upload job (PDFs only). See Engine.
func (e *Engine) InitJob(ctx context.Context, acct *Account, req InitJobRequest) (*Reservation, error) {
	if acct == nil {
		return nil, ErrUnauthorized
	}
	if e.closing.Load() {
		return nil, errorf(ErrUnavailable, "", "shutting down")
	}
	if len(req.Files) == 0 {
		return nil, errorf(ErrInvalid, "files", "at least one file is required")
	}
	if len(req.Files) > e.cfg.MaxFilesPerJob {
		return nil, errorf(ErrInvalid, "files", "more than %d files", e.cfg.MaxFilesPerJob)
	}
	fpReq := initRequestFP{Kind: nsInit, Options: req.Options, Retention: req.Retention, Callback: req.CallbackURL}
	if err := e.checkCallback(ctx, req.CallbackURL); err != nil {
		return nil, err
	}
	docs := make([]*joblog.Doc, len(req.Files))
	for i, f := range req.Files {
		field := fmt.Sprintf("files[%d]", i)
		name, err := cleanName(f.FileName, i, field+".filename")
		if err != nil {
			return nil, err
		}
		switch {
		case !isPDFType(f.ContentType):
			return nil, errorf(ErrInvalid, field+".content_type", "direct upload accepts application/pdf only")
		case f.SizeBytes <= 0:
			return nil, errorf(ErrInvalid, field+".size_bytes", "must be positive")
		case f.SizeBytes > e.cfg.MaxUploadBytes:
			return nil, errorf(ErrTooLarge, field, "%d bytes exceeds the limit of %d bytes", f.SizeBytes, e.cfg.MaxUploadBytes)
		}
		docs[i] = &joblog.Doc{Index: i, FileName: name, Kind: imagein.KindPDF.String(), SizeBytes: f.SizeBytes}
		fpReq.Files = append(fpReq.Files, initFP{Name: f.FileName, ContentType: f.ContentType, Size: f.SizeBytes})
	}
	ad, err := e.admit(acct, nsInit, req.Retention, req.Options, req.IdempotencyKey, fpReq)
	if err != nil {
		return nil, err
	}
	defer ad.unlock()
	if ad.replay != nil {
		return e.reservation(ad.replay)
	}
	ret, opts, fp := ad.retention, ad.options, ad.fp
	jobID := newID()
	dir := e.jobDir(jobID)
	if err := os.Mkdir(dir, 0o700); err != nil {
		return nil, storageError(err)
	}
	if err := syncDir(e.filesDir); err != nil {
		os.RemoveAll(dir)
		return nil, storageError(err)
	}
	j, err := e.recordJob(ctx, acct.ID, jobID, nsInit, req.IdempotencyKey, fp, ret, opts, docs, true, req.CallbackURL)
	if err != nil || j.ID != jobID {
		os.RemoveAll(dir)
		if err != nil {
			return nil, err
		}
	} else {
		e.log.Info("upload reserved", "job", jobID, "account", acct.ID, "documents", len(docs))
	}
	return e.reservation(j)
}

// reservation rebuilds the answer to InitJob; tokens are deterministic, so
// a replayed init gets the same URLs.
func (e *Engine) reservation(j *joblog.Job) (*Reservation, error) {
	docs, err := e.jl.JobDocs(j)
	if err != nil {
		return nil, e.logErr("init job", err)
	}
	r := &Reservation{JobID: j.ID}
	exp := time.Unix(j.UploadExpires.Unix(), 0)
	for _, d := range docs {
		r.Uploads = append(r.Uploads, ReservedUpload{
			DocumentID: d.ID, FileName: d.FileName,
			Token: e.uploadToken(d.ID, exp), Expires: exp,
		})
	}
	return r, nil
}

var errCommitted = errorf(ErrConflict, "", "upload already committed")

// PutUpload stores the bytes of a reserved document. See Engine.
func (e *Engine) PutUpload(ctx context.Context, docID, token, contentType string, size int64, body io.Reader) error {
	if err := e.CheckUploadToken(docID, token); err != nil {
		return err
	}
	d, err := e.jl.Doc(docID)
	if joblog.IsNotFound(err) {
		return ErrNotFound
	}
	if err != nil {
		return e.logErr("upload", err)
	}
	if d.Released || d.Status != string(StatusUploaded) {
		return errCommitted
	}
	if contentType != "" && !isPDFType(contentType) {
		return errorf(ErrInvalid, "Content-Type", "want application/pdf")
	}
	if size >= 0 && size != d.SizeBytes {
		return errorf(ErrInvalid, "", "size mismatch: reserved %d bytes, got %d", d.SizeBytes, size)
	}
	dir := e.jobDir(d.JobID)
	tmp, sum, err := e.receive(dir, d.SizeBytes, body)
	if err != nil {
		return err
	}
	defer os.Remove(tmp) // no-op once renamed

	unlock := e.lockAcct(d.AccountID)
	defer unlock()
	d, err = e.jl.Doc(docID)
	if joblog.IsNotFound(err) {
		return ErrNotFound
	}
	if err != nil {
		return e.logErr("upload", err)
	}
	if d.Released || d.Status != string(StatusUploaded) {
		return errCommitted
	}
	j, err := e.jl.Job(d.JobID)
	if err != nil {
		return e.logErr("upload", err)
	}
	if err := os.Rename(tmp, e.origPath(d.JobID, d.ID)); err != nil {
		return storageError(err)
	}
	if err := syncDir(dir); err != nil {
		return storageError(err)
	}
	note := "upload received"
	if d.HasOriginal {
		note = "upload replaced"
	}
	d.HasOriginal, d.SHA256, d.UpdatedAt = true, sum, e.now()
	b := e.jl.NewBatch()
	e.event(b, j, d.ID, StatusUploaded, StatusUploaded, note)
	b.PutDoc(d)
	b.PutJob(j)
	if err := b.Commit(true); err != nil {
		return e.logErr("upload", err)
	}
	e.log.Info("upload received", "job", d.JobID, "doc", d.ID)
	return nil
}

// receive streams body (exactly want bytes of PDF) into a synced temporary
// file in dir and returns its path and SHA-256.
func (e *Engine) receive(dir string, want int64, body io.Reader) (string, string, error) {
	f, err := e.newDurable(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return "", "", ErrNotFound // the job was deleted meanwhile
	}
	if err != nil {
		return "", "", storageError(err)
	}
	fail := func(err error) (string, string, error) {
		f.abort()
		return "", "", err
	}
	h := sha256.New()
	r := io.LimitReader(body, want+1)
	head := make([]byte, min(want, imagein.SniffLen))
	n, err := io.ReadFull(r, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return fail(errorf(ErrInvalid, "", "reading upload: %v", err))
	}
	if int64(n) < int64(len(head)) {
		return fail(errorf(ErrInvalid, "", "size mismatch: reserved %d bytes, got %d", want, n))
	}
	if k, _ := imagein.Sniff(head); k != imagein.KindPDF {
		return fail(errorf(ErrInvalid, "", "upload is not a PDF"))
	}
	w := io.MultiWriter(f, h)
	if _, err := w.Write(head); err != nil {
		return fail(storageError(err))
	}
	m, err := io.Copy(w, r)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return fail(storageError(err))
		}
		return fail(errorf(ErrInvalid, "", "reading upload: %v", err))
	}
	if got := int64(n) + m; got != want {
		return fail(errorf(ErrInvalid, "", "size mismatch: reserved %d bytes, got %d", want, got))
	}
	if err := f.seal(); err != nil {
		return "", "", storageError(err)
	}
	return f.Name(), hex.EncodeToString(h.Sum(nil)), nil
}

// Commit releases a direct-upload job. See Engine for the rules; calling
// it again is safe and returns the job's current state.
func (e *Engine) Commit(ctx context.Context, acct *Account, jobID string) (*Job, error) {
	if _, err := e.ownedJob(acct, jobID); err != nil {
		return nil, err
	}
	unlock := e.lockAcct(acct.ID)
	defer unlock()
	// Re-read under the account lock: the job may have changed since.
	j, err := e.jl.Job(jobID)
	if joblog.IsNotFound(err) {
		return nil, ErrNotFound
	} else if err != nil {
		return nil, e.logErr("commit", err)
	}
	docs, err := e.jl.JobDocs(j)
	if err != nil {
		return nil, e.logErr("commit", err)
	}
	var pending []*joblog.Doc
	landed := false
	for _, d := range docs {
		if d.HasOriginal || d.Released {
			landed = true
		}
		if !d.Released && d.Status == string(StatusUploaded) {
			pending = append(pending, d)
		}
	}
	if len(pending) == 0 {
		return jobView(j, docs), nil
	}
	now := e.now()
	expired := !now.Before(j.UploadExpires)
	b := e.jl.NewBatch()
	released, failed := 0, 0
	for _, d := range pending {
		switch {
		case d.HasOriginal:
			d.Released = true
			d.QueuedAt = e.queueStamp()
			d.UpdatedAt = now
			b.Enqueue(d.QueuedAt, d.ID, j.ID)
			e.event(b, j, d.ID, StatusUploaded, StatusUploaded, "released")
			released++
		case !landed || expired:
			d.ErrorMessage = "upload not received"
			e.setStatus(b, j, d, StatusError, d.ErrorMessage)
			failed++
		default:
			continue // still uploadable: a later commit picks it up
		}
		b.PutDoc(d)
	}
	j.Committed = true
	if released+failed > 0 && !allTerminal(docs) && !hasPending(docs) {
		// Everything is released or failed: drop the upload deadline; the
		// retention clock starts when the documents are done.
		b.SetExpiry(j.ID, j.ExpiresAt, time.Time{})
		j.ExpiresAt = time.Time{}
	}
	e.settle(b, j, docs)
	if err := b.Commit(true); err != nil {
		return nil, e.logErr("commit", err)
	}
	e.queued.Add(int64(released))
	e.updateQueueGauge()
	for range failed {
		recordTerminal(StatusError, time.Time{})
	}
	if released > 0 {
		e.wake()
	}
	e.log.Info("upload committed", "job", j.ID, "released", released, "failed", failed)
	return jobView(j, docs), nil
}

func hasPending(docs []*joblog.Doc) bool {
	for _, d := range docs {
		if !d.Released && d.Status == string(StatusUploaded) {
			return true
		}
	}
	return false
}
