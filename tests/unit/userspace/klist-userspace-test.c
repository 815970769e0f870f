// SPDX-License-Identifier: GPL-2.0
/*
 * klist tests that need the shim: the lessons only a controlled
 * interleaving or a simulated interrupt can show (K6, K7), and misuse
 * of the API, which must be reported and survived.  Userspace only.
 * Each lesson test tells its story in its header and names the defect
 * patch that undoes it; docs/lessons.md has the whole story.
 */
#include <sched.h>
#include <kunit/test.h>
#include <linux/klist.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <shim/shim.h>

#include "../klist-test-fixture.h"

/* --- K6 ---------------------------------------------------------------- */

struct k6_obj {
	struct klist_node kn;
	char payload[64];
};

struct k6_remover {
	struct k6_obj *obj;
	atomic_t freed;
	struct completion done;
};

/* Returns at once; the test holds a task reference for kthread_stop(). */
static int k6_remover_fn(void *data)
{
	struct k6_remover *r = data;

	klist_remove(&r->obj->kn);
	kfree(r->obj);		/* legal: klist_remove() has returned */
	atomic_set(&r->freed, 1);
	complete(&r->done);
	return 0;
}

/* Runs right after klist_release drops klist_remove_lock: let the remover finish. */
static void k6_let_remover_free(void *data)
{
	struct k6_remover *r = data;
	long end = shim_now_ms() + 1000;

	while (!atomic_read(&r->freed) && shim_now_ms() < end)
		sched_yield();	/* may not sleep: k_lock is held here */
}

/*
 * K6: once a remover may return, the release touches neither node nor
 * waiter.
 *
 * Linux 6.1's klist_release() (not the RFC) sets waiter->woken, then
 * reads waiter->process to wake it, and clears n->n_klist only after
 * dropping klist_remove_lock:
 *  CPU0 (last put, in klist_release)   CPU1 (in klist_remove)
 *  1. list_del(node)
 *  2. waiter->woken = 1
 *                                      3. sees woken: returns, and the
 *                                         caller kfree()s the node
 *  4. wake_up_process(waiter->process) (reads a dead stack frame)
 *  5. n->n_klist = NULL                (writes into the freed node)
 * Here a shim_on_unlock() hook on klist_remove_lock holds CPU0 right
 * after the release drops that lock until the remover has freed the
 * node: the poison check must find no write into it.
 *
 * tests/defects/klist/K6-release-wakes-before-detaching.patch restores
 * 6.1's order: "BUG: KASAN-like: use-after-free write at offset 0 of a
 * 96-byte block ... freed at klist-userspace-test.c" (n_klist is at
 * offset 0).  R1 (R1-walk-reads-node-after-put.patch: the walk asks
 * klist_node_attached() of the node after its put) is caught here by
 * the guarded allocator: "BUG: KFENCE: use-after-free read".
 */
static void klist_k6_release_never_touches_freed_node(struct kunit *test)
{
	struct k6_remover r = { .freed = ATOMIC_INIT(0) };
	struct klist k;
	struct klist_iter iter;
	struct task_struct *t;

	klist_init(&k, NULL, NULL);
	r.obj = kzalloc(sizeof(*r.obj), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r.obj);
	init_completion(&r.done);
	klist_add_tail(&r.obj->kn, &k);
	klist_iter_init(&k, &iter);
	KUNIT_ASSERT_PTR_EQ(test, klist_next(&iter), &r.obj->kn);

	t = kthread_run(k6_remover_fn, &r, "k6-remover");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	get_task_struct(t);
	KUNIT_ASSERT_TRUE(test, kfx_task_waiting(t));

	shim_on_unlock("klist_remove_lock", k6_let_remover_free, &r);
	klist_iter_exit(&iter);		/* the last reference: release runs here */
	wait_for_completion(&r.done);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.freed), 1);
	KUNIT_EXPECT_TRUE(test, list_empty(&k.k_list));
	kthread_stop(t);
	put_task_struct(t);
	/* A write into the freed node is found by the end-of-test poison check. */
}

/*
 * K6, the other half: the remover re-adds the node at once.
 *
 * The driver core does this: device_move() takes knode_parent off the
 * old parent's children with klist_remove() and adds it to the new
 * parent's right after.  With 6.1's release order the late
 * "n->n_klist = NULL" (step 5 above) then lands on a node that is on
 * its new list: klist_node_attached() says false for a linked node, and
 * the next klist_del() or klist_remove() of it goes through NULL.
 * Here the same hook holds the release after klist_remove_lock until the
 * remover has added the node to a second list; the node must be on that
 * list, attached, and delete cleanly.
 *
 * Also caught by tests/defects/klist/K6-release-wakes-before-detaching.patch
 * (there the re-add finds the node still on its old list: X2's report);
 * the conformance run (tests/conformance/) shows 6.1's own klist.c
 * losing the node's list pointer.
 */
