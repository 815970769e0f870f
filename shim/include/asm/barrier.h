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

/* Under the explorer, each barrier and accessor is a scheduling point. */
#define __shim_fence(order) do {					\
	shim_ctl_hook(SHIM_OP_BARRIER, (void *)0, true);		\
	__atomic_thread_fence(order);					\
} while (0)
#define mb()		__shim_fence(__ATOMIC_SEQ_CST)
#define rmb()		__shim_fence(__ATOMIC_ACQUIRE)
#define wmb()		__shim_fence(__ATOMIC_RELEASE)
#define smp_mb()	mb()
#define smp_rmb()	rmb()
#define smp_wmb()	wmb()

#define smp_store_release(p, v) do {					\
	shim_ctl_hook(SHIM_OP_RELEASE, (p), false);					\
	shim_vg_release((void *)(p));						\
	shim_vg_marked((void *)(p), sizeof(*(p)));				\
	__atomic_store_n((p), (v), __ATOMIC_RELEASE);			\
} while (0)
#define smp_load_acquire(p) ({						\
	__typeof__(*(p)) __v;						\
	shim_ctl_hook(SHIM_OP_ACQUIRE, (p), true);					\
	shim_vg_marked((void *)(p), sizeof(*(p)));				\
	__v = __atomic_load_n((p), __ATOMIC_ACQUIRE);			\
	shim_vg_acquire((void *)(p));						\
	__v;								\
})

#endif
