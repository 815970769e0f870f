// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel-only KUnit suite for klist: kthreads walk a klist while other
 * kthreads add, delete and remove nodes on it.
 *
 * What is checked:
 *  - a walk never returns a node twice, and never returns a node whose
 *    klist_del() had completed before the walk started;
 *  - a node returned by a walk is still attached;
 *  - a node is no longer attached once klist_remove() has returned, and
 *    can be added again right away;
 *  - the get/put hooks balance for every node and every node is freed
 *    (the put hook drops a reference on the containing object, the last
 *    reference frees it; KASAN catches any later access);
 *  - two klist_remove() callers of one node both return once the walk
 *    holding the node lets go.
 *
 * Local helpers and fixtures carry the kkt_ prefix (for klist-kthread-test).
 */

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/irqflags.h>
#include <linux/jiffies.h>
#include <linux/klist.h>
#include <linux/kref.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "klist-test-fixture.h"

#define KKT_WALKERS	2
#define KKT_MUTATORS	2
#define KKT_THREADS	(KKT_WALKERS + KKT_MUTATORS)
#define KKT_OWNED_MAX	24
#define KKT_RUN_MS	3000
#define KKT_MAGIC	0x6b6c6973UL

struct kkt_ctx;

struct kkt_node {
	struct klist_node kn;
	struct kref ref;
	struct kkt_ctx *ctx;
	unsigned long magic;
	atomic_t adds;
	atomic_t gets;
	atomic_t puts;
	/* del_clock value once klist_del() returned, 0 while linked */
	unsigned long deleted_at;
	/*
	 * per thread: number of the last walk that returned this node, and
	 * the node's add count then (a node re-added after klist_remove()
	 * may legitimately be met again by the same walk)
	 */
	unsigned long seen[KKT_THREADS];
	int seen_adds[KKT_THREADS];
};

struct kkt_ctx {
	struct klist list;
	atomic_long_t del_clock;
	atomic_t allocs;
	atomic_t frees;
	atomic_t gets;
	atomic_t puts;
	atomic_t walks;
	atomic_t visits;
	atomic_t removes;
	atomic_t readds;
	/* errors */
	atomic_t dups;
	atomic_t stale;
	atomic_t bad_magic;
	atomic_t detached_visit;
	atomic_t attached_after_remove;
	atomic_t unbalanced;
};

struct kkt_thread {
	struct kkt_ctx *ctx;
	struct task_struct *task;
	int idx;
	u32 rnd;
	unsigned long walk_no;
	int nr_owned;
	struct kkt_node *owned[KKT_OWNED_MAX];
};

static u32 kkt_rand(struct kkt_thread *t, u32 below)
{
	/* xorshift32: cheap, per thread, no locking */
	t->rnd ^= t->rnd << 13;
	t->rnd ^= t->rnd >> 17;
	t->rnd ^= t->rnd << 5;
	return t->rnd % below;
}

static void kkt_release(struct kref *ref)
{
	struct kkt_node *n = container_of(ref, struct kkt_node, ref);
	struct kkt_ctx *ctx = n->ctx;

	if (atomic_read(&n->gets) != atomic_read(&n->adds) ||
	    atomic_read(&n->puts) != atomic_read(&n->adds))
		atomic_inc(&ctx->unbalanced);
	n->magic = 0;
	kfree(n);
	atomic_inc(&ctx->frees);
}

static void kkt_get(struct klist_node *kn)
{
	struct kkt_node *n = container_of(kn, struct kkt_node, kn);

	kref_get(&n->ref);
	atomic_inc(&n->gets);
	atomic_inc(&n->ctx->gets);
}

static void kkt_put(struct klist_node *kn)
{
	struct kkt_node *n = container_of(kn, struct kkt_node, kn);

	atomic_inc(&n->puts);
	atomic_inc(&n->ctx->puts);
	kref_put(&n->ref, kkt_release);
}

static void kkt_visit(struct kkt_thread *t, struct klist_node *kn,
		      unsigned long started)
{
	struct kkt_node *n = container_of(kn, struct kkt_node, kn);
	struct kkt_ctx *ctx = t->ctx;
	unsigned long del;
	int adds;

	atomic_inc(&ctx->visits);
	if (n->magic != KKT_MAGIC) {
		atomic_inc(&ctx->bad_magic);
		return;
	}
	adds = atomic_read(&n->adds);
	if (n->seen[t->idx] == t->walk_no && n->seen_adds[t->idx] == adds)
		atomic_inc(&ctx->dups);
	n->seen[t->idx] = t->walk_no;
	n->seen_adds[t->idx] = adds;
	/* pairs with smp_store_release() in kkt_unlink(): deletion done */
	del = smp_load_acquire(&n->deleted_at);
	if (del && del <= started)
		atomic_inc(&ctx->stale);
	if (!klist_node_attached(kn))
		atomic_inc(&ctx->detached_visit);
}

