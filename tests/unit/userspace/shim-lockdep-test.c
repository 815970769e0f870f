// SPDX-License-Identifier: GPL-2.0
/*
 * The shim's lockdep: interrupt usage of lock classes, and lock classes
 * set by hand (lockdep_set_class(), subclasses, the novalidate class).
 * For each rule a case where the shim reports the planted bug, and one
 * where the correct pattern draws no report; bodies that must fail a
 * test run in a forked child (shim_run_in_child), whose report title
 * the case inspects.  Each case is a process of its own, so every class
 * and its usage start fresh.
 */
#include <string.h>

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/klist.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <shim/shim.h>

#include "shim-child.h"

static DEFINE_SPINLOCK(irq_lock);	/* the one the interrupt takes */
static DEFINE_SPINLOCK(mid_lock);
static DEFINE_SPINLOCK(unsafe_lock);	/* taken with interrupts on */

/* Run @fn(@arg) as a hardirq handler, now.  Interrupts must be on. */
static void run_in_hardirq(void (*fn)(void *), void *arg)
{
	unsigned long flags;

	shim_raise_irq(fn, arg);
	local_irq_save(flags);
	local_irq_restore(flags);	/* the interrupt arrives here */
}

static void take(void *lock)
{
	spinlock_t *l = lock;

	spin_lock(l);
	spin_unlock(l);
}

/* Take @outer with interrupts off, and @inner inside it. */
static void nest_irqsave(spinlock_t *outer, spinlock_t *inner)
{
	unsigned long flags;

	spin_lock_irqsave(outer, flags);
	spin_lock(inner);
	spin_unlock(inner);
	spin_unlock_irqrestore(outer, flags);
}

/* --- inconsistent lock state -------------------------------------------- */

static void shim_lockdep_irqs_on_then_hardirq_reported(struct kunit *test)
{
	take(&irq_lock);		/* interrupts on: HARDIRQ-ON */
	shim_expect_report("WARNING: inconsistent lock state: inconsistent {HARDIRQ-ON-W} -> {IN-HARDIRQ-W} usage: irq_lock taken in hardirq at");
	run_in_hardirq(take, &irq_lock);	/* IN-HARDIRQ: reported */
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
}

static void shim_lockdep_hardirq_then_irqs_on_reported(struct kunit *test)
{
	run_in_hardirq(take, &irq_lock);
	shim_expect_report("WARNING: inconsistent lock state: inconsistent {IN-HARDIRQ-W} -> {HARDIRQ-ON-W} usage: irq_lock taken with interrupts on at");
	take(&irq_lock);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
	take(&irq_lock);		/* reported once per class, like lockdep */
	run_in_hardirq(take, &irq_lock);
}

/* Enabling interrupts with the lock held is a HARDIRQ-ON use too. */
static void shim_lockdep_irqs_enabled_under_lock_reported(struct kunit *test)
{
	unsigned long flags;

	run_in_hardirq(take, &irq_lock);
	local_irq_save(flags);
	spin_lock(&irq_lock);
	shim_expect_report("irq_lock held when interrupts were enabled at");
	local_irq_restore(flags);
	spin_unlock(&irq_lock);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
}

static void try_take(void *lock)
{
	spinlock_t *l = lock;

	if (spin_trylock(l))
		spin_unlock(l);
}

/*
 * A trylock in hardirq context cannot deadlock (as lockdep has it, it
 * does not make the class HARDIRQ-safe); a trylock with interrupts on
 * makes it HARDIRQ-unsafe like a lock.
 */
static void shim_lockdep_trylock_usage(struct kunit *test)
{
	unsigned long flags;

	run_in_hardirq(try_take, &irq_lock);
	take(&irq_lock);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 0);

	local_irq_save(flags);
	try_take(&mid_lock);	/* interrupts off: no usage */
	local_irq_restore(flags);
	run_in_hardirq(take, &mid_lock);
	try_take(&unsafe_lock);
	shim_expect_report("inconsistent {HARDIRQ-ON-W} -> {IN-HARDIRQ-W} usage: unsafe_lock taken in hardirq");
	run_in_hardirq(take, &unsafe_lock);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
}

