/* SPDX-License-Identifier: GPL-2.0 */
/*
 * klist-port-fast: memory barriers as C11 fences and atomic accesses,
 * with the orderings the kernel's x86 and arm64 versions give.
 */
#ifndef _KFAST_ASM_BARRIER_H
#define _KFAST_ASM_BARRIER_H

#include <kfast/annotate.h>

#define barrier()	__asm__ __volatile__("" : : : "memory")
#define mb()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define rmb()		__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define wmb()		__atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_mb()	mb()
#define smp_rmb()	rmb()
#define smp_wmb()	wmb()

/* Race detectors are told of the pairing too (kfast/annotate.h). */
#define smp_store_release(p, v) do {					\
	kfast_vg_marked((void *)(p), sizeof(*(p)));			\
	kfast_hb_release((void *)(p));					\
	__atomic_store_n((p), (v), __ATOMIC_RELEASE);			\
} while (0)
#define smp_load_acquire(p) ({						\
	kfast_vg_marked((void *)(p), sizeof(*(p)));			\
	__typeof__(*(p)) __kfast_v = __atomic_load_n((p), __ATOMIC_ACQUIRE); \
	kfast_hb_acquire((void *)(p));					\
	__kfast_v;							\
})
/* As the kernel's: the store, then a full barrier (store->load order). */
#define smp_store_mb(var, v) do {					\
	kfast_vg_marked((void *)&(var), sizeof(var));			\
	__atomic_store_n(&(var), (v), __ATOMIC_RELAXED);		\
	smp_mb();						\
} while (0)

/* A control dependency plus this orders the loads after it. */
#define smp_acquire__after_ctrl_dep()	rmb()

#endif
