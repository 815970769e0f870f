// SPDX-License-Identifier: GPL-2.0
/*
 * High-resolution timers, fired in hardirq context on a "timer CPU".
 *
 * One thread per process stands for another CPU: it sleeps until the
 * earliest queued timer expires and runs the callback the way the
 * kernel's __run_hrtimer() does, with the base lock dropped, interrupts
 * disabled and in_hardirq() true, so lockdep marks what it takes
 * IN-HARDIRQ.  The queue holds the timer pointers and their expiries
 * outside the timers, so the end-of-test check can name a timer left
 * queued without reading it (it may have been freed).
 *
 * Each case is a process of its own; a fork (shim_run_in_child) leaves
 * the child without the thread, so the child starts with an empty base
 * and makes its own thread when it first starts a timer.
 */
/* Bookkeeping here is no scheduling point (<shim/ctl-hook.h>). */
#define SHIM_INTERNAL

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>
#include <linux/hrtimer.h>
#include <linux/sched.h>
#include "shim-internal.h"

#define MAX_QUEUED	32

struct queued {
	struct hrtimer *timer;
	ktime_t expires;
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t wake;		/* the queue changed (CLOCK_MONOTONIC) */
	pthread_cond_t idle;		/* a callback returned */
	bool started;
	struct task_struct *cpu;	/* the timer CPU's task */
	struct queued q[MAX_QUEUED];
	int nq;
	struct hrtimer *running;	/* its callback is running */
} base = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.idle = PTHREAD_COND_INITIALIZER,
};

/* --- the queue, with base.lock held ------------------------------------- */

static int find(const struct hrtimer *timer)
{
	int i;

	for (i = 0; i < base.nq; i++)
		if (base.q[i].timer == timer)
			return i;
	return -1;
}

static void dequeue(int i)
{
	base.q[i] = base.q[--base.nq];
}

static int earliest(void)
{
	int i, e = -1;

	for (i = 0; i < base.nq; i++)
		if (e < 0 || base.q[i].expires < base.q[e].expires)
			e = i;
	return e;
}

/* False (and reported) if the queue is full. */
static bool enqueue(struct hrtimer *timer, ktime_t expires)
{
	int i = find(timer);

	if (i < 0) {
		if (base.nq == MAX_QUEUED)
			return false;
		i = base.nq++;
	}
	base.q[i].timer = timer;
	base.q[i].expires = expires;
	pthread_cond_signal(&base.wake);
	return true;
}

/* --- the timer CPU ------------------------------------------------------ */

ktime_t ktime_get(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ktime_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/* The timer interrupt: the callback in hardirq context, interrupts off. */
static enum hrtimer_restart run_hardirq(struct task_struct *p,
					struct hrtimer *timer)
{
	enum hrtimer_restart (*fn)(struct hrtimer *) = timer->function;
	enum hrtimer_restart ret;

	p->shim.hardirq++;
	p->shim.irqs_off = true;
	ret = fn(timer);
	p->shim.irqs_off = false;
	p->shim.hardirq--;
	if (p->shim.nheld || p->shim.preempt_count)
		shim_locks_check_task(p, "returning from an hrtimer callback");
	return ret;
}

static void *cpu_main(void *unused)
{
	struct task_struct *p = current;

	snprintf(p->comm, sizeof(p->comm), "hrtimer-cpu");
	shim_guard_thread_start();
	pthread_mutex_lock(&base.lock);
	base.cpu = p;
	for (;;) {
		int i = earliest();
		struct hrtimer *timer;
		enum hrtimer_restart ret;
		ktime_t exp;

		if (i < 0) {
			pthread_cond_wait(&base.wake, &base.lock);
			continue;
		}
		exp = base.q[i].expires;
		if (exp > ktime_get()) {
			struct timespec ts = {
				.tv_sec = exp / NSEC_PER_SEC,
				.tv_nsec = exp % NSEC_PER_SEC,
			};

			pthread_cond_timedwait(&base.wake, &base.lock, &ts);
			continue;
		}
		timer = base.q[i].timer;
		dequeue(i);
		base.running = timer;
		pthread_mutex_unlock(&base.lock);
		ret = run_hardirq(p, timer);
		pthread_mutex_lock(&base.lock);
		/* Still ours: hrtimer_cancel() waits for base.running. */
		if (ret == HRTIMER_RESTART && find(timer) < 0 &&
		    !enqueue(timer, timer->_softexpires))
			shim_report(__FILE__, __LINE__,
				    "BUG: more than %d hrtimers queued", MAX_QUEUED);
		base.running = NULL;
		pthread_cond_broadcast(&base.idle);
	}
	return NULL;
}

static void atfork_prepare(void)
{
	pthread_mutex_lock(&base.lock);
}

static void atfork_parent(void)
{
	pthread_mutex_unlock(&base.lock);
}

/* The child has no timer CPU: it starts empty and makes its own. */
static void atfork_child(void)
{
	base.started = false;
	base.cpu = NULL;
	base.nq = 0;
	base.running = NULL;
	pthread_cond_init(&base.idle, NULL);
	pthread_mutex_unlock(&base.lock);
}

/* With base.lock held: the timer CPU runs from the first timer on. */
static void start_cpu(void)
{
	static bool atfork_registered;
	pthread_condattr_t attr;
	pthread_t thread;

	if (base.started)
		return;
	if (!atfork_registered) {
		pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
		atfork_registered = true;
	}
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&base.wake, &attr);
	pthread_condattr_destroy(&attr);
	if (pthread_create(&thread, NULL, cpu_main, NULL))
		abort();
	pthread_detach(thread);
	base.started = true;
}

