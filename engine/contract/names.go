package contract

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// FieldIdempotencyKey is the header an idempotency key comes in; errors
// about a key name it.
const FieldIdempotencyKey = "X-Idempotency-Key"

// MaxIdempotencyKeyRunes bounds an idempotency key, in characters.
const MaxIdempotencyKeyRunes = 200

// MaxFileNameBytes bounds a stored file name, in bytes.
const MaxFileNameBytes = 255

// CheckIdempotencyKey is the one rule for idempotency keys, applied by
// the HTTP layer and the engine: valid UTF-8, at most
// MaxIdempotencyKeyRunes characters, no control characters. "" means no
// key. The error is a *FieldError.
func CheckIdempotencyKey(k string) error {
	switch {
	case !utf8.ValidString(k):
		return &FieldError{Field: FieldIdempotencyKey, Msg: "is not valid UTF-8"}
	case utf8.RuneCountInString(k) > MaxIdempotencyKeyRunes:
		return &FieldError{Field: FieldIdempotencyKey, Msg: fmt.Sprintf("longer than %d characters", MaxIdempotencyKeyRunes)}
	case strings.IndexFunc(k, unicode.IsControl) >= 0:
		return &FieldError{Field: FieldIdempotencyKey, Msg: "contains control characters"}
	}
	return nil
}

// CleanFileName is the one rule for client-supplied file names, applied
// by the HTTP layer and the engine: the name is reduced to a safe base
// name, never refused, because the name is only a label for the output
// (the file's type comes from its bytes). Invalid UTF-8 is replaced,
// directories (either slash) are dropped, control and format characters
// (bidi overrides among them) removed, surrounding blanks trimmed, and
// the result cut to MaxFileNameBytes on a character boundary. An empty or
// dot-only result becomes "file".
func CleanFileName(name string) string {
	name = strings.ToValidUTF8(name, "_")
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, name)
	name = strings.TrimSpace(name)
	if len(name) > MaxFileNameBytes {
		cut := MaxFileNameBytes
		for cut > 0 && !utf8.RuneStart(name[cut]) {
			cut--
		}
		name = strings.TrimSpace(name[:cut])
	}
	if strings.Trim(name, ".") == "" {
		return "file"
	}
	return name
}
