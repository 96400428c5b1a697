// Package malloc caps the arenas of the C allocator that MuPDF and ONNX
// Runtime share in this process (glibc's malloc) at one per CPU.
//
// glibc gives a thread that first allocates a new arena of its own, up to
// eight per CPU. Pages a document or a model run freed stay in the arena
// of the thread that freed them, where only the threads bound to that
// arena reuse them: with many jobs in flight the process keeps far more
// memory than it uses (16 scan jobs at once: 1.10 GiB peak RSS with
// glibc's arenas, 0.99 GiB with one per CPU; bench/PROFILE.md, "Memory
// with 16 scan jobs"). The pipeline never runs more C work at once than it
// has cores, so threads rarely wait on a shared arena.
//
// The cap is set when the program loads, before the Go runtime starts
// its threads (arenas already made are never given back, so a cap set
// later would leave those). Importing the package sets it; the
// MALLOC_ARENA_MAX environment variable or a glibc.malloc.arena_max
// tunable in GLIBC_TUNABLES, when set, is left to decide instead.
package malloc

/*
#define _GNU_SOURCE
#include <malloc.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rd_arena_limit;

__attribute__((constructor)) static void rd_limit_arenas(void)
{
#ifdef M_ARENA_MAX
	const char *t = getenv("GLIBC_TUNABLES");
	if (getenv("MALLOC_ARENA_MAX") || (t && strstr(t, "arena_max")))
		return;
	cpu_set_t set;
	int n = 0;
	if (sched_getaffinity(0, sizeof set, &set) == 0)
		n = CPU_COUNT(&set);
	if (n < 1)
		n = 1;
	if (mallopt(M_ARENA_MAX, n) == 1)
		rd_arena_limit = n;
#endif
}

static int rd_limit(void) { return rd_arena_limit; }

// rd_stats reports the bytes the allocator has handed out (in arenas and
// mapped alone) and the free bytes its arenas hold; 0 when this C
// library has no mallinfo2 (glibc before 2.33).
static int rd_stats(size_t *in_use, size_t *held_free)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
	struct mallinfo2 mi = mallinfo2();
	*in_use = mi.uordblks + mi.hblkhd;
	*held_free = mi.fordblks;
	return 1;
#else
	return 0;
#endif
}

// rd_arenas counts the heaps malloc_info reports (one per arena), -1 when
// it cannot tell.
static int rd_arenas(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return -1;
	int ok = malloc_info(0, f) == 0;
	fclose(f);
	int n = 0;
	for (char *p = buf; ok && (p = strstr(p, "<heap nr=")) != NULL; p++)
		n++;
	free(buf);
	return ok ? n : -1;
}

// rd_alloc_block allocates n bytes and touches them (tests: a block the Go
// side cannot see).
static void *rd_alloc_block(size_t n)
{
	char *p = malloc(n);
	if (p)
		memset(p, 1, n);
	return p;
}
*/
import "C"

import (
	"errors"
	"unsafe"
)

// ErrUnsupported is returned by Arenas and ReadStats when the C library
// does not report its arenas (a libc other than glibc).
var ErrUnsupported = errors.New("malloc: this C library does not report its arenas")

// ArenaLimit returns the arena cap this package set when the program
// loaded, or 0 when it set none (the environment decides, or the C
// library has no such cap).
func ArenaLimit() int { return int(C.rd_limit()) }

// Arenas returns how many arenas the C allocator has made so far. It
// allocates on the calling thread, which may make one more.
func Arenas() (int, error) {
	n := int(C.rd_arenas())
	if n < 0 {
		return 0, ErrUnsupported
	}
	return n, nil
}

// Stats are the C allocator's bytes: what it has handed out (MuPDF's
// documents, ONNX Runtime's arenas and models) and what its arenas hold
// free. Free bytes count in the process's RSS only where they were
// touched; they are what the arena cap keeps low.
type Stats struct {
	InUse, Free uint64
}

// ReadStats returns the C allocator's Stats. It walks every arena's free
// lists under their locks: cheap at a scrape's pace, not in a hot loop.
func ReadStats() (Stats, error) {
	var inUse, free C.size_t
	if C.rd_stats(&inUse, &free) == 0 {
		return Stats{}, ErrUnsupported
	}
	return Stats{InUse: uint64(inUse), Free: uint64(free)}, nil
}

// allocBlock and freeBlock hold a C block of n bytes, for the tests.
func allocBlock(n int) unsafe.Pointer { return C.rd_alloc_block(C.size_t(n)) }
func freeBlock(p unsafe.Pointer)      { C.free(p) }
