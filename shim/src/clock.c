// SPDX-License-Identifier: GPL-2.0
/*
 * Time: the shim's one clock and the deadlines made from it.
 *
 * Elapsed time (jiffies, timeouts, the hung-task bound) is measured on
 * CLOCK_MONOTONIC.  The deadlines handed to pthread_cond_timedwait() and
 * pthread_mutex_timedlock() are absolute CLOCK_REALTIME times, because
 * that is the clock those calls measure by default.
 */
/* Bookkeeping here is no scheduling point (<shim/ctl-hook.h>). */
#define SHIM_INTERNAL

#include <time.h>

#include <shim/shim.h>
#include "shim-internal.h"

long shim_now_ms(void)
{
	struct timespec ts;

	/* Under the explorer time is simulated (shim/explore/explore.c). */
	if (shim_hook_on())
		return shim_hook_now_ms();

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

struct timespec shim_deadline_ms(unsigned int ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	return ts;
}