static int take_irqs_on_fn(void *lock)
{
	take(lock);
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

static void irqs_on_in_kthread_then_hardirq(void *unused)
{
	struct task_struct *t = kthread_run(take_irqs_on_fn, &irq_lock, "irqs-on");

	if (WARN_ON(IS_ERR(t)))
		return;
	kthread_stop(t);
	run_in_hardirq(take, &irq_lock);
}

/* Usage is per class, not per task: another task's use counts. */
static void shim_lockdep_usage_shared_by_tasks(struct kunit *test)
{
	/* The report names the task that registered the usage. */
	child_fails_with(test, irqs_on_in_kthread_then_hardirq, NULL,
			 "state was registered at " __FILE__);
	child_fails_with(test, irqs_on_in_kthread_then_hardirq, NULL,
			 " by irqs-on");
	shim_expect_report("inconsistent {HARDIRQ-ON-W} -> {IN-HARDIRQ-W} usage");
	irqs_on_in_kthread_then_hardirq(NULL);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
}

static void inconsistent_body(void *unused)
{
	spin_lock(&irq_lock);
	spin_unlock(&irq_lock);
	run_in_hardirq(take, &irq_lock);
}

/* Unexpected, it fails the test, and the title has both sites. */
static void shim_lockdep_inconsistent_fails_test(struct kunit *test)
{
	child_fails_with(test, inconsistent_body, NULL,
			 "WARNING: inconsistent lock state: inconsistent {HARDIRQ-ON-W} -> {IN-HARDIRQ-W} usage");
	child_fails_with(test, inconsistent_body, NULL,
			 "taken in hardirq at " __FILE__ ":");
	child_fails_with(test, inconsistent_body, NULL,
			 "{HARDIRQ-ON-W} state was registered at " __FILE__ ":");
}

/* --- HARDIRQ-safe -> HARDIRQ-unsafe ------------------------------------- */

/* Both usages known, then the order: found at the new edge. */
static void shim_lockdep_safe_unsafe_at_new_edge_reported(struct kunit *test)
{
	run_in_hardirq(take, &irq_lock);
	take(&unsafe_lock);
	shim_expect_report("found at the new dependency irq_lock -> unsafe_lock at");
	nest_irqsave(&irq_lock, &unsafe_lock);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
	nest_irqsave(&irq_lock, &unsafe_lock);	/* an edge is checked once */
}

/*
 * The order irq_lock -> mid_lock -> unsafe_lock first, then the usages,
 * the HARDIRQ-safe one last: found when irq_lock first runs in hardirq,
 * through the chain.
 */
static void shim_lockdep_safe_unsafe_at_new_hardirq_use_reported(struct kunit *test)
{
	nest_irqsave(&irq_lock, &mid_lock);
	nest_irqsave(&mid_lock, &unsafe_lock);
	take(&unsafe_lock);
	shim_expect_report("HARDIRQ-safe -> HARDIRQ-unsafe lock order detected: HARDIRQ-safe irq_lock (in hardirq at");
	run_in_hardirq(take, &irq_lock);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
}

/* The same, the HARDIRQ-unsafe usage last. */
static void shim_lockdep_safe_unsafe_at_new_irqs_on_use_reported(struct kunit *test)
{
	nest_irqsave(&irq_lock, &mid_lock);
	nest_irqsave(&mid_lock, &unsafe_lock);
	run_in_hardirq(take, &irq_lock);
	shim_expect_report("is held while taking HARDIRQ-unsafe unsafe_lock (interrupts on at");
	take(&unsafe_lock);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
}

static void safe_unsafe_body(void *unused)
{
	run_in_hardirq(take, &irq_lock);
	spin_lock(&unsafe_lock);
	spin_unlock(&unsafe_lock);
	nest_irqsave(&irq_lock, &unsafe_lock);
}

static void shim_lockdep_safe_unsafe_fails_test(struct kunit *test)
{
	child_fails_with(test, safe_unsafe_body, NULL,
			 "WARNING: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected");
	child_fails_with(test, safe_unsafe_body, NULL,
			 "(in hardirq at " __FILE__ ":");
	child_fails_with(test, safe_unsafe_body, NULL,
			 "(interrupts on at " __FILE__ ":");
}

static void nest_in_hardirq(void *unused)
{
	nest_irqsave(&irq_lock, &mid_lock);
}

/*
 * Correct: a lock the interrupt takes is taken with interrupts off
 * everywhere, so is what nests inside it; an unsafe lock held while
 * taking a safe one is fine.
 */
static void shim_lockdep_irqsave_everywhere_clean(struct kunit *test)
{
	unsigned long flags;

	run_in_hardirq(nest_in_hardirq, NULL);
	nest_irqsave(&irq_lock, &mid_lock);
	spin_lock(&unsafe_lock);
	spin_lock_irqsave(&irq_lock, flags);
	spin_unlock_irqrestore(&irq_lock, flags);
	spin_unlock(&unsafe_lock);
	spin_lock_irq(&mid_lock);
	spin_unlock_irq(&mid_lock);
	run_in_hardirq(nest_in_hardirq, NULL);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 0);
}