struct k6_readd {
	struct klist_node kn;
	struct klist *to;
	atomic_t readded;
	struct completion done;
};

static int k6_readd_fn(void *data)
{
	struct k6_readd *r = data;

	klist_remove(&r->kn);
	klist_add_tail(&r->kn, r->to);	/* at once, as device_move() */
	atomic_set(&r->readded, 1);
	complete(&r->done);
	return 0;
}

static void k6_let_remover_readd(void *data)
{
	struct k6_readd *r = data;
	long end = shim_now_ms() + 1000;

	while (!atomic_read(&r->readded) && shim_now_ms() < end)
		sched_yield();	/* may not sleep: k_lock is held here */
}

static void klist_k6_readd_at_once_keeps_new_list(struct kunit *test)
{
	struct k6_readd r = { .readded = ATOMIC_INIT(0) };
	struct klist from, to;
	struct klist_iter iter;
	struct task_struct *t;

	klist_init(&from, NULL, NULL);
	klist_init(&to, NULL, NULL);
	r.to = &to;
	init_completion(&r.done);
	klist_add_tail(&r.kn, &from);
	klist_iter_init(&from, &iter);
	KUNIT_ASSERT_PTR_EQ(test, klist_next(&iter), &r.kn);

	t = kthread_run(k6_readd_fn, &r, "k6-readd");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	get_task_struct(t);
	KUNIT_ASSERT_TRUE(test, kfx_task_waiting(t));

	shim_on_unlock("klist_remove_lock", k6_let_remover_readd, &r);
	klist_iter_exit(&iter);		/* the last reference: release runs here */
	wait_for_completion(&r.done);
	kthread_stop(t);
	put_task_struct(t);
	KUNIT_EXPECT_TRUE(test, list_empty(&from.k_list));
	KUNIT_ASSERT_TRUE_MSG(test, klist_node_attached(&r.kn),
			      "the re-added node lost its list pointer");
	klist_iter_init(&to, &iter);
	KUNIT_EXPECT_PTR_EQ(test, klist_next(&iter), &r.kn);
	klist_iter_exit(&iter);
	klist_del(&r.kn);
	KUNIT_EXPECT_TRUE(test, list_empty(&to.k_list));
}

/* --- K7 ---------------------------------------------------------------- */

struct k7_ctx {
	struct klist k;
	struct klist_node nodes[3];
	int irq_seen;
};

static void k7_irq_walks(void *data)
{
	struct k7_ctx *c = data;
	struct klist_iter iter;

	klist_iter_init(&c->k, &iter);
	while (klist_next(&iter))
		c->irq_seen++;
	klist_iter_exit(&iter);
}

/*
 * K7: an interrupt that walks the list cannot deadlock a walker it
 * interrupts.
 *
 * The RFC's klist_next() took k_lock with a plain spin_lock():
 *  1. a task on CPU0 is inside klist_next(), holding k_lock, interrupts on;
 *  2. an interrupt arrives on CPU0 and its handler walks the same list;
 *  3. the handler's klist_next() spins on k_lock, which the task it
 *     interrupted holds and cannot release: CPU0 is dead.
 * Here shim_raise_irq() delivers a walking "interrupt" at the first point
 * interrupts are on during a forward and a backward walk; both walks and
 * both handlers must see all three nodes.
 *
 * tests/defects/klist/K7-walk-lock-not-irq-safe.patch undoes it for
 * next/prev: "BUG: spinlock recursion: &k->k_lock".  Its sibling K7b
 * (K7b-add-del-lock-not-irq-safe.patch: add and delete with interrupts
 * on) is caught here too, by the shim's interrupt-state lockdep, as
 * soon as the add (HARDIRQ-ON) and the walk in the handler (IN-HARDIRQ)
 * have both been seen: "inconsistent {HARDIRQ-ON-W} -> {IN-HARDIRQ-W}".
 */
