// SPDX-License-Identifier: GPL-2.0
/*
 * klist-port-fast: klist_remove() of the node the caller's own walk
 * stands on would wait for itself forever (the walk's reference is what
 * it waits for).  Each thread keeps a record of its open iterators, so
 * such a remove is reported and done as a klist_del() instead of hanging.
 *
 * lib/klist.c is compiled with its iterator entry points and
 * klist_remove() renamed (kfast_klist_*, fast/CMakeLists.txt); these are
 * the exported ones, which record and then call them.  The kernel's
 * klist.c stays as it is.
 */
#include <kfast/own-walk.h>
#include <linux/bug.h>

/* Walks open at once in one thread; more go unrecorded (and unchecked). */
#define KFAST_OPEN_ITERS	16

static __thread struct klist_iter *open_iters[KFAST_OPEN_ITERS];

static void record(struct klist_iter *i)
{
	int n;

	if (!i)
		return;
	for (n = 0; n < KFAST_OPEN_ITERS; n++) {
		if (open_iters[n] == i)
			return;		/* re-initialised without an exit */
	}
	for (n = 0; n < KFAST_OPEN_ITERS; n++) {
		if (!open_iters[n]) {
			open_iters[n] = i;
			return;
		}
	}
}

static void forget(struct klist_iter *i)
{
	int n;

	for (n = 0; n < KFAST_OPEN_ITERS; n++) {
		if (open_iters[n] == i)
			open_iters[n] = NULL;
	}
}

static bool own_walk_holds(struct klist_node *node)
{
	int n;

	for (n = 0; n < KFAST_OPEN_ITERS; n++) {
		if (open_iters[n] && open_iters[n]->i_cur == node)
			return true;
	}
	return false;
}

void klist_iter_init_node(struct klist *k, struct klist_iter *i,
			  struct klist_node *n)
{
	kfast_klist_iter_init_node(k, i, n);
	record(i);
}

void klist_iter_init(struct klist *k, struct klist_iter *i)
{
	kfast_klist_iter_init(k, i);
	record(i);
}

void klist_iter_exit(struct klist_iter *i)
{
	forget(i);
	kfast_klist_iter_exit(i);
}

void klist_remove(struct klist_node *n)
{
	if (n && WARN(own_walk_holds(n),
		      "klist: removing node %p that the caller's own walk holds: deleted, not waited for\n",
		      n)) {
		klist_del(n);
		return;
	}
	kfast_klist_remove(n);
}
