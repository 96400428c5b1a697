// Package layers holds redactd's layering as a test: which packages may
// not link which, in one table (layers_test.go), checked against the
// import graph `go list -deps` reports for the non-test code of every
// package of the module. The package has no code of its own.
//
// The rules, from issue 44:
//
//   - the pipeline links no job service (they are siblings over
//     engine/contract), nor the job service's stores and webhooks;
//   - the models link no detection, pipeline or job service;
//   - the job service links no pipeline and no MuPDF (previews reach it
//     as a contract.Previewer), and neither does the HTTP layer;
//   - components take their own settings: only cmd (through
//     cmd/redactd/wire), the bench and the test kits read engine/config;
//   - the daemon and the client CLI link no test kit;
//   - the contract leaves (engine/contract, engine/store/record, engine/store,
//     engine/review) stay leaves.
//
// When a package moves, change its path in the table's variables; the
// test fails on a path that names no package, so the table cannot go
// stale silently. A known exception is listed with the reason it stands
// and fails the test once it is no longer needed.
package layers
