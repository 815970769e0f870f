/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The RFC's "before": a plain list_head whose lock is held for the whole
 * walk.  Included by rwlock-list.c and mutex-list.c, which define
 * LL_OPS, LL_NAME, LL_WHAT, ll_lock_t and the ll_* lock operations.
 */
#include <stdlib.h>
#include <pthread.h>

#include <linux/list.h>
#include "bench.h"

struct item {
	struct list_head node;
	unsigned long val;
};

struct bench_list {
	ll_lock_t lock;
	struct list_head head;
	struct item *items;
	struct item *spare;
	unsigned int nr, nspare;
};

static struct bench_list *ll_create(unsigned int nr, unsigned int spare)
{
	struct bench_list *l;
	unsigned int i;

	bench_list_alloc(l, nr, spare);
	ll_init(&l->lock);
	INIT_LIST_HEAD(&l->head);
	for (i = 0; i < nr; i++)
		list_add_tail(&l->items[i].node, &l->head);
	return l;
}

static void ll_destroy(struct bench_list *l)
{
	ll_fini(&l->lock);
	bench_list_free(l);
}

static unsigned long ll_walk(struct bench_list *l, unsigned int work)
{
	struct item *it;
	unsigned long visited = 0, sink = 0;

	ll_read_lock(&l->lock);
	list_for_each_entry(it, &l->head, node) {
		if (work)
			sink += bench_work(it->val, work);
		visited++;
	}
	ll_read_unlock(&l->lock);
	__asm__ volatile("" : : "r"(sink));
	return visited;
}

static void ll_add(struct bench_list *l, unsigned int slot)
{
	ll_write_lock(&l->lock);
	list_add_tail(&l->spare[slot].node, &l->head);
	ll_write_unlock(&l->lock);
}

static void ll_del(struct bench_list *l, unsigned int slot)
{
	ll_write_lock(&l->lock);
	list_del(&l->spare[slot].node);
	ll_write_unlock(&l->lock);
}

/* No walker can hold a node past the lock: a deleted slot is free. */
static bool ll_slot_linked(struct bench_list *l, unsigned int slot)
{
	return false;
}

/*
 * A walker standing on the first node holds the lock (it holds it for
 * the whole walk); a remove takes the write lock, so it waits for that
 * walker as klist_remove() does, and so does every other writer.
 */
static void ll_hold_first(struct bench_list *l)
{
	ll_read_lock(&l->lock);
}

static void ll_release_first(struct bench_list *l)
{
	ll_read_unlock(&l->lock);
}

static void ll_remove_first(struct bench_list *l)
{
	ll_write_lock(&l->lock);
	list_del(&l->items[0].node);
	ll_write_unlock(&l->lock);
}

static void ll_readd_first(struct bench_list *l)
{
	ll_write_lock(&l->lock);
	list_add(&l->items[0].node, &l->head);
	ll_write_unlock(&l->lock);
}

const struct bench_ops LL_OPS = {
	.name		= LL_NAME,
	.what		= LL_WHAT,
	.node_bytes	= sizeof(struct list_head),
	.iter_bytes	= 0,
	.list_bytes	= sizeof(ll_lock_t) + sizeof(struct list_head),
	.has_remove	= true,
	.create		= ll_create,
	.destroy	= ll_destroy,
	.walk		= ll_walk,
	.add		= ll_add,
	.del		= ll_del,
	.slot_linked	= ll_slot_linked,
	.remove		= ll_del,	/* under the write lock, no walker is on it */
	.hold_first	= ll_hold_first,
	.release_first	= ll_release_first,
	.remove_first	= ll_remove_first,
	.readd_first	= ll_readd_first,
};
