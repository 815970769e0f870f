/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: custom - the shim's per-task state in struct task_struct.
 *
 * What the shim keeps per task, beside the kernel's task_struct fields.
 */
#ifndef _SHIM_SHIM_TASK_H
#define _SHIM_SHIM_TASK_H

#include <pthread.h>
#include <stdbool.h>

#define SHIM_MAX_HELD	32

struct shim_held_lock {
	const void *lock;
	int class_id;
	const char *name;
	const char *file;
	int line;
};

struct shim_task {
	pthread_mutex_t wait_lock;	/* orders __state against wake-ups */
	pthread_cond_t wait_cond;
	pthread_t thread;
	int usage;			/* get/put_task_struct */

	/* Where set_current_state() last ran (the kernel's task_state_change). */
	const char *state_file, *state_func;
	int state_line;

	int preempt_count;		/* preempt_disable() nesting */
	int spin_depth;			/* spinlocks held */
	bool irqs_off;
	int hardirq;
	void (*irq_handler)(void *);	/* raised, not yet delivered */
	void *irq_arg;

	int nheld;
	struct shim_held_lock held[SHIM_MAX_HELD];

	/* kthreads */
	bool is_kthread;
	int (*threadfn)(void *data);
	void *data;
	bool woken;			/* wake_up_process() since kthread_create() */
	bool should_stop, exited, stopped;
	int result;
	struct shim_task *next_kthread;

	int ctl_slot;			/* under the explorer: its task number + 1 */
};

#endif
