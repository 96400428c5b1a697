package jobs

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/review"
)

// rejectFirst rejects the document's first mask (one audit entry).
func (v *env) rejectFirst(a *Account, docID string) {
	v.t.Helper()
	st, err := v.e.rev.ReviewState(bg, a, docID)
	if err != nil {
		v.t.Fatal(err)
	}
	ms := append(st.Masks[:0:0], st.Masks...)
	ms[0].Status = review.Rejected
	if ms[0].Status == st.Masks[0].Status {
		ms[0].Status = review.Accepted
	}
	if _, err := v.e.rev.PutReview(bg, a, docID, st.Version, ms, "api:"+a.ID); err != nil {
		v.t.Fatal(err)
	}
}

// TestAuditKeyed: audit entries are sealed with the installation's
// audit key (HMAC-SHA256), made once and kept across restarts, so a log
// goes on verifying and growing after a restart; another key does not
// verify it. On one node the key is DATA/audit-key, 0600.
func TestAuditKeyed(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("key@example.com", PlanStandard, 0)
	_, docID := v.studio(a)
	v.rejectFirst(a, docID)
	ents, err := v.e.rev.ReviewAudit(bg, a, docID)
	if err != nil || len(ents) != 1 || ents[0].Alg != review.AlgHMAC {
		t.Fatalf("audit %+v %v, want one keyed entry", ents, err)
	}
	if err := v.e.rev.VerifyAudit(ents); err != nil {
		t.Fatal(err)
	}
	key := v.e.auditKey
	if len(key) != 32 {
		t.Fatalf("audit key of %d bytes", len(key))
	}
	if err := review.VerifyChain(ents, bytes.Repeat([]byte{1}, 32)); !errors.Is(err, review.ErrBrokenChain) {
		t.Fatalf("verified with another key: %v", err)
	}
	fi, err := os.Stat(filepath.Join(v.cfg.Data, auditKeyFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("audit key file: %v %v", fi, err)
	}
	v.reopen(newTestProc())
	if !bytes.Equal(v.e.auditKey, key) {
		t.Fatal("the audit key changed across a restart")
	}
	v.rejectFirst(a, docID)
	ents, err = v.e.rev.ReviewAudit(bg, a, docID)
	if err != nil || len(ents) != 2 {
		t.Fatalf("audit after restart %+v %v", ents, err)
	}
	if err := v.e.rev.VerifyAudit(ents); err != nil {
		t.Fatalf("after a restart: %v", err)
	}
}

// TestAuditLegacyLogContinues: a log written before logs were keyed
// (plain SHA-256 over the same length-prefixed fields, no alg) still
// verifies, and new entries continue it keyed.
func TestAuditLegacyLogContinues(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("legacy@example.com", PlanStandard, 0)
	jobID, docID := v.studio(a)
	var buf bytes.Buffer
	prev := review.Genesis
	for i := range 2 {
		e := review.Entry{Seq: int64(i + 1), At: time.Date(2026, 1, 2, 3, 4, i, 0, time.UTC), Actor: "api:" + a.ID,
			Action: "reject", MaskID: "m1", Page: 1, Category: "Person", Prev: prev}
		e.Hash = legacyHash(e)
		buf.Write(review.AuditLine(e))
		prev = e.Hash
	}
	if err := v.e.files.appendTo(bg, jobID, docID+sufAudit, buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	v.rejectFirst(a, docID)
	ents, err := v.e.rev.ReviewAudit(bg, a, docID)
	if err != nil || len(ents) != 3 || ents[0].Alg != review.AlgLegacy || ents[2].Alg != review.AlgHMAC {
		t.Fatalf("audit %+v %v, want two legacy entries and a keyed one", ents, err)
	}
	if err := v.e.rev.VerifyAudit(ents); err != nil {
		t.Fatalf("legacy log continued keyed: %v", err)
	}
}

// legacyHash is the hash of an entry written before logs were keyed,
// spelled out here so the legacy format stays readable.
func legacyHash(e review.Entry) string {
	var b bytes.Buffer
	for _, f := range []string{e.Prev, strconv.FormatInt(e.Seq, 10), e.At.UTC().Format(time.RFC3339Nano),
		e.Actor, e.Action, e.MaskID, strconv.Itoa(e.Page), e.Category, e.Reason} {
		fmt.Fprintf(&b, "%d:%s;", len(f), f)
	}
	sum := sha256.Sum256(b.Bytes())
	return hex.EncodeToString(sum[:])
}

// TestAuditKeySharedByNodes: on a cluster every node has the one audit
// key from the shared store, so a log one node wrote verifies and
// continues on the other.
func TestAuditKeySharedByNodes(t *testing.T) {
	a, b := twoNodes(t)
	if len(a.e.auditKey) != 32 || !bytes.Equal(a.e.auditKey, b.e.auditKey) {
		t.Fatal("the nodes have different audit keys")
	}
	acct, key := a.account("nodes@example.com", PlanStandard, 0)
	acctB, err := b.e.Authenticate(bg, key)
	if err != nil {
		t.Fatal(err)
	}
	_, docID := a.studio(acct)
	a.rejectFirst(acct, docID)
	b.rejectFirst(acctB, docID)
	ents, err := b.e.rev.ReviewAudit(bg, acctB, docID)
	if err != nil || len(ents) != 2 {
		t.Fatalf("audit %+v %v", ents, err)
	}
	if err := a.e.rev.VerifyAudit(ents); err != nil {
		t.Fatal(err)
	}
}
