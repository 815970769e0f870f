/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Declarations shared between the shim's own source files, each under
 * the heading of the file that defines it.  What a test may call is in
 * <shim/shim.h> instead.
 */
#ifndef _SHIM_INTERNAL_H
#define _SHIM_INTERNAL_H

#include <time.h>

#include <linux/sched.h>
#include <shim/shim.h>

/* report.c */
int shim_report_unmet_expectations(void);
void shim_reports_reset(void);

/* clock.c: an absolute deadline @ms from now, for pthread timed waits */
struct timespec shim_deadline_ms(unsigned int ms);

/* task.c */
const char *shim_task_name(struct task_struct *p);
/* Called when a sleep overran the bound; returns if rescued. */
void shim_hung_task(const char *file, int line, const char *func);
int shim_kthreads_check_and_reset(void);

/* lock.c */
/* might_sleep() without the task-state check: what schedule() may call. */
void __shim_might_resched(const char *file, int line);
void shim_log_held_locks(struct task_struct *p);
void shim_irq_window(void);
int shim_locks_check_task(struct task_struct *p, const char *when);
void shim_hooks_reset(void);

/* alloc.c */
int shim_alloc_check_and_reset(void);
void shim_alloc_begin(void);

#endif
