// SPDX-License-Identifier: GPL-2.0
/*
 * klist-port-fast: the contended spinlock.  Spin a bounded while, then
 * sleep on the lock word (Drepper's "Futexes Are Tricky", mutex 3).
 *
 * The orderings (linux/spinlock.h has the fast paths):
 * - lock, fast path: compare-exchange FREE -> HELD, acquire (relaxed
 *   when it fails: nothing was taken);
 * - lock, spinning: a relaxed load (test before the compare-exchange),
 *   then the fast path's compare-exchange;
 * - lock, sleeping: exchange -> SLEEPERS, acquire: when it reads FREE it
 *   has taken the lock, and must see the last holder's section;
 * - unlock: exchange -> FREE, release; a SLEEPERS read back means a wake;
 * - the futex wait and wake: the kernel's (it compares the word with
 *   the value under its own lock, with full barriers).
 * The explorer runs these as scenarios under sc and its weak-memory
 * model (fast/testing/explore-fast.c, docs/fast-runtime.md).
 */
#include <linux/spinlock.h>

#include "futex.h"

/*
 * About a few microseconds of pause loops: longer than a klist section
 * takes, shorter than a sleep and wake-up cost.  (The explorer's build
 * spins twice: every try is two points there.)
 */
#ifndef KFAST_SPIN_TRIES
#define KFAST_SPIN_TRIES	200
#endif

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	barrier();
#endif
}

void kfast_spin_lock_slow(spinlock_t *lock)
{
	int i;

	for (i = 0; i < KFAST_SPIN_TRIES; i++) {
		cpu_relax();
		if (READ_ONCE(lock->val) == KFAST_SPIN_FREE && spin_trylock(lock))
			return;
	}
	/*
	 * From here the lock is taken as "held with sleepers": we cannot
	 * know whether others sleep too, so every unlock after ours wakes.
	 */
	while (__atomic_exchange_n(&lock->val, KFAST_SPIN_SLEEPERS,
				   __ATOMIC_ACQUIRE) != KFAST_SPIN_FREE)
		kfast_futex_wait(&lock->val, KFAST_SPIN_SLEEPERS);
	kfast_hb_acquire(lock);
}

void kfast_spin_unlock_wake(spinlock_t *lock)
{
	kfast_futex_wake(&lock->val, 1);
}
