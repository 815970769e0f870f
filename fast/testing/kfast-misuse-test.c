// SPDX-License-Identifier: GPL-2.0
/*
 * Misuse of the klist API on the fast flavour: in production nobody
 * aborts the program, so each misuse must be reported (a WARN, printed
 * once per site and counted) and survived with the list intact.  The
 * checked flavour's cases are in tests/unit/userspace/klist-userspace-
 * test.c; these say the same of klist-port-fast.  Each case announces
 * the WARNs it provokes: one more or one fewer fails it.
 */
#include <string.h>
#include <kunit/test.h>
#include <kfast/testing.h>
#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/klist.h>
#include <linux/kref.h>

static atomic_t misuse_puts;

static void count_put(struct klist_node *n)
{
	atomic_inc(&misuse_puts);
}

/* Nodes of @k, walked from the head; -1 if the walk loops. */
static int walk_count(struct klist *k)
{
	struct klist_iter iter;
	int n = 0;

	klist_iter_init(k, &iter);
	while (klist_next(&iter) && n < 100)
		n++;
	klist_iter_exit(&iter);
	return n < 100 ? n : -1;
}

static void kfast_misuse_double_del(struct kunit *test)
{
	struct klist_node a = {}, b = {};
	struct klist_iter iter;
	struct klist k;

	atomic_set(&misuse_puts, 0);
	klist_init(&k, NULL, count_put);
	klist_add_tail(&a, &k);
	klist_add_tail(&b, &k);
	klist_iter_init(&k, &iter);
	KUNIT_ASSERT_PTR_EQ(test, klist_next(&iter), &a);
	klist_del(&a);
	kfast_test_expect_warns(1);
	klist_del(&a);		/* "deleted twice": the count is left alone */
	KUNIT_EXPECT_EQ(test, kfast_test_warns(), 1UL);
	KUNIT_EXPECT_PTR_EQ(test, klist_next(&iter), &b);
	KUNIT_EXPECT_EQ(test, atomic_read(&misuse_puts), 1);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&a));
	klist_iter_exit(&iter);
	klist_del(&b);
	KUNIT_EXPECT_EQ(test, atomic_read(&misuse_puts), 2);
	KUNIT_EXPECT_EQ(test, walk_count(&k), 0);
}

static void kfast_misuse_del_and_remove_of_released_node(struct kunit *test)
{
	struct klist_node a = {};
	struct klist k;

	atomic_set(&misuse_puts, 0);
	klist_init(&k, NULL, count_put);
	klist_add_tail(&a, &k);
	klist_del(&a);
	kfast_test_expect_warns(1);
	klist_del(&a);		/* "on no list" */
	klist_remove(&a);	/* nothing to wait for, not a misuse */
	KUNIT_EXPECT_EQ(test, kfast_test_warns(), 1UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&misuse_puts), 1);
	KUNIT_EXPECT_EQ(test, walk_count(&k), 0);
}

/* X2: a node still on a list is not linked again. */
static void kfast_misuse_add_of_linked_node(struct kunit *test)
{
	struct klist_node a = {}, b = {};
	struct klist k, other;

	klist_init(&k, NULL, NULL);
	klist_init(&other, NULL, NULL);
	klist_add_tail(&a, &k);
	klist_add_tail(&b, &k);
	kfast_test_expect_warns(2);
	klist_add_head(&a, &k);
	klist_add_tail(&a, &other);
	KUNIT_EXPECT_EQ(test, kfast_test_warns(), 2UL);
	KUNIT_EXPECT_EQ(test, walk_count(&k), 2);
	KUNIT_EXPECT_EQ(test, walk_count(&other), 0);
	klist_del(&a);
	klist_del(&b);
	KUNIT_EXPECT_EQ(test, walk_count(&k), 0);
}

static void kfast_misuse_null_arguments(struct kunit *test)
{
	struct klist_node a = {};
	struct klist k;

	klist_init(&k, NULL, NULL);
	kfast_test_expect_warns(10);
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
	KUNIT_EXPECT_EQ(test, kfast_test_warns(), 10UL);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&a));
	KUNIT_EXPECT_EQ(test, walk_count(&k), 0);
}

static void kfast_misuse_add_next_to_unlinked_node(struct kunit *test)
{
	struct klist_node pos = {}, a = {};

	kfast_test_expect_warns(2);
	klist_add_behind(&a, &pos);
	klist_add_before(&a, &pos);
	KUNIT_EXPECT_EQ(test, kfast_test_warns(), 2UL);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&a));
}

static void kfast_misuse_walk_from_node_of_other_list(struct kunit *test)
{
	struct klist_node a = {}, b = {};
	struct klist_iter iter;
	struct klist k1, k2;

	klist_init(&k1, NULL, NULL);
	klist_init(&k2, NULL, NULL);
	klist_add_tail(&a, &k1);
	klist_add_tail(&b, &k2);
	kfast_test_expect_warns(1);
	klist_iter_init_node(&k2, &iter, &a);	/* reported: starts at k2's head */
	KUNIT_EXPECT_PTR_EQ(test, klist_next(&iter), &b);
	KUNIT_EXPECT_NULL(test, klist_next(&iter));
	klist_iter_exit(&iter);
	klist_del(&a);
	klist_del(&b);
}

