package review

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"
)

// Entry is one line of a document's audit log. It names masks by id,
// page, category and reason code: never a word of the document.
//
// Entries are chained: Hash is HMAC-SHA256, under the installation's
// audit key, over the previous entry's hash and this entry's fields
// (chainInput), so removing, reordering or editing a line breaks every
// hash after it, and someone who can write the file but does not hold
// the key cannot compute a hash that verifies (VerifyChain). The first
// entry's Prev is 64 zeros.
//
// Alg says how Hash was made. Entries written before logs were keyed
// have none (AlgLegacy): their Hash is plain SHA-256 over the same
// input, and they still verify as such; they show a line changed by
// accident, but not one rewritten by someone who can write the file.
// Only the start of a log may be legacy: once an entry is keyed, every
// later one must be, so a keyed log cannot be continued or cut over to
// unkeyed entries. A keyed entry's Alg is part of what its hash covers.
type Entry struct {
	Seq      int64     `json:"seq"`
	At       time.Time `json:"at"`
	Actor    string    `json:"actor"`
	Action   string    `json:"action"`
	MaskID   string    `json:"mask_id"`
	Page     int       `json:"page"`
	Category string    `json:"category"`
	Reason   string    `json:"reason"`
	Prev     string    `json:"prev"`
	Hash     string    `json:"hash"`
	Alg      string    `json:"alg,omitempty"`
}

// Hash algorithms of an entry (Entry.Alg).
const (
	AlgLegacy = ""            // SHA-256, unkeyed: entries written before the audit key
	AlgHMAC   = "hmac-sha256" // HMAC-SHA256 under the installation's audit key
)

// Genesis is the Prev of the first entry.
var Genesis = hex.EncodeToString(make([]byte, sha256.Size))

// chainInput is the exact byte string an entry's hash covers: its fields
// in a fixed order, length-prefixed so no two entries share one, and,
// for a keyed entry, its Alg last (a legacy entry's input is as it was).
func chainInput(e Entry) []byte {
	var b bytes.Buffer
	fields := []string{e.Prev, strconv.FormatInt(e.Seq, 10), e.At.UTC().Format(time.RFC3339Nano),
		e.Actor, e.Action, e.MaskID, strconv.Itoa(e.Page), e.Category, e.Reason}
	if e.Alg != AlgLegacy {
		fields = append(fields, e.Alg)
	}
	for _, f := range fields {
		fmt.Fprintf(&b, "%d:%s;", len(f), f)
	}
	return b.Bytes()
}

// digest is e's hash as its Alg makes it (key is used for AlgHMAC).
func digest(e Entry, key []byte) string {
	if e.Alg == AlgLegacy {
		sum := sha256.Sum256(chainInput(e))
		return hex.EncodeToString(sum[:])
	}
	m := hmac.New(sha256.New, key)
	m.Write(chainInput(e))
	return hex.EncodeToString(m.Sum(nil))
}

// Seal sets e's Prev, Seq, Alg and Hash to follow prev (nil for the first
// entry), keyed with key, the installation's audit key. It panics on an
// empty key: an unkeyed entry is never written.
func Seal(e Entry, prev *Entry, key []byte) Entry {
	if len(key) == 0 {
		panic("review: Seal without an audit key")
	}
	e.Prev, e.Seq = Genesis, 1
	if prev != nil {
		e.Prev, e.Seq = prev.Hash, prev.Seq+1
	}
	e.At = e.At.UTC()
	e.Alg = AlgHMAC
	e.Hash = digest(e, key)
	return e
}

// ErrBrokenChain is VerifyChain's answer for a log that was altered, or
// sealed with another key.
var ErrBrokenChain = errors.New("review: audit chain broken")

// VerifyChain checks that entries form one unbroken chain from Genesis,
// each keyed entry's hash made with key (legacy entries: see Entry).
func VerifyChain(entries []Entry, key []byte) error {
	prev, keyed := Genesis, false
	for i, e := range entries {
		if e.Prev != prev || e.Seq != int64(i+1) {
			return fmt.Errorf("%w at entry %d", ErrBrokenChain, i+1)
		}
		switch e.Alg {
		case AlgLegacy:
			if keyed {
				return fmt.Errorf("%w at entry %d: unkeyed after a keyed entry", ErrBrokenChain, i+1)
			}
		case AlgHMAC:
			if len(key) == 0 {
				return errors.New("review: no audit key to verify a keyed entry")
			}
			keyed = true
		default:
			return fmt.Errorf("%w at entry %d: unknown alg", ErrBrokenChain, i+1)
		}
		if !hmac.Equal([]byte(digest(e, key)), []byte(e.Hash)) {
			return fmt.Errorf("%w at entry %d", ErrBrokenChain, i+1)
		}
		prev = e.Hash
	}
	return nil
}

// ReadAudit parses a JSON-lines audit log.
func ReadAudit(r io.Reader) ([]Entry, error) {
	var out []Entry
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var e Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("review: audit line %d: %w", len(out)+1, err)
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

// AuditLine is the JSON line of e, newline included.
func AuditLine(e Entry) []byte {
	b, _ := json.Marshal(e) // only strings, numbers and a time
	return append(b, '\n')
}

// WriteCSV writes the redaction log as CSV: a header line, then one line
// per entry, chain fields (and alg) included so the CSV can be checked too.
func WriteCSV(w io.Writer, entries []Entry) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"seq", "at", "actor", "action", "mask_id", "page", "category", "reason", "prev", "hash", "alg"})
	for _, e := range entries {
		cw.Write([]string{strconv.FormatInt(e.Seq, 10), e.At.UTC().Format(time.RFC3339Nano), csvSafe(e.Actor), e.Action,
			e.MaskID, strconv.Itoa(e.Page), e.Category, csvSafe(e.Reason), e.Prev, e.Hash, e.Alg})
	}
	cw.Flush()
	return cw.Error()
}

// csvSafe keeps a spreadsheet from reading a cell as a formula.
func csvSafe(s string) string {
	if s != "" && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@') {
		return "'" + s
	}
	return s
}
