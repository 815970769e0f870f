// SPDX-License-Identifier: GPL-2.0
/*
 * What the partial-order reduction once could not see (#37): five small
 * programs whose failing outcome the bounded DFS reaches while DPOR,
 * claiming every trace, said "covered" with no failure.  Each read here
 * ran without a decision point of its own, inside the transition of the
 * point before it and under that point's label, or under a label that
 * named the wrong bytes; DPOR took it as independent of the write it
 * races with and ran one order only.  T2 ends by waiting for T1 to
 * finish (fin): a body's tail up to its exit is dependent with
 * everything, and a T2 tail that could run before T1's operation would
 * be reversed with it and reach the outcome anyway.
 *
 * Each scenario fails on purpose: its check rejects the outcome only the
 * missing dependency reaches ("saw ..."), and explore_dep (explore-test.c)
 * asks that DFS and DPOR both find it.  Each of the first five has a
 * defect patch in shim/explore/defects/ that removes the point (or the
 * byte label) again; with it DPOR covers the scenario clean
 * (defect.explore.* in tests/explore/CMakeLists.txt).
 *
 * The rest came with #37's last labels (its README table): dep_kfree and
 * dep_kthread_create have defect patches too; dep_irq_window shows an
 * interrupt handler's operations are points of their own (the window
 * names nothing); dep_timed_wait and dep_timed_tie are timed waits whose
 * outcome depends on simulated time, which DPOR must reach with a timed
 * retry dependent with everything (no narrower label is proven: none of
 * these tells it from naming nothing).  These five are small enough for
 * the differential test (explore.dpor_dep_*) too.
 */
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/irqflags.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <shim/shim.h>

#include "explore-scenarios.h"

struct dobj {
	int val;
};

struct dctx {
	spinlock_t spin;
	struct mutex mutex;
	struct completion done;
	union {
		unsigned long long whole;
		unsigned int half[2];
	} u;
	struct completion fin;	/* T1 is done: T2 ends after it */
	int y;
	int saw;
	unsigned int half;
	struct dobj *obj;	/* dep_kfree: read by T1, freed by T2 */
	pid_t pid1, pid2;	/* dep_kthread_create: each task's kthread, */
	struct task_struct *k1, *k2;	/* stopped by the check */
};

static void *dsetup(void)
{
	struct dctx *c = kzalloc(sizeof(*c), GFP_KERNEL);

	spin_lock_init(&c->spin);
	mutex_init(&c->mutex);
	init_completion(&c->done);
	init_completion(&c->fin);
	return c;
}

static void dfree(struct dctx *c)
{
	mutex_destroy(&c->mutex);
	kfree(c);
}

static unsigned long dfingerprint(void *ctx)
{
	struct dctx *c = ctx;

	return (unsigned long)c->saw << 32 | c->half |
	       (unsigned long)(c->pid1 < c->pid2) << 31;
}

/* --- spin_is_locked(): T2 sees T1 inside its critical section ------------ */

static void spin_t1(void *ctx)
{
	struct dctx *c = ctx;

	spin_lock(&c->spin);
	spin_unlock(&c->spin);
	complete(&c->fin);
}

static void spin_t2(void *ctx)
{
	struct dctx *c = ctx;

	/* Before the fix the read ran in this store's transition. */
	WRITE_ONCE(c->y, 1);
	c->saw = spin_is_locked(&c->spin);
	wait_for_completion(&c->fin);
}

static void saw_held_check(void *ctx)
{
	struct dctx *c = ctx;

	SHIM_EXPLORE_CHECK(!c->saw, "T2 saw the lock held");
	dfree(c);
}

const struct shim_scenario dep_spin_is_locked = {
	.name = "dep_spin_is_locked",
	.setup = dsetup,
	.body = { spin_t1, spin_t2 },
	.check = saw_held_check,
	.fingerprint = dfingerprint,
};

/* --- mutex_is_locked(): the same with a mutex ------------------------------ */

static void mutex_t1(void *ctx)
{
	struct dctx *c = ctx;

	mutex_lock(&c->mutex);
	mutex_unlock(&c->mutex);
	complete(&c->fin);
}

static void mutex_t2(void *ctx)
{
	struct dctx *c = ctx;

	WRITE_ONCE(c->y, 1);
	c->saw = mutex_is_locked(&c->mutex);
	wait_for_completion(&c->fin);
}

const struct shim_scenario dep_mutex_is_locked = {
	.name = "dep_mutex_is_locked",
	.setup = dsetup,
	.body = { mutex_t1, mutex_t2 },
	.check = saw_held_check,
	.fingerprint = dfingerprint,
};

