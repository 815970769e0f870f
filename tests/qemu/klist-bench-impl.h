/* SPDX-License-Identifier: GPL-2.0 */
/*
 * klist-bench: the measured code, one copy per implementation.  Included
 * by klist-bench-ours.c (after our <linux/klist.h>) and klist-bench-61.c
 * (after 6.1's klist.h with its functions renamed), which first define
 * KLIST_BENCH_OPS and KLIST_BENCH_NAME.  Both klists thus run the same
 * source, and the walk calls klist_next() directly: the suite makes one
 * indirect call per burst of walks, not one per step.
 */
#include <linux/compiler.h>
#include <linux/mm.h>
#include <linux/slab.h>

struct klist_bench_item {
	struct klist_node kn;
	unsigned long val;
};

struct klist_bench_list {
	struct klist k;
	struct klist_bench_item *items;
	unsigned int nr;
};

static struct klist_bench_list *klb_create(unsigned int nr)
{
	struct klist_bench_list *l = kzalloc(sizeof(*l), GFP_KERNEL);
	unsigned int i;

	if (!l)
		return NULL;
	l->items = kvcalloc(nr, sizeof(*l->items), GFP_KERNEL);
	if (!l->items) {
		kfree(l);
		return NULL;
	}
	l->nr = nr;
	klist_init(&l->k, NULL, NULL);
	for (i = 0; i < nr; i++) {
		l->items[i].val = i;
		klist_add_tail(&l->items[i].kn, &l->k);
	}
	return l;
}

static void klb_destroy(struct klist_bench_list *l)
{
	unsigned int i;

	for (i = 0; i < l->nr; i++)
		klist_del(&l->items[i].kn);
	kvfree(l->items);
	kfree(l);
}

static unsigned long klb_walk(struct klist_bench_list *l, unsigned int walks)
{
	unsigned long visited = 0, sum = 0;
	struct klist_node *n;
	struct klist_iter it;

	while (walks--) {
		klist_iter_init(&l->k, &it);
		while ((n = klist_next(&it))) {
			/* read the object, as a real walk does */
			sum += container_of(n, struct klist_bench_item, kn)->val;
			visited++;
		}
		klist_iter_exit(&it);
	}
	OPTIMIZER_HIDE_VAR(sum);
	return visited;
}

const struct klist_bench_ops KLIST_BENCH_OPS = {
	.name = KLIST_BENCH_NAME,
	.create = klb_create,
	.destroy = klb_destroy,
	.walk = klb_walk,
};
