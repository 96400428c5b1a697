// Package testkit holds helpers that the project's tests share. Only
// _test.go files may import it: the daemon and the CLIs never link it (a
// test in cmd/redactd checks that with go list -deps).
package testkit
