/* SPDX-License-Identifier: GPL-2.0 */
/*
 * klist-port-fast: atomic_t and atomic_long_t as inline compiler
 * atomics, with the kernel's ordering rules: plain ops and _relaxed are
 * relaxed, value-returning ops are fully ordered, _acquire/_release as
 * named.
 */
#ifndef _KFAST_LINUX_ATOMIC_H
#define _KFAST_LINUX_ATOMIC_H

#include <stdbool.h>
#include <linux/compiler.h>

typedef struct { int counter; } atomic_t;
typedef struct { long counter; } atomic_long_t;

#define ATOMIC_INIT(i)		{ (i) }
#define ATOMIC_LONG_INIT(i)	{ (i) }

#define KFAST_RELAXED	__ATOMIC_RELAXED
#define KFAST_FULL	__ATOMIC_SEQ_CST

/* Each access is a marked one for valgrind's tools (kfast/annotate.h). */
#define KFAST_MARK(v) \
	kfast_vg_marked((void *)&(v)->counter, sizeof((v)->counter))

/* One set of operations for each of atomic_t (int) and atomic_long_t. */
#define KFAST_ATOMIC_OPS(pfx, atype, T)					\
static inline T pfx##_read(const atype *v)				\
{ KFAST_MARK(v); return __atomic_load_n(&v->counter, KFAST_RELAXED); }	\
static inline T pfx##_read_acquire(const atype *v)			\
{ KFAST_MARK(v); return __atomic_load_n(&v->counter, __ATOMIC_ACQUIRE); } \
static inline void pfx##_set(atype *v, T i)				\
{ KFAST_MARK(v); __atomic_store_n(&v->counter, i, KFAST_RELAXED); }	\
static inline void pfx##_set_release(atype *v, T i)			\
{ KFAST_MARK(v); __atomic_store_n(&v->counter, i, __ATOMIC_RELEASE); }	\
static inline void pfx##_add(T i, atype *v)				\
{ KFAST_MARK(v); __atomic_fetch_add(&v->counter, i, KFAST_RELAXED); }	\
static inline void pfx##_sub(T i, atype *v)				\
{ KFAST_MARK(v); __atomic_fetch_sub(&v->counter, i, KFAST_RELAXED); }	\
static inline void pfx##_inc(atype *v) { pfx##_add(1, v); }		\
static inline void pfx##_dec(atype *v) { pfx##_sub(1, v); }		\
static inline T pfx##_add_return(T i, atype *v)				\
{ KFAST_MARK(v); return __atomic_add_fetch(&v->counter, i, KFAST_FULL); } \
static inline T pfx##_sub_return(T i, atype *v)				\
{ KFAST_MARK(v); return __atomic_sub_fetch(&v->counter, i, KFAST_FULL); } \
static inline T pfx##_inc_return(atype *v) { return pfx##_add_return(1, v); } \
static inline T pfx##_dec_return(atype *v) { return pfx##_sub_return(1, v); } \
static inline T pfx##_fetch_add(T i, atype *v)				\
{ KFAST_MARK(v); return __atomic_fetch_add(&v->counter, i, KFAST_FULL); } \
static inline T pfx##_fetch_add_relaxed(T i, atype *v)			\
{ KFAST_MARK(v); return __atomic_fetch_add(&v->counter, i, KFAST_RELAXED); } \
static inline T pfx##_fetch_sub(T i, atype *v)				\
{ KFAST_MARK(v); return __atomic_fetch_sub(&v->counter, i, KFAST_FULL); } \
static inline T pfx##_fetch_sub_release(T i, atype *v)			\
{ KFAST_MARK(v); return __atomic_fetch_sub(&v->counter, i, __ATOMIC_RELEASE); } \
static inline bool pfx##_dec_and_test(atype *v)				\
{ return pfx##_sub_return(1, v) == 0; }					\
static inline bool pfx##_inc_and_test(atype *v)				\
{ return pfx##_add_return(1, v) == 0; }					\
static inline T pfx##_xchg(atype *v, T i)				\
{ KFAST_MARK(v); return __atomic_exchange_n(&v->counter, i, KFAST_FULL); } \
static inline T pfx##_cmpxchg(atype *v, T old, T new)			\
{									\
	KFAST_MARK(v);							\
	__atomic_compare_exchange_n(&v->counter, &old, new, false,	\
				    KFAST_FULL, KFAST_RELAXED);		\
	return old;							\
}									\
static inline bool pfx##_try_cmpxchg(atype *v, T *old, T new)		\
{									\
	KFAST_MARK(v);							\
	return __atomic_compare_exchange_n(&v->counter, old, new, false, \
					   KFAST_FULL, KFAST_RELAXED);	\
}									\
static inline bool pfx##_try_cmpxchg_relaxed(atype *v, T *old, T new)	\
{									\
	KFAST_MARK(v);							\
	return __atomic_compare_exchange_n(&v->counter, old, new, false, \
					   KFAST_RELAXED, KFAST_RELAXED); \
}

KFAST_ATOMIC_OPS(atomic, atomic_t, int)
KFAST_ATOMIC_OPS(atomic_long, atomic_long_t, long)

#undef KFAST_ATOMIC_OPS
#undef KFAST_MARK

/* On plain variables, fully ordered as in the kernel. */
#define xchg(p, v)	__atomic_exchange_n((p), (v), KFAST_FULL)
#define cmpxchg(p, o, n) ({						\
	__typeof__(*(p)) __old = (o);					\
	__atomic_compare_exchange_n((p), &__old, (n), false,		\
				    KFAST_FULL, KFAST_RELAXED);		\
	__old;								\
})

#endif
