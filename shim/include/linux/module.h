/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: stub - for include/linux/module.h (v6.1); leaves out modules:
 *   THIS_MODULE is NULL and MODULE_*() declare nothing.
 */
#ifndef _SHIM_LINUX_MODULE_H
#define _SHIM_LINUX_MODULE_H

#include <linux/export.h>
#include <linux/init.h>

struct module;
#define THIS_MODULE		((struct module *)0)
#define MODULE_LICENSE(x)	struct __shim_module_license_unused
#define MODULE_AUTHOR(x)	struct __shim_module_author_unused
#define MODULE_DESCRIPTION(x)	struct __shim_module_description_unused

#endif
