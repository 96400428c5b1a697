package review

import (
	"bufio"
	"bytes"
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
// Entries are chained: Hash is SHA-256 over the previous entry's hash and
// this entry's fields (chainInput), so removing, reordering or editing a
// line breaks every hash after it (VerifyChain). The first entry's Prev
// is 64 zeros.
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
}

// Genesis is the Prev of the first entry.
var Genesis = hex.EncodeToString(make([]byte, sha256.Size))

// chainInput is the exact byte string an entry's hash covers: its fields
// in a fixed order, length-prefixed so no two entries share one.
func chainInput(e Entry) []byte {
	var b bytes.Buffer
	for _, f := range []string{e.Prev, strconv.FormatInt(e.Seq, 10), e.At.UTC().Format(time.RFC3339Nano),
		e.Actor, e.Action, e.MaskID, strconv.Itoa(e.Page), e.Category, e.Reason} {
		fmt.Fprintf(&b, "%d:%s;", len(f), f)
	}
	return b.Bytes()
}

// Seal sets e's Prev and Hash to follow prev (nil for the first entry)
// and its Seq.
func Seal(e Entry, prev *Entry) Entry {
	e.Prev, e.Seq = Genesis, 1
	if prev != nil {
		e.Prev, e.Seq = prev.Hash, prev.Seq+1
	}
	e.At = e.At.UTC()
	sum := sha256.Sum256(chainInput(e))
	e.Hash = hex.EncodeToString(sum[:])
	return e
}

// ErrBrokenChain is VerifyChain's answer for a log that was altered.
var ErrBrokenChain = errors.New("review: audit chain broken")

// VerifyChain checks that entries form one unbroken chain from Genesis.
func VerifyChain(entries []Entry) error {
	prev := Genesis
	for i, e := range entries {
		if e.Prev != prev || e.Seq != int64(i+1) {
			return fmt.Errorf("%w at entry %d", ErrBrokenChain, i+1)
		}
		sum := sha256.Sum256(chainInput(e))
		if hex.EncodeToString(sum[:]) != e.Hash {
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
// per entry, chain fields included so the CSV can be checked too.
func WriteCSV(w io.Writer, entries []Entry) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"seq", "at", "actor", "action", "mask_id", "page", "category", "reason", "prev", "hash"})
	for _, e := range entries {
		cw.Write([]string{strconv.FormatInt(e.Seq, 10), e.At.UTC().Format(time.RFC3339Nano), csvSafe(e.Actor), e.Action,
			e.MaskID, strconv.Itoa(e.Page), e.Category, csvSafe(e.Reason), e.Prev, e.Hash})
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
