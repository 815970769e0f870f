// SPDX-License-Identifier: GPL-2.0
/*
 * klist_fini(): the end of a list's life.  A klist-port addition, in
 * both flavours (the checked library compiles this file too), declared
 * in <klist-port/klist.h> only: the kernel's lists live as long as what
 * embeds them and 6.1 has no such call, so lib/klist.c stays the
 * kernel's.
 *
 * A list freed with nodes still on it (or a walk standing on one) leaves
 * them pointing into freed memory: their delete or remove then locks a
 * lock that is gone, and a remover sleeps forever.  klist_fini() says so
 * while the list is still there: it warns and leaves the list as it was.
 * On an empty list it unlinks the head, so that any later add or walk of
 * it is reported (lib/klist.c, M2) until klist_init() again.
 */
#include <linux/klist.h>
#include <linux/bug.h>
#include <linux/errno.h>

/* <klist-port/klist.h> declares it for programs. */
int klist_fini(struct klist *k);

int klist_fini(struct klist *k)
{
	unsigned int live = 0, dead = 0;
	struct list_head *pos;
	unsigned long flags;

	if (WARN_ON(!k))
		return -EINVAL;
	spin_lock_irqsave(&k->k_lock, flags);
	if (!k->k_list.next) {
		spin_unlock_irqrestore(&k->k_lock, flags);
		WARN(1, "klist: finishing %p, a list not initialised (or finished)\n", k);
		return -EINVAL;
	}
	/* A dead node still linked is one a walk stands on. */
	list_for_each(pos, &k->k_list) {
		struct klist_node *n = container_of(pos, struct klist_node, n_node);

		if ((unsigned long)n->n_klist & 1UL)
			dead++;
		else
			live++;
	}
	if (!live && !dead) {
		WRITE_ONCE(k->k_list.next, NULL);
		k->k_list.prev = NULL;
	}
	spin_unlock_irqrestore(&k->k_lock, flags);
	if (WARN(live || dead,
		 "klist: finishing %p with %u nodes on it and %u deleted ones that walks hold\n",
		 k, live, dead))
		return -EBUSY;
	return 0;
}
