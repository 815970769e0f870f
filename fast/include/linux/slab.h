/* SPDX-License-Identifier: GPL-2.0 */
/* klist-port-fast: kmalloc() is malloc(), inline; no accounting. */
#ifndef _KFAST_LINUX_SLAB_H
#define _KFAST_LINUX_SLAB_H

#include <stdlib.h>
#include <linux/gfp.h>

static inline void *kmalloc(size_t size, gfp_t flags)
{
	return flags & __GFP_ZERO ? calloc(1, size) : malloc(size);
}

static inline void *kzalloc(size_t size, gfp_t flags)
{
	return kmalloc(size, flags | __GFP_ZERO);
}

static inline void *kmalloc_array(size_t n, size_t size, gfp_t flags)
{
	if (size && n > (size_t)-1 / size)
		return NULL;
	return kmalloc(n * size, flags);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	return kmalloc_array(n, size, flags | __GFP_ZERO);
}

static inline void kfree(const void *p)
{
	free((void *)p);
}

#endif
