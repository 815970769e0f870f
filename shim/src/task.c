// SPDX-License-Identifier: GPL-2.0
/*
 * Tasks on pthreads: current, sleeping and waking with the kernel's
 * protocol, kthreads, the hung-task bound on every sleep, and
 * DEBUG_ATOMIC_SLEEP's check that a blocking call starts TASK_RUNNING.
 */
/* Bookkeeping here is no scheduling point (<shim/ctl-hook.h>). */
#define SHIM_INTERNAL
#define _GNU_SOURCE		/* pthread_getname_np(), program_invocation_short_name */

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/sched/task.h>
#include <linux/delay.h>
#include <shim/ctl-wmm.h>
#include "shim-internal.h"

static __thread struct task_struct *this_task;
static pthread_mutex_t tasks_lock = PTHREAD_MUTEX_INITIALIZER;
static struct shim_task *kthreads;	/* made during the current test */
static int next_pid = 1;
static unsigned int hung_ms;

struct hung_expect {
	char func[64];
	void (*rescue)(void *);
	void *arg;
	bool armed;
};
static struct hung_expect hung_expect;

#define shim_to_task(s)	container_of(s, struct task_struct, shim)

static struct task_struct *task_alloc(const char *name)
{
	struct task_struct *p = calloc(1, sizeof(*p));

	if (!p)
		abort();
	pthread_mutex_init(&p->shim.wait_lock, NULL);
	pthread_cond_init(&p->shim.wait_cond, NULL);
	p->shim.usage = 1;
	p->__state = TASK_RUNNING;
	snprintf(p->comm, sizeof(p->comm), "%s", name);
	pthread_mutex_lock(&tasks_lock);
	p->pid = next_pid++;
	pthread_mutex_unlock(&tasks_lock);
	return p;
}

/*
 * A thread the shim did not start (a test's or a program's own) becomes
 * a task on first use: named after its pthread name, the main thread
 * after $SHIM_MAIN_TASK_NAME or the program.  At its exit the task goes
 * on a free list for the next such thread once its last reference is
 * put, instead of being freed: a late wake_up_process() (klist_release()
 * may wake a remover that has returned) must still find a task struct,
 * as RCU keeps it in the kernel; it sees a spurious wake-up at worst.
 * So a program holds as many as it ever had such threads at once.
 * shim.data marks these tasks; shim.next_kthread links the free list.
 */
static pthread_key_t foreign_key;
static pthread_once_t foreign_once = PTHREAD_ONCE_INIT;
static struct shim_task *foreign_free;	/* under tasks_lock */

static void foreign_exit(void *arg)
{
	struct task_struct *p = arg;

	if (this_task == p)
		this_task = NULL;
	put_task_struct(p);	/* the thread's own reference */
}

static void foreign_key_create(void)
{
	if (pthread_key_create(&foreign_key, foreign_exit))
		abort();
}

static struct task_struct *foreign_task(void)
{
	struct task_struct *p = NULL;
	char name[TASK_COMM_LEN] = "";

	if (getpid() == (pid_t)syscall(SYS_gettid)) {
		const char *env = getenv("SHIM_MAIN_TASK_NAME");

		snprintf(name, sizeof(name), "%s",
			 env && *env ? env : program_invocation_short_name);
	} else if (pthread_getname_np(pthread_self(), name, sizeof(name)) || !*name) {
		snprintf(name, sizeof(name), "thread");
	}
	pthread_mutex_lock(&tasks_lock);
	if (foreign_free) {
		p = shim_to_task(foreign_free);
		foreign_free = p->shim.next_kthread;
		p->pid = next_pid++;
	}
	pthread_mutex_unlock(&tasks_lock);
	if (!p)
		return task_alloc(name);
	/* Everything but the wait lock and condition, which stay initialised. */
	memset(&p->shim.thread, 0,
	       sizeof(p->shim) - offsetof(struct shim_task, thread));
	p->shim.usage = 1;
	WRITE_ONCE(p->__state, TASK_RUNNING);
	snprintf(p->comm, sizeof(p->comm), "%s", name);
	return p;
}

