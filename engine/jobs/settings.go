package jobs

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/store"
	"github.com/redactd/redactd/engine/store/record"
)

// Settings configure the job service; Options (contract.Options) are a
// job's redaction options. The fields carry the names of the one
// Config's settings, from which cmd/redactd/wire fills them
// (config.Select); the engine sees nothing else of the Config.
type Settings struct {
	// Data is the data directory: the job log (DATA/joblog), the files
	// (DATA/files) and the upload secret.
	Data string
	// FilesDir holds originals, outputs and review files (default
	// DATA/files); with Blobs set, only this node's temporary files.
	FilesDir string
	// MaxConcurrentJobs bounds the documents processed at once (default 1).
	MaxConcurrentJobs int
	// JanitorInterval is how often expired jobs and uploads are swept
	// (default one minute).
	JanitorInterval time.Duration

	// Request limits.
	MaxFilesPerJob int
	MaxUploadBytes int64
	MaxTermCount   int
	MaxPagesPerDoc int

	// Quotas of new accounts, by plan.
	FreePages     int64
	StandardPages int64

	// Lifetimes: of upload URLs, of ephemeral outputs, of studio jobs.
	UploadURLTTL time.Duration
	OutputTTL    time.Duration
	StudioTTL    time.Duration

	// WebhookAllowHosts is the webhook-allow-hosts list; empty turns
	// webhooks off.
	WebhookAllowHosts string

	// Review (studio documents): the most masks in one review state, the
	// reason codes (comma-separated), whether apply re-scans its output,
	// and the OCR mode that re-scan needs (off: no re-scan).
	ReviewMaxMasks int
	ReviewReasons  string
	ReviewRescan   bool
	OCR            string

	// Registerer takes the engine's metrics; nil keeps them unregistered.
	Registerer prometheus.Registerer `config:"-"`
	// Records opens the record store of a cluster node (engine/store/storelog
	// on the shared engine); nil opens a node's store, storelog over
	// pebble at DATA/store, moving an older release's DATA/joblog there
	// first (migrate.go). Each
	// Open calls it once and the engine owns what it returns: Close
	// closes it.
	Records func() (record.Store, error) `config:"-"`
	// Blobs opens the blob store a cluster's nodes share for originals,
	// outputs and review files; nil keeps them in FilesDir. With a blob
	// store FilesDir is this node's scratch directory only. Each Open
	// calls it once, after Records; Close closes the records, which own
	// the connection under both.
	Blobs func() (store.Blobs, error) `config:"-"`
	// Previewer measures the pages of an original whose review state
	// has no page sizes (a studio document redacted before words were
	// kept): the pipeline's (pipeline.Previews), so the job service links
	// no MuPDF. Without one such a review cannot be opened.
	Previewer contract.Previewer `config:"-"`
}
