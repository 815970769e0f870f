// SPDX-License-Identifier: GPL-2.0
/*
 * klist from hardirq context: walks, adds, deletes and the release of a
 * node's last reference in an hrtimer callback (HRTIMER_MODE_REL_HARD,
 * which runs in hardirq context in 6.1, PREEMPT included), while process
 * context uses the same list.
 *
 * Why: K7 and K7b (docs/lessons.md).  Every k_lock section must run with
 * interrupts disabled, because a walk may run in an interrupt handler
 * and an interrupt that lands while its own CPU holds k_lock with
 * interrupts on spins on it forever.  Lockdep reports that without the
 * interrupt having to land at that moment, once it has seen both usages
 * of k_lock's class: taken in hardirq (IN-HARDIRQ-W) and taken with
 * interrupts on (HARDIRQ-ON-W), "inconsistent lock state".  Each case
 * here gives both worlds' lockdep the hardirq usage of the paths it
 * names, against process-context users of the same list; a klist whose
 * add or delete takes k_lock with interrupts on
 * (tests/defects/klist/K7b-add-del-lock-not-irq-safe.patch) is reported
 * by the shim's lockdep in userspace and by PROVE_LOCKING in the kernel.
 *
 * In userspace the shim fires the timer on a thread that stands for
 * another CPU taking the timer interrupt (shim/include/linux/hrtimer.h);
 * in the kernel it may fire on the test's own CPU.  Results are recorded
 * by the callback and checked by the test after a bounded wait; the
 * timer is cancelled before the test returns, so nothing it touches is
 * freed under it.  Shared with KUnit in the kernel: kernel APIs only.
 *
 * Local helpers and fixtures carry the kh_ prefix (for klist-hardirq).
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/irqflags.h>
#include <linux/jiffies.h>
#include <linux/klist.h>
#include <linux/lockdep.h>
#include <linux/kthread.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "klist-test-fixture.h"

#define KH_STABLE	8	/* on the list for the whole walk case */
#define KH_CHURN	8	/* added and deleted by process context */
#define KH_WALKS	50	/* firings of the walking callback */
#define KH_NODES	16	/* added, or deleted, one per firing */
#define KH_PERIOD_NS	(200 * NSEC_PER_USEC)
#define KH_WAIT_MS	5000

struct kh_ctx;

struct kh_node {
	struct klist_node kn;
	int id;
	struct kh_ctx *c;
};

struct kh_ctx {
	struct klist k;
	struct hrtimer timer;
	struct completion done;		/* the callback's last firing */
	struct kh_node node[KH_STABLE + KH_CHURN];
	atomic_t gets;
	atomic_t puts;
	atomic_t puts_in_hardirq;
	/* Written by the callback only; read once it is done. */
	int fired;
	int limit;			/* firings before it completes */
	int bad_walks;			/* a stable node missed or repeated */
	int churn_seen;
	bool not_hardirq;		/* it once ran outside hardirq, or irqs on */
	struct klist_iter iter;		/* a walk kept across firings */
	int step_id[2];			/* what each firing's step returned */
};

static struct kh_node *kh_node(struct klist_node *n)
{
	return container_of(n, struct kh_node, kn);
}

static int kh_id(struct klist_node *n)
{
	return n ? kh_node(n)->id : -1;
}

static void kh_get(struct klist_node *n)
{
	atomic_inc(&kh_node(n)->c->gets);
}

/* Runs where the last reference goes: the hardirq walk counts here. */
static void kh_put(struct klist_node *n)
{
	struct kh_ctx *c = kh_node(n)->c;

	atomic_inc(&c->puts);
	if (in_hardirq())
		atomic_inc(&c->puts_in_hardirq);
}

/* A list with get/put counters; @nadd of the nodes added, in id order. */
static struct lock_class_key kh_lock_key;

