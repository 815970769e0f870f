/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: stub - for include/linux/errno.h (v6.1): the UAPI <asm/errno.h>
 *   and, of the kernel-only codes, EPROBE_DEFER alone (ddm returns it);
 *   leaves out the others (ERESTARTSYS...).
 *
 * The kernel's errno values.  glibc's <errno.h> reaches this header by
 * the name <linux/errno.h>, so it must define the values itself (from
 * the UAPI asm header) rather than include <errno.h>.
 */
#ifndef _SHIM_LINUX_ERRNO_H
#define _SHIM_LINUX_ERRNO_H

#include <asm/errno.h>

#define EPROBE_DEFER	517	/* Driver requests probe retry */

#endif
