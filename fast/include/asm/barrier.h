/* SPDX-License-Identifier: GPL-2.0 */
/*
 * klist-port-fast: memory barriers as C11 fences and atomic accesses,
 * with the orderings the kernel's x86 and arm64 versions give.
 */
#ifndef _KFAST_ASM_BARRIER_H
#define _KFAST_ASM_BARRIER_H

#define barrier()	__asm__ __volatile__("" : : : "memory")
#define mb()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define rmb()		__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define wmb()		__atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_mb()	mb()
#define smp_rmb()	rmb()
#define smp_wmb()	wmb()

#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
/* As the kernel's: the store, then a full barrier (store->load order). */
#define smp_store_mb(var, v) do {					\
	__atomic_store_n(&(var), (v), __ATOMIC_RELAXED);		\
	smp_mb();						\
} while (0)

/* A control dependency plus this orders the loads after it. */
#define smp_acquire__after_ctrl_dep()	rmb()

#endif
