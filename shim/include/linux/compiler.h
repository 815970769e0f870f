/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup - include/linux/compiler.h, compiler_attributes.h and
 *   asm-generic/rwonce.h (v6.1), keep in sync.
 *
 * Userspace shim: compiler helpers.  READ_ONCE/WRITE_ONCE are relaxed
 * atomics rather than volatile accesses so that ThreadSanitizer sees
 * them as the marked accesses they are in the kernel.  Under the
 * explorer each is a scheduling point (<shim/ctl-hook.h>).
 */
#ifndef _SHIM_LINUX_COMPILER_H
#define _SHIM_LINUX_COMPILER_H

#include <shim/valgrind.h>
#include <asm/barrier.h>
#include <shim/ctl-hook.h>
#include <shim/ctl-wmm.h>

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define barrier()	__asm__ __volatile__("" : : : "memory")

/* In the explorer's wmm mode the value comes from its model (<shim/ctl-wmm.h>). */
#define READ_ONCE(x) ({							\
	__typeof__(__atomic_load_n(&(x), __ATOMIC_RELAXED)) __ro;	\
	if (shim_ctl_wmm_on() && sizeof(x) <= 8) {			\
		__ro = __shim_wmm_load(x, SHIM_MO_ONCE);		\
	} else {							\
		shim_ctl_hook_sized(SHIM_OP_READ_ONCE, &(x), sizeof(x), true);\
		shim_vg_marked((void *)&(x), sizeof(x));		\
		__ro = __atomic_load_n(&(x), __ATOMIC_RELAXED);		\
	}								\
	__ro;								\
})
#define WRITE_ONCE(x, val) do {						\
	if (shim_ctl_wmm_on() && sizeof(x) <= 8) {			\
		__shim_wmm_store(x, val, SHIM_MO_ONCE);			\
	} else {							\
		shim_ctl_hook_sized(SHIM_OP_WRITE_ONCE, &(x), sizeof(x), false);\
		shim_vg_marked((void *)&(x), sizeof(x));		\
		__atomic_store_n(&(x), (val), __ATOMIC_RELAXED);	\
	}								\
} while (0)

#ifndef __always_inline
#define __always_inline	inline __attribute__((__always_inline__))
#endif
#define noinline		__attribute__((__noinline__))
#define __must_check		__attribute__((__warn_unused_result__))
#define __maybe_unused		__attribute__((__unused__))
#define __printf(a, b)		__attribute__((__format__(printf, a, b)))
#define __noreturn		__attribute__((__noreturn__))
#define __aligned(x)		__attribute__((__aligned__(x)))
#define fallthrough		__attribute__((__fallthrough__))

#define ___PASTE(a, b)		a##b
#define __PASTE(a, b)		___PASTE(a, b)
#define __UNIQUE_ID(prefix)	__PASTE(__PASTE(__UNIQUE_ID_, prefix), __COUNTER__)

#endif
