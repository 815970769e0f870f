/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the klist suites share: a kthread that klist_remove()s one node,
 * and a wait until it really sleeps there.  Kernel headers only: the
 * series carries this file beside the suites, in lib/.
 * Every function is static inline, so each suite stays its own object.
 * The kfx_ prefix stands for "klist fixture".
 */
#ifndef _KLIST_TEST_FIXTURE_H
#define _KLIST_TEST_FIXTURE_H

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/klist.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/task.h>

struct kfx_remover {
	struct klist_node *node;
	struct klist *readd;		/* if set: add the node here at once */
	struct completion done;		/* klist_remove() has returned */
	struct task_struct *task;
};

/*
 * Returns as soon as klist_remove() does: kfx_start_remover() holds a
 * reference on the task, so kthread_stop() may still reap it afterwards.
 */
static inline int kfx_remover_fn(void *data)
{
	struct kfx_remover *r = data;

	klist_remove(r->node);
	if (r->readd)		/* as device_move() does with knode_parent */
		klist_add_tail(r->node, r->readd);
	complete(&r->done);
	return 0;
}

/*
 * Start a kthread named "@name-@i" that removes @n and, if @to is set,
 * adds it to @to as soon as the remove returns.
 */
static inline void kfx_start_remover_readd(struct kunit *test,
					   struct kfx_remover *r,
					   struct klist_node *n, struct klist *to,
					   const char *name, int i)
{
	r->node = n;
	r->readd = to;
	init_completion(&r->done);
	r->task = kthread_run(kfx_remover_fn, r, "%s-%d", name, i);
	KUNIT_ASSERT_FALSE(test, IS_ERR(r->task));
	get_task_struct(r->task);
}

/* Start a kthread named "@name-@i" that removes @n. */
static inline void kfx_start_remover(struct kunit *test,
				     struct kfx_remover *r,
				     struct klist_node *n,
				     const char *name, int i)
{
	kfx_start_remover_readd(test, r, n, NULL, name, i);
}

static inline void kfx_stop_remover(struct kfx_remover *r)
{
	kthread_stop(r->task);
	put_task_struct(r->task);
}

/*
 * Wait until task @t (for a remover: @r's task) sleeps in klist_remove(),
 * for a kthread that sleeps nowhere else.  These kthreads enter
 * TASK_UNINTERRUPTIBLE only there, once klist_remove() has queued their
 * waiter and killed the node (the sleep of a new kthread ends before
 * kthread_run() returns): from then on the remover is committed to wait
 * for the last reference.  Neither world offers an event for "now
 * asleep", so this polls the task's state; the short sleep only paces
 * the poll, the state is the handshake.  False after 10 s.
 */
static inline bool kfx_task_waiting(struct task_struct *t)
{
	unsigned long end = jiffies + msecs_to_jiffies(10000);

	while (READ_ONCE(t->__state) != TASK_UNINTERRUPTIBLE) {
		if (time_after(jiffies, end))
			return false;
		usleep_range(100, 200);
	}
	return true;
}

static inline bool kfx_remover_waiting(struct kfx_remover *r)
{
	return kfx_task_waiting(r->task);
}

#endif /* _KLIST_TEST_FIXTURE_H */
