package contract

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckIdempotencyKey(t *testing.T) {
	for _, tc := range []struct {
		key, msg string
	}{
		{"", ""},
		{strings.Repeat("é", 200), ""}, // characters, not bytes
		{strings.Repeat("k", 201), "longer than 200 characters"},
		{"a\xffb", "is not valid UTF-8"},
		{"a\r\nb", "contains control characters"},
	} {
		err := CheckIdempotencyKey(tc.key)
		var fe *FieldError
		switch {
		case tc.msg == "" && err != nil:
			t.Errorf("%q: %v, want ok", tc.key, err)
		case tc.msg != "" && (!errors.As(err, &fe) || fe.Field != FieldIdempotencyKey || fe.Msg != tc.msg):
			t.Errorf("%q: %v, want *FieldError %s: %s", tc.key, err, FieldIdempotencyKey, tc.msg)
		}
	}
}

func TestCleanFileName(t *testing.T) {
	for in, want := range map[string]string{
		"report.pdf":                  "report.pdf",
		`C:\Users\jane\scan.pdf`:      "scan.pdf",
		"../../etc/passwd":            "passwd",
		"a\x00b\u202e.pdf":            "ab.pdf",
		"  ..  ":                      "file",
		"":                            "file",
		"\xff.pdf":                    "_.pdf",
		strings.Repeat("é", 200):      strings.Repeat("é", 127), // 254 bytes: cut on a character boundary
		"name\r\nContent-Type: x.pdf": "nameContent-Type: x.pdf",
	} {
		if got := CleanFileName(in); got != want {
			t.Errorf("CleanFileName(%q) = %q, want %q", in, got, want)
		}
	}
}
