package jobs

import "log/slog"

// MigrateJobLog is migrateJobLog, for the tests of package engine_test
// that run it on the earlier releases' data directories.
func MigrateJobLog(data string, log *slog.Logger) (bool, error) {
	return migrateJobLog(data, log, jobLogExposed(data))
}