/* --- K7b: a real klist, from hardirq and process context --------------- */

struct k7b_ctx {
	struct klist k;
	struct klist_node nodes[4];
	struct klist_node irq_node;
	int irq_seen;
};

static void k7b_irq_walks_adds_dels(void *data)
{
	struct k7b_ctx *c = data;
	struct klist_iter iter;

	klist_iter_init(&c->k, &iter);
	while (klist_next(&iter))
		c->irq_seen++;
	klist_iter_exit(&iter);
	klist_add_tail(&c->irq_node, &c->k);
	klist_del(&c->irq_node);
}

/*
 * K7b: klist's add and delete take k_lock with interrupts off like its
 * walks, so walking, adding and deleting in hardirq and adding and
 * deleting in process context draw no report.  (With add/del taking it
 * with interrupts on, the inconsistent state is reported: defect K7b.)
 */
static void klist_k7b_hardirq_walk_and_process_add_del_clean(struct kunit *test)
{
	struct k7b_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct klist_iter iter;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, c);
	klist_init(&c->k, NULL, NULL);
	for (i = 0; i < 3; i++)
		klist_add_tail(&c->nodes[i], &c->k);
	run_in_hardirq(k7b_irq_walks_adds_dels, c);
	KUNIT_EXPECT_EQ(test, c->irq_seen, 3);
	klist_add_head(&c->nodes[3], &c->k);
	klist_del(&c->nodes[0]);
	klist_iter_init(&c->k, &iter);
	KUNIT_EXPECT_PTR_EQ(test, klist_next(&iter), &c->nodes[3]);
	klist_iter_exit(&iter);
	run_in_hardirq(k7b_irq_walks_adds_dels, c);
	KUNIT_EXPECT_EQ(test, c->irq_seen, 6);
	for (i = 1; i < 4; i++)
		klist_remove(&c->nodes[i]);
	KUNIT_EXPECT_TRUE(test, list_empty(&c->k.k_list));
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 0);
}

struct k7b_remover {
	struct klist_node *node;
	struct completion done;
};

static int k7b_remover_fn(void *data)
{
	struct k7b_remover *r = data;

	klist_remove(r->node);
	complete(&r->done);
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

static void k7b_irq_ends_walk(void *iter)
{
	klist_iter_exit(iter);
}

/*
 * K7b: a walk that ends in hardirq may drop a node's last reference, so
 * klist_release() takes klist_remove_lock in hardirq; klist_remove()
 * takes it under k_lock, interrupts off, so that is no inconsistency.
 */
static void klist_k7b_release_in_hardirq_clean(struct kunit *test)
{
	struct k7b_remover r;
	struct klist_node a = {};
	struct klist_iter iter;
	struct task_struct *t;
	struct klist k;
	long end;

	klist_init(&k, NULL, NULL);
	klist_add_tail(&a, &k);
	klist_iter_init(&k, &iter);
	KUNIT_ASSERT_PTR_EQ(test, klist_next(&iter), &a);
	r.node = &a;
	init_completion(&r.done);
	t = kthread_run(k7b_remover_fn, &r, "k7b-remover");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	end = shim_now_ms() + 2000;
	while (READ_ONCE(t->__state) != TASK_UNINTERRUPTIBLE && shim_now_ms() < end)
		msleep(1);
	KUNIT_EXPECT_EQ(test, READ_ONCE(t->__state), (unsigned int)TASK_UNINTERRUPTIBLE);
	run_in_hardirq(k7b_irq_ends_walk, &iter);	/* the release runs in hardirq */
	wait_for_completion(&r.done);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&a));
	KUNIT_EXPECT_EQ(test, kthread_stop(t), 0);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 0);
}

/* --- lock classes: subclasses ------------------------------------------- */

struct node_obj {
	spinlock_t lock;
	struct mutex mutex;
};

/* One initialisation site: every node's locks are of one class each. */
static void node_init(struct node_obj *o)
{
	spin_lock_init(&o->lock);
	mutex_init(&o->mutex);
}

