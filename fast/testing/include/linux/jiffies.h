/* SPDX-License-Identifier: GPL-2.0 */
/* klist-port-fast, testing: jiffies at HZ=1000 from the monotonic clock. */
#ifndef _KFAST_TESTING_LINUX_JIFFIES_H
#define _KFAST_TESTING_LINUX_JIFFIES_H

#include <time.h>

#define HZ	1000

static inline unsigned long kfast_jiffies(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000UL + ts.tv_nsec / 1000000;
}

#define jiffies	kfast_jiffies()

static inline unsigned long msecs_to_jiffies(unsigned int ms)
{
	return ms;
}

static inline unsigned int jiffies_to_msecs(unsigned long j)
{
	return j;
}

#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)

#endif
