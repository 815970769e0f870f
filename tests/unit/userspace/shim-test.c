// SPDX-License-Identifier: GPL-2.0
/*
 * The shim is stricter than the kernel, never looser: each check here
 * shows one detector firing (with the place it fired), and that an
 * unexpected report fails a test.  Bodies that must fail run in a
 * forked child (shim_run_in_child) whose verdict the case inspects.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/errno.h>
#include <linux/kref.h>
#include <linux/kthread.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/semaphore.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <shim/shim.h>

#include "shim-child.h"

static DEFINE_SPINLOCK(lock_a);
static DEFINE_SPINLOCK(lock_b);
static DEFINE_MUTEX(mutex_a);

static void sleep_under_spinlock(void *unused)
{
	spin_lock(&lock_a);
	might_sleep();
	spin_unlock(&lock_a);
}

static void shim_sleep_under_spinlock_fails_test(struct kunit *test)
{
	child_fails_with(test, sleep_under_spinlock, NULL,
			   "BUG: sleeping function called from invalid context at");
	child_fails_with(test, sleep_under_spinlock, NULL, "shim-test.c:");
}

static void shim_sleep_under_spinlock_expected(struct kunit *test)
{
	shim_expect_report("sleeping function called from invalid context");
	sleep_under_spinlock(NULL);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
}

static void shim_sleep_with_irqs_off_reported(struct kunit *test)
{
	unsigned long flags;

	shim_expect_report("irqs_disabled(): 1");
	local_irq_save(flags);
	msleep(1);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
}

static void shim_mutex_under_spinlock_reported(struct kunit *test)
{
	shim_expect_report("sleeping function called from invalid context");
	spin_lock(&lock_a);
	mutex_lock(&mutex_a);
	mutex_unlock(&mutex_a);
	spin_unlock(&lock_a);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
}

static void shim_gfp_kernel_in_atomic_reported(struct kunit *test)
{
	void *p, *q;

	shim_expect_report("sleeping function called from invalid context");
	spin_lock(&lock_a);
	p = kmalloc(8, GFP_ATOMIC);	/* fine */
	q = kmalloc(8, GFP_KERNEL);	/* may sleep: reported */
	spin_unlock(&lock_a);
	kfree(p);
	kfree(q);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
}

static void shim_spin_recursion_reported(struct kunit *test)
{
	shim_expect_report("spinlock recursion");
	spin_lock(&lock_a);
	spin_lock(&lock_a);
	spin_unlock(&lock_a);
	spin_unlock(&lock_a);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
	KUNIT_EXPECT_FALSE(test, spin_is_locked(&lock_a));
}

static void shim_unlock_not_held_reported(struct kunit *test)
{
	shim_expect_report("unlock of a lock not held: lock_b");
	spin_unlock(&lock_b);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
}

static void shim_uninitialised_lock_reported(struct kunit *test)
{
	spinlock_t *l = kzalloc(sizeof(*l), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, l);
	shim_expect_report("bad magic");
	spin_lock(l);
	kfree(l);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
}

static void take_a_then_b(void)
{
	spin_lock(&lock_a);
	spin_lock(&lock_b);
	spin_unlock(&lock_b);
	spin_unlock(&lock_a);
}

static void lock_inversion(void *unused)
{
	take_a_then_b();
	spin_lock(&lock_b);
	spin_lock(&lock_a);	/* never deadlocks here, still an inversion */
	spin_unlock(&lock_a);
	spin_unlock(&lock_b);
}

static void shim_lock_order_inversion_fails_test(struct kunit *test)
{
	child_fails_with(test, lock_inversion, NULL,
			   "possible circular locking dependency detected: lock_b -> lock_a");
}

static void shim_lock_order_consistent_passes(struct kunit *test)
{
	take_a_then_b();
	take_a_then_b();
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 0);
}

static void shim_lock_classes_by_init_site(struct kunit *test)
{
	spinlock_t *l = kunit_kcalloc(test, 2, sizeof(*l), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, l);
	for (i = 0; i < 2; i++)
		spin_lock_init(&l[i]);	/* one site, one class */
	shim_expect_report("possible recursive locking detected");
	spin_lock(&l[0]);
	spin_lock(&l[1]);
	spin_unlock(&l[1]);
	spin_unlock(&l[0]);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
}

static void noop_release(struct kref *k)
{
}

static void shim_refcount_underflow_reported(struct kunit *test)
{
	struct kref k;

	kref_init(&k);
	KUNIT_EXPECT_EQ(test, kref_put(&k, noop_release), 1);
	shim_expect_report("refcount_t: underflow");
	KUNIT_EXPECT_EQ(test, kref_put(&k, noop_release), 0);
	shim_expect_report("refcount_t: addition on 0");
	kref_get(&k);
	KUNIT_EXPECT_EQ(test, kref_read(&k), 0U);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 2);
}

static void shim_leak(void *unused)
{
	void *p = kmalloc(24, GFP_KERNEL);

	(void)p;
}

static void shim_leak_fails_test(struct kunit *test)
{
	char title[600];

	KUNIT_EXPECT_EQ(test, shim_run_in_child(shim_leak, NULL, title, sizeof(title)), 1);
	KUNIT_EXPECT_TRUE(test, strstr(title, "end-of-test checks failed") != NULL);
}

