// SPDX-License-Identifier: GPL-2.0
/*
 * The ThreadSanitizer hooks, defined by the explorer (#37): code built
 * with GCC's -fsanitize=thread (lib/ and the scenarios, in the explore
 * binaries only; tests/explore/CMakeLists.txt) calls these around every
 * access, and no libtsan is linked.  A plain access becomes an event of
 * the running transition (explore-race.c), never a scheduling point;
 * outside a controlled run each hook only returns.  The atomic hooks do
 * the operation themselves (sequentially consistent, whatever order was
 * asked: stronger, never weaker); the explorer sees a marked access at
 * its point already (READ_ONCE() and the rest are points), so they
 * record nothing.
 *
 * This file is not itself instrumented, and is linked only into
 * programs whose instrumented code has no libtsan: never in the tsan or
 * asan presets.
 */
#define SHIM_INTERNAL

#include <stdint.h>
#include <string.h>

#include "explore-internal.h"

/* Every instrumented unit's constructor calls it: accesses are seen. */
void __tsan_init(void)
{
	ctl_race_instrumented();
}

void __tsan_func_entry(void *pc)
{
	(void)pc;
}

void __tsan_func_exit(void)
{
}

#define PC	__builtin_return_address(0)

/* One hook: an access of @n bytes at @p, a write or not. */
#define TSAN_HOOK(name, n, write)					\
void name(void *p);							\
void name(void *p)							\
{									\
	ctl_race_access(p, n, write, PC);				\
}
/* Unaligned and volatile accesses are accesses like any other here. */
#define TSAN_ACCESS(n)							\
TSAN_HOOK(__tsan_read##n, n, false)					\
TSAN_HOOK(__tsan_write##n, n, true)					\
TSAN_HOOK(__tsan_unaligned_read##n, n, false)				\
TSAN_HOOK(__tsan_unaligned_write##n, n, true)				\
TSAN_HOOK(__tsan_volatile_read##n, n, false)				\
TSAN_HOOK(__tsan_volatile_write##n, n, true)
TSAN_ACCESS(1)
TSAN_ACCESS(2)
TSAN_ACCESS(4)
TSAN_ACCESS(8)
TSAN_ACCESS(16)

void __tsan_read_range(void *p, unsigned long size);
void __tsan_read_range(void *p, unsigned long size)
{
	ctl_race_access(p, (unsigned int)size, false, PC);
}

void __tsan_write_range(void *p, unsigned long size);
void __tsan_write_range(void *p, unsigned long size)
{
	ctl_race_access(p, (unsigned int)size, true, PC);
}

void __tsan_vptr_update(void **p, void *v);
void __tsan_vptr_update(void **p, void *v)
{
	(void)p;
	(void)v;
}

void __tsan_vptr_read(void **p);
void __tsan_vptr_read(void **p)
{
	(void)p;
}

void __tsan_atomic_thread_fence(int mo);
void __tsan_atomic_thread_fence(int mo)
{
	(void)mo;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void __tsan_atomic_signal_fence(int mo);
void __tsan_atomic_signal_fence(int mo)
{
	(void)mo;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

#define SC	__ATOMIC_SEQ_CST
#define TSAN_RMW(bits, t, name, builtin)				\
t __tsan_atomic##bits##_##name(volatile t *a, t v, int mo);		\
t __tsan_atomic##bits##_##name(volatile t *a, t v, int mo)		\
{									\
	(void)mo;							\
	return builtin(a, v, SC);					\
}
#define TSAN_ATOMICS(bits, t)						\
t __tsan_atomic##bits##_load(const volatile t *a, int mo);		\
t __tsan_atomic##bits##_load(const volatile t *a, int mo)		\
{									\
	(void)mo;							\
	return __atomic_load_n(a, SC);					\
}									\
void __tsan_atomic##bits##_store(volatile t *a, t v, int mo);		\
void __tsan_atomic##bits##_store(volatile t *a, t v, int mo)		\
{									\
	(void)mo;							\
	__atomic_store_n(a, v, SC);					\
}									\
TSAN_RMW(bits, t, exchange, __atomic_exchange_n)			\
TSAN_RMW(bits, t, fetch_add, __atomic_fetch_add)			\
TSAN_RMW(bits, t, fetch_sub, __atomic_fetch_sub)			\
TSAN_RMW(bits, t, fetch_and, __atomic_fetch_and)			\
TSAN_RMW(bits, t, fetch_or, __atomic_fetch_or)				\
TSAN_RMW(bits, t, fetch_xor, __atomic_fetch_xor)			\
TSAN_RMW(bits, t, fetch_nand, __atomic_fetch_nand)			\
int __tsan_atomic##bits##_compare_exchange_strong(volatile t *a, t *c,	\
						  t v, int mo, int fmo); \
int __tsan_atomic##bits##_compare_exchange_strong(volatile t *a, t *c,	\
						  t v, int mo, int fmo) \
{									\
	(void)mo;							\
	(void)fmo;							\
	return __atomic_compare_exchange_n(a, c, v, false, SC, SC);	\
}									\
int __tsan_atomic##bits##_compare_exchange_weak(volatile t *a, t *c,	\
						t v, int mo, int fmo);	\
int __tsan_atomic##bits##_compare_exchange_weak(volatile t *a, t *c,	\
						t v, int mo, int fmo)	\
{									\
	(void)mo;							\
	(void)fmo;							\
	return __atomic_compare_exchange_n(a, c, v, false, SC, SC);	\
}									\
t __tsan_atomic##bits##_compare_exchange_val(volatile t *a, t c, t v,	\
					     int mo, int fmo);		\
t __tsan_atomic##bits##_compare_exchange_val(volatile t *a, t c, t v,	\
					     int mo, int fmo)		\
{									\
	(void)mo;							\
	(void)fmo;							\
	__atomic_compare_exchange_n(a, &c, v, false, SC, SC);		\
	return c;							\
}
TSAN_ATOMICS(8, uint8_t)
TSAN_ATOMICS(16, uint16_t)
TSAN_ATOMICS(32, uint32_t)
TSAN_ATOMICS(64, uint64_t)