struct task_struct *shim_current(void)
{
	if (!this_task) {
		struct task_struct *p = foreign_task();

		p->shim.thread = pthread_self();
		p->shim.data = &foreign_key;
		pthread_once(&foreign_once, foreign_key_create);
		pthread_setspecific(foreign_key, p);
		this_task = p;
	}
	return this_task;
}

/* The explorer's tasks share one thread: it says who runs (shim/explore/explore.c). */
void shim_set_current(struct task_struct *p)
{
	this_task = p;
}

int shim_pids_mark(void)
{
	return next_pid;
}

void shim_pids_reset(int next)
{
	next_pid = next;
}

const char *shim_task_name(struct task_struct *p)
{
	return p ? p->comm : "?";
}

unsigned int shim_hung_task_ms(void)
{
	unsigned int ms = READ_ONCE(hung_ms);

	if (!ms) {
		const char *env = getenv("SHIM_HUNG_TASK_MS");

		ms = env && atoi(env) > 0 ? (unsigned int)atoi(env) : 3000;
		WRITE_ONCE(hung_ms, ms);
	}
	return ms;
}

void shim_set_hung_task_ms(unsigned int ms)
{
	WRITE_ONCE(hung_ms, ms);
}

void shim_expect_hung_task(const char *func, void (*rescue)(void *), void *arg)
{
	pthread_mutex_lock(&tasks_lock);
	snprintf(hung_expect.func, sizeof(hung_expect.func), "%s", func);
	hung_expect.rescue = rescue;
	hung_expect.arg = arg;
	hung_expect.armed = true;
	pthread_mutex_unlock(&tasks_lock);
	shim_expect_report(func);
}

void shim_hung_task(const char *file, int line, const char *func)
{
	struct task_struct *p = current;
	struct hung_expect e = { .armed = false };

	pthread_mutex_lock(&tasks_lock);
	if (hung_expect.armed && !strcmp(func, hung_expect.func)) {
		e = hung_expect;
		hung_expect.armed = false;
	}
	pthread_mutex_unlock(&tasks_lock);
	shim_report(file, line, "INFO: task %s:%d blocked for more than %u ms in %s at %s:%d",
		    p->comm, p->pid, shim_hung_task_ms(), func, file, line);
	/* Only an expected hang returns here. */
	if (e.armed && e.rescue)
		e.rescue(e.arg);
}

/*
 * A blocking call leaves the task TASK_RUNNING, so entered in another
 * state it destroys that state: a wake-up meant for the caller's own
 * wait loop is lost.  The kernel's __might_sleep() warns; so do we,
 * with the place set_current_state() ran.
 */
static void check_task_running(const char *file, int line)
{
	struct task_struct *p = current;
	unsigned int state = READ_ONCE(p->__state);

	if (state == TASK_RUNNING)
		return;
	shim_report(file, line,
		    "WARNING: do not call blocking ops when !TASK_RUNNING; state=%x set at [<%s:%d>] %s() (blocking op at %s:%d, task %s)",
		    state, p->shim.state_file ? p->shim.state_file : "?",
		    p->shim.state_line,
		    p->shim.state_func ? p->shim.state_func : "?", file, line,
		    p->comm);
}

/* might_sleep(): the task state here, the atomic context in lock.c. */
void __shim_might_sleep(const char *file, int line)
{
	check_task_running(file, line);
	__shim_might_resched(file, line);
}

void shim_set_current_state(unsigned int state, bool full_barrier,
			    const char *file, int line, const char *func)
{
	struct task_struct *p = current;

	/*
	 * The point comes before the store, as every other one: a waker
	 * must be able to run between a test and the state change that
	 * follows it, or a lost wake-up (test, then set state) is one
	 * step the explorer can never split.
	 */
	shim_point(SHIM_OP_SET_STATE, p, false, file, line);
	pthread_mutex_lock(&p->shim.wait_lock);
	WRITE_ONCE(p->__state, state);
	p->shim.state_file = file;
	p->shim.state_line = line;
	p->shim.state_func = func;
	pthread_mutex_unlock(&p->shim.wait_lock);
	if (full_barrier)
		shim_hook_wmm_mb();	/* smp_store_mb()'s (explore-wmm.c) */
}

