package pdfout

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
)

// A small tokenizer and object parser for Verify. It understands exactly
// the PDF syntax the writer produces (dictionaries, arrays, names, numbers,
// references, streams) and refuses the rest (strings, hex strings,
// comments, escaped names): none of those occur in our output, and every
// one of them can hide content.

type tokKind uint8

const (
	tEOF tokKind = iota
	tInt
	tReal
	tName
	tKeyword
	tDictOpen
	tDictClose
	tArrOpen
	tArrClose
)

type token struct {
	kind tokKind
	s    string // name (without '/') or keyword
	i    int64
	f    float64
	pos  int64
}

// Limits that keep hostile input from costing much.
const (
	maxTokenLen = 127
	maxDepth    = 8
	maxArrayLen = 1 << 20
	maxDictLen  = 64
	windowSize  = 4 << 10
)

// scanner reads the file through a window, so a large document is never
// held in memory and skipped stream data is never read.
type scanner struct {
	r       io.ReaderAt
	size    int64
	buf     []byte
	start   int64 // file offset of win[0]
	win     []byte
	pos     int64
	pending []token
}

func newScanner(r io.ReaderAt, size int64) *scanner {
	return &scanner{r: r, size: size, buf: make([]byte, windowSize)}
}

// verifyError is a failed check; Verify wraps it with ErrUnsafe.
type verifyError struct {
	off int64
	msg string
}

func (e *verifyError) Error() string { return fmt.Sprintf("at byte %d: %s", e.off, e.msg) }

func (s *scanner) errorf(off int64, format string, args ...any) error {
	return &verifyError{off: off, msg: fmt.Sprintf(format, args...)}
}

// peekByte returns the byte at pos; ok is false at the end of the file.
func (s *scanner) peekByte() (byte, bool, error) {
	if s.pos >= s.size {
		return 0, false, nil
	}
	if s.pos < s.start || s.pos >= s.start+int64(len(s.win)) {
		n := int(min(int64(len(s.buf)), s.size-s.pos))
		m, err := s.r.ReadAt(s.buf[:n], s.pos)
		if m < n {
			if err == nil {
				err = io.ErrUnexpectedEOF
			}
			return 0, false, fmt.Errorf("read at %d: %w", s.pos, err)
		}
		s.start, s.win = s.pos, s.buf[:n]
	}
	return s.win[s.pos-s.start], true, nil
}

