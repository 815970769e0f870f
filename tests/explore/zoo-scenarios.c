// SPDX-License-Identifier: GPL-2.0
/*
 * A zoo of the classic concurrency bugs in kernel-style C, none of them
 * in lib/: each a small scenario the explorer must find at its minimal
 * preemption bound, and a fixed twin it must cover clean.  They check
 * the explorer against bugs its authors did not write lib/ around.
 * The table of bounds and reports is explore-test.c's (explore_zoo).
 *
 * The explorer runs sequentially consistent: reorderings by the CPU
 * (a double-checked initialisation without acquire/release whose stores
 * the hardware reorders) are out of its reach until weak memory lands;
 * the zoo's double-checked initialisation is the program-order variant.
 */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <shim/shim.h>

#include "explore-scenarios.h"

struct zobj {
	refcount_t ref;
	int val;
};

struct zctx {
	spinlock_t lock;
	int n, flag, fail;
	struct task_struct *sleeper;
	struct zobj *obj;
	struct completion done;
	atomic_t head;		/* ABA: index (and tag, fixed) of the top */
	int next[4];
	int popped;
};

static void *zsetup(void)
{
	struct zctx *c = kzalloc(sizeof(*c), GFP_KERNEL);

	spin_lock_init(&c->lock);
	init_completion(&c->done);
	return c;
}

static void zfree(void *ctx)
{
	struct zctx *c = ctx;

	kfree(c->obj);
	kfree(c);
}

/* The final state, for the brute-force cross-check. */
static unsigned long zfingerprint(void *ctx)
{
	struct zctx *c = ctx;

	return (unsigned long)c->n << 8 | (unsigned long)c->flag << 4 |
	       (unsigned long)c->fail << 2 | (c->obj != NULL);
}

#define ZOO(name_, setup_, check_, ...)					\
const struct shim_scenario name_ = {					\
	.name = #name_, .setup = setup_, .check = check_,		\
	.fingerprint = zfingerprint,					\
	.body = { __VA_ARGS__ },					\
}

/* --- lost wake-up: the flag tested before the state is set --------------- */

static void waker(void *ctx)
{
	struct zctx *c = ctx;
	struct task_struct *p;

	WRITE_ONCE(c->flag, 1);
	p = READ_ONCE(c->sleeper);
	if (p)
		wake_up_process(p);
}

static void sleeper_lost(void *ctx)
{
	struct zctx *c = ctx;

	WRITE_ONCE(c->sleeper, current);
	while (!READ_ONCE(c->flag)) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	WRITE_ONCE(c->sleeper, NULL);
}

static void sleeper(void *ctx)
{
	struct zctx *c = ctx;

	WRITE_ONCE(c->sleeper, current);
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(c->flag))
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}
ZOO(zoo_lost_wakeup, zsetup, zfree, sleeper_lost, waker);
ZOO(zoo_lost_wakeup_fixed, zsetup, zfree, sleeper, waker);

/*
 * --- the same wake-up under the kernel's memory model ------------------
 *
 * zoo_lost_wakeup_fixed is fixed under sequential consistency only.  The
 * waker's store of the flag and its load of the sleeper, against the
 * sleeper's store of itself and its load of the flag, are store
 * buffering: the sleeper's set_current_state() orders its side, nothing
 * orders the waker's, so both loads may read the old values and the
 * sleeper sleeps with no one to wake it.  include/linux/wait.h asks the
 * same smp_mb() of a waker before waitqueue_active().  Found by DPOR
 * under wmm (session 12); under sc it cannot show.
 */
static void waker_mb(void *ctx)
{
	struct zctx *c = ctx;
	struct task_struct *p;

	WRITE_ONCE(c->flag, 1);
	smp_mb();
	p = READ_ONCE(c->sleeper);
	if (p)
		wake_up_process(p);
}
ZOO(zoo_lost_wakeup_sb, zsetup, zfree, sleeper, waker);
ZOO(zoo_lost_wakeup_sb_fixed, zsetup, zfree, sleeper, waker_mb);

/* --- atomicity violation: a read-modify-write across two sections -------- */

static void inc_split(void *ctx)
{
	struct zctx *c = ctx;
	int v;

	spin_lock(&c->lock);
	v = c->n;
	spin_unlock(&c->lock);
	spin_lock(&c->lock);
	c->n = v + 1;
	spin_unlock(&c->lock);
}

static void inc_whole(void *ctx)
{
	struct zctx *c = ctx;

	spin_lock(&c->lock);
	c->n++;
	spin_unlock(&c->lock);
}

