package mupdf

// SetStextICC is setStextICC for the external tests (icc_test.go, which
// reads corpora whose kits import this package).
var SetStextICC = setStextICC
