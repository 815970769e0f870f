/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup + strict - include/linux/spinlock.h (v6.1), keep in sync;
 *   strict: every lockdep report fails the test (lockdep never turns off),
 *   and so does a wait over the hung-task bound (3 s).
 *
 * Userspace shim: spinlocks.  Taking one makes the task atomic (no
 * sleeping), recursion and unlocking a lock the task does not hold are
 * reported, lockdep checks order and interrupt usage, and a lock that cannot be had within the hung-task bound is
 * reported as a lockup instead of hanging.
 */
#ifndef _SHIM_LINUX_SPINLOCK_H
#define _SHIM_LINUX_SPINLOCK_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/preempt.h>
#include <linux/irqflags.h>
#include <linux/lockdep.h>
#include <linux/spinlock_types.h>
#include <linux/bug.h>

#define spin_lock_init(lock) do {					\
	static struct lock_class_key __key;				\
	shim_lock_init(&(lock)->l, #lock, &__key);			\
} while (0)

#define spin_lock(lock)		spin_lock_nested(lock, 0)
#define spin_lock_nested(lock, subclass) \
	shim_lock_acquire(&(lock)->l, SHIM_SPIN, (subclass), __FILE__, __LINE__, \
			  __func__)
#define spin_unlock(lock) \
	shim_lock_release(&(lock)->l, SHIM_SPIN, __FILE__, __LINE__)
#define spin_trylock(lock) \
	shim_lock_try(&(lock)->l, SHIM_SPIN, __FILE__, __LINE__)

#define spin_lock_irq(lock) do { local_irq_disable(); spin_lock(lock); } while (0)
#define spin_unlock_irq(lock) do { spin_unlock(lock); local_irq_enable(); } while (0)
#define spin_lock_irqsave(lock, flags) \
	do { local_irq_save(flags); spin_lock(lock); } while (0)
#define spin_lock_irqsave_nested(lock, flags, subclass) \
	do { local_irq_save(flags); spin_lock_nested(lock, subclass); } while (0)
#define spin_unlock_irqrestore(lock, flags) \
	do { spin_unlock(lock); local_irq_restore(flags); } while (0)

#define spin_is_locked(lock)	\
	__shim_lock_is_locked(&(lock)->l, __FILE__, __LINE__)
#define assert_spin_locked(lock) lockdep_assert_held(lock)

#endif