static struct kh_ctx *kh_setup(struct kunit *test,
			       enum hrtimer_restart (*fn)(struct hrtimer *),
			       int nadd)
{
	struct kh_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, c);
	klist_init(&c->k, kh_get, kh_put);
	/*
	 * A lock class of its own: lockdep keys every klist's k_lock by
	 * klist_init()'s call site, and 6.1's driver core takes k_lock with
	 * plain spin_lock() (driver_detach() peeks at klist_devices), so
	 * the shared class is HARDIRQ-ON in any booted kernel.  This list's
	 * own usages are what the cases compare.
	 */
	lockdep_set_class(&c->k.k_lock, &kh_lock_key);
	init_completion(&c->done);
	for (i = 0; i < ARRAY_SIZE(c->node); i++) {
		c->node[i].id = i;
		c->node[i].c = c;
	}
	for (i = 0; i < nadd; i++)
		klist_add_tail(&c->node[i].kn, &c->k);	/* HARDIRQ-ON, were it unsafe */
	hrtimer_init(&c->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	c->timer.function = fn;
	return c;
}

/* Where every callback starts: it must be in hardirq, interrupts off. */
static void kh_check_context(struct kh_ctx *c)
{
	if (!in_hardirq() || !irqs_disabled())
		c->not_hardirq = true;
}

/* Every callback ends here: again after a period, or done. */
static enum hrtimer_restart kh_again(struct kh_ctx *c)
{
	if (++c->fired < c->limit) {
		hrtimer_forward_now(&c->timer, ns_to_ktime(KH_PERIOD_NS));
		return HRTIMER_RESTART;
	}
	complete(&c->done);
	return HRTIMER_NORESTART;
}

/* The first firing comes a period from now, on whichever CPU. */
static void kh_run_timer(struct kunit *test, struct kh_ctx *c)
{
	hrtimer_start(&c->timer, ns_to_ktime(KH_PERIOD_NS), HRTIMER_MODE_REL_HARD);
}

/* Wait (bounded) for the last firing, then cancel: nothing fires later. */
static void kh_wait_timer(struct kunit *test, struct kh_ctx *c)
{
	unsigned long left;

	left = wait_for_completion_timeout(&c->done, msecs_to_jiffies(KH_WAIT_MS));
	KUNIT_EXPECT_NE_MSG(test, left, 0UL, "the hrtimer callback did not finish in %d ms",
			    KH_WAIT_MS);
	hrtimer_cancel(&c->timer);
	KUNIT_EXPECT_FALSE(test, c->not_hardirq);
}

/* Delete what is left; every get then has its put. */
static void kh_teardown(struct kunit *test, struct kh_ctx *c)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(c->node); i++) {
		if (klist_node_attached(&c->node[i].kn))
			klist_del(&c->node[i].kn);
		KUNIT_EXPECT_FALSE(test, klist_node_attached(&c->node[i].kn));
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&c->puts), atomic_read(&c->gets));
}

/* --- a walk in hardirq against process-context adds and deletes -------- */

static enum hrtimer_restart kh_walk_fn(struct hrtimer *t)
{
	struct kh_ctx *c = container_of(t, struct kh_ctx, timer);
	struct klist_iter iter;
	struct klist_node *n;
	unsigned int seen = 0;
	int stable = 0;

	kh_check_context(c);
	klist_iter_init(&c->k, &iter);
	while ((n = klist_next(&iter))) {
		int id = kh_id(n);

		/*
		 * Only a stable node can never come twice: a churn node the
		 * walk passed may be deleted, released and added again ahead
		 * of it, and is then met again, rightly (the explorer showed
		 * this interleaving).
		 */
		if (id < KH_STABLE) {
			if (seen & (1U << id))
				c->bad_walks++;
			seen |= 1U << id;
			stable++;
		} else {
			c->churn_seen++;
		}
	}
	/* Drops the last reference if process context deleted that node. */
	klist_iter_exit(&iter);
	if (stable != KH_STABLE)
		c->bad_walks++;
	return kh_again(c);
}