static void check_two(void *ctx)
{
	struct zctx *c = ctx;

	SHIM_EXPLORE_CHECK(c->n == 2, "lost update: n is %d", c->n);
	zfree(ctx);
}
ZOO(zoo_atomicity, zsetup, check_two, inc_split, inc_split);
ZOO(zoo_atomicity_fixed, zsetup, check_two, inc_whole, inc_whole);

/* --- order violation: published before it is initialised ----------------- */

static void publish_early(void *ctx)
{
	struct zctx *c = ctx;
	struct zobj *o = kmalloc(sizeof(*o), GFP_KERNEL);

	WRITE_ONCE(c->obj, o);
	WRITE_ONCE(o->val, 42);
}

static void publish_late(void *ctx)
{
	struct zctx *c = ctx;
	struct zobj *o = kmalloc(sizeof(*o), GFP_KERNEL);

	o->val = 42;
	smp_store_release(&c->obj, o);
}

static void use_published(void *ctx)
{
	struct zctx *c = ctx;
	struct zobj *o = smp_load_acquire(&c->obj);

	if (o)
		SHIM_EXPLORE_CHECK(READ_ONCE(o->val) == 42,
				   "used before initialised: val %#x", o->val);
}
ZOO(zoo_order, zsetup, zfree, publish_early, use_published);
ZOO(zoo_order_fixed, zsetup, zfree, publish_late, use_published);

/* --- a reference taken after the last put (get on zero) ------------------- */

static void *zsetup_obj(void)
{
	struct zctx *c = zsetup();

	c->obj = kzalloc(sizeof(*c->obj), GFP_KERNEL);
	refcount_set(&c->obj->ref, 1);
	return c;
}

static void put_last(void *ctx)
{
	struct zctx *c = ctx;
	struct zobj *o = READ_ONCE(c->obj);

	if (refcount_dec_and_test(&o->ref)) {
		WRITE_ONCE(c->obj, NULL);
		kfree(o);
	}
}

static void get_unlocked(void *ctx)
{
	struct zctx *c = ctx;
	struct zobj *o = READ_ONCE(c->obj);

	if (!o)
		return;
	refcount_inc(&o->ref);
	if (refcount_dec_and_test(&o->ref)) {
		WRITE_ONCE(c->obj, NULL);
		kfree(o);
	}
}

/* The fix: the lookup and the zero transition under one lock. */
static void put_locked(struct zctx *c, struct zobj *o)
{
	bool last;

	spin_lock(&c->lock);
	last = refcount_dec_and_test(&o->ref);
	if (last)
		c->obj = NULL;
	spin_unlock(&c->lock);
	if (last)
		kfree(o);
}

static void put_last_locked(void *ctx)
{
	struct zctx *c = ctx;

	put_locked(c, READ_ONCE(c->obj));
}

static void get_locked(void *ctx)
{
	struct zctx *c = ctx;
	struct zobj *o;

	spin_lock(&c->lock);
	o = c->obj;
	if (o)
		refcount_inc(&o->ref);
	spin_unlock(&c->lock);
	if (o)
		put_locked(c, o);
}
ZOO(zoo_get_on_zero, zsetup_obj, zfree, put_last, get_unlocked);
ZOO(zoo_get_on_zero_fixed, zsetup_obj, zfree, put_last_locked, get_locked);

/* --- ABA: a lock-free pop whose top was popped and pushed back ------------ */

/* Stack of nodes 1 -> 2 -> 3 (0 ends it); the head holds (tag << 8 | index). */
static void *zsetup_stack(void)
{
	struct zctx *c = zsetup();

	c->next[1] = 2;
	c->next[2] = 3;
	c->next[3] = 0;
	atomic_set(&c->head, 1);
	return c;
}

static int pop(struct zctx *c, bool tagged)
{
	for (;;) {
		int h = atomic_read(&c->head), top = h & 0xff, n;

		if (!top)
			return 0;
		n = READ_ONCE(c->next[top]);
		if (tagged)
			n |= (h & ~0xff) + 0x100;
		if (atomic_cmpxchg(&c->head, h, n) == h)
			return top;
	}
}

static void push(struct zctx *c, int node, bool tagged)
{
	for (;;) {
		int h = atomic_read(&c->head), n = node;

		WRITE_ONCE(c->next[node], h & 0xff);
		if (tagged)
			n |= (h & ~0xff) + 0x100;
		if (atomic_cmpxchg(&c->head, h, n) == h)
			return;
	}
}

