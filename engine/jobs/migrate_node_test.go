package jobs

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/redactd/redactd/engine/review"
	"github.com/redactd/redactd/engine/store/joblog"
	"github.com/redactd/redactd/engine/store/record"
)

// onJobLog runs a node on the job log at DATA/joblog, the store of the
// releases before DATA/store.
func onJobLog(s *Settings) {
	s.Records = func() (record.Store, error) {
		jl, err := joblog.Open(filepath.Join(s.Data, jobLogDir), joblog.Options{})
		if err != nil {
			return nil, err
		}
		return pebbleRecords{jl}, nil
	}
}

// TestUpgradeKeepsSecrets: a node's data directory written on the job
// log moves to DATA/store at the next start, and what the node handed
// out before still works after it: an upload link issued before the
// upgrade is accepted, and a review audit log written before it
// verifies and goes on. The node keeps both secrets in its files
// (DATA/upload-secret, DATA/audit-key); the store holds neither
// (nodeRecords), where a cluster's would make new ones.
func TestUpgradeKeepsSecrets(t *testing.T) {
	v := newEnv(t, onJobLog)
	a, _ := v.account("upgrade@example.com", PlanStandard, 0)
	_, docID := v.studio(a)
	v.rejectFirst(a, docID)
	r, err := v.e.InitJob(bg, a, InitJobRequest{Files: []InitFile{pdfInit("up.pdf", testPDF(1))}})
	if err != nil {
		t.Fatal(err)
	}
	secret, auditKey := bytes.Clone(v.e.secret), bytes.Clone(v.e.auditKey)

	// The upgrade: the same data directory opened as a node by default.
	if err := v.e.Close(); err != nil {
		t.Fatal(err)
	}
	v.cfg.Records = nil
	v.open(newTestProc())
	for _, dir := range []string{storeDir, jobLogKept} {
		if _, err := os.Stat(filepath.Join(v.cfg.Data, dir)); err != nil {
			t.Fatalf("after the upgrade: %v", err)
		}
	}
	if _, err := os.Stat(filepath.Join(v.cfg.Data, jobLogDir)); !os.IsNotExist(err) {
		t.Fatalf("the job log is still in place: %v", err)
	}
	if !bytes.Equal(v.e.secret, secret) || !bytes.Equal(v.e.auditKey, auditKey) {
		t.Fatalf("secrets changed across the upgrade: upload %t, audit %t", bytes.Equal(v.e.secret, secret), bytes.Equal(v.e.auditKey, auditKey))
	}
	if err := v.put(r.Uploads[0], testPDF(1)); err != nil {
		t.Fatalf("an upload link issued before the upgrade: %v", err)
	}
	if _, err := v.e.Commit(bg, a, r.JobID); err != nil {
		t.Fatal(err)
	}
	if j := v.waitDone(a, r.JobID); j.Status != StatusRedacted {
		t.Fatalf("uploaded job %+v", j)
	}
	ents, err := v.e.rev.ReviewAudit(bg, a, docID)
	if err != nil || len(ents) != 1 || ents[0].Alg != review.AlgHMAC {
		t.Fatalf("audit log after the upgrade: %+v %v", ents, err)
	}
	if err := v.e.rev.VerifyAudit(ents); err != nil {
		t.Fatalf("an audit log written before the upgrade: %v", err)
	}
	v.rejectFirst(a, docID)
	if ents, err = v.e.rev.ReviewAudit(bg, a, docID); err != nil || len(ents) != 2 || v.e.rev.VerifyAudit(ents) != nil {
		t.Fatalf("audit log continued after the upgrade: %d entries, %v, verifies: %v", len(ents), err, v.e.rev.VerifyAudit(ents))
	}
	keys, err := v.e.jl.AllKeys()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if strings.HasPrefix(k, "meta.upload-secret") || strings.HasPrefix(k, "meta.audit-key") {
			t.Errorf("the node's store holds %s", k)
		}
	}
}
