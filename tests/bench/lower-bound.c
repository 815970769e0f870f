// SPDX-License-Identifier: GPL-2.0
/*
 * The lower bound: what any correct refcounted walk must at least pay
 * per step.  A list_head, one test-and-set spinlock (a lock word, no
 * futex, no debugging), and a count per node.  One step takes the
 * lock, follows ->next, increments the next node's count, decrements
 * the old node's count and unlocks: one atomic exchange, one atomic
 * increment, one atomic decrement and a release store.  The work per
 * node runs with no lock held, as with a klist.
 *
 * What it does not do that klist does:
 *  - no dead nodes: a delete waits, lock dropped, until no walker
 *    holds the node and then unlinks it; klist_del() marks the node
 *    dead, returns at once, and walkers step past dead nodes;
 *  - no release on the last put: the decrement is not a test (no
 *    kref_put(), no unlink by the last walker, no klist_remove()
 *    waiter to wake, no get()/put() callbacks);
 *  - plain counters: no refcount_t saturation or underflow checks;
 *  - no interrupts to disable (klist's spin_lock_irqsave());
 *  - forward only, from the head only (no klist_prev(), no
 *    klist_iter_init_node()).
 *
 * Built against fast/include for the kernel's list.h without list
 * debugging; nothing of the fast runtime is called.
 */
#include <stdlib.h>
#include <time.h>

#include <linux/list.h>
#include "bench.h"

static inline void lb_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield" ::: "memory");
#else
	barrier();
#endif
}

/*
 * In userspace the holder can be preempted, maybe by the spinner: after
 * a while spinning, sleep a microsecond so that it can run.  Off the
 * uncontended path.  A holder preempted inside its section still stalls
 * every locker for up to a scheduler slice: nobody hands the lock over
 * (the fast runtime's futex lock wakes its sleepers); the writer
 * latency part shows that cost (docs/benchmarks.md).
 */
#define LB_SPINS_BEFORE_SLEEP	1024

static void lb_backoff(unsigned int *spins)
{
	static const struct timespec us1 = { 0, 1000 };

	if (++*spins % LB_SPINS_BEFORE_SLEEP)
		lb_relax();
	else
		nanosleep(&us1, NULL);
}

/* Contended: wait on a plain load, no cache-line ping-pong, then retry. */
static noinline void lb_lock_slow(int *lock)
{
	unsigned int spins = 0;

	do {
		while (__atomic_load_n(lock, __ATOMIC_RELAXED))
			lb_backoff(&spins);
	} while (__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE));
}

/* Inline, as the fast runtime's: the bound must not pay a call more. */
static inline void lb_lock(int *lock)
{
	if (unlikely(__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE)))
		lb_lock_slow(lock);
}

static inline void lb_unlock(int *lock)
{
	__atomic_store_n(lock, 0, __ATOMIC_RELEASE);
}

struct lb_node {
	struct list_head node;
	int refs;			/* walkers standing on this node */
};

struct lb_head {
	int lock;
	struct list_head head;
};

struct item {
	struct lb_node ln;
	unsigned long val;
};

struct bench_list {
	struct lb_head h;
	struct item *items;
	struct item *spare;
	unsigned int nr, nspare;
};

/*
 * One step: leave @cur (NULL: start at the head), stand on the next
 * node (NULL: the end).  Out of line, as klist_next() is for a klist
 * user, so both pay a call.
 */
static noinline struct lb_node *lb_next(struct lb_head *h, struct lb_node *cur)
{
	struct list_head *pos;
	struct lb_node *next = NULL;

	lb_lock(&h->lock);
	pos = cur ? cur->node.next : h->head.next;
	if (pos != &h->head) {
		next = container_of(pos, struct lb_node, node);
		__atomic_fetch_add(&next->refs, 1, __ATOMIC_RELAXED);
	}
	if (cur)
		__atomic_fetch_sub(&cur->refs, 1, __ATOMIC_RELEASE);
	lb_unlock(&h->lock);
	return next;
}

static struct bench_list *lb_create(unsigned int nr, unsigned int spare)
{
	struct bench_list *l;
	unsigned int i;

	bench_list_alloc(l, nr, spare);
	INIT_LIST_HEAD(&l->h.head);
	for (i = 0; i < nr; i++)
		list_add_tail(&l->items[i].ln.node, &l->h.head);
	return l;
}

static void lb_destroy(struct bench_list *l)
{
	bench_list_free(l);
}

static unsigned long lb_walk(struct bench_list *l, unsigned int work)
{
	struct lb_node *n = NULL;
	unsigned long visited = 0, sink = 0;

	while ((n = lb_next(&l->h, n))) {
		if (work)
			sink += bench_work(container_of(n, struct item, ln)->val,
					   work);
		visited++;
	}
	__asm__ volatile("" : : "r"(sink));
	return visited;
}

static void lb_add(struct bench_list *l, unsigned int slot)
{
	struct lb_node *n = &l->spare[slot].ln;

	n->refs = 0;
	lb_lock(&l->h.lock);
	list_add_tail(&n->node, &l->h.head);
	lb_unlock(&l->h.lock);
}

/*
 * Under the lock no walker can step onto the node: wait, lock dropped,
 * for those on it to step off.  Watching the count, not retaking the
 * lock in a loop, which could starve the very walker that must take it
 * to step off (a test-and-set lock is not fair).
 */
static void lb_del(struct bench_list *l, unsigned int slot)
{
	struct lb_node *n = &l->spare[slot].ln;
	unsigned int spins = 0;

	lb_lock(&l->h.lock);
	while (__atomic_load_n(&n->refs, __ATOMIC_RELAXED)) {
		lb_unlock(&l->h.lock);
		while (__atomic_load_n(&n->refs, __ATOMIC_RELAXED))
			lb_backoff(&spins);
		lb_lock(&l->h.lock);
	}
	list_del(&n->node);
	lb_unlock(&l->h.lock);
}

/* A delete returns only once no walker holds the node. */
static bool lb_slot_linked(struct bench_list *l, unsigned int slot)
{
	return false;
}

const struct bench_ops bench_lower_ops = {
	.name		= "lower-bound",
	.what		= "list_head, test-and-set spinlock and a counter per node: lock, step, inc next, dec old, unlock",
	.node_bytes	= sizeof(struct lb_node),
	.iter_bytes	= sizeof(struct lb_node *),
	.list_bytes	= sizeof(struct lb_head),
	.has_remove	= false,
	.create		= lb_create,
	.destroy	= lb_destroy,
	.walk		= lb_walk,
	.add		= lb_add,
	.del		= lb_del,
	.slot_linked	= lb_slot_linked,
};
