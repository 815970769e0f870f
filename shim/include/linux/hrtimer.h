/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup + strict - include/linux/hrtimer.h (v6.1), a subset, keep
 *   in sync; the expiry is custom: a timer fires on a shim thread that
 *   stands for another CPU taking the timer interrupt, in hardirq context.
 *   Only CLOCK_MONOTONIC and the HARD modes (ABS or REL, PINNED ignored)
 *   are supported; any other clock or mode is reported.  strict: a timer
 *   still queued or running when the test ends, an hrtimer_start() whose
 *   mode disagrees with hrtimer_init()'s, a timer used uninitialised or
 *   re-initialised while active, a callback that returns with a lock held
 *   or preemption disabled, and hrtimer_cancel() from the timer's own
 *   callback (it would wait for itself) fail the test.
 *
 * Userspace shim: high-resolution timers.  One thread per process, the
 * "timer CPU", sleeps until the earliest queued timer expires, then runs
 * its callback as the kernel's hrtimer_interrupt() does: in_hardirq()
 * true, interrupts disabled, with lockdep marking every lock it takes
 * IN-HARDIRQ.  As on another CPU, it runs concurrently with the task
 * that started the timer, so that task needs no irq window to see the
 * callback run: sleeping in wait_for_completion*(), msleep() or
 * schedule_timeout() or spinning, it is delivered all the same.  What
 * the shim does not do is interrupt the starting task itself (the
 * same-CPU case); lockdep's usage bits make that case visible without
 * it: a lock seen IN-HARDIRQ here and HARDIRQ-ON anywhere is reported.
 * Use shim_raise_irq() to interrupt the current task at a chosen point.
 *
 * hrtimer_cancel() waits for a running callback, and works on a timer
 * that re-arms itself (HRTIMER_RESTART), as in the kernel; as in 6.1
 * without PREEMPT_RT, it does not sleep, so it may be called in atomic
 * context, but not from the timer's own callback.
 */
#ifndef _SHIM_LINUX_HRTIMER_H
#define _SHIM_LINUX_HRTIMER_H

#include <time.h>		/* clockid_t, CLOCK_MONOTONIC */
#include <linux/types.h>
#include <linux/ktime.h>

enum hrtimer_mode {
	HRTIMER_MODE_ABS	= 0x00,
	HRTIMER_MODE_REL	= 0x01,
	HRTIMER_MODE_PINNED	= 0x02,
	HRTIMER_MODE_SOFT	= 0x04,
	HRTIMER_MODE_HARD	= 0x08,

	HRTIMER_MODE_ABS_PINNED = HRTIMER_MODE_ABS | HRTIMER_MODE_PINNED,
	HRTIMER_MODE_REL_PINNED = HRTIMER_MODE_REL | HRTIMER_MODE_PINNED,

	HRTIMER_MODE_ABS_SOFT	= HRTIMER_MODE_ABS | HRTIMER_MODE_SOFT,
	HRTIMER_MODE_REL_SOFT	= HRTIMER_MODE_REL | HRTIMER_MODE_SOFT,

	HRTIMER_MODE_ABS_PINNED_SOFT = HRTIMER_MODE_ABS_PINNED | HRTIMER_MODE_SOFT,
	HRTIMER_MODE_REL_PINNED_SOFT = HRTIMER_MODE_REL_PINNED | HRTIMER_MODE_SOFT,

	HRTIMER_MODE_ABS_HARD	= HRTIMER_MODE_ABS | HRTIMER_MODE_HARD,
	HRTIMER_MODE_REL_HARD	= HRTIMER_MODE_REL | HRTIMER_MODE_HARD,

	HRTIMER_MODE_ABS_PINNED_HARD = HRTIMER_MODE_ABS_PINNED | HRTIMER_MODE_HARD,
	HRTIMER_MODE_REL_PINNED_HARD = HRTIMER_MODE_REL_PINNED | HRTIMER_MODE_HARD,
};

enum hrtimer_restart {
	HRTIMER_NORESTART,	/* Timer is not restarted */
	HRTIMER_RESTART,	/* Timer must be restarted */
};

#define SHIM_HRTIMER_MAGIC	0x417e3e12u

struct hrtimer {
	ktime_t _softexpires;		/* the expiry, as hrtimer_forward() sets it */
	enum hrtimer_restart (*function)(struct hrtimer *);
	u8 is_rel;
	u8 is_soft;
	u8 is_hard;
	unsigned int magic;		/* hrtimer_init() ran */
};

void hrtimer_init(struct hrtimer *timer, clockid_t which_clock,
		  enum hrtimer_mode mode);
void hrtimer_start(struct hrtimer *timer, ktime_t tim,
		   const enum hrtimer_mode mode);
int hrtimer_cancel(struct hrtimer *timer);
int hrtimer_try_to_cancel(struct hrtimer *timer);
bool hrtimer_active(const struct hrtimer *timer);
bool hrtimer_is_queued(struct hrtimer *timer);
u64 hrtimer_forward(struct hrtimer *timer, ktime_t now, ktime_t interval);

static inline ktime_t hrtimer_get_expires(const struct hrtimer *timer)
{
	return timer->_softexpires;
}

static inline void hrtimer_set_expires(struct hrtimer *timer, ktime_t time)
{
	timer->_softexpires = time;
}

static inline u64 hrtimer_forward_now(struct hrtimer *timer,
				      ktime_t interval)
{
	return hrtimer_forward(timer, ktime_get(), interval);
}

#endif
