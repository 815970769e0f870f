/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup + strict - include/linux/sched.h (v6.1), a subset, keep in
 *   sync; strict: any sleep over the hung-task bound (3 s) fails the test,
 *   and so does a blocking call while !TASK_RUNNING, msleep() included.
 *
 * Userspace shim: tasks are pthreads.  set_current_state(), schedule()
 * and wake_up_process() follow the kernel's protocol exactly: a wake-up
 * between setting the state and calling schedule() is not lost.  A
 * sleep longer than the hung-task bound is reported with the place it
 * sleeps at.  As with DEBUG_ATOMIC_SLEEP, set_current_state() records
 * where it ran, and might_sleep() (every blocking call) reports a task
 * that is not TASK_RUNNING with that place; schedule() and
 * schedule_timeout() are the calls that sleep in that state, so they
 * do not check it.
 */
#ifndef _SHIM_LINUX_SCHED_H
#define _SHIM_LINUX_SCHED_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/preempt.h>
#include <linux/jiffies.h>
#include <shim/task.h>

#define TASK_RUNNING		0x0000
#define TASK_INTERRUPTIBLE	0x0001
#define TASK_UNINTERRUPTIBLE	0x0002
#define TASK_COMM_LEN		16

struct task_struct {
	unsigned int __state;
	pid_t pid;
	char comm[TASK_COMM_LEN];
	struct shim_task shim;
};

struct task_struct *shim_current(void);
#define current	shim_current()

/*
 * As in 6.1, set_current_state() is smp_store_mb(): the state, then a
 * full barrier; __set_current_state() is a plain store, no barrier.  Under
 * the explorer's wmm model the difference is visible: a barrier the
 * kernel does not have would hide a missing acquire (defect W2).
 */
void shim_set_current_state(unsigned int state, bool full_barrier,
			    const char *file, int line, const char *func);
#define set_current_state(s) \
	shim_set_current_state((s), true, __FILE__, __LINE__, __func__)
#define __set_current_state(s) \
	shim_set_current_state((s), false, __FILE__, __LINE__, __func__)

void __shim_schedule(const char *file, int line, const char *func);
#define schedule()	__shim_schedule(__FILE__, __LINE__, __func__)

long __shim_schedule_timeout(long timeout, const char *file, int line,
			     const char *func);
#define schedule_timeout(t) \
	__shim_schedule_timeout((t), __FILE__, __LINE__, __func__)

/* These set the state themselves: entered !TASK_RUNNING, a wake-up is lost. */
long __shim_schedule_timeout_state(long timeout, unsigned int state,
				   const char *file, int line, const char *func);
#define schedule_timeout_interruptible(t)				\
	__shim_schedule_timeout_state((t), TASK_INTERRUPTIBLE,		\
				      __FILE__, __LINE__, __func__)
#define schedule_timeout_uninterruptible(t)				\
	__shim_schedule_timeout_state((t), TASK_UNINTERRUPTIBLE,	\
				      __FILE__, __LINE__, __func__)

int wake_up_process(struct task_struct *p);

static inline int task_is_running(struct task_struct *p)
{
	return READ_ONCE(p->__state) == TASK_RUNNING;
}

#endif
