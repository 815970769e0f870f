// SPDX-License-Identifier: GPL-2.0
/*
 * A user of the installed <klist-port/klist.h>, compiled as ISO C
 * (-std=c11 -pedantic) and as C++17 against each flavour: it must
 * compile without a warning, define none of the kernel's generic names,
 * leave the program its own struct list_head and `current`, and run:
 * nodes from malloc() filled with garbage go on the list once
 * initialised, and (fast flavour) NULL to every entry point is warned
 * about and survived.
 */
#include <klist-port/klist.h>
#include <linux/sched.h>	/* the system's: must stay the system's */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(BUG) || defined(WARN) || defined(WARN_ON) || defined(barrier) || \
	defined(mb) || defined(xchg) || defined(likely) || defined(container_of) || \
	defined(list_for_each) || defined(list_entry) || defined(LIST_HEAD) || \
	defined(READ_ONCE) || defined(current) || defined(schedule) || \
	defined(spin_lock) || defined(kref_get) || defined(u32) || defined(__must_check)
#error "<klist-port/klist.h> leaks a kernel macro"
#endif
#if !defined(__cplusplus) && defined(bool)
#error "<klist-port/klist.h> defines bool"
#endif

/* The program's own names, which the header must leave alone. */
struct list_head {
	int mine;
};
static int current = 1;

struct device {
	int id;
	struct klist_node node;
};

static int puts_seen;

static void device_put(struct klist_node *n)
{
	puts_seen++;
	free((char *)n - offsetof(struct device, node));
}

int main(void)
{
	struct klist list;
	struct klist_iter it;
	struct klist_node *n;
	struct list_head own = { 0 };
	int i, count = 0, sum = 0;

	klist_init(&list, NULL, device_put);
	for (i = 1; i <= 5; i++) {
		struct device *d = (struct device *)malloc(sizeof(*d));

		if (!d)
			return 1;
		memset(d, 0xa5, sizeof(*d));	/* what malloc() may give */
		d->id = i;
		klist_node_init(&d->node);
		klist_add_tail(&d->node, &list);
	}
	klist_iter_init(&list, &it);
	while ((n = klist_next(&it))) {
		count++;
		sum += ((struct device *)((char *)n - offsetof(struct device, node)))->id;
	}
	klist_iter_exit(&it);
	if (count != 5 || sum != 15) {
		printf("malloc'd nodes: %d on the list, sum %d (want 5, 15)\n", count, sum);
		return 1;
	}
	{
		struct klist_node fresh = KLIST_NODE_INIT;

		if (klist_node_attached(&fresh))
			return 1;
	}

#ifdef KLIST_PORT_FAST
	{
		unsigned long before = klist_port_warnings();

		/* Each warns and does nothing (the checked flavour aborts). */
		klist_init(NULL, NULL, NULL);
		klist_add_tail(NULL, &list);
		klist_add_head(NULL, NULL);
		klist_add_behind(NULL, NULL);
		klist_add_before(NULL, NULL);
		klist_del(NULL);
		klist_remove(NULL);
		if (klist_node_attached(NULL))
			return 1;
		klist_iter_init(NULL, &it);
		if (klist_next(&it) || klist_prev(&it))
			return 1;
		klist_iter_exit(&it);
		klist_iter_init(&list, NULL);
		klist_iter_init_node(NULL, NULL, NULL);
		if (klist_next(NULL) || klist_prev(NULL))
			return 1;
		klist_iter_exit(NULL);
		if (klist_port_warnings() - before < 14) {
			printf("NULL arguments: %lu warnings (want 14)\n",
			       klist_port_warnings() - before);
			return 1;
		}
	}
#endif

	klist_iter_init(&list, &it);
	while ((n = klist_next(&it)))
		klist_del(n);
	klist_iter_exit(&it);
	if (puts_seen != 5)
		return 1;
	printf("%s: malloc'd nodes, NULL arguments, own names (%d, %d): ok\n",
#ifdef __cplusplus
	       "C++",
#else
	       "C",
#endif
	       own.mine, current);
	return 0;
}