/* One walk; from @start if given (which the caller keeps linked). */
static void kkt_walk(struct kkt_thread *t, struct klist_node *start,
		     bool backward)
{
	struct kkt_ctx *ctx = t->ctx;
	struct klist_iter iter;
	struct klist_node *kn;
	unsigned long started, flags = 0;
	bool irqs_off = !start && kkt_rand(t, 4) == 0;

	t->walk_no++;
	if (start)
		klist_iter_init_node(&ctx->list, &iter, start);
	else
		klist_iter_init(&ctx->list, &iter);
	started = atomic_long_read(&ctx->del_clock);
	/*
	 * order the clock read before the list reads of the walk; pairs
	 * with the fully ordered atomic_long_inc_return() in kkt_unlink(),
	 * which follows the klist_del/remove
	 */
	smp_mb();
	if (irqs_off)
		local_irq_save(flags);
	if (start) {
		/* the starting node is not returned by the first step */
		kkt_visit(t, start, started);
	}
	for (;;) {
		kn = backward ? klist_prev(&iter) : klist_next(&iter);
		if (!kn)
			break;
		kkt_visit(t, kn, started);
		if (!irqs_off && kkt_rand(t, 16) == 0)
			udelay(20);
	}
	if (irqs_off)
		local_irq_restore(flags);
	klist_iter_exit(&iter);
	atomic_inc(&ctx->walks);
}

static int kkt_walker(void *data)
{
	struct kkt_thread *t = data;

	while (!kthread_should_stop()) {
		kkt_walk(t, NULL, t->walk_no & 1);
		cond_resched();
	}
	return 0;
}

static void kkt_add(struct kkt_thread *t, struct kkt_node *n)
{
	struct kkt_ctx *ctx = t->ctx;
	struct kkt_node *pos;

	WRITE_ONCE(n->deleted_at, 0);
	atomic_inc(&n->adds);
	pos = t->nr_owned ? t->owned[kkt_rand(t, t->nr_owned)] : NULL;
	switch (kkt_rand(t, 4)) {
	case 0:
		klist_add_head(&n->kn, &ctx->list);
		break;
	case 1:
		if (pos) {
			klist_add_behind(&n->kn, &pos->kn);
			break;
		}
		fallthrough;
	case 2:
		if (pos) {
			klist_add_before(&n->kn, &pos->kn);
			break;
		}
		fallthrough;
	default:
		klist_add_tail(&n->kn, &ctx->list);
	}
	t->owned[t->nr_owned++] = n;
}

static void kkt_unlink(struct kkt_thread *t, int i, bool remove, bool readd)
{
	struct kkt_ctx *ctx = t->ctx;
	struct kkt_node *n = t->owned[i];

	t->owned[i] = t->owned[--t->nr_owned];
	if (remove) {
		klist_remove(&n->kn);
		atomic_inc(&ctx->removes);
		if (klist_node_attached(&n->kn))
			atomic_inc(&ctx->attached_after_remove);
	} else {
		klist_del(&n->kn);
	}
	/*
	 * publish the deletion time after klist_del/remove returned; pairs
	 * with the smp_load_acquire() in kkt_visit()
	 */
	smp_store_release(&n->deleted_at,
			  atomic_long_inc_return(&ctx->del_clock));
	if (remove && readd) {
		/* a removed node may be added again at once */
		atomic_inc(&ctx->readds);
		kkt_add(t, n);
		return;
	}
	/* drop the owner's reference; the last put frees the node */
	kref_put(&n->ref, kkt_release);
}

static int kkt_mutator(void *data)
{
	struct kkt_thread *t = data;
	struct kkt_ctx *ctx = t->ctx;
	struct kkt_node *n;
	u32 op;

	while (!kthread_should_stop()) {
		op = kkt_rand(t, 16);
		if (t->nr_owned < KKT_OWNED_MAX && (op < 7 || !t->nr_owned)) {
			n = kzalloc(sizeof(*n), GFP_KERNEL);
			if (!n) {
				cond_resched();
				continue;
			}
			kref_init(&n->ref);
			n->ctx = ctx;
			n->magic = KKT_MAGIC;
			atomic_inc(&ctx->allocs);
			kkt_add(t, n);
		} else if (op < 10) {
			kkt_unlink(t, kkt_rand(t, t->nr_owned), false, false);
		} else if (op < 14) {
			kkt_unlink(t, kkt_rand(t, t->nr_owned), true,
				   op == 13);
		} else {
			n = t->owned[kkt_rand(t, t->nr_owned)];
			kkt_walk(t, &n->kn, op == 15);
		}
		cond_resched();
	}
	/* tear down while the walkers still run */
	while (t->nr_owned)
		kkt_unlink(t, t->nr_owned - 1, t->nr_owned & 1, false);
	return 0;
}

