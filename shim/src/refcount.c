// SPDX-License-Identifier: GPL-2.0
/*
 * refcount_t: the kernel's refcount_warn_saturate() reports, without the
 * saturation.  Each operation reads the counter and changes it only if
 * the result is sound, so a bad counter is reported and left as it was.
 */
/* Bookkeeping here is no scheduling point (<shim/ctl-hook.h>). */
#define SHIM_INTERNAL

#include <linux/kernel.h>
#include <linux/refcount.h>
#include <shim/shim.h>
#include <shim/ctl-wmm.h>
#include "shim-internal.h"

/* kfree() fills a block with POISON_FREE (0x6b, alloc.c): read as an int. */
#define POISON_FREE_INT	0x6b6b6b6b
/* kmalloc() without __GFP_ZERO fills a block with 0xa5. */
#define UNINIT_INT	((int)0xa5a5a5a5)

/* A counter no live object has: negative (saturated too) or freed. */
static bool not_live(int v)
{
	return v < 0 || v == POISON_FREE_INT;
}

/* What a bad counter says about its object, for the report. */
static const char *what(int v)
{
	if (v == POISON_FREE_INT)
		return ", kfree() poison: the object was freed";
	if (v == UNINIT_INT)
		return ", kmalloc() fill: never initialised";
	if (v == REFCOUNT_SATURATED)
		return ", saturated";
	return "";
}

static void warn(const char *file, int line, const char *msg, int old)
{
	shim_report(file, line, "refcount_t: %s at %s:%d (counter %d = %#x%s)",
		    msg, file, line, old, (unsigned int)old, what(old));
}

static bool cmpxchg(refcount_t *r, int *old, int new)
{
	return __atomic_compare_exchange_n(&r->refs.counter, old, new, false,
					   __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
}

bool __shim_refcount_add_not_zero(int i, refcount_t *r, const char *file,
				  int line)
{
	int old;

	shim_point(SHIM_OP_REFCOUNT, r, false, file, line);
	shim_hook_wmm_mb();
	old = atomic_read(&r->refs);
	do {
		if (!old)
			return false;
		if (not_live(old) || old > INT_MAX - i) {
			warn(file, line, "saturated; leaking memory", old);
			return false;
		}
	} while (!cmpxchg(r, &old, old + i));
	return true;
}

void __shim_refcount_add(int i, refcount_t *r, const char *file, int line)
{
	int old;

	shim_point(SHIM_OP_REFCOUNT, r, false, file, line);
	shim_hook_wmm_mb();
	old = atomic_read(&r->refs);
	do {
		if (!old) {
			warn(file, line, "addition on 0; use-after-free", old);
			return;
		}
		if (not_live(old) || old > INT_MAX - i) {
			warn(file, line, "saturated; leaking memory", old);
			return;
		}
	} while (!cmpxchg(r, &old, old + i));
}

/* As in the kernel: release ordering, and acquire when it hits zero. */
bool __shim_refcount_sub_and_test(int i, refcount_t *r, const char *file,
				  int line)
{
	int old;

	shim_point(SHIM_OP_REFCOUNT, r, false, file, line);
	shim_hook_wmm_mb();
	shim_vg_release(&r->refs.counter);
	old = atomic_read(&r->refs);
	do {
		if (not_live(old) || old < i) {
			warn(file, line, "underflow; use-after-free", old);
			return false;
		}
	} while (!cmpxchg(r, &old, old - i));
	if (old != i)
		return false;
	shim_vg_acquire(&r->refs.counter);
	return true;
}

/* refcount_dec() must never drop the last reference: nobody would free. */
void __shim_refcount_dec(refcount_t *r, const char *file, int line)
{
	int old;

	shim_point(SHIM_OP_REFCOUNT, r, false, file, line);
	shim_hook_wmm_mb();
	shim_vg_release(&r->refs.counter);
	old = atomic_read(&r->refs);
	do {
		if (not_live(old) || old < 1) {
			warn(file, line, "underflow; use-after-free", old);
			return;
		}
		if (old == 1) {
			warn(file, line, "decrement hit 0; leaking memory", old);
			return;
		}
	} while (!cmpxchg(r, &old, old - 1));
}
