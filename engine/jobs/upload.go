package jobs

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"strconv"
	"time"

	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/imagein"
	"github.com/redactd/redactd/engine/store/record"
)

// Uploads is the direct upload: the signed upload URLs of reserved
// documents, the PUT of a document's bytes and the commit that releases
// what has landed. InitJob, which reserves the documents, is job creation
// and stays with CreateJob; it asks Uploads for the tokens
// (reservation). Engine embeds Uploads, so Service's upload calls are
// these.
type Uploads struct {
	*core
	secret []byte // signs upload URLs; DATA/upload-secret (loadUploadSecret)
}

// Upload tokens are base64url(expiry unix seconds, 8 bytes BE || MAC),
// MAC = HMAC-SHA256(secret, "redactd-upload-v1\x00" docID "\x00" expiry).
// A token is bound to one document and cannot be extended.

func (up *Uploads) uploadMAC(docID string, exp int64) []byte {
	m := hmac.New(sha256.New, up.secret)
	m.Write([]byte("redactd-upload-v1\x00" + docID + "\x00" + strconv.FormatInt(exp, 10)))
	return m.Sum(nil)
}

func (up *Uploads) uploadToken(docID string, exp time.Time) string {
	b := binary.BigEndian.AppendUint64(nil, uint64(exp.Unix()))
	return base64.RawURLEncoding.EncodeToString(append(b, up.uploadMAC(docID, exp.Unix())...))
}

// CheckUploadToken implements Service.
func (up *Uploads) CheckUploadToken(docID, token string) error {
	if !validID(docID) {
		return ErrNotFound
	}
	exp, ok := up.checkToken(docID, token)
	if !ok {
		return errorf(ErrUnauthorized, "", "invalid upload token")
	}
	if !up.now().Before(exp) {
		return errorf(ErrUnauthorized, "", "upload URL expired")
	}
	return nil
}

// checkToken verifies a token for docID in constant time and returns its
// expiry.
func (up *Uploads) checkToken(docID, token string) (time.Time, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(raw) != 8+sha256.Size {
		return time.Time{}, false
	}
	exp := int64(binary.BigEndian.Uint64(raw))
	if !hmac.Equal(raw[8:], up.uploadMAC(docID, exp)) {
		return time.Time{}, false
	}
	return time.Unix(exp, 0), true
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

// reservation rebuilds the answer to InitJob; tokens are deterministic, so
// a replayed init gets the same URLs.
func (up *Uploads) reservation(j *record.Job) (*Reservation, error) {
	docs, err := up.jl.JobDocs(j)
	if err != nil {
		return nil, up.logErr("init job", err)
	}
	r := &Reservation{JobID: j.ID}
	exp := time.Unix(j.UploadExpires.Unix(), 0)
	for _, d := range docs {
		r.Uploads = append(r.Uploads, ReservedUpload{
			DocumentID: d.ID, FileName: d.FileName,
			Token: up.uploadToken(d.ID, exp), Expires: exp,
		})
	}
	return r, nil
}

var errCommitted = errorf(ErrConflict, "", "upload already committed")

// PutUpload stores the bytes of a reserved document. See the package documentation.
func (up *Uploads) PutUpload(ctx context.Context, docID, token, contentType string, size int64, body io.Reader) error {
	if err := up.CheckUploadToken(docID, token); err != nil {
		return err
	}
	d, err := up.uploadable(docID)
	if err != nil {
		return err
	}
	if contentType != "" && !contract.IsPDFType(contentType) {
		return errorf(ErrInvalid, "Content-Type", "want application/pdf")
	}
	if size >= 0 && size != d.SizeBytes {
		return errorf(ErrInvalid, "", "size mismatch: reserved %d bytes, got %d", d.SizeBytes, size)
	}
	dir, err := up.files.workDir(d.JobID)
	if err != nil {
		return storageError(err)
	}
	tmp, sum, err := up.receive(dir, d.SizeBytes, body)
	if err != nil {
		return err
	}
	defer os.Remove(tmp) // no-op once renamed
	if err := up.stageUpload(ctx, d, tmp); err != nil {
		return err
	}

	err = up.changeDoc(refOf(d), func(t *tx) error {
		d := t.doc
		if d.Released || d.Status != string(StatusUploaded) {
			return errCommitted
		}
		if err := up.files.place(ctx, d.JobID, placement{tmp, d.ID + sufOrig}); err != nil {
			return storageError(err)
		}
		note := "upload received"
		if d.HasOriginal {
			note = "upload replaced"
		}
		d.HasOriginal, d.SHA256, d.UpdatedAt = true, sum, up.now()
		t.event(d, StatusUploaded, StatusUploaded, note)
		return nil
	})
	if errors.Is(err, errNoDoc) {
		return ErrNotFound
	}
	if err != nil {
		return up.apiErr("upload", err)
	}
	up.log.Info("upload received", "job", d.JobID, "doc", d.ID)
	return nil
}

// uploadable reads a reserved document that may still take a PUT:
// ErrNotFound when it is gone, errCommitted once its job was committed.
func (up *Uploads) uploadable(docID string) (*record.Doc, error) {
	d, err := up.jl.Doc(docID)
	if record.IsNotFound(err) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, up.logErr("upload", err)
	}
	if d.Released || d.Status != string(StatusUploaded) {
		return nil, errCommitted
	}
	return d, nil
}

