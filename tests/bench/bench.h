/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one interface every list under test implements.  Each
 * implementation lives in its own translation unit(s), built with its
 * own include path (checked shim or fast runtime), so the klists (whose
 * symbols are renamed at compile time) never see each other's struct
 * klist, spinlock_t or kref.
 */
#ifndef _BENCH_BENCH_H
#define _BENCH_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

struct bench_list;

/*
 * calloc() of at least one element, or exit: a bench that lost memory
 * or samples has nothing to report.
 */
static inline void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		perror("calloc");
		exit(1);
	}
	return p;
}

/*
 * Every implementation's struct bench_list has @items (the @nr linked
 * elements, items[i].val = i) and @spare (@nspare unlinked writer
 * slots), of its own element type: allocated and freed here, linked by
 * the implementation.
 */
#define bench_list_alloc(l, nr_, spare_)				\
	do {								\
		(l) = xcalloc(1, sizeof(*(l)));				\
		(l)->items = xcalloc((nr_), sizeof(*(l)->items));	\
		(l)->spare = xcalloc((spare_), sizeof(*(l)->spare));	\
		(l)->nr = (nr_);					\
		(l)->nspare = (spare_);					\
		for (unsigned int i_ = 0; i_ < (nr_); i_++)		\
			(l)->items[i_].val = i_;			\
	} while (0)

#define bench_list_free(l)						\
	do {								\
		free((l)->spare);					\
		free((l)->items);					\
		free(l);						\
	} while (0)

struct bench_ops {
	const char *name;
	const char *what;
	size_t node_bytes;	/* what each element must embed to be listed */
	size_t iter_bytes;	/* walker state on the stack (0: none) */
	size_t list_bytes;	/* the list head and its lock; none allocate more */
	bool has_remove;	/* a remove that waits for walkers to let go */

	/* A list of @nr linked nodes plus @spare unlinked writer slots. */
	struct bench_list *(*create)(unsigned int nr, unsigned int spare);
	void (*destroy)(struct bench_list *l);

	/*
	 * One whole walk; with @work, bench_work() runs once per node the
	 * way the list allows (klists: with no lock held).  Returns the
	 * nodes visited.
	 */
	unsigned long (*walk)(struct bench_list *l, unsigned int work);

	/* Writer: link spare slot @slot at the tail, and delete it. */
	void (*add)(struct bench_list *l, unsigned int slot);
	void (*del)(struct bench_list *l, unsigned int slot);
	/* The slot is still linked (a walker holds it after del). */
	bool (*slot_linked)(struct bench_list *l, unsigned int slot);
	/*
	 * Writer: delete spare slot @slot and return once no walker can
	 * reach it, so that its memory may be reused (klist_remove(); an
	 * RCU list's synchronize_rcu()).  NULL: the list has none.
	 */
	void (*remove)(struct bench_list *l, unsigned int slot);

	/*
	 * klist_remove wait: a walker stands on the first node (hold) and
	 * later steps off it (release); meanwhile another thread removes
	 * that node, then puts it back at the head (readd).
	 */
	void (*hold_first)(struct bench_list *l);
	void (*release_first)(struct bench_list *l);
	void (*remove_first)(struct bench_list *l);
	void (*readd_first)(struct bench_list *l);
};

/* The "little work per node": @iters rounds of arithmetic on @seed. */
unsigned long bench_work(unsigned long seed, unsigned int iters);

extern const struct bench_ops bench_ours_fast_ops;
extern const struct bench_ops bench_ours_ops;
extern const struct bench_ops bench_kernel_ops;
extern const struct bench_ops bench_kernel_fast_ops;
extern const struct bench_ops bench_lower_ops;
extern const struct bench_ops bench_rwlock_ops;
extern const struct bench_ops bench_mutex_ops;
extern const struct bench_ops bench_rcu_ops;	/* with liburcu only */

#endif