/* --- completion_done(): T2 reads it before T1 completes ----------------- */

static void complete_t1(void *ctx)
{
	struct dctx *c = ctx;

	complete(&c->done);
	complete(&c->fin);
}

static void done_t2(void *ctx)
{
	struct dctx *c = ctx;

	WRITE_ONCE(c->y, 1);
	c->saw = !completion_done(&c->done);
	wait_for_completion(&c->fin);
}

static void saw_not_done_check(void *ctx)
{
	struct dctx *c = ctx;

	SHIM_EXPLORE_CHECK(!c->saw, "T2 saw the completion not done");
	dfree(c);
}

const struct shim_scenario dep_completion_done = {
	.name = "dep_completion_done",
	.setup = dsetup,
	.body = { complete_t1, done_t2 },
	.check = saw_not_done_check,
	.fingerprint = dfingerprint,
};

/*
 * --- a kthread's first run: the read is the body's first statement ------
 *
 * T2 starts with the read: its first transition (the wake-up to its
 * first point) was labelled by the task alone, and the read of the mutex
 * ran inside it.  Now the read is that first point.
 */
static void head_t2(void *ctx)
{
	struct dctx *c = ctx;

	c->saw = mutex_is_locked(&c->mutex);
	wait_for_completion(&c->fin);
}

const struct shim_scenario dep_kthread_head = {
	.name = "dep_kthread_head",
	.setup = dsetup,
	.body = { mutex_t1, head_t2 },
	.check = saw_held_check,
	.fingerprint = dfingerprint,
};

/*
 * --- marked accesses that overlap: WRITE_ONCE(u.whole) against ---------
 * READ_ONCE(u.half[1]), which start at different addresses.
 */
static void whole_t1(void *ctx)
{
	struct dctx *c = ctx;

	WRITE_ONCE(c->u.whole, ~0ULL);
	complete(&c->fin);
}

static void half_t2(void *ctx)
{
	struct dctx *c = ctx;

	c->half = READ_ONCE(c->u.half[1]);
	wait_for_completion(&c->fin);
}

static void half_check(void *ctx)
{
	struct dctx *c = ctx;

	SHIM_EXPLORE_CHECK(c->half != 0, "T2 read the half before the whole was written");
	dfree(c);
}

const struct shim_scenario dep_overlap = {
	.name = "dep_overlap",
	.setup = dsetup,
	.body = { whole_t1, half_t2 },
	.check = half_check,
	.fingerprint = dfingerprint,
};

/*
 * --- kfree() against a read of the block (#37) ----------------------------
 *
 * T1 reads the block, T2 frees it, nothing orders the two: a
 * use-after-free in one order.  kfree() names no object; it is a write
 * of the block's bytes to the race detector, so whichever runs first the
 * run reports the race.  Without that access (its defect patch) kfree()
 * names nothing at all and DPOR runs one order, the read first, clean.
 */
static void *dsetup_obj(void)
{
	struct dctx *c = dsetup();

	c->obj = kzalloc(sizeof(*c->obj), GFP_KERNEL);
	return c;
}

static void read_obj_t1(void *ctx)
{
	struct dctx *c = ctx;

	/* Without the guarded allocator (TSan) only kfree()'s poison tells. */
	c->saw = READ_ONCE(c->obj->val) == 0x6b6b6b6b;
	complete(&c->fin);
}

static void free_obj_t2(void *ctx)
{
	struct dctx *c = ctx;

	kfree(c->obj);
	wait_for_completion(&c->fin);
}

static void freed_check(void *ctx)
{
	struct dctx *c = ctx;

	SHIM_EXPLORE_CHECK(!c->saw, "T2 freed the block before T1 read it");
	dfree(c);
}

const struct shim_scenario dep_kfree = {
	.name = "dep_kfree",
	.setup = dsetup_obj,
	.body = { read_obj_t1, free_obj_t2 },
	.check = freed_check,
	.fingerprint = dfingerprint,
};

/*
 * --- kthread_create() in two tasks (#37) -----------------------------------
 *
 * Each creates a kthread and stops it; the pids, and the explorer's task
 * slots, go in the order the creations run.  Its point comes before the
 * pid is taken and names the task table, so two creations are
 * dependent.  With the point after the pid (its defect patch) the pids
 * are taken in each body's first transition, which names only its task,
 * and DPOR runs one order of them.
 */
static int idle_fn(void *data)
{
	return 0;
}

