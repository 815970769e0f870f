/* SPDX-License-Identifier: GPL-2.0 */
/*
 * klist-port-fast, internal: lib/klist.c's iterator entry points and
 * klist_remove() under the names it is compiled with in this flavour
 * (fast/CMakeLists.txt renames them); own-walk.c defines the exported
 * ones around them.
 */
#ifndef _KFAST_OWN_WALK_H
#define _KFAST_OWN_WALK_H

#include <linux/klist.h>

void kfast_klist_iter_init_node(struct klist *k, struct klist_iter *i,
				struct klist_node *n);
void kfast_klist_iter_init(struct klist *k, struct klist_iter *i);
void kfast_klist_iter_exit(struct klist_iter *i);
void kfast_klist_remove(struct klist_node *n);

#endif
