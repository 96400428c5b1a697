package main

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"strings"
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

// TestDaemonLinksNoTestKit fails when the daemon or the client CLI link a
// package of internal/testkit, which is for tests and the bench only.
func TestDaemonLinksNoTestKit(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/redactd/redactd/cmd/redactd", "github.com/redactd/redactd/cmd/redact").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "github.com/redactd/redactd/internal/testkit") {
			t.Errorf("the daemon or the CLI links %s", p)
		}
	}
}
