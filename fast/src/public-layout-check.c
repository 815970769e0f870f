// SPDX-License-Identifier: GPL-2.0
/*
 * Build check, for each flavour (the checked library compiles it too):
 * the structs of the public <klist-port/klist.h> have the layout of the
 * ones lib/klist.c is compiled with (<linux/klist.h> on the flavour's
 * runtime), so a program may embed them.  Its names are renamed on the
 * way in, as both headers define struct klist.
 */
#include <stddef.h>

#define klist			public_klist
#define klist_node		public_klist_node
#define klist_iter		public_klist_iter
#define klist_node_init		public_klist_node_init
#define klist_init		public_klist_init
#define klist_add_tail		public_klist_add_tail
#define klist_add_head		public_klist_add_head
#define klist_add_behind	public_klist_add_behind
#define klist_add_before	public_klist_add_before
#define klist_del		public_klist_del
#define klist_remove		public_klist_remove
#define klist_node_attached	public_klist_node_attached
#define klist_iter_init		public_klist_iter_init
#define klist_iter_init_node	public_klist_iter_init_node
#define klist_iter_exit		public_klist_iter_exit
#define klist_prev		public_klist_prev
#define klist_next		public_klist_next
#define klist_fini		public_klist_fini
#include <klist-port/klist.h>
#undef klist
#undef klist_node
#undef klist_iter
#undef klist_node_init
#undef klist_init
#undef klist_add_tail
#undef klist_add_head
#undef klist_add_behind
#undef klist_add_before
#undef klist_del
#undef klist_remove
#undef klist_node_attached
#undef klist_fini
#undef klist_iter_init
#undef klist_iter_init_node
#undef klist_iter_exit
#undef klist_prev
#undef klist_next
#undef KLIST_INIT
#undef DEFINE_KLIST

#include <linux/klist.h>

#define SAME_LAYOUT(pub, in)						\
	_Static_assert(sizeof(struct pub) == sizeof(struct in) &&	\
		       _Alignof(struct pub) == _Alignof(struct in),	\
		       #pub " and " #in ": size or alignment differ")
/* The lock's size is checked below: the public one may be padded. */
#define SAME_OFFSET(pub, in, m)						\
	_Static_assert(offsetof(struct pub, m) == offsetof(struct in, m), \
		       #pub "." #m ": offset differs")

SAME_LAYOUT(public_klist, klist);
SAME_OFFSET(public_klist, klist, k_lock);
SAME_OFFSET(public_klist, klist, k_list);
SAME_OFFSET(public_klist, klist, get);
SAME_OFFSET(public_klist, klist, put);
SAME_LAYOUT(public_klist_node, klist_node);
SAME_OFFSET(public_klist_node, klist_node, n_klist);
SAME_OFFSET(public_klist_node, klist_node, n_node);
SAME_OFFSET(public_klist_node, klist_node, n_ref);
SAME_LAYOUT(public_klist_iter, klist_iter);
SAME_OFFSET(public_klist_iter, klist_iter, i_klist);
SAME_OFFSET(public_klist_iter, klist_iter, i_cur);
_Static_assert(sizeof(struct klist_port_lock) >= sizeof(spinlock_t) &&
	       offsetof(struct list_head, next) ==
	       offsetof(struct klist_port_links, klist_port_next) &&
	       offsetof(struct list_head, prev) ==
	       offsetof(struct klist_port_links, klist_port_prev) &&
	       sizeof(struct klist_port_ref) == sizeof(struct kref),
	       "the lock, links or count of the public header differ");
