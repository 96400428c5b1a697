package pipeline

import "time"

// Settings configure the pipeline and the models it loads. The fields
// carry the names of the one Config's settings, from which
// cmd/redactd/wire fills them (config.Select); the pipeline sees nothing
// else of the Config. engine/config documents each.
type Settings struct {
	// Pages.
	Workers           int
	DPI               float64
	MaxPagePixels     int64
	MaxPixelsInFlight int64
	MuPDFStoreBytes   int64
	PageTimeout       time.Duration
	JPEGQuality       int
	TextBits          int
	// MaxPagesPerDoc bounds only how far the image decoder walks a
	// multi-page file; the page limit is the job service's.
	MaxPagesPerDoc int
	// OCR is when pixels are read: auto, always or off.
	OCR string
	// TermsIgnoreDiacritics lets included and excluded terms match
	// without their diacritics (off by default).
	TermsIgnoreDiacritics bool

	// Models (LoadModels).
	ModelDir   string
	ORTLib     string
	Device     string
	ORTThreads int
	NERModel   string
	// NERModelMulti ("off" or "": none) is the second NER model, for the
	// blocks in the six other languages (DetectorsByLang); the service's
	// default is ner.BuiltinMultilingual.
	NERModelMulti string
	// NERMultiEnglish is ner.RoutedOptions.EnglishWhere for it.
	NERMultiEnglish float64
	NERRecall       float64
	// NERPersonRecall is NERRecall for person labels alone.
	NERPersonRecall float64
	// NERMultiPersonRecall is NERPersonRecall for NERModelMulti.
	NERMultiPersonRecall float64
	BatchSize            int
	BatchWait            time.Duration
	OCRMaxSide           int
	OCRCharset           string
	// OCRModel picks the recogniser: ppocrv4 or redactd-latin.
	OCRModel string
}
