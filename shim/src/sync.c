// SPDX-License-Identifier: GPL-2.0
/*
 * Completions and semaphores: sleeping waits under the hung-task bound.
 * And mutex_destroy(), the one mutex call lockdep (lock.c) has no part in.
 */
/* Bookkeeping here is no scheduling point (<shim/ctl-hook.h>). */
#define SHIM_INTERNAL

#include <errno.h>
#include <limits.h>

#include <linux/kernel.h>
#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/semaphore.h>
#include <shim/ctl-wmm.h>
#include "shim-internal.h"

/*
 * DEBUG_MUTEXES: destroying a held mutex warns, and the magic is cleared
 * either way, so lock.c's magic check reports any later use.  A mutex
 * never initialised, or destroyed already, is left as it is (the kernel
 * does not mind either).  An unlocked pthread mutex is destroyed too:
 * mutex_init() then makes a new one, which DRD would otherwise report as
 * a re-initialisation.  A destroy racing the last unlock is a real bug,
 * one the tools may then see.
 */
void __shim_mutex_destroy(struct mutex *lock, const char *file, int line)
{
	struct shim_lock *l = &lock->l;
	struct task_struct *owner = READ_ONCE(l->owner);

	if (l->magic != SHIM_LOCK_MAGIC)
		return;
	if (owner)
		shim_report(file, line,
			    "WARNING: DEBUG_LOCKS_WARN_ON(mutex_is_locked(lock)): mutex %s destroyed at %s:%d while held by %s (taken at %s:%d)",
			    l->dep.name, file, line, owner->comm, l->owner_file,
			    l->owner_line);
	else
		pthread_mutex_destroy(&l->m);	/* a locked one cannot be */
	l->magic = SHIM_MUTEX_DESTROYED;
}

/*
 * The kernel never destroys a completion or semaphore, and may init one
 * again (or a new one where an old one lived on the stack).  Destroy the
 * old pthread objects first so valgrind's tools see a clean start.  When
 * the old one was overwritten first (memset of a reused stack struct),
 * there is nothing to destroy: static initialisers, unlike
 * pthread_*_init(), do not make DRD report a re-initialisation there.
 */
void init_completion(struct completion *x)
{
	if (x->magic == SHIM_COMPLETION_MAGIC) {
		pthread_cond_destroy(&x->c);
		pthread_mutex_destroy(&x->m);
	}
	shim_vg_new_memory(x, sizeof(*x));
	x->m = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
	x->c = (pthread_cond_t)PTHREAD_COND_INITIALIZER;
	x->done = 0;
	x->magic = SHIM_COMPLETION_MAGIC;
}

void reinit_completion(struct completion *x)
{
	pthread_mutex_lock(&x->m);
	x->done = 0;
	pthread_mutex_unlock(&x->m);
}

void complete(struct completion *x)
{
	shim_ctl_only(SHIM_OP_COMPLETE, x, false, __FILE__, __LINE__);
	shim_hook_wmm_mb();
	pthread_mutex_lock(&x->m);
	if (x->done != UINT_MAX)
		x->done++;
	pthread_cond_signal(&x->c);
	pthread_mutex_unlock(&x->m);
	shim_hook_signal(x);
}

void complete_all(struct completion *x)
{
	shim_ctl_only(SHIM_OP_COMPLETE, x, false, __FILE__, __LINE__);
	shim_hook_wmm_mb();
	pthread_mutex_lock(&x->m);
	x->done = UINT_MAX;
	pthread_cond_broadcast(&x->c);
	pthread_mutex_unlock(&x->m);
	shim_hook_signal(x);
}

/*
 * Under the explorer: blocked on the completion until complete() (or,
 * with @ms > 0, until that much simulated time passed); x->m is never
 * held across the block.  False on timeout.
 */
static bool ctl_wait_done(struct completion *x, long ms, const char *file,
			  int line, const char *func)
{
	long start = shim_hook_now_ms();

	shim_hook_point(SHIM_OP_WAIT, x, false, file, line);
	for (;;) {
		pthread_mutex_lock(&x->m);
		if (x->done) {
			if (x->done != UINT_MAX)
				x->done--;
			pthread_mutex_unlock(&x->m);
			return true;
		}
		pthread_mutex_unlock(&x->m);
		if (ms <= 0) {
			shim_hook_block(x, SHIM_OP_WAIT, file, line, func);
			continue;
		}
		if (shim_hook_now_ms() - start >= ms)
			return false;
		shim_hook_block_timed(x, ms - (shim_hook_now_ms() - start),
				      SHIM_OP_WAIT, file, line, func);
	}
}

