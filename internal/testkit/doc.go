// Package testkit and the packages below it hold what the project's tests
// share: generated PDFs with known words (testpdf), the hostile and the
// reader-sees corpora (hostile, hostile/visible), a log buffer (testlog),
// in-process NATS clusters (natskit), loopback ports for processes a test
// starts (ports) and small helpers (this package).
//
// Who may import them: _test.go files, the bench (bench/, which lays out
// its corpora with testpdf) and generators run by hand (engine/demo/gen).
// The daemon and the client CLI never link them; internal/layers'
// TestLayering fails if they do.
package testkit