static void shim_declared_leak_passes(struct kunit *test)
{
	shim_leak(NULL);
	KUNIT_EXPECT_EQ(test, shim_live_allocs(), (size_t)1);
	shim_expect_leaks(1);
}

static void write_after_free(void *unused)
{
	int *p = kmalloc(sizeof(*p) * 4, GFP_KERNEL);

	kfree(p);
	WRITE_ONCE(p[2], 7);	/* the bug */
}

static void shim_write_after_free_fails_test(struct kunit *test)
{
	char title[600];

	KUNIT_EXPECT_EQ(test, shim_run_in_child(write_after_free, NULL, title,
						sizeof(title)), 1);
#ifndef __SANITIZE_ADDRESS__
	/* ASan stops the child at the write, with no title. */
	KUNIT_EXPECT_TRUE_MSG(test, strstr(title, "use-after-free") != NULL,
			      "report was \"%s\"", title);
#endif
}

static void shim_freed_memory_is_poisoned(struct kunit *test)
{
	unsigned char *p = kmalloc(16, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_FALSE(test, shim_is_freed(p));
	kfree(p);
	KUNIT_EXPECT_TRUE(test, shim_is_freed(p + 8));
}

static void shim_double_free_reported(struct kunit *test)
{
	void *p = kmalloc(8, GFP_KERNEL);

	shim_expect_report("double free");
	kfree(p);
	kfree(p);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
}

static void overflow_by_one(void *unused)
{
	char *p = kmalloc(8, GFP_KERNEL);

	memset(p, 0, 9);	/* the bug */
	kfree(p);
}

static void shim_overflow_reported_at_kfree(struct kunit *test)
{
#ifdef __SANITIZE_ADDRESS__
	/* The redzone is poisoned: ASan stops the child at the write. */
	child_fails_with(test, overflow_by_one, NULL, "");
#else
	child_fails_with(test, overflow_by_one, NULL,
			   "out-of-bounds write past a 8-byte block");
#endif
}

static void shim_alloc_failure_injection(struct kunit *test)
{
	void *a, *b, *c;

	shim_fail_next_allocs(2);
	a = kmalloc(8, GFP_KERNEL | __GFP_NOWARN);
	b = kzalloc(8, GFP_KERNEL | __GFP_NOWARN);
	c = kmalloc(8, GFP_KERNEL);
	KUNIT_EXPECT_NULL(test, a);
	KUNIT_EXPECT_NULL(test, b);
	KUNIT_EXPECT_NOT_NULL(test, c);
	kfree(c);
}

static void shim_alloc_fail_nth(struct kunit *test)
{
	void *p[3];
	int i;

	shim_fail_nth(2);
	KUNIT_EXPECT_EQ(test, shim_fail_nth_left(), 2U);
	for (i = 0; i < 3; i++)
		p[i] = kmalloc(8, GFP_KERNEL | __GFP_NOWARN);
	KUNIT_EXPECT_NOT_NULL(test, p[0]);
	KUNIT_EXPECT_NULL(test, p[1]);	/* the second, and only it */
	KUNIT_EXPECT_NOT_NULL(test, p[2]);
	KUNIT_EXPECT_EQ(test, shim_fail_nth_left(), 0U);
	kfree(p[0]);
	kfree(p[2]);
}

static void unexpected_warn(void *unused)
{
	WARN_ON(1);
}

static void shim_unexpected_warn_fails_test(struct kunit *test)
{
	child_fails_with(test, unexpected_warn, NULL, "WARNING: at ");
}

static void shim_expected_warn_passes(struct kunit *test)
{
	shim_expect_report("WARNING: at");
	KUNIT_EXPECT_TRUE(test, WARN(1, "expected %d", 1));
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
}

/*
 * A count of reports the schedule decides: three expected, two come;
 * the withdraw says two, and the unmet third fails nothing.  Another
 * substring's expectation stays (and is met).
 */
static void shim_expect_withdraw_counts(struct kunit *test)
{
	int i;

	for (i = 0; i < 3; i++)
		shim_expect_report("withdrawn kind");
	shim_expect_report("kept kind");
	WARN(1, "a withdrawn kind");
	WARN(1, "another withdrawn kind");
	KUNIT_EXPECT_EQ(test, shim_expect_report_withdraw("withdrawn kind"), 2);
	KUNIT_EXPECT_EQ(test, shim_expect_report_withdraw("withdrawn kind"), 0);
	WARN(1, "the kept kind");
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 3);
}

static void missing_report(void *unused)
{
	shim_expect_report("a report that never comes");
}

static void shim_unmet_expectation_fails_test(struct kunit *test)
{
	char title[600];

	KUNIT_EXPECT_EQ(test, shim_run_in_child(missing_report, NULL, title,
						sizeof(title)), 1);
}

static void wait_forever(void *unused)
{
	DECLARE_COMPLETION(never);

	shim_set_hung_task_ms(100);
	wait_for_completion(&never);
}

static void shim_hung_task_reported_with_place(struct kunit *test)
{
	child_fails_with(test, wait_forever, NULL,
			   "blocked for more than 100 ms in wait_forever at");
}

