/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup - include/linux/stringify.h (v6.1), keep in sync.
 */
#ifndef _SHIM_LINUX_STRINGIFY_H
#define _SHIM_LINUX_STRINGIFY_H

#define __stringify_1(x...)	#x
#define __stringify(x...)	__stringify_1(x)

#endif
