/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup - include/linux/minmax.h (v6.1) less its type check, keep
 *   in sync.
 */
#ifndef _SHIM_LINUX_MINMAX_H
#define _SHIM_LINUX_MINMAX_H

#define min(x, y) ({ __typeof__(x) __x = (x); __typeof__(y) __y = (y); __x < __y ? __x : __y; })
#define max(x, y) ({ __typeof__(x) __x = (x); __typeof__(y) __y = (y); __x > __y ? __x : __y; })
#define min_t(t, x, y)	min((t)(x), (t)(y))
#define max_t(t, x, y)	max((t)(x), (t)(y))

#endif