// stageUpload stores a received upload where the commit of the PUT's
// transition finds it, before that transition: on a cluster the blob
// upload then holds no account lock (on one node stage does nothing and
// the transition renames the file). The document is read again first, so
// a PUT that arrives after its commit stores nothing; one that races the
// commit on another node is caught before processing, by the original's
// SHA-256 (checkOriginal).
func (up *Uploads) stageUpload(ctx context.Context, d *record.Doc, tmp string) error {
	err := up.files.stage(ctx, d.JobID, func() error {
		_, err := up.uploadable(d.ID)
		return err
	}, placement{tmp, d.ID + sufOrig})
	if err == nil || errors.Is(err, ErrNotFound) || errors.Is(err, errCommitted) {
		return err
	}
	up.log.Error("engine: storing upload failed", "doc", d.ID, "err", err)
	return storageError(err)
}

// receive streams body (exactly want bytes of PDF) into a synced temporary
// file in dir and returns its path and SHA-256.
func (up *Uploads) receive(dir string, want int64, body io.Reader) (string, string, error) {
	f, err := up.files.newDurable(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return "", "", ErrNotFound // the job was deleted meanwhile
	}
	if err != nil {
		return "", "", storageError(err)
	}
	fail := func(err error) (string, string, error) {
		f.Abort()
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
	if err := f.Seal(); err != nil {
		return "", "", storageError(err)
	}
	return f.Name(), hex.EncodeToString(h.Sum(nil)), nil
}

// Commit releases a direct-upload job. See Engine for the rules; calling
// it again is safe and returns the job's current state.
func (up *Uploads) Commit(ctx context.Context, acct *Account, jobID string) (*Job, error) {
	if _, err := up.ownedJob(acct, jobID); err != nil {
		return nil, err
	}
	var view *Job
	released, failed := 0, 0
	err := up.changeJob(acct.ID, jobID, func(t *tx) error {
		var changed bool
		released, failed, changed = up.release(t)
		if !changed {
			view = jobView(t.job, t.docs)
			return errNoChange
		}
		t.onCommit(func() { view = jobView(t.job, t.docs) })
		return nil
	})
	if err != nil {
		return nil, up.apiErr("commit", err)
	}
	if released+failed > 0 {
		up.updateQueueGauge()
		if released > 0 {
			up.sched.wake()
		}
		up.log.Info("upload committed", "job", jobID, "released", released, "failed", failed)
	}
	return view, nil
}

// release is Commit's transition: uploaded documents are queued, those
// whose upload can no longer come go to error, and once nothing is left
// to upload the upload deadline is dropped.
func (up *Uploads) release(t *tx) (released, failed int, changed bool) {
	j, docs := t.job, t.docs
	landed := false
	var pending []*record.Doc
	for _, d := range docs {
		if d.HasOriginal || d.Released {
			landed = true
		}
		if !d.Released && d.Status == string(StatusUploaded) {
			pending = append(pending, d)
		}
	}
	if len(pending) == 0 {
		return 0, 0, false
	}
	now := up.now()
	expired := !now.Before(j.UploadExpires)
	for _, d := range pending {
		switch {
		case d.HasOriginal:
			d.Released = true
			d.UpdatedAt = now
			t.enqueue(d)
			t.event(d, StatusUploaded, StatusUploaded, "released")
			released++
		case !landed || expired:
			d.ErrorMessage = "upload not received"
			t.setStatus(d, StatusError, d.ErrorMessage)
			failed++
		}
	}
	j.Committed = true
	if released+failed > 0 && !allTerminal(docs) && !hasPending(docs) {
		// Everything is released or failed: drop the upload deadline; the
		// retention clock starts when the documents are done.
		setExpiry(t.b, j.ID, j.ExpiresAt, time.Time{})
		j.ExpiresAt = time.Time{}
	}
	return released, failed, true
}

func hasPending(docs []*record.Doc) bool {
	for _, d := range docs {
		if !d.Released && d.Status == string(StatusUploaded) {
			return true
		}
	}
	return false
}
