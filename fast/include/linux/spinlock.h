/* SPDX-License-Identifier: GPL-2.0 */
/*
 * klist-port-fast: spinlocks for a userspace that can be preempted.
 *
 * A lock word, 0 free, 1 held, and a count of the lockers that went to
 * sleep on it.  The uncontended lock is one compare-and-swap, the
 * uncontended unlock a release store and a load of the count, both
 * inline.  Contended, the locker spins a bounded while (the holder is
 * usually on another CPU and about to let go), then counts itself a
 * sleeper and sleeps on a futex, so a holder that was preempted is not
 * spun on for its whole time slice.
 *
 * The unlock's store and its load of the count are a store-load order:
 * without a full barrier between them a sleeper's count could be missed
 * while the sleeper misses the free word, a lost wake-up.  The barrier
 * is paid by the sleeper, on the slow path: membarrier(2) (src/
 * spinlock.c, registered when the library loads) makes every thread of
 * the process run one, so the unlock needs only the compiler's order.
 * Where the kernel has no membarrier (or valgrind does not emulate it),
 * kfast_spin_asymmetric stays 0 and every unlock has the full barrier.
 *
 * There are no interrupts here: the _irq and _irqsave forms are the
 * plain lock, and flags only keeps callers compiling.  Nothing is
 * debugged: that is the checked flavour's job.
 */
#ifndef _KFAST_LINUX_SPINLOCK_H
#define _KFAST_LINUX_SPINLOCK_H

#include <stdbool.h>
#include <linux/compiler.h>
#include <kfast/annotate.h>

typedef struct spinlock {
	int val;		/* the futex word */
	int sleepers;		/* lockers past their spinning */
} spinlock_t;

#define KFAST_SPIN_FREE		0
#define KFAST_SPIN_HELD		1

#define __SPIN_LOCK_UNLOCKED(lockname)	{ .val = KFAST_SPIN_FREE, .sleepers = 0 }
#define DEFINE_SPINLOCK(x)	spinlock_t x = __SPIN_LOCK_UNLOCKED(x)

void kfast_spin_lock_slow(spinlock_t *lock);
void kfast_spin_unlock_wake(spinlock_t *lock);
/* 1: sleepers run membarrier(2), unlocks need no barrier (above). */
extern int kfast_spin_asymmetric;

static inline void spin_lock_init(spinlock_t *lock)
{
	kfast_vg_marked(&lock->val, sizeof(lock->val));
	kfast_vg_marked(&lock->sleepers, sizeof(lock->sleepers));
	lock->val = KFAST_SPIN_FREE;
	lock->sleepers = 0;
}

static inline bool spin_trylock(spinlock_t *lock)
{
	int free = KFAST_SPIN_FREE;

	kfast_vg_marked(&lock->val, sizeof(lock->val));
	if (!__atomic_compare_exchange_n(&lock->val, &free, KFAST_SPIN_HELD,
					 false, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED))
		return false;
	/* Each holder's section happens before the next one's. */
	kfast_hb_acquire(lock);
	return true;
}

static inline void spin_lock(spinlock_t *lock)
{
	if (unlikely(!spin_trylock(lock)))
		kfast_spin_lock_slow(lock);
}

static inline void spin_unlock(spinlock_t *lock)
{
	kfast_hb_release(lock);
	kfast_vg_marked(&lock->val, sizeof(lock->val));
	kfast_vg_marked(&lock->sleepers, sizeof(lock->sleepers));
	__atomic_store_n(&lock->val, KFAST_SPIN_FREE, __ATOMIC_RELEASE);
	/* The store before the load: the sleeper's membarrier, or ours. */
	if (unlikely(!__atomic_load_n(&kfast_spin_asymmetric, __ATOMIC_RELAXED)))
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
	else
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (unlikely(__atomic_load_n(&lock->sleepers, __ATOMIC_RELAXED)))
		kfast_spin_unlock_wake(lock);
}

static inline bool spin_is_locked(spinlock_t *lock)
{
	return READ_ONCE(lock->val) != KFAST_SPIN_FREE;
}

#define spin_lock_irq(lock)		spin_lock(lock)
#define spin_unlock_irq(lock)		spin_unlock(lock)
#define spin_lock_bh(lock)		spin_lock(lock)
#define spin_unlock_bh(lock)		spin_unlock(lock)
#define spin_lock_irqsave(lock, flags) \
	do { (flags) = 0; spin_lock(lock); } while (0)
#define spin_unlock_irqrestore(lock, flags) \
	do { (void)(flags); spin_unlock(lock); } while (0)
#define assert_spin_locked(lock)	((void)(lock))
#define lockdep_assert_held(lock)	((void)(lock))

#endif