/*
 * A walk in hardirq while process context adds and deletes.
 *
 * Lockdep: klist_iter_init(), klist_next() and klist_iter_exit() take
 * k_lock in hardirq (IN-HARDIRQ-W); process context takes it in every
 * add flavour (head, tail, behind) and klist_del(), which must keep
 * interrupts off there (else HARDIRQ-ON-W: inconsistent, K7b).  A walk
 * may also drop the last reference of a node process context deleted,
 * so klist_release() runs in hardirq now and then.
 *
 * Each of the KH_WALKS walks must see every one of the KH_STABLE nodes
 * that stay on the list exactly once; at least one
 * walk sees nodes process context added.  Process context keeps three
 * or four of the KH_CHURN nodes on the list, re-adding a node only once
 * a walk no longer holds it.
 */
static void klist_hardirq_walk_while_process_adds_and_deletes(struct kunit *test)
{
	struct kh_ctx *c = kh_setup(test, kh_walk_fn, KH_STABLE);
	struct kh_node *churn = &c->node[KH_STABLE];
	bool on[KH_CHURN] = {};
	unsigned long end = jiffies + msecs_to_jiffies(KH_WAIT_MS);
	int i, r, adds = KH_CHURN / 2, dels = 0;

	for (i = 0; i < KH_CHURN / 2; i++) {
		klist_add_tail(&churn[i].kn, &c->k);
		on[i] = true;
	}
	c->limit = KH_WALKS;
	kh_run_timer(test, c);
	for (r = 0; !completion_done(&c->done) && time_before(jiffies, end); r++) {
		int d = r % KH_CHURN, a = (r + KH_CHURN / 2) % KH_CHURN;

		if (on[d]) {
			klist_del(&churn[d].kn);
			on[d] = false;
			dels++;
		}
		if (!on[a] && !klist_node_attached(&churn[a].kn)) {
			if (r % 3 == 0)
				klist_add_tail(&churn[a].kn, &c->k);
			else if (r % 3 == 1)
				klist_add_head(&churn[a].kn, &c->k);
			else
				klist_add_behind(&churn[a].kn,
						 &c->node[r % KH_STABLE].kn);
			on[a] = true;
			adds++;
		}
		if (r % KH_CHURN == KH_CHURN - 1)
			usleep_range(20, 50);	/* a quiet moment for the timer */
	}
	kh_wait_timer(test, c);
	KUNIT_EXPECT_EQ(test, c->fired, KH_WALKS);
	KUNIT_EXPECT_EQ(test, c->bad_walks, 0);
	KUNIT_EXPECT_GT(test, c->churn_seen, 0);
	KUNIT_EXPECT_GT(test, dels, 0);
	kh_teardown(test, c);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->gets), KH_STABLE + adds);
}

/* --- adds and deletes in hardirq against process-context walks ---------- */

/*
 * Walk the list in process context until the callback is done; every
 * walk must see ids in increasing order, each once.  Returns the walks.
 */
static int kh_walk_until_done(struct kunit *test, struct kh_ctx *c,
			      int *bad)
{
	unsigned long end = jiffies + msecs_to_jiffies(KH_WAIT_MS);
	struct klist_iter iter;
	struct klist_node *n;
	int walks = 0;

	while (!completion_done(&c->done) && time_before(jiffies, end)) {
		int last = -1;

		klist_iter_init(&c->k, &iter);
		while ((n = klist_next(&iter))) {
			if (kh_id(n) <= last)
				(*bad)++;
			last = kh_id(n);
		}
		klist_iter_exit(&iter);
		walks++;
		if (walks % 8 == 0)
			usleep_range(20, 50);
	}
	return walks;
}

static enum hrtimer_restart kh_add_fn(struct hrtimer *t)
{
	struct kh_ctx *c = container_of(t, struct kh_ctx, timer);

	kh_check_context(c);
	klist_add_tail(&c->node[c->fired].kn, &c->k);
	return kh_again(c);
}

/*
 * Adds in hardirq while process context walks.
 *
 * Lockdep: klist_add_tail() (klist_link()) takes k_lock in hardirq
 * (IN-HARDIRQ-W); process context walks the list and added nothing but
 * the one node the list starts with (HARDIRQ-ON-W, were the add unsafe).
 *
 * The callback adds one node per firing, in id order, at the tail; each
 * process-context walk must see ids in increasing order, each once, and
 * the final list must hold all KH_NODES nodes, in order.
 */
