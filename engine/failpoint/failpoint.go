// Package failpoint lets a fault test crash the daemon at a named point
// of a state change, deterministically, instead of hoping a kill -9
// lands there. The points are named in REDACTD_FAILPOINTS (comma-
// separated); a process whose environment names none (every production
// run) pays one map lookup per point and nothing else.
//
// A point that fires kills its own process with SIGKILL: no deferred
// function runs, no buffer is flushed, exactly as a power cut or the OOM
// killer would stop it.
//
// Points:
//
//	after-charge   engine/store/storelog: a batch's ledger charge is made, its
//	               document not yet committed terminal
//	before-ack     engine: a document's outcome is committed, its queue
//	               lease not yet acknowledged
package failpoint

import (
	"os"
	"strings"
	"syscall"
)

// Env names the environment variable that arms points.
const Env = "REDACTD_FAILPOINTS"

var armed = parse(os.Getenv(Env))

func parse(s string) map[string]bool {
	m := map[string]bool{}
	for p := range strings.SplitSeq(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			m[p] = true
		}
	}
	return m
}

// Hit kills the process if point is armed.
func Hit(point string) {
	if armed[point] {
		os.Stderr.WriteString("failpoint " + point + ": killing the process\n")
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the signal is on its way
	}
}
