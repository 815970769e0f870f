/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Forced (-include) into the kernel's lib/klist.c and its bench ops, so
 * the kernel's 13 exported klist functions link beside ours under other
 * names.  The kernel's files are compiled unchanged.
 */
#ifndef _BENCH_KERNEL_KLIST_RENAME_H
#define _BENCH_KERNEL_KLIST_RENAME_H

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

#endif
