/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup + strict - include/linux/sched/task.h (v6.1), a subset,
 *   keep in sync; strict: a put_task_struct() underflow fails the test.
 */
#ifndef _SHIM_LINUX_SCHED_TASK_H
#define _SHIM_LINUX_SCHED_TASK_H

#include <linux/sched.h>

struct task_struct *get_task_struct(struct task_struct *t);
void put_task_struct(struct task_struct *t);

#endif