/* --- the API ------------------------------------------------------------ */

static bool check_timer(const struct hrtimer *timer, const char *what)
{
	if (timer->magic == SHIM_HRTIMER_MAGIC)
		return true;
	shim_report(__FILE__, __LINE__,
		    "BUG: %s of hrtimer %p, which hrtimer_init() never initialised",
		    what, (const void *)timer);
	return false;
}

void hrtimer_init(struct hrtimer *timer, clockid_t which_clock,
		  enum hrtimer_mode mode)
{
	bool active;

	pthread_mutex_lock(&base.lock);
	active = find(timer) >= 0 || base.running == timer;
	pthread_mutex_unlock(&base.lock);
	if (active)
		shim_report(__FILE__, __LINE__,
			    "ODEBUG: init active object type: hrtimer %p (queued or running)",
			    (void *)timer);
	if (which_clock != CLOCK_MONOTONIC)
		shim_report(__FILE__, __LINE__,
			    "shim: hrtimer_init: clock %d is not supported (only CLOCK_MONOTONIC)",
			    (int)which_clock);
	if (!(mode & HRTIMER_MODE_HARD) || (mode & HRTIMER_MODE_SOFT))
		shim_report(__FILE__, __LINE__,
			    "shim: hrtimer_init: mode %#x is not supported (only HRTIMER_MODE_ABS_HARD and HRTIMER_MODE_REL_HARD)",
			    mode);
	memset(timer, 0, sizeof(*timer));
	timer->is_rel = !!(mode & HRTIMER_MODE_REL);
	timer->is_soft = !!(mode & HRTIMER_MODE_SOFT);
	timer->is_hard = !!(mode & HRTIMER_MODE_HARD);
	timer->magic = SHIM_HRTIMER_MAGIC;
}

void hrtimer_start(struct hrtimer *timer, ktime_t tim,
		   const enum hrtimer_mode mode)
{
	bool queued;

	if (!check_timer(timer, "hrtimer_start"))
		return;
	/* 6.1 warns on a SOFT mismatch; PREEMPT_RT on a HARD one too. */
	if (!(mode & HRTIMER_MODE_SOFT) != !timer->is_soft ||
	    !(mode & HRTIMER_MODE_HARD) != !timer->is_hard)
		shim_report(__FILE__, __LINE__,
			    "WARNING: hrtimer_start: mode %#x disagrees with the mode hrtimer_init() gave hrtimer %p",
			    mode, (void *)timer);
	if (!timer->function) {
		shim_report(__FILE__, __LINE__,
			    "BUG: hrtimer_start of hrtimer %p with no function",
			    (void *)timer);
		return;
	}
	if (mode & HRTIMER_MODE_REL)
		tim = ktime_add_safe(ktime_get(), tim);
	timer->_softexpires = tim;
	pthread_mutex_lock(&base.lock);
	start_cpu();
	queued = enqueue(timer, tim);
	pthread_mutex_unlock(&base.lock);
	if (!queued)
		shim_report(__FILE__, __LINE__, "BUG: more than %d hrtimers queued",
			    MAX_QUEUED);
}

