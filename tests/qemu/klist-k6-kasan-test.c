// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel-only KUnit suite "klist_k6_kasan", built into an otherwise
 * unmodified 6.1 kernel by scripts/qemu-kernel-klist.sh (target
 * qemu-kernel-klist), to look for lesson K6 in the kernel's own
 * lib/klist.c under KASAN.  Not part of qemu-check, which runs ours.
 *
 * 6.1's klist_release() sets waiter->woken, wakes the remover, and
 * writes n->n_klist = NULL only after it has dropped klist_remove_lock.
 * A remover that returns in between may free the node (KASAN:
 * use-after-free write in klist_release) or put it on another list
 * (whose list pointer the late store then clears).
 *
 * One kthread walks a list and stands on its only node; the test
 * removes that node with klist_remove() once the walk holds it, and the
 * walk's step off the node runs the release on the other CPU.  The
 * remover then frees the node at once (case free) or adds it to a
 * second list and checks it is attached there (case readd).  Each case
 * runs for KKT6_RUN_MS and says how many rounds it ran and how many
 * re-added nodes lost their list pointer; a use-after-free shows as
 * KASAN's report in the console, which the script counts.
 *
 * The prefix kk6_ stands for "klist K6".
 */

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/klist.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/slab.h>

#define KK6_RUN_MS	15000

struct kk6_obj {
	struct klist_node kn;
	char payload[48];
};

struct kk6_ctx {
	struct klist list;
	struct completion go, holding, release;
	struct task_struct *remover;	/* the test's task */
	bool stop;
	unsigned long rounds;
};

/* Stand on the list's only node until the remover sleeps, then step off. */
static int kk6_walker(void *data)
{
	struct kk6_ctx *c = data;
	struct klist_iter iter;

	for (;;) {
		wait_for_completion(&c->go);
		if (READ_ONCE(c->stop))
			break;
		klist_iter_init(&c->list, &iter);
		klist_next(&iter);
		complete(&c->holding);
		wait_for_completion(&c->release);
		/* Bounded: spin until the remover is in klist_remove(). */
		while (READ_ONCE(c->remover->__state) != TASK_UNINTERRUPTIBLE &&
		       !READ_ONCE(c->stop))
			cpu_relax();
		klist_iter_exit(&iter);	/* the last put: klist_release() */
	}
	while (!kthread_should_stop())
		schedule_timeout_uninterruptible(1);
	return 0;
}

static void kk6_run(struct kunit *test, bool readd)
{
	struct kk6_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	unsigned long end = jiffies + msecs_to_jiffies(KK6_RUN_MS);
	struct klist other;
	struct task_struct *t;
	unsigned long lost = 0;

	KUNIT_ASSERT_NOT_NULL(test, c);
	klist_init(&c->list, NULL, NULL);
	klist_init(&other, NULL, NULL);
	init_completion(&c->go);
	init_completion(&c->holding);
	init_completion(&c->release);
	c->remover = current;
	t = kthread_run(kk6_walker, c, "kk6-walker");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));

	while (time_before(jiffies, end)) {
		struct kk6_obj *o = kzalloc(sizeof(*o), GFP_KERNEL);

		if (!o)
			break;
		klist_add_tail(&o->kn, &c->list);
		complete(&c->go);
		wait_for_completion(&c->holding);
		complete(&c->release);
		klist_remove(&o->kn);
		if (readd) {
			klist_add_tail(&o->kn, &other);
			if (!klist_node_attached(&o->kn))
				lost++;
			/*
			 * Unlinked by hand, not with klist_remove(): with a
			 * cleared list pointer that would oops (it does:
			 * NULL dereference in klist_put()), and end the run.
			 */
			spin_lock(&other.k_lock);
			list_del(&o->kn.n_node);
			spin_unlock(&other.k_lock);
		}
		kfree(o);
		c->rounds++;
	}
	WRITE_ONCE(c->stop, true);
	complete(&c->go);
	kthread_stop(t);
	kunit_info(test, "klist_k6_kasan: %s: %lu rounds, %lu re-added nodes lost their list pointer",
		   readd ? "readd" : "free", c->rounds, lost);
	KUNIT_EXPECT_EQ_MSG(test, lost, 0UL,
			    "klist_release() cleared the list pointer of a re-added node");
}

static void klist_k6_kasan_remove_then_free(struct kunit *test)
{
	kk6_run(test, false);
}

static void klist_k6_kasan_remove_then_readd(struct kunit *test)
{
	kk6_run(test, true);
}

static struct kunit_case klist_k6_kasan_cases[] = {
	KUNIT_CASE(klist_k6_kasan_remove_then_free),
	KUNIT_CASE(klist_k6_kasan_remove_then_readd),
	{}
};

static struct kunit_suite klist_k6_kasan_suite = {
	.name = "klist_k6_kasan",
	.test_cases = klist_k6_kasan_cases,
};

kunit_test_suites(&klist_k6_kasan_suite);

MODULE_LICENSE("GPL");
