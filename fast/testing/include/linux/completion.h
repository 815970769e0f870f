/* SPDX-License-Identifier: GPL-2.0 */
/*
 * klist-port-fast, testing: completions, a count that waiters sleep on
 * with a futex.
 */
#ifndef _KFAST_TESTING_LINUX_COMPLETION_H
#define _KFAST_TESTING_LINUX_COMPLETION_H

#include <stdbool.h>
#include <kfast/annotate.h>

struct completion {
	unsigned int done;
};

#define COMPLETION_INITIALIZER(work)	{ 0 }
#define DECLARE_COMPLETION(work) \
	struct completion work = COMPLETION_INITIALIZER(work)

static inline void init_completion(struct completion *x)
{
	kfast_vg_marked(&x->done, sizeof(x->done));
	__atomic_store_n(&x->done, 0, __ATOMIC_RELAXED);
}

#define reinit_completion(x)	init_completion(x)

void complete(struct completion *x);
void complete_all(struct completion *x);
void wait_for_completion(struct completion *x);
/* 0 on timeout, else the jiffies left (at least 1). */
unsigned long wait_for_completion_timeout(struct completion *x,
					  unsigned long timeout);
bool completion_done(struct completion *x);

#endif
