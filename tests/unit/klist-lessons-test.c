// SPDX-License-Identifier: GPL-2.0
/*
 * One regression test per lesson of the klist history (K1-K5, K8; the
 * lessons that need the shim's hooks, K6 and K7, are in the userspace
 * suite).  Each test is named after its lesson, tells its story in its
 * header and fails when the lesson is undone in lib/klist.c by the
 * defect patch it names (ctest -L defects checks that it does).  The
 * whole story of each lesson is in docs/lessons.md.  Shared with KUnit
 * in the kernel, so kernel APIs only: the tests that need a task to be
 * blocked in klist_remove() wait for that state, never for a fixed time.
 *
 * Local helpers and fixtures carry the kl_ prefix (for klist-lessons-test).
 */
#include <kunit/test.h>
#include <kunit/test-bug.h>
#include <linux/klist.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "klist-test-fixture.h"

struct kl_obj {
	struct kref ref;
	struct klist_node kn;
	int id;
	atomic_t *released;
};

static void kl_obj_release(struct kref *ref)
{
	struct kl_obj *o = container_of(ref, struct kl_obj, ref);

	atomic_inc(o->released);
	kfree(o);
}

static void kl_get(struct klist_node *n)
{
	kref_get(&container_of(n, struct kl_obj, kn)->ref);
}

static void kl_put(struct klist_node *n)
{
	kref_put(&container_of(n, struct kl_obj, kn)->ref, kl_obj_release);
}

struct kl_ctx {
	struct klist k;
	struct kl_obj *obj[4];
	atomic_t released;
};

/* A list of @n refcounted objects, pinned by the list's get/put. */
static struct kl_ctx *kl_setup(struct kunit *test, int n)
{
	struct kl_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, c);
	klist_init(&c->k, kl_get, kl_put);
	for (i = 0; i < n; i++) {
		c->obj[i] = kzalloc(sizeof(*c->obj[i]), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, c->obj[i]);
		kref_init(&c->obj[i]->ref);
		c->obj[i]->id = i;
		c->obj[i]->released = &c->released;
		klist_add_tail(&c->obj[i]->kn, &c->k);
	}
	return c;
}

/* Delete object @i from the list and drop its creator's reference. */
static void kl_drop(struct kl_ctx *c, int i)
{
	klist_del(&c->obj[i]->kn);
	kref_put(&c->obj[i]->ref, kl_obj_release);
}

static int kl_id(struct klist_node *n)
{
	return n ? container_of(n, struct kl_obj, kn)->id : -1;
}

/*
 * K1: starting a walk from a node takes a reference on it.
 *
 * The RFC's klist_iter_init_node() only stored the node; the walk's
 * first klist_next() then dropped a reference it never took.  So:
 *  1. node 1 is on the list with one reference, the list's;
 *  2. a walk starts from node 1 (no reference taken);
 *  3. its first step drops "its" reference on node 1: the count hits
 *     zero and node 1 is unlinked although nobody deleted it (a later
 *     klist_del() of it underflows).  A task deleting node 1 between 2
 *     and 3 frees it under the walk.
 * Here the walk must hold a second reference, and its step must drop
 * exactly that one.
 *
 * tests/defects/klist/K1-iter-init-node-takes-no-reference.patch undoes
 * it: the count is 1, and the step releases node 1 ("WARNING: at
 * klist.c ... klist_release()": released while not dead).
 */
static void klist_k1_iter_init_node_takes_reference(struct kunit *test)
{
	struct kl_ctx *c = kl_setup(test, 3);
	struct klist_node *start = &c->obj[1]->kn;
	struct klist_iter iter;

	klist_iter_init_node(&c->k, &iter, start);
	KUNIT_EXPECT_EQ(test, kref_read(&start->n_ref), 2U);
	KUNIT_EXPECT_EQ(test, kl_id(klist_next(&iter)), 2);
	/* The step dropped the walk's own reference, not the list's. */
	KUNIT_EXPECT_TRUE(test, klist_node_attached(start));
	KUNIT_EXPECT_EQ(test, kref_read(&start->n_ref), 1U);
	klist_iter_exit(&iter);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->released), 0);
	kl_drop(c, 0);
	kl_drop(c, 1);
	kl_drop(c, 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->released), 3);
}

