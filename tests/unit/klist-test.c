// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for klist: every exported function and documented
 * behaviour.  The same file runs under KUnit in the kernel and under
 * Check in userspace (on the shim), so it uses kernel APIs only.
 *
 * Local helpers and fixtures carry the kt_ prefix (for klist-test).
 */
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

#include "klist-test-fixture.h"

#define NODES 8

struct kt_node {
	int id;
	struct klist_node kn;
};

struct kt_list {
	struct klist k;
	struct kt_node nodes[NODES];
	atomic_t gets, puts;
	int put_order[NODES];
};

static struct kt_list *to_kt_list(struct klist_node *n)
{
	struct kt_node *node = container_of(n, struct kt_node, kn);

	return container_of(node - node->id, struct kt_list, nodes[0]);
}

static void kt_get(struct klist_node *n)
{
	atomic_inc(&to_kt_list(n)->gets);
}

static void kt_put(struct klist_node *n)
{
	struct kt_list *l = to_kt_list(n);
	int i = atomic_inc_return(&l->puts) - 1;

	if (i < NODES)
		l->put_order[i] = container_of(n, struct kt_node, kn)->id;
}

/* A list with counting get/put, nodes not yet added. */
static struct kt_list *kt_new(struct kunit *test)
{
	struct kt_list *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, l);
	klist_init(&l->k, kt_get, kt_put);
	for (i = 0; i < NODES; i++)
		l->nodes[i].id = i;
	return l;
}

/* A list holding nodes 0..n-1 in order. */
static struct kt_list *kt_filled(struct kunit *test, int n)
{
	struct kt_list *l = kt_new(test);
	int i;

	for (i = 0; i < n; i++)
		klist_add_tail(&l->nodes[i].kn, &l->k);
	return l;
}

static int kt_id(struct klist_node *n)
{
	return n ? container_of(n, struct kt_node, kn)->id : -1;
}

/* Walk the whole list from @start and record the ids seen. */
static int kt_walk(struct klist *k, struct klist_node *start, bool forward,
		   int *ids, int max)
{
	struct klist_iter iter;
	struct klist_node *n;
	int count = 0;

	klist_iter_init_node(k, &iter, start);
	while ((n = forward ? klist_next(&iter) : klist_prev(&iter))) {
		if (count < max)
			ids[count] = kt_id(n);
		count++;
	}
	klist_iter_exit(&iter);
	return count;
}

static void kt_expect_ids(struct kunit *test, struct klist *k, bool forward,
			  const int *want, int n)
{
	int ids[NODES * 2], got, i;

	got = kt_walk(k, NULL, forward, ids, ARRAY_SIZE(ids));
	KUNIT_EXPECT_EQ(test, got, n);
	for (i = 0; i < n && i < got; i++)
		KUNIT_EXPECT_EQ_MSG(test, ids[i], want[i], "position %d", i);
}

static void kt_del_all(struct kt_list *l, int n)
{
	int i;

	for (i = 0; i < n; i++)
		klist_del(&l->nodes[i].kn);
}

static void klist_test_init_empty(struct kunit *test)
{
	struct kt_list *l = kt_new(test);
	struct klist_iter iter;

	klist_iter_init(&l->k, &iter);
	KUNIT_EXPECT_NULL(test, klist_next(&iter));
	KUNIT_EXPECT_NULL(test, klist_prev(&iter));
	klist_iter_exit(&iter);
	KUNIT_EXPECT_TRUE(test, list_empty(&l->k.k_list));
	KUNIT_EXPECT_PTR_EQ(test, l->k.get, &kt_get);
	KUNIT_EXPECT_PTR_EQ(test, l->k.put, &kt_put);
}

static DEFINE_KLIST(kt_static_list, NULL, NULL);

static void klist_test_define_klist(struct kunit *test)
{
	struct kt_node a = { .id = 0 }, b = { .id = 1 };
	static const int want[] = { 1, 0 };

	KUNIT_EXPECT_NULL(test, kt_static_list.get);
	klist_add_tail(&a.kn, &kt_static_list);
	klist_add_head(&b.kn, &kt_static_list);
	kt_expect_ids(test, &kt_static_list, true, want, 2);
	klist_del(&a.kn);
	klist_del(&b.kn);
	KUNIT_EXPECT_TRUE(test, list_empty(&kt_static_list.k_list));
}

