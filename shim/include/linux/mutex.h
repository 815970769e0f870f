/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup + strict - include/linux/mutex.h (v6.1), keep in sync;
 *   strict: every lockdep report fails the test (lockdep never turns off),
 *   and so does a wait over the hung-task bound (3 s).
 *
 * Userspace shim: sleeping mutexes, lockdep-tracked like spinlocks.  As
 * with DEBUG_MUTEXES, mutex_destroy() of a held mutex is reported, and
 * it clears the magic: a later lock or unlock is a "bad magic" report
 * until mutex_init() makes the mutex new again.
 */
#ifndef _SHIM_LINUX_MUTEX_H
#define _SHIM_LINUX_MUTEX_H

#include <linux/lockdep.h>
#include <linux/preempt.h>
#include <shim/lock.h>

struct mutex {
	struct shim_lock l;
};

/* The magic of a destroyed mutex (DEBUG_MUTEXES sets lock->magic = NULL). */
#define SHIM_MUTEX_DESTROYED	0xdead10c5u

#define __MUTEX_INITIALIZER(lockname)	{ .l = __SHIM_LOCK_INIT(lockname) }
#define DEFINE_MUTEX(x)	struct mutex x = __MUTEX_INITIALIZER(x)

#define mutex_init(mutex) do {						\
	static struct lock_class_key __key;				\
	shim_lock_init(&(mutex)->l, #mutex, &__key);			\
} while (0)

#define mutex_lock(m)			mutex_lock_nested(m, 0)
#define mutex_lock_nested(m, subclass) \
	shim_lock_acquire(&(m)->l, SHIM_MUTEX, (subclass), __FILE__, __LINE__, \
			  __func__)
#define mutex_lock_interruptible(m)	({ mutex_lock(m); 0; })
#define mutex_lock_interruptible_nested(m, subclass) \
	({ mutex_lock_nested(m, subclass); 0; })
#define mutex_trylock(m) \
	shim_lock_try(&(m)->l, SHIM_MUTEX, __FILE__, __LINE__)
#define mutex_unlock(m) \
	shim_lock_release(&(m)->l, SHIM_MUTEX, __FILE__, __LINE__)
#define mutex_is_locked(m)	\
	__shim_lock_is_locked(&(m)->l, __FILE__, __LINE__)
void __shim_mutex_destroy(struct mutex *lock, const char *file, int line);
#define mutex_destroy(m)	__shim_mutex_destroy((m), __FILE__, __LINE__)

#endif
