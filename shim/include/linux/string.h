/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: stub - for include/linux/string.h (v6.1): libc's <string.h>;
 *   leaves out the kernel's own (strscpy(), kmemdup()...).
 */
#ifndef _SHIM_LINUX_STRING_H
#define _SHIM_LINUX_STRING_H

#include <string.h>
#include <linux/types.h>

#endif
