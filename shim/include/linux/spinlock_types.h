/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup - include/linux/spinlock_types.h (v6.1), keep in sync.
 */
#ifndef _SHIM_LINUX_SPINLOCK_TYPES_H
#define _SHIM_LINUX_SPINLOCK_TYPES_H

#include <shim/lock.h>

typedef struct spinlock {
	struct shim_lock l;
} spinlock_t;

#define __SPIN_LOCK_INITIALIZER(lockname)	{ .l = __SHIM_LOCK_INIT(lockname) }
#define __SPIN_LOCK_UNLOCKED(lockname) \
	((spinlock_t)__SPIN_LOCK_INITIALIZER(lockname))
#define DEFINE_SPINLOCK(x)	spinlock_t x = __SPIN_LOCK_UNLOCKED(x)

#endif