static void pop_one(void *ctx)
{
	pop(ctx, false);
}

/* Pops 1 and 2, keeps 2, pushes 1 back: the head is 1 again. */
static void pop_two_push_one(void *ctx)
{
	struct zctx *c = ctx;
	int a = pop(c, false), b = pop(c, false);

	WRITE_ONCE(c->popped, b);
	if (a)
		push(c, a, false);
}

static void pop_one_tagged(void *ctx)
{
	pop(ctx, true);
}

static void pop_two_push_one_tagged(void *ctx)
{
	struct zctx *c = ctx;
	int a = pop(c, true), b = pop(c, true);

	WRITE_ONCE(c->popped, b);
	if (a)
		push(c, a, true);
}

/* A node kept by a task is never on the stack. */
static void check_stack(void *ctx)
{
	struct zctx *c = ctx;
	int i, n = atomic_read(&c->head) & 0xff;

	for (i = 0; n && i < 4; i++, n = c->next[n])
		SHIM_EXPLORE_CHECK(!c->popped || n != c->popped,
				   "ABA: node %d is popped and still on the stack", n);
	zfree(ctx);
}
ZOO(zoo_aba, zsetup_stack, check_stack, pop_one, pop_two_push_one);
ZOO(zoo_aba_fixed, zsetup_stack, check_stack, pop_one_tagged,
    pop_two_push_one_tagged);

/* --- lock-order deadlocks: two tasks, and three ---------------------------- */

static DEFINE_MUTEX(zoo_a);
static DEFINE_MUTEX(zoo_b);
static DEFINE_MUTEX(zoo_c);

static void take(struct mutex *x, struct mutex *y)
{
	mutex_lock(x);
	mutex_lock(y);
	mutex_unlock(y);
	mutex_unlock(x);
}

static void take_ab(void *ctx) { take(&zoo_a, &zoo_b); }
static void take_ba(void *ctx) { take(&zoo_b, &zoo_a); }
static void take_bc(void *ctx) { take(&zoo_b, &zoo_c); }
static void take_ca(void *ctx) { take(&zoo_c, &zoo_a); }
static void take_ac(void *ctx) { take(&zoo_a, &zoo_c); }

ZOO(zoo_abba, zsetup, zfree, take_ab, take_ba);
ZOO(zoo_abba_fixed, zsetup, zfree, take_ab, take_ab);
ZOO(zoo_abc, zsetup, zfree, take_ab, take_bc, take_ca);
ZOO(zoo_abc_fixed, zsetup, zfree, take_ab, take_bc, take_ac);

/* --- sleeping in atomic context, on a rare path ---------------------------- */

static void maybe_sleep_locked(void *ctx)
{
	struct zctx *c = ctx;

	spin_lock(&c->lock);
	if (READ_ONCE(c->flag))
		msleep(1);	/* the rare path: a retry */
	spin_unlock(&c->lock);
}

static void maybe_sleep_unlocked(void *ctx)
{
	struct zctx *c = ctx;
	int retry;

	spin_lock(&c->lock);
	retry = READ_ONCE(c->flag);
	spin_unlock(&c->lock);
	if (retry)
		msleep(1);
}

static void set_flag(void *ctx)
{
	struct zctx *c = ctx;

	WRITE_ONCE(c->flag, 1);
}
ZOO(zoo_sleep_in_atomic, zsetup, zfree, maybe_sleep_locked, set_flag);
ZOO(zoo_sleep_in_atomic_fixed, zsetup, zfree, maybe_sleep_unlocked, set_flag);

/* --- a completion never completed: the error path forgets it -------------- */

static void complete_unless_failed(void *ctx)
{
	struct zctx *c = ctx;

	if (READ_ONCE(c->fail))
		return;		/* the bug: the waiter waits for ever */
	complete(&c->done);
}

static void complete_always(void *ctx)
{
	struct zctx *c = ctx;

	if (READ_ONCE(c->fail))
		WRITE_ONCE(c->n, -1);	/* the error, reported to the waiter */
	complete(&c->done);
}

static void fail_it(void *ctx)
{
	struct zctx *c = ctx;

	WRITE_ONCE(c->fail, 1);
}

static void wait_done(void *ctx)
{
	struct zctx *c = ctx;

	wait_for_completion(&c->done);
}
ZOO(zoo_never_completed, zsetup, zfree, complete_unless_failed, fail_it, wait_done);
ZOO(zoo_never_completed_fixed, zsetup, zfree, complete_always, fail_it, wait_done);

