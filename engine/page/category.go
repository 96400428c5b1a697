package page

// Category is a PII category, one of the values of pii_categories.
type Category string

const (
	Person       Category = "Person"
	Email        Category = "Email"
	PhoneNumber  Category = "PhoneNumber"
	Address      Category = "Address"
	Organization Category = "Organization"
	Date         Category = "Date"
	IBAN         Category = "IBAN"
	CreditCard   Category = "CreditCard"
	// NationalID is a person's identity, tax or social-security number
	// (an extension of the spec's list; docs/behaviour.md, "National IDs").
	NationalID Category = "NationalID"
	// Face is a photograph of a person's face, masked head and all, found
	// in the page's pixels (engine/visual; docs/behaviour.md, "Faces,
	// signatures and codes").
	Face Category = "Face"
	// Signature is handwriting: signatures, initials, handwritten notes.
	// The category is accepted and toggled; its detector (a trained
	// handwriting model) is not in this release, so nothing is masked as
	// Signature yet and it is not in a new account's defaults.
	Signature Category = "Signature"
	// Barcode is a QR, Data Matrix, PDF417, Aztec or linear code whose
	// content holds personal data of a requested category, or that is
	// found but cannot be decoded (engine/visual).
	Barcode Category = "Barcode"
	// IncludedTerm marks spans forced by pii_included_terms; they are
	// masked whatever the category filter says.
	IncludedTerm Category = "IncludedTerm"
)

// Categories lists the categories a caller may name, in the spec's order
// and then the extensions.
var Categories = []Category{Person, Email, PhoneNumber, Address, Organization, Date, IBAN, CreditCard, NationalID, Face, Signature, Barcode}

// DefaultCategories is the built-in default of a new account
// (engine/jobs/accounts.go): every category but Signature, which has no
// detector yet. Accounts keep the list they saved when they were created,
// so a category added here reaches only new accounts and those whose
// owner sets it (docs/behaviour.md, "Faces, signatures and codes").
var DefaultCategories = []Category{Person, Email, PhoneNumber, Address, Organization, Date, IBAN, CreditCard, NationalID, Face, Barcode}

// Visual reports whether c is found in a page's pixels (faces,
// handwriting, codes) rather than in its words.
func (c Category) Visual() bool { return c == Face || c == Signature || c == Barcode }

// ParseCategory returns the category named s exactly, or false.
func ParseCategory(s string) (Category, bool) {
	for _, c := range Categories {
		if string(c) == s {
			return c, true
		}
	}
	return "", false
}

// Span is a detection: words First..Last (inclusive, indices into
// Page.Words, on any number of lines) belong to Category.
//
// Start is the rune offset in the first word where the span begins and
// End the rune offset in the last word where it ends (exclusive); End == 0
// means the end of the last word. Partial words let a detector mask an
// e-mail address glued to a label ("mail:jo@x.org") without the label,
// when the producer gave per-character quads.
type Span struct {
	First, Last int
	Start, End  int
	Category    Category
	Score       float32
	Recognizer  string
}