struct kt_holder {
	int before;
	struct klist k;
	int after;
};

static void klist_test_klist_init_macro(struct kunit *test)
{
	static struct kt_holder h = {
		.before = 1, .k = KLIST_INIT(h.k, NULL, NULL), .after = 2,
	};
	struct kt_node a = { .id = 3 };
	static const int want[] = { 3 };

	klist_add_tail(&a.kn, &h.k);
	kt_expect_ids(test, &h.k, true, want, 1);
	klist_del(&a.kn);
	KUNIT_EXPECT_EQ(test, h.before + h.after, 3);
}

static void klist_test_add_tail_order(struct kunit *test)
{
	struct kt_list *l = kt_filled(test, 4);
	static const int want[] = { 0, 1, 2, 3 };

	kt_expect_ids(test, &l->k, true, want, 4);
	KUNIT_EXPECT_EQ(test, atomic_read(&l->gets), 4);
	kt_del_all(l, 4);
}

static void klist_test_add_head_order(struct kunit *test)
{
	struct kt_list *l = kt_new(test);
	static const int want[] = { 3, 2, 1, 0 };
	int i;

	for (i = 0; i < 4; i++)
		klist_add_head(&l->nodes[i].kn, &l->k);
	kt_expect_ids(test, &l->k, true, want, 4);
	kt_del_all(l, 4);
}

static void klist_test_add_behind(struct kunit *test)
{
	struct kt_list *l = kt_filled(test, 3);
	static const int want[] = { 0, 5, 1, 2, 6 };

	klist_add_behind(&l->nodes[5].kn, &l->nodes[0].kn);
	klist_add_behind(&l->nodes[6].kn, &l->nodes[2].kn);	/* after the last */
	kt_expect_ids(test, &l->k, true, want, 5);
	KUNIT_EXPECT_EQ(test, atomic_read(&l->gets), 5);
	kt_del_all(l, 3);
	klist_del(&l->nodes[5].kn);
	klist_del(&l->nodes[6].kn);
}

static void klist_test_add_before(struct kunit *test)
{
	struct kt_list *l = kt_filled(test, 3);
	static const int want[] = { 5, 0, 1, 6, 2 };

	klist_add_before(&l->nodes[5].kn, &l->nodes[0].kn);	/* before the first */
	klist_add_before(&l->nodes[6].kn, &l->nodes[2].kn);
	kt_expect_ids(test, &l->k, true, want, 5);
	kt_del_all(l, 3);
	klist_del(&l->nodes[5].kn);
	klist_del(&l->nodes[6].kn);
}

static void klist_test_add_behind_dead_held_node(struct kunit *test)
{
	struct kt_list *l = kt_filled(test, 3);
	struct klist_iter iter;
	static const int want[] = { 0, 4, 2 };

	/* A walker keeps node 1 linked after its delete; it is still a position. */
	klist_iter_init_node(&l->k, &iter, &l->nodes[0].kn);
	KUNIT_ASSERT_EQ(test, kt_id(klist_next(&iter)), 1);
	klist_del(&l->nodes[1].kn);
	klist_add_behind(&l->nodes[4].kn, &l->nodes[1].kn);
	klist_iter_exit(&iter);
	kt_expect_ids(test, &l->k, true, want, 3);
	klist_del(&l->nodes[0].kn);
	klist_del(&l->nodes[2].kn);
	klist_del(&l->nodes[4].kn);
}

static void klist_test_walk_forward(struct kunit *test)
{
	struct kt_list *l = kt_filled(test, NODES);
	static const int want[NODES] = { 0, 1, 2, 3, 4, 5, 6, 7 };

	kt_expect_ids(test, &l->k, true, want, NODES);
	kt_del_all(l, NODES);
}

static void klist_test_walk_backward(struct kunit *test)
{
	struct kt_list *l = kt_filled(test, NODES);
	static const int want[NODES] = { 7, 6, 5, 4, 3, 2, 1, 0 };

	kt_expect_ids(test, &l->k, false, want, NODES);
	kt_del_all(l, NODES);
}

