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
 * record nothing.  Built with EXPLORE_TSAN_ATOMIC_POINTS (explore-fast,
 * whose instrumented code is the fast runtime's and has no shim point),
 * each atomic hook is the point and the marked access itself, with the
 * order asked for (below).
 *
 * This file is not itself instrumented, and is linked only into
 * programs whose instrumented code has no libtsan: never in the tsan or
 * asan presets.
 */
#define _GNU_SOURCE	/* dladdr() */
#define SHIM_INTERNAL

#include <stdint.h>
#include <string.h>

#include "explore-internal.h"

#ifdef EXPLORE_TSAN_ATOMIC_POINTS
static void sites_map(void);
#else
static inline void sites_map(void)
{
}
#endif

/* Every instrumented unit's constructor calls it: accesses are seen. */
void __tsan_init(void)
{
	ctl_race_instrumented();
	sites_map();
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

/* Orders nothing between tasks: no point, in either build. */
void __tsan_atomic_signal_fence(int mo);
void __tsan_atomic_signal_fence(int mo)
{
	(void)mo;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

#ifndef EXPLORE_TSAN_ATOMIC_POINTS
/*
 * The shim's programs: every atomic in their instrumented code is a
 * marked access of the shim's headers, which was a point already.
 */
void __tsan_atomic_thread_fence(int mo);
void __tsan_atomic_thread_fence(int mo)
{
	(void)mo;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
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
#else /* EXPLORE_TSAN_ATOMIC_POINTS */
/*
 * Programs whose instrumented code is built on the fast runtime's
 * headers (fast/include: no shim point anywhere in it; fast/testing's
 * explore-fast): each __atomic builtin is a point and a marked access,
 * with the order the code asked for, under sc and wmm alike
 * (<shim/ctl-wmm.h>'s calls make the point, then the access, through the
 * model under wmm, on memory under sc).  C11's orders as the model has
 * them:
 *
 *   relaxed			ONCE
 *   consume, acquire		ACQUIRE (loads, rmws)
 *   release			RELEASE (stores, rmws)
 *   acq_rel rmw		MB (stronger: the model has no acq_rel)
 *   seq_cst rmw		MB
 *   seq_cst store		an exchange, MB (x86's own mapping)
 *   seq_cst load		a full barrier, then an acquire load (stronger)
 *   fences: acquire		smp_rmb (what the model's rmb is: the
 *				relaxed loads' messages taken)
 *   fences: release, acq_rel,	smp_mb (stronger: a C11 release fence is
 *   seq_cst			A-cumulative, the model's wmb is not)
 *
 * A compare-exchange's failure order is its success order (stronger),
 * and it never fails spuriously.  fetch_xor and fetch_nand have no rmw
 * in the model: under wmm they are a report (none is used).
 *
 * Outside a controlled run (the program's own set-up) the operation is
 * done sequentially consistently, as in the shim's programs.
 */
#include <shim/ctl-wmm.h>
#include <shim/explore.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

/* (ctl-wmm.h declares it only outside the shim's own sources.) */
extern int shim_ctl_wmm;

/*
 * A point's site: "spinlock.c" and its line, from addr2line, once per
 * call site for the whole exploration (the table is shared with every
 * child the explorer forks, so each site is looked up once).
 */
#define SITES		256
struct tsan_site {
	const void *pc;
	int line;
	char file[56];
};
static struct tsan_site *sites;

static void sites_map(void)
{
	void *p;

	if (sites)
		return;
	p = mmap(NULL, SITES * sizeof(*sites), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p != MAP_FAILED)
		sites = p;
}

static void site_lookup(struct tsan_site *s, const void *pc)
{
	char cmd[512], out[256] = "";
	Dl_info info;
	uintptr_t off;
	FILE *f;

	snprintf(s->file, sizeof(s->file), "%p", pc);
	s->line = 1;
	if (!dladdr(pc, &info) || !info.dli_fname)
		return;
	off = (uintptr_t)pc - 1;
	/* A position-independent executable: its addresses are offsets. */
	if ((uintptr_t)info.dli_fbase != 0x400000)
		off -= (uintptr_t)info.dli_fbase;
	snprintf(cmd, sizeof(cmd), "addr2line -s -e '%s' %#lx 2>/dev/null",
		 info.dli_fname, (unsigned long)off);
	f = popen(cmd, "r");
	if (!f)
		return;
	if (fgets(out, sizeof(out), f)) {
		char *colon = strrchr(out, ':');

		if (colon && out[0] != '?' && atoi(colon + 1) > 0) {
			size_t n = (size_t)(colon - out);

			/* a name longer than the site's field is cut */
			if (n >= sizeof(s->file))
				n = sizeof(s->file) - 1;
			memcpy(s->file, out, n);
			s->file[n] = '\0';
			s->line = atoi(colon + 1);
		}
	}
	pclose(f);
}

static const char *site_of(const void *pc, int *line)
{
	uintptr_t h = ((uintptr_t)pc >> 2) % SITES;
	unsigned int i;

	*line = 1;
	if (!sites)
		return "atomic";
	for (i = 0; i < SITES; i++, h = (h + 1) % SITES) {
		struct tsan_site *s = &sites[h];

		if (s->pc == pc)
			break;
		if (!s->pc) {
			site_lookup(s, pc);
			s->pc = pc;
			break;
		}
	}
	if (i == SITES)
		return "atomic";
	*line = sites[h].line;
	return sites[h].file;
}

static bool controlled(void)
{
	return ctl_self_fast() >= 0;
}

static enum shim_mo load_mo(int mo)
{
	return mo == __ATOMIC_RELAXED ? SHIM_MO_ONCE : SHIM_MO_ACQUIRE;
}

static enum shim_mo rmw_mo(int mo)
{
	switch (mo) {
	case __ATOMIC_RELAXED:
		return SHIM_MO_ONCE;
	case __ATOMIC_CONSUME:
	case __ATOMIC_ACQUIRE:
		return SHIM_MO_ACQUIRE;
	case __ATOMIC_RELEASE:
		return SHIM_MO_RELEASE;
	default:
		return SHIM_MO_MB;
	}
}

static unsigned long long tsan_load(const volatile void *a, unsigned int n,
				    int mo, const void *pc)
{
	unsigned long long v = 0;
	const char *file;
	int line;

	file = site_of(pc, &line);
	if (mo == __ATOMIC_SEQ_CST)
		shim_ctl_fence(SHIM_FENCE_MB, file, line);
	shim_ctl_load(a, n, &v, load_mo(mo), -1, file, line);
	return v;
}

static unsigned long long tsan_rmw(volatile void *a, unsigned int n,
				   enum shim_rmw op, unsigned long long x,
				   unsigned long long y, int mo, const void *pc)
{
	unsigned long long old = 0;
	const char *file;
	int line;

	file = site_of(pc, &line);
	shim_ctl_rmw(a, n, op, x, y, &old, rmw_mo(mo), file, line);
	return old;
}

static void tsan_store(volatile void *a, unsigned int n, unsigned long long v,
		       int mo, const void *pc)
{
	const char *file;
	int line;

	if (mo == __ATOMIC_SEQ_CST) {
		tsan_rmw(a, n, SHIM_RMW_XCHG, v, 0, mo, pc);
		return;
	}
	file = site_of(pc, &line);
	shim_ctl_store(a, n, &v, mo == __ATOMIC_RELAXED ? SHIM_MO_ONCE : SHIM_MO_RELEASE,
		       file, line);
}

static void tsan_unmodelled(const char *what, const void *pc)
{
	int line;
	const char *file = site_of(pc, &line);

	if (shim_ctl_wmm)
		shim_report(file, line,
			    "explore: %s has no read-modify-write in the weak-memory model",
			    what);
}

void __tsan_atomic_thread_fence(int mo);
void __tsan_atomic_thread_fence(int mo)
{
	const char *file;
	int line;

	if (!controlled()) {
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		return;
	}
	if (mo == __ATOMIC_RELAXED)
		return;
	file = site_of(PC, &line);
	shim_ctl_fence(mo == __ATOMIC_ACQUIRE || mo == __ATOMIC_CONSUME ?
		       SHIM_FENCE_RMB : SHIM_FENCE_MB, file, line);
}

#define SC	__ATOMIC_SEQ_CST
/* @op: the model's rmw; @arg: its operand from v. */
#define TSAN_RMW(bits, t, name, builtin, op, arg)			\
t __tsan_atomic##bits##_##name(volatile t *a, t v, int mo);		\
t __tsan_atomic##bits##_##name(volatile t *a, t v, int mo)		\
{									\
	if (!controlled())						\
		return builtin(a, v, SC);				\
	return (t)tsan_rmw(a, sizeof(t), op, (unsigned long long)(t)(arg), \
			   0, mo, PC);					\
}
/* No rmw of the model: a point under sc, a report under wmm. */
#define TSAN_RMW_SC(bits, t, name, builtin)				\
t __tsan_atomic##bits##_##name(volatile t *a, t v, int mo);		\
t __tsan_atomic##bits##_##name(volatile t *a, t v, int mo)		\
{									\
	(void)mo;							\
	if (controlled()) {						\
		int line;						\
		const char *file = site_of(PC, &line);			\
									\
		tsan_unmodelled(#builtin, PC);				\
		shim_ctl_point_sized(SHIM_OP_ATOMIC, (const void *)a,	\
				     sizeof(t), false, file, line);	\
	}								\
	return builtin(a, v, SC);					\
}
#define TSAN_ATOMICS(bits, t)						\
t __tsan_atomic##bits##_load(const volatile t *a, int mo);		\
t __tsan_atomic##bits##_load(const volatile t *a, int mo)		\
{									\
	if (!controlled())						\
		return __atomic_load_n(a, SC);				\
	return (t)tsan_load(a, sizeof(t), mo, PC);			\
}									\
void __tsan_atomic##bits##_store(volatile t *a, t v, int mo);		\
void __tsan_atomic##bits##_store(volatile t *a, t v, int mo)		\
{									\
	if (!controlled()) {						\
		__atomic_store_n(a, v, SC);				\
		return;							\
	}								\
	tsan_store(a, sizeof(t), v, mo, PC);				\
}									\
TSAN_RMW(bits, t, exchange, __atomic_exchange_n, SHIM_RMW_XCHG, v)	\
TSAN_RMW(bits, t, fetch_add, __atomic_fetch_add, SHIM_RMW_ADD, v)	\
TSAN_RMW(bits, t, fetch_sub, __atomic_fetch_sub, SHIM_RMW_ADD, -v)	\
TSAN_RMW(bits, t, fetch_and, __atomic_fetch_and, SHIM_RMW_AND, v)	\
TSAN_RMW(bits, t, fetch_or, __atomic_fetch_or, SHIM_RMW_OR, v)		\
TSAN_RMW_SC(bits, t, fetch_xor, __atomic_fetch_xor)			\
TSAN_RMW_SC(bits, t, fetch_nand, __atomic_fetch_nand)			\
static int tsan_cas##bits(volatile t *a, t *c, t v, int mo,		\
			  const void *pc)				\
{									\
	t old;								\
									\
	if (!controlled())						\
		return __atomic_compare_exchange_n(a, c, v, false, SC, SC); \
	old = (t)tsan_rmw(a, sizeof(t), SHIM_RMW_CMPXCHG, *c, v, mo, pc); \
	if (old == *c)							\
		return 1;						\
	*c = old;							\
	return 0;							\
}									\
int __tsan_atomic##bits##_compare_exchange_strong(volatile t *a, t *c,	\
						  t v, int mo, int fmo); \
int __tsan_atomic##bits##_compare_exchange_strong(volatile t *a, t *c,	\
						  t v, int mo, int fmo) \
{									\
	(void)fmo;							\
	return tsan_cas##bits(a, c, v, mo, PC);				\
}									\
int __tsan_atomic##bits##_compare_exchange_weak(volatile t *a, t *c,	\
						t v, int mo, int fmo);	\
int __tsan_atomic##bits##_compare_exchange_weak(volatile t *a, t *c,	\
						t v, int mo, int fmo)	\
{									\
	(void)fmo;							\
	return tsan_cas##bits(a, c, v, mo, PC);				\
}									\
t __tsan_atomic##bits##_compare_exchange_val(volatile t *a, t c, t v,	\
					     int mo, int fmo);		\
t __tsan_atomic##bits##_compare_exchange_val(volatile t *a, t c, t v,	\
					     int mo, int fmo)		\
{									\
	(void)fmo;							\
	tsan_cas##bits(a, &c, v, mo, PC);				\
	return c;							\
}
#endif /* EXPLORE_TSAN_ATOMIC_POINTS */
TSAN_ATOMICS(8, uint8_t)
TSAN_ATOMICS(16, uint16_t)
TSAN_ATOMICS(32, uint32_t)
TSAN_ATOMICS(64, uint64_t)
