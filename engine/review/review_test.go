package review

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/page"
)

// testKey is an audit key of the tests.
var testKey = []byte("0123456789abcdef0123456789abcdef")

func chain(n int) []Entry {
	var out []Entry
	var prev *Entry
	for i := 0; i < n; i++ {
		e := Seal(Entry{At: time.Date(2026, 1, 2, 3, 4, i, 0, time.UTC), Actor: "api:a", Action: "reject", MaskID: "m1", Page: 1, Category: "Email"}, prev, testKey)
		out = append(out, e)
		prev = &out[len(out)-1]
	}
	return out
}

// legacyChain is a chain as written before logs were keyed: plain
// SHA-256, no alg.
func legacyChain(n int) []Entry {
	var out []Entry
	prev := Genesis
	for i := 0; i < n; i++ {
		e := Entry{Seq: int64(i + 1), At: time.Date(2025, 1, 2, 3, 4, i, 0, time.UTC), Actor: "api:a", Action: "add", MaskID: "m2", Page: 2, Category: "Person", Prev: prev}
		e.Hash = digest(e, nil)
		out = append(out, e)
		prev = e.Hash
	}
	return out
}

// TestAuditChain: an intact chain verifies; editing, removing,
// reordering or re-sealing a middle entry is found.
func TestAuditChain(t *testing.T) {
	c := chain(4)
	if err := VerifyChain(c, testKey); err != nil {
		t.Fatal(err)
	}
	if c[0].Prev != Genesis || c[1].Prev != c[0].Hash || c[3].Seq != 4 || c[2].Alg != AlgHMAC {
		t.Fatalf("links %+v", c)
	}
	tamper := map[string]func([]Entry) []Entry{
		"edit":    func(c []Entry) []Entry { c[1].Action = "accept"; return c },
		"remove":  func(c []Entry) []Entry { return append(c[:1], c[2:]...) },
		"reorder": func(c []Entry) []Entry { c[1], c[2] = c[2], c[1]; return c },
		"reseal":  func(c []Entry) []Entry { c[1].Reason = "x"; c[1] = Seal(c[1], &c[0], testKey); return c },
		"actor":   func(c []Entry) []Entry { c[3].Actor = "api:b"; return c },
	}
	for name, f := range tamper {
		if err := VerifyChain(f(chain(4)), testKey); !errors.Is(err, ErrBrokenChain) {
			t.Errorf("%s: %v, want a broken chain", name, err)
		}
	}
	// JSON lines round-trip.
	var buf bytes.Buffer
	for _, e := range c {
		buf.Write(AuditLine(e))
	}
	back, err := ReadAudit(&buf)
	if err != nil || VerifyChain(back, testKey) != nil || len(back) != 4 {
		t.Fatalf("round trip: %v %v", err, VerifyChain(back, testKey))
	}
	buf.Reset()
	WriteCSV(&buf, []Entry{{Actor: "=cmd()", Action: "add"}})
	if !strings.Contains(buf.String(), "'=cmd()") {
		t.Fatalf("CSV formula not neutralised: %s", buf.String())
	}
}

// TestAuditChainEveryField: each field of an entry is covered. Altering
// any one of them in the middle entry of a valid chain breaks it, and
// the altered entry's own hash no longer matches, so the field is in
// chainInput: seq and prev are also pinned by the links (VerifyChain
// would refuse them anyway), the hash check is what covers the rest.
func TestAuditChainEveryField(t *testing.T) {
	for _, c := range []struct {
		field string
		alter func(e *Entry)
	}{
		{"seq", func(e *Entry) { e.Seq++ }},
		{"at", func(e *Entry) { e.At = e.At.Add(time.Second) }},
		{"actor", func(e *Entry) { e.Actor = "api:b" }},
		{"action", func(e *Entry) { e.Action = "accept" }},
		{"mask_id", func(e *Entry) { e.MaskID = "m2" }},
		{"page", func(e *Entry) { e.Page = 2 }},
		{"category", func(e *Entry) { e.Category = "Person" }},
		{"reason", func(e *Entry) { e.Reason = "other" }},
		{"prev", func(e *Entry) { e.Prev = Genesis }},
		{"alg", func(e *Entry) { e.Alg = AlgLegacy }},
	} {
		ch := chain(3)
		c.alter(&ch[1])
		if err := VerifyChain(ch, testKey); !errors.Is(err, ErrBrokenChain) {
			t.Errorf("%s altered: VerifyChain %v, want a broken chain", c.field, err)
		}
		if digest(ch[1], testKey) == ch[1].Hash {
			t.Errorf("%s altered: the entry's hash still matches; chainInput leaves it out", c.field)
		}
	}
}

// TestAuditChainKey: a chain sealed with one key does not verify with
// another, nor without one.
func TestAuditChainKey(t *testing.T) {
	c := chain(3)
	other := []byte("fedcba9876543210fedcba9876543210")
	if err := VerifyChain(c, other); !errors.Is(err, ErrBrokenChain) {
		t.Fatalf("with another key: %v, want a broken chain", err)
	}
	if err := VerifyChain(c, nil); err == nil {
		t.Fatal("a keyed chain verified without a key")
	}
	// Recomputed as plain SHA-256 by someone without the key: a keyed
	// entry relabeled legacy does not verify.
	forged := chain(3)
	forged[2].Alg = AlgLegacy
	forged[2].Hash = digest(forged[2], nil)
	if err := VerifyChain(forged, testKey); !errors.Is(err, ErrBrokenChain) {
		t.Fatalf("keyed entry recomputed unkeyed: %v, want a broken chain", err)
	}
}

