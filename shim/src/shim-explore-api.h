/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the shim offers the explorer (shim/explore/), and nothing more:
 * the explorer sees the shim through this header and <shim/shim.h>
 * (reports, test begin and end), and the shim sees the explorer only
 * through the hooks of <shim/ctl-hook.h> and <shim/explore.h>.  A new
 * need of the explorer is added here, by name, not by including
 * shim-internal.h.
 */
#ifndef _SHIM_EXPLORE_API_H
#define _SHIM_EXPLORE_API_H

#include <linux/sched.h>
#include <shim/shim.h>
#include <shim/explore.h>

/* task.c: the task the calling coroutine runs as. */
void shim_set_current(struct task_struct *p);
/* task.c: task numbers; each batched run starts from the same one. */
int shim_pids_mark(void);
void shim_pids_reset(int next);
/* task.c: wait until kthread @p has returned (a join; no stop). */
void shim_kthread_wait_exit(struct task_struct *p);
/* lockdep.c: the order graph and usage bits forgotten, classes kept. */
void shim_lockdep_forget(void);

#endif