static void deadlock_mutex(void *unused)
{
	shim_set_hung_task_ms(100);
	mutex_lock(&mutex_a);
	mutex_lock(&mutex_a);
}

static void shim_mutex_self_deadlock_reported(struct kunit *test)
{
	child_fails_with(test, deadlock_mutex, NULL, "mutex recursion");
}

struct waker {
	struct task_struct *sleeper;
	struct completion armed;
	atomic_t woke;
};

static int waker_fn(void *data)
{
	struct waker *w = data;

	wait_for_completion(&w->armed);
	wake_up_process(w->sleeper);
	atomic_set(&w->woke, 1);
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

static void shim_no_lost_wakeup(struct kunit *test)
{
	struct waker w = { .sleeper = current };
	struct task_struct *t;

	init_completion(&w.armed);
	t = kthread_run(waker_fn, &w, "waker");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	set_current_state(TASK_UNINTERRUPTIBLE);
	complete(&w.armed);
	while (!atomic_read(&w.woke))
		yield();	/* the wake-up comes before we sleep */
	schedule();		/* must return: the wake-up was not lost */
	KUNIT_EXPECT_TRUE(test, task_is_running(current));
	kthread_stop(t);
}

static void shim_wake_up_running_task(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, wake_up_process(current), 0);
}

static void shim_irqsave_restores_flags(struct kunit *test)
{
	unsigned long outer, inner;

	KUNIT_EXPECT_FALSE(test, irqs_disabled());
	local_irq_save(outer);
	local_irq_save(inner);
	KUNIT_EXPECT_TRUE(test, irqs_disabled());
	local_irq_restore(inner);
	KUNIT_EXPECT_TRUE(test, irqs_disabled());	/* still the outer section */
	local_irq_restore(outer);
	KUNIT_EXPECT_FALSE(test, irqs_disabled());
	spin_lock_irqsave(&lock_a, outer);
	KUNIT_EXPECT_TRUE(test, irqs_disabled());
	KUNIT_EXPECT_TRUE(test, in_atomic());
	spin_unlock_irqrestore(&lock_a, outer);
	KUNIT_EXPECT_FALSE(test, in_atomic());
}

static int irq_runs;

static void count_irq(void *unused)
{
	irq_runs++;
	WARN_ON(!in_hardirq() || !irqs_disabled());
}

static void shim_irq_waits_for_irqs_on(struct kunit *test)
{
	unsigned long flags;

	irq_runs = 0;
	local_irq_save(flags);
	shim_raise_irq(count_irq, NULL);
	spin_lock(&lock_a);
	spin_unlock(&lock_a);
	KUNIT_EXPECT_EQ(test, irq_runs, 0);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, irq_runs, 1);
}

static void leave_lock_held(void *unused)
{
	spin_lock(&lock_a);
}

static void shim_lock_held_at_end_fails_test(struct kunit *test)
{
	child_fails_with(test, leave_lock_held, NULL, "lock(s) held");
}

static int idle_fn(void *data)
{
	msleep(500);
	return 0;
}

static void leave_kthread_running(void *unused)
{
	kthread_run(idle_fn, NULL, "idler");
}

static void shim_running_kthread_at_end_fails_test(struct kunit *test)
{
	char title[600];

	KUNIT_EXPECT_EQ(test, shim_run_in_child(leave_kthread_running, NULL, title,
						sizeof(title)), 1);
	KUNIT_EXPECT_TRUE(test, strstr(title, "end-of-test checks failed") != NULL);
}

static int result_fn(void *data)
{
	while (!kthread_should_stop())
		msleep(1);
	return 42;
}

static void shim_kthread_stop_returns_result(struct kunit *test)
{
	struct task_struct *t = kthread_run(result_fn, NULL, "result-%d", 7);

	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_EXPECT_STREQ(test, t->comm, "result-7");
	KUNIT_EXPECT_EQ(test, kthread_stop(t), 42);
}

static void shim_list_corruption_reported(struct kunit *test)
{
	LIST_HEAD(head);
	struct list_head a;

	list_add(&a, &head);
	list_del(&a);
	shim_expect_report("list_del corruption");
	list_del(&a);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
	KUNIT_EXPECT_TRUE(test, list_empty(&head));
}

static void shim_semaphore_counts(struct kunit *test)
{
	struct semaphore sem;

	sema_init(&sem, 2);
	down(&sem);
	down(&sem);
	KUNIT_EXPECT_NE(test, down_trylock(&sem), 0);
	up(&sem);
	KUNIT_EXPECT_EQ(test, down_trylock(&sem), 0);
	up(&sem);
	up(&sem);
}

static void shim_completion_timeout(struct kunit *test)
{
	DECLARE_COMPLETION(c);

	KUNIT_EXPECT_EQ(test, wait_for_completion_timeout(&c, msecs_to_jiffies(20)), 0UL);
	complete(&c);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&c, msecs_to_jiffies(20)), 0UL);
	complete_all(&c);
	wait_for_completion(&c);
	wait_for_completion(&c);
	KUNIT_EXPECT_TRUE(test, completion_done(&c));
}

