// SPDX-License-Identifier: GPL-2.0
/*
 * klist-port-fast: the contended spinlock.  Spin a bounded while, then
 * count ourselves a sleeper and sleep on the lock word (after Drepper's
 * "Futexes Are Tricky", with the sleepers counted beside the word rather
 * than in it, so that an unlock is a store, not an exchange).
 *
 * The orderings (linux/spinlock.h has the fast paths):
 * - lock, fast path: compare-exchange FREE -> HELD, acquire (relaxed
 *   when it fails: nothing was taken);
 * - lock, spinning: a relaxed load (test before the compare-exchange),
 *   then the fast path's compare-exchange;
 * - lock, sleeping: the count incremented (relaxed), then a full barrier
 *   on every thread of the process (membarrier(2); our own smp_mb() if
 *   unavailable), then exchange -> HELD, acquire: when it reads FREE it
 *   has taken the lock, and must see the last holder's section; then the
 *   count decremented (relaxed);
 * - unlock: store FREE, release; then the count, relaxed, after the
 *   compiler's barrier (membarrier) or a seq_cst fence (without);
 *   non-zero means a futex wake of one sleeper;
 * - the futex wait and wake: the kernel's (it compares the word with
 *   the value under its own lock, with full barriers).
 * No wake-up is lost: an unlock whose load of the count comes before a
 * sleeper's barrier has its store before it too, so the sleeper's
 * exchange or the futex's compare sees the word free; one whose load
 * comes after sees the sleeper counted and wakes one.  A sleeper woken
 * that loses the lock again sleeps again, still counted, and the next
 * unlock wakes again.
 * The explorer runs these as scenarios under sc and its weak-memory
 * model, in the symmetric form (kfast_spin_asymmetric 0: the unlock's
 * fence; fast/testing/explore-fast.c, docs/fast-runtime.md).
 */
#include <linux/spinlock.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "futex.h"

/*
 * About a few microseconds of pause loops: longer than a klist section
 * takes, shorter than a sleep and wake-up cost.  (The explorer's build
 * spins twice: every try is two points there.)
 */
#ifndef KFAST_SPIN_TRIES
#define KFAST_SPIN_TRIES	200
#endif

/* <linux/membarrier.h>'s commands (Linux 4.14). */
#define KFAST_MEMBARRIER_PRIVATE_EXPEDITED		(1 << 3)
#define KFAST_MEMBARRIER_REGISTER_PRIVATE_EXPEDITED	(1 << 4)

int kfast_spin_asymmetric;

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

#if defined(SYS_membarrier) && !defined(KFAST_EXPLORE)
static long kfast_membarrier(int cmd)
{
	return syscall(SYS_membarrier, cmd, 0, 0);
}

/*
 * At load, before any lock can be contended, and again in a forked
 * child (its new address space is not registered; it has one thread).
 */
static void kfast_spin_register(void)
{
	int ok = !kfast_membarrier(KFAST_MEMBARRIER_REGISTER_PRIVATE_EXPEDITED);

	__atomic_store_n(&kfast_spin_asymmetric, ok, __ATOMIC_RELAXED);
}

__attribute__((constructor)) static void kfast_spin_init(void)
{
	kfast_spin_register();
	pthread_atfork(NULL, NULL, kfast_spin_register);
}

/* Every thread of the process runs a full barrier, we included. */
static bool kfast_sleepers_barrier(void)
{
	if (!__atomic_load_n(&kfast_spin_asymmetric, __ATOMIC_RELAXED)) {
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		return true;
	}
	return !kfast_membarrier(KFAST_MEMBARRIER_PRIVATE_EXPEDITED);
}
#else
/* No membarrier (or the explorer's build): every unlock has its fence. */
static bool kfast_sleepers_barrier(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return true;
}
#endif

void kfast_spin_lock_slow(spinlock_t *lock)
{
	/* A membarrier that failed after registering: never seen; 1 ms naps. */
	static const struct timespec nap = { 0, 1000000 };
	const struct timespec *limit = NULL;
	int i;

	for (i = 0; i < KFAST_SPIN_TRIES; i++) {
		cpu_relax();
		if (READ_ONCE(lock->val) == KFAST_SPIN_FREE && spin_trylock(lock))
			return;
	}
	/* Counted: every unlock from the barrier on wakes one of us. */
	kfast_vg_marked(&lock->sleepers, sizeof(lock->sleepers));
	__atomic_fetch_add(&lock->sleepers, 1, __ATOMIC_RELAXED);
	if (!kfast_sleepers_barrier()) {
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		limit = &nap;
	}
	while (__atomic_exchange_n(&lock->val, KFAST_SPIN_HELD,
				   __ATOMIC_ACQUIRE) != KFAST_SPIN_FREE)
		kfast_futex_wait_timeout(&lock->val, KFAST_SPIN_HELD, limit);
	__atomic_fetch_sub(&lock->sleepers, 1, __ATOMIC_RELAXED);
	kfast_hb_acquire(lock);
}

void kfast_spin_unlock_wake(spinlock_t *lock)
{
	kfast_futex_wake(&lock->val, 1);
}