/* A parent's and a child's lock of one class, nested on purpose. */
static void shim_lockdep_nested_subclass_clean(struct kunit *test)
{
	struct node_obj parent = {}, child = {};
	unsigned long flags, flags2;

	node_init(&parent);
	node_init(&child);
	mutex_lock(&parent.mutex);
	mutex_lock_nested(&child.mutex, SINGLE_DEPTH_NESTING);
	spin_lock(&parent.lock);
	spin_lock_nested(&child.lock, SINGLE_DEPTH_NESTING);
	spin_unlock(&child.lock);
	spin_unlock(&parent.lock);
	mutex_unlock(&child.mutex);
	mutex_unlock(&parent.mutex);

	spin_lock_irqsave(&parent.lock, flags);
	spin_lock_irqsave_nested(&child.lock, flags2, SINGLE_DEPTH_NESTING);
	KUNIT_EXPECT_TRUE(test, irqs_disabled());
	spin_unlock_irqrestore(&child.lock, flags2);
	spin_unlock_irqrestore(&parent.lock, flags);
	KUNIT_EXPECT_FALSE(test, irqs_disabled());

	KUNIT_EXPECT_EQ(test, mutex_lock_interruptible_nested(&parent.mutex, 0), 0);
	KUNIT_EXPECT_EQ(test, mutex_lock_interruptible_nested(&child.mutex, 1), 0);
	mutex_unlock(&child.mutex);
	mutex_unlock(&parent.mutex);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 0);
}

/* Without the subclass, the same nesting is possible recursion. */
static void shim_lockdep_same_class_nested_reported(struct kunit *test)
{
	struct node_obj parent = {}, child = {};

	node_init(&parent);
	node_init(&child);
	shim_expect_report("possible recursive locking detected: &o->mutex at");
	mutex_lock(&parent.mutex);
	mutex_lock(&child.mutex);
	mutex_unlock(&child.mutex);
	mutex_unlock(&parent.mutex);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
}

/*
 * (class, subclass) is a node of the order: its inversion is reported.
 * In a child: TSan and helgrind see the two locks inverted too.
 */
static void subclass_inversion_body(void *unused)
{
	struct node_obj a = {}, b = {};

	node_init(&a);
	node_init(&b);
	spin_lock(&a.lock);
	spin_lock_nested(&b.lock, SINGLE_DEPTH_NESTING);
	spin_unlock(&b.lock);
	spin_unlock(&a.lock);
	spin_lock_nested(&b.lock, SINGLE_DEPTH_NESTING);
	spin_lock(&a.lock);
	spin_unlock(&a.lock);
	spin_unlock(&b.lock);
}

static void shim_lockdep_subclass_order_inversion_reported(struct kunit *test)
{
	child_fails_with(test, subclass_inversion_body, NULL,
			 "possible circular locking dependency detected: &o->lock/1 -> &o->lock at");
}

static void take_nested(void *lock)
{
	spinlock_t *l = lock;

	spin_lock_nested(l, SINGLE_DEPTH_NESTING);
	spin_unlock(l);
}

/* Subclasses are classes: each has interrupt usage of its own. */
static void shim_lockdep_subclass_usage_reported(struct kunit *test)
{
	struct node_obj o = {};

	node_init(&o);
	run_in_hardirq(take_nested, &o.lock);	/* &o->lock/1: HARDIRQ-safe */
	take(&o.lock);		/* &o->lock: another class, no conflict */
	shim_expect_report("inconsistent {IN-HARDIRQ-W} -> {HARDIRQ-ON-W} usage: &o->lock/1 taken with interrupts on at");
	take_nested(&o.lock);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
}

static void shim_lockdep_invalid_subclass_reported(struct kunit *test)
{
	struct node_obj o = {};

	node_init(&o);
	shim_expect_report("BUG: looking up invalid subclass: 8");
	shim_expect_report("BUG: looking up invalid subclass: 9");
	shim_expect_report("BUG: looking up invalid subclass: 8");
	spin_lock_nested(&o.lock, MAX_LOCKDEP_SUBCLASSES);
	spin_unlock(&o.lock);
	mutex_lock_nested(&o.mutex, 9);
	mutex_unlock(&o.mutex);
	lockdep_set_subclass(&o.lock, MAX_LOCKDEP_SUBCLASSES);
	take(&o.lock);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 3);
}

static void invalid_subclass_body(void *unused)
{
	struct node_obj o = {};

	node_init(&o);
	spin_lock_nested(&o.lock, MAX_LOCKDEP_SUBCLASSES);
	spin_unlock(&o.lock);
}

