package server

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/redactd/redactd/engine"
)

// Stable machine codes of error bodies. The spec fixes invalid_request,
// unauthorized, quota_exceeded and rate_limited; the others are ours.
const (
	CodeInvalid          = "invalid_request"
	CodeUnauthorized     = "unauthorized"
	CodeQuota            = "quota_exceeded"
	CodeNotFound         = "not_found"
	CodeTooLarge         = "file_too_large"
	CodeConflict         = "conflict"
	CodeRateLimited      = "rate_limited"
	CodeMethodNotAllowed = "method_not_allowed"
	CodeUnavailable      = "unavailable"
	CodeInternal         = "internal"
)

// APIError is an error meant for the caller: an HTTP status, a stable code
// and a message that names the offending field (never content, keys or
// paths).
type APIError struct {
	Status  int
	Code    string
	Message string
}

func (e *APIError) Error() string { return e.Message }

// invalidf builds a 400 invalid_request whose message starts with the field
// name, e.g. "pii_categories: unknown category \"Foo\"".
func invalidf(field, format string, args ...any) *APIError {
	return &APIError{Status: http.StatusBadRequest, Code: CodeInvalid, Message: field + ": " + fmt.Sprintf(format, args...)}
}

func tooLargef(format string, args ...any) *APIError {
	return &APIError{Status: http.StatusRequestEntityTooLarge, Code: CodeTooLarge, Message: fmt.Sprintf(format, args...)}
}

var (
	errUnauthorized = &APIError{Status: http.StatusUnauthorized, Code: CodeUnauthorized, Message: "Unauthorized"}
	errNotFound     = &APIError{Status: http.StatusNotFound, Code: CodeNotFound, Message: "Not found"}
	errInternal     = &APIError{Status: http.StatusInternalServerError, Code: CodeInternal, Message: "Internal error"}
)

// mapError turns any error into the APIError the caller sees. Engine
// sentinels map by errors.Is; the message of a wrapped sentinel is the
// wrapping text (the engine promises it holds no PII), so "files[0]: not a
// PDF: invalid request" becomes "files[0]: not a PDF". Anything unknown is
// a 500 whose details stay in the log.
func mapError(err error) *APIError {
	var ae *APIError
	if errors.As(err, &ae) {
		return ae
	}
	switch {
	case errors.Is(err, engine.ErrUnauthorized):
		return errUnauthorized
	case errors.Is(err, engine.ErrInvalid):
		return &APIError{Status: http.StatusBadRequest, Code: CodeInvalid, Message: callerMessage(err, engine.ErrInvalid, "Invalid request")}
	case errors.Is(err, engine.ErrQuota):
		return &APIError{Status: http.StatusPaymentRequired, Code: CodeQuota, Message: "Insufficient quota"}
	case errors.Is(err, engine.ErrNotFound):
		return &APIError{Status: http.StatusNotFound, Code: CodeNotFound, Message: callerMessage(err, engine.ErrNotFound, "Not found")}
	case errors.Is(err, engine.ErrTooLarge):
		return &APIError{Status: http.StatusRequestEntityTooLarge, Code: CodeTooLarge, Message: callerMessage(err, engine.ErrTooLarge, "File too large")}
	case errors.Is(err, engine.ErrConflict):
		return &APIError{Status: http.StatusConflict, Code: CodeConflict, Message: callerMessage(err, engine.ErrConflict, "Conflict")}
	case errors.Is(err, engine.ErrUnavailable):
		return &APIError{Status: http.StatusServiceUnavailable, Code: CodeUnavailable, Message: callerMessage(err, engine.ErrUnavailable, "Service unavailable")}
	}
	return errInternal
}

// callerMessage strips the sentinel's own text from a wrapped error,
// whichever side it was wrapped on: both
// fmt.Errorf("%w: retention: want ephemeral or studio", ErrInvalid) and
// fmt.Errorf("retention: want ephemeral or studio: %w", ErrInvalid) read
// "retention: want ephemeral or studio". A bare sentinel gives def.
func callerMessage(err, sentinel error, def string) string {
	msg := err.Error()
	s := sentinel.Error()
	msg = strings.TrimPrefix(msg, s+": ")
	msg = strings.TrimSuffix(msg, ": "+s)
	if msg == "" || msg == s {
		return def
	}
	return msg
}
