/* SPDX-License-Identifier: GPL-2.0 */
/* klist-port-fast: container_of(), as the kernel's, with its type check. */
#ifndef _KFAST_LINUX_CONTAINER_OF_H
#define _KFAST_LINUX_CONTAINER_OF_H

#include <stddef.h>

#define container_of(ptr, type, member) ({				\
	void *__mptr = (void *)(ptr);					\
	_Static_assert(__builtin_types_compatible_p(typeof(*(ptr)),	\
			typeof(((type *)0)->member)) ||			\
		       __builtin_types_compatible_p(typeof(*(ptr)), void), \
		       "pointer type mismatch in container_of()");	\
	((type *)(__mptr - offsetof(type, member))); })

#endif
