// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel-style code on the installed library, through the opt-in
 * compatibility headers (<linux/klist.h>; programs of their own use
 * <klist-port/klist.h>, see docs/library.md): builds with
 *   cc $(pkg-config --cflags klist-port) \
 *      $(pkg-config --variable=compat_cflags klist-port) \
 *      klist-walk.c $(pkg-config --libs klist-port)
 * and walks a klist while a node is deleted under the walk.
 */
#include <stdio.h>
#include <linux/klist.h>
#include <linux/slab.h>

struct item {
	int value;
	struct klist_node node;
};

static int puts_seen;

static void item_put(struct klist_node *n)
{
	puts_seen++;
	kfree(container_of(n, struct item, node));
}

int main(void)
{
	struct klist list;
	struct klist_iter iter;
	struct klist_node *n;
	int i, sum = 0;

	klist_init(&list, NULL, item_put);
	for (i = 1; i <= 5; i++) {
		struct item *it = kzalloc(sizeof(*it), GFP_KERNEL);

		if (!it)
			return 1;
		it->value = i;
		klist_add_tail(&it->node, &list);
	}
	klist_iter_init(&list, &iter);
	while ((n = klist_next(&iter))) {
		struct item *it = container_of(n, struct item, node);

		sum += it->value;
		klist_del(n);	/* safe: the walk holds its own reference */
	}
	klist_iter_exit(&iter);
	printf("sum=%d puts=%d empty=%d\n", sum, puts_seen, list_empty(&list.k_list));
	return !(sum == 15 && puts_seen == 5 && list_empty(&list.k_list));
}