static void create_t1(void *ctx)
{
	struct dctx *c = ctx;

	c->k1 = kthread_create(idle_fn, c, "dep-k1");
	c->pid1 = c->k1->pid;
}

static void create_t2(void *ctx)
{
	struct dctx *c = ctx;

	c->k2 = kthread_create(idle_fn, c, "dep-k2");
	c->pid2 = c->k2->pid;
}

static void created_check(void *ctx)
{
	struct dctx *c = ctx;

	kthread_stop(c->k1);
	kthread_stop(c->k2);
	SHIM_EXPLORE_CHECK(c->pid1 < c->pid2, "T2 created its kthread first");
	dfree(c);
}

const struct shim_scenario dep_kthread_create = {
	.name = "dep_kthread_create",
	.setup = dsetup,
	.body = { create_t1, create_t2 },
	.check = created_check,
	.fingerprint = dfingerprint,
};

/*
 * --- an interrupt window (#37) ----------------------------------------------
 *
 * T1's interrupt arrives at the window of its local_irq_enable(); the handler
 * reads y, which T2 writes.  The window names nothing: the handler runs
 * on T1, and its operations are points of their own, here the
 * READ_ONCE(), which DPOR orders with T2's store both ways.
 */
static void irq_read_y(void *ctx)
{
	struct dctx *c = ctx;

	c->saw = READ_ONCE(c->y);
}

static void irq_t1(void *ctx)
{
	struct dctx *c = ctx;

	shim_raise_irq(irq_read_y, c);
	local_irq_disable();
	local_irq_enable();	/* the window */
}

static void write_y_t2(void *ctx)
{
	struct dctx *c = ctx;

	WRITE_ONCE(c->y, 1);
}

static void irq_check(void *ctx)
{
	struct dctx *c = ctx;

	SHIM_EXPLORE_CHECK(!c->saw, "T2 wrote y before T1's interrupt handler read it");
	dfree(c);
}

const struct shim_scenario dep_irq_window = {
	.name = "dep_irq_window",
	.setup = dsetup,
	.body = { irq_t1, write_y_t2 },
	.check = irq_check,
	.fingerprint = dfingerprint,
};

/*
 * --- a wait with a timeout (#37) --------------------------------------------
 *
 * T1 sets y, then waits for the completion at most 5 ms; T2 sleeps 10 ms
 * first if it read y unset, then completes.  Simulated time moves only
 * when no task can run: T1 times out exactly when T2 read y before T1
 * set it.  The wait's retry names its completion and the clock.
 */
static void timed_wait_t1(void *ctx)
{
	struct dctx *c = ctx;

	WRITE_ONCE(c->y, 1);
	c->saw = !wait_for_completion_timeout(&c->done, msecs_to_jiffies(5));
}

static void late_complete_t2(void *ctx)
{
	struct dctx *c = ctx;

	if (!READ_ONCE(c->y))
		msleep(10);
	complete(&c->done);
}

static void timed_out_check(void *ctx)
{
	struct dctx *c = ctx;

	SHIM_EXPLORE_CHECK(!c->saw, "T2 slept past T1's timeout");
	dfree(c);
}

const struct shim_scenario dep_timed_wait = {
	.name = "dep_timed_wait",
	.setup = dsetup,
	.body = { timed_wait_t1, late_complete_t2 },
	.check = timed_out_check,
	.fingerprint = dfingerprint,
};

/*
 * --- two deadlines at once (#37) --------------------------------------------
 *
 * T1 waits for the completion at most 5 ms; T2 sleeps 5 ms, then
 * completes it.  Both time out at the same simulated instant, and which
 * retry runs first decides whether T1 sees the completion.  A timed
 * retry names its channel and the clock: with neither (its defect
 * patch), DPOR takes T1's retry as independent of T2's and of complete()
 * and runs one order.
 */
static void timed_wait_only_t1(void *ctx)
{
	struct dctx *c = ctx;

	c->saw = !!wait_for_completion_timeout(&c->done, msecs_to_jiffies(5));
}

static void sleep_complete_t2(void *ctx)
{
	struct dctx *c = ctx;

	msleep(5);
	complete(&c->done);
}

static void tie_check(void *ctx)
{
	struct dctx *c = ctx;

	SHIM_EXPLORE_CHECK(c->saw, "T1 timed out: its retry ran before T2 completed, at the same instant");
	dfree(c);
}

const struct shim_scenario dep_timed_tie = {
	.name = "dep_timed_tie",
	.setup = dsetup,
	.body = { timed_wait_only_t1, sleep_complete_t2 },
	.check = tie_check,
	.fingerprint = dfingerprint,
};
