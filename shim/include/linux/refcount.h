/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup + strict - include/linux/refcount.h (v6.1), a subset, keep
 *   in sync; strict: every refcount_warn_saturate() case fails the test,
 *   and so does any operation on a counter holding kfree()'s poison.
 *
 * Userspace shim: refcount_t.  As in the kernel, an increment from zero,
 * an increment of a counter that is not live (negative, saturated, or
 * about to overflow), a decrement below zero and a refcount_dec() to
 * zero are reported with refcount_warn_saturate()'s words.  Unlike the
 * kernel the counter is then left alone instead of saturating, and the
 * report fails the test.  A counter that reads as the shim's free
 * poison belongs to a freed object: reported too, where the kernel
 * needs KASAN to notice.
 */
#ifndef _SHIM_LINUX_REFCOUNT_H
#define _SHIM_LINUX_REFCOUNT_H

#include <limits.h>
#include <linux/atomic.h>
#include <linux/compiler.h>

typedef struct refcount_struct {
	atomic_t refs;
} refcount_t;

#define REFCOUNT_INIT(n)	{ .refs = ATOMIC_INIT(n), }
#define REFCOUNT_MAX		INT_MAX
#define REFCOUNT_SATURATED	(INT_MIN / 2)

void shim_sched_point(void);

/*
 * A schedule point like every refcount operation: a set is how an object
 * is (re)initialised, so a race with its first user turns on it.
 */
static inline void refcount_set(refcount_t *r, int n)
{
	shim_sched_point();
	atomic_set(&r->refs, n);
}
static inline unsigned int refcount_read(const refcount_t *r)
{
	return atomic_read(&((refcount_t *)r)->refs);
}

bool __shim_refcount_add_not_zero(int i, refcount_t *r, const char *file,
				  int line);
void __shim_refcount_add(int i, refcount_t *r, const char *file, int line);
bool __shim_refcount_sub_and_test(int i, refcount_t *r, const char *file,
				  int line);
void __shim_refcount_dec(refcount_t *r, const char *file, int line);

#define refcount_add_not_zero(i, r) \
	__shim_refcount_add_not_zero((i), (r), __FILE__, __LINE__)
#define refcount_inc_not_zero(r)	refcount_add_not_zero(1, r)
#define refcount_add(i, r)	__shim_refcount_add((i), (r), __FILE__, __LINE__)
#define refcount_inc(r)		refcount_add(1, r)
#define refcount_sub_and_test(i, r) \
	__shim_refcount_sub_and_test((i), (r), __FILE__, __LINE__)
#define refcount_dec_and_test(r)	refcount_sub_and_test(1, r)
#define refcount_dec(r)		__shim_refcount_dec((r), __FILE__, __LINE__)

#endif
