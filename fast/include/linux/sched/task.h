/* SPDX-License-Identifier: GPL-2.0 */
/* klist-port-fast: references on a task_struct. */
#ifndef _KFAST_LINUX_SCHED_TASK_H
#define _KFAST_LINUX_SCHED_TASK_H

#include <linux/sched.h>

void kfast_task_free(struct task_struct *t);

static inline struct task_struct *get_task_struct(struct task_struct *t)
{
	refcount_inc(&t->usage);
	return t;
}

static inline void put_task_struct(struct task_struct *t)
{
	if (refcount_dec_and_test(&t->usage))
		kfast_task_free(t);
}

#endif
