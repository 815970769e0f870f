/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: stub - for include/linux/export.h (v6.1); leaves out the symbol
 *   tables and namespaces.
 *
 * Userspace shim: exports only check that the symbol exists.
 */
#ifndef _SHIM_LINUX_EXPORT_H
#define _SHIM_LINUX_EXPORT_H

#define EXPORT_SYMBOL(sym)	extern __typeof__(sym) sym
#define EXPORT_SYMBOL_GPL(sym)	extern __typeof__(sym) sym

#endif
