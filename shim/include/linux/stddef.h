/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: stub - for include/linux/stddef.h (v6.1): libc's <stddef.h>;
 *   leaves out sizeof_field(), offsetofend(), struct_group().
 */
#ifndef _SHIM_LINUX_STDDEF_H
#define _SHIM_LINUX_STDDEF_H

#include <stddef.h>

#endif
