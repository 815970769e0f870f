/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup + strict - include/linux/preempt.h (v6.1), keep in sync;
 *   strict: might_sleep() in atomic context fails the test, every time.
 *
 * Userspace shim: atomic context.  Each task counts the spinlocks it
 * holds and its explicit preempt_disable() nesting; interrupts are a
 * per-task flag.  might_sleep() reports when any of them forbids it.
 */
#ifndef _SHIM_LINUX_PREEMPT_H
#define _SHIM_LINUX_PREEMPT_H

#include <linux/types.h>

void shim_preempt_disable(void);
void shim_preempt_enable(void);
bool shim_in_atomic(void);
bool shim_in_hardirq(void);
void __shim_might_sleep(const char *file, int line);

#define preempt_disable()	shim_preempt_disable()
#define preempt_enable()	shim_preempt_enable()
#define in_atomic()		shim_in_atomic()
#define in_hardirq()		shim_in_hardirq()
#define in_irq()		shim_in_hardirq()
#define in_interrupt()		shim_in_hardirq()
#define might_sleep()		__shim_might_sleep(__FILE__, __LINE__)
#define might_sleep_if(cond)	do { if (cond) might_sleep(); } while (0)
/*
 * A scheduling point: it may give the CPU away, as the kernel's does.
 * The kernel has yield() and cond_resched() in <linux/sched.h>, which
 * includes this header, so they are declared once, here.
 */
void yield(void);
#define cond_resched()		({ might_sleep(); yield(); 0; })

#endif