static void klist_k7_walk_safe_against_interrupt(struct kunit *test)
{
	struct k7_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct klist_iter iter;
	int i, seen = 0;

	KUNIT_ASSERT_NOT_NULL(test, c);
	klist_init(&c->k, NULL, NULL);
	for (i = 0; i < 3; i++)
		klist_add_tail(&c->nodes[i], &c->k);
	klist_iter_init(&c->k, &iter);
	/* Arrives at the first moment interrupts are on, inside or after a step. */
	shim_raise_irq(k7_irq_walks, c);
	while (klist_next(&iter))
		seen++;
	klist_iter_exit(&iter);
	KUNIT_EXPECT_EQ(test, seen, 3);
	KUNIT_EXPECT_EQ(test, c->irq_seen, 3);
	shim_raise_irq(k7_irq_walks, c);
	klist_iter_init(&c->k, &iter);
	while (klist_prev(&iter))
		seen++;
	klist_iter_exit(&iter);
	KUNIT_EXPECT_EQ(test, c->irq_seen, 6);
	for (i = 0; i < 3; i++)
		klist_del(&c->nodes[i]);
}

/*
 * K7: next/prev called with interrupts off leave them off.
 *
 * The other half of K7: a walk from atomic context (interrupts already
 * disabled by the caller) must not turn them back on, as a plain
 * spin_unlock_irq() would.  Guards the irqsave/irqrestore form; the K7
 * defect patch (plain spin_lock()) leaves interrupts alone, so this case
 * is not what catches it.
 */
static void klist_k7_irqs_stay_disabled(struct kunit *test)
{
	struct klist k;
	struct klist_node a = {}, b = {};
	struct klist_iter iter;
	unsigned long flags;

	klist_init(&k, NULL, NULL);
	klist_add_tail(&a, &k);
	klist_add_tail(&b, &k);
	local_irq_save(flags);
	klist_iter_init(&k, &iter);
	KUNIT_EXPECT_PTR_EQ(test, klist_next(&iter), &a);
	KUNIT_EXPECT_TRUE(test, irqs_disabled());
	KUNIT_EXPECT_PTR_EQ(test, klist_next(&iter), &b);
	KUNIT_EXPECT_PTR_EQ(test, klist_prev(&iter), &a);
	KUNIT_EXPECT_TRUE(test, irqs_disabled());
	klist_iter_exit(&iter);
	KUNIT_EXPECT_TRUE(test, irqs_disabled());
	local_irq_restore(flags);
	KUNIT_EXPECT_FALSE(test, irqs_disabled());
	klist_del(&a);
	klist_del(&b);
}

/* --- misuse -------------------------------------------------------------- */

static atomic_t misuse_puts;

static void misuse_put(struct klist_node *n)
{
	atomic_inc(&misuse_puts);
}

static void klist_misuse_double_del_reported(struct kunit *test)
{
	struct klist k;
	struct klist_node a = {}, b = {};
	struct klist_iter iter;

	atomic_set(&misuse_puts, 0);
	klist_init(&k, NULL, misuse_put);
	klist_add_tail(&a, &k);
	klist_add_tail(&b, &k);
	klist_iter_init(&k, &iter);
	KUNIT_ASSERT_PTR_EQ(test, klist_next(&iter), &a);
	klist_del(&a);
	shim_expect_report("deleted twice");
	klist_del(&a);		/* reported, and the count is left alone */
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
	KUNIT_EXPECT_TRUE(test, klist_node_attached(&a));
	KUNIT_EXPECT_PTR_EQ(test, klist_next(&iter), &b);
	KUNIT_EXPECT_EQ(test, atomic_read(&misuse_puts), 1);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&a));
	klist_iter_exit(&iter);
	klist_del(&b);
	KUNIT_EXPECT_EQ(test, atomic_read(&misuse_puts), 2);
	KUNIT_EXPECT_TRUE(test, list_empty(&k.k_list));
}

static void klist_misuse_del_of_released_node_reported(struct kunit *test)
{
	struct klist k;
	struct klist_node a = {};

	atomic_set(&misuse_puts, 0);
	klist_init(&k, NULL, misuse_put);
	klist_add_tail(&a, &k);
	klist_del(&a);
	shim_expect_report("on no list");
	klist_del(&a);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&misuse_puts), 1);
	/* Removing it again has nothing to wait for. */
	klist_remove(&a);
	KUNIT_EXPECT_TRUE(test, list_empty(&k.k_list));
}

static void misuse_release_walk(void *data)
{
	klist_iter_exit(data);
}

/* The walk waits for itself: the hung-task bound names klist_remove. */
static void klist_misuse_remove_own_walk_node_reported(struct kunit *test)
{
	struct klist k;
	struct klist_node a = {};
	struct klist_iter iter;
	struct klist_node *n;

	klist_init(&k, NULL, NULL);
	klist_add_tail(&a, &k);
	klist_iter_init(&k, &iter);
	n = klist_next(&iter);
	KUNIT_ASSERT_PTR_EQ(test, n, &a);
	shim_set_hung_task_ms(200);
	shim_expect_hung_task("klist_remove", misuse_release_walk, &iter);
	klist_remove(n);	/* survives only because the hang is reported and rescued */
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&a));
	KUNIT_EXPECT_TRUE(test, list_empty(&k.k_list));
}

