// SPDX-License-Identifier: GPL-2.0
/*
 * Every shim operation another task can see takes its scheduling point
 * before its first visible effect: one scenario per family proves it.
 *
 * The shape is the same for each: T1 stores x = 1, then does the
 * operation under test; T2 reads x, then observes the operation's
 * effect.  "split" is the outcome where T2 saw x = 1 and not yet the
 * effect: T2 ran between T1's store and the operation.  Only the
 * operation's own point lets it run there; with the point after the
 * effect (as set_current_state() had it) or none, the store and the
 * effect are one step and split is never reached.  The explorer must
 * reach split and its opposite (explore-test.c, suite explore_point).
 *
 * Reads (READ_ONCE, smp_load_acquire, a plain read after smp_mb()) have
 * no effect to observe: there T2 writes instead, and split is T1
 * reading T2's write after T2 saw T1's store (store buffering, SC).
 */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/semaphore.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <shim/shim.h>

#include "explore-scenarios.h"

/* The outcome the check rejects, set by the test before it explores. */
int point_forbidden;

struct pctx {
	int x, e, y;		/* T1's store, the effect, a later store */
	int rx, re, ry;		/* what T2 (or T1, for reads) saw */
	atomic_t a;
	refcount_t r;
	spinlock_t spin;
	struct mutex mutex;
	struct completion done, release;
	struct semaphore sem;
	struct task_struct *t1;
	int t2_got;
};

static void *psetup(void)
{
	struct pctx *c = kzalloc(sizeof(*c), GFP_KERNEL);

	atomic_set(&c->a, 0);
	refcount_set(&c->r, 1);
	spin_lock_init(&c->spin);
	mutex_init(&c->mutex);
	init_completion(&c->done);
	init_completion(&c->release);
	sema_init(&c->sem, 1);
	return c;
}

/* Each family's split: T2 ran inside the window the point opens. */
static bool split(const struct pctx *c)
{
	return c->rx == 1 && c->re == 0;
}

static void pcheck(void *ctx)
{
	struct pctx *c = ctx;
	int outcome = split(c) ? POINT_SPLIT : POINT_WHOLE;

	SHIM_EXPLORE_CHECK(outcome != point_forbidden, "outcome %s reached",
			   outcome == POINT_SPLIT ? "split" : "whole");
	mutex_destroy(&c->mutex);
	kfree(c);
}

/* What each task saw: the outcome, for the brute-force cross-check. */
static unsigned long pfingerprint(void *ctx)
{
	struct pctx *c = ctx;

	return (unsigned long)c->rx << 1 | (c->re != 0);
}

#define POINT_SCENARIO(name_, t1_, t2_)					\
const struct shim_scenario name_ = {					\
	.name = #name_,							\
	.setup = psetup,						\
	.body = { t1_, t2_ },						\
	.check = pcheck,						\
	.fingerprint = pfingerprint,					\
}

/* --- stores: T2 reads x, then the effect --------------------------------- */

static void write_once_t1(void *ctx)
{
	struct pctx *c = ctx;

	WRITE_ONCE(c->x, 1);
	WRITE_ONCE(c->e, 1);
}

static void effect_t2(void *ctx)
{
	struct pctx *c = ctx;

	c->rx = READ_ONCE(c->x);
	c->re = READ_ONCE(c->e);
}
POINT_SCENARIO(point_write_once, write_once_t1, effect_t2);

static void store_release_t1(void *ctx)
{
	struct pctx *c = ctx;

	WRITE_ONCE(c->x, 1);
	smp_store_release(&c->e, 1);
}
POINT_SCENARIO(point_store_release, store_release_t1, effect_t2);

static void atomic_t1(void *ctx)
{
	struct pctx *c = ctx;

	WRITE_ONCE(c->x, 1);
	atomic_inc(&c->a);
}

static void atomic_t2(void *ctx)
{
	struct pctx *c = ctx;

	c->rx = READ_ONCE(c->x);
	c->re = atomic_read(&c->a);
}
POINT_SCENARIO(point_atomic, atomic_t1, atomic_t2);

static void refcount_t1(void *ctx)
{
	struct pctx *c = ctx;

	WRITE_ONCE(c->x, 1);
	refcount_inc(&c->r);
	WRITE_ONCE(c->y, 1);
	refcount_dec(&c->r);
}

