// SPDX-License-Identifier: GPL-2.0
/*
 * What a userspace programmer would pick instead of a klist: liburcu's
 * RCU list (Debian's liburcu-dev, the membarrier flavour, urcu-memb).
 * Walkers take no lock and write nothing shared: a read-side section
 * around the whole walk.  Writers serialise on a mutex; a delete unlinks
 * at once and hands the node back after a grace period (call_rcu(), as
 * klist_del() hands it back when the last walker steps off); a
 * synchronous remove waits for one (synchronize_rcu(), as
 * klist_remove() waits for the walkers on the node).  A walker may not
 * sleep inside its section without holding up every grace period.
 * Built only where liburcu is found (tests/bench/CMakeLists.txt).
 */
#define _LGPL_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <urcu/urcu-memb.h>
#include <urcu/rculist.h>

#include "bench.h"

struct item {
	struct cds_list_head node;
	struct rcu_head rcu;	/* for call_rcu() */
	unsigned long val;
	int free;		/* spare slot: off the list, grace period over */
};

struct bench_list {
	pthread_mutex_t wlock;	/* writers */
	struct cds_list_head head;
	struct item *items;
	struct item *spare;
	unsigned int nr, nspare;
};

/* Every thread that reads registers once; unregistered when it exits. */
static pthread_key_t rcu_key;
static pthread_once_t rcu_once = PTHREAD_ONCE_INIT;
static __thread int rcu_registered;

static void rcu_thread_exit(void *unused)
{
	urcu_memb_unregister_thread();
}

static void rcu_key_init(void)
{
	pthread_key_create(&rcu_key, rcu_thread_exit);
}

static void rcu_reader(void)
{
	if (rcu_registered)
		return;
	pthread_once(&rcu_once, rcu_key_init);
	urcu_memb_register_thread();
	pthread_setspecific(rcu_key, &rcu_key);
	rcu_registered = 1;
}

static struct bench_list *rl_create(unsigned int nr, unsigned int spare)
{
	struct bench_list *l;
	unsigned int i;

	bench_list_alloc(l, nr, spare);
	pthread_mutex_init(&l->wlock, NULL);
	CDS_INIT_LIST_HEAD(&l->head);
	for (i = 0; i < nr; i++)
		cds_list_add_tail_rcu(&l->items[i].node, &l->head);
	for (i = 0; i < spare; i++)
		l->spare[i].free = 1;
	return l;
}

static void rl_destroy(struct bench_list *l)
{
	urcu_memb_barrier();	/* every call_rcu() callback has run */
	pthread_mutex_destroy(&l->wlock);
	bench_list_free(l);
}

static unsigned long rl_walk(struct bench_list *l, unsigned int work)
{
	struct item *it;
	unsigned long visited = 0, sink = 0;

	rcu_reader();
	urcu_memb_read_lock();
	cds_list_for_each_entry_rcu(it, &l->head, node) {
		if (work)
			sink += bench_work(it->val, work);
		visited++;
	}
	urcu_memb_read_unlock();
	__asm__ volatile("" : : "r"(sink));
	return visited;
}

static void rl_add(struct bench_list *l, unsigned int slot)
{
	/*
	 * A slot deleted a moment ago waits for its grace period (the
	 * per-step part's add + delete pair reuses one slot): the price
	 * of reusing an RCU list's node.  The latency parts never add a
	 * slot that is not free yet.
	 */
	if (!__atomic_load_n(&l->spare[slot].free, __ATOMIC_ACQUIRE))
		urcu_memb_barrier();
	__atomic_store_n(&l->spare[slot].free, 0, __ATOMIC_RELAXED);
	pthread_mutex_lock(&l->wlock);
	cds_list_add_tail_rcu(&l->spare[slot].node, &l->head);
	pthread_mutex_unlock(&l->wlock);
}

static void rl_freed(struct rcu_head *head)
{
	struct item *it = caa_container_of(head, struct item, rcu);

	__atomic_store_n(&it->free, 1, __ATOMIC_RELEASE);
}

static void rl_del(struct bench_list *l, unsigned int slot)
{
	pthread_mutex_lock(&l->wlock);
	cds_list_del_rcu(&l->spare[slot].node);
	pthread_mutex_unlock(&l->wlock);
	urcu_memb_call_rcu(&l->spare[slot].rcu, rl_freed);
}

static bool rl_slot_linked(struct bench_list *l, unsigned int slot)
{
	return !__atomic_load_n(&l->spare[slot].free, __ATOMIC_ACQUIRE);
}

/* Synchronous: unlinked, and a grace period later nobody can reach it. */
static void rl_remove(struct bench_list *l, unsigned int slot)
{
	pthread_mutex_lock(&l->wlock);
	cds_list_del_rcu(&l->spare[slot].node);
	pthread_mutex_unlock(&l->wlock);
	urcu_memb_synchronize_rcu();
	__atomic_store_n(&l->spare[slot].free, 1, __ATOMIC_RELEASE);
}

/* A walker on the first node: inside its read-side section. */
static void rl_hold_first(struct bench_list *l)
{
	rcu_reader();
	urcu_memb_read_lock();
	__asm__ volatile("" : : "r"(rcu_dereference(l->head.next)) : "memory");
}

static void rl_release_first(struct bench_list *l)
{
	urcu_memb_read_unlock();
}

static void rl_remove_first(struct bench_list *l)
{
	pthread_mutex_lock(&l->wlock);
	cds_list_del_rcu(&l->items[0].node);
	pthread_mutex_unlock(&l->wlock);
	urcu_memb_synchronize_rcu();
}

static void rl_readd_first(struct bench_list *l)
{
	pthread_mutex_lock(&l->wlock);
	cds_list_add_rcu(&l->items[0].node, &l->head);
	pthread_mutex_unlock(&l->wlock);
}

const struct bench_ops bench_rcu_ops = {
	.name		= "rculist",
	.what		= "liburcu's rculist (urcu-memb): lock-free walks, call_rcu() deletes, synchronize_rcu() removes",
	.node_bytes	= sizeof(struct cds_list_head) + sizeof(struct rcu_head),
	.iter_bytes	= 0,
	.list_bytes	= sizeof(pthread_mutex_t) + sizeof(struct cds_list_head),
	.has_remove	= true,
	.create		= rl_create,
	.destroy	= rl_destroy,
	.walk		= rl_walk,
	.add		= rl_add,
	.del		= rl_del,
	.slot_linked	= rl_slot_linked,
	.remove		= rl_remove,
	.hold_first	= rl_hold_first,
	.release_first	= rl_release_first,
	.remove_first	= rl_remove_first,
	.readd_first	= rl_readd_first,
};
