package mupdf

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
)

// TestColourDecisionStable loads pages whose pictures are ICCBased sRGB
// images, each time from a freshly opened document (a fresh MuPDF
// context), and checks that the colour flag is the same every time and
// right: QualityHosting's logo is orange, cupertino's seal is gray.
// MuPDF's test device judged such images by uninitialised stack memory
// (its colour converter called with source and destination swapped), so
// the answer changed from one document to the next, with text extracted
// with ICC off (the default) or on alike.
func TestColourDecisionStable(t *testing.T) {
	dir := documentsDir(t)
	for _, icc := range []bool{false, true} {
		t.Run(fmt.Sprintf("stextICC=%v", icc), func(t *testing.T) {
			setStextICC(icc)
			defer setStextICC(false)
			colourDecisions(t, dir)
		})
	}
}

func colourDecisions(t *testing.T, dir string) {
	cases := []struct {
		file  string
		color []bool // per page
	}{
		{"invoices_invoice2data/QualityHosting.pdf", []bool{true, true}},
		{"pdf_public_records_pdfplumber/cupertino_usd_4-6-16.pdf", []bool{false}},
	}
	for _, c := range cases {
		path := filepath.Join(dir, c.file)
		for run := range 8 {
			d, err := OpenFile(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if d.NumPages() != len(c.color) {
				t.Fatalf("%s: %d pages", c.file, d.NumPages())
			}
			for rep := range 2 {
				for i, want := range c.color {
					p, err := d.LoadPage(context.Background(), i)
					if err != nil {
						t.Fatal(err)
					}
					if p.Color() != want {
						t.Errorf("%s page %d (document %d, load %d): colour %v, want %v", c.file, i, run, rep, p.Color(), want)
					}
					p.Close()
				}
			}
			d.Close()
		}
	}
}
