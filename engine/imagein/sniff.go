package imagein

import (
	"bytes"
	"errors"
)

// Kind is a file type recognised from its first bytes.
type Kind uint8

const (
	KindUnknown Kind = iota
	KindPDF
	KindPNG
	KindJPEG
	KindTIFF
	KindBMP
	KindGIF
	KindWebP
)

// ParseKind is the Kind named s (Kind.String's names); KindUnknown for
// any other string.
func ParseKind(s string) Kind {
	for k := KindPDF; k <= KindWebP; k++ {
		if k.String() == s {
			return k
		}
	}
	return KindUnknown
}

func (k Kind) String() string {
	switch k {
	case KindPDF:
		return "pdf"
	case KindPNG:
		return "png"
	case KindJPEG:
		return "jpeg"
	case KindTIFF:
		return "tiff"
	case KindBMP:
		return "bmp"
	case KindGIF:
		return "gif"
	case KindWebP:
		return "webp"
	}
	return "unknown"
}

// ErrUnsupported is returned for files that are neither a PDF nor an image
// format this package decodes.
var ErrUnsupported = errors.New("unsupported file type: not a PDF, PNG, JPEG, TIFF, BMP, GIF or WebP")

// pdfWindow is how far into a file "%PDF-" may start: readers (MuPDF,
// Acrobat) accept junk before the header, so we do too.
const pdfWindow = 1024

// SniffLen is how many leading bytes of a file Sniff may look at.
const SniffLen = pdfWindow

// Sniff tells the type of b from its content, never from a file name.
// Image signatures are only recognised at offset 0; a PDF header anywhere
// in the first 1024 bytes makes a PDF.
func Sniff(b []byte) (Kind, error) {
	switch {
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return KindPNG, nil
	case bytes.HasPrefix(b, []byte{0xFF, 0xD8, 0xFF}):
		return KindJPEG, nil
	case bytes.HasPrefix(b, []byte("II*\x00")), bytes.HasPrefix(b, []byte("MM\x00*")):
		return KindTIFF, nil
	case bytes.HasPrefix(b, []byte("GIF87a")), bytes.HasPrefix(b, []byte("GIF89a")):
		return KindGIF, nil
	case len(b) >= 12 && bytes.HasPrefix(b, []byte("RIFF")) && string(b[8:12]) == "WEBP":
		return KindWebP, nil
	case len(b) >= 26 && bytes.HasPrefix(b, []byte("BM")):
		return KindBMP, nil
	case bytes.Contains(b[:min(len(b), pdfWindow)], []byte("%PDF-")):
		return KindPDF, nil
	}
	return KindUnknown, ErrUnsupported
}
