package store

import (
	"errors"
	"testing"
)

func TestCheckKeys(t *testing.T) {
	for _, k := range []string{"doc.abc", "acct.6f1c-9e.job.x_y=", "a"} {
		if err := CheckDocKey(k); err != nil {
			t.Errorf("CheckDocKey(%q) = %v", k, err)
		}
	}
	for _, k := range []string{"", ".a", "a.", "a..b", "a b", "a/b", "a.*", "a.>", "é"} {
		if err := CheckDocKey(k); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("CheckDocKey(%q) = %v, want ErrInvalidKey", k, err)
		}
	}
	for _, k := range []string{"job/doc.pdf", "x", "a/b/c.orig"} {
		if err := CheckBlobKey(k); err != nil {
			t.Errorf("CheckBlobKey(%q) = %v", k, err)
		}
	}
	for _, k := range []string{"", "/a", "a/", "a//b", "../a", "a/..", ".", "a/.tmp-1", "a b", "a\\b"} {
		if err := CheckBlobKey(k); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("CheckBlobKey(%q) = %v, want ErrInvalidKey", k, err)
		}
	}
	if err := CheckPrefix("doc."); err != nil {
		t.Error(err)
	}
	if err := CheckPrefix("doc"); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("CheckPrefix(doc) = %v", err)
	}
}

func TestTypedErrors(t *testing.T) {
	var err error = &ConflictError{Key: "doc.a", Revision: 3}
	var ce *ConflictError
	if !errors.Is(err, ErrConflict) || errors.Is(err, ErrNotFound) || !errors.As(err, &ce) || ce.Key != "doc.a" {
		t.Errorf("ConflictError: %v", err)
	}
	err = &NotFoundError{Key: "doc.b"}
	if !errors.Is(err, ErrNotFound) || errors.Is(err, ErrConflict) {
		t.Errorf("NotFoundError: %v", err)
	}
}
