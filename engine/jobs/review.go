package jobs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/redactd/redactd/engine/review"
	"github.com/redactd/redactd/engine/store/record"
)

// The review editor's side of the job service (studio jobs only). Beside
// a studio document's files it keeps (engine/review for the shapes):
//
//	<doc id>.words.json    the pages' sizes and words with boxes, for search
//	<doc id>.review.json   the review state (masks with status and reason,
//	                       version); created from masks.json on first read
//	<doc id>.audit.jsonl   the audit log, append-only, chained with
//	                       HMAC-SHA256 under the audit key (auditkey.go)
//
// all purged with the job. State changes run under the account lock, so
// the version check of a PUT and its write are one step. Apply re-burns
// the original with the reviewed masks through the Processor (its Fixed
// input: the same render, encode and write path), then the same output
// gate as the first run (the verifier), then, with review-rescan, reads
// the new file again and refuses it when PII no rejected mask covers is
// still readable (leakGate), and only then replaces the output; the
// document shows redacting meanwhile and redacted after, also when the
// gate refused the new file (the old one is kept).

// ErrStale is PutReview's answer when If-Match names an older version.
var ErrStale = errors.New("stale version")

// ErrOutputRejected is ApplyReview's answer when the re-burnt output did
// not pass the gate (the verifier, or the re-scan still read PII that no
// rejected mask covers) or could not be produced; the old output is kept
// and the message says why.
var ErrOutputRejected = errors.New("output rejected")

// Reviewer is what the review routes and the editor need from the job
// service; Reviews (Engine.Reviewer) implements it.
type Reviewer interface {
	// StudioJob returns the caller's job when it is a studio job
	// (ErrInvalid when it is not, ErrNotFound when it is not theirs).
	StudioJob(ctx context.Context, acct *Account, jobID string) (*Job, error)
	ReviewState(ctx context.Context, acct *Account, docID string) (*review.State, error)
	PutReview(ctx context.Context, acct *Account, docID string, version int64, masks []review.Mask, actor string) (*review.State, error)
	ApplyReview(ctx context.Context, acct *Account, docID, actor string) (*review.Applied, error)
	ReviewAudit(ctx context.Context, acct *Account, docID string) ([]review.Entry, error)
	ReviewWords(ctx context.Context, acct *Account, docID string) ([]review.Word, error)
	// ReviewFile returns a path holding the original (or, with output,
	// the output), for the editor's previews (rendered server-side, never
	// sent). The caller calls release when it is done with the path.
	ReviewFile(ctx context.Context, acct *Account, docID string, output bool) (path string, release func(), err error)
	ReviewLimits() review.Limits
	// ReviewAccess keeps the editor's links and sessions.
	ReviewAccess
}

// Reviews is the job service's review side: the review state, words,
// audit log and apply of studio documents (this file) and the editor's
// links and sessions (reviewaccess.go). Engine.Reviewer hands it out.
type Reviews struct {
	*core
}

var _ Reviewer = (*Reviews)(nil)

// wordsFile is <doc>.words.json.
type wordsFile struct {
	Pages []review.Page `json:"pages"`
	Words []review.Word `json:"words"`
}

// writeReviewWords stores a studio document's page sizes and words as the
// processor reported them.
func (rv *Reviews) writeReviewWords(ctx context.Context, jobID, docID string, res *ProcessResult) error {
	st := review.New(docID, res.Pages, nil)
	data, err := json.Marshal(wordsFile{Pages: st.Pages, Words: review.Words(res.Words)})
	if err != nil {
		return err
	}
	return rv.files.write(ctx, jobID, docID+sufWords, data)
}

// ReviewLimits are the bounds a review state is checked against.
func (rv *Reviews) ReviewLimits() review.Limits {
	return review.Limits{MaxMasks: rv.cfg.ReviewMaxMasks, Reasons: review.ParseReasons(rv.cfg.ReviewReasons)}
}

