/* SPDX-License-Identifier: GPL-2.0 */
/*
 * klist-port-fast: the kernel's integer and bool types.  The system's
 * UAPI <linux/types.h> comes first, so programs that include both
 * (through <sys/prctl.h>, say) see one set of __u32 and friends.
 */
#ifndef _KFAST_LINUX_TYPES_H
#define _KFAST_LINUX_TYPES_H

#ifdef __has_include_next
#if __has_include_next(<linux/types.h>)
#include_next <linux/types.h>
#endif
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef unsigned int gfp_t;

#endif