struct misuse_obj {
	struct klist_node kn;
	int id;
};

static void misuse_free_put(struct klist_node *n)
{
	kfree(container_of(n, struct misuse_obj, kn));
}

/* A walk left without klist_iter_exit pins its node forever: a leak. */
static void klist_misuse_walk_without_exit_leaks(struct kunit *test)
{
	struct klist k;
	struct misuse_obj *o[3];
	struct klist_iter iter;
	int i;

	klist_init(&k, NULL, misuse_free_put);
	for (i = 0; i < 3; i++) {
		o[i] = kzalloc(sizeof(*o[i]), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, o[i]);
		klist_add_tail(&o[i]->kn, &k);
	}
	klist_iter_init(&k, &iter);
	klist_next(&iter);
	klist_next(&iter);	/* stops on o[1] and forgets klist_iter_exit */
	for (i = 0; i < 3; i++)
		klist_del(&o[i]->kn);
	KUNIT_EXPECT_EQ(test, shim_live_allocs(), (size_t)1);
	KUNIT_EXPECT_TRUE(test, klist_node_attached(&o[1]->kn));
	shim_expect_leaks(1);	/* the end-of-test check reports exactly this one */
}

static void klist_misuse_null_arguments_reported(struct kunit *test)
{
	struct klist k;
	struct klist_node a = {};
	struct klist_iter iter;

	klist_init(&k, NULL, NULL);
	shim_expect_report("klist_add_tail()");
	shim_expect_report("klist_add_head()");
	shim_expect_report("klist_add_behind()");
	shim_expect_report("klist_add_before()");
	shim_expect_report("klist_del()");
	shim_expect_report("klist_remove()");
	shim_expect_report("klist_add_tail()");
	shim_expect_report("klist_add_head()");
	shim_expect_report("klist_add_behind()");
	shim_expect_report("klist_add_before()");
	klist_add_tail(NULL, &k);
	klist_add_head(&a, NULL);
	klist_add_behind(&a, NULL);
	klist_add_before(NULL, &a);
	klist_del(NULL);
	klist_remove(NULL);
	klist_add_tail(&a, NULL);
	klist_add_head(NULL, &k);
	klist_add_behind(NULL, &a);
	klist_add_before(&a, NULL);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 10);
	KUNIT_EXPECT_TRUE(test, list_empty(&k.k_list));
	klist_iter_init(&k, &iter);
	KUNIT_EXPECT_NULL(test, klist_next(&iter));
	klist_iter_exit(&iter);

	/* M4: the list, node and iterator arguments of the rest. */
	shim_expect_report("klist_init()");
	shim_expect_report("klist_node_attached()");
	shim_expect_report("klist_iter_init_node()");
	shim_expect_report("klist_next()");
	shim_expect_report("klist_prev()");
	shim_expect_report("klist_iter_exit()");
	klist_init(NULL, NULL, NULL);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(NULL));
	klist_iter_init_node(NULL, &iter, NULL);
	KUNIT_EXPECT_NULL(test, klist_next(NULL));
	KUNIT_EXPECT_NULL(test, klist_prev(NULL));
	klist_iter_exit(NULL);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 16);
}

static void klist_misuse_add_next_to_unlinked_node_reported(struct kunit *test)
{
	struct klist_node pos = {}, a = {};

	shim_expect_report("adding behind a node that is on no list");
	shim_expect_report("adding before a node that is on no list");
	klist_add_behind(&a, &pos);
	klist_add_before(&a, &pos);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&a));
}

static void klist_misuse_remove_in_atomic_reported(struct kunit *test)
{
	static DEFINE_SPINLOCK(outer);
	struct klist k;
	struct klist_node a = {};

	klist_init(&k, NULL, NULL);
	klist_add_tail(&a, &k);
	shim_expect_report("sleeping function called from invalid context");
	spin_lock(&outer);
	klist_remove(&a);	/* would sleep if anyone held it */
	spin_unlock(&outer);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&a));
}

static void klist_misuse_walk_from_node_of_other_list(struct kunit *test)
{
	struct klist k1, k2;
	struct klist_node a = {}, b = {};
	struct klist_iter iter;

	klist_init(&k1, NULL, NULL);
	klist_init(&k2, NULL, NULL);
	klist_add_tail(&a, &k1);
	klist_add_tail(&b, &k2);
	shim_expect_report("starts from a node of another list");
	klist_iter_init_node(&k1, &iter, &b);
	KUNIT_EXPECT_PTR_EQ(test, klist_next(&iter), &a);	/* from the head */
	klist_iter_exit(&iter);
	KUNIT_EXPECT_EQ(test, kref_read(&b.n_ref), 1U);
	klist_del(&a);
	klist_del(&b);
}