/* Wait for x->done with x->m held; false on timeout (@ms > 0 only). */
static bool wait_done(struct completion *x, long ms, const char *file,
		      int line, const char *func)
{
	unsigned int bound = shim_hung_task_ms();
	long start = shim_now_ms();

	while (!x->done) {
		long left = ms > 0 ? ms - (shim_now_ms() - start) : bound;
		struct timespec ts;

		if (ms > 0 && left <= 0)
			return false;
		ts = shim_deadline_ms(min_t(long, left, bound));
		if (pthread_cond_timedwait(&x->c, &x->m, &ts) != ETIMEDOUT || x->done)
			continue;
		if (ms > 0 && shim_now_ms() - start < bound)
			continue;
		pthread_mutex_unlock(&x->m);
		shim_hung_task(file, line, func);
		pthread_mutex_lock(&x->m);
		start = shim_now_ms();
	}
	if (x->done != UINT_MAX)
		x->done--;
	return true;
}

void __shim_wait_for_completion(struct completion *x, const char *file,
				int line, const char *func)
{
	__shim_might_sleep(file, line);
	if (shim_hook_on()) {
		ctl_wait_done(x, 0, file, line, func);
		return;
	}
	pthread_mutex_lock(&x->m);
	wait_done(x, 0, file, line, func);
	pthread_mutex_unlock(&x->m);
}

unsigned long __shim_wait_for_completion_timeout(struct completion *x,
						 unsigned long timeout,
						 const char *file, int line,
						 const char *func)
{
	long start = shim_now_ms();
	bool done;

	__shim_might_sleep(file, line);
	if (shim_hook_on()) {
		if (!ctl_wait_done(x, timeout ? (long)timeout : 1, file, line, func))
			return 0;
		return max(1L, (long)timeout - (shim_now_ms() - start));
	}
	pthread_mutex_lock(&x->m);
	done = wait_done(x, timeout ? (long)timeout : 1, file, line, func);
	pthread_mutex_unlock(&x->m);
	if (!done)
		return 0;
	return max(1L, (long)timeout - (shim_now_ms() - start));
}

bool try_wait_for_completion(struct completion *x)
{
	bool ret = false;

	shim_ctl_only(SHIM_OP_WAIT, x, false, __FILE__, __LINE__);
	shim_hook_wmm_mb();
	pthread_mutex_lock(&x->m);
	if (x->done) {
		if (x->done != UINT_MAX)
			x->done--;
		ret = true;
	}
	pthread_mutex_unlock(&x->m);
	return ret;
}

/* A read of the completion: its own point, labelled by it (explorer). */
bool __shim_completion_done(struct completion *x, const char *file, int line)
{
	bool ret;

	shim_ctl_only(SHIM_OP_DONE, x, true, file, line);
	pthread_mutex_lock(&x->m);
	ret = x->done != 0;
	pthread_mutex_unlock(&x->m);
	return ret;
}

void sema_init(struct semaphore *sem, int val)
{
	if (sem->magic == SHIM_SEMAPHORE_MAGIC) {
		pthread_cond_destroy(&sem->c);
		pthread_mutex_destroy(&sem->m);
	}
	shim_vg_new_memory(sem, sizeof(*sem));
	sem->m = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
	sem->c = (pthread_cond_t)PTHREAD_COND_INITIALIZER;
	sem->count = val;
	sem->magic = SHIM_SEMAPHORE_MAGIC;
}

void __shim_down(struct semaphore *sem, const char *file, int line,
		 const char *func)
{
	__shim_might_sleep(file, line);
	shim_ctl_only(SHIM_OP_SEMAPHORE, sem, false, file, line);
	shim_hook_wmm_mb();
	pthread_mutex_lock(&sem->m);
	while (!sem->count && shim_hook_on()) {
		/* The explorer's wait: blocked on the semaphore until up(). */
		pthread_mutex_unlock(&sem->m);
		shim_hook_block(sem, SHIM_OP_SEMAPHORE, file, line, func);
		pthread_mutex_lock(&sem->m);
	}
	while (!sem->count) {
		struct timespec ts = shim_deadline_ms(shim_hung_task_ms());

		if (pthread_cond_timedwait(&sem->c, &sem->m, &ts) != ETIMEDOUT ||
		    sem->count)
			continue;
		pthread_mutex_unlock(&sem->m);
		shim_hung_task(file, line, func);
		pthread_mutex_lock(&sem->m);
	}
	sem->count--;
	pthread_mutex_unlock(&sem->m);
}

int down_trylock(struct semaphore *sem)
{
	int busy;

	shim_ctl_only(SHIM_OP_SEMAPHORE, sem, false, __FILE__, __LINE__);
	shim_hook_wmm_mb();
	pthread_mutex_lock(&sem->m);
	busy = !sem->count;
	if (!busy)
		sem->count--;
	pthread_mutex_unlock(&sem->m);
	return busy;
}

void up(struct semaphore *sem)
{
	shim_ctl_only(SHIM_OP_SEMAPHORE, sem, false, __FILE__, __LINE__);
	shim_hook_wmm_mb();
	pthread_mutex_lock(&sem->m);
	sem->count++;
	pthread_cond_signal(&sem->c);
	pthread_mutex_unlock(&sem->m);
	shim_hook_signal(sem);
}
