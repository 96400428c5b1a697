package joblog

import "github.com/redactd/redactd/engine/store/record"

// The stored records are engine/store/record's; these names keep the package's
// own API readable.
type (
	RedactOptions  = record.RedactOptions
	Account        = record.Account
	Key            = record.Key
	Job            = record.Job
	Hook           = record.Hook
	Doc            = record.Doc
	Idem           = record.Idem
	Event          = record.Event
	QueueEntry     = record.QueueEntry
	RetentionEntry = record.RetentionEntry
	ListedJob      = record.ListedJob
)
