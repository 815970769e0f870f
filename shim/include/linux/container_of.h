/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup - include/linux/container_of.h (v6.1) less its type check,
 *   keep in sync.
 */
#ifndef _SHIM_LINUX_CONTAINER_OF_H
#define _SHIM_LINUX_CONTAINER_OF_H

#include <stddef.h>

#define container_of(ptr, type, member) ({				\
	void *__mptr = (void *)(ptr);					\
	((type *)(__mptr - offsetof(type, member))); })

#endif