static void klist_test_walk_change_direction(struct kunit *test)
{
	struct kt_list *l = kt_filled(test, 4);
	struct klist_iter iter;

	klist_iter_init(&l->k, &iter);
	KUNIT_EXPECT_EQ(test, kt_id(klist_next(&iter)), 0);
	KUNIT_EXPECT_EQ(test, kt_id(klist_next(&iter)), 1);
	KUNIT_EXPECT_EQ(test, kt_id(klist_next(&iter)), 2);
	KUNIT_EXPECT_EQ(test, kt_id(klist_prev(&iter)), 1);
	KUNIT_EXPECT_EQ(test, kt_id(klist_prev(&iter)), 0);
	KUNIT_EXPECT_EQ(test, kt_id(klist_prev(&iter)), -1);
	klist_iter_exit(&iter);
	kt_del_all(l, 4);
}

static void klist_test_walk_restarts_after_end(struct kunit *test)
{
	struct kt_list *l = kt_filled(test, 2);
	struct klist_iter iter;

	/* An iterator that ran off the end stands nowhere: it starts over. */
	klist_iter_init(&l->k, &iter);
	KUNIT_EXPECT_EQ(test, kt_id(klist_next(&iter)), 0);
	KUNIT_EXPECT_EQ(test, kt_id(klist_next(&iter)), 1);
	KUNIT_EXPECT_NULL(test, klist_next(&iter));
	KUNIT_EXPECT_EQ(test, kt_id(klist_next(&iter)), 0);
	klist_iter_exit(&iter);
	kt_del_all(l, 2);
}

static void klist_test_walk_from_live_node(struct kunit *test)
{
	struct kt_list *l = kt_filled(test, 5);
	int ids[NODES], n;

	n = kt_walk(&l->k, &l->nodes[1].kn, true, ids, NODES);
	KUNIT_ASSERT_EQ(test, n, 3);
	KUNIT_EXPECT_EQ(test, ids[0], 2);
	KUNIT_EXPECT_EQ(test, ids[2], 4);
	n = kt_walk(&l->k, &l->nodes[3].kn, false, ids, NODES);
	KUNIT_ASSERT_EQ(test, n, 3);
	KUNIT_EXPECT_EQ(test, ids[0], 2);
	KUNIT_EXPECT_EQ(test, ids[2], 0);
	kt_del_all(l, 5);
}

static void klist_test_walk_from_released_node(struct kunit *test)
{
	struct kt_list *l = kt_filled(test, 3);
	int ids[NODES], n;

	klist_del(&l->nodes[1].kn);
	KUNIT_ASSERT_FALSE(test, klist_node_attached(&l->nodes[1].kn));
	/* The start node is gone: the walk starts at the head. */
	n = kt_walk(&l->k, &l->nodes[1].kn, true, ids, NODES);
	KUNIT_ASSERT_EQ(test, n, 2);
	KUNIT_EXPECT_EQ(test, ids[0], 0);
	KUNIT_EXPECT_EQ(test, ids[1], 2);
	klist_del(&l->nodes[0].kn);
	klist_del(&l->nodes[2].kn);
}

/*
 * K1 (docs/lessons.md), corrected to follow 6.1: a walk started from a
 * node that was deleted but is still linked, because another walk holds
 * it, takes its own reference on it and continues after it, both ways.
 * It must not restart at the head: loops of the bus_find_device(start)
 * kind resume after the last node they returned and would see the
 * nodes before it again.  Only a node already unlinked (count zero)
 * starts the walk at the head; klist_test_walk_from_released_node.
 */
