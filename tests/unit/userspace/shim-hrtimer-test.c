// SPDX-License-Identifier: GPL-2.0
/*
 * The shim's hrtimers (shim/src/hrtimer.c): a timer fires on the "timer
 * CPU" in hardirq context with interrupts off, whatever the task that
 * started it is doing; hrtimer_cancel() dequeues a pending timer and
 * waits for a running callback; a self re-arming timer is forwarded and
 * cancelled as in the kernel; and what the header calls strict is
 * reported.  Bodies that must fail a test run in a forked child.
 */
#include <string.h>

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <shim/shim.h>

#include "shim-child.h"

struct ht_ctx {
	struct hrtimer timer;
	struct completion done;
	struct task_struct *starter;
	atomic_t fired;
	int limit;			/* restarts until this many firings */
	bool hardirq, irqs_off, atomic, other_task;
	atomic_t in_callback;		/* for the cancel-waits case */
};

static enum hrtimer_restart ht_record(struct hrtimer *t)
{
	struct ht_ctx *c = container_of(t, struct ht_ctx, timer);

	c->hardirq = in_hardirq();
	c->irqs_off = irqs_disabled();
	c->atomic = in_atomic();
	c->other_task = current != c->starter;
	atomic_inc(&c->fired);
	complete(&c->done);
	return HRTIMER_NORESTART;
}

static struct ht_ctx *ht_setup(struct kunit *test,
			       enum hrtimer_restart (*fn)(struct hrtimer *))
{
	struct ht_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	init_completion(&c->done);
	c->starter = current;
	hrtimer_init(&c->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	c->timer.function = fn;
	return c;
}

/* The callback runs in hardirq context, interrupts off, not on the starter. */
static void shim_hrtimer_callback_in_hardirq(struct kunit *test)
{
	struct ht_ctx *c = ht_setup(test, ht_record);

	hrtimer_start(&c->timer, ms_to_ktime(1), HRTIMER_MODE_REL_HARD);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&c->done,
							  msecs_to_jiffies(2000)), 0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->fired), 1);
	KUNIT_EXPECT_TRUE(test, c->hardirq);
	KUNIT_EXPECT_TRUE(test, c->irqs_off);
	KUNIT_EXPECT_TRUE(test, c->atomic);
	KUNIT_EXPECT_TRUE(test, c->other_task);
	/* The starter's context is untouched. */
	KUNIT_EXPECT_FALSE(test, in_hardirq());
	KUNIT_EXPECT_FALSE(test, irqs_disabled());
	KUNIT_EXPECT_EQ(test, hrtimer_cancel(&c->timer), 0);
	KUNIT_EXPECT_FALSE(test, hrtimer_active(&c->timer));
}

/* Delivered while the starter sleeps in msleep() or spins, too. */
static void shim_hrtimer_fires_while_starter_sleeps_or_spins(struct kunit *test)
{
	struct ht_ctx *c = ht_setup(test, ht_record);
	unsigned long end;

	hrtimer_start(&c->timer, ms_to_ktime(1), HRTIMER_MODE_REL_HARD);
	msleep(50);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->fired), 1);
	hrtimer_start(&c->timer, ns_to_ktime(0), HRTIMER_MODE_REL_HARD);
	end = jiffies + msecs_to_jiffies(2000);
	while (atomic_read(&c->fired) < 2 && time_before(jiffies, end))
		;			/* spins, interrupts on: no irq window */
	KUNIT_EXPECT_EQ(test, atomic_read(&c->fired), 2);
	hrtimer_cancel(&c->timer);
}