static void klist_kthread_walk_add_del_remove(struct kunit *test)
{
	struct kkt_ctx *ctx;
	struct kkt_thread *th;
	struct klist_iter iter;
	int i, left;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	th = kunit_kcalloc(test, KKT_THREADS, sizeof(*th), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, th);
	klist_init(&ctx->list, kkt_get, kkt_put);

	for (i = 0; i < KKT_THREADS; i++) {
		th[i].ctx = ctx;
		th[i].idx = i;
		th[i].rnd = 0x9e3779b9u * (i + 1);
		th[i].task = kthread_run(i < KKT_WALKERS ? kkt_walker :
					 kkt_mutator, &th[i], "kkt/%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(th[i].task));
		get_task_struct(th[i].task);
	}
	/*
	 * The sleep is the point: the threads run for a bounded time, and
	 * nothing is awaited; the invariants are checked as they go.
	 */
	msleep(KKT_RUN_MS);
	/* mutators first: they empty the list while walkers still walk */
	for (i = KKT_THREADS - 1; i >= 0; i--) {
		KUNIT_EXPECT_EQ(test, kthread_stop(th[i].task), 0);
		put_task_struct(th[i].task);
	}

	left = 0;
	klist_iter_init(&ctx->list, &iter);
	while (klist_next(&iter))
		left++;
	klist_iter_exit(&iter);

	kunit_info(test, "walks %d visits %d allocs %d removes %d re-adds %d\n",
		   atomic_read(&ctx->walks), atomic_read(&ctx->visits),
		   atomic_read(&ctx->allocs), atomic_read(&ctx->removes),
		   atomic_read(&ctx->readds));
	KUNIT_EXPECT_EQ(test, left, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->dups), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->stale), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->bad_magic), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->detached_visit), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->attached_after_remove), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->unbalanced), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->gets), atomic_read(&ctx->puts));
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->allocs),
			atomic_read(&ctx->frees));
	KUNIT_EXPECT_GT(test, atomic_read(&ctx->walks), 0);
	KUNIT_EXPECT_GT(test, atomic_read(&ctx->removes), 0);
}

/* Two removers of one node, both blocked by a walk holding the node. */

struct kkt_remover {
	struct klist_node *kn;
	struct completion done;
};

static int kkt_remover_fn(void *data)
{
	struct kkt_remover *r = data;

	klist_remove(r->kn);
	complete(&r->done);
	return 0;
}

static void klist_kthread_two_removers(struct kunit *test)
{
	struct kkt_remover *r;
	struct kkt_ctx *ctx;
	struct kkt_node *n;
	struct klist_iter iter;
	struct task_struct *task[2];
	int i;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	r = kunit_kcalloc(test, 2, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	n = kzalloc(sizeof(*n), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, n);
	kref_init(&n->ref);
	n->ctx = ctx;
	n->magic = KKT_MAGIC;
	atomic_inc(&ctx->allocs);
	klist_init(&ctx->list, kkt_get, kkt_put);
	atomic_inc(&n->adds);
	klist_add_tail(&n->kn, &ctx->list);

	/* the walk pins the node */
	klist_iter_init(&ctx->list, &iter);
	KUNIT_ASSERT_PTR_EQ(test, klist_next(&iter), &n->kn);

	for (i = 0; i < 2; i++) {
		r[i].kn = &n->kn;
		init_completion(&r[i].done);
		task[i] = kthread_run(kkt_remover_fn, &r[i], "kkt-rm/%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(task[i]));
		get_task_struct(task[i]);
	}
	/* both are waiting, and neither may return while the walk holds it */
	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_TRUE(test, kfx_task_waiting(task[i]));
		KUNIT_EXPECT_FALSE(test, completion_done(&r[i].done));
	}
	/* a new walk no longer sees it */
	{
		struct klist_iter it2;

		klist_iter_init(&ctx->list, &it2);
		KUNIT_EXPECT_NULL(test, klist_next(&it2));
		klist_iter_exit(&it2);
	}

	klist_iter_exit(&iter);
	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&r[i].done,
								  20 * HZ), 0UL);
		put_task_struct(task[i]);
	}
	KUNIT_EXPECT_FALSE(test, klist_node_attached(&n->kn));
	KUNIT_EXPECT_EQ(test, atomic_read(&n->gets), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&n->puts), 1);
	kref_put(&n->ref, kkt_release);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->frees), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->unbalanced), 0);
}

static struct kunit_case klist_kthread_cases[] = {
	KUNIT_CASE(klist_kthread_walk_add_del_remove),
	KUNIT_CASE(klist_kthread_two_removers),
	{}
};

static struct kunit_suite klist_kthread_suite = {
	.name = "klist_kthread",
	.test_cases = klist_kthread_cases,
};
kunit_test_suite(klist_kthread_suite);

MODULE_DESCRIPTION("klist-port: klist walked, added to and removed from by kthreads");
MODULE_LICENSE("GPL");