static void klist_test_walk_from_dead_held_node(struct kunit *test)
{
	struct kt_list *l = kt_filled(test, 3);
	struct klist_node *dead = &l->nodes[1].kn;
	struct klist_iter hold, iter;
	int ids[NODES], n;

	klist_iter_init_node(&l->k, &hold, &l->nodes[0].kn);
	KUNIT_ASSERT_EQ(test, kt_id(klist_next(&hold)), 1);
	klist_del(dead);
	/* Dead, but linked: the holder's count is the only one left. */
	KUNIT_ASSERT_TRUE(test, klist_node_attached(dead));
	KUNIT_ASSERT_EQ(test, kref_read(&dead->n_ref), 1U);

	/* The walk's own reference on the start node, dropped by its step. */
	klist_iter_init_node(&l->k, &iter, dead);
	KUNIT_EXPECT_PTR_EQ(test, iter.i_cur, dead);
	KUNIT_EXPECT_EQ(test, kref_read(&dead->n_ref), 2U);
	KUNIT_EXPECT_EQ(test, kt_id(klist_next(&iter)), 2);
	KUNIT_EXPECT_EQ(test, kref_read(&dead->n_ref), 1U);
	KUNIT_EXPECT_NULL(test, klist_next(&iter));
	klist_iter_exit(&iter);

	n = kt_walk(&l->k, dead, true, ids, NODES);
	KUNIT_EXPECT_EQ(test, n, 1);
	KUNIT_EXPECT_EQ(test, ids[0], 2);
	n = kt_walk(&l->k, dead, false, ids, NODES);
	KUNIT_EXPECT_EQ(test, n, 1);
	KUNIT_EXPECT_EQ(test, ids[0], 0);

	/* None of those walks released it: the holder's exit does. */
	KUNIT_EXPECT_TRUE(test, klist_node_attached(dead));
	KUNIT_EXPECT_EQ(test, atomic_read(&l->puts), 0);
	klist_iter_exit(&hold);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(dead));
	KUNIT_EXPECT_EQ(test, atomic_read(&l->puts), 1);
	klist_del(&l->nodes[0].kn);
	klist_del(&l->nodes[2].kn);
}

static void klist_test_walk_from_null_node(struct kunit *test)
{
	struct kt_list *l = kt_filled(test, 2);
	struct klist_iter iter;

	klist_iter_init_node(&l->k, &iter, NULL);
	KUNIT_EXPECT_PTR_EQ(test, iter.i_klist, &l->k);
	KUNIT_EXPECT_NULL(test, iter.i_cur);
	KUNIT_EXPECT_EQ(test, kt_id(klist_next(&iter)), 0);
	klist_iter_exit(&iter);
	kt_del_all(l, 2);
}

static void klist_test_dead_nodes_skipped(struct kunit *test)
{
	struct kt_list *l = kt_filled(test, 5);
	struct klist_iter h1, h3;
	static const int want[] = { 0, 2, 4 };
	static const int want_back[] = { 4, 2, 0 };

	/* Hold 1 and 3 so their deletes leave them linked but dead. */
	klist_iter_init_node(&l->k, &h1, &l->nodes[0].kn);
	klist_next(&h1);
	klist_iter_init_node(&l->k, &h3, &l->nodes[2].kn);
	klist_next(&h3);
	klist_del(&l->nodes[1].kn);
	klist_del(&l->nodes[3].kn);
	KUNIT_EXPECT_TRUE(test, klist_node_attached(&l->nodes[1].kn));
	kt_expect_ids(test, &l->k, true, want, 3);
	kt_expect_ids(test, &l->k, false, want_back, 3);
	klist_iter_exit(&h1);
	klist_iter_exit(&h3);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&l->nodes[1].kn));
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&l->nodes[3].kn));
	klist_del(&l->nodes[0].kn);
	klist_del(&l->nodes[2].kn);
	klist_del(&l->nodes[4].kn);
}

static void klist_test_walker_steps_past_deleted_node(struct kunit *test)
{
	struct kt_list *l = kt_filled(test, 4);
	struct klist_iter iter;

	klist_iter_init(&l->k, &iter);
	KUNIT_ASSERT_EQ(test, kt_id(klist_next(&iter)), 0);
	KUNIT_ASSERT_EQ(test, kt_id(klist_next(&iter)), 1);
	klist_del(&l->nodes[1].kn);	/* the node we stand on */
	klist_del(&l->nodes[2].kn);	/* and the one after it */
	KUNIT_EXPECT_EQ(test, kt_id(klist_next(&iter)), 3);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&l->nodes[1].kn));
	KUNIT_EXPECT_NULL(test, klist_next(&iter));
	klist_iter_exit(&iter);
	klist_del(&l->nodes[0].kn);
	klist_del(&l->nodes[3].kn);
	KUNIT_EXPECT_EQ(test, atomic_read(&l->puts), 4);
}

static void klist_test_delete_each_node_during_walk(struct kunit *test)
{
	struct kt_list *l = kt_filled(test, NODES);
	struct klist_iter iter;
	struct klist_node *n;
	int seen = 0;

	klist_iter_init(&l->k, &iter);
	while ((n = klist_next(&iter))) {
		klist_del(n);
		seen++;
	}
	klist_iter_exit(&iter);
	KUNIT_EXPECT_EQ(test, seen, NODES);
	KUNIT_EXPECT_EQ(test, atomic_read(&l->puts), NODES);
	KUNIT_EXPECT_TRUE(test, list_empty(&l->k.k_list));
}