static void refcount_t2(void *ctx)
{
	struct pctx *c = ctx;

	c->rx = READ_ONCE(c->x);
	c->re = refcount_read(&c->r) - 1;
	/* seen before the increment, and not after the decrement */
	if (c->re == 0 && READ_ONCE(c->y))
		c->re = 1;
}
POINT_SCENARIO(point_refcount, refcount_t1, refcount_t2);

/* --- reads: T2 writes, T1 reads it after T2 saw x ------------------------- */

static void read_once_t1(void *ctx)
{
	struct pctx *c = ctx;

	WRITE_ONCE(c->x, 1);
	c->re = !READ_ONCE(c->e);
}

static void write_t2(void *ctx)
{
	struct pctx *c = ctx;

	c->rx = READ_ONCE(c->x);
	WRITE_ONCE(c->e, 1);
}
POINT_SCENARIO(point_read_once, read_once_t1, write_t2);

static void load_acquire_t1(void *ctx)
{
	struct pctx *c = ctx;

	WRITE_ONCE(c->x, 1);
	c->re = !smp_load_acquire(&c->e);
}
POINT_SCENARIO(point_load_acquire, load_acquire_t1, write_t2);

/*
 * smp_mb() has no effect of its own: its point is the only one here.
 * (TSan does not model fences, and gcc says so: here the fence is the
 * point under test, not a synchronisation TSan must see.)
 */
#if defined(__SANITIZE_THREAD__)
#pragma GCC diagnostic ignored "-Wtsan"
#endif
static void barrier_t1(void *ctx)
{
	struct pctx *c = ctx;

	SHIM_EXPLORE_RACY(c->e, "the plain read after smp_mb() is the case under test: the barrier's own point, not a synchronisation");
	WRITE_ONCE(c->x, 1);
	smp_mb();
	c->re = !c->e;
}
POINT_SCENARIO(point_barrier, barrier_t1, write_t2);

/* --- locks: T2 takes the lock between T1's store and T1's lock ------------ */

static void spin_lock_t1(void *ctx)
{
	struct pctx *c = ctx;

	WRITE_ONCE(c->x, 1);
	spin_lock(&c->spin);
	WRITE_ONCE(c->y, 1);
	spin_unlock(&c->spin);
}

/* re: 0 if T2 held the lock before T1's section, else 1. */
static void spin_trylock_t2(void *ctx)
{
	struct pctx *c = ctx;

	c->rx = READ_ONCE(c->x);
	c->re = 1;
	if (spin_trylock(&c->spin)) {
		c->re = READ_ONCE(c->y);
		spin_unlock(&c->spin);
	}
}
POINT_SCENARIO(point_spin_lock, spin_lock_t1, spin_trylock_t2);

static void mutex_lock_t1(void *ctx)
{
	struct pctx *c = ctx;

	WRITE_ONCE(c->x, 1);
	mutex_lock(&c->mutex);
	WRITE_ONCE(c->y, 1);
	mutex_unlock(&c->mutex);
}

static void mutex_trylock_t2(void *ctx)
{
	struct pctx *c = ctx;

	c->rx = READ_ONCE(c->x);
	c->re = 1;
	if (mutex_trylock(&c->mutex)) {
		c->re = READ_ONCE(c->y);
		mutex_unlock(&c->mutex);
	}
}
POINT_SCENARIO(point_mutex_lock, mutex_lock_t1, mutex_trylock_t2);

static void trylock_t1(void *ctx)
{
	struct pctx *c = ctx;

	WRITE_ONCE(c->x, 1);
	if (spin_trylock(&c->spin)) {
		WRITE_ONCE(c->y, 1);
		spin_unlock(&c->spin);
	}
}
POINT_SCENARIO(point_trylock, trylock_t1, spin_trylock_t2);

/* re: 0 if T2 found the lock held after it saw x. */
static void unlock_t1(void *ctx)
{
	struct pctx *c = ctx;

	spin_lock(&c->spin);
	WRITE_ONCE(c->x, 1);
	spin_unlock(&c->spin);
}

static void unlock_t2(void *ctx)
{
	struct pctx *c = ctx;

	c->rx = READ_ONCE(c->x);
	c->re = spin_trylock(&c->spin);
	if (c->re)
		spin_unlock(&c->spin);
}
POINT_SCENARIO(point_unlock, unlock_t1, unlock_t2);

