/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup + strict - include/linux/delay.h (v6.1), keep in sync; 1 ms
 *   resolution; strict: msleep() in atomic context fails the test.
 */
#ifndef _SHIM_LINUX_DELAY_H
#define _SHIM_LINUX_DELAY_H

void __shim_msleep(unsigned int msecs, const char *file, int line);
void shim_udelay(unsigned long usecs);

#define msleep(ms)			__shim_msleep((ms), __FILE__, __LINE__)
#define usleep_range(min, max)		__shim_msleep(((min) + 999) / 1000, __FILE__, __LINE__)
#define udelay(us)			shim_udelay(us)
#define mdelay(ms)			shim_udelay((ms) * 1000UL)

#endif
