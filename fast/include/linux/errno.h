/* SPDX-License-Identifier: GPL-2.0 */
/* klist-port-fast: error numbers, the C library's (with the UAPI header). */
#ifndef _KFAST_LINUX_ERRNO_H
#define _KFAST_LINUX_ERRNO_H

#ifdef __has_include_next
#if __has_include_next(<linux/errno.h>)
#include_next <linux/errno.h>
#endif
#endif
#include <errno.h>

#endif