/*
 * X2, the node added while it was still on a list.
 *
 * klist_add_*() initialised the node and linked it, whatever it was: a
 * node still on a list, live or dead and held by a walk, was linked a
 * second time.  Its old neighbours kept pointing at it, so every node
 * after it on the old list was cut off (or, on the same list, the list
 * turned into a loop), and get() ran a second time for one node.  6.1
 * does the same; the port found it in review.
 *
 * The rule: a node is added zeroed, or once unlinked; adding a node
 * that is still on a list is reported and does nothing.
 *
 * tests/defects/klist/X2-add-of-linked-node.patch drops the check: the
 * walk no longer finds c, and get() runs four times.
 */
static atomic_t x2_gets;

static void x2_get(struct klist_node *n)
{
	atomic_inc(&x2_gets);
}

static void klist_x2_add_of_linked_node_reported(struct kunit *test)
{
	struct klist k, other;
	struct klist_node a = {}, b = {}, c = {};
	struct klist_iter walk, check;

	atomic_set(&x2_gets, 0);
	atomic_set(&misuse_puts, 0);
	klist_init(&k, x2_get, misuse_put);
	klist_init(&other, x2_get, misuse_put);
	klist_add_tail(&a, &k);
	klist_add_tail(&b, &k);
	klist_add_tail(&c, &k);
	shim_expect_report("adding node");	/* a, live, on its own list */
	shim_expect_report("adding node");	/* c, live, on another list */
	shim_expect_report("adding node");	/* b, dead, held by a walk */
	klist_add_tail(&a, &k);
	klist_add_head(&c, &other);

	klist_iter_init(&k, &walk);
	KUNIT_ASSERT_PTR_EQ(test, klist_next(&walk), &a);
	KUNIT_ASSERT_PTR_EQ(test, klist_next(&walk), &b);
	klist_del(&b);
	klist_add_behind(&b, &a);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&x2_gets), 3);

	/* Nothing moved: the walk goes on to c, a new one sees a and c. */
	KUNIT_EXPECT_PTR_EQ(test, klist_next(&walk), &c);
	klist_iter_exit(&walk);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&b));
	klist_iter_init(&k, &check);
	KUNIT_EXPECT_PTR_EQ(test, klist_next(&check), &a);
	KUNIT_EXPECT_PTR_EQ(test, klist_next(&check), &c);
	KUNIT_EXPECT_NULL(test, klist_next(&check));
	klist_iter_exit(&check);
	KUNIT_EXPECT_TRUE(test, list_empty(&other.k_list));

	/* Once unlinked, b may go on a list again: no report. */
	klist_add_tail(&b, &other);
	KUNIT_EXPECT_EQ(test, atomic_read(&x2_gets), 4);
	klist_remove(&a);
	klist_remove(&b);
	klist_remove(&c);
	KUNIT_EXPECT_EQ(test, atomic_read(&misuse_puts), 4);
	KUNIT_EXPECT_TRUE(test, list_empty(&k.k_list));
}

static struct kunit_case klist_userspace_test_cases[] = {
	KUNIT_CASE(klist_k6_release_never_touches_freed_node),
	KUNIT_CASE(klist_k6_readd_at_once_keeps_new_list),
	KUNIT_CASE(klist_k7_walk_safe_against_interrupt),
	KUNIT_CASE(klist_k7_irqs_stay_disabled),
	KUNIT_CASE(klist_misuse_double_del_reported),
	KUNIT_CASE(klist_misuse_del_of_released_node_reported),
	KUNIT_CASE(klist_misuse_remove_own_walk_node_reported),
	KUNIT_CASE(klist_misuse_walk_without_exit_leaks),
	KUNIT_CASE(klist_misuse_null_arguments_reported),
	KUNIT_CASE(klist_misuse_add_next_to_unlinked_node_reported),
	KUNIT_CASE(klist_misuse_remove_in_atomic_reported),
	KUNIT_CASE(klist_misuse_walk_from_node_of_other_list),
	KUNIT_CASE(klist_x2_add_of_linked_node_reported),
	{}
};

static struct kunit_suite klist_userspace_test_suite = {
	.name = "klist_userspace",
	.test_cases = klist_userspace_test_cases,
};

kunit_test_suites(&klist_userspace_test_suite);
