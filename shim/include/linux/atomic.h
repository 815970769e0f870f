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
	shim_ctl_hook(SHIM_OP_ATOMIC, &(v)->counter, (ro));		\
	shim_vg_marked((void *)&(v)->counter, sizeof((v)->counter));		\
	&(v)->counter;							\
})

#define atomic_read(v)		__atomic_load_n(__atomic_ctr(v, true), __ATOMIC_RELAXED)
#define atomic_set(v, i)	__atomic_store_n(__atomic_ctr(v, false), (i), __ATOMIC_RELAXED)
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

#define atomic_add_return(i, v) \
	__atomic_ordered(v, __atomic_add_fetch(__atomic_ctr(v, false), (i), __ATOMIC_SEQ_CST))
#define atomic_sub_return(i, v) \
	__atomic_ordered(v, __atomic_sub_fetch(__atomic_ctr(v, false), (i), __ATOMIC_SEQ_CST))
#define atomic_add(i, v) \
	((void)__atomic_add_fetch(__atomic_ctr(v, false), (i), __ATOMIC_RELAXED))
#define atomic_sub(i, v) \
	((void)__atomic_sub_fetch(__atomic_ctr(v, false), (i), __ATOMIC_RELAXED))
#define atomic_inc(v)		atomic_add(1, v)
#define atomic_dec(v)		atomic_sub(1, v)
#define atomic_inc_return(v)	atomic_add_return(1, v)
#define atomic_dec_return(v)	atomic_sub_return(1, v)
#define atomic_dec_and_test(v)	(atomic_dec_return(v) == 0)
#define atomic_xchg(v, n) \
	__atomic_ordered(v, __atomic_exchange_n(__atomic_ctr(v, false), (n), __ATOMIC_SEQ_CST))

static inline int atomic_cmpxchg(atomic_t *v, int old, int new)
{
	return __atomic_ordered(v, ({
		__atomic_compare_exchange_n(__atomic_ctr(v, false), &old, new, false,
					    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
		old; }));
}

/* The one-way barriers of 6.1's generic fallbacks: the counter's own. */
#define atomic_read_acquire(v)	smp_load_acquire(&(v)->counter)
#define atomic_set_release(v, i)	smp_store_release(&(v)->counter, (i))

#define atomic_long_read(v)	__atomic_load_n(__atomic_ctr(v, true), __ATOMIC_RELAXED)
#define atomic_long_set(v, i)	__atomic_store_n(__atomic_ctr(v, false), (i), __ATOMIC_RELAXED)
#define atomic_long_inc(v)	((void)__atomic_add_fetch(__atomic_ctr(v, false), 1, __ATOMIC_SEQ_CST))
#define atomic_long_dec(v)	((void)__atomic_sub_fetch(__atomic_ctr(v, false), 1, __ATOMIC_SEQ_CST))

#endif
