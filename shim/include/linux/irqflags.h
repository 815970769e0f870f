/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup + strict - include/linux/irqflags.h (v6.1), keep in sync;
 *   strict: bad restore flags, or irqs enabled in a hardirq, fail the test.
 *
 * Userspace shim: a per-task "interrupts disabled" flag.  The saved
 * flags really carry the previous state, so an unbalanced or mismatched
 * restore is visible.  Simulated interrupts (shim_raise_irq) are
 * delivered only while the flag is clear.  Enabling interrupts with a
 * lock held is a HARDIRQ-unsafe use of it, for lockdep.
 */
#ifndef _SHIM_LINUX_IRQFLAGS_H
#define _SHIM_LINUX_IRQFLAGS_H

#include <linux/types.h>

unsigned long shim_irq_save(void);
/* The site is lockdep's: locks held there become HARDIRQ-unsafe. */
void shim_irq_restore(unsigned long flags, const char *file, int line);
void shim_irq_disable(void);
void shim_irq_enable(const char *file, int line);
bool shim_irqs_disabled(void);

#define local_irq_save(flags)		do { (flags) = shim_irq_save(); } while (0)
#define local_irq_restore(flags)	shim_irq_restore((flags), __FILE__, __LINE__)
#define local_irq_disable()		shim_irq_disable()
#define local_irq_enable()		shim_irq_enable(__FILE__, __LINE__)
#define irqs_disabled()			shim_irqs_disabled()

#endif
