/* SPDX-License-Identifier: GPL-2.0 */
/*
 * klist-port-fast: what the runtime tells race detectors about its own
 * synchronisation.  Its lock, its sleep and wake-up and its release and
 * acquire accesses are compiler atomics and futexes, which neither
 * valgrind's tools nor a ThreadSanitizer program see when the library
 * is built without them, so each says what it orders:
 *
 *  kfast_hb_release(addr)	what this thread did so far happens before
 *  kfast_hb_acquire(addr)	what follows here, on the same address;
 *  kfast_vg_marked(addr, size)	an intentional concurrent access (a
 *				marked one: READ_ONCE(), an atomic_t).
 *
 * ThreadSanitizer: weak references to its runtime's __tsan_acquire() and
 * __tsan_release(), so the installed library, built without TSan,
 * reports its locking to a program built with it; without TSan they
 * are null and cost a test and a branch.
 *
 * helgrind and DRD: client requests, compiled in only where the library
 * is built with KFAST_VALGRIND (cmake -DKFAST_VALGRIND=ON; the valgrind
 * build's default), as the annotation of every marked access costs a
 * few instructions each.
 */
#ifndef _KFAST_KFAST_ANNOTATE_H
#define _KFAST_KFAST_ANNOTATE_H

#ifdef KFAST_VALGRIND
#include <valgrind/helgrind.h>
#include <valgrind/drd.h>	/* last: its ANNOTATE_*() serve both tools */

#define kfast_vg_marked(addr, size) do {				\
	VALGRIND_HG_DISABLE_CHECKING((addr), (size));			\
	ANNOTATE_BENIGN_RACE_SIZED((addr), (size), "marked access");	\
} while (0)
#define kfast_vg_release(addr)	ANNOTATE_HAPPENS_BEFORE(addr)
#define kfast_vg_acquire(addr)	ANNOTATE_HAPPENS_AFTER(addr)
#else
#define kfast_vg_marked(addr, size)	do { } while (0)
#define kfast_vg_release(addr)		do { } while (0)
#define kfast_vg_acquire(addr)		do { } while (0)
#endif

#ifdef __cplusplus
extern "C" {
#endif
void __tsan_acquire(void *addr) __attribute__((__weak__));
void __tsan_release(void *addr) __attribute__((__weak__));
#ifdef __cplusplus
}
#endif

static inline void kfast_hb_release(void *addr)
{
	kfast_vg_release(addr);
	if (__tsan_release)
		__tsan_release(addr);
}

static inline void kfast_hb_acquire(void *addr)
{
	kfast_vg_acquire(addr);
	if (__tsan_acquire)
		__tsan_acquire(addr);
}

#endif