static void shim_printk_log_captured(struct kunit *test)
{
	pr_info("shim-test: hello %d\n", 42);
	KUNIT_EXPECT_TRUE(test, shim_log_contains("hello 42"));
	shim_log_clear();
	KUNIT_EXPECT_FALSE(test, shim_log_contains("hello 42"));
}

/* --- kthread_stop() of a kthread never woken ------------------------- */

static int count_run(void *data)
{
	atomic_t *runs = data;

	atomic_inc(runs);
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

/* 6.1's kthread() finds KTHREAD_SHOULD_STOP before threadfn: -EINTR. */
static void shim_kthread_stop_unwoken_returns_eintr(struct kunit *test)
{
	atomic_t runs = ATOMIC_INIT(0);
	struct task_struct *t = kthread_create(count_run, &runs, "unwoken");

	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	msleep(20);
	KUNIT_EXPECT_EQ(test, kthread_stop(t), -EINTR);
	KUNIT_EXPECT_EQ(test, atomic_read(&runs), 0);
	t = kthread_create(count_run, &runs, "woken");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	wake_up_process(t);
	KUNIT_EXPECT_EQ(test, kthread_stop(t), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&runs), 1);
}

/* --- mutex_destroy() (DEBUG_MUTEXES) --------------------------------- */

/* A destroyed mutex is poisoned until mutex_init() makes it new. */
static void shim_destroyed_mutex_use_reported(struct kunit *test)
{
	struct mutex m;

	mutex_init(&m);
	mutex_lock(&m);
	mutex_unlock(&m);
	mutex_destroy(&m);
	shim_expect_report("mutex bad magic (destroyed lock");
	shim_expect_report("mutex bad magic (destroyed lock");
	shim_expect_report("mutex bad magic (destroyed lock");
	mutex_lock(&m);
	KUNIT_EXPECT_EQ(test, mutex_trylock(&m), 0);
	mutex_unlock(&m);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 3);
	mutex_init(&m);			/* new again: usable */
	mutex_lock(&m);
	mutex_unlock(&m);
	mutex_destroy(&m);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 3);
}

static void destroy_held_mutex(void *unused)
{
	struct mutex m;

	mutex_init(&m);
	mutex_lock(&m);
	mutex_destroy(&m);	/* the bug */
}

static void shim_destroy_held_mutex_fails_test(struct kunit *test)
{
	child_fails_with(test, destroy_held_mutex, NULL,
			   "DEBUG_LOCKS_WARN_ON(mutex_is_locked(lock))");
}

/* --- refcount_t: every refcount_warn_saturate() case ------------------ */

/* A counter neither live nor zero is reported, and left alone. */
static void shim_refcount_not_live_reported(struct kunit *test)
{
	static const int bad[] = {
		-1, REFCOUNT_SATURATED, 0x6b6b6b6b /* kfree() poison */,
		(int)0xa5a5a5a5 /* kmalloc() fill */, INT_MIN,
	};
	refcount_t r;
	unsigned int i;
	int want = 0;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		refcount_set(&r, bad[i]);
		shim_expect_report("refcount_t: saturated; leaking memory");
		refcount_inc(&r);
		shim_expect_report("refcount_t: saturated; leaking memory");
		refcount_add(2, &r);
		shim_expect_report("refcount_t: saturated; leaking memory");
		KUNIT_EXPECT_FALSE(test, refcount_inc_not_zero(&r));
		shim_expect_report("refcount_t: underflow; use-after-free");
		KUNIT_EXPECT_FALSE(test, refcount_dec_and_test(&r));
		shim_expect_report("refcount_t: underflow; use-after-free");
		KUNIT_EXPECT_FALSE(test, refcount_sub_and_test(2, &r));
		shim_expect_report("refcount_t: underflow; use-after-free");
		refcount_dec(&r);
		want += 6;
		KUNIT_EXPECT_EQ_MSG(test, shim_expected_reports_seen(), want,
				    "counter %#x", (unsigned int)bad[i]);
		KUNIT_EXPECT_EQ(test, refcount_read(&r), (unsigned int)bad[i]);
	}
	/* One short of overflow: an increment would wrap, so it saturates. */
	refcount_set(&r, INT_MAX);
	shim_expect_report("refcount_t: saturated; leaking memory");
	refcount_inc(&r);
	shim_expect_report("refcount_t: saturated; leaking memory");
	KUNIT_EXPECT_FALSE(test, refcount_inc_not_zero(&r));
	KUNIT_EXPECT_FALSE(test, refcount_dec_and_test(&r));	/* live: fine */
	shim_expect_report("refcount_t: underflow; use-after-free");
	refcount_set(&r, 1);
	KUNIT_EXPECT_FALSE(test, refcount_sub_and_test(2, &r));
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), want + 3);
	KUNIT_EXPECT_EQ(test, refcount_read(&r), 1U);
}

/* refcount_dec() never drops the last reference (6.1 warns). */
static void shim_refcount_dec_to_zero_reported(struct kunit *test)
{
	refcount_t r = REFCOUNT_INIT(2);

	refcount_dec(&r);
	KUNIT_EXPECT_EQ(test, refcount_read(&r), 1U);
	shim_expect_report("refcount_t: decrement hit 0; leaking memory");
	refcount_dec(&r);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
	KUNIT_EXPECT_TRUE(test, refcount_sub_and_test(1, &r));
	KUNIT_EXPECT_FALSE(test, refcount_inc_not_zero(&r));	/* 0: no report */
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
}

