/* SPDX-License-Identifier: GPL-2.0 */
/* klist-port-fast: the two futex operations the runtime sleeps with. */
#ifndef _KFAST_FUTEX_H
#define _KFAST_FUTEX_H

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Sleep while *@word == @val (returns at once otherwise, or spuriously). */
static inline void kfast_futex_wait(void *word, int val)
{
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static inline void kfast_futex_wake(void *word, int nr)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, nr, NULL, NULL, 0);
}

#endif