// StudioJob implements Reviewer.
func (rv *Reviews) StudioJob(ctx context.Context, acct *Account, jobID string) (*Job, error) {
	j, err := rv.GetJob(ctx, acct, jobID)
	if err != nil {
		return nil, err
	}
	if j.Retention != Studio {
		return nil, errorf(ErrInvalid, "job_id", "the job is not a studio job; only studio jobs keep what the review editor needs")
	}
	return j, nil
}

// reviewDoc finds a document the caller may review: theirs, of a studio
// job, redacted (terminal with an output) and with its original kept.
// Everything else is ErrNotFound, as for unknown ids.
func (rv *Reviews) reviewDoc(acct *Account, docID string) (*record.Doc, error) {
	d, err := rv.ownedDoc(acct, docID, "review")
	if err != nil {
		return nil, err
	}
	return d, checkReviewable(rv.core, d)
}

func checkReviewable(e *core, d *record.Doc) error {
	j, err := e.jl.Job(d.JobID)
	if record.IsNotFound(err) {
		return ErrNotFound
	}
	if err != nil {
		return e.logErr("review", err)
	}
	if Retention(j.Retention) != Studio || d.Status != string(StatusRedacted) || !d.HasOutput || !d.HasOriginal {
		return errorf(ErrNotFound, "", "no review for this document (studio documents, once redacted)")
	}
	return nil
}

