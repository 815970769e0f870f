// SPDX-License-Identifier: GPL-2.0
/* klist-port-fast, testing: kthreads as pthreads (see linux/kthread.h). */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <kfast/annotate.h>
#include <kfast/kfast.h>
#include <linux/kthread.h>
#include <linux/sched/task.h>

struct kfast_kthread {
	pthread_t thread;
	int (*threadfn)(void *data);
	void *data;
	int should_stop;
	int result;
};

static int running;

static void *kthread_main(void *arg)
{
	struct task_struct *t = arg;
	struct kfast_kthread *kt = t->private;

	kfast_task_attach(t);
	kt->result = kt->threadfn(kt->data);
	__atomic_fetch_sub(&running, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

struct task_struct *kthread_run(int (*threadfn)(void *data), void *data,
				const char *namefmt, ...)
{
	char comm[TASK_COMM_LEN];
	struct kfast_kthread *kt;
	struct task_struct *t;
	va_list ap;

	va_start(ap, namefmt);
	vsnprintf(comm, sizeof(comm), namefmt, ap);
	va_end(ap);
	kt = calloc(1, sizeof(*kt));
	if (!kt)
		return ERR_PTR(-ENOMEM);
	kfast_vg_marked(&running, sizeof(running));
	kt->threadfn = threadfn;
	kt->data = data;
	t = kfast_task_alloc(comm);	/* the thread's own reference */
	t->private = kt;
	get_task_struct(t);		/* kthread_stop()'s */
	__atomic_fetch_add(&running, 1, __ATOMIC_SEQ_CST);
	if (pthread_create(&kt->thread, NULL, kthread_main, t)) {
		__atomic_fetch_sub(&running, 1, __ATOMIC_SEQ_CST);
		free(kt);
		t->private = NULL;
		put_task_struct(t);
		put_task_struct(t);
		return ERR_PTR(-EAGAIN);
	}
	return t;
}

int kthread_stop(struct task_struct *k)
{
	struct kfast_kthread *kt = k->private;
	int result;

	kfast_vg_marked(&kt->should_stop, sizeof(kt->should_stop));
	__atomic_store_n(&kt->should_stop, 1, __ATOMIC_SEQ_CST);
	wake_up_process(k);
	pthread_join(kt->thread, NULL);
	result = kt->result;
	k->private = NULL;
	free(kt);
	put_task_struct(k);
	return result;
}

bool kthread_should_stop(void)
{
	struct kfast_kthread *kt = current->private;

	if (kt)
		kfast_vg_marked(&kt->should_stop, sizeof(kt->should_stop));
	return kt && __atomic_load_n(&kt->should_stop, __ATOMIC_SEQ_CST);
}

int kfast_kthreads_running(void)
{
	return __atomic_load_n(&running, __ATOMIC_SEQ_CST);
}
