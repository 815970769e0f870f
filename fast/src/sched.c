// SPDX-License-Identifier: GPL-2.0
/*
 * klist-port-fast: tasks, sleeping and waking (see linux/sched.h for the
 * rules).  task_structs are type-stable: recycled, never freed.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfast/annotate.h>
#include <kfast/kfast.h>
#include <linux/sched/task.h>

#include "futex.h"

#ifdef KFAST_EXPLORE
/*
 * Under the explorer the tasks are coroutines of one thread: each has
 * its own slot (fast/testing/explore-fast.c), not a thread variable.
 */
struct task_struct **kfast_explore_task_slot(void);
#define kfast_task	(*kfast_explore_task_slot())
#else
static __thread struct task_struct *kfast_task;
#endif

static pthread_mutex_t free_lock = PTHREAD_MUTEX_INITIALIZER;
static struct task_struct *free_tasks;
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

struct task_struct *kfast_task_alloc(const char *comm)
{
	struct task_struct *t;

	pthread_mutex_lock(&free_lock);
	t = free_tasks;
	if (t)
		free_tasks = t->free_next;
	pthread_mutex_unlock(&free_lock);
	if (!t) {
		t = calloc(1, sizeof(*t));
		if (!t) {
			fputs("klist-port-fast: out of memory for a task\n", stderr);
			abort();
		}
	}
	/* A late waker may still touch __state: keep it an atomic store. */
	kfast_vg_marked(&t->__state, sizeof(t->__state));
	__atomic_store_n(&t->__state, TASK_RUNNING, __ATOMIC_RELAXED);
	refcount_set(&t->usage, 1);
	snprintf(t->comm, sizeof(t->comm), "%s", comm ? comm : "");
	t->private = NULL;
	t->free_next = NULL;
	return t;
}

void kfast_task_free(struct task_struct *t)
{
	pthread_mutex_lock(&free_lock);
	t->free_next = free_tasks;
	free_tasks = t;
	pthread_mutex_unlock(&free_lock);
}

static void task_exit(void *arg)
{
	kfast_task = NULL;
	put_task_struct(arg);
}

static void exit_key_create(void)
{
	if (pthread_key_create(&exit_key, task_exit)) {
		fputs("klist-port-fast: no thread key for tasks\n", stderr);
		abort();
	}
	/* helgrind does not see pthread_once()'s ordering by itself. */
	kfast_hb_release(&exit_key);
}

void kfast_task_attach(struct task_struct *t)
{
	pthread_once(&exit_key_once, exit_key_create);
	kfast_hb_acquire(&exit_key);
	kfast_task = t;
	pthread_setspecific(exit_key, t);
}

struct task_struct *kfast_current(void)
{
	if (unlikely(!kfast_task))
		kfast_task_attach(kfast_task_alloc("thread"));
	return kfast_task;
}

void kfast_schedule(void)
{
	struct task_struct *t = kfast_current();
	unsigned int state;

	/* Until a wake-up sets us running; a futex may return spuriously. */
	while ((state = __atomic_load_n(&t->__state, __ATOMIC_ACQUIRE)) !=
	       TASK_RUNNING)
		kfast_futex_wait(&t->__state, state);
	/* The waker's stores happen before what the sleeper does next. */
	kfast_hb_acquire(&t->__state);
}

int kfast_wake_up_process(struct task_struct *p)
{
	/*
	 * As the kernel's: a full barrier first, so the waker's earlier
	 * stores (the condition) are ordered before its read of the state,
	 * pairing with the barrier in set_current_state().
	 */
	smp_mb();
	kfast_hb_release(&p->__state);
	kfast_vg_marked(&p->__state, sizeof(p->__state));
	if (__atomic_exchange_n(&p->__state, TASK_RUNNING, __ATOMIC_SEQ_CST) ==
	    TASK_RUNNING)
		return 0;
	kfast_futex_wake(&p->__state, 1);
	return 1;
}

void kfast_cond_resched(void)
{
	sched_yield();
}
