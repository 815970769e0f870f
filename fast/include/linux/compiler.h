/* SPDX-License-Identifier: GPL-2.0 */
/*
 * klist-port-fast: the compiler attributes and the marked accesses
 * klist uses.  READ_ONCE()/WRITE_ONCE() are relaxed atomic accesses:
 * what the kernel's volatile accesses mean, said in C11 terms.
 */
#ifndef _KFAST_LINUX_COMPILER_H
#define _KFAST_LINUX_COMPILER_H

#include <asm/barrier.h>
#include <kfast/annotate.h>

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#ifndef __must_check
#define __must_check	__attribute__((__warn_unused_result__))
#endif
#ifndef __printf
#define __printf(a, b)	__attribute__((__format__(printf, a, b)))
#endif
#ifndef __noreturn
#define __noreturn	__attribute__((__noreturn__))
#endif
#ifndef __always_inline
#define __always_inline	inline __attribute__((__always_inline__))
#endif
#define __cold		__attribute__((__cold__))
#define noinline	__attribute__((__noinline__))
#define __maybe_unused	__attribute__((__unused__))

#define ___PASTE(a, b)	a##b
#define __PASTE(a, b)	___PASTE(a, b)

#ifdef KFAST_VALGRIND
#define READ_ONCE(x) ({							\
	kfast_vg_marked((void *)&(x), sizeof(x));			\
	__atomic_load_n(&(x), __ATOMIC_RELAXED);			\
})
#define WRITE_ONCE(x, val) do {						\
	kfast_vg_marked((void *)&(x), sizeof(x));			\
	__atomic_store_n(&(x), (val), __ATOMIC_RELAXED);		\
} while (0)
#else
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, val)	__atomic_store_n(&(x), (val), __ATOMIC_RELAXED)
#endif

#endif