// loadReview reads the review state, creating it from the pipeline's
// masks on first use. The caller holds the account lock.
func (rv *Reviews) loadReview(ctx context.Context, d *record.Doc) (*review.State, error) {
	b, err := rv.files.read(ctx, d.JobID, d.ID+sufReview)
	if err == nil {
		var st review.State
		if err := json.Unmarshal(b, &st); err != nil {
			return nil, fmt.Errorf("review state: %w", err)
		}
		return &st, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var masks []Mask
	if b, err := rv.files.read(ctx, d.JobID, d.ID+sufMasks); err == nil {
		if err := json.Unmarshal(b, &masks); err != nil {
			return nil, fmt.Errorf("masks: %w", err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	st := review.New(d.ID, nil, masks)
	if st.Pages, err = rv.reviewPages(ctx, d); err != nil {
		return nil, err
	}
	return st, nil
}

// reviewPages are the page sizes from the words file, or, for a document
// redacted before words were kept, measured on the original.
func (rv *Reviews) reviewPages(ctx context.Context, d *record.Doc) ([]review.Page, error) {
	if b, err := rv.files.read(ctx, d.JobID, d.ID+sufWords); err == nil {
		var wf wordsFile
		if err := json.Unmarshal(b, &wf); err == nil && len(wf.Pages) > 0 {
			return wf.Pages, nil
		}
	}
	orig, release, err := rv.files.localCopy(ctx, d.JobID, d.ID+sufOrig)
	if err != nil {
		return nil, err
	}
	defer release()
	if rv.cfg.Previewer == nil {
		return nil, errors.New("review: no previewer to measure the original's pages")
	}
	return rv.cfg.Previewer.PageSizes(ctx, orig)
}

func (rv *Reviews) saveReview(ctx context.Context, d *record.Doc, st *review.State) error {
	data, err := json.Marshal(st)
	if err != nil {
		return err
	}
	return rv.files.write(ctx, d.JobID, d.ID+sufReview, data)
}

// appendAudit adds entries to the document's audit log, chained to its
// last entry and keyed with the installation's audit key (a log begun
// before the key gets keyed entries after its legacy ones), and syncs
// the file. The caller holds the account lock.
func (rv *Reviews) appendAudit(ctx context.Context, d *record.Doc, actor string, changes []review.Change) error {
	if len(changes) == 0 {
		return nil
	}
	prev, err := rv.readAudit(ctx, d)
	if err != nil {
		return err
	}
	var last *review.Entry
	if len(prev) > 0 {
		last = &prev[len(prev)-1]
	}
	var buf bytes.Buffer
	now := rv.now()
	for _, c := range changes {
		ent := review.Seal(review.Entry{At: now, Actor: actor, Action: c.Action, MaskID: c.MaskID, Page: c.Page,
			Category: c.Category, Reason: c.Reason}, last, rv.auditKey)
		buf.Write(review.AuditLine(ent))
		last = &ent
	}
	return rv.files.appendTo(ctx, d.JobID, d.ID+sufAudit, buf.Bytes())
}

func (rv *Reviews) readAudit(ctx context.Context, d *record.Doc) ([]review.Entry, error) {
	b, err := rv.files.read(ctx, d.JobID, d.ID+sufAudit)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return review.ReadAudit(bytes.NewReader(b))
}

// withReview runs fn on the document's review state under its account
// lock, after checking again that it may be reviewed.
func (rv *Reviews) withReview(ctx context.Context, acct *Account, docID string, fn func(t *tx, st *review.State) error) error {
	if _, err := rv.reviewDoc(acct, docID); err != nil {
		return err
	}
	unlock, err := rv.lockReview(ctx, docID)
	if err != nil {
		return err
	}
	defer unlock()
	// The review state lives beside the document's files, not in the job
	// log; a transition gives fn the account's lock and the document as
	// it stands, and commits whatever status move fn makes.
	err = rv.changeDoc(docRef{docID: docID}, func(t *tx) error {
		if err := checkReviewable(rv.core, t.doc); err != nil {
			return err
		}
		st, err := rv.loadReview(ctx, t.doc)
		if err != nil {
			rv.log.Error("engine: reading review state failed", "doc", docID, "err", err)
			return storageError(err)
		}
		return fn(t, st)
	})
	if errors.Is(err, errNoDoc) {
		return ErrNotFound
	}
	return rv.apiErr("review", err)
}

// reviewLockTTL bounds how long a node that died holding a document's
// review lock keeps the other nodes from editing it.
const reviewLockTTL = 30 * time.Second

// lockReview serializes the review transitions of one document across
// the nodes of a cluster: the review state and audit log are files, not
// records, so the record's compare-and-set does not fence them, and the
// account lock holds on one node only. It waits for the document's
// review role (record.Roles). On one node the account lock is enough.
func (rv *Reviews) lockReview(ctx context.Context, docID string) (unlock func(), err error) {
	roles, ok := rv.jl.(record.Roles)
	if !ok {
		return func() {}, nil
	}
	role, holder := "review."+docID, rv.node+"."+newID()
	for {
		held, err := roles.HoldRole(role, holder, reviewLockTTL)
		if err != nil {
			rv.log.Error("engine: review lock", "doc", docID, "err", err)
			return nil, errorf(ErrUnavailable, "", "the cluster store is unavailable")
		}
		if held {
			return func() {
				if err := roles.ReleaseRole(role, holder); err != nil {
					rv.log.Warn("engine: releasing review lock", "doc", docID, "err", err)
				}
			}, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// ReviewState implements Reviewer.
func (rv *Reviews) ReviewState(ctx context.Context, acct *Account, docID string) (*review.State, error) {
	var out *review.State
	err := rv.withReview(ctx, acct, docID, func(_ *tx, st *review.State) error {
		out = st
		return errNoChange
	})
	return out, err
}

// PutReview implements Reviewer: the whole mask list replaces the state
// when version is the current one, and every difference is audited.
func (rv *Reviews) PutReview(ctx context.Context, acct *Account, docID string, version int64, masks []review.Mask, actor string) (*review.State, error) {
	var out *review.State
	err := rv.withReview(ctx, acct, docID, func(t *tx, st *review.State) error {
		d := t.doc
		if version != st.Version {
			return errorf(ErrStale, "If-Match", "the review state is at version %d", st.Version)
		}
		if err := review.Validate(st.Pages, masks, rv.ReviewLimits()); err != nil {
			return reviewInvalid(err)
		}
		merged, changes, err := review.Merge(st, masks)
		if err != nil {
			return reviewInvalid(err)
		}
		st.Masks = merged
		st.Version++
		if err := rv.appendAudit(ctx, d, actor, changes); err != nil {
			rv.log.Error("engine: writing audit failed", "doc", d.ID, "err", err)
			return storageError(err)
		}
		if err := rv.saveReview(ctx, d, st); err != nil {
			rv.log.Error("engine: writing review state failed", "doc", d.ID, "err", err)
			return storageError(err)
		}
		out = st
		return errNoChange // the review state is a file; the job log is untouched
	})
	return out, err
}

func reviewInvalid(err error) error {
	var fe *review.FieldError
	if errors.As(err, &fe) {
		return &Error{Kind: ErrInvalid, Field: fe.Field, Msg: fe.Msg}
	}
	return errorf(ErrInvalid, "masks", "invalid")
}

// ReviewAudit implements Reviewer.
func (rv *Reviews) ReviewAudit(ctx context.Context, acct *Account, docID string) ([]review.Entry, error) {
	var out []review.Entry
	err := rv.withReview(ctx, acct, docID, func(t *tx, _ *review.State) error {
		var err error
		out, err = rv.readAudit(ctx, t.doc)
		if err != nil {
			return storageError(err)
		}
		return errNoChange
	})
	if out == nil {
		out = []review.Entry{}
	}
	return out, err
}

// ReviewWords implements Reviewer.
func (rv *Reviews) ReviewWords(ctx context.Context, acct *Account, docID string) ([]review.Word, error) {
	d, err := rv.reviewDoc(acct, docID)
	if err != nil {
		return nil, err
	}
	b, err := rv.files.read(ctx, d.JobID, d.ID+sufWords)
	if errors.Is(err, fs.ErrNotExist) {
		return []review.Word{}, nil
	}
	if err != nil {
		return nil, storageError(err)
	}
	var wf wordsFile
	if err := json.Unmarshal(b, &wf); err != nil {
		return nil, storageError(err)
	}
	return wf.Words, nil
}

// ReviewFile implements Reviewer.
func (rv *Reviews) ReviewFile(ctx context.Context, acct *Account, docID string, output bool) (string, func(), error) {
	d, err := rv.reviewDoc(acct, docID)
	if err != nil {
		return "", nil, err
	}
	name := d.ID + sufOrig
	if output {
		name = d.ID + sufOut
	}
	path, release, err := rv.files.localCopy(ctx, d.JobID, name)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil, ErrNotFound // purged meanwhile
	}
	if err != nil {
		return "", nil, storageError(err)
	}
	return path, release, nil
}

// ApplyReview implements Reviewer: re-burn, gate (verifier, re-scan),
// replace, audit. It runs
// as a scheduler worker (in flight, so a delete cancels and waits for it,
// and Drain waits for it too).
func (rv *Reviews) ApplyReview(ctx context.Context, acct *Account, docID, actor string) (*review.Applied, error) {
	var st *review.State
	var job *record.Job
	var run *running
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	err := rv.withReview(ctx, acct, docID, func(t *tx, s *review.State) error {
		d := t.doc
		if rv.proc == nil || rv.closing.Load() {
			return errorf(ErrUnavailable, "", "not processing documents")
		}
		if rv.sched.isInflight(d.ID) {
			return errorf(ErrConflict, "", "the document is being applied already")
		}
		t.move(d, StatusRedacting, "review apply")
		// In flight once committed: a delete of the job cancels it and
		// waits for it.
		t.onCommit(func() {
			run = &running{docID: d.ID, jobID: d.JobID, cancel: cancel, done: make(chan struct{})}
			rv.sched.mu.Lock()
			rv.sched.inflight[d.ID] = run
			rv.sched.mu.Unlock()
			rv.sched.wg.Add(1)
		})
		st, job = s, t.job
		return nil
	})
	if err != nil {
		return nil, err
	}
	stopBase := context.AfterFunc(rv.base, cancel) // Close cancels applies too
	defer func() {
		stopBase()
		cancel()
		rv.sched.mu.Lock()
		delete(rv.sched.inflight, docID)
		rv.sched.mu.Unlock()
		close(run.done)
		rv.sched.wg.Done()
	}()
	t0 := time.Now()
	out, res, perr := rv.reburn(rctx, job, docID, st)
	if perr != nil && storageFailure(perr) {
		rv.log.Error("engine: review apply could not read its files", "doc", docID, "err", perr)
	}
	if out != "" {
		defer os.Remove(out) // no-op once renamed
	}
	applied := &review.Applied{State: st, Leaks: []review.Leak{}, Timings: map[string]int64{"reburn": time.Since(t0).Milliseconds()}}
	if perr == nil {
		t1 := time.Now()
		applied.Leaks, applied.Rescanned = rv.rescan(rctx, job, docID, out, st)
		applied.Timings["rescan"] = time.Since(t1).Milliseconds()
		perr = leakGate(applied.Leaks)
	}
	if err := rv.finishApply(context.WithoutCancel(ctx), docID, actor, out, res, perr, applied); err != nil {
		return nil, err
	}
	return applied, nil
}

// leakGate is the second half of an apply's output gate: a re-burned
// output in which the re-scan still reads PII that no rejected mask
// covers (an unexpected leak: a mask moved off its word, a word the
// first run missed) is refused like one the verifier refused, so the
// old output stays. PII under a mask the reviewer rejected is readable
// on purpose and passes. The message names categories and pages only.
func leakGate(leaks []review.Leak) error {
	var bad []string
	for _, l := range leaks {
		if !l.Expected {
			bad = append(bad, fmt.Sprintf("%s on page %d", l.Category, l.Page))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	const show = 5
	list := strings.Join(bad[:min(len(bad), show)], ", ")
	if len(bad) > show {
		list += fmt.Sprintf(" and %d more", len(bad)-show)
	}
	return DocErrorf(fmt.Sprintf("the re-scan of the new output still reads PII that no rejected mask covers (%s); mask it or reject its mask", list))
}

// rescan reads a re-burned output with the processor's own OCR and
// detection, as a new document (the output is pixels only, so every page
// is read by OCR), and returns what it still finds as PII (leakGate
// refuses the output for any leak not expected). It is skipped when
// review-rescan or OCR is off; a failure of the re-scan itself is logged
// and reported as not rescanned, never as a failed apply.
func (rv *Reviews) rescan(ctx context.Context, j *record.Job, docID, path string, st *review.State) ([]review.Leak, bool) {
	if !rv.cfg.ReviewRescan || rv.cfg.OCR == "off" {
		return []review.Leak{}, false
	}
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return []review.Leak{}, false
	}
	defer null.Close()
	in := ProcessInput{DocID: docID, Path: path, Options: toOptions(j.Options)}
	res, err := rv.runProcessor(ctx, in, null, func(Progress) error { return ctx.Err() })
	if err != nil {
		rv.log.Warn("engine: re-scan of the re-burnt output failed", "doc", docID, "err", err)
		return []review.Leak{}, false
	}
	return review.Leaks(res.Masks, st.Masks), true
}

// reburn runs the processor on the original with the state's burned
// masks and the output gate on what it wrote.
func (rv *Reviews) reburn(ctx context.Context, j *record.Job, docID string, st *review.State) (string, *ProcessResult, error) {
	orig, release, err := rv.files.localCopy(ctx, j.ID, docID+sufOrig)
	if err != nil {
		return "", nil, err
	}
	defer release()
	out, err := rv.createOutput(j.ID)
	if err != nil {
		return "", nil, err
	}
	in := ProcessInput{DocID: docID, Path: orig, Options: toOptions(j.Options), Fixed: true, Masks: review.Burn(st.Masks)}
	res, perr := rv.runProcessor(ctx, in, out, func(Progress) error { return ctx.Err() })
	if perr != nil {
		out.Close()
		return out.Name(), nil, perr
	}
	if err := rv.files.closeSynced(out); err != nil {
		return out.Name(), nil, err
	}
	if err := rv.verify(out.Name()); err != nil {
		rv.log.Error("engine: re-burnt output failed verification", "doc", docID, "err", err)
		return out.Name(), nil, DocErrorf("output failed verification")
	}
	return out.Name(), res, nil
}

// finishApply publishes a re-burnt output that passed the gate, or keeps
// the old one, and moves the document back to redacted with an audit
// entry either way.
func (rv *Reviews) finishApply(ctx context.Context, docID, actor, out string, res *ProcessResult, perr error, applied *review.Applied) error {
	st := applied.State
	var result error
	unlock, err := rv.lockReview(ctx, docID)
	if err != nil {
		return err
	}
	defer unlock()
	err = rv.changeDoc(docRef{docID: docID}, func(t *tx) error {
		d, j := t.doc, t.job
		if d.Status != string(StatusRedacting) {
			return errNoChange // deleted or restored meanwhile
		}
		action, note := "apply", "review applied"
		if perr == nil {
			perr = rv.publishReburn(ctx, j.ID, d.ID, out, res)
		}
		if perr != nil {
			action, note = "apply_failed", "review apply failed; output kept"
			msg := UserMessage(perr)
			rv.log.Warn("engine: review apply failed", "doc", d.ID, "err", perr)
			result = errorf(ErrOutputRejected, "", "%s; the previous output is kept", msg)
			if applied.Rescanned {
				// The refused output's leaks, for the editor to show.
				st.Leaks = applied.Leaks
				if err := rv.saveReview(ctx, d, st); err != nil {
					return err
				}
			}
		} else {
			d.OutputBytes = res.OutputBytes
			st.Leaks = applied.Leaks
			if err := rv.saveReview(ctx, d, st); err != nil {
				return err
			}
		}
		t.move(d, StatusRedacted, note)
		burned := 0
		for _, m := range st.Masks {
			if m.Burned() {
				burned++
			}
		}
		reason := fmt.Sprintf("v%d:%d", st.Version, burned)
		if applied.Rescanned {
			reason += fmt.Sprintf(":leaks=%d", len(applied.Leaks))
		}
		return rv.appendAudit(ctx, d, actor, []review.Change{{Action: action, Reason: reason}})
	})
	if errors.Is(err, errNoDoc) {
		return ErrNotFound
	}
	if err != nil {
		return rv.logErr("apply", err)
	}
	return result
}

// publishReburn renames the new output and its report into place.
func (rv *Reviews) publishReburn(ctx context.Context, jobID, docID, out string, res *ProcessResult) error {
	report, err := rv.files.writeJSONTemp(jobID, buildReport(docID, res))
	if err != nil {
		return err
	}
	defer os.Remove(report)
	return rv.files.place(ctx, jobID, placement{out, docID + sufOut}, placement{report, docID + sufReport})
}

// interruptedApply reports whether d is a document whose review apply a
// crash interrupted: it shows redacting but already has an output, which
// first processing never leaves behind (the output is published in the
// batch that makes a document terminal).
func interruptedApply(d *record.Doc) bool {
	return !Status(d.Status).Terminal() && d.HasOutput
}

// restoreApplies returns interrupted applies to redacted: their output
// was to be replaced only after the gate, so what is in place is the last
// good one. recover calls it before anything runs.
func (rv *Reviews) restoreApplies(docs []*record.Doc) error {
	for _, d := range docs {
		err := rv.changeDoc(refOf(d), func(t *tx) error {
			t.move(t.doc, StatusRedacted, "review apply interrupted; output kept")
			return nil
		})
		if err != nil && !errors.Is(err, errNoDoc) {
			return err
		}
	}
	return nil
}
