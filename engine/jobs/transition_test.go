package jobs

import (
	"context"
	"errors"
	"testing"
)

// The transition function's contract: a transition that fails or finds
// nothing to do writes nothing and runs none of its effects; one that
// succeeds writes what it touched, settles the job, and runs its effects
// after the commit, in order.
func TestTransitionCommitsOrDiscards(t *testing.T) {
	v := newEnv(t)
	acct, _ := v.account("tx@example.com", PlanStandard, 0)
	res, err := v.e.InitJob(context.Background(), acct, InitJobRequest{Files: []InitFile{{FileName: "a.pdf", SizeBytes: 100, ContentType: "application/pdf"}}})
	if err != nil {
		t.Fatal(err)
	}
	docID := res.Uploads[0].DocumentID
	read := func() (attempts int, seq uint64) {
		d, err := v.e.jl.Doc(docID)
		if err != nil {
			t.Fatal(err)
		}
		j, err := v.e.jl.Job(d.JobID)
		if err != nil {
			t.Fatal(err)
		}
		return d.Attempts, j.Seq
	}
	a0, s0 := read()

	boom := errors.New("boom")
	for _, tc := range []struct {
		name string
		ret  error
		want error
	}{
		{"failed", boom, boom},
		{"no change", errNoChange, nil},
	} {
		ran := false
		err := v.e.changeDoc(docRef{docID: docID}, func(t *tx) error {
			t.doc.Attempts += 7
			t.event(t.doc, StatusUploaded, StatusUploaded, "never written")
			t.onCommit(func() { ran = true })
			return tc.ret
		})
		if !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
			t.Fatalf("%s: changeDoc = %v, want %v", tc.name, err, tc.want)
		}
		if a, s := read(); a != a0 || s != s0 || ran {
			t.Fatalf("%s: attempts %d seq %d effects %v; want %d %d false", tc.name, a, s, ran, a0, s0)
		}
	}

	var order []int
	err = v.e.changeDoc(docRef{docID: docID}, func(t *tx) error {
		t.doc.Attempts++
		t.event(t.doc, StatusUploaded, StatusUploaded, "noted")
		t.onCommit(func() { order = append(order, 1) })
		t.onCommit(func() { order = append(order, 2) })
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if a, s := read(); a != a0+1 || s != s0+1 {
		t.Fatalf("after commit: attempts %d seq %d, want %d %d", a, s, a0+1, s0+1)
	}
	if len(order) != 2 || order[0] != 1 || order[1] != 2 {
		t.Fatalf("effects ran %v, want [1 2]", order)
	}
	if err := v.e.changeDoc(docRef{docID: "no-such-doc"}, func(*tx) error { return nil }); !errors.Is(err, errNoDoc) {
		t.Fatalf("missing document: %v, want errNoDoc", err)
	}
	// A reference that names the job and the account (a queue entry)
	// reads nothing before the lock; a wrong account is found under it,
	// and the document is read to learn its own.
	d0, err := v.e.jl.Doc(docID)
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range []docRef{refOf(d0), {docID, d0.JobID, "other-account"}} {
		var got string
		if err := v.e.changeDoc(ref, func(t *tx) error { got = t.accountID; return errNoChange }); err != nil || got != d0.AccountID {
			t.Fatalf("%+v: changeDoc = %v under the lock of %q, want nil under %q", ref, err, got, d0.AccountID)
		}
	}
	if err := v.e.changeDoc(docRef{docID, "no-such-job", d0.AccountID}, func(*tx) error { return nil }); !errors.Is(err, errNoDoc) {
		t.Fatalf("missing job: %v, want errNoDoc", err)
	}
	if err := v.e.changeJob("other-account", res.JobID, func(*tx) error { return nil }); !errors.Is(err, ErrNotFound) {
		t.Fatalf("job of another account: %v, want ErrNotFound", err)
	}
}
