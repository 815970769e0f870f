/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup + strict - include/linux/refcount.h (v6.1), a subset, keep
 *   in sync; strict: an addition on 0 or an underflow fails the test.
 *
 * Userspace shim: refcount_t.  As in the kernel, an increment from zero
 * and an underflow are reported; unlike the kernel the counter is then
 * left alone instead of saturating, and the report fails the test.
 */
#ifndef _SHIM_LINUX_REFCOUNT_H
#define _SHIM_LINUX_REFCOUNT_H

#include <linux/atomic.h>
#include <linux/compiler.h>

typedef struct refcount_struct {
	atomic_t refs;
} refcount_t;

#define REFCOUNT_INIT(n)	{ .refs = ATOMIC_INIT(n), }

static inline void refcount_set(refcount_t *r, int n) { atomic_set(&r->refs, n); }
static inline unsigned int refcount_read(const refcount_t *r)
{
	return atomic_read(&((refcount_t *)r)->refs);
}

bool __shim_refcount_inc_not_zero(refcount_t *r);
void __shim_refcount_inc(refcount_t *r, const char *file, int line);
bool __shim_refcount_dec_and_test(refcount_t *r, const char *file, int line);

#define refcount_inc_not_zero(r)	__shim_refcount_inc_not_zero(r)
#define refcount_inc(r)			__shim_refcount_inc((r), __FILE__, __LINE__)
#define refcount_dec_and_test(r)	__shim_refcount_dec_and_test((r), __FILE__, __LINE__)
#define refcount_dec(r)			((void)refcount_dec_and_test(r))

#endif
