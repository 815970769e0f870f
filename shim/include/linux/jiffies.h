/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup - include/linux/jiffies.h (v6.1), keep in sync; HZ is 1000.
 *
 * Userspace shim: one jiffy is one millisecond of CLOCK_MONOTONIC.
 */
#ifndef _SHIM_LINUX_JIFFIES_H
#define _SHIM_LINUX_JIFFIES_H

#include <shim/shim.h>

#define HZ	1000
#define jiffies	((unsigned long)shim_now_ms())
#define msecs_to_jiffies(m)	((unsigned long)(m))
#define jiffies_to_msecs(j)	((unsigned int)(j))
#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)

#endif