/* --- use after kfree by a second task -------------------------------------- */

static void *zsetup_val(void)
{
	struct zctx *c = zsetup();

	c->obj = kzalloc(sizeof(*c->obj), GFP_KERNEL);
	return c;
}

static void free_unlocked(void *ctx)
{
	struct zctx *c = ctx;
	struct zobj *o = READ_ONCE(c->obj);

	WRITE_ONCE(c->obj, NULL);
	kfree(o);
}

static void read_unlocked(void *ctx)
{
	struct zctx *c = ctx;
	struct zobj *o = READ_ONCE(c->obj);
	int v;

	if (!o)
		return;
	/* Without the guarded allocator (TSan) only kfree()'s poison tells. */
	v = READ_ONCE(o->val);
	SHIM_EXPLORE_CHECK(v != 0x6b6b6b6b, "use-after-free: read kfree() poison");
	WRITE_ONCE(c->n, v);
}

static void free_locked(void *ctx)
{
	struct zctx *c = ctx;
	struct zobj *o;

	spin_lock(&c->lock);
	o = c->obj;
	c->obj = NULL;
	spin_unlock(&c->lock);
	kfree(o);
}

static void read_locked(void *ctx)
{
	struct zctx *c = ctx;

	spin_lock(&c->lock);
	if (c->obj)
		c->n = c->obj->val;
	spin_unlock(&c->lock);
}
ZOO(zoo_use_after_free, zsetup_val, zfree, free_unlocked, read_unlocked);
ZOO(zoo_use_after_free_fixed, zsetup_val, zfree, free_locked, read_locked);

/* --- double-checked initialisation, the flag set before the object -------- */

static void get_instance_early_flag(void *ctx)
{
	struct zctx *c = ctx;

	if (!READ_ONCE(c->flag)) {
		spin_lock(&c->lock);
		if (!c->flag) {
			WRITE_ONCE(c->flag, 1);
			c->obj = kzalloc(sizeof(*c->obj), GFP_ATOMIC);
		}
		spin_unlock(&c->lock);
	}
	SHIM_EXPLORE_CHECK(READ_ONCE(c->obj), "initialised flag, no object");
}

static void get_instance(void *ctx)
{
	struct zctx *c = ctx;

	if (!smp_load_acquire(&c->flag)) {
		spin_lock(&c->lock);
		if (!c->flag) {
			c->obj = kzalloc(sizeof(*c->obj), GFP_ATOMIC);
			smp_store_release(&c->flag, 1);
		}
		spin_unlock(&c->lock);
	}
	SHIM_EXPLORE_CHECK(READ_ONCE(c->obj), "initialised flag, no object");
}
/*
 * The flag published before the object is a data race on c->obj (a
 * plain store under the lock, a READ_ONCE() that the flag let skip it):
 * declared, so that the pattern's report stays the missing object its
 * check sees (one preemption); the fixed twin has no race to declare.
 */
static void *zsetup_dc(void)
{
	struct zctx *c = zsetup();

	SHIM_EXPLORE_RACY(c->obj, "the pattern's bug: the flag is set before the object, and the check reports what that breaks");
	return c;
}
ZOO(zoo_double_checked, zsetup_dc, zfree, get_instance_early_flag,
    get_instance_early_flag);
ZOO(zoo_double_checked_fixed, zsetup, zfree, get_instance, get_instance);

/*
 * --- a plain data race (#37): two tasks count without the lock --------
 *
 * No interleaving loses the update (c->n++ has no point inside it), so
 * only the race detector sees it: two plain writes of c->n, neither
 * before the other by happens-before, in the very first schedule.  Its
 * twin counts under the lock.  Needs the access hooks
 * (shim_explore_sees_accesses(); the sanitizer presets skip it).
 */
static void count_plain(void *ctx)
{
	struct zctx *c = ctx;

	c->n++;
}

static void count_locked(void *ctx)
{
	struct zctx *c = ctx;

	spin_lock(&c->lock);
	c->n++;
	spin_unlock(&c->lock);
}

static void zcheck_count(void *ctx)
{
	struct zctx *c = ctx;

	SHIM_EXPLORE_CHECK(c->n == 2, "lost update: n is %d", c->n);
	zfree(c);
}
ZOO(zoo_data_race, zsetup, zcheck_count, count_plain, count_plain);
ZOO(zoo_data_race_fixed, zsetup, zcheck_count, count_locked, count_locked);