/* --- task state: T2 sees T1 running after x, before its state change ------ */

static void set_state_t1(void *ctx)
{
	struct pctx *c = ctx;

	c->t1 = current;
	WRITE_ONCE(c->x, 1);
	set_current_state(TASK_INTERRUPTIBLE);
	WRITE_ONCE(c->y, 1);
	__set_current_state(TASK_RUNNING);
}

static void set_state_t2(void *ctx)
{
	struct pctx *c = ctx;

	c->rx = READ_ONCE(c->x);
	if (!c->rx)
		return;
	/* 0: still TASK_RUNNING before the change (y not yet stored) */
	c->re = READ_ONCE(c->t1->__state) != TASK_RUNNING || READ_ONCE(c->y);
}
POINT_SCENARIO(point_set_state, set_state_t1, set_state_t2);

/* --- completions and semaphores ------------------------------------------- */

static void complete_t1(void *ctx)
{
	struct pctx *c = ctx;

	WRITE_ONCE(c->x, 1);
	complete(&c->done);
}

static void completion_done_t2(void *ctx)
{
	struct pctx *c = ctx;

	c->rx = READ_ONCE(c->x);
	c->re = completion_done(&c->done);
}
POINT_SCENARIO(point_complete, complete_t1, completion_done_t2);

/* T1 consumes a done completion: T2 sees it still there after x. */
static void *psetup_done(void)
{
	struct pctx *c = psetup();

	complete(&c->done);
	return c;
}

static void try_wait_t1(void *ctx)
{
	struct pctx *c = ctx;

	WRITE_ONCE(c->x, 1);
	try_wait_for_completion(&c->done);
}

static void still_done_t2(void *ctx)
{
	struct pctx *c = ctx;

	c->rx = READ_ONCE(c->x);
	c->re = !completion_done(&c->done);
}

const struct shim_scenario point_wait = {
	.name = "point_wait",
	.setup = psetup_done,
	.body = { try_wait_t1, still_done_t2 },
	.check = pcheck,
	.fingerprint = pfingerprint,
};

static void down_t1(void *ctx)
{
	struct pctx *c = ctx;

	WRITE_ONCE(c->x, 1);
	down(&c->sem);
	WRITE_ONCE(c->y, 1);
	up(&c->sem);
}

static void down_trylock_t2(void *ctx)
{
	struct pctx *c = ctx;

	c->rx = READ_ONCE(c->x);
	c->re = 1;
	if (!down_trylock(&c->sem)) {
		c->re = READ_ONCE(c->y);
		up(&c->sem);
	}
}
POINT_SCENARIO(point_semaphore, down_t1, down_trylock_t2);

/* --- kthread_stop(): T2 (the thread) sees x before should_stop ------------ */

static int stop_thread(void *data)
{
	struct pctx *c = data;

	c->rx = READ_ONCE(c->x);
	c->re = kthread_should_stop();
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static void kthread_stop_t1(void *ctx)
{
	struct pctx *c = ctx;
	struct task_struct *t = kthread_run(stop_thread, c, "stopped");

	WRITE_ONCE(c->x, 1);
	kthread_stop(t);
}

const struct shim_scenario point_kthread = {
	.name = "point_kthread",
	.setup = psetup,
	.body = { kthread_stop_t1 },
	.check = pcheck,
};

/* --- wake_up_process(): T2 sees x, and the thread not yet woken ----------- */

static int woken_thread(void *data)
{
	struct pctx *c = data;

	wait_for_completion(&c->release);
	return 0;
}

static void wake_t1(void *ctx)
{
	struct pctx *c = ctx;
	struct task_struct *t = kthread_create(woken_thread, c, "woken");

	WRITE_ONCE(c->t1, t);
	WRITE_ONCE(c->x, 1);
	wake_up_process(t);
	/* T2 reads the thread's wake-up: it must outlive T2's look. */
	wait_for_completion(&c->done);
	complete(&c->release);
	kthread_stop(t);
}

static void woken_t2(void *ctx)
{
	struct pctx *c = ctx;

	c->rx = READ_ONCE(c->x);
	if (c->rx)
		c->re = READ_ONCE(c->t1->shim.woken);
	complete(&c->done);
}
POINT_SCENARIO(point_wake, wake_t1, woken_t2);