/* A pending timer is dequeued by hrtimer_cancel() and never fires. */
static void shim_hrtimer_cancel_pending(struct kunit *test)
{
	struct ht_ctx *c = ht_setup(test, ht_record);

	hrtimer_start(&c->timer, ms_to_ktime(10000), HRTIMER_MODE_REL_HARD);
	KUNIT_EXPECT_TRUE(test, hrtimer_active(&c->timer));
	KUNIT_EXPECT_TRUE(test, hrtimer_is_queued(&c->timer));
	KUNIT_EXPECT_EQ(test, hrtimer_cancel(&c->timer), 1);
	KUNIT_EXPECT_FALSE(test, hrtimer_active(&c->timer));
	KUNIT_EXPECT_EQ(test, hrtimer_cancel(&c->timer), 0);
	KUNIT_EXPECT_EQ(test, hrtimer_try_to_cancel(&c->timer), 0);
	/* A short timer started and cancelled at once never fires either. */
	hrtimer_start(&c->timer, ms_to_ktime(20), HRTIMER_MODE_REL_HARD);
	KUNIT_EXPECT_EQ(test, hrtimer_try_to_cancel(&c->timer), 1);
	msleep(50);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->fired), 0);
}

static enum hrtimer_restart ht_slow(struct hrtimer *t)
{
	struct ht_ctx *c = container_of(t, struct ht_ctx, timer);

	atomic_set(&c->in_callback, 1);
	mdelay(100);			/* busy-waits: fine in hardirq */
	atomic_inc(&c->fired);
	atomic_set(&c->in_callback, 0);
	return HRTIMER_NORESTART;
}

/* hrtimer_cancel() returns only once a running callback has returned. */
static void shim_hrtimer_cancel_waits_for_callback(struct kunit *test)
{
	struct ht_ctx *c = ht_setup(test, ht_slow);
	unsigned long end = jiffies + msecs_to_jiffies(2000);

	hrtimer_start(&c->timer, ns_to_ktime(0), HRTIMER_MODE_REL_HARD);
	while (!atomic_read(&c->in_callback) && time_before(jiffies, end))
		msleep(1);
	KUNIT_ASSERT_EQ(test, atomic_read(&c->in_callback), 1);
	KUNIT_EXPECT_EQ(test, hrtimer_try_to_cancel(&c->timer), -1);
	KUNIT_EXPECT_TRUE(test, hrtimer_active(&c->timer));
	KUNIT_EXPECT_EQ(test, hrtimer_cancel(&c->timer), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->fired), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->in_callback), 0);
	KUNIT_EXPECT_FALSE(test, hrtimer_active(&c->timer));
}

static enum hrtimer_restart ht_periodic(struct hrtimer *t)
{
	struct ht_ctx *c = container_of(t, struct ht_ctx, timer);

	if (atomic_inc_return(&c->fired) == c->limit)
		complete(&c->done);
	hrtimer_forward_now(t, ms_to_ktime(1));
	return HRTIMER_RESTART;
}

/* HRTIMER_RESTART with hrtimer_forward_now() re-arms; cancel stops it. */
static void shim_hrtimer_restart_and_cancel(struct kunit *test)
{
	struct ht_ctx *c = ht_setup(test, ht_periodic);
	int fired;

	c->limit = 5;
	hrtimer_start(&c->timer, ms_to_ktime(1), HRTIMER_MODE_REL_HARD);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&c->done,
							  msecs_to_jiffies(2000)), 0UL);
	KUNIT_EXPECT_EQ(test, hrtimer_cancel(&c->timer), 1);
	fired = atomic_read(&c->fired);
	KUNIT_EXPECT_GE(test, fired, 5);
	msleep(20);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->fired), fired);
	KUNIT_EXPECT_FALSE(test, hrtimer_active(&c->timer));
}

/* --- what the shim reports ---------------------------------------------- */

static enum hrtimer_restart ht_sleeps(struct hrtimer *t)
{
	struct ht_ctx *c = container_of(t, struct ht_ctx, timer);

	msleep(1);
	complete(&c->done);
	return HRTIMER_NORESTART;
}

static void sleep_in_callback(void *arg)
{
	struct ht_ctx *c = arg;

	hrtimer_start(&c->timer, ns_to_ktime(0), HRTIMER_MODE_REL_HARD);
	wait_for_completion(&c->done);
	hrtimer_cancel(&c->timer);
}

/* The callback is atomic: sleeping there is reported. */
static void shim_hrtimer_sleep_in_callback_reported(struct kunit *test)
{
	struct ht_ctx *c = ht_setup(test, ht_sleeps);

	child_fails_with(test, sleep_in_callback, c,
			 "BUG: sleeping function called from invalid context");
}

static DEFINE_SPINLOCK(ht_lock);