static void klist_test_all_deleted_under_walker(struct kunit *test)
{
	struct kt_list *l = kt_filled(test, 4);
	struct klist_iter iter;

	klist_iter_init(&l->k, &iter);
	KUNIT_ASSERT_EQ(test, kt_id(klist_next(&iter)), 0);
	kt_del_all(l, 4);
	KUNIT_EXPECT_EQ(test, atomic_read(&l->puts), 3);
	KUNIT_EXPECT_NULL(test, klist_next(&iter));
	KUNIT_EXPECT_EQ(test, atomic_read(&l->puts), 4);
	KUNIT_EXPECT_TRUE(test, list_empty(&l->k.k_list));
	klist_iter_exit(&iter);
}

static void klist_test_del_unheld_unlinks_at_once(struct kunit *test)
{
	struct kt_list *l = kt_filled(test, 3);
	static const int want[] = { 0, 2 };

	klist_del(&l->nodes[1].kn);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&l->nodes[1].kn));
	KUNIT_EXPECT_EQ(test, atomic_read(&l->puts), 1);
	KUNIT_EXPECT_EQ(test, l->put_order[0], 1);
	kt_expect_ids(test, &l->k, true, want, 2);
	klist_del(&l->nodes[0].kn);
	klist_del(&l->nodes[2].kn);
}

static void klist_test_node_attached(struct kunit *test)
{
	struct kt_list *l = kt_new(test);
	struct klist_node *n = &l->nodes[0].kn;

	KUNIT_EXPECT_FALSE(test, klist_node_attached(n));	/* zeroed */
	klist_add_tail(n, &l->k);
	KUNIT_EXPECT_TRUE(test, klist_node_attached(n));
	klist_del(n);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(n));
	klist_add_head(n, &l->k);
	KUNIT_EXPECT_TRUE(test, klist_node_attached(n));
	klist_remove(n);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(n));
}

static void klist_test_get_put_counts(struct kunit *test)
{
	struct kt_list *l = kt_filled(test, NODES);

	KUNIT_EXPECT_EQ(test, atomic_read(&l->gets), NODES);
	KUNIT_EXPECT_EQ(test, atomic_read(&l->puts), 0);
	kt_del_all(l, NODES);
	KUNIT_EXPECT_EQ(test, atomic_read(&l->puts), NODES);
	KUNIT_EXPECT_EQ(test, l->put_order[0], 0);
	KUNIT_EXPECT_EQ(test, l->put_order[NODES - 1], NODES - 1);
}

static void klist_test_no_callbacks(struct kunit *test)
{
	struct klist k;
	struct kt_node a = { .id = 0 };
	struct klist_iter iter;

	klist_init(&k, NULL, NULL);
	klist_add_tail(&a.kn, &k);
	klist_iter_init(&k, &iter);
	KUNIT_EXPECT_PTR_EQ(test, klist_next(&iter), &a.kn);
	klist_del(&a.kn);
	KUNIT_EXPECT_NULL(test, klist_next(&iter));
	klist_iter_exit(&iter);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&a.kn));
}

static void klist_test_put_waits_for_walker(struct kunit *test)
{
	struct kt_list *l = kt_filled(test, 3);
	struct klist_iter iter;

	klist_iter_init(&l->k, &iter);
	KUNIT_ASSERT_EQ(test, kt_id(klist_next(&iter)), 0);
	klist_del(&l->nodes[0].kn);
	KUNIT_EXPECT_EQ(test, atomic_read(&l->puts), 0);
	KUNIT_EXPECT_EQ(test, kt_id(klist_next(&iter)), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&l->puts), 1);
	klist_del(&l->nodes[1].kn);
	KUNIT_EXPECT_EQ(test, atomic_read(&l->puts), 1);
	klist_iter_exit(&iter);	/* the last reference goes at exit */
	KUNIT_EXPECT_EQ(test, atomic_read(&l->puts), 2);
	klist_del(&l->nodes[2].kn);
}

