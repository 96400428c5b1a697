package testkit

import (
	"errors"
	"testing"

	"github.com/redactd/redactd/models/ort"
)

// SkipShortWithoutModels skips the test when it runs under -short (make
// test-short) and err says that the ONNX Runtime library or the models are
// not installed, as on a checkout before `make setup`. Any other error, and
// every error in a full run (make test, which sets up first), is left for
// the caller to fail on.
func SkipShortWithoutModels(t testing.TB, err error) {
	t.Helper()
	if err != nil && testing.Short() && errors.Is(err, ort.ErrNotInstalled) {
		t.Skipf("-short and the models are not installed (make setup): %v", err)
	}
}