/*
 * K2: a deleted node is never returned by a walk, even while held.
 *
 * In the RFC klist_del() only dropped a count; a node an iterator
 * still stood on stayed linked and visible.  So:
 *  1. walk A stands on node 1 (a bus walk standing on a device);
 *  2. node 1 is deleted (the device is unregistered): it stays linked,
 *     held by A;
 *  3. a new walk B (a driver registering, probing every device)
 *     returns node 1: a device that is going away gets probed.
 * Here walk B must not see node 1, and A must still step past it.
 *
 * tests/defects/klist/K2-walks-return-deleted-nodes.patch undoes it:
 * walk B sees 3 nodes, the deleted one among them.
 */
static void klist_k2_deleted_node_not_returned(struct kunit *test)
{
	struct kl_ctx *c = kl_setup(test, 3);
	struct klist_iter holder, walk;
	struct klist_node *n;
	int seen_deleted = 0, seen = 0;

	klist_iter_init(&c->k, &holder);
	klist_next(&holder);
	KUNIT_ASSERT_EQ(test, kl_id(klist_next(&holder)), 1);
	klist_del(&c->obj[1]->kn);

	klist_iter_init(&c->k, &walk);
	while ((n = klist_next(&walk))) {
		seen_deleted += n == &c->obj[1]->kn;
		seen++;
	}
	klist_iter_exit(&walk);
	KUNIT_EXPECT_EQ(test, seen_deleted, 0);
	KUNIT_EXPECT_EQ(test, seen, 2);
	/* The holder still steps past it correctly. */
	KUNIT_EXPECT_EQ(test, kl_id(klist_next(&holder)), 2);
	klist_iter_exit(&holder);
	kref_put(&c->obj[1]->ref, kl_obj_release);
	kl_drop(c, 0);
	kl_drop(c, 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->released), 3);
}

/*
 * K3: every task removing one node is woken when it goes.
 *
 * The RFC gave each node one completion, and its release called
 * complete(), which wakes one waiter:
 *  1. a walk holds node 0;
 *  2. remover 0 and remover 1 both klist_remove() node 0 and sleep;
 *  3. the walk moves on: the release wakes remover 0 only;
 *  4. remover 1 sleeps forever (the device core hangs).
 * Here both removers are seen waiting in klist_remove() before the walk
 * lets go, and both must return.
 *
 * tests/defects/klist/K3-release-wakes-one-remover.patch undoes it (the
 * release stops after the first waiter): "INFO: task kl-remover-1
 * blocked for more than 1000 ms in klist_remove".
 */
static void klist_k3_every_remover_woken(struct kunit *test)
{
	struct kl_ctx *c = kl_setup(test, 2);
	struct kfx_remover r[2];
	struct klist_iter holder;
	int i;

	klist_iter_init(&c->k, &holder);
	KUNIT_ASSERT_EQ(test, kl_id(klist_next(&holder)), 0);
	for (i = 0; i < 2; i++)
		kfx_start_remover(test, &r[i], &c->obj[0]->kn, "kl-remover", i);
	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_TRUE_MSG(test, kfx_remover_waiting(&r[i]),
				      "remover %d never waited", i);
		KUNIT_EXPECT_FALSE(test, completion_done(&r[i].done));
	}
	klist_iter_exit(&holder);
	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_NE_MSG(test, wait_for_completion_timeout(&r[i].done,
					msecs_to_jiffies(2000)), 0UL,
				    "remover %d was never woken", i);
		kfx_stop_remover(&r[i]);
	}
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&c->obj[0]->kn));
	kref_put(&c->obj[0]->ref, kl_obj_release);
	kl_drop(c, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->released), 2);
}

/*
 * K3: once klist_remove() returns, the node can be added again.
 *
 * The RFC's per-node completion was re-initialised by the next add, even
 * while a remover still waited on it.  Here the waiter lives on the
 * remover's stack, so a node removed while held by a walk (the remover
 * seen waiting first) is re-added and walked, three times over.
 */
