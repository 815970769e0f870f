/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup - include/linux/kernel.h (v6.1), a subset, keep in sync.
 */
#ifndef _SHIM_LINUX_KERNEL_H
#define _SHIM_LINUX_KERNEL_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/container_of.h>
#include <linux/stringify.h>
#include <linux/printk.h>
#include <linux/bug.h>
#include <linux/err.h>
#include <linux/kstrtox.h>
#include <linux/minmax.h>
#include <linux/preempt.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))

__printf(3, 4) int scnprintf(char *buf, size_t size, const char *fmt, ...);

#endif