static void klist_test_iter_exit_twice(struct kunit *test)
{
	struct kt_list *l = kt_filled(test, 2);
	struct klist_iter iter;

	klist_iter_init(&l->k, &iter);
	klist_iter_exit(&iter);		/* never stepped */
	klist_iter_init(&l->k, &iter);
	klist_next(&iter);
	klist_iter_exit(&iter);
	KUNIT_EXPECT_NULL(test, iter.i_cur);
	klist_iter_exit(&iter);		/* harmless */
	kt_del_all(l, 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&l->puts), 2);
}

static void klist_test_nested_walks(struct kunit *test)
{
	struct kt_list *l = kt_filled(test, 4);
	struct klist_iter outer, inner;
	struct klist_node *a, *b;
	int pairs = 0;

	klist_iter_init(&l->k, &outer);
	while ((a = klist_next(&outer))) {
		klist_iter_init_node(&l->k, &inner, a);
		while ((b = klist_next(&inner)))
			pairs += kt_id(b) > kt_id(a);
		klist_iter_exit(&inner);
	}
	klist_iter_exit(&outer);
	KUNIT_EXPECT_EQ(test, pairs, 6);	/* 4 choose 2 */
	kt_del_all(l, 4);
}

static void klist_test_walk_sees_nodes_added_ahead(struct kunit *test)
{
	struct kt_list *l = kt_filled(test, 2);
	struct klist_iter iter;

	klist_iter_init(&l->k, &iter);
	KUNIT_ASSERT_EQ(test, kt_id(klist_next(&iter)), 0);
	klist_add_head(&l->nodes[5].kn, &l->k);	/* behind us: not seen */
	klist_add_tail(&l->nodes[6].kn, &l->k);	/* ahead of us: seen */
	KUNIT_EXPECT_EQ(test, kt_id(klist_next(&iter)), 1);
	KUNIT_EXPECT_EQ(test, kt_id(klist_next(&iter)), 6);
	KUNIT_EXPECT_NULL(test, klist_next(&iter));
	klist_iter_exit(&iter);
	kt_del_all(l, 2);
	klist_del(&l->nodes[5].kn);
	klist_del(&l->nodes[6].kn);
}

static void klist_test_remove_unheld(struct kunit *test)
{
	struct kt_list *l = kt_filled(test, 3);
	static const int want[] = { 0, 2 };

	klist_remove(&l->nodes[1].kn);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&l->nodes[1].kn));
	KUNIT_EXPECT_EQ(test, atomic_read(&l->puts), 1);
	kt_expect_ids(test, &l->k, true, want, 2);
	klist_remove(&l->nodes[0].kn);
	klist_remove(&l->nodes[2].kn);
	KUNIT_EXPECT_TRUE(test, list_empty(&l->k.k_list));
}

static void klist_test_remove_waits_for_walker(struct kunit *test)
{
	struct kt_list *l = kt_filled(test, 3);
	struct kfx_remover r;
	struct klist_iter iter;

	klist_iter_init_node(&l->k, &iter, &l->nodes[0].kn);
	KUNIT_ASSERT_EQ(test, kt_id(klist_next(&iter)), 1);
	kfx_start_remover(test, &r, &l->nodes[1].kn, "kt-remover", 0);
	KUNIT_EXPECT_TRUE(test, kfx_remover_waiting(&r));
	KUNIT_EXPECT_FALSE(test, completion_done(&r.done));
	KUNIT_EXPECT_TRUE(test, klist_node_attached(&l->nodes[1].kn));
	KUNIT_EXPECT_EQ(test, atomic_read(&l->puts), 0);
	klist_iter_exit(&iter);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&r.done, msecs_to_jiffies(2000)), 0UL);
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&l->nodes[1].kn));
	KUNIT_EXPECT_EQ(test, atomic_read(&l->puts), 1);
	kfx_stop_remover(&r);
	klist_del(&l->nodes[0].kn);
	klist_del(&l->nodes[2].kn);
}

