package jobs

import (
	"context"
	"encoding/base64"

	"github.com/google/uuid"

	"github.com/redactd/redactd/engine/store/record"
)

// Listing limits of GET /v1/jobs.
const (
	DefaultListLimit = 50
	MaxListLimit     = 500
)

// ListJobsRequest asks for one page of the caller's jobs, newest first.
type ListJobsRequest struct {
	Limit  int    // 1..MaxListLimit
	Cursor string // "" for the first page, else a JobList.NextCursor
	Status Status // "" for every status
}

// JobList is one page of jobs. NextCursor is "" when no job remains.
// A page may hold fewer than Limit jobs (a status filter reads a bounded
// number of jobs per call) while NextCursor is set.
type JobList struct {
	Jobs       []*Job
	NextCursor string
}

// cursorEncoding keeps cursors URL-safe; they are opaque to callers.
var cursorEncoding = base64.RawURLEncoding

// ListJobs returns a page of the caller's jobs, newest first. A cursor is
// the position of the last job of the previous page (its creation time and
// id, encoded); it only ever reads within the caller's own index, so
// another account's cursor cannot reveal anything.
func (api *API) ListJobs(ctx context.Context, acct *Account, req ListJobsRequest) (*JobList, error) {
	if acct == nil {
		return nil, ErrUnauthorized
	}
	if req.Limit < 1 || req.Limit > MaxListLimit {
		return nil, errorf(ErrInvalid, "limit", "must be between 1 and %d", MaxListLimit)
	}
	switch req.Status {
	case "", StatusUploaded, StatusAnalyzing, StatusRedacting, StatusRedacted, StatusError:
	default:
		return nil, errorf(ErrInvalid, "status", "must be one of uploaded, analyzing, redacting, redacted, error")
	}
	var before []byte
	if req.Cursor != "" {
		b, err := cursorEncoding.DecodeString(req.Cursor)
		if err != nil || len(b) != record.ListCursorLen || uuid.Validate(string(b[8:])) != nil {
			return nil, errorf(ErrInvalid, "cursor", "not a cursor returned by this endpoint")
		}
		before = b
	}
	jobs, next, err := api.jl.ListJobs(acct.ID, before, req.Limit, string(req.Status))
	if err != nil {
		return nil, api.logErr("list jobs", err)
	}
	out := &JobList{Jobs: make([]*Job, len(jobs))}
	for i, j := range jobs {
		out.Jobs[i] = jobView(j.Job, j.Docs)
	}
	if next != nil {
		out.NextCursor = cursorEncoding.EncodeToString(next)
	}
	return out, nil
}
