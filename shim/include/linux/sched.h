/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup + strict - include/linux/sched.h (v6.1), a subset, keep in
 *   sync; strict: any sleep over the hung-task bound (3 s) fails the test.
 *
 * Userspace shim: tasks are pthreads.  set_current_state(), schedule()
 * and wake_up_process() follow the kernel's protocol exactly: a wake-up
 * between setting the state and calling schedule() is not lost.  A
 * sleep longer than the hung-task bound is reported with the place it
 * sleeps at.
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

void shim_set_current_state(unsigned int state);
#define set_current_state(s)	shim_set_current_state(s)
#define __set_current_state(s)	shim_set_current_state(s)

void __shim_schedule(const char *file, int line, const char *func);
#define schedule()	__shim_schedule(__FILE__, __LINE__, __func__)

long __shim_schedule_timeout(long timeout, const char *file, int line,
			     const char *func);
#define schedule_timeout(t) \
	__shim_schedule_timeout((t), __FILE__, __LINE__, __func__)

int wake_up_process(struct task_struct *p);

static inline int task_is_running(struct task_struct *p)
{
	return READ_ONCE(p->__state) == TASK_RUNNING;
}

#endif
