/* SPDX-License-Identifier: GPL-2.0 */
/*
 * klist-port-fast, testing: the corner of include/linux/kernel.h the
 * shared suites and the torture use.  Not installed: test support only.
 */
#ifndef _KFAST_TESTING_LINUX_KERNEL_H
#define _KFAST_TESTING_LINUX_KERNEL_H

#ifdef __has_include_next
#if __has_include_next(<linux/kernel.h>)
#include_next <linux/kernel.h>
#endif
#endif

#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/container_of.h>
#include <linux/printk.h>
#include <linux/types.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define min(a, b) ({ __typeof__(a) __a = (a); __typeof__(b) __b = (b); \
		     __a < __b ? __a : __b; })
#define max(a, b) ({ __typeof__(a) __a = (a); __typeof__(b) __b = (b); \
		     __a > __b ? __a : __b; })

#endif