static enum hrtimer_restart ht_takes_lock(struct hrtimer *t)
{
	struct ht_ctx *c = container_of(t, struct ht_ctx, timer);

	spin_lock(&ht_lock);
	spin_unlock(&ht_lock);
	complete(&c->done);
	return HRTIMER_NORESTART;
}

static void lock_irqs_on_and_in_callback(void *arg)
{
	struct ht_ctx *c = arg;

	spin_lock(&ht_lock);		/* HARDIRQ-ON */
	spin_unlock(&ht_lock);
	hrtimer_start(&c->timer, ns_to_ktime(0), HRTIMER_MODE_REL_HARD);
	wait_for_completion(&c->done);
	hrtimer_cancel(&c->timer);
}

/* Lockdep sees the callback's locks as taken in hardirq. */
static void shim_hrtimer_callback_lock_is_in_hardirq(struct kunit *test)
{
	struct ht_ctx *c = ht_setup(test, ht_takes_lock);

	child_fails_with(test, lock_irqs_on_and_in_callback, c,
			 "inconsistent {HARDIRQ-ON-W} -> {IN-HARDIRQ-W} usage: ht_lock taken in hardirq");
}

static void left_queued(void *arg)
{
	struct ht_ctx *c = arg;

	hrtimer_start(&c->timer, ms_to_ktime(10000), HRTIMER_MODE_REL_HARD);
}

/* A timer still queued when the test ends fails it. */
static void shim_hrtimer_left_queued_fails_test(struct kunit *test)
{
	struct ht_ctx *c = ht_setup(test, ht_record);

	child_fails_with(test, left_queued, c, "end-of-test checks failed");
}

static void soft_mode(void *arg)
{
	struct ht_ctx *c = arg;

	hrtimer_init(&c->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
}

static void mode_mismatch(void *arg)
{
	struct ht_ctx *c = arg;

	hrtimer_start(&c->timer, ms_to_ktime(1), HRTIMER_MODE_REL);
	hrtimer_cancel(&c->timer);
}

static void cancel_from_callback_body(void *arg)
{
	struct ht_ctx *c = arg;

	hrtimer_start(&c->timer, ns_to_ktime(0), HRTIMER_MODE_REL_HARD);
	wait_for_completion(&c->done);
	hrtimer_cancel(&c->timer);
}

static enum hrtimer_restart ht_cancels_itself(struct hrtimer *t)
{
	struct ht_ctx *c = container_of(t, struct ht_ctx, timer);

	hrtimer_cancel(t);
	complete(&c->done);
	return HRTIMER_NORESTART;
}

/* Unsupported modes, a mode mismatch and a self-cancel are reported. */
static void shim_hrtimer_misuse_reported(struct kunit *test)
{
	struct ht_ctx *c = ht_setup(test, ht_record);

	child_fails_with(test, soft_mode, c, "is not supported");
	child_fails_with(test, mode_mismatch, c,
			 "disagrees with the mode hrtimer_init() gave");
	c->timer.function = ht_cancels_itself;
	child_fails_with(test, cancel_from_callback_body, c,
			 "from its own callback: it waits for itself");
}

static struct kunit_case shim_hrtimer_test_cases[] = {
	KUNIT_CASE(shim_hrtimer_callback_in_hardirq),
	KUNIT_CASE(shim_hrtimer_fires_while_starter_sleeps_or_spins),
	KUNIT_CASE(shim_hrtimer_cancel_pending),
	KUNIT_CASE(shim_hrtimer_cancel_waits_for_callback),
	KUNIT_CASE(shim_hrtimer_restart_and_cancel),
	KUNIT_CASE(shim_hrtimer_sleep_in_callback_reported),
	KUNIT_CASE(shim_hrtimer_callback_lock_is_in_hardirq),
	KUNIT_CASE(shim_hrtimer_left_queued_fails_test),
	KUNIT_CASE(shim_hrtimer_misuse_reported),
	{}
};

static struct kunit_suite shim_hrtimer_test_suite = {
	.name = "shim_hrtimer",
	.test_cases = shim_hrtimer_test_cases,
};

kunit_test_suites(&shim_hrtimer_test_suite);
