/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the shim offers the explorer (shim/explore/), and nothing more:
 * the explorer calls the shim only through what this header declares or
 * names below, and the shim calls the explorer only through the hook
 * table of <shim/ctl-hook.h> (struct shim_ctl_ops), which the explorer
 * installs with shim_ctl_install().  A new need of the explorer is
 * added here, by name, not by including shim-internal.h.
 * explore.one_door (tests/explore/one-door.cmake) checks both
 * directions on the objects: no shim/src object refers to a symbol a
 * shim/explore object defines, and every shim/src symbol an explorer
 * object refers to is named in this file.
 *
 * From the public headers the explorer also calls: shim_current
 * (current), shim_report, shim_hung_task_ms, shim_set_fail_handler,
 * shim_test_begin, shim_test_end, kthread_create, wake_up_process,
 * __shim_kmalloc, __shim_kfree; and it reads shim_ctl_active (ctl.c,
 * set by shim_ctl_install()).
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
/* ctl.c: the explorer's hook table for a run, or NULL after it. */
void shim_ctl_install(const struct shim_ctl_ops *ops);

#endif
