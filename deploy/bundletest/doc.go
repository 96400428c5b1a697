// Package bundletest holds the end-to-end test of the release bundle
// (`make bundle`): it builds the tarball, unpacks and installs it into a
// temporary directory and runs the installed service from there, with no
// access to the source tree, the Go toolchain or the module cache. The
// package has no code of its own; see bundle_test.go.
package bundletest
