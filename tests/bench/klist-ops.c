// SPDX-License-Identifier: GPL-2.0
/*
 * The bench interface on a klist.  Built once per klist column from
 * this one file, against that column's klist.h and runtime (our
 * include/linux/klist.h or the kernel's, on the checked shim or the
 * fast runtime; symbols renamed by klist-rename.h), so every klist
 * runs exactly the same code.  CMake names the column: BENCH_OPS,
 * BENCH_NAME and BENCH_WHAT.
 */
#include <stdlib.h>

#include <linux/klist.h>
#include "bench.h"

#if !defined(BENCH_OPS) || !defined(BENCH_NAME) || !defined(BENCH_WHAT)
#error "klist-ops.c is built per column: define BENCH_OPS, BENCH_NAME, BENCH_WHAT"
#endif

struct item {
	struct klist_node kn;
	unsigned long val;
};

struct bench_list {
	struct klist k;
	struct item *items;	/* items[0] is the node the remove test uses */
	struct item *spare;
	unsigned int nr, nspare;
	struct klist_iter hold;
};

static struct bench_list *kl_create(unsigned int nr, unsigned int spare)
{
	struct bench_list *l;
	unsigned int i;

	bench_list_alloc(l, nr, spare);
	klist_init(&l->k, NULL, NULL);
	for (i = 0; i < nr; i++)
		klist_add_tail(&l->items[i].kn, &l->k);
	return l;
}

static void kl_destroy(struct bench_list *l)
{
	unsigned int i;

	for (i = 0; i < l->nspare; i++)
		if (klist_node_attached(&l->spare[i].kn))
			klist_del(&l->spare[i].kn);
	for (i = 0; i < l->nr; i++)
		if (klist_node_attached(&l->items[i].kn))
			klist_del(&l->items[i].kn);
	bench_list_free(l);
}

static unsigned long kl_walk(struct bench_list *l, unsigned int work)
{
	struct klist_iter it;
	struct klist_node *n;
	unsigned long visited = 0, sink = 0;

	klist_iter_init(&l->k, &it);
	while ((n = klist_next(&it))) {
		/* The work runs with no lock held: the point of a klist. */
		if (work)
			sink += bench_work(container_of(n, struct item, kn)->val,
					   work);
		visited++;
	}
	klist_iter_exit(&it);
	__asm__ volatile("" : : "r"(sink));
	return visited;
}

static void kl_add(struct bench_list *l, unsigned int slot)
{
	klist_add_tail(&l->spare[slot].kn, &l->k);
}

static void kl_del(struct bench_list *l, unsigned int slot)
{
	klist_del(&l->spare[slot].kn);
}

static void kl_remove(struct bench_list *l, unsigned int slot)
{
	klist_remove(&l->spare[slot].kn);
}

static bool kl_slot_linked(struct bench_list *l, unsigned int slot)
{
	return klist_node_attached(&l->spare[slot].kn);
}

static void kl_hold_first(struct bench_list *l)
{
	klist_iter_init(&l->k, &l->hold);
	klist_next(&l->hold);
}

static void kl_release_first(struct bench_list *l)
{
	klist_next(&l->hold);
	klist_iter_exit(&l->hold);
}

static void kl_remove_first(struct bench_list *l)
{
	klist_remove(&l->items[0].kn);
}

static void kl_readd_first(struct bench_list *l)
{
	klist_add_head(&l->items[0].kn, &l->k);
}

const struct bench_ops BENCH_OPS = {
	.name		= BENCH_NAME,
	.what		= BENCH_WHAT,
	.node_bytes	= sizeof(struct klist_node),
	.iter_bytes	= sizeof(struct klist_iter),
	.list_bytes	= sizeof(struct klist),	/* klist_init() allocates nothing */
	.has_remove	= true,
	.create		= kl_create,
	.destroy	= kl_destroy,
	.walk		= kl_walk,
	.add		= kl_add,
	.del		= kl_del,
	.slot_linked	= kl_slot_linked,
	.remove		= kl_remove,
	.hold_first	= kl_hold_first,
	.release_first	= kl_release_first,
	.remove_first	= kl_remove_first,
	.readd_first	= kl_readd_first,
};
