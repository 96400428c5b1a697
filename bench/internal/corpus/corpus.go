// Package corpus builds the benchmark's document sets and keeps, for the
// synthetic ones, the ground truth the scorer needs: every word drawn on
// every page, its box and whether (and as what) it is personal data.
//
// Boxes are kept in normalised page coordinates (0..1 across the width and
// height of the page as displayed), so they hold whatever page size or
// resolution the service gives its output: an image uploaded at some
// pixel size comes back as a page of some size in points, and the scorer
// maps truth onto the rendered output by fractions of its size.
package corpus

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/redactd/redactd/engine/page"
)

// Point is a position in normalised page coordinates.
type Point struct{ X, Y float64 }

// Quad is a convex quadrilateral given by its corners in order around it
// (upper-left, upper-right, lower-right, lower-left of the text).
type Quad [4]Point

// Word is a word drawn on a page. For PII it covers only the characters
// inside the labelled entity (not trailing punctuation).
type Word struct {
	Text string
	Quad Quad
	// Cat is the word's category, or "" for a word that is not personal
	// data. page.IncludedTerm marks the terms the bench asks the service
	// to redact through pii_included_terms.
	Cat page.Category
	// Ignore marks words inside entities redactd has no category for
	// (presidio's LOCATION, US_SSN, ...): masking them is neither asked
	// for nor over-redaction, so they count on neither side.
	Ignore bool
	// Entity is the index in Doc.Entities of the entity the word belongs
	// to, or -1.
	Entity int
}

// Entity is one labelled entity on one page (an entity split by a page
// break is two), checked for leaks as a whole string.
type Entity struct {
	Text string
	Cat  page.Category
	Page int
}

// Doc is one file to submit.
type Doc struct {
	Name        string // file name sent with the upload
	ContentType string // application/pdf, image/png or image/jpeg
	Data        []byte
	Pages       int
	// Truth holds the words of each page. Labelled tells whether their
	// categories are known; for real documents they are only the input's
	// words (from MuPDF), used to report how much of the text got masked.
	Truth    [][]Word
	Labelled bool
	Entities []Entity
}

// Corpus is a named set of documents submitted and scored together.
type Corpus struct {
	Name string
	Desc string
	// Scanned marks corpora whose pages carry no text layer, the ones the
	// OCR peers are compared on.
	Scanned bool
	Docs    []*Doc
}

// Pages is the number of pages of all documents.
func (c *Corpus) Pages() int {
	n := 0
	for _, d := range c.Docs {
		n += d.Pages
	}
	return n
}

// Bytes is the size of all documents.
func (c *Corpus) Bytes() int64 {
	var n int64
	for _, d := range c.Docs {
		n += int64(len(d.Data))
	}
	return n
}

// File is a document written to disk, for the peer tools.
type File struct {
	Path  string
	Pages int
}

// WriteFiles writes the corpus's PDFs (images are skipped: the peers
// compared take PDFs) under dir/NAME and returns them.
func (c *Corpus) WriteFiles(dir string) ([]File, error) {
	d := filepath.Join(dir, c.Name)
	if err := os.MkdirAll(d, 0o755); err != nil {
		return nil, fmt.Errorf("corpus %s: %w", c.Name, err)
	}
	var out []File
	for _, doc := range c.Docs {
		if doc.ContentType != "application/pdf" {
			continue
		}
		p := filepath.Join(d, doc.Name)
		if err := os.WriteFile(p, doc.Data, 0o644); err != nil {
			return nil, fmt.Errorf("corpus %s: %w", c.Name, err)
		}
		out = append(out, File{Path: p, Pages: doc.Pages})
	}
	return out, nil
}

// Normalize folds s for leak matching: lower case letters and digits
// only, so "John Smith," and "JOHN SMITH" compare equal and OCR's
// spacing does not matter.
func Normalize(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}
