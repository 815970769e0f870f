// SPDX-License-Identifier: GPL-2.0
/*
 * The explorer's own scenarios: what it must find (a lost update, a
 * completion nobody completes: a deadlock, reported at once), what it
 * must pass and cover (a counter under a spinlock), and that sleeps
 * take simulated time, not the machine's.
 */
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <shim/shim.h>

#include "explore-scenarios.h"

struct sctx {
	spinlock_t lock;
	int counter;
	struct completion never;
	unsigned long t0;
};

static void *setup(void)
{
	struct sctx *c = kzalloc(sizeof(*c), GFP_KERNEL);

	spin_lock_init(&c->lock);
	init_completion(&c->never);
	c->t0 = jiffies;
	return c;
}

static void locked_inc(void *ctx)
{
	struct sctx *c = ctx;

	spin_lock(&c->lock);
	c->counter++;
	spin_unlock(&c->lock);
}

static void check_two(void *ctx)
{
	struct sctx *c = ctx;

	SHIM_EXPLORE_CHECK(c->counter == 2, "counter is %d", c->counter);
	kfree(c);
}

static unsigned long counter(void *ctx)
{
	return ((struct sctx *)ctx)->counter;
}

const struct shim_scenario self_locked_counter = {
	.name = "self_locked_counter",
	.setup = setup,
	.body = { locked_inc, locked_inc },
	.check = check_two,
	.fingerprint = counter,
};

/* A read-modify-write in two marked accesses: one preemption loses an update. */
static void racy_inc(void *ctx)
{
	struct sctx *c = ctx;
	int v = READ_ONCE(c->counter);

	WRITE_ONCE(c->counter, v + 1);
}

const struct shim_scenario self_lost_update = {
	.name = "self_lost_update",
	.setup = setup,
	.body = { racy_inc, racy_inc },
	.check = check_two,
	.fingerprint = counter,
};

/*
 * Two stores to one variable and nothing else: only their order decides
 * the final value.  DPOR must take the two stores as dependent, or it
 * runs one order and misses an outcome (explore.dpor_self_store_order).
 */
static void store_one(void *ctx)
{
	WRITE_ONCE(((struct sctx *)ctx)->counter, 1);
}

static void store_two(void *ctx)
{
	WRITE_ONCE(((struct sctx *)ctx)->counter, 2);
}

static void check_free(void *ctx);

const struct shim_scenario self_store_order = {
	.name = "self_store_order",
	.setup = setup,
	.body = { store_one, store_two },
	.check = check_free,
	.fingerprint = counter,
};

static void wait_never(void *ctx)
{
	struct sctx *c = ctx;

	wait_for_completion(&c->never);
}

static void check_free(void *ctx)
{
	kfree(ctx);
}

const struct shim_scenario self_never_completed = {
	.name = "self_never_completed",
	.setup = setup,
	.body = { wait_never, locked_inc },
	.check = check_free,
};

/* Ten simulated seconds of sleep: a run still takes microseconds. */
static void sleep_long(void *ctx)
{
	msleep(10000);
	locked_inc(ctx);
}

static void check_slept(void *ctx)
{
	struct sctx *c = ctx;

	SHIM_EXPLORE_CHECK(jiffies - c->t0 >= 10000, "only %lu ms passed",
			   jiffies - c->t0);
	check_two(ctx);
}

const struct shim_scenario self_msleep_simulated = {
	.name = "self_msleep_simulated",
	.setup = setup,
	.body = { sleep_long, sleep_long },
	.check = check_slept,
};

/*
 * One task takes A then B, or B then A, as another task's store falls:
 * each run takes one order only, so no run may report an inversion.
 * Lockdep's graph left over from an earlier run of the same child made
 * one, a report whose schedule passed when replayed (issue 23).
 */
static DEFINE_MUTEX(self_order_a);
static DEFINE_MUTEX(self_order_b);

static void take_in_flag_order(void *ctx)
{
	struct sctx *c = ctx;
	struct mutex *first = &self_order_a, *second = &self_order_b;

	if (READ_ONCE(c->counter)) {
		first = &self_order_b;
		second = &self_order_a;
	}
	mutex_lock(first);
	mutex_lock(second);
	mutex_unlock(second);
	mutex_unlock(first);
}

static void set_flag(void *ctx)
{
	struct sctx *c = ctx;

	WRITE_ONCE(c->counter, 1);
}

const struct shim_scenario self_lockdep_order = {
	.name = "self_lockdep_order",
	.setup = setup,
	.body = { take_in_flag_order, set_flag },
	.check = check_free,
};
