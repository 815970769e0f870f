// SPDX-License-Identifier: GPL-2.0
/* The checks of the kernel's CONFIG_DEBUG_LIST, reported through the shim. */
/* Bookkeeping here is no scheduling point (<shim/ctl-hook.h>). */
#define SHIM_INTERNAL

#include <linux/kernel.h>
#include <linux/list.h>
#include <shim/shim.h>

bool __shim_list_add_valid(struct list_head *new, struct list_head *prev,
			   struct list_head *next)
{
	if (next->prev != prev) {
		shim_report(__FILE__, __LINE__,
			    "list_add corruption. next->prev should be prev (%p), but was %p. (next=%p)",
			    (void *)prev, (void *)next->prev, (void *)next);
		return false;
	}
	if (prev->next != next) {
		shim_report(__FILE__, __LINE__,
			    "list_add corruption. prev->next should be next (%p), but was %p. (prev=%p)",
			    (void *)next, (void *)prev->next, (void *)prev);
		return false;
	}
	if (new == prev || new == next) {
		shim_report(__FILE__, __LINE__, "list_add double add: new=%p, prev=%p, next=%p",
			    (void *)new, (void *)prev, (void *)next);
		return false;
	}
	return true;
}

bool __shim_list_del_entry_valid(struct list_head *entry)
{
	struct list_head *prev = entry->prev, *next = entry->next;

	if (next == LIST_POISON1 || prev == LIST_POISON2) {
		shim_report(__FILE__, __LINE__,
			    "list_del corruption, %p->next is LIST_POISON1 (deleted twice?)",
			    (void *)entry);
		return false;
	}
	if (prev->next != entry || next->prev != entry) {
		shim_report(__FILE__, __LINE__,
			    "list_del corruption. %p: prev->next=%p, next->prev=%p",
			    (void *)entry, (void *)prev->next, (void *)next->prev);
		return false;
	}
	return true;
}