/*
 * The explorer's sleep: blocked on the task itself until a wake-up sets
 * it TASK_RUNNING, or until @timeout_ms of simulated time pass.
 */
static long ctl_sleep(long timeout_ms, const char *file, int line,
		      const char *func)
{
	struct task_struct *p = current;
	long start = shim_hook_now_ms();

	while (READ_ONCE(p->__state) != TASK_RUNNING) {
		if (timeout_ms <= 0) {
			shim_hook_block(p, SHIM_OP_SCHEDULE, file, line, func);
			continue;
		}
		if (shim_hook_block_timed(p, timeout_ms - (shim_hook_now_ms() - start),
					  SHIM_OP_SCHEDULE, file, line, func) &&
		    shim_hook_now_ms() - start >= timeout_ms) {
			pthread_mutex_lock(&p->shim.wait_lock);
			WRITE_ONCE(p->__state, TASK_RUNNING);
			pthread_mutex_unlock(&p->shim.wait_lock);
			return 0;
		}
	}
	if (timeout_ms > 0)
		return max(1L, timeout_ms - (shim_hook_now_ms() - start));
	return 0;
}

/* Sleep until woken or @timeout_ms passes (0: the hung-task bound applies). */
static long sleep_until_woken(long timeout_ms, const char *file, int line,
			      const char *func)
{
	struct task_struct *p = current;
	long start = shim_now_ms(), left = timeout_ms;
	unsigned int bound = shim_hung_task_ms();

	/* This is where a task sleeps !TASK_RUNNING: only the context counts. */
	__shim_might_resched(file, line);
	shim_point(SHIM_OP_SCHEDULE, p, true, file, line);
	if (shim_hook_on())
		return ctl_sleep(timeout_ms, file, line, func);
	pthread_mutex_lock(&p->shim.wait_lock);
	if (p->__state == TASK_RUNNING) {
		pthread_mutex_unlock(&p->shim.wait_lock);
		sched_yield();
		return timeout_ms;
	}
	for (;;) {
		unsigned int wait = bound;
		struct timespec ts;
		int rc;

		if (timeout_ms > 0 && left < wait)
			wait = left;
		ts = shim_deadline_ms(wait);
		rc = 0;
		while (p->__state != TASK_RUNNING && rc != ETIMEDOUT)
			rc = pthread_cond_timedwait(&p->shim.wait_cond,
						    &p->shim.wait_lock, &ts);
		if (p->__state == TASK_RUNNING)
			break;
		if (timeout_ms > 0) {
			left = timeout_ms - (shim_now_ms() - start);
			if (left <= 0) {
				WRITE_ONCE(p->__state, TASK_RUNNING);
				left = 0;
				break;
			}
			if (wait < bound)
				continue;
		}
		pthread_mutex_unlock(&p->shim.wait_lock);
		shim_hung_task(file, line, func);
		pthread_mutex_lock(&p->shim.wait_lock);
	}
	pthread_mutex_unlock(&p->shim.wait_lock);
	if (timeout_ms > 0)
		return max(0L, timeout_ms - (shim_now_ms() - start));
	return 0;
}

void __shim_schedule(const char *file, int line, const char *func)
{
	sleep_until_woken(0, file, line, func);
}

long __shim_schedule_timeout(long timeout, const char *file, int line,
			     const char *func)
{
	return sleep_until_woken(timeout > 0 ? timeout : 1, file, line, func);
}

long __shim_schedule_timeout_state(long timeout, unsigned int state,
				   const char *file, int line, const char *func)
{
	check_task_running(file, line);
	shim_set_current_state(state, true, file, line, func);
	return sleep_until_woken(timeout > 0 ? timeout : 1, file, line, func);
}

int wake_up_process(struct task_struct *p)
{
	int woke = 0;

	shim_point(SHIM_OP_WAKE, p, false, __FILE__, __LINE__);
	shim_hook_wmm_mb();	/* try_to_wake_up()'s smp_mb__after_spinlock() */
	pthread_mutex_lock(&p->shim.wait_lock);
	p->shim.woken = true;
	if (p->__state != TASK_RUNNING) {
		WRITE_ONCE(p->__state, TASK_RUNNING);
		pthread_cond_signal(&p->shim.wait_cond);
		woke = 1;
	}
	pthread_mutex_unlock(&p->shim.wait_lock);
	shim_hook_signal(p);
	return woke;
}

