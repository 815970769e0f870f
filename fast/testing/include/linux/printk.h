/* SPDX-License-Identifier: GPL-2.0 */
/* klist-port-fast, testing: printk() to stdout, levels dropped. */
#ifndef _KFAST_TESTING_LINUX_PRINTK_H
#define _KFAST_TESTING_LINUX_PRINTK_H

#include <stdio.h>

#define KERN_ERR	""
#define KERN_WARNING	""
#define KERN_INFO	""
#define KERN_DEBUG	""

#define printk(fmt, ...)	printf(fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...)	printf(fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printf(fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)	printf(fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...)	do { } while (0)

#endif
