/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: custom - the controlled scheduler's hook in the kernel
 * headers.
 *
 * READ_ONCE(), WRITE_ONCE(), barriers, acquire/release accessors and
 * atomics are scheduling points when a test runs under the explorer
 * (shim/explore/explore.c): the call is made only then, so the normal build
 * pays one predictable branch.  The shim's own sources define
 * SHIM_INTERNAL: their accesses are bookkeeping, some under pthread
 * mutexes that must never be held across a task switch.
 */
#ifndef _SHIM_CTL_HOOK_H
#define _SHIM_CTL_HOOK_H

#include <stdbool.h>

/* What a task did at a scheduling point: for the printed interleaving. */
enum shim_op {
	SHIM_OP_NONE,
	SHIM_OP_SPIN_LOCK, SHIM_OP_MUTEX_LOCK, SHIM_OP_TRYLOCK, SHIM_OP_UNLOCK,
	SHIM_OP_REFCOUNT, SHIM_OP_ATOMIC, SHIM_OP_BARRIER, SHIM_OP_ACQUIRE,
	SHIM_OP_RELEASE, SHIM_OP_READ_ONCE, SHIM_OP_WRITE_ONCE,
	SHIM_OP_SET_STATE, SHIM_OP_SCHEDULE, SHIM_OP_WAKE, SHIM_OP_COMPLETE,
	SHIM_OP_WAIT, SHIM_OP_SEMAPHORE, SHIM_OP_MSLEEP, SHIM_OP_YIELD,
	SHIM_OP_KMALLOC, SHIM_OP_KFREE, SHIM_OP_KTHREAD, SHIM_OP_IRQ,
	SHIM_OP_BLOCK, SHIM_OP_START, SHIM_OP_EXIT,
	SHIM_OP_NR
};

extern int shim_ctl_active;
/*
 * @obj is what the operation after the point touches (NULL: it cannot
 * be named, and the partial-order reduction takes it as touching
 * everything); @ro is true if it only reads it.
 */
void shim_ctl_point(enum shim_op op, const void *obj, bool ro,
		    const char *file, int line);

#if defined(SHIM_INTERNAL)
#define shim_ctl_hook(op, obj, ro)	do { } while (0)
#else
#define shim_ctl_hook(op, obj, ro) do {					\
	if (__builtin_expect(shim_ctl_active, 0))			\
		shim_ctl_point((op), (const void *)(obj), (ro),		\
			       __FILE__, __LINE__);			\
} while (0)
#endif

#endif
