/* SPDX-License-Identifier: GPL-2.0 */
/*
 * klist-port-fast: refcount_t with the kernel's saturation semantics
 * (include/linux/refcount.h, v6.1): an increment from zero, an overflow
 * or a decrement below zero WARNs once and pins the counter at
 * REFCOUNT_SATURATED, so the object leaks instead of being freed while
 * still used.  Inline; the same orderings as the kernel's.
 */
#ifndef _KFAST_LINUX_REFCOUNT_H
#define _KFAST_LINUX_REFCOUNT_H

#include <limits.h>
#include <linux/atomic.h>
#include <linux/bug.h>

typedef struct refcount_struct {
	atomic_t refs;
} refcount_t;

#define REFCOUNT_INIT(n)	{ .refs = ATOMIC_INIT(n), }
#define REFCOUNT_MAX		INT_MAX
#define REFCOUNT_SATURATED	(INT_MIN / 2)

enum refcount_saturation_type {
	REFCOUNT_ADD_NOT_ZERO_OVF,
	REFCOUNT_ADD_OVF,
	REFCOUNT_ADD_UAF,
	REFCOUNT_SUB_UAF,
	REFCOUNT_DEC_LEAK,
};

void kfast_refcount_warn_saturate(refcount_t *r, enum refcount_saturation_type t) __cold;
#define refcount_warn_saturate(r, t)	kfast_refcount_warn_saturate(r, t)

static inline void refcount_set(refcount_t *r, int n)
{
	atomic_set(&r->refs, n);
}

static inline unsigned int refcount_read(const refcount_t *r)
{
	return atomic_read(&r->refs);
}

/*
 * @old + @i as the atomic operation computes it, wrapping around: a
 * signed "old + i" that overflows is undefined behaviour, which an
 * optimiser may assume does not happen and then drop the "old + i < 0"
 * overflow check (the kernel builds with -fno-strict-overflow; the
 * program including this header may not).
 */
static inline int kfast_refcount_sum(int old, int i)
{
	return (int)((unsigned int)old + (unsigned int)i);
}

static inline __must_check bool refcount_add_not_zero(int i, refcount_t *r)
{
	int old = refcount_read(r);

	do {
		if (!old)
			break;
	} while (!atomic_try_cmpxchg_relaxed(&r->refs, &old,
						     kfast_refcount_sum(old, i)));
	if (unlikely(old < 0 || kfast_refcount_sum(old, i) < 0))
		refcount_warn_saturate(r, REFCOUNT_ADD_NOT_ZERO_OVF);
	return old;
}

static inline __must_check bool refcount_inc_not_zero(refcount_t *r)
{
	return refcount_add_not_zero(1, r);
}

static inline void refcount_add(int i, refcount_t *r)
{
	int old = atomic_fetch_add_relaxed(i, &r->refs);

	if (unlikely(!old))
		refcount_warn_saturate(r, REFCOUNT_ADD_UAF);
	else if (unlikely(old < 0 || kfast_refcount_sum(old, i) < 0))
		refcount_warn_saturate(r, REFCOUNT_ADD_OVF);
}

static inline void refcount_inc(refcount_t *r)
{
	refcount_add(1, r);
}

/*
 * The kernel orders the last put with a release and an acquire fence;
 * one acq_rel operation gives the same order at the same cost on x86
 * (and an ldaddal on arm64), and ThreadSanitizer, which does not model
 * fences, then sees the free ordered after every earlier put.
 */
static inline __must_check bool refcount_sub_and_test(int i, refcount_t *r)
{
	int old;

	/* Every put happens before the free: race detectors are told. */
	kfast_vg_marked(&r->refs.counter, sizeof(r->refs.counter));
	kfast_hb_release(r);
	old = __atomic_fetch_sub(&r->refs.counter, i, __ATOMIC_ACQ_REL);
	if (old == i) {
		kfast_hb_acquire(r);
		return true;
	}
	if (unlikely(old < 0 || old - i < 0))
		refcount_warn_saturate(r, REFCOUNT_SUB_UAF);
	return false;
}

static inline __must_check bool refcount_dec_and_test(refcount_t *r)
{
	return refcount_sub_and_test(1, r);
}

static inline void refcount_dec(refcount_t *r)
{
	kfast_hb_release(r);
	if (unlikely(atomic_fetch_sub_release(1, &r->refs) <= 1))
		refcount_warn_saturate(r, REFCOUNT_DEC_LEAK);
}

#endif
