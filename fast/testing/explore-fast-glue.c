// SPDX-License-Identifier: GPL-2.0
/*
 * The fast runtime under the explorer (#39): what fast/src needs of its
 * host when it is built with KFAST_EXPLORE (fast/testing/explore-fast.c
 * holds the scenarios).  Compiled against the explorer, not against the
 * runtime's headers, and not instrumented: nothing here is an access of
 * the program under test.
 *
 * - A futex is the explorer's blocking: futex_wait() queues the waiter,
 *   then a full barrier and a load of the word (the kernel's futex_wait()
 *   orders the waiter's queueing before its read of the word with
 *   smp_mb(), and futex_wake() the waker's store before its look at the
 *   queue the same way: the store buffering pair the model forbids with
 *   two smp_mb), then, if the word still holds the value, a block on the
 *   waiter's own channel;
 *   futex_wake() a full barrier, then a signal to at most @nr waiters of
 *   the word, oldest first, each dequeued (a waiter dequeued before it
 *   blocks does not block: the kernel's woken task is running).  No check-then-block window: the explorer's
 *   tasks switch only at points, and there is none between the load and
 *   the block.  A wake-up happens before what the woken task does next
 *   (the explorer's signal), as the futex's hash-bucket lock orders it.
 * - Each task's current task_struct: the explorer's tasks are coroutines
 *   of one thread, so sched.c's thread variable becomes a slot per task.
 */
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <shim/ctl-wmm.h>
#include <shim/explore.h>

#include "explore-internal.h"

struct task_struct;

/*
 * Outside a controlled run, the system's futex (<linux/futex.h> cannot
 * be included beside the shim's <linux/types.h>: its values).
 */
#define GLUE_FUTEX_WAIT_PRIVATE	(0 | 128)
#define GLUE_FUTEX_WAKE_PRIVATE	(1 | 128)

static struct task_struct *task_slots[CTL_MAX_TASKS];
static struct task_struct *outside_slot;

/* A task waiting in futex_wait(): on its own channel, its slot here. */
static struct {
	void *word;		/* NULL: not queued */
	unsigned long seq;	/* queueing order */
} waiters[CTL_MAX_TASKS];
static unsigned long waiter_seq;

/* A scenario's set-up calls it first: no task or waiter of a past run. */
void kfast_explore_reset(void);
void kfast_explore_reset(void)
{
	memset(task_slots, 0, sizeof(task_slots));
	memset(waiters, 0, sizeof(waiters));
	waiter_seq = 0;
}

struct task_struct **kfast_explore_task_slot(void);
struct task_struct **kfast_explore_task_slot(void)
{
	int self = ctl_self();

	return self < 0 ? &outside_slot : &task_slots[self];
}

void kfast_explore_futex_wait(void *word, int val, const struct timespec *rel);
void kfast_explore_futex_wait(void *word, int val, const struct timespec *rel)
{
	int self = ctl_self();
	int cur = 0;

	if (self < 0) {
		syscall(SYS_futex, word, GLUE_FUTEX_WAIT_PRIVATE, val, rel, NULL, 0);
		return;
	}
	/* Queued first, then the barrier, then the word: the kernel's order. */
	waiters[self].word = word;
	waiters[self].seq = ++waiter_seq;
	shim_ctl_fence(SHIM_FENCE_MB, "futex_wait", __LINE__);
	shim_ctl_load(word, sizeof(int), &cur, SHIM_MO_ONCE, -1, "futex_wait",
		      __LINE__);
	if (cur != val) {
		waiters[self].word = NULL;
		return;		/* EAGAIN */
	}
	/*
	 * Woken between the queueing and here (the waker dequeued it): the
	 * kernel's waiter finds itself running and does not sleep.
	 */
	if (!waiters[self].word)
		return;
	if (rel) {
		long ms = rel->tv_sec * 1000 + (rel->tv_nsec + 999999) / 1000000;

		shim_ctl_block_timed(&waiters[self], ms > 0 ? ms : 1,
				     SHIM_OP_BLOCK, __FILE__, __LINE__,
				     "futex_wait");
	} else {
		shim_ctl_block(&waiters[self], SHIM_OP_BLOCK, __FILE__,
			       __LINE__, "futex_wait");
	}
	/* Woken (dequeued by the waker), or timed out: off the queue. */
	waiters[self].word = NULL;
}

void kfast_explore_futex_wake(void *word, int nr);
void kfast_explore_futex_wake(void *word, int nr)
{
	if (ctl_self() < 0) {
		syscall(SYS_futex, word, GLUE_FUTEX_WAKE_PRIVATE, nr, NULL, NULL, 0);
		return;
	}
	shim_ctl_fence(SHIM_FENCE_MB, "futex_wake", __LINE__);
	while (nr-- > 0) {
		int i, oldest = -1;

		for (i = 0; i < CTL_MAX_TASKS; i++)
			if (waiters[i].word == word &&
			    (oldest < 0 || waiters[i].seq < waiters[oldest].seq))
				oldest = i;
		if (oldest < 0)
			break;
		waiters[oldest].word = NULL;
		shim_ctl_signal(&waiters[oldest]);
	}
}
