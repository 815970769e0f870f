/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: stub - for include/linux/kstrtox.h (v6.1); leaves out kstrto*():
 *   includes libc's <stdio.h> instead.
 */
#ifndef _SHIM_LINUX_KSTRTOX_H
#define _SHIM_LINUX_KSTRTOX_H

#include <stdio.h>

#endif
