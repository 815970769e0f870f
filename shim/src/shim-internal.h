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
#include <shim/explore.h>
#include "shim-explore-api.h"	/* what the explorer may call, too */

/*
 * ctl.c: the explorer, reached only through its hook table
 * (<shim/ctl-hook.h>), never by name.  Each wrapper does nothing (or
 * what a run outside the explorer does) while no run is under way.
 */
static inline void shim_hook_point(enum shim_op op, const void *obj, bool ro,
				   const char *file, int line)
{
	if (shim_ctl_active)
		shim_ctl_ops->point(op, obj, 0, ro, file, line);
}

static inline bool shim_hook_on(void)
{
	return shim_ctl_active && shim_ctl_ops->on();
}

static inline void shim_hook_block(const void *chan, enum shim_op op,
				   const char *file, int line, const char *func)
{
	if (shim_ctl_active)
		shim_ctl_ops->block(chan, op, file, line, func);
}

static inline bool shim_hook_block_timed(const void *chan, long ms,
					 enum shim_op op, const char *file,
					 int line, const char *func)
{
	if (!shim_ctl_active)
		return true;
	return shim_ctl_ops->block_timed(chan, ms, op, file, line, func);
}

static inline void shim_hook_signal(const void *chan)
{
	if (shim_ctl_active)
		shim_ctl_ops->signal(chan);
}

static inline bool shim_hook_task_new(struct task_struct *p,
				      void (*fn)(struct task_struct *p))
{
	return shim_ctl_active && shim_ctl_ops->task_new(p, fn);
}

static inline long shim_hook_now_ms(void)
{
	return shim_ctl_active ? shim_ctl_ops->now_ms() : 0;
}

static inline void shim_hook_wmm_lock(const void *lock, const char *file, int line)
{
	if (shim_ctl_active)
		shim_ctl_ops->wmm_lock(lock, file, line);
}

static inline void shim_hook_wmm_unlock(const void *lock, const char *file, int line)
{
	if (shim_ctl_active)
		shim_ctl_ops->wmm_unlock(lock, file, line);
}

static inline void shim_hook_alloc(const void *p, unsigned long size)
{
	if (shim_ctl_active)
		shim_ctl_ops->alloc(p, size);
}

static inline void shim_hook_free(const void *p, unsigned long size,
				  const char *file, int line)
{
	if (shim_ctl_active)
		shim_ctl_ops->free(p, size, file, line);
}

static inline void shim_hook_wmm_mb(void)
{
	if (shim_ctl_active)
		shim_ctl_ops->wmm_mb();
}

/*
 * sched_points.c and the explorer: a synchronisation point.  Under the
 * explorer a scheduling decision, else a seeded schedule point.  @obj is
 * what the operation after it touches (NULL: everything), @ro true if it
 * only reads it: the explorer's partial-order reduction needs both.
 */
static inline void shim_point(enum shim_op op, const void *obj, bool ro,
			      const char *file, int line)
{
	if (shim_ctl_active)
		shim_hook_point(op, obj, ro, file, line);
	else
		shim_sched_point();
}

/* A point only the explorer sees: the seeded points stay where they were. */
static inline void shim_ctl_only(enum shim_op op, const void *obj, bool ro,
				 const char *file, int line)
{
	shim_hook_point(op, obj, ro, file, line);
}

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
void shim_irq_window(void);
int shim_locks_check_task(struct task_struct *p, const char *when);
void shim_hooks_reset(void);

/* lockdep.c: lock classes, held locks, lock order, interrupt usage */
struct shim_lock;
struct lock_class_key;
void shim_lockdep_init_map(struct shim_lock *l, const char *name,
			   const struct lock_class_key *key);
/* Validates taking @l; returns its class (0: not validated) for push. */
int shim_lockdep_acquire(struct task_struct *p, struct shim_lock *l,
			 unsigned int subclass, bool try, const char *file,
			 int line);
void shim_lockdep_push(struct task_struct *p, struct shim_lock *l, int class_id,
		       const char *file, int line);
void shim_lockdep_pop(struct task_struct *p, struct shim_lock *l);
bool shim_lockdep_held_by(struct task_struct *p, const struct shim_lock *l);
void shim_lockdep_irqs_on(struct task_struct *p, const char *file, int line);
void shim_log_held_locks(struct task_struct *p);

/* alloc.c */
int shim_alloc_check_and_reset(void);
void shim_alloc_begin(void);

/* hrtimer.c */
int shim_hrtimers_check_and_reset(void);

/* guard.c: the guarded allocator under alloc.c */
enum { SHIM_GUARD_NOT_OURS, SHIM_GUARD_FREED, SHIM_GUARD_REPORTED };
/* Should a block of @size get guarded pages?  Counts the samples. */
bool shim_guard_wanted(size_t size);
/* The block, or NULL to fall back; @owner is given back by the free. */
void *shim_guard_alloc(size_t size, const char *file, int line, void *owner);
int shim_guard_free(const void *p, const char *file, int line, void **owner);
bool shim_guard_is_freed(const void *p);
void shim_guard_report_stats(void);
/* A new task thread: its alternate signal stack, for the fault handler. */
void shim_guard_thread_start(void);

#endif