static void klist_hardirq_add_in_callback(struct kunit *test)
{
	struct kh_ctx *c = kh_setup(test, kh_add_fn, 0);
	struct klist_iter iter;
	struct klist_node *n;
	int bad = 0, walks, i = 0;

	c->limit = KH_NODES;
	kh_run_timer(test, c);
	walks = kh_walk_until_done(test, c, &bad);
	kh_wait_timer(test, c);
	KUNIT_EXPECT_EQ(test, c->fired, KH_NODES);
	KUNIT_EXPECT_GT(test, walks, 0);
	KUNIT_EXPECT_EQ(test, bad, 0);
	klist_iter_init(&c->k, &iter);
	while ((n = klist_next(&iter)))
		KUNIT_EXPECT_EQ(test, kh_id(n), i++);
	klist_iter_exit(&iter);
	KUNIT_EXPECT_EQ(test, i, KH_NODES);
	kh_teardown(test, c);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->gets), KH_NODES);
}

static enum hrtimer_restart kh_del_fn(struct hrtimer *t)
{
	struct kh_ctx *c = container_of(t, struct kh_ctx, timer);

	kh_check_context(c);
	/* klist_del(), never klist_remove(): that one sleeps. */
	klist_del(&c->node[c->fired].kn);
	return kh_again(c);
}

/*
 * Deletes in hardirq while process context walks.
 *
 * Lockdep: klist_del() (klist_kill()) takes k_lock in hardirq
 * (IN-HARDIRQ-W); process context adds the nodes first (HARDIRQ-ON-W,
 * were the add unsafe) and walks meanwhile.
 *
 * The callback deletes one node per firing, in id order.  A walk that
 * stands on a node being deleted keeps it until its next step, which
 * then drops the last reference in process context; otherwise the
 * delete in hardirq does.  Each walk must see increasing ids, each once;
 * at the end every node is gone and had its put, in one context or the
 * other.
 */
static void klist_hardirq_del_in_callback(struct kunit *test)
{
	struct kh_ctx *c = kh_setup(test, kh_del_fn, KH_NODES);
	int bad = 0, walks, i;

	c->limit = KH_NODES;
	kh_run_timer(test, c);
	walks = kh_walk_until_done(test, c, &bad);
	kh_wait_timer(test, c);
	KUNIT_EXPECT_EQ(test, c->fired, KH_NODES);
	KUNIT_EXPECT_GT(test, walks, 0);
	KUNIT_EXPECT_EQ(test, bad, 0);
	for (i = 0; i < KH_NODES; i++)
		KUNIT_EXPECT_FALSE(test, klist_node_attached(&c->node[i].kn));
	KUNIT_EXPECT_EQ(test, atomic_read(&c->puts), KH_NODES);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->gets), KH_NODES);
}

/* --- the last reference dropped in hardirq ------------------------------ */

/*
 * One step of a walk kept across firings: the first firing starts the
 * walk and stands on the first node; the second steps on (dropping
 * that node's reference) and ends the walk.
 */
static enum hrtimer_restart kh_step_fn(struct hrtimer *t)
{
	struct kh_ctx *c = container_of(t, struct kh_ctx, timer);

	kh_check_context(c);
	if (c->fired == 0)
		klist_iter_init(&c->k, &c->iter);
	c->step_id[c->fired] = kh_id(klist_next(&c->iter));
	if (c->fired == 1)
		klist_iter_exit(&c->iter);
	c->fired++;
	complete(&c->done);
	return HRTIMER_NORESTART;
}

/* Fire the stepping callback once more and wait for it. */
static void kh_step(struct kunit *test, struct kh_ctx *c)
{
	reinit_completion(&c->done);
	kh_run_timer(test, c);
	kh_wait_timer(test, c);
}