static void klist_test_removers_of_different_nodes(struct kunit *test)
{
	struct kt_list *l = kt_filled(test, 3);
	struct kfx_remover r[2];
	struct klist_node *victim[2] = { &l->nodes[0].kn, &l->nodes[2].kn };
	struct klist_iter hold0, hold2;
	int i;

	/* Each remover waits for its own node: releasing one wakes only its own. */
	klist_iter_init(&l->k, &hold0);
	KUNIT_ASSERT_EQ(test, kt_id(klist_next(&hold0)), 0);
	klist_iter_init_node(&l->k, &hold2, &l->nodes[1].kn);
	KUNIT_ASSERT_EQ(test, kt_id(klist_next(&hold2)), 2);
	for (i = 0; i < 2; i++)
		kfx_start_remover(test, &r[i], victim[i], "kt-remover", i);
	for (i = 0; i < 2; i++)
		KUNIT_EXPECT_TRUE(test, kfx_remover_waiting(&r[i]));
	klist_iter_exit(&hold2);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&r[1].done, msecs_to_jiffies(2000)), 0UL);
	KUNIT_EXPECT_FALSE(test, completion_done(&r[0].done));
	KUNIT_EXPECT_TRUE(test, klist_node_attached(&l->nodes[0].kn));
	klist_iter_exit(&hold0);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&r[0].done, msecs_to_jiffies(2000)), 0UL);
	for (i = 0; i < 2; i++)
		kfx_stop_remover(&r[i]);
	KUNIT_EXPECT_EQ(test, atomic_read(&l->puts), 2);
	klist_del(&l->nodes[1].kn);
}

static void klist_test_readd_after_remove(struct kunit *test)
{
	struct kt_list *l = kt_filled(test, 2);
	struct kt_list *other = kt_new(test);
	static const int want[] = { 1, 0 };
	int i;

	for (i = 0; i < 3; i++) {
		klist_remove(&l->nodes[0].kn);
		klist_add_tail(&l->nodes[0].kn, &l->k);
	}
	kt_expect_ids(test, &l->k, true, want, 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&l->gets), 5);
	KUNIT_EXPECT_EQ(test, atomic_read(&l->puts), 3);
	/* ...and onto another list, whose (absent) callbacks then apply. */
	klist_init(&other->k, NULL, NULL);
	klist_remove(&l->nodes[0].kn);
	klist_add_tail(&l->nodes[0].kn, &other->k);
	klist_del(&l->nodes[0].kn);
	KUNIT_EXPECT_EQ(test, atomic_read(&l->gets), 5);
	KUNIT_EXPECT_EQ(test, atomic_read(&l->puts), 4);
	klist_del(&l->nodes[1].kn);
	KUNIT_EXPECT_TRUE(test, list_empty(&l->k.k_list));
	KUNIT_EXPECT_TRUE(test, list_empty(&other->k.k_list));
}

/*
 * A node removed while a walk stands on it, and added to another list
 * the moment klist_remove() returns (device_move() does this with
 * knode_parent): it is on the new list, attached, and deletes cleanly,
 * round after round.  Under 6.1's release order (K6) the release could
 * clear the list pointer of the node on its new list after the remover
 * returned; klist_userspace/klist_k6_readd_at_once_keeps_new_list forces
 * that window, here it runs on the scheduler of either world.
 */
#define KT_READD_ROUNDS	50

static void klist_test_readd_while_walked(struct kunit *test)
{
	struct klist from, to;
	struct klist_node n = {};
	struct kfx_remover r = {};
	struct klist_iter iter;
	int round, lost = 0;

	klist_init(&from, NULL, NULL);
	klist_init(&to, NULL, NULL);
	for (round = 0; round < KT_READD_ROUNDS; round++) {
		klist_add_tail(&n, &from);
		klist_iter_init(&from, &iter);
		KUNIT_ASSERT_PTR_EQ(test, klist_next(&iter), &n);
		kfx_start_remover_readd(test, &r, &n, &to, "kt-readd", round);
		KUNIT_ASSERT_TRUE(test, kfx_remover_waiting(&r));
		klist_iter_exit(&iter);	/* the release, and the remover's return */
		wait_for_completion(&r.done);
		kfx_stop_remover(&r);
		if (!klist_node_attached(&n)) {
			lost++;	/* a delete would go through NULL: stop */
			break;
		}
		klist_iter_init(&to, &iter);
		KUNIT_EXPECT_PTR_EQ(test, klist_next(&iter), &n);
		klist_iter_exit(&iter);
		klist_del(&n);
	}
	KUNIT_EXPECT_EQ_MSG(test, lost, 0, "a re-added node lost its list pointer");
	KUNIT_EXPECT_TRUE(test, list_empty(&from.k_list));
	KUNIT_EXPECT_TRUE(test, list_empty(&to.k_list));
}