// readAt reads n bytes at off (n is small, checked by the caller).
func (s *scanner) readAt(off int64, n int) ([]byte, error) {
	if off < 0 || n < 0 || off+int64(n) > s.size {
		return nil, s.errorf(off, "%d bytes run past the end of the file", n)
	}
	b := make([]byte, n)
	if m, err := s.r.ReadAt(b, off); m < n {
		if err == nil {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("read at %d: %w", off, err)
	}
	return b, nil
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0
}

func isDelim(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

func (s *scanner) skipSpace() error {
	for {
		c, ok, err := s.peekByte()
		if err != nil || !ok || !isSpace(c) {
			return err
		}
		s.pos++
	}
}

func (s *scanner) unread(t token) { s.pending = append(s.pending, t) }

// next returns the next token.
func (s *scanner) next() (token, error) {
	if n := len(s.pending); n > 0 {
		t := s.pending[n-1]
		s.pending = s.pending[:n-1]
		return t, nil
	}
	if err := s.skipSpace(); err != nil {
		return token{}, err
	}
	start := s.pos
	c, ok, err := s.peekByte()
	if err != nil {
		return token{}, err
	}
	if !ok {
		return token{kind: tEOF, pos: start}, nil
	}
	switch {
	case c == '<' || c == '>':
		s.pos++
		d, ok, err := s.peekByte()
		if err != nil {
			return token{}, err
		}
		if !ok || d != c {
			if c == '<' {
				return token{}, s.errorf(start, "hex string (the writer never writes strings)")
			}
			return token{}, s.errorf(start, "stray '>'")
		}
		s.pos++
		if c == '<' {
			return token{kind: tDictOpen, pos: start}, nil
		}
		return token{kind: tDictClose, pos: start}, nil
	case c == '[':
		s.pos++
		return token{kind: tArrOpen, pos: start}, nil
	case c == ']':
		s.pos++
		return token{kind: tArrClose, pos: start}, nil
	case c == '(':
		return token{}, s.errorf(start, "string object (the writer never writes strings)")
	case c == '%':
		return token{}, s.errorf(start, "comment (a second %%%%EOF or hidden data?)")
	case c == '/':
		s.pos++
		w, err := s.word(start)
		if err != nil {
			return token{}, err
		}
		if len(w) == 0 {
			return token{}, s.errorf(start, "empty name")
		}
		if bytes.IndexByte(w, '#') >= 0 {
			return token{}, s.errorf(start, "escaped name /%s", printable(w))
		}
		return token{kind: tName, s: string(w), pos: start}, nil
	case isDelim(c):
		return token{}, s.errorf(start, "unexpected %q", c)
	}
	w, err := s.word(start)
	if err != nil {
		return token{}, err
	}
	if c == '+' || c == '-' || c == '.' || (c >= '0' && c <= '9') {
		return number(s, w, start)
	}
	return token{kind: tKeyword, s: string(w), pos: start}, nil
}

// word reads regular characters up to whitespace or a delimiter.
func (s *scanner) word(start int64) ([]byte, error) {
	var w []byte
	for {
		c, ok, err := s.peekByte()
		if err != nil {
			return nil, err
		}
		if !ok || isSpace(c) || isDelim(c) {
			return w, nil
		}
		if len(w) == maxTokenLen {
			return nil, s.errorf(start, "token longer than %d bytes", maxTokenLen)
		}
		w = append(w, c)
		s.pos++
	}
}

func number(s *scanner, w []byte, start int64) (token, error) {
	if bytes.IndexByte(w, '.') < 0 {
		i, err := strconv.ParseInt(string(w), 10, 64)
		if err != nil {
			return token{}, s.errorf(start, "bad integer %q", printable(w))
		}
		return token{kind: tInt, i: i, f: float64(i), pos: start}, nil
	}
	// Only plain decimals: no exponents, no "inf" or "nan".
	for _, c := range w {
		if !(c >= '0' && c <= '9' || c == '.' || c == '+' || c == '-') {
			return token{}, s.errorf(start, "bad number %q", printable(w))
		}
	}
	f, err := strconv.ParseFloat(string(w), 64)
	if err != nil {
		return token{}, s.errorf(start, "bad number %q", printable(w))
	}
	return token{kind: tReal, f: f, pos: start}, nil
}

// printable quotes at most a few bytes of hostile input for an error.
func printable(b []byte) string {
	if len(b) > 32 {
		b = b[:32]
	}
	q := strconv.QuoteToASCII(string(b))
	return q[1 : len(q)-1]
}

type valKind uint8

const (
	vInt valKind = iota
	vReal
	vName
	vRef
	vArray
	vDict
	vBool
	vNull
)

func (k valKind) String() string {
	return [...]string{"integer", "number", "name", "reference", "array", "dictionary", "boolean", "null"}[k]
}

// value is a parsed PDF object.
type value struct {
	kind valKind
	pos  int64
	i    int64 // integer, or the object number of a reference
	f    float64
	name string
	arr  []value
	dict map[string]value
	keys []string // dictionary keys in file order, for stable errors
}

func (v value) isNumber() bool { return v.kind == vInt || v.kind == vReal }

// parseValue reads one object.
func (s *scanner) parseValue(depth int) (value, error) {
	t, err := s.next()
	if err != nil {
		return value{}, err
	}
	switch t.kind {
	case tInt:
		// A reference is "N G R".
		t2, err := s.next()
		if err != nil {
			return value{}, err
		}
		if t2.kind == tInt {
			t3, err := s.next()
			if err != nil {
				return value{}, err
			}
			if t3.kind == tKeyword && t3.s == "R" {
				if t.i <= 0 || t2.i != 0 {
					return value{}, s.errorf(t.pos, "bad reference %d %d R", t.i, t2.i)
				}
				return value{kind: vRef, i: t.i, pos: t.pos}, nil
			}
			s.unread(t3)
		}
		s.unread(t2)
		return value{kind: vInt, i: t.i, f: t.f, pos: t.pos}, nil
	case tReal:
		return value{kind: vReal, f: t.f, pos: t.pos}, nil
	case tName:
		return value{kind: vName, name: t.s, pos: t.pos}, nil
	case tKeyword:
		switch t.s {
		case "true", "false":
			return value{kind: vBool, i: int64(len(t.s) & 1), pos: t.pos}, nil // value unused
		case "null":
			return value{kind: vNull, pos: t.pos}, nil
		}
		return value{}, s.errorf(t.pos, "unexpected keyword %q", printable([]byte(t.s)))
	case tArrOpen, tDictOpen:
		if depth >= maxDepth {
			return value{}, s.errorf(t.pos, "objects nested deeper than %d", maxDepth)
		}
		if t.kind == tArrOpen {
			return s.parseArray(t.pos, depth)
		}
		return s.parseDict(t.pos, depth)
	case tEOF:
		return value{}, s.errorf(t.pos, "unexpected end of file")
	}
	return value{}, s.errorf(t.pos, "unexpected token")
}

func (s *scanner) parseArray(pos int64, depth int) (value, error) {
	v := value{kind: vArray, pos: pos}
	for {
		t, err := s.next()
		if err != nil {
			return value{}, err
		}
		if t.kind == tArrClose {
			return v, nil
		}
		if len(v.arr) == maxArrayLen {
			return value{}, s.errorf(pos, "array longer than %d", maxArrayLen)
		}
		s.unread(t)
		e, err := s.parseValue(depth + 1)
		if err != nil {
			return value{}, err
		}
		v.arr = append(v.arr, e)
	}
}

func (s *scanner) parseDict(pos int64, depth int) (value, error) {
	v := value{kind: vDict, pos: pos, dict: map[string]value{}}
	for {
		t, err := s.next()
		if err != nil {
			return value{}, err
		}
		if t.kind == tDictClose {
			return v, nil
		}
		if t.kind != tName {
			return value{}, s.errorf(t.pos, "dictionary key is not a name")
		}
		if _, dup := v.dict[t.s]; dup {
			return value{}, s.errorf(t.pos, "duplicate key /%s", printable([]byte(t.s)))
		}
		if len(v.keys) == maxDictLen {
			return value{}, s.errorf(pos, "dictionary with more than %d keys", maxDictLen)
		}
		e, err := s.parseValue(depth + 1)
		if err != nil {
			return value{}, err
		}
		v.dict[t.s] = e
		v.keys = append(v.keys, t.s)
	}
}

// expectKeyword reads a keyword token and checks it.
func (s *scanner) expectKeyword(kw string) (token, error) {
	t, err := s.next()
	if err != nil {
		return t, err
	}
	if t.kind != tKeyword || t.s != kw {
		return t, s.errorf(t.pos, "want %q", kw)
	}
	return t, nil
}

// expectInt reads an integer token.
func (s *scanner) expectInt(what string) (token, error) {
	t, err := s.next()
	if err != nil {
		return t, err
	}
	if t.kind != tInt {
		return t, s.errorf(t.pos, "want %s", what)
	}
	return t, nil
}
