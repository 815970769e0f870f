/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Forced (-include) into a klist.c and its bench ops, so that several
 * copies of klist link into one program: each copy is compiled with
 * its own -DKLIST_BENCH_PREFIX=, and its 13 exported functions become
 * <prefix>klist_init ... <prefix>klist_next.  The klist sources are
 * compiled unchanged; a missed rename is a duplicate-symbol link error.
 * The booted kernel's bench (tests/qemu/klist-bench-rename.h) uses it
 * too, with the prefix kernel_.
 */
#ifndef _BENCH_KLIST_RENAME_H
#define _BENCH_KLIST_RENAME_H

#ifndef KLIST_BENCH_PREFIX
#error "klist-rename.h needs -DKLIST_BENCH_PREFIX=<prefix>"
#endif

/* Two levels, so that the prefix macro expands before the paste. */
#define __KLIST_BENCH_PASTE(a, b)	a##b
#define _KLIST_BENCH_PASTE(a, b)	__KLIST_BENCH_PASTE(a, b)
#define KLIST_BENCH_RENAMED(name)		_KLIST_BENCH_PASTE(KLIST_BENCH_PREFIX, name)

#define klist_init		KLIST_BENCH_RENAMED(klist_init)
#define klist_add_head		KLIST_BENCH_RENAMED(klist_add_head)
#define klist_add_tail		KLIST_BENCH_RENAMED(klist_add_tail)
#define klist_add_behind	KLIST_BENCH_RENAMED(klist_add_behind)
#define klist_add_before	KLIST_BENCH_RENAMED(klist_add_before)
#define klist_del		KLIST_BENCH_RENAMED(klist_del)
#define klist_remove		KLIST_BENCH_RENAMED(klist_remove)
#define klist_node_attached	KLIST_BENCH_RENAMED(klist_node_attached)
#define klist_iter_init_node	KLIST_BENCH_RENAMED(klist_iter_init_node)
#define klist_iter_init		KLIST_BENCH_RENAMED(klist_iter_init)
#define klist_iter_exit		KLIST_BENCH_RENAMED(klist_iter_exit)
#define klist_prev		KLIST_BENCH_RENAMED(klist_prev)
#define klist_next		KLIST_BENCH_RENAMED(klist_next)

#endif
