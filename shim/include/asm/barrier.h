/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup - include/asm-generic/barrier.h (v6.1), keep in sync.
 *
 * Userspace shim: memory barriers as C11 fences.
 */
#ifndef _SHIM_ASM_BARRIER_H
#define _SHIM_ASM_BARRIER_H

#include <shim/valgrind.h>
#include <shim/ctl-hook.h>
#include <shim/ctl-wmm.h>

/* Under the explorer, each barrier and accessor is a scheduling point. */
#define __shim_fence(order, kind) do {					\
	if (shim_ctl_wmm_on())						\
		shim_ctl_fence((kind), __FILE__, __LINE__);		\
	else								\
		shim_ctl_hook(SHIM_OP_BARRIER, (void *)0, true);	\
	__atomic_thread_fence(order);					\
} while (0)
#define mb()		__shim_fence(__ATOMIC_SEQ_CST, SHIM_FENCE_MB)
#define rmb()		__shim_fence(__ATOMIC_ACQUIRE, SHIM_FENCE_RMB)
#define wmb()		__shim_fence(__ATOMIC_RELEASE, SHIM_FENCE_WMB)
#define smp_mb()	mb()
#define smp_rmb()	rmb()
#define smp_wmb()	wmb()

#define smp_store_release(p, v) do {					\
	if (shim_ctl_wmm_on() && sizeof(*(p)) <= 8) {			\
		__shim_wmm_store(*(p), v, SHIM_MO_RELEASE);		\
		break;							\
	}								\
	shim_ctl_hook_sized(SHIM_OP_RELEASE, (p), sizeof(*(p)), false);\
	shim_vg_release((void *)(p));						\
	shim_vg_marked((void *)(p), sizeof(*(p)));				\
	__atomic_store_n((p), (v), __ATOMIC_RELEASE);			\
} while (0)
#define smp_load_acquire(p) ({						\
	__typeof__(__atomic_load_n((p), __ATOMIC_RELAXED)) __v;		\
	if (shim_ctl_wmm_on() && sizeof(*(p)) <= 8) {			\
		__v = __shim_wmm_load(*(p), SHIM_MO_ACQUIRE);		\
	} else {							\
		shim_ctl_hook_sized(SHIM_OP_ACQUIRE, (p), sizeof(*(p)), true);\
		shim_vg_marked((void *)(p), sizeof(*(p)));		\
		__v = __atomic_load_n((p), __ATOMIC_ACQUIRE);		\
		shim_vg_acquire((void *)(p));				\
	}								\
	__v;								\
})

#endif
