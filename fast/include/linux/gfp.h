/* SPDX-License-Identifier: GPL-2.0 */
/* klist-port-fast: allocation flags; only __GFP_ZERO means anything here. */
#ifndef _KFAST_LINUX_GFP_H
#define _KFAST_LINUX_GFP_H

#include <linux/types.h>

#define __GFP_ZERO	0x100u
#define GFP_KERNEL	0x1u
#define GFP_ATOMIC	0x2u
#define GFP_NOWAIT	0x4u

#endif
