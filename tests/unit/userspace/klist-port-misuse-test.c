// SPDX-License-Identifier: GPL-2.0
/*
 * Misuse of klist that 6.1 passes over silently (or crashes on), each
 * reported by the checked flavour through the shim's report machinery
 * and survived, the list intact: a remove of a node never added (M1), a
 * list never initialised or already finished (M2), a walk stepped after
 * its exit (M3), a list finished while nodes remain (klist_fini(), a
 * klist-port addition), and what a failed add of a node that looks
 * linked leaves behind.  The fast flavour's twins are in
 * fast/testing/kfast-misuse-test.c.  Every node and list here starts
 * from memory the test set: zeroed, or filled with a pattern.
 * Userspace only.
 */
#include <kunit/test.h>
#include <linux/klist.h>
#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <shim/shim.h>

/* <klist-port/klist.h> declares it; <linux/klist.h>, the kernel's, not. */
int klist_fini(struct klist *k);

static atomic_t pm_gets, pm_puts;

static void pm_get(struct klist_node *n)
{
	atomic_inc(&pm_gets);
}

static void pm_put(struct klist_node *n)
{
	atomic_inc(&pm_puts);
}

static void pm_reset(void)
{
	atomic_set(&pm_gets, 0);
	atomic_set(&pm_puts, 0);
}

/* Nodes of @k, walked from the head; -1 if the walk loops. */
static int pm_count(struct klist *k)
{
	struct klist_iter iter;
	int n = 0;

	klist_iter_init(k, &iter);
	while (klist_next(&iter) && n < 100)
		n++;
	klist_iter_exit(&iter);
	return n < 100 ? n : -1;
}

/*
 * M1: klist_remove() of a node never added is reported (6.1 crashed on
 * it).  A remove of a node that was on a list and left it is not: that
 * is K3's late remover, or a remove after a delete, with nothing to wait
 * for.  Two removes in a row look the same as those, and are not
 * reported either (docs/library.md).
 * Defect: tests/defects/klist/M1-remove-of-never-added-node-silent.patch
 */
static void klist_port_misuse_remove_of_never_added_node(struct kunit *test)
{
	struct klist_node a, b;
	struct klist k;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	pm_reset();
	klist_init(&k, pm_get, pm_put);
	klist_add_tail(&b, &k);
	shim_expect_report("that was never added");
	klist_remove(&a);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&a));
	KUNIT_EXPECT_EQ(test, pm_count(&k), 1);

	/* Removed, then removed again, or deleted then removed: silent. */
	klist_remove(&b);
	klist_remove(&b);
	klist_add_tail(&b, &k);
	klist_del(&b);
	klist_remove(&b);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);

	/* Initialised again since: never added, as far as it can tell. */
	memset(&b, 0, sizeof(b));
	shim_expect_report("that was never added");
	klist_remove(&b);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&pm_gets), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&pm_puts), 2);
	KUNIT_EXPECT_EQ(test, pm_count(&k), 0);
	KUNIT_EXPECT_EQ(test, klist_fini(&k), 0);
}

/*
 * M2: an add to a list never passed to klist_init() is reported and
 * leaves node and list as they were (6.1, and the fast flavour before,
 * wrote through the zeroed head: a segfault).
 * Defect: tests/defects/klist/M2-add-to-uninitialised-list.patch
 */
static void klist_port_misuse_add_to_uninitialised_list(struct kunit *test)
{
	struct klist_node a;
	struct klist k;

	memset(&a, 0, sizeof(a));
	memset(&k, 0, sizeof(k));
	/*
	 * The shim sees the lock never initialised (at the lock and at the
	 * unlock); klist, the list.
	 */
	shim_expect_report("spinlock bad magic");
	shim_expect_report("spinlock bad magic");
	shim_expect_report("a list not initialised");
	klist_add_tail(&a, &k);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 3);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&a));
	KUNIT_EXPECT_NULL(test, k.k_list.next);

	/* Once initialised, the same node and list work. */
	klist_init(&k, NULL, NULL);
	klist_add_tail(&a, &k);
	KUNIT_EXPECT_EQ(test, pm_count(&k), 1);
	klist_del(&a);
	KUNIT_EXPECT_EQ(test, klist_fini(&k), 0);
}

/*
 * M2: a walk of a list never initialised is reported and returns
 * nothing (it read through the zeroed head).
 * Defect: tests/defects/klist/M2b-walk-of-uninitialised-list.patch
 */
static void klist_port_misuse_walk_of_uninitialised_list(struct kunit *test)
{
	struct klist_iter iter;
	struct klist k;

	memset(&k, 0, sizeof(k));
	klist_iter_init(&k, &iter);
	shim_expect_report("spinlock bad magic");
	shim_expect_report("spinlock bad magic");
	shim_expect_report("a list not initialised");
	KUNIT_EXPECT_NULL(test, klist_next(&iter));
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 3);
	klist_iter_exit(&iter);
}

/*
 * klist_fini(): with a node on the list, or a deleted one a walk still
 * holds, reported, -EBUSY, the list as it was.  Empty: 0, and from then
 * on an add or a walk of it is reported (M2) until klist_init() again;
 * the add's get() is undone by a put().
 */