void yield(void)
{
	if (shim_hook_on())
		shim_hook_point(SHIM_OP_YIELD, NULL, true, __FILE__, __LINE__);
	else
		sched_yield();
}

void __shim_msleep(unsigned int msecs, const char *file, int line)
{
	struct timespec ts = { msecs / 1000, (long)(msecs % 1000) * 1000000L };

	/* Stricter than 6.1, whose msleep() overwrites the state unchecked. */
	__shim_might_sleep(file, line);
	if (shim_hook_on()) {
		/* Simulated time: others run meanwhile, or the clock jumps. */
		shim_hook_block_timed(&ts, msecs, SHIM_OP_MSLEEP, file, line, "msleep");
		return;
	}
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

void shim_udelay(unsigned long usecs)
{
	long end = shim_now_ms() + (long)(usecs + 999) / 1000;

	/* A busy wait: no simulated time passes, but others may run. */
	if (shim_hook_on()) {
		shim_hook_point(SHIM_OP_YIELD, NULL, true, __FILE__, __LINE__);
		return;
	}
	while (shim_now_ms() < end)
		sched_yield();
}

struct task_struct *get_task_struct(struct task_struct *t)
{
	shim_vg_marked(&t->shim.usage, sizeof(t->shim.usage));
	__atomic_add_fetch(&t->shim.usage, 1, __ATOMIC_SEQ_CST);
	return t;
}

void put_task_struct(struct task_struct *t)
{
	int usage;

	/* kthreads' task structs live until the test ends; others see above. */
	shim_vg_marked(&t->shim.usage, sizeof(t->shim.usage));
	usage = __atomic_sub_fetch(&t->shim.usage, 1, __ATOMIC_SEQ_CST);
	if (usage < 0)
		shim_report(__FILE__, __LINE__,
			    "refcount_t: underflow; put_task_struct on %s", t->comm);
	if (usage == 0 && t->shim.data == &foreign_key) {
		pthread_mutex_lock(&tasks_lock);
		t->shim.next_kthread = foreign_free;
		foreign_free = &t->shim;
		pthread_mutex_unlock(&tasks_lock);
	}
}

/* --- kthreads ----------------------------------------------------------- */

static void *kthread_main(void *arg)
{
	struct task_struct *p = arg;
	bool run;
	int ret = -EINTR;

	this_task = p;
	shim_guard_thread_start();
	/* Like the kernel: a new kthread sleeps until its first wake-up. */
	while (shim_hook_on() && READ_ONCE(p->__state) != TASK_RUNNING)
		shim_hook_block(p, SHIM_OP_KTHREAD, __FILE__, __LINE__,
			       "kthread (never woken)");
	pthread_mutex_lock(&p->shim.wait_lock);
	while (p->__state != TASK_RUNNING)
		pthread_cond_wait(&p->shim.wait_cond, &p->shim.wait_lock);
	/*
	 * Woken by kthread_stop() alone: 6.1's kthread() finds
	 * KTHREAD_SHOULD_STOP set and exits with -EINTR, threadfn never run.
	 */
	run = p->shim.woken || !p->shim.should_stop;
	pthread_mutex_unlock(&p->shim.wait_lock);

	if (run)
		ret = p->shim.threadfn(p->shim.data);
	shim_locks_check_task(p, "returning from a kthread");
	pthread_mutex_lock(&p->shim.wait_lock);
	p->shim.result = ret;
	p->shim.exited = true;
	pthread_mutex_unlock(&p->shim.wait_lock);
	return NULL;
}

static void ctl_kthread_main(struct task_struct *p)
{
	kthread_main(p);
}

struct task_struct *kthread_create(int (*threadfn)(void *data), void *data,
				   const char *namefmt, ...)
{
	struct task_struct *p;
	char name[TASK_COMM_LEN];
	va_list ap;

	might_sleep();
	va_start(ap, namefmt);
	vsnprintf(name, sizeof(name), namefmt, ap);
	va_end(ap);
	/*
	 * Before the pid is taken: two creations in two tasks take them in
	 * the order their points run (the explorer labels this point by
	 * its task table).
	 */
	shim_ctl_only(SHIM_OP_KTHREAD, NULL, false, __FILE__, __LINE__);
	p = task_alloc(name);
	p->__state = TASK_UNINTERRUPTIBLE;
	p->shim.state_file = __FILE__;	/* kthread(), before its first wake-up */
	p->shim.state_line = __LINE__;
	p->shim.state_func = "kthread";
	p->shim.is_kthread = true;
	p->shim.threadfn = threadfn;
	p->shim.data = data;
	if (shim_hook_task_new(p, ctl_kthread_main)) {
		/* Under the explorer: a coroutine, not a thread. */
	} else if (pthread_create(&p->shim.thread, NULL, kthread_main, p)) {
		free(p);
		return ERR_PTR(-ENOMEM);
	}
	pthread_mutex_lock(&tasks_lock);
	p->shim.next_kthread = kthreads;
	kthreads = &p->shim;
	pthread_mutex_unlock(&tasks_lock);
	return p;
}

bool kthread_should_stop(void)
{
	struct task_struct *p = current;
	bool stop;

	shim_ctl_only(SHIM_OP_KTHREAD, p, true, __FILE__, __LINE__);
	pthread_mutex_lock(&p->shim.wait_lock);
	stop = p->shim.should_stop;
	pthread_mutex_unlock(&p->shim.wait_lock);
	return stop;
}

int kthread_stop(struct task_struct *k)
{
	might_sleep();
	/* Before should_stop is set: the thread may test it either side. */
	shim_ctl_only(SHIM_OP_KTHREAD, k, false, __FILE__, __LINE__);
	pthread_mutex_lock(&k->shim.wait_lock);
	if (k->shim.stopped) {
		pthread_mutex_unlock(&k->shim.wait_lock);
		shim_report(__FILE__, __LINE__, "BUG: kthread_stop on %s twice", k->comm);
		return -EINVAL;
	}
	k->shim.should_stop = true;
	k->shim.stopped = true;
	WRITE_ONCE(k->__state, TASK_RUNNING);
	pthread_cond_signal(&k->shim.wait_cond);
	pthread_mutex_unlock(&k->shim.wait_lock);
	shim_hook_signal(k);
	shim_kthread_wait_exit(k);
	if (!k->shim.ctl_slot)
		pthread_join(k->shim.thread, NULL);
	return k->shim.result;
}

/* Under the explorer, waiting for a kthread to return is a block, not a join. */
void shim_kthread_wait_exit(struct task_struct *p)
{
	shim_ctl_only(SHIM_OP_KTHREAD, &p->shim.exited, true, __FILE__, __LINE__);
	while (shim_hook_on() && !READ_ONCE(p->shim.exited))
		shim_hook_block(&p->shim.exited, SHIM_OP_KTHREAD, __FILE__,
			       __LINE__, "kthread_stop (waits for the thread's exit)");
	shim_hook_wmm_mb();	/* the exit's barrier, joined */
}

/* End of test: every kthread must have been stopped or have returned. */
int shim_kthreads_check_and_reset(void)
{
	struct shim_task *s, *next;
	int problems = 0;

	pthread_mutex_lock(&tasks_lock);
	s = kthreads;
	kthreads = NULL;
	pthread_mutex_unlock(&tasks_lock);
	for (; s; s = next) {
		struct task_struct *p = shim_to_task(s);
		bool exited;

		next = s->next_kthread;
		pthread_mutex_lock(&s->wait_lock);
		exited = s->exited;
		pthread_mutex_unlock(&s->wait_lock);
		if (!exited) {
			fprintf(stderr, "shim: kthread %s still running at the end of the test\n",
				p->comm);
			problems++;
			continue;	/* leave it: it may still use its task */
		}
		if (!s->stopped && !s->ctl_slot)
			pthread_join(s->thread, NULL);
		free(p);
	}
	return problems;
}
