/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: custom - include/linux/processor.h (v6.1) has cpu_relax()
 *   from <asm/processor.h>: here x86's pause ("rep; nop"), a compiler
 *   barrier elsewhere; no scheduling point, so a busy-wait must bound
 *   itself, as in the kernel.
 */
#ifndef _SHIM_LINUX_PROCESSOR_H
#define _SHIM_LINUX_PROCESSOR_H

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax()	__asm__ __volatile__("rep; nop" ::: "memory")
#else
#define cpu_relax()	__asm__ __volatile__("" ::: "memory")
#endif

#endif
