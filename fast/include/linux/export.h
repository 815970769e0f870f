/* SPDX-License-Identifier: GPL-2.0 */
/*
 * klist-port-fast: exports.  The library's symbols are its exports;
 * nothing to record.
 */
#ifndef _KFAST_LINUX_EXPORT_H
#define _KFAST_LINUX_EXPORT_H

#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)

#endif