static void klist_test_many_nodes(struct kunit *test)
{
	const int count = 1000;
	struct klist_node *nodes;
	struct klist_iter iter;
	struct klist_node *n;
	struct klist k;
	int i, seen = 0, in_order = 1;

	nodes = kunit_kcalloc(test, count, sizeof(*nodes), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, nodes);
	klist_init(&k, NULL, NULL);
	for (i = 0; i < count; i++)
		klist_add_tail(&nodes[i], &k);
	klist_iter_init(&k, &iter);
	while ((n = klist_next(&iter))) {
		in_order &= n == &nodes[seen];
		seen++;
		if (seen % 2)
			klist_del(n);	/* every other node, as we go */
	}
	klist_iter_exit(&iter);
	KUNIT_EXPECT_EQ(test, seen, count);
	KUNIT_EXPECT_TRUE(test, in_order);
	seen = 0;
	klist_iter_init(&k, &iter);
	while (klist_next(&iter))
		seen++;
	klist_iter_exit(&iter);
	KUNIT_EXPECT_EQ(test, seen, count / 2);
	for (i = 1; i < count; i += 2)
		klist_remove(&nodes[i]);
	KUNIT_EXPECT_TRUE(test, list_empty(&k.k_list));
}

static void klist_test_layout(struct kunit *test)
{
	/* The dead bit lives in the low bit of n_klist: klist must be aligned. */
	KUNIT_EXPECT_GE(test, __alignof__(struct klist), sizeof(void *));
	KUNIT_EXPECT_EQ(test, offsetof(struct klist_node, n_klist), (size_t)0);
	KUNIT_EXPECT_EQ(test, offsetof(struct klist_iter, i_klist), (size_t)0);
	KUNIT_EXPECT_EQ(test, sizeof(struct klist_iter), 2 * sizeof(void *));
}

static struct kunit_case klist_test_cases[] = {
	KUNIT_CASE(klist_test_init_empty),
	KUNIT_CASE(klist_test_define_klist),
	KUNIT_CASE(klist_test_klist_init_macro),
	KUNIT_CASE(klist_test_add_tail_order),
	KUNIT_CASE(klist_test_add_head_order),
	KUNIT_CASE(klist_test_add_behind),
	KUNIT_CASE(klist_test_add_before),
	KUNIT_CASE(klist_test_add_behind_dead_held_node),
	KUNIT_CASE(klist_test_walk_forward),
	KUNIT_CASE(klist_test_walk_backward),
	KUNIT_CASE(klist_test_walk_change_direction),
	KUNIT_CASE(klist_test_walk_restarts_after_end),
	KUNIT_CASE(klist_test_walk_from_live_node),
	KUNIT_CASE(klist_test_walk_from_released_node),
	KUNIT_CASE(klist_test_walk_from_dead_held_node),
	KUNIT_CASE(klist_test_walk_from_null_node),
	KUNIT_CASE(klist_test_dead_nodes_skipped),
	KUNIT_CASE(klist_test_walker_steps_past_deleted_node),
	KUNIT_CASE(klist_test_delete_each_node_during_walk),
	KUNIT_CASE(klist_test_all_deleted_under_walker),
	KUNIT_CASE(klist_test_del_unheld_unlinks_at_once),
	KUNIT_CASE(klist_test_node_attached),
	KUNIT_CASE(klist_test_get_put_counts),
	KUNIT_CASE(klist_test_no_callbacks),
	KUNIT_CASE(klist_test_put_waits_for_walker),
	KUNIT_CASE(klist_test_iter_exit_twice),
	KUNIT_CASE(klist_test_nested_walks),
	KUNIT_CASE(klist_test_walk_sees_nodes_added_ahead),
	KUNIT_CASE(klist_test_remove_unheld),
	KUNIT_CASE(klist_test_remove_waits_for_walker),
	KUNIT_CASE(klist_test_removers_of_different_nodes),
	KUNIT_CASE(klist_test_readd_after_remove),
	KUNIT_CASE(klist_test_readd_while_walked),
	KUNIT_CASE(klist_test_many_nodes),
	KUNIT_CASE(klist_test_layout),
	{}
};

static struct kunit_suite klist_test_suite = {
	.name = "klist",
	.test_cases = klist_test_cases,
};

kunit_test_suites(&klist_test_suite);

MODULE_LICENSE("GPL");
