// SPDX-License-Identifier: GPL-2.0
/* refcount_t: the kernel's two misuse reports, without saturation. */
#include <linux/kernel.h>
#include <linux/refcount.h>
#include <shim/shim.h>

bool __shim_refcount_inc_not_zero(refcount_t *r)
{
	int old;

	shim_sched_point();
	old = atomic_read(&r->refs);

	do {
		if (!old)
			return false;
	} while (!__atomic_compare_exchange_n(&r->refs.counter, &old, old + 1, false,
					      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	return true;
}

void __shim_refcount_inc(refcount_t *r, const char *file, int line)
{
	if (!__shim_refcount_inc_not_zero(r))
		shim_report(file, line, "refcount_t: addition on 0; use-after-free at %s:%d",
			    file, line);
}

/* As in the kernel: release ordering, and acquire when it hits zero. */
bool __shim_refcount_dec_and_test(refcount_t *r, const char *file, int line)
{
	int old;

	shim_sched_point();
	shim_vg_release(&r->refs.counter);
	old = atomic_read(&r->refs);

	do {
		if (old <= 0) {
			shim_report(file, line, "refcount_t: underflow; use-after-free at %s:%d",
				    file, line);
			return false;
		}
	} while (!__atomic_compare_exchange_n(&r->refs.counter, &old, old - 1, false,
					      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	if (old != 1)
		return false;
	shim_vg_acquire(&r->refs.counter);
	return true;
}
