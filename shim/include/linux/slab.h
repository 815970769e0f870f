/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup + strict - include/linux/slab.h (v6.1), a subset, keep in
 *   sync; strict: a leak, or GFP_KERNEL in atomic context, fails the test.
 *
 * Userspace shim: every allocation is accounted with its call site.  A
 * GFP_KERNEL allocation in atomic context is reported, a freed block is
 * poisoned and quarantined so later writes to it are found, blocks a
 * test leaves behind are reported, and a test can make allocations fail.
 * In the plain build each block also lives on guarded pages, as under
 * the kernel's KFENCE (shim/src/guard.c): the first read or write of it
 * once freed, or past its end, is reported at once.
 */
#ifndef _SHIM_LINUX_SLAB_H
#define _SHIM_LINUX_SLAB_H

#include <linux/gfp.h>
#include <linux/compiler.h>

void *__shim_kmalloc(size_t size, gfp_t flags, const char *file, int line);
void __shim_kfree(const void *p, const char *file, int line);
__printf(4, 5)
char *__shim_kasprintf(gfp_t gfp, const char *file, int line, const char *fmt, ...);

#define kmalloc(size, flags)	__shim_kmalloc((size), (flags), __FILE__, __LINE__)
#define kzalloc(size, flags)	kmalloc((size), (flags) | __GFP_ZERO)
#define kmalloc_array(n, size, flags) ({				\
	size_t __bytes;							\
	__builtin_mul_overflow((size_t)(n), (size_t)(size), &__bytes) ?	\
		NULL : kmalloc(__bytes, (flags));			\
})
#define kcalloc(n, size, flags)	kmalloc_array((n), (size), (flags) | __GFP_ZERO)
#define kfree(p)		__shim_kfree((p), __FILE__, __LINE__)
#define kasprintf(gfp, fmt, ...) \
	__shim_kasprintf((gfp), __FILE__, __LINE__, fmt, ##__VA_ARGS__)
#define kstrdup(s, gfp)		kasprintf((gfp), "%s", (s))

#endif