struct kobj {
	struct kref ref;
};

static void kref_on_freed(void *unused)
{
	struct kobj *o = kmalloc(sizeof(*o), GFP_KERNEL);

	kref_init(&o->ref);
	kref_put(&o->ref, noop_release);
	kfree(o);
	kref_get(&o->ref);		/* the bug: a get and a put on freed memory */
	kref_put(&o->ref, noop_release);
}

/* issue 18: a get + put on a freed object used to restore the poison. */
static void shim_kref_on_freed_object_fails_test(struct kunit *test)
{
	char title[600];

	KUNIT_EXPECT_EQ(test, shim_run_in_child(kref_on_freed, NULL, title,
						sizeof(title)), 1);
}

/* --- blocking calls while !TASK_RUNNING (DEBUG_ATOMIC_SLEEP) ---------- */

/*
 * Every entry point that may sleep.  Each op must be harmless run
 * !TASK_RUNNING, under a spinlock or in a (simulated) hardirq.
 */
static DECLARE_COMPLETION(done_forever);
static DEFINE_SEMAPHORE(sem_free);

static void op_might_sleep(void) { might_sleep(); }
static void op_cond_resched(void) { cond_resched(); }
static void op_msleep(void) { msleep(1); }
static void op_usleep_range(void) { usleep_range(10, 20); }
static void op_schedule(void) { schedule(); }
static void op_schedule_timeout(void) { schedule_timeout(1); }
static void op_schedule_timeout_unint(void) { schedule_timeout_uninterruptible(1); }
static void op_wait_for_completion(void) { wait_for_completion(&done_forever); }
static void op_wait_for_completion_timeout(void)
{
	wait_for_completion_timeout(&done_forever, 1);
}
static void op_down(void) { down(&sem_free); up(&sem_free); }
static void op_mutex_lock(void) { mutex_lock(&mutex_a); mutex_unlock(&mutex_a); }
static void op_kmalloc(void) { kfree(kmalloc(8, GFP_KERNEL)); }

struct blocking_op {
	const char *name;
	void (*fn)(void);
	bool sets_state;	/* sleeps !TASK_RUNNING itself (schedule...) */
};

static const struct blocking_op blocking_ops[] = {
	{ "might_sleep", op_might_sleep },
	{ "cond_resched", op_cond_resched },
	{ "msleep", op_msleep },
	{ "usleep_range", op_usleep_range },
	{ "schedule", op_schedule, true },
	{ "schedule_timeout", op_schedule_timeout, true },
	{ "schedule_timeout_uninterruptible", op_schedule_timeout_unint },
	{ "wait_for_completion", op_wait_for_completion },
	{ "wait_for_completion_timeout", op_wait_for_completion_timeout },
	{ "down", op_down },
	{ "mutex_lock", op_mutex_lock },
	{ "kmalloc(GFP_KERNEL)", op_kmalloc },
};

/* A blocking call while !TASK_RUNNING names where the state was set. */
static void shim_blocking_op_not_running_reported(struct kunit *test)
{
	char site[256];
	unsigned int i;
	int want = 0;

	complete_all(&done_forever);
	for (i = 0; i < ARRAY_SIZE(blocking_ops); i++) {
		const struct blocking_op *op = &blocking_ops[i];

		if (op->sets_state)
			continue;
		/* The report names the set_current_state() on the next line. */
		snprintf(site, sizeof(site),
			 "do not call blocking ops when !TASK_RUNNING; state=2 set at [<%s:%d>] %s()",
			 __FILE__, __LINE__ + 1, __func__);
		set_current_state(TASK_UNINTERRUPTIBLE);
		shim_expect_report(site);
		op->fn();
		__set_current_state(TASK_RUNNING);
		want++;
		KUNIT_EXPECT_EQ_MSG(test, shim_expected_reports_seen(), want,
				    "%s while !TASK_RUNNING not reported", op->name);
	}
	set_current_state(TASK_INTERRUPTIBLE);
	shim_expect_report("do not call blocking ops when !TASK_RUNNING; state=1 set at");
	msleep(1);
	__set_current_state(TASK_RUNNING);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), want + 1);
}

/*
 * schedule() and schedule_timeout() are how a task sleeps !TASK_RUNNING:
 * the sleep protocol itself must never be reported.
 */
static void shim_sleep_protocol_not_reported(struct kunit *test)
{
	struct waker w = { .sleeper = current };
	struct task_struct *t;

	set_current_state(TASK_UNINTERRUPTIBLE);
	KUNIT_EXPECT_EQ(test, schedule_timeout(5), 0L);	/* times out */
	KUNIT_EXPECT_TRUE(test, task_is_running(current));
	init_completion(&w.armed);
	t = kthread_run(waker_fn, &w, "waker");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	set_current_state(TASK_UNINTERRUPTIBLE);
	complete(&w.armed);	/* does not sleep: fine in this state */
	schedule();		/* until the kthread wakes us */
	KUNIT_EXPECT_TRUE(test, task_is_running(current));
	KUNIT_EXPECT_EQ(test, schedule_timeout_uninterruptible(5), 0L);
	KUNIT_EXPECT_TRUE(test, task_is_running(current));
	msleep(1);		/* running again: no report */
	kthread_stop(t);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 0);
}

