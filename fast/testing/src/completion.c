// SPDX-License-Identifier: GPL-2.0
/* klist-port-fast, testing: completions on a futex (see linux/completion.h). */
#include <limits.h>
#include <time.h>

#include <kfast/annotate.h>
#include <linux/completion.h>

#include "futex.h"

/* As the kernel's complete_all(): every later wait passes too. */
#define COMPLETE_ALL	(UINT_MAX / 2)

void complete(struct completion *x)
{
	unsigned int d;

	/* What the completer did happens before what the waiter does next. */
	kfast_vg_marked(&x->done, sizeof(x->done));
	kfast_hb_release(x);
	d = __atomic_load_n(&x->done, __ATOMIC_RELAXED);
	do {
		if (d == COMPLETE_ALL)
			return;
	} while (!__atomic_compare_exchange_n(&x->done, &d, d + 1, false,
					      __ATOMIC_RELEASE, __ATOMIC_RELAXED));
	kfast_futex_wake(&x->done, 1);
}

void complete_all(struct completion *x)
{
	kfast_vg_marked(&x->done, sizeof(x->done));
	kfast_hb_release(x);
	__atomic_store_n(&x->done, COMPLETE_ALL, __ATOMIC_RELEASE);
	kfast_futex_wake(&x->done, INT_MAX);
}

bool completion_done(struct completion *x)
{
	kfast_vg_marked(&x->done, sizeof(x->done));
	if (!__atomic_load_n(&x->done, __ATOMIC_ACQUIRE))
		return false;
	kfast_hb_acquire(x);
	return true;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Take one completion; false if @deadline_ns (or never, if < 0) passed. */
static bool take(struct completion *x, long long deadline_ns)
{
	kfast_vg_marked(&x->done, sizeof(x->done));
	for (;;) {
		unsigned int d = __atomic_load_n(&x->done, __ATOMIC_ACQUIRE);
		struct timespec rel, *relp = NULL;

		if (d == COMPLETE_ALL) {
			kfast_hb_acquire(x);
			return true;
		}
		if (d) {
			if (__atomic_compare_exchange_n(&x->done, &d, d - 1, false,
							__ATOMIC_ACQUIRE,
							__ATOMIC_RELAXED)) {
				kfast_hb_acquire(x);
				return true;
			}
			continue;
		}
		if (deadline_ns >= 0) {
			long long left = deadline_ns - now_ns();

			if (left <= 0)
				return false;
			rel.tv_sec = left / 1000000000LL;
			rel.tv_nsec = left % 1000000000LL;
			relp = &rel;
		}
		kfast_futex_wait_timeout(&x->done, 0, relp);
	}
}

void wait_for_completion(struct completion *x)
{
	take(x, -1);
}

unsigned long wait_for_completion_timeout(struct completion *x,
					  unsigned long timeout)
{
	long long deadline = now_ns() + (long long)timeout * 1000000LL;
	long long left;

	if (!take(x, deadline))
		return 0;
	left = (deadline - now_ns()) / 1000000LL;
	return left > 0 ? left : 1;
}