static void klist_port_misuse_fini_with_nodes(struct kunit *test)
{
	struct klist_node a, b;
	struct klist_iter iter;
	struct klist k;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	pm_reset();
	klist_init(&k, pm_get, pm_put);
	klist_add_tail(&a, &k);
	klist_add_tail(&b, &k);
	shim_expect_report("with 2 nodes on it and 0 deleted");
	KUNIT_EXPECT_EQ(test, klist_fini(&k), -EBUSY);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
	KUNIT_EXPECT_EQ(test, pm_count(&k), 2);

	klist_iter_init(&k, &iter);
	KUNIT_ASSERT_PTR_EQ(test, klist_next(&iter), &a);
	klist_del(&a);
	klist_del(&b);
	shim_expect_report("with 0 nodes on it and 1 deleted");
	KUNIT_EXPECT_EQ(test, klist_fini(&k), -EBUSY);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 2);
	klist_iter_exit(&iter);

	KUNIT_EXPECT_EQ(test, klist_fini(&k), 0);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 2);
	shim_expect_report("a list not initialised (or finished)");
	klist_add_tail(&a, &k);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&a));
	KUNIT_EXPECT_EQ(test, atomic_read(&pm_gets), atomic_read(&pm_puts));
	shim_expect_report("a list not initialised (or finished)");
	klist_iter_init(&k, &iter);
	KUNIT_EXPECT_NULL(test, klist_next(&iter));
	klist_iter_exit(&iter);
	shim_expect_report("finishing");
	KUNIT_EXPECT_EQ(test, klist_fini(&k), -EINVAL);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 5);

	klist_init(&k, pm_get, pm_put);
	klist_add_tail(&a, &k);
	KUNIT_EXPECT_EQ(test, pm_count(&k), 1);
	klist_remove(&a);
	KUNIT_EXPECT_EQ(test, klist_fini(&k), 0);
}

/*
 * M3: klist_next() or klist_prev() after klist_iter_exit() is reported
 * and returns NULL; in 6.1 it started over at the head and took a
 * reference that nobody dropped, so a later klist_remove() of that node
 * slept forever.  A second exit stays harmless.
 * Defect: tests/defects/klist/M3-step-after-exit-restarts.patch
 */
static void klist_port_misuse_step_after_exit(struct kunit *test)
{
	struct klist_node a, b;
	struct klist_iter iter;
	struct klist k;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	klist_init(&k, NULL, NULL);
	klist_add_tail(&a, &k);
	klist_add_tail(&b, &k);
	klist_iter_init(&k, &iter);
	KUNIT_ASSERT_PTR_EQ(test, klist_next(&iter), &a);
	klist_iter_exit(&iter);
	shim_expect_report("stepped after klist_iter_exit()");
	shim_expect_report("stepped after klist_iter_exit()");
	KUNIT_EXPECT_NULL(test, klist_next(&iter));
	KUNIT_EXPECT_NULL(test, klist_prev(&iter));
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 2);
	klist_iter_exit(&iter);
	KUNIT_EXPECT_NULL(test, iter.i_cur);
	/* Nobody holds a or b: both removes return at once. */
	klist_remove(&a);
	klist_remove(&b);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&a));
	KUNIT_EXPECT_EQ(test, klist_fini(&k), 0);
}

/*
 * An add of a node that looks linked (here: filled with a pattern, as
 * malloc()'s garbage may be) is reported and leaves the node as it was:
 * klist_node_attached() answers from what the node holds, 1, as
 * <klist-port/klist.h> says; the list does not change.  Once
 * initialised the node adds normally.
 * Defect: tests/defects/klist/X2-add-of-linked-node.patch
 */
static void klist_port_misuse_add_of_garbage_node(struct kunit *test)
{
	struct klist_node a;
	struct klist k;

	memset(&a, 0xa5, sizeof(a));
	pm_reset();
	klist_init(&k, pm_get, pm_put);
	shim_expect_report("adding node");
	klist_add_tail(&a, &k);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
	KUNIT_EXPECT_TRUE(test, klist_node_attached(&a));
	KUNIT_EXPECT_EQ(test, pm_count(&k), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&pm_gets), 0);

	memset(&a, 0, sizeof(a));
	klist_add_tail(&a, &k);
	KUNIT_EXPECT_EQ(test, pm_count(&k), 1);
	klist_remove(&a);
	KUNIT_EXPECT_EQ(test, klist_fini(&k), 0);
}

static struct kunit_case klist_port_misuse_cases[] = {
	KUNIT_CASE(klist_port_misuse_remove_of_never_added_node),
	KUNIT_CASE(klist_port_misuse_add_to_uninitialised_list),
	KUNIT_CASE(klist_port_misuse_walk_of_uninitialised_list),
	KUNIT_CASE(klist_port_misuse_fini_with_nodes),
	KUNIT_CASE(klist_port_misuse_step_after_exit),
	KUNIT_CASE(klist_port_misuse_add_of_garbage_node),
	{}
};

static struct kunit_suite klist_port_misuse_suite = {
	.name = "klist_port_misuse",
	.test_cases = klist_port_misuse_cases,
};

kunit_test_suites(&klist_port_misuse_suite);
