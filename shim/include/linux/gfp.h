/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup - include/linux/gfp_types.h and gfp.h (v6.1), keep in sync;
 *   only the blocking, zeroing and no-warn flags, with values of their own.
 */
#ifndef _SHIM_LINUX_GFP_H
#define _SHIM_LINUX_GFP_H

#include <linux/types.h>

#define __GFP_DIRECT_RECLAIM	0x1u	/* may sleep */
#define __GFP_ZERO		0x2u
#define __GFP_NOWARN		0x4u
#define GFP_ATOMIC		0x0u
#define GFP_NOWAIT		0x0u
#define GFP_KERNEL		__GFP_DIRECT_RECLAIM

#define gfpflags_allow_blocking(gfp)	(!!((gfp) & __GFP_DIRECT_RECLAIM))

#endif
