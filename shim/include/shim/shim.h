/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: custom - what tests ask of the shim beyond the kernel API.
 *
 * The shim's own interface: what a userspace test can ask of the fake
 * kernel beyond the kernel API itself.  Kernel-dialect code never
 * includes this; tests that only make sense in userspace do.
 *
 * Every problem the shim detects (a WARN, sleeping in atomic context, a
 * lock misuse, a refcount underflow, a leak, a read or write of freed
 * memory, a hung task) goes through shim_report().  A report fails the
 * running test unless the test declared beforehand that it expects
 * exactly that report; an expected report that never comes fails the
 * test too.
 */
#ifndef _SHIM_SHIM_H
#define _SHIM_SHIM_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

struct task_struct;

/* --- reports ----------------------------------------------------------- */

/* Called on an unexpected report; must not return. */
typedef void (*shim_fail_fn)(const char *file, int line, const char *title);
void shim_set_fail_handler(shim_fail_fn fn);

__attribute__((__format__(printf, 3, 4)))
void shim_report(const char *file, int line, const char *fmt, ...);

/* A report whose title contains @substring is expected once. */
void shim_expect_report(const char *substring);
/* Number of expected reports seen so far in this test. */
int shim_expected_reports_seen(void);
/*
 * How many reports the expectations of exactly @substring absorbed; they
 * are withdrawn, so those never met fail nothing (the generated
 * scenarios: how often a misuse is reported depends on the schedule).
 */
int shim_expect_report_withdraw(const char *substring);

/* --- the kernel log ----------------------------------------------------- */

/* True if printk output since the test began (or the last clear) contains @s. */
bool shim_log_contains(const char *s);
void shim_log_clear(void);

/* --- hung tasks -------------------------------------------------------- */

/*
 * Any shim sleep that lasts longer than the bound is reported as
 * "INFO: task NAME blocked for more than N ms in FUNC at FILE:LINE".
 * The default comes from SHIM_HUNG_TASK_MS (else 3000 ms).
 */
void shim_set_hung_task_ms(unsigned int ms);
unsigned int shim_hung_task_ms(void);

/*
 * Declare that a hung task sleeping in @func is expected.  After the
 * report, @rescue(arg) runs in the hung task's context (no spinlock
 * held) so the test can release whatever the task waits for.
 */
void shim_expect_hung_task(const char *func, void (*rescue)(void *), void *arg);

/* --- memory ------------------------------------------------------------ */

/* The next @n allocations fail (return NULL). */
void shim_fail_next_allocs(unsigned int n);
/*
 * The @n-th allocation from now fails, once (the kernel's fail-nth; 0
 * cancels).  shim_fail_nth_left() is 0 once it has failed, so a test
 * can fail each allocation of an operation in turn until it runs out.
 */
void shim_fail_nth(unsigned int n);
unsigned int shim_fail_nth_left(void);
/* Allocations live right now that were made during this test. */
size_t shim_live_allocs(void);
/* Declare that this test leaks exactly @n allocations on purpose. */
void shim_expect_leaks(unsigned int n);
/* True if @p points into a block that was kfree()d (and is quarantined). */
bool shim_is_freed(const void *p);

/*
 * The guarded allocator (shim/src/guard.c), in the plain build: each
 * block on a page of its own, a PROT_NONE guard page after it, the page
 * made PROT_NONE by kfree(), so the first read or write of freed or
 * out-of-bounds memory is reported ("BUG: KFENCE: use-after-free read in
 * FUNC...").  Off under ASan, TSan and valgrind, which see such accesses
 * themselves.  SHIM_GUARD=1 (the default) guards every block, =sample one
 * block in SHIM_GUARD_SAMPLE (64), =0 none.
 */
enum shim_guard_mode { SHIM_GUARD_OFF, SHIM_GUARD_ALL, SHIM_GUARD_SAMPLE };
/* For blocks allocated from now on; returns the mode in force (OFF if unavailable). */
enum shim_guard_mode shim_guard_set_mode(enum shim_guard_mode mode);
enum shim_guard_mode shim_guard_mode(void);
/* True if @p points into a guarded block, live or freed. */
bool shim_is_guarded(const void *p);

/* --- simulated interrupts ---------------------------------------------- */

/*
 * Raise an interrupt on the current task: @handler runs in hardirq
 * context at the next point where interrupts are enabled (right after a
 * spinlock is taken with interrupts on, or when they are re-enabled).
 */
void shim_raise_irq(void (*handler)(void *), void *arg);

/* --- deterministic interleavings ----------------------------------------*/

/*
 * One-shot hook run right after the spinlock named @lock_name is
 * released (before spin_unlock_irqrestore() restores interrupts).  The
 * hook runs in whatever context the unlocker is in: it must not sleep.
 */
void shim_on_unlock(const char *lock_name, void (*fn)(void *), void *arg);

/* --- seeded schedule points ------------------------------------------- */

/*
 * At lock, unlock, refcount, sleep and wake points, act (yield or sleep
 * 1-50 us) at @per_mille of them, drawn from per-task generators seeded
 * from @seed (0: off).  Also set by SHIM_SCHED_SEED/SHIM_SCHED_PERMILLE.
 */
void shim_set_sched_points(unsigned long long seed, unsigned int per_mille);
unsigned long long shim_sched_seed(void);
void shim_sched_point(void);

/* --- test lifecycle (used by the test runner) -------------------------- */

void shim_test_begin(const char *name);
/* Runs every end-of-test check; returns the number of problems found. */
int shim_test_end(void);

/*
 * Run @fn(arg) in a forked child with its own shim state.  Returns 0 if
 * the child finished without an unexpected report, else 1 and the
 * report's title in @title.
 */
int shim_run_in_child(void (*fn)(void *), void *arg, char *title, size_t len);

/* --- time -------------------------------------------------------------- */

/* Milliseconds of CLOCK_MONOTONIC: what jiffies reads. */
long shim_now_ms(void);

#endif
