/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: custom - annotations for valgrind's tools (no-ops elsewhere).
 *
 * Annotations for valgrind's race detectors, compiled in only in the
 * valgrind build (-DSHIM_VALGRIND).  Helgrind and DRD do not know the
 * compiler's atomics, so the kernel's marked accesses would be reported
 * as races although the kernel's memory model allows them:
 *  - READ_ONCE/WRITE_ONCE and the atomic_t/refcount_t operations are
 *    intentional concurrent accesses: their locations are not checked;
 *  - smp_store_release/smp_load_acquire also order other accesses:
 *    they become a happens-before edge;
 *  - initialising a lock, completion or semaphore makes new memory: the
 *    kernel has no destroy call, so an old, never destroyed pthread
 *    object may have lived there (on a reused stack, say).
 * Plain accesses are still checked, which is what the tools are for.
 * Valgrind runs one thread at a time, 20-100x slower: userspace stress
 * tests ask shim_on_valgrind() and run fewer rounds under it.
 */
#ifndef _SHIM_SHIM_VALGRIND_H
#define _SHIM_SHIM_VALGRIND_H

#include <stdbool.h>
#include <stddef.h>

#ifdef SHIM_VALGRIND
bool shim_on_valgrind(void);
void shim_vg_marked(void *addr, size_t size);
void shim_vg_release(void *addr);
void shim_vg_acquire(void *addr);
void shim_vg_new_memory(void *addr, size_t size);
#else
static inline bool shim_on_valgrind(void)
{
	return false;
}
#define shim_vg_marked(addr, size)	do { } while (0)
#define shim_vg_release(addr)		do { } while (0)
#define shim_vg_acquire(addr)		do { } while (0)
#define shim_vg_new_memory(addr, size)	do { } while (0)
#endif

#endif
