// Package kernels holds redactd's hot loops over pixels.
//
// Every kernel comes in two versions: a plain-Go reference (named ...Ref)
// that is written for obviousness and serves as the test oracle, and an
// optimised version (word-at-a-time, unrolled, bounds-check-free) that the
// rest of the program calls. Tests compare the two on random inputs and
// benchmarks measure both in the same run, so a speed-up is always a ratio
// against the reference on the same machine.
//
// Kernels take raw byte slices with explicit width, height and stride
// instead of image.Image so that callers can run them on pooled buffers
// without allocation or interface dispatch.
package kernels
