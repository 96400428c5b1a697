package jobs

import (
	"time"

	"github.com/redactd/redactd/engine/store/record"
)

// lifecycle holds the status rules of documents and jobs (the package
// documentation, doc.go, states them): the order of statuses, a job's
// status derived from its documents', the event every move records, and
// the retention clock and webhook that start when the last document of
// a job ends. Transitions apply it through tx; it writes only into the
// batch it is given.
type lifecycle struct {
	now                  func() time.Time
	outputTTL, studioTTL time.Duration
	// finished queues the job's webhook delivery in the batch that
	// makes its last document terminal.
	finished func(b record.Batch, j *record.Job)
}

func rank(s Status) int {
	switch s {
	case StatusUploaded:
		return 0
	case StatusAnalyzing:
		return 1
	case StatusRedacting:
		return 2
	}
	return 3
}

// deriveStatus is the job status rule documented on Engine.
func deriveStatus(docs []*record.Doc) Status {
	least := -1
	anyRedacted := false
	for _, d := range docs {
		s := Status(d.Status)
		if s.Terminal() {
			anyRedacted = anyRedacted || s == StatusRedacted
			continue
		}
		r := rank(s)
		if s == StatusUploaded && d.Released {
			r = rank(StatusAnalyzing)
		}
		if least < 0 || r < least {
			least = r
		}
	}
	switch least {
	case -1:
		if anyRedacted {
			return StatusRedacted
		}
		return StatusError
	case 0:
		return StatusUploaded
	case 1:
		return StatusAnalyzing
	}
	return StatusRedacting
}

func allTerminal(docs []*record.Doc) bool {
	for _, d := range docs {
		if !Status(d.Status).Terminal() {
			return false
		}
	}
	return true
}

// event appends a transition to the job's log inside b.
func (l lifecycle) event(b record.Batch, j *record.Job, docID string, from, to Status, note string) {
	j.Seq++
	b.AddEvent(j.ID, &record.Event{Seq: j.Seq, At: l.now(), Doc: docID, From: string(from), To: string(to), Note: note})
}

// setStatus moves a document to a new status, with an event.
func (l lifecycle) setStatus(b record.Batch, j *record.Job, d *record.Doc, to Status, note string) {
	if Status(d.Status) == to {
		return
	}
	l.event(b, j, d.ID, Status(d.Status), to, note)
	d.Status = string(to)
	d.UpdatedAt = l.now()
}

// settle recomputes the job's status from docs (which hold the batch's
// document changes), records a job event when it changes, starts the
// retention clock once every document is terminal, and writes the job.
func (l lifecycle) settle(b record.Batch, j *record.Job, docs []*record.Doc) {
	if st := deriveStatus(docs); string(st) != j.Status {
		l.event(b, j, "", Status(j.Status), st, "")
		j.Status = string(st)
	}
	if allTerminal(docs) && j.FinishedAt.IsZero() {
		j.FinishedAt = l.now()
		exp := j.FinishedAt.Add(l.ttl(Retention(j.Retention)))
		setExpiry(b, j.ID, j.ExpiresAt, exp)
		j.ExpiresAt = exp
		l.finished(b, j)
	}
	b.PutJob(j)
}

// ttl is how long a finished job of retention r is kept.
func (l lifecycle) ttl(r Retention) time.Duration {
	if r == Studio {
		return l.studioTTL
	}
	return l.outputTTL
}