int hrtimer_try_to_cancel(struct hrtimer *timer)
{
	int i, ret = 0;

	if (!check_timer(timer, "hrtimer_try_to_cancel"))
		return 0;
	pthread_mutex_lock(&base.lock);
	i = find(timer);
	if (base.running == timer) {
		ret = -1;
	} else if (i >= 0) {
		dequeue(i);
		pthread_cond_signal(&base.wake);
		ret = 1;
	}
	pthread_mutex_unlock(&base.lock);
	return ret;
}

int hrtimer_cancel(struct hrtimer *timer)
{
	int i, ret = 0;

	if (!check_timer(timer, "hrtimer_cancel"))
		return 0;
	pthread_mutex_lock(&base.lock);
	if (base.running == timer && current == base.cpu) {
		pthread_mutex_unlock(&base.lock);
		shim_report(__FILE__, __LINE__,
			    "BUG: hrtimer_cancel of hrtimer %p from its own callback: it waits for itself",
			    (void *)timer);
		return -1;
	}
	/* Like hrtimer_cancel_wait_running(): spin until the callback is done. */
	while (base.running == timer) {
		struct timespec ts = shim_deadline_ms(shim_hung_task_ms());

		if (pthread_cond_timedwait(&base.idle, &base.lock, &ts) != ETIMEDOUT ||
		    base.running != timer)
			continue;
		pthread_mutex_unlock(&base.lock);
		shim_report(__FILE__, __LINE__,
			    "BUG: hrtimer_cancel: the callback of hrtimer %p still runs after %u ms",
			    (void *)timer, shim_hung_task_ms());
		pthread_mutex_lock(&base.lock);
	}
	i = find(timer);
	if (i >= 0) {
		dequeue(i);
		pthread_cond_signal(&base.wake);
		ret = 1;
	}
	pthread_mutex_unlock(&base.lock);
	return ret;
}

bool hrtimer_active(const struct hrtimer *timer)
{
	bool active;

	pthread_mutex_lock(&base.lock);
	active = find(timer) >= 0 || base.running == timer;
	pthread_mutex_unlock(&base.lock);
	return active;
}

bool hrtimer_is_queued(struct hrtimer *timer)
{
	bool queued;

	pthread_mutex_lock(&base.lock);
	queued = find(timer) >= 0;
	pthread_mutex_unlock(&base.lock);
	return queued;
}

/* kernel/time/hrtimer.c, with a 1 ns resolution. */
u64 hrtimer_forward(struct hrtimer *timer, ktime_t now, ktime_t interval)
{
	ktime_t delta = ktime_sub(now, hrtimer_get_expires(timer));
	u64 orun = 1;

	if (delta < 0)
		return 0;
	if (hrtimer_is_queued(timer)) {
		shim_report(__FILE__, __LINE__,
			    "WARNING: hrtimer_forward of queued hrtimer %p",
			    (void *)timer);
		return 0;
	}
	if (interval < 1)
		interval = 1;
	if (delta >= interval) {
		s64 incr = ktime_to_ns(interval);

		orun = delta / incr;
		timer->_softexpires += incr * orun;
		if (timer->_softexpires > now)
			return orun;
		orun++;
	}
	timer->_softexpires += interval;
	return orun;
}

/* End of test: no timer may still be queued or running. */
int shim_hrtimers_check_and_reset(void)
{
	int i, problems = 0;

	pthread_mutex_lock(&base.lock);
	for (i = 0; i < base.nq; i++) {
		fprintf(stderr, "shim: hrtimer %p still queued at the end of the test (hrtimer_cancel() it first)\n",
			(void *)base.q[i].timer);
		problems++;
	}
	base.nq = 0;
	if (base.running) {
		fprintf(stderr, "shim: the callback of hrtimer %p still runs at the end of the test\n",
			(void *)base.running);
		problems++;
	}
	pthread_mutex_unlock(&base.lock);
	return problems;
}
