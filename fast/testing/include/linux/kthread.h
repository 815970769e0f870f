/* SPDX-License-Identifier: GPL-2.0 */
/*
 * klist-port-fast, testing: kthreads are pthreads with a task_struct of
 * the fast runtime.  As in the kernel, kthread_stop() asks the thread
 * to stop, wakes it and waits for its function to return.  A thread
 * whose function may return before kthread_stop() is called needs
 * get_task_struct() from its creator, as in the kernel.
 */
#ifndef _KFAST_TESTING_LINUX_KTHREAD_H
#define _KFAST_TESTING_LINUX_KTHREAD_H

#include <stdbool.h>
#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/sched.h>

struct task_struct *kthread_run(int (*threadfn)(void *data), void *data,
				const char *namefmt, ...) __printf(3, 4);
int kthread_stop(struct task_struct *k);
bool kthread_should_stop(void);

/* Test support: kthreads whose function has not returned yet. */
int kfast_kthreads_running(void);

#endif
