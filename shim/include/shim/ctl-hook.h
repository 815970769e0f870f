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
	SHIM_OP_IS_LOCKED, SHIM_OP_DONE,
	SHIM_OP_NR
};

struct task_struct;

/*
 * The one door between the shim and the explorer (#37).  The shim's
 * sources (shim/src/) call the explorer only through this table, which
 * the explorer installs for the length of a controlled run
 * (shim_ctl_install(), shim/src/shim-explore-api.h) and removes after;
 * the explorer calls only what shim-explore-api.h lists.  No call goes
 * from shim/src to a function defined in shim/explore/ by name
 * (explore.one_door checks the objects).
 */
struct shim_ctl_ops {
	/* A scheduling point (see shim_ctl_point_sized() below). */
	void (*point)(enum shim_op op, const void *obj, unsigned int size,
		      bool ro, const char *file, int line);
	/* Blocked until signal(@chan); the caller re-checks its condition. */
	void (*block)(const void *chan, enum shim_op op, const char *file,
		      int line, const char *func);
	/* The same with a timeout in simulated ms; true if it expired. */
	bool (*block_timed)(const void *chan, long ms, enum shim_op op,
			    const char *file, int line, const char *func);
	/* Every task blocked on @chan may run again. */
	void (*signal)(const void *chan);
	/* True if the calling task runs under the explorer. */
	bool (*on)(void);
	/* A kthread just made becomes a task of the run; false if not. */
	bool (*task_new)(struct task_struct *p, void (*fn)(struct task_struct *p));
	/* A block just allocated (for the race detector: a fresh range). */
	void (*alloc)(const void *p, unsigned long size);
	/*
	 * A block about to be freed: for the race detector a write of its
	 * @size bytes, so a use that happens-before does not order with the
	 * kfree() is a race (a use-after-free in another order).
	 */
	void (*free)(const void *p, unsigned long size, const char *file,
		     int line);
	/* The simulated clock, in ms. */
	long (*now_ms)(void);
	/* The weak-memory model's lock, unlock and full barrier (no-ops under sc). */
	void (*wmm_lock)(const void *lock, const char *file, int line);
	void (*wmm_unlock)(const void *lock, const char *file, int line);
	void (*wmm_mb)(void);
};

/* Non-zero while a controlled run is under way: shim_ctl_ops is set. */
extern int shim_ctl_active;
extern const struct shim_ctl_ops *shim_ctl_ops;
/*
 * @obj is what the operation after the point touches (NULL: it cannot
 * be named, and the partial-order reduction takes it as touching
 * everything); @ro is true if it only reads it.
 */
void shim_ctl_point(enum shim_op op, const void *obj, bool ro,
		    const char *file, int line);
/*
 * The same for a marked access of @size bytes at @obj: the reduction
 * labels it by the bytes it covers (two accesses that overlap are
 * dependent whatever their start), not by its start address.
 */
void shim_ctl_point_sized(enum shim_op op, const void *obj, unsigned int size,
			  bool ro, const char *file, int line);

#if defined(SHIM_INTERNAL)
#define shim_ctl_hook(op, obj, ro)	do { } while (0)
#define shim_ctl_hook_sized(op, obj, size, ro)	do { } while (0)
#else
#define shim_ctl_hook_sized(op, obj, size, ro) do {			\
	if (__builtin_expect(shim_ctl_active, 0))			\
		shim_ctl_point_sized((op), (const void *)(obj), (size),	\
				     (ro), __FILE__, __LINE__);		\
} while (0)
#define shim_ctl_hook(op, obj, ro) do {					\
	if (__builtin_expect(shim_ctl_active, 0))			\
		shim_ctl_point((op), (const void *)(obj), (ro),		\
			       __FILE__, __LINE__);			\
} while (0)
#endif

#endif
