package jobs

// MigrateJobLog is migrateJobLog, for the tests of package engine_test
// that run it on the earlier releases' data directories.
var MigrateJobLog = migrateJobLog