static void shim_lockdep_invalid_subclass_fails_test(struct kunit *test)
{
	child_fails_with(test, invalid_subclass_body, NULL,
			 "BUG: looking up invalid subclass: 8");
}

/* lockdep_set_subclass(): a plain lock() of that lock is the subclass. */
static void shim_lockdep_set_subclass_clean(struct kunit *test)
{
	struct node_obj parent = {}, child = {};

	node_init(&parent);
	node_init(&child);
	lockdep_set_subclass(&child.lock, SINGLE_DEPTH_NESTING);
	lockdep_set_subclass(&child.mutex, SINGLE_DEPTH_NESTING);
	mutex_lock(&parent.mutex);
	mutex_lock(&child.mutex);
	spin_lock(&parent.lock);
	spin_lock(&child.lock);
	spin_unlock(&child.lock);
	spin_unlock(&parent.lock);
	mutex_unlock(&child.mutex);
	mutex_unlock(&parent.mutex);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 0);
}

/* --- lock classes: set by key ------------------------------------------- */

static struct lock_class_key parent_key, child_key, shared_key;

/* One initialisation site, two classes by key: nesting is fine. */
static void shim_lockdep_set_class_splits_class(struct kunit *test)
{
	struct node_obj parent = {}, child = {};

	node_init(&parent);
	node_init(&child);
	lockdep_set_class(&parent.mutex, &parent_key);
	lockdep_set_class(&child.mutex, &child_key);
	KUNIT_EXPECT_TRUE(test, lockdep_match_class(&child.mutex, &child_key));
	KUNIT_EXPECT_FALSE(test, lockdep_match_class(&child.mutex, &parent_key));
	mutex_lock(&parent.mutex);
	mutex_lock(&child.mutex);
	mutex_unlock(&child.mutex);
	mutex_unlock(&parent.mutex);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 0);
}

/* Two sites, one key: one class, so nesting them is possible recursion. */
static void shim_lockdep_set_class_merges_classes(struct kunit *test)
{
	static DEFINE_SPINLOCK(one);
	spinlock_t two = {};

	spin_lock_init(&two);
	lockdep_set_class_and_name(&one, &shared_key, "shared-class");
	lockdep_set_class(&two, &shared_key);
	shim_expect_report("possible recursive locking detected: shared-class at");
	spin_lock(&one);
	spin_lock(&two);
	spin_unlock(&two);
	spin_unlock(&one);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
}

#define MANY_CLASSES	300

/* More classes than the shim keeps: said once, not silently unchecked. */
static void shim_lockdep_out_of_classes_reported(struct kunit *test)
{
	static struct lock_class_key keys[MANY_CLASSES];
	spinlock_t *l = kunit_kcalloc(test, MANY_CLASSES, sizeof(*l), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, l);
	shim_expect_report("BUG: MAX_LOCKDEP_KEYS too low!");
	for (i = 0; i < MANY_CLASSES; i++) {
		spin_lock_init(&l[i]);
		lockdep_set_class(&l[i], &keys[i]);
		take(&l[i]);
	}
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
}

/* --- lock classes: not validated ---------------------------------------- */

/*
 * The device mutex's class: no order, recursion or interrupt usage is
 * checked for it, as in the kernel.  (No two locks are taken in both
 * orders here: TSan and helgrind, which see every lock, would say so.)
 */
static void shim_lockdep_novalidate_class_clean(struct kunit *test)
{
	struct node_obj p1 = {}, p2 = {}, n1 = {}, n2 = {};

	node_init(&p1);
	node_init(&p2);
	node_init(&n1);
	node_init(&n2);
	lockdep_set_class(&p1.mutex, &parent_key);
	lockdep_set_class(&p2.mutex, &parent_key);
	lockdep_set_novalidate_class(&n1.mutex);
	lockdep_set_novalidate_class(&n2.mutex);
	lockdep_set_novalidate_class(&n1.lock);
	/* One class nested: no recursion report. */
	mutex_lock(&n1.mutex);
	mutex_lock(&n2.mutex);
	/* Validated inside: no edge from a novalidate lock ... */
	mutex_lock(&p2.mutex);
	mutex_unlock(&p2.mutex);
	mutex_unlock(&n2.mutex);
	mutex_unlock(&n1.mutex);
	/* ... nor to one, so this is no inversion of the above. */
	mutex_lock(&p1.mutex);
	mutex_lock(&n2.mutex);
	mutex_unlock(&n2.mutex);
	mutex_unlock(&p1.mutex);
	/* No interrupt usage either. */
	take(&n1.lock);
	run_in_hardirq(take, &n1.lock);
	KUNIT_EXPECT_FALSE(test, lockdep_is_held(&n1.mutex));
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 0);
}