/*
 * The walk in hardirq drops the last reference of a node process context
 * deleted: klist_release() and the list's put() run in hardirq.
 *
 * Lockdep: klist_iter_init() and klist_next() take k_lock in hardirq,
 * and the release inside klist_next() takes klist_remove_lock in hardirq
 * too (IN-HARDIRQ-W for both); process context adds and deletes
 * (HARDIRQ-ON-W, were they unsafe).
 *
 * The first firing stands on node 0; process context deletes it, which
 * must leave it attached (the walk holds it) without a put; the second
 * firing steps to node 1, releasing node 0 there: its put runs in
 * hardirq, once.
 */
static void klist_hardirq_release_in_callback(struct kunit *test)
{
	struct kh_ctx *c = kh_setup(test, kh_step_fn, 3);

	kh_step(test, c);
	KUNIT_EXPECT_EQ(test, c->step_id[0], 0);
	klist_del(&c->node[0].kn);
	KUNIT_EXPECT_TRUE(test, klist_node_attached(&c->node[0].kn));
	KUNIT_EXPECT_EQ(test, atomic_read(&c->puts), 0);
	kh_step(test, c);
	KUNIT_EXPECT_EQ(test, c->step_id[1], 1);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&c->node[0].kn));
	KUNIT_EXPECT_EQ(test, atomic_read(&c->puts), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->puts_in_hardirq), 1);
	kh_teardown(test, c);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->puts_in_hardirq), 1);
}

/*
 * The same release in hardirq, with a remover asleep in klist_remove():
 * klist_release() wakes it from hardirq context.
 *
 * Lockdep: as klist_hardirq_release_in_callback, and the remover's
 * klist_remove() queues its waiter under klist_remove_lock in process
 * context with interrupts off; the wake-up in hardirq nests the
 * scheduler's locks inside klist_remove_lock.
 *
 * Sound in both worlds: the remover sleeps TASK_UNINTERRUPTIBLE until
 * the hardirq walk drops the reference, which nothing in process context
 * waits for; klist_release() may call wake_up_process() in any context.
 * The remover must return (bounded wait) with node 0 gone and its put
 * done in hardirq.
 */
static void klist_hardirq_release_wakes_remover(struct kunit *test)
{
	struct kh_ctx *c = kh_setup(test, kh_step_fn, 3);
	struct kfx_remover r;
	unsigned long left;

	kh_step(test, c);
	KUNIT_EXPECT_EQ(test, c->step_id[0], 0);
	kfx_start_remover(test, &r, &c->node[0].kn, "kh-remover", 0);
	KUNIT_EXPECT_TRUE(test, kfx_remover_waiting(&r));
	KUNIT_EXPECT_FALSE(test, completion_done(&r.done));
	KUNIT_EXPECT_TRUE(test, klist_node_attached(&c->node[0].kn));
	kh_step(test, c);
	left = wait_for_completion_timeout(&r.done, msecs_to_jiffies(KH_WAIT_MS));
	KUNIT_EXPECT_NE_MSG(test, left, 0UL, "klist_remove() was not woken in %d ms",
			    KH_WAIT_MS);
	kfx_stop_remover(&r);
	KUNIT_EXPECT_EQ(test, c->step_id[1], 1);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&c->node[0].kn));
	KUNIT_EXPECT_EQ(test, atomic_read(&c->puts_in_hardirq), 1);
	kh_teardown(test, c);
}

static struct kunit_case klist_hardirq_test_cases[] = {
	KUNIT_CASE(klist_hardirq_walk_while_process_adds_and_deletes),
	KUNIT_CASE(klist_hardirq_add_in_callback),
	KUNIT_CASE(klist_hardirq_del_in_callback),
	KUNIT_CASE(klist_hardirq_release_in_callback),
	KUNIT_CASE(klist_hardirq_release_wakes_remover),
	{}
};

static struct kunit_suite klist_hardirq_test_suite = {
	.name = "klist_hardirq",
	.test_cases = klist_hardirq_test_cases,
};

kunit_test_suites(&klist_hardirq_test_suite);

MODULE_LICENSE("GPL");