// TestAuditChainLegacy: a log written before the key (plain SHA-256, no
// alg) still verifies, also continued by keyed entries; an unkeyed entry
// after a keyed one does not.
func TestAuditChainLegacy(t *testing.T) {
	old := legacyChain(3)
	if err := VerifyChain(old, testKey); err != nil {
		t.Fatalf("legacy chain: %v", err)
	}
	old[1].Page = 3
	if err := VerifyChain(old, testKey); !errors.Is(err, ErrBrokenChain) {
		t.Fatalf("legacy chain edited: %v, want a broken chain", err)
	}
	mixed := legacyChain(2)
	mixed = append(mixed, Seal(Entry{At: time.Now(), Actor: "api:a", Action: "apply"}, &mixed[1], testKey))
	if err := VerifyChain(mixed, testKey); err != nil {
		t.Fatalf("legacy chain continued keyed: %v", err)
	}
	after := append(mixed[:3:3], Entry{Seq: 4, At: time.Now(), Actor: "api:a", Action: "add", Prev: mixed[2].Hash})
	after[3].Hash = digest(after[3], nil)
	if err := VerifyChain(after, testKey); !errors.Is(err, ErrBrokenChain) {
		t.Fatalf("unkeyed entry after a keyed one: %v, want a broken chain", err)
	}
	var buf bytes.Buffer
	for _, e := range mixed {
		buf.Write(AuditLine(e))
	}
	if strings.Count(buf.String(), `"alg":"hmac-sha256"`) != 1 {
		t.Fatalf("alg on the lines: %s", buf.String())
	}
}

func TestMergeAndValidate(t *testing.T) {
	st := New("d", []contract.PageInfo{{Width: 100, Height: 200}}, []contract.Mask{
		{Page: 0, Box: page.Rect{X0: 10, Y0: 10, X1: 50, Y1: 20}, Category: page.Email, Source: "text", Recognizer: "email", Score: 1},
		{Page: 0, Box: page.Rect{X0: 10, Y0: 30, X1: 50, Y1: 40}, Category: page.Person, Source: "ocr", Recognizer: "ner", Score: 0.4},
	})
	if st.Masks[0].Source != SourcePattern || st.Masks[1].Source != SourceOCR || st.Masks[0].ID != "m1" {
		t.Fatalf("sources %+v", st.Masks)
	}
	lim := Limits{MaxMasks: 3, Reasons: []string{"pii"}}
	in := append([]Mask(nil), st.Masks...)
	in[0].Status = Rejected
	in[1].Source, in[1].Score = SourceManual, 1 // ignored: kept from the state
	in = append(in, Mask{Page: 1, X0: 0, Y0: 0, X1: 100, Y1: 200, Category: "Date", Status: Suggested, Reason: "pii", Score: 0.5})
	if err := Validate(st.Pages, in, lim); err != nil {
		t.Fatal(err)
	}
	out, ch, err := Merge(st, in)
	if err != nil {
		t.Fatal(err)
	}
	if out[1].Source != SourceOCR || out[1].Score != 0.4 || out[2].ID != "m3" || out[2].Source != SourceManual || out[2].Status != Accepted || out[2].Score != 0 {
		t.Fatalf("merged %+v", out)
	}
	if len(ch) != 2 || ch[0].Action != "reject" || ch[1].Action != "add" {
		t.Fatalf("changes %+v", ch)
	}
	if got := Burn(out); len(got) != 2 || got[0].Page != 0 || got[0].Category != page.Person {
		t.Fatalf("burn %+v", got)
	}
	st.Masks = out
	// Deleting the manual mask is allowed, leaving out a detection is not.
	if _, ch, err := Merge(st, out[:2]); err != nil || ch[0].Action != "delete" {
		t.Fatalf("delete: %v %+v", err, ch)
	}
	if _, _, err := Merge(st, out[1:]); err == nil {
		t.Fatal("a detection was dropped without error")
	}
	for name, m := range map[string]Mask{
		"outside":  {Page: 1, X0: 0, Y0: 0, X1: 101, Y1: 10, Category: "Date", Status: Accepted},
		"empty":    {Page: 1, X0: 5, Y0: 5, X1: 5, Y1: 10, Category: "Date", Status: Accepted},
		"page":     {Page: 2, X0: 0, Y0: 0, X1: 1, Y1: 1, Category: "Date", Status: Accepted},
		"category": {Page: 1, X0: 0, Y0: 0, X1: 1, Y1: 1, Category: "date", Status: Accepted},
		"status":   {Page: 1, X0: 0, Y0: 0, X1: 1, Y1: 1, Category: "Date", Status: "ok"},
		"reason":   {Page: 1, X0: 0, Y0: 0, X1: 1, Y1: 1, Category: "Date", Status: Accepted, Reason: "why"},
	} {
		var fe *FieldError
		if err := Validate(st.Pages, []Mask{m}, lim); !errors.As(err, &fe) {
			t.Errorf("%s: %v, want a FieldError", name, err)
		}
	}
	if err := Validate(st.Pages, make([]Mask, 4), lim); err == nil {
		t.Error("more than MaxMasks accepted")
	}
}
