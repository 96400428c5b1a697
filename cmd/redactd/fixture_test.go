package main

import (
	"bytes"
	"flag"
	"os"
	"testing"

	"github.com/redactd/redactd/internal/testkit/testpdf"
)

var update = flag.Bool("update", false, "rewrite doctor.pdf from internal/testkit/testpdf")

// TestDoctorFixture holds the doctor's embedded PDF to what the test kit
// generates for the same page, so the fixture cannot drift from the words
// checkMuPDF expects.
func TestDoctorFixture(t *testing.T) {
	doc := testpdf.New()
	doc.AddPage(300, 100, 0).Text(20, 50, 24, doctorText)
	want := doc.Bytes()
	if *update {
		if err := os.WriteFile("doctor.pdf", want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(doctorPDF, want) && !*update {
		t.Fatal("doctor.pdf differs from what testpdf makes of the doctor's page; run go test -run TestDoctorFixture -update ./cmd/redactd")
	}
}