static void klist_k3_readd_after_remove(struct kunit *test)
{
	struct kl_ctx *c = kl_setup(test, 2);
	struct klist_node *n = &c->obj[1]->kn;
	struct klist_iter holder, walk;
	struct kfx_remover r;
	int round, seen;

	for (round = 0; round < 3; round++) {
		klist_iter_init_node(&c->k, &holder, &c->obj[0]->kn);
		KUNIT_ASSERT_EQ(test, kl_id(klist_next(&holder)), 1);
		kfx_start_remover(test, &r, n, "kl-remover", round);
		KUNIT_EXPECT_TRUE(test, kfx_remover_waiting(&r));
		klist_iter_exit(&holder);
		KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&r.done,
					msecs_to_jiffies(2000)), 0UL);
		kfx_stop_remover(&r);
		KUNIT_EXPECT_FALSE(test, klist_node_attached(n));
		klist_add_tail(n, &c->k);
		seen = 0;
		klist_iter_init(&c->k, &walk);
		while (klist_next(&walk))
			seen++;
		klist_iter_exit(&walk);
		KUNIT_EXPECT_EQ(test, seen, 2);
	}
	kl_drop(c, 0);
	kl_drop(c, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->released), 2);
}

/*
 * K4: klist_node_attached() is true exactly while the node is linked.
 *
 * The RFC's put unlocked the list through n->n_klist after the put; once
 * the release clears n_klist (which klist_node_attached() needs):
 *  1. a walk holds node 0, and node 0 is deleted (dead, still linked);
 *  2. the walk ends: its put locks the list found through n_klist;
 *  3. the count hits zero: the release unlinks node 0, n_klist = NULL;
 *  4. the unlock reads n_klist again: NULL dereference.
 * Here node 0 must read attached while dead but linked, detached after
 * the walk's put, and the list must stay usable.
 *
 * tests/defects/klist/K4-unlock-through-cleared-list-pointer.patch undoes
 * it: SIGSEGV in the walk's klist_iter_exit().
 */
static void klist_k4_attached_exactly_while_linked(struct kunit *test)
{
	struct kl_ctx *c = kl_setup(test, 2);
	struct klist_node *n = &c->obj[0]->kn;
	struct klist_iter holder;

	KUNIT_EXPECT_TRUE(test, klist_node_attached(n));
	klist_iter_init(&c->k, &holder);
	KUNIT_ASSERT_PTR_EQ(test, klist_next(&holder), n);
	klist_del(n);
	KUNIT_EXPECT_TRUE(test, klist_node_attached(n));	/* dead, still linked */
	klist_iter_exit(&holder);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(n));
	/* The list is intact after a release: walk it and remove the rest. */
	klist_remove(&c->obj[1]->kn);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&c->obj[1]->kn));
	KUNIT_EXPECT_TRUE(test, list_empty(&c->k.k_list));
	kref_put(&c->obj[0]->ref, kl_obj_release);
	kref_put(&c->obj[1]->ref, kl_obj_release);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->released), 2);
}

static struct klist *k5_list;
static atomic_t k5_puts;

static void k5_checking_put(struct klist_node *n)
{
	/* put may sleep: it must run with the list lock dropped. */
	if (spin_is_locked(&k5_list->k_lock))
		kunit_fail_current_test("put called with the list lock held");
	might_sleep();
	atomic_inc(&k5_puts);
}

/*
 * K5: put runs after the final unlink, with the lock dropped.
 *
 * The put hook drops the embedding object's reference and may free it,
 * so it may sleep: called under k_lock (interrupts off) it sleeps in
 * atomic context.  Here each of the four ways a node can be let go (a
 * step, the walk's end, klist_del(), klist_remove()) runs put once, and
 * put finds the list lock free.
 *
 * tests/defects/klist/K5-put-called-under-list-lock.patch undoes it for
 * walk steps: "put called with the list lock held" and "BUG: sleeping
 * function called from invalid context".
 */
static void klist_k5_put_runs_unlocked(struct kunit *test)
{
	struct klist k;
	struct klist_node nodes[3] = {};
	struct klist_iter iter;
	int i;

	k5_list = &k;
	atomic_set(&k5_puts, 0);
	klist_init(&k, NULL, k5_checking_put);
	for (i = 0; i < 3; i++)
		klist_add_tail(&nodes[i], &k);
	klist_iter_init(&k, &iter);
	klist_next(&iter);
	klist_del(&nodes[0]);		/* put deferred to the walker's step */
	KUNIT_EXPECT_EQ(test, atomic_read(&k5_puts), 0);
	klist_next(&iter);		/* put from klist_next */
	KUNIT_EXPECT_EQ(test, atomic_read(&k5_puts), 1);
	klist_del(&nodes[1]);
	klist_iter_exit(&iter);		/* put from klist_iter_exit */
	KUNIT_EXPECT_EQ(test, atomic_read(&k5_puts), 2);
	klist_remove(&nodes[2]);	/* put from klist_remove */
	KUNIT_EXPECT_EQ(test, atomic_read(&k5_puts), 3);
}