/* --- canaries: one planted bug per rule, beside the cases above ------- */

static void run_op_in_irq(void *data)
{
	const struct blocking_op *op = data;

	op->fn();
}

/* README: sleeping in atomic context, each entry point, each context. */
static void shim_sleep_in_atomic_every_entry_reported(struct kunit *test)
{
	unsigned long flags;
	unsigned int i;
	int ctx, want = 0;

	complete_all(&done_forever);
	for (ctx = 0; ctx < 4; ctx++) {
		for (i = 0; i < ARRAY_SIZE(blocking_ops); i++) {
			const struct blocking_op *op = &blocking_ops[i];

			shim_expect_report("sleeping function called from invalid context");
			switch (ctx) {
			case 0:
				spin_lock(&lock_a);
				op->fn();
				spin_unlock(&lock_a);
				break;
			case 1:
				preempt_disable();
				op->fn();
				preempt_enable();
				break;
			case 2:
				local_irq_save(flags);
				op->fn();
				local_irq_restore(flags);
				break;
			case 3:
				/*
				 * mutex_a was taken with interrupts on in
				 * context 0: taking it in hardirq is also an
				 * inconsistent lock usage, as for lockdep.
				 */
				if (op->fn == op_mutex_lock) {
					shim_expect_report("inconsistent {HARDIRQ-ON-W} -> {IN-HARDIRQ-W} usage: mutex_a");
					want++;
				}
				local_irq_disable();
				shim_raise_irq(run_op_in_irq, (void *)op);
				local_irq_enable();	/* delivered here */
				break;
			}
			want++;
			KUNIT_EXPECT_EQ_MSG(test, shim_expected_reports_seen(), want,
					    "%s in context %d not reported", op->name, ctx);
		}
	}
}

struct holder {
	struct completion held;
	atomic_t release;
};

static int other_task_holds(void *data)
{
	struct holder *h = data;

	mutex_lock(&mutex_a);
	complete(&h->held);
	while (!atomic_read(&h->release))
		msleep(1);
	mutex_unlock(&mutex_a);
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

/* README: unlock by a task that does not hold it (another task does). */
static void shim_unlock_by_other_task_reported(struct kunit *test)
{
	struct holder h = { .release = ATOMIC_INIT(0) };
	struct task_struct *t;
	char want[256];

	init_completion(&h.held);
	t = kthread_run(other_task_holds, &h, "holder");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	wait_for_completion(&h.held);
	snprintf(want, sizeof(want), "unlock of a lock not held: mutex_a at %s:%d (owner: holder)",
		 __FILE__, __LINE__ + 2);
	shim_expect_report(want);
	mutex_unlock(&mutex_a);		/* the bug */
	KUNIT_EXPECT_TRUE(test, mutex_is_locked(&mutex_a));	/* still the holder's */
	atomic_set(&h.release, 1);
	kthread_stop(t);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&mutex_a));
}

/* README: WARN_ON_ONCE and WARN_ONCE warn every time. */
static void shim_warn_once_warns_every_time(struct kunit *test)
{
	int i;

	for (i = 0; i < 2; i++) {
		shim_expect_report("WARNING: at");
		shim_expect_report("WARNING: at");
		WARN_ON_ONCE(1);
		WARN_ONCE(1, "once %d", i);
	}
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 4);
}

static void bug_unexpected(void *unused)
{
	BUG();
}

static void bug_expected(void *unused)
{
	shim_expect_report("kernel BUG at");
	BUG_ON(1);
}

/* README: BUG, and a BUG never returns even when expected. */
static void shim_bug_fails_test(struct kunit *test)
{
	child_fails_with(test, bug_unexpected, NULL, "kernel BUG at");
	child_fails_with(test, bug_expected, NULL, "BUG never returns");
}

/* README: list_add corruption (CONFIG_DEBUG_LIST). */
static void shim_list_add_corruption_reported(struct kunit *test)
{
	LIST_HEAD(head);
	struct list_head a, b, c;

	list_add(&a, &head);
	shim_expect_report("list_add double add");
	list_add(&a, &head);
	a.prev = &b;			/* a stray write */
	shim_expect_report("list_add corruption. next->prev should be prev");
	list_add(&c, &head);
	a.prev = &head;
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 2);
	KUNIT_EXPECT_TRUE(test, head.next == &a && a.next == &head);	/* neither added */
	list_del(&a);
}

static void hang_in_schedule(void *unused)
{
	shim_set_hung_task_ms(100);
	set_current_state(TASK_UNINTERRUPTIBLE);
	schedule();			/* nobody wakes us */
}

static void hang_in_down(void *unused)
{
	struct semaphore sem;

	sema_init(&sem, 0);
	shim_set_hung_task_ms(100);
	down(&sem);
}

static int hold_mutex_a(void *data)
{
	mutex_lock(&mutex_a);
	complete(data);
	while (!kthread_should_stop())
		msleep(1);
	mutex_unlock(&mutex_a);
	return 0;
}

