/* SPDX-License-Identifier: GPL-2.0 */
/* klist-port-fast, testing: sleeps and delays on the monotonic clock. */
#ifndef _KFAST_TESTING_LINUX_DELAY_H
#define _KFAST_TESTING_LINUX_DELAY_H

void msleep(unsigned int ms);
void usleep_range(unsigned long min_us, unsigned long max_us);
void udelay(unsigned long us);
#define mdelay(ms)	udelay((ms) * 1000UL)

#endif