/*
 * K5: a walker pins the object around its node, not just the node.
 *
 * Without get/put hooks (the RFC) an iterator pins the klist_node but
 * not the device it is embedded in:
 *  1. bus_for_each_dev() stands on device 0 and calls fn(device 0);
 *  2. device 0 is unregistered: klist_del() and its last put_device()
 *     free it, node included;
 *  3. the walk's next step reads device 0's node: use after free.
 * Here object 0 must survive its delete and its owner's put while the
 * walk stands on it, and go at the walk's next step.
 *
 * tests/defects/klist/K5-no-get-put-hooks.patch undoes it: object 0 is
 * freed at once (released == 1, its id reads garbage), then SIGSEGV.
 */
static void klist_k5_walker_pins_object(struct kunit *test)
{
	struct kl_ctx *c = kl_setup(test, 3);
	struct klist_iter iter;
	struct klist_node *n;

	klist_iter_init(&c->k, &iter);
	n = klist_next(&iter);
	KUNIT_ASSERT_EQ(test, kl_id(n), 0);
	/* Another thread would do this: unlink the object and drop its ref. */
	kl_drop(c, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->released), 0);
	KUNIT_EXPECT_EQ(test, kl_id(n), 0);	/* still valid memory */
	KUNIT_EXPECT_EQ(test, kl_id(klist_next(&iter)), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->released), 1);
	klist_iter_exit(&iter);
	kl_drop(c, 1);
	kl_drop(c, 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->released), 3);
}

static DEFINE_KLIST(k8_list, NULL, NULL);

struct k8_holder {
	struct klist k;
};

/*
 * K8: the whole 6.1 API exists and behaves: prev, add_behind/before,
 * initialisers.
 *
 * The RFC had no klist_prev(), klist_add_behind(), klist_add_before(),
 * KLIST_INIT() or DEFINE_KLIST(), all of which the 6.1 driver core uses.
 * Here each is used on a static and an embedded list.  There is no
 * defect patch: without them this file does not compile, and the kernel
 * series, whose booted driver core runs on this klist, would not build.
 */
static void klist_k8_full_6_1_api(struct kunit *test)
{
	static struct k8_holder h = { .k = KLIST_INIT(h.k, NULL, NULL) };
	struct klist_node a = {}, b = {}, c = {}, d = {};
	struct klist_iter iter;
	struct klist *lists[] = { &k8_list, &h.k };
	int i;

	for (i = 0; i < 2; i++) {
		struct klist *k = lists[i];

		klist_add_tail(&b, k);
		klist_add_before(&a, &b);
		klist_add_behind(&d, &b);
		klist_add_behind(&c, &b);
		klist_iter_init(k, &iter);
		KUNIT_EXPECT_PTR_EQ(test, klist_prev(&iter), &d);
		KUNIT_EXPECT_PTR_EQ(test, klist_prev(&iter), &c);
		KUNIT_EXPECT_PTR_EQ(test, klist_prev(&iter), &b);
		KUNIT_EXPECT_PTR_EQ(test, klist_prev(&iter), &a);
		KUNIT_EXPECT_NULL(test, klist_prev(&iter));
		klist_iter_exit(&iter);
		klist_remove(&a);
		klist_remove(&b);
		klist_remove(&c);
		klist_remove(&d);
		KUNIT_EXPECT_TRUE(test, list_empty(&k->k_list));
	}
}

static struct kunit_case klist_lessons_test_cases[] = {
	KUNIT_CASE(klist_k1_iter_init_node_takes_reference),
	KUNIT_CASE(klist_k2_deleted_node_not_returned),
	KUNIT_CASE(klist_k3_every_remover_woken),
	KUNIT_CASE(klist_k3_readd_after_remove),
	KUNIT_CASE(klist_k4_attached_exactly_while_linked),
	KUNIT_CASE(klist_k5_put_runs_unlocked),
	KUNIT_CASE(klist_k5_walker_pins_object),
	KUNIT_CASE(klist_k8_full_6_1_api),
	{}
};

static struct kunit_suite klist_lessons_test_suite = {
	.name = "klist_lessons",
	.test_cases = klist_lessons_test_cases,
};

kunit_test_suites(&klist_lessons_test_suite);

MODULE_LICENSE("GPL");
