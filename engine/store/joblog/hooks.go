package joblog

// pHook holds the pending webhook deliveries, one per finished job with a
// callback URL:
//
//	hook/<job>    Hook
//
// The engine writes the entry in the batch that makes the job's last
// document terminal, so a delivery is queued exactly once; the webhook
// dispatcher rewrites it after a failed attempt and deletes it once
// delivered or given up. PurgeJob deletes it with the job.
const pHook = "hook/"

// PutHook writes a pending delivery.
func (b *Batch) PutHook(h *Hook) {
	h.V = recordVersion
	b.set([]byte(pHook+h.JobID), h)
}

// DeleteHook removes a job's pending delivery.
func (b *Batch) DeleteHook(jobID string) { b.b.Delete([]byte(pHook+jobID), nil) }

// Hook reads a job's pending delivery.
func (l *Log) Hook(jobID string) (*Hook, error) {
	var h Hook
	return &h, l.read(func() error { return l.get([]byte(pHook+jobID), &h) })
}

// Hooks lists every pending delivery. There are few: a job's entry lives
// from its end until its delivery succeeds or is given up.
func (l *Log) Hooks() ([]*Hook, error) {
	var out []*Hook
	err := l.scanPrefix(pHook, func(_, v []byte) (bool, error) {
		var h Hook
		if err := decode(v, &h); err != nil {
			return false, err
		}
		out = append(out, &h)
		return true, nil
	})
	return out, err
}
