// SPDX-License-Identifier: GPL-2.0
/*
 * klist-port-fast: WARN() and refcount saturation.  Report, count, go on
 * (see linux/bug.h and linux/refcount.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include <kfast/annotate.h>
#include <kfast/kfast.h>
#include <linux/bug.h>
#include <linux/refcount.h>

static unsigned long warn_count;

unsigned long kfast_warn_count(void)
{
	kfast_vg_marked(&warn_count, sizeof(warn_count));
	return __atomic_load_n(&warn_count, __ATOMIC_RELAXED);
}

/* <klist-port/klist.h>'s name for it. */
unsigned long klist_port_warnings(void)
{
	return kfast_warn_count();
}

void kfast_warn(bool *once, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	kfast_vg_marked(&warn_count, sizeof(warn_count));
	kfast_vg_marked(once, sizeof(*once));
	__atomic_fetch_add(&warn_count, 1, __ATOMIC_RELAXED);
	if (__atomic_exchange_n(once, true, __ATOMIC_RELAXED))
		return;
	flockfile(stderr);
	fprintf(stderr, "klist-port-fast: WARNING at %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	funlockfile(stderr);
}

static const char *const saturation_words[] = {
	[REFCOUNT_ADD_NOT_ZERO_OVF] = "saturated; leaking memory",
	[REFCOUNT_ADD_OVF] = "saturated; leaking memory",
	[REFCOUNT_ADD_UAF] = "addition on 0; use-after-free",
	[REFCOUNT_SUB_UAF] = "underflow; use-after-free",
	[REFCOUNT_DEC_LEAK] = "decrement hit 0; leaking memory",
};

void kfast_refcount_warn_saturate(refcount_t *r,
				   enum refcount_saturation_type t)
{
	/* As the kernel: pin the counter where no put can reach zero. */
	refcount_set(r, REFCOUNT_SATURATED);
	WARN(1, "refcount_t: %s.\n", saturation_words[t]);
}