/*
 * A remove of the node the caller's own walk stands on would wait for
 * that walk forever: reported, and done as a delete instead.
 */
static void kfast_misuse_remove_of_own_walks_node(struct kunit *test)
{
	struct klist_node a = {}, b = {};
	struct klist_iter iter;
	struct klist k;

	klist_init(&k, NULL, NULL);
	klist_add_tail(&a, &k);
	klist_add_tail(&b, &k);
	klist_iter_init(&k, &iter);
	KUNIT_ASSERT_PTR_EQ(test, klist_next(&iter), &a);
	kfast_test_expect_warns(1);
	klist_remove(&a);	/* returns: does not wait for itself */
	KUNIT_EXPECT_EQ(test, kfast_test_warns(), 1UL);
	KUNIT_EXPECT_TRUE(test, klist_node_attached(&a));	/* held by the walk */
	KUNIT_EXPECT_PTR_EQ(test, klist_next(&iter), &b);	/* a unlinked now */
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&a));
	klist_iter_exit(&iter);
	KUNIT_EXPECT_EQ(test, walk_count(&k), 1);
	klist_remove(&b);	/* no walk of ours holds it: no report */
	KUNIT_EXPECT_EQ(test, walk_count(&k), 0);
}

/* The kernel's refcount_t: a get from zero saturates and leaks, never frees. */
static int releases;

static void count_release(struct kref *kref)
{
	releases++;
}

static void kfast_misuse_refcount_saturates(struct kunit *test)
{
	struct kref r;

	releases = 0;
	kref_init(&r);
	KUNIT_EXPECT_EQ(test, kref_put(&r, count_release), 1);
	kfast_test_expect_warns(1);
	kref_get(&r);		/* addition on 0: use-after-free */
	KUNIT_EXPECT_EQ(test, kfast_test_warns(), 1UL);
	KUNIT_EXPECT_EQ(test, (int)kref_read(&r), REFCOUNT_SATURATED);
	kfast_test_expect_warns(1);	/* a put of a saturated count: as 6.1 */
	KUNIT_EXPECT_EQ(test, kref_put(&r, count_release), 0);
	KUNIT_EXPECT_EQ(test, kfast_test_warns(), 2UL);
	KUNIT_EXPECT_EQ(test, (int)kref_read(&r), REFCOUNT_SATURATED);
	KUNIT_EXPECT_EQ(test, releases, 1);
}

/* <klist-port/klist.h> declares it; <linux/klist.h>, the kernel's, not. */
int klist_fini(struct klist *k);

/*
 * M1: a remove of a node never added is reported; one of a node that
 * left its list (a second remove, a remove after a delete) is not: K3's
 * late remover looks the same.
 */
static void kfast_misuse_remove_of_never_added_node(struct kunit *test)
{
	struct klist_node a, b;
	struct klist k;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	atomic_set(&misuse_puts, 0);
	klist_init(&k, NULL, count_put);
	klist_add_tail(&b, &k);
	kfast_test_expect_warns(1);
	klist_remove(&a);
	KUNIT_EXPECT_EQ(test, kfast_test_warns(), 1UL);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&a));
	KUNIT_EXPECT_EQ(test, walk_count(&k), 1);
	klist_remove(&b);
	klist_remove(&b);	/* left its list: nothing to wait for */
	KUNIT_EXPECT_EQ(test, kfast_test_warns(), 1UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&misuse_puts), 1);
	KUNIT_EXPECT_EQ(test, klist_fini(&k), 0);
}

/* M2: a zeroed list never initialised: an add and a walk reported, no segfault. */
static void kfast_misuse_uninitialised_list(struct kunit *test)
{
	struct klist_node a;
	struct klist_iter iter;
	struct klist k;

	memset(&a, 0, sizeof(a));
	memset(&k, 0, sizeof(k));
	kfast_test_expect_warns(2);
	klist_add_tail(&a, &k);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&a));
	klist_iter_init(&k, &iter);
	KUNIT_EXPECT_NULL(test, klist_next(&iter));
	klist_iter_exit(&iter);
	KUNIT_EXPECT_EQ(test, kfast_test_warns(), 2UL);
	klist_init(&k, NULL, NULL);
	klist_add_tail(&a, &k);
	KUNIT_EXPECT_EQ(test, walk_count(&k), 1);
	klist_remove(&a);
	KUNIT_EXPECT_EQ(test, klist_fini(&k), 0);
}

/*
 * klist_fini() with nodes on the list, or a deleted one a walk holds:
 * reported, -EBUSY, the list as it was.  Empty: 0, and later adds and
 * walks reported until klist_init().
 */
