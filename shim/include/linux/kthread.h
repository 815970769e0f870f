/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup + strict - include/linux/kthread.h (v6.1), keep in sync;
 *   strict: a kthread still running when the test ends fails the test.
 *
 * Userspace shim: kthreads.  As in the kernel, a thread made by
 * kthread_create() runs once woken and kthread_stop() waits for it and
 * returns its result; kthread_stop() of a thread never woken returns
 * -EINTR and its threadfn never runs.  A thread that was woken always
 * runs threadfn here, where 6.1 may still skip it if kthread_stop()
 * comes before the thread was first scheduled.  A kthread still running
 * when the test ends is reported.
 */
#ifndef _SHIM_LINUX_KTHREAD_H
#define _SHIM_LINUX_KTHREAD_H

#include <linux/err.h>
#include <linux/sched.h>

__printf(3, 4)
struct task_struct *kthread_create(int (*threadfn)(void *data), void *data,
				   const char *namefmt, ...);
int kthread_stop(struct task_struct *k);
bool kthread_should_stop(void);

#define kthread_run(threadfn, data, namefmt, ...) ({			\
	struct task_struct *__k						\
		= kthread_create(threadfn, data, namefmt, ## __VA_ARGS__); \
	if (!IS_ERR(__k))						\
		wake_up_process(__k);					\
	__k;								\
})

#endif
