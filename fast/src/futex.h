/* SPDX-License-Identifier: GPL-2.0 */
/*
 * klist-port-fast: the futex operations the runtime sleeps with (and its
 * test support: fast/testing/src/completion.c).
 */
#ifndef _KFAST_FUTEX_H
#define _KFAST_FUTEX_H

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifdef KFAST_EXPLORE
/*
 * The runtime built for the explorer (fast/testing/explore-fast.c): the
 * tasks are the explorer's coroutines on one thread, a futex sleep is a
 * block on the explorer's channel @word, a wake-up its signal.
 */
void kfast_explore_futex_wait(void *word, int val, const struct timespec *rel);
void kfast_explore_futex_wake(void *word, int nr);
#endif

/*
 * Sleep while *@word == @val, at most @rel (NULL: no limit); returns at
 * once otherwise, or spuriously.
 */
static inline void kfast_futex_wait_timeout(void *word, int val,
					    const struct timespec *rel)
{
#ifdef KFAST_EXPLORE
	kfast_explore_futex_wait(word, val, rel);
#else
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, val, rel, NULL, 0);
#endif
}

static inline void kfast_futex_wait(void *word, int val)
{
	kfast_futex_wait_timeout(word, val, NULL);
}

static inline void kfast_futex_wake(void *word, int nr)
{
#ifdef KFAST_EXPLORE
	kfast_explore_futex_wake(word, nr);
#else
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, nr, NULL, NULL, 0);
#endif
}

#endif