static void kfast_misuse_fini_with_nodes(struct kunit *test)
{
	struct klist_node a, b;
	struct klist_iter iter;
	struct klist k;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	atomic_set(&misuse_puts, 0);
	klist_init(&k, NULL, count_put);
	klist_add_tail(&a, &k);
	klist_add_tail(&b, &k);
	kfast_test_expect_warns(1);
	KUNIT_EXPECT_EQ(test, klist_fini(&k), -EBUSY);
	KUNIT_EXPECT_EQ(test, kfast_test_warns(), 1UL);
	KUNIT_EXPECT_EQ(test, walk_count(&k), 2);
	klist_iter_init(&k, &iter);
	KUNIT_ASSERT_PTR_EQ(test, klist_next(&iter), &a);
	klist_del(&a);
	klist_del(&b);
	kfast_test_expect_warns(1);
	KUNIT_EXPECT_EQ(test, klist_fini(&k), -EBUSY);	/* a, held by the walk */
	KUNIT_EXPECT_EQ(test, kfast_test_warns(), 2UL);
	klist_iter_exit(&iter);
	KUNIT_EXPECT_EQ(test, klist_fini(&k), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&misuse_puts), 2);
	kfast_test_expect_warns(3);
	klist_add_tail(&a, &k);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&a));
	KUNIT_EXPECT_EQ(test, atomic_read(&misuse_puts), 3);	/* get() undone */
	KUNIT_EXPECT_EQ(test, walk_count(&k), 0);
	KUNIT_EXPECT_EQ(test, klist_fini(&k), -EINVAL);
	KUNIT_EXPECT_EQ(test, kfast_test_warns(), 5UL);
}

/*
 * M3: a step after klist_iter_exit() reported, NULL, no reference taken:
 * a later klist_remove() of the first node returns.
 */
static void kfast_misuse_step_after_exit(struct kunit *test)
{
	struct klist_node a = {}, b = {};
	struct klist_iter iter;
	struct klist k;

	klist_init(&k, NULL, NULL);
	klist_add_tail(&a, &k);
	klist_add_tail(&b, &k);
	klist_iter_init(&k, &iter);
	KUNIT_ASSERT_PTR_EQ(test, klist_next(&iter), &a);
	klist_iter_exit(&iter);
	kfast_test_expect_warns(2);
	KUNIT_EXPECT_NULL(test, klist_next(&iter));
	KUNIT_EXPECT_NULL(test, klist_prev(&iter));
	KUNIT_EXPECT_EQ(test, kfast_test_warns(), 2UL);
	klist_iter_exit(&iter);		/* harmless */
	klist_remove(&a);
	klist_remove(&b);
	KUNIT_EXPECT_EQ(test, walk_count(&k), 0);
	KUNIT_EXPECT_EQ(test, klist_fini(&k), 0);
}

/*
 * A node filled with a pattern (garbage, as from malloc()): its add is
 * reported and leaves it as it was, so klist_node_attached() says 1.
 */
static void kfast_misuse_add_of_garbage_node(struct kunit *test)
{
	struct klist_node a;
	struct klist k;

	memset(&a, 0xa5, sizeof(a));
	atomic_set(&misuse_puts, 0);
	klist_init(&k, NULL, count_put);
	kfast_test_expect_warns(1);
	klist_add_tail(&a, &k);
	KUNIT_EXPECT_EQ(test, kfast_test_warns(), 1UL);
	KUNIT_EXPECT_TRUE(test, klist_node_attached(&a));
	KUNIT_EXPECT_EQ(test, walk_count(&k), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&misuse_puts), 0);
	KUNIT_EXPECT_EQ(test, klist_fini(&k), 0);
}

static struct kunit_case kfast_misuse_cases[] = {
	KUNIT_CASE(kfast_misuse_double_del),
	KUNIT_CASE(kfast_misuse_del_and_remove_of_released_node),
	KUNIT_CASE(kfast_misuse_add_of_linked_node),
	KUNIT_CASE(kfast_misuse_null_arguments),
	KUNIT_CASE(kfast_misuse_add_next_to_unlinked_node),
	KUNIT_CASE(kfast_misuse_walk_from_node_of_other_list),
	KUNIT_CASE(kfast_misuse_remove_of_own_walks_node),
	KUNIT_CASE(kfast_misuse_refcount_saturates),
	KUNIT_CASE(kfast_misuse_remove_of_never_added_node),
	KUNIT_CASE(kfast_misuse_uninitialised_list),
	KUNIT_CASE(kfast_misuse_fini_with_nodes),
	KUNIT_CASE(kfast_misuse_step_after_exit),
	KUNIT_CASE(kfast_misuse_add_of_garbage_node),
	{}
};

static struct kunit_suite kfast_misuse_suite = {
	.name = "kfast_misuse",
	.test_cases = kfast_misuse_cases,
};

kunit_test_suite(kfast_misuse_suite);
