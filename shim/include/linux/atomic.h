/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup - include/linux/atomic.h (v6.1), keep in sync.
 *
 * Userspace shim: atomic_t on the compiler's sequentially consistent builtins.
 */
#ifndef _SHIM_LINUX_ATOMIC_H
#define _SHIM_LINUX_ATOMIC_H

#include <linux/types.h>
#include <asm/barrier.h>
#include <shim/valgrind.h>
#include <shim/ctl-hook.h>
#include <shim/ctl-wmm.h>

typedef struct {
	int counter;
} atomic_t;

typedef struct {
	long counter;
} atomic_long_t;

#define ATOMIC_INIT(i)	{ (i) }

/*
 * The counter, announced to valgrind's race detectors as a marked
 * access; under the explorer every atomic operation is a scheduling
 * point that names the counter (@ro: a read only).
 */
#define __atomic_ctr(v, ro) ({						\
	shim_ctl_hook_sized(SHIM_OP_ATOMIC, &(v)->counter, sizeof((v)->counter), (ro));\
	shim_vg_marked((void *)&(v)->counter, sizeof((v)->counter));		\
	&(v)->counter;							\
})

/*
 * In the explorer's wmm mode every operation goes through its model
 * (<shim/ctl-wmm.h>) with the ordering the LKMM gives it: read and set
 * relaxed, the void read-modify-writes relaxed, the value-returning
 * ones, xchg and cmpxchg fully ordered.
 */
#define __atomic_wmm_rmw(v, op, a, b, mo) ({				\
	__typeof__((v)->counter) __o;					\
	shim_ctl_rmw(&(v)->counter, sizeof((v)->counter), (op),		\
		     (unsigned long long)(a), (unsigned long long)(b),	\
		     &__o, (mo), __FILE__, __LINE__);			\
	__o;								\
})
#define __atomic_wmm_read(v) ((__typeof__((v)->counter))		\
	shim_ctl_load_val(&(v)->counter, sizeof((v)->counter), __LINE__))
#define __atomic_wmm_set(v, i)	__shim_wmm_store((v)->counter, (i), SHIM_MO_ONCE)

#define atomic_read(v) (shim_ctl_wmm_on() ? __atomic_wmm_read(v) :	\
	__atomic_load_n(__atomic_ctr(v, true), __ATOMIC_RELAXED))
#define atomic_set(v, i) do {						\
	if (shim_ctl_wmm_on())						\
		__atomic_wmm_set(v, i);					\
	else								\
		__atomic_store_n(__atomic_ctr(v, false), (i), __ATOMIC_RELAXED); \
} while (0)
/*
 * Value-returning read-modify-writes are fully ordered in the kernel:
 * for valgrind's tools each is a release and an acquire on the counter.
 * The void ones (atomic_add, atomic_inc...) are unordered.
 */
#define __atomic_ordered(v, expr) ({					\
	__typeof__(expr) __r;						\
	shim_vg_release((void *)&(v)->counter);				\
	__r = (expr);							\
	shim_vg_acquire((void *)&(v)->counter);				\
	__r;								\
})

#define atomic_add_return(i, v) (shim_ctl_wmm_on() ?			\
	__atomic_wmm_rmw(v, SHIM_RMW_ADD, (i), 0, SHIM_MO_MB) + (i) :	\
	__atomic_ordered(v, __atomic_add_fetch(__atomic_ctr(v, false), (i), __ATOMIC_SEQ_CST)))
#define atomic_sub_return(i, v)	atomic_add_return(-(i), v)
#define atomic_add(i, v) do {						\
	if (shim_ctl_wmm_on())						\
		(void)__atomic_wmm_rmw(v, SHIM_RMW_ADD, (i), 0, SHIM_MO_ONCE); \
	else								\
		(void)__atomic_add_fetch(__atomic_ctr(v, false), (i), __ATOMIC_RELAXED); \
} while (0)
#define atomic_sub(i, v)	atomic_add(-(i), v)
#define atomic_inc(v)		atomic_add(1, v)
#define atomic_dec(v)		atomic_sub(1, v)
#define atomic_inc_return(v)	atomic_add_return(1, v)
#define atomic_dec_return(v)	atomic_sub_return(1, v)
#define atomic_dec_and_test(v)	(atomic_dec_return(v) == 0)
#define atomic_xchg(v, n) (shim_ctl_wmm_on() ?				\
	__atomic_wmm_rmw(v, SHIM_RMW_XCHG, (n), 0, SHIM_MO_MB) :	\
	__atomic_ordered(v, __atomic_exchange_n(__atomic_ctr(v, false), (n), __ATOMIC_SEQ_CST)))

static inline int atomic_cmpxchg(atomic_t *v, int old, int new)
{
	if (shim_ctl_wmm_on())
		return __atomic_wmm_rmw(v, SHIM_RMW_CMPXCHG, old, new, SHIM_MO_MB);
	return __atomic_ordered(v, ({
		__atomic_compare_exchange_n(__atomic_ctr(v, false), &old, new, false,
					    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
		old; }));
}

/* The one-way barriers of 6.1's generic fallbacks: the counter's own. */
#define atomic_read_acquire(v)	smp_load_acquire(&(v)->counter)
#define atomic_set_release(v, i)	smp_store_release(&(v)->counter, (i))

#define atomic_long_read(v)	atomic_read(v)
#define atomic_long_set(v, i)	atomic_set(v, i)
#define atomic_long_inc(v) do {						\
	if (shim_ctl_wmm_on())						\
		(void)__atomic_wmm_rmw(v, SHIM_RMW_ADD, 1, 0, SHIM_MO_ONCE); \
	else								\
		(void)__atomic_add_fetch(__atomic_ctr(v, false), 1, __ATOMIC_SEQ_CST); \
} while (0)
#define atomic_long_dec(v) do {						\
	if (shim_ctl_wmm_on())						\
		(void)__atomic_wmm_rmw(v, SHIM_RMW_ADD, -1, 0, SHIM_MO_ONCE); \
	else								\
		(void)__atomic_sub_fetch(__atomic_ctr(v, false), 1, __ATOMIC_SEQ_CST); \
} while (0)

#endif
