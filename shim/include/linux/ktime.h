/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup - include/linux/ktime.h and vdso/time64.h (v6.1), a
 *   subset, keep in sync.
 *
 * Userspace shim: ktime_t is signed nanoseconds; ktime_get() reads
 * CLOCK_MONOTONIC, the clock jiffies are measured on.
 */
#ifndef _SHIM_LINUX_KTIME_H
#define _SHIM_LINUX_KTIME_H

#include <linux/types.h>

typedef s64 ktime_t;

#define NSEC_PER_USEC	1000L
#define NSEC_PER_MSEC	1000000L
#define NSEC_PER_SEC	1000000000L
#define KTIME_MAX	((s64)~((u64)1 << 63))

ktime_t ktime_get(void);

#define ktime_add(lhs, rhs)	((lhs) + (rhs))
#define ktime_sub(lhs, rhs)	((lhs) - (rhs))
#define ktime_add_ns(kt, nsval)	((kt) + (nsval))

static inline ktime_t ns_to_ktime(u64 ns)
{
	return ns;
}

static inline ktime_t us_to_ktime(u64 us)
{
	return us * NSEC_PER_USEC;
}

static inline ktime_t ms_to_ktime(u64 ms)
{
	return ms * NSEC_PER_MSEC;
}

static inline s64 ktime_to_ns(const ktime_t kt)
{
	return kt;
}

static inline s64 ktime_to_ms(const ktime_t kt)
{
	return kt / NSEC_PER_MSEC;
}

static inline int ktime_compare(const ktime_t cmp1, const ktime_t cmp2)
{
	if (cmp1 < cmp2)
		return -1;
	return cmp1 > cmp2;
}

static inline bool ktime_after(const ktime_t cmp1, const ktime_t cmp2)
{
	return ktime_compare(cmp1, cmp2) > 0;
}

static inline bool ktime_before(const ktime_t cmp1, const ktime_t cmp2)
{
	return ktime_compare(cmp1, cmp2) < 0;
}

/* kernel/time/hrtimer.c: the sum, clamped to KTIME_MAX on overflow. */
static inline ktime_t ktime_add_safe(const ktime_t lhs, const ktime_t rhs)
{
	ktime_t res = (ktime_t)((u64)lhs + (u64)rhs);

	if (res < 0 || res < lhs || res < rhs)
		res = KTIME_MAX;
	return res;
}

#endif