static void hang_in_mutex_lock(void *unused)
{
	DECLARE_COMPLETION(held);

	kthread_run(hold_mutex_a, &held, "hold-a");
	wait_for_completion(&held);
	shim_set_hung_task_ms(100);
	mutex_lock(&mutex_a);
}

/* README: hung task, for each way of sleeping (completions: above). */
static void shim_hung_task_every_sleep_reported(struct kunit *test)
{
	child_fails_with(test, hang_in_schedule, NULL,
			   "blocked for more than 100 ms in hang_in_schedule at");
	child_fails_with(test, hang_in_down, NULL,
			   "blocked for more than 100 ms in hang_in_down at");
	child_fails_with(test, hang_in_mutex_lock, NULL,
			   "blocked for more than 100 ms in hang_in_mutex_lock at");
}

static void raise_never_deliver(void *unused)
{
	shim_raise_irq(count_irq, NULL);
}

static void raise_and_deliver(void *unused)
{
	shim_raise_irq(count_irq, NULL);
	spin_lock(&lock_a);		/* an interrupt window */
	spin_unlock(&lock_a);
}

/* README: a raised interrupt never delivered fails the test. */
static void shim_undelivered_irq_fails_test(struct kunit *test)
{
	char title[600];

	KUNIT_EXPECT_EQ(test, shim_run_in_child(raise_never_deliver, NULL, title,
						sizeof(title)), 1);
	KUNIT_EXPECT_TRUE(test, strstr(title, "end-of-test checks failed") != NULL);
	/* The control: delivered, the same body passes. */
	KUNIT_EXPECT_EQ(test, shim_run_in_child(raise_and_deliver, NULL, title,
						sizeof(title)), 0);
}

/* --- canaries for the reports the README table does not list ---------- */

static void misuse_preempt_enable(void) { preempt_enable(); }
static void misuse_irq_restore(void) { local_irq_restore(0x5a); }
static void irq_enables_irqs(void *unused) { local_irq_enable(); }
static void misuse_irq_enable_in_irq(void)
{
	local_irq_disable();
	shim_raise_irq(irq_enables_irqs, NULL);
	local_irq_enable();
}
static void irq_trylocks_mutex(void *unused)
{
	if (mutex_trylock(&mutex_a))
		mutex_unlock(&mutex_a);
}
static void misuse_mutex_trylock_in_irq(void)
{
	local_irq_disable();
	shim_raise_irq(irq_trylocks_mutex, NULL);
	local_irq_enable();
}
static void misuse_assert_held(void) { lockdep_assert_held(&lock_a); }
static void misuse_put_task_struct(void)
{
	struct task_struct *t = kthread_run(result_fn, NULL, "put-twice");

	kthread_stop(t);
	put_task_struct(t);	/* the creation reference */
	put_task_struct(t);	/* one too many */
}
static void misuse_kthread_stop_twice(void)
{
	struct task_struct *t = kthread_run(result_fn, NULL, "stop-twice");

	kthread_stop(t);
	kthread_stop(t);
}
static void misuse_kfree_foreign(void)
{
	char *buf = calloc(1, 16384);	/* room for any block header before */

	kfree(buf + 8192);	/* not from kmalloc */
	free(buf);
}

static const struct {
	const char *report;
	void (*fn)(void);
} misuses[] = {
	{ "preempt_enable() without preempt_disable()", misuse_preempt_enable },
	{ "local_irq_restore with corrupt flags", misuse_irq_restore },
	{ "interrupts enabled inside a hardirq handler", misuse_irq_enable_in_irq },
	{ "mutex_trylock in interrupt context", misuse_mutex_trylock_in_irq },
	{ "lock lock_a not held", misuse_assert_held },
	{ "refcount_t: underflow; put_task_struct on put-twice", misuse_put_task_struct },
	{ "kthread_stop on stop-twice twice", misuse_kthread_stop_twice },
	{ "not a kmalloc block", misuse_kfree_foreign },
};

static void shim_misuse_reported(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(misuses); i++) {
		shim_expect_report(misuses[i].report);
		misuses[i].fn();
		KUNIT_EXPECT_EQ_MSG(test, shim_expected_reports_seen(), i + 1,
				    "\"%s\" not reported", misuses[i].report);
	}
}

static int spin_forever(void *data)
{
	spin_lock(&lock_b);
	complete(data);
	while (!kthread_should_stop())
		yield();	/* busy, never asleep: atomic all along */
	spin_unlock(&lock_b);
	return 0;
}

static void spin_lockup(void *unused)
{
	DECLARE_COMPLETION(held);

	kthread_run(spin_forever, &held, "spinner");
	wait_for_completion(&held);
	shim_set_hung_task_ms(100);
	spin_lock(&lock_b);
}

/* A spinlock another task holds past the bound: a lockup, not a hang. */
static void shim_spinlock_lockup_fails_test(struct kunit *test)
{
	child_fails_with(test, spin_lockup, NULL,
			   "spinlock lockup suspected: lock_b");
}

static spinlock_t deep[SHIM_MAX_HELD + 1] = {
	[0 ... SHIM_MAX_HELD] = __SPIN_LOCK_INITIALIZER(deep)
};

