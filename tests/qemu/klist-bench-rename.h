/* SPDX-License-Identifier: GPL-2.0 */
/*
 * klist-bench: Linux 6.1's klist under other names, so that it links
 * beside this kernel's own.  Forced (-include) into 6.1's lib/klist.c,
 * which is compiled unchanged, and included first by klist-bench-61.c.
 * The 13 exported functions become kernel_klist_*(), as the userspace
 * bench's tests/bench/kernel-klist-rename.h does; the rest of 6.1's
 * klist.c is static.  6.1's klist.h is included here, after the
 * renames, so its prototypes are renamed too and its include guard
 * keeps our klist.h out of the file.
 */
#ifndef _KLIST_BENCH_RENAME_H
#define _KLIST_BENCH_RENAME_H

#define klist_init		kernel_klist_init
#define klist_add_head		kernel_klist_add_head
#define klist_add_tail		kernel_klist_add_tail
#define klist_add_behind	kernel_klist_add_behind
#define klist_add_before	kernel_klist_add_before
#define klist_del		kernel_klist_del
#define klist_remove		kernel_klist_remove
#define klist_node_attached	kernel_klist_node_attached
#define klist_iter_init_node	kernel_klist_iter_init_node
#define klist_iter_init		kernel_klist_iter_init
#define klist_iter_exit		kernel_klist_iter_exit
#define klist_prev		kernel_klist_prev
#define klist_next		kernel_klist_next

/* 6.1's include/linux/klist.h, extracted by scripts/qemu-kernel-bench.sh */
#include "klist-bench-61-klist.h"

#endif