/* Stricter than the kernel, which would hang: one lock taken twice. */
static void shim_lockdep_novalidate_self_deadlock_reported(struct kunit *test)
{
	struct node_obj a = {};

	node_init(&a);
	lockdep_set_novalidate_class(&a.mutex);
	shim_expect_report("BUG: mutex recursion");
	mutex_lock(&a.mutex);
	mutex_lock(&a.mutex);
	mutex_unlock(&a.mutex);
	mutex_unlock(&a.mutex);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
}

/* --- assertions ------------------------------------------------------------ */

static void shim_lockdep_assert_not_held_reported(struct kunit *test)
{
	lockdep_assert_not_held(&irq_lock);
	spin_lock(&irq_lock);
	KUNIT_EXPECT_TRUE(test, lockdep_is_held(&irq_lock));
	shim_expect_report("WARNING: lock irq_lock held at");
	lockdep_assert_not_held(&irq_lock);
	spin_unlock(&irq_lock);
	KUNIT_EXPECT_FALSE(test, lockdep_is_held(&irq_lock));
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
}

static void assert_held_once(void)
{
	lockdep_assert_held_once(&irq_lock);
}

static void shim_lockdep_assert_held_once_reports_once(struct kunit *test)
{
	spin_lock(&irq_lock);
	assert_held_once();
	spin_unlock(&irq_lock);
	shim_expect_report("WARNING: lock irq_lock not held at");
	assert_held_once();
	assert_held_once();	/* a second report would be unexpected */
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
}

static struct kunit_case shim_lockdep_test_cases[] = {
	KUNIT_CASE(shim_lockdep_irqs_on_then_hardirq_reported),
	KUNIT_CASE(shim_lockdep_hardirq_then_irqs_on_reported),
	KUNIT_CASE(shim_lockdep_irqs_enabled_under_lock_reported),
	KUNIT_CASE(shim_lockdep_trylock_usage),
	KUNIT_CASE(shim_lockdep_usage_shared_by_tasks),
	KUNIT_CASE(shim_lockdep_inconsistent_fails_test),
	KUNIT_CASE(shim_lockdep_safe_unsafe_at_new_edge_reported),
	KUNIT_CASE(shim_lockdep_safe_unsafe_at_new_hardirq_use_reported),
	KUNIT_CASE(shim_lockdep_safe_unsafe_at_new_irqs_on_use_reported),
	KUNIT_CASE(shim_lockdep_safe_unsafe_fails_test),
	KUNIT_CASE(shim_lockdep_irqsave_everywhere_clean),
	KUNIT_CASE(klist_k7b_hardirq_walk_and_process_add_del_clean),
	KUNIT_CASE(klist_k7b_release_in_hardirq_clean),
	KUNIT_CASE(shim_lockdep_nested_subclass_clean),
	KUNIT_CASE(shim_lockdep_same_class_nested_reported),
	KUNIT_CASE(shim_lockdep_subclass_order_inversion_reported),
	KUNIT_CASE(shim_lockdep_subclass_usage_reported),
	KUNIT_CASE(shim_lockdep_invalid_subclass_reported),
	KUNIT_CASE(shim_lockdep_invalid_subclass_fails_test),
	KUNIT_CASE(shim_lockdep_set_subclass_clean),
	KUNIT_CASE(shim_lockdep_set_class_splits_class),
	KUNIT_CASE(shim_lockdep_set_class_merges_classes),
	KUNIT_CASE(shim_lockdep_out_of_classes_reported),
	KUNIT_CASE(shim_lockdep_novalidate_class_clean),
	KUNIT_CASE(shim_lockdep_novalidate_self_deadlock_reported),
	KUNIT_CASE(shim_lockdep_assert_not_held_reported),
	KUNIT_CASE(shim_lockdep_assert_held_once_reports_once),
	{}
};

static struct kunit_suite shim_lockdep_test_suite = {
	.name = "shim_lockdep",
	.test_cases = shim_lockdep_test_cases,
};

kunit_test_suites(&shim_lockdep_test_suite);