static void too_deep(void *unused)
{
	int i;

	for (i = 0; i <= SHIM_MAX_HELD; i++)
		spin_lock(&deep[i]);	/* each its own class: no recursion */
}

static void shim_lock_depth_overflow_fails_test(struct kunit *test)
{
#ifdef __SANITIZE_THREAD__
	/* TSan's own detector holds 64 locks per thread: it stops first. */
	child_fails_with(test, too_deep, NULL, "");
#else
	child_fails_with(test, too_deep, NULL, "MAX_LOCK_DEPTH too low");
#endif
}

static int return_holding_lock(void *unused)
{
	spin_lock(&lock_b);
	return 0;
}

static void kthread_returns_holding(void *unused)
{
	kthread_stop(kthread_run(return_holding_lock, NULL, "leaves-lock"));
}

static void shim_kthread_returns_holding_lock_fails_test(struct kunit *test)
{
	child_fails_with(test, kthread_returns_holding, NULL,
			   "returning from a kthread with 1 lock(s) held");
}

static struct kunit_case shim_test_cases[] = {
	KUNIT_CASE(shim_sleep_under_spinlock_fails_test),
	KUNIT_CASE(shim_sleep_under_spinlock_expected),
	KUNIT_CASE(shim_sleep_with_irqs_off_reported),
	KUNIT_CASE(shim_mutex_under_spinlock_reported),
	KUNIT_CASE(shim_gfp_kernel_in_atomic_reported),
	KUNIT_CASE(shim_spin_recursion_reported),
	KUNIT_CASE(shim_unlock_not_held_reported),
	KUNIT_CASE(shim_uninitialised_lock_reported),
	KUNIT_CASE(shim_lock_order_inversion_fails_test),
	KUNIT_CASE(shim_lock_order_consistent_passes),
	KUNIT_CASE(shim_lock_classes_by_init_site),
	KUNIT_CASE(shim_refcount_underflow_reported),
	KUNIT_CASE(shim_leak_fails_test),
	KUNIT_CASE(shim_declared_leak_passes),
	KUNIT_CASE(shim_write_after_free_fails_test),
	KUNIT_CASE(shim_freed_memory_is_poisoned),
	KUNIT_CASE(shim_double_free_reported),
	KUNIT_CASE(shim_overflow_reported_at_kfree),
	KUNIT_CASE(shim_alloc_failure_injection),
	KUNIT_CASE(shim_alloc_fail_nth),
	KUNIT_CASE(shim_unexpected_warn_fails_test),
	KUNIT_CASE(shim_expected_warn_passes),
	KUNIT_CASE(shim_expect_withdraw_counts),
	KUNIT_CASE(shim_unmet_expectation_fails_test),
	KUNIT_CASE(shim_hung_task_reported_with_place),
	KUNIT_CASE(shim_mutex_self_deadlock_reported),
	KUNIT_CASE(shim_no_lost_wakeup),
	KUNIT_CASE(shim_wake_up_running_task),
	KUNIT_CASE(shim_irqsave_restores_flags),
	KUNIT_CASE(shim_irq_waits_for_irqs_on),
	KUNIT_CASE(shim_lock_held_at_end_fails_test),
	KUNIT_CASE(shim_running_kthread_at_end_fails_test),
	KUNIT_CASE(shim_kthread_stop_returns_result),
	KUNIT_CASE(shim_list_corruption_reported),
	KUNIT_CASE(shim_semaphore_counts),
	KUNIT_CASE(shim_completion_timeout),
	KUNIT_CASE(shim_printk_log_captured),
	KUNIT_CASE(shim_kthread_stop_unwoken_returns_eintr),
	KUNIT_CASE(shim_destroyed_mutex_use_reported),
	KUNIT_CASE(shim_destroy_held_mutex_fails_test),
	KUNIT_CASE(shim_refcount_not_live_reported),
	KUNIT_CASE(shim_refcount_dec_to_zero_reported),
	KUNIT_CASE(shim_kref_on_freed_object_fails_test),
	KUNIT_CASE(shim_blocking_op_not_running_reported),
	KUNIT_CASE(shim_sleep_protocol_not_reported),
	/* canaries: README's table row by row, then the unlisted reports */
	KUNIT_CASE(shim_sleep_in_atomic_every_entry_reported),
	KUNIT_CASE(shim_unlock_by_other_task_reported),
	KUNIT_CASE(shim_warn_once_warns_every_time),
	KUNIT_CASE(shim_bug_fails_test),
	KUNIT_CASE(shim_list_add_corruption_reported),
	KUNIT_CASE(shim_hung_task_every_sleep_reported),
	KUNIT_CASE(shim_undelivered_irq_fails_test),
	KUNIT_CASE(shim_misuse_reported),
	KUNIT_CASE(shim_spinlock_lockup_fails_test),
	KUNIT_CASE(shim_lock_depth_overflow_fails_test),
	KUNIT_CASE(shim_kthread_returns_holding_lock_fails_test),
	{}
};

static struct kunit_suite shim_test_suite = {
	.name = "shim",
	.test_cases = shim_test_cases,
};

kunit_test_suites(&shim_test_suite);
