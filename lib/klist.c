// SPDX-License-Identifier: GPL-2.0-only
/*
 * klist.c - lists whose nodes carry a reference count.
 *
 * After the 2005 design by Patrick Mochel, with what the kernel learned
 * since applied.  Each lesson has an id (K1-K9, X1) tagged in a comment
 * where the code applies it; the klist-port project's docs/lessons.md
 * tells each one's story, its regression test and its defect patch.
 * M1-M3 tag a misuse reported instead of passed over (its
 * docs/library.md, "Misuse and what it reports").
 *
 * Each linked node holds one reference for being on the list; an
 * iterator standing on a node holds another.  klist_del() marks the
 * node dead and drops the list's reference: the node stays linked, and
 * can be stepped past, until the last iterator moves on, but no walk
 * returns it again.  klist_remove() does the same and then sleeps until
 * the node is unlinked, so its memory can be reused on return.
 *
 * The optional get/put callbacks pin whatever object embeds the node:
 * get runs when the node is added, put once it has been unlinked, with
 * no lock held so that put may sleep and free the object.
 *
 * Every section under k_lock runs with interrupts disabled, so a list
 * may be walked from any context; put() must then be safe there too.
 */

#include <linux/klist.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/sched.h>

/*
 * struct klist is pointer-aligned, so the low bit of n_klist is free:
 * it marks a node that was deleted but is still held by an iterator
 * (K2: walks step past a dead node but never return it).
 *
 * n_klist is written under k_lock, or before the node is linked, but
 * also read without the lock (klist_node_attached(), and the first look
 * of the calls that find their list through the node): the READ_ONCE()s
 * in knode_klist(), knode_dead() and klist_node_attached() pair with the
 * WRITE_ONCE()s in knode_set_klist() and knode_kill().
 */
#define KNODE_DEAD		1LU
#define KNODE_KLIST_MASK	~KNODE_DEAD

/*
 * M3: what klist_iter_exit() leaves in i_klist, so that a step after the
 * exit is reported instead of starting over at the head.  No list lies
 * at this address; klist_next() and klist_prev() test for it and for
 * NULL with the one comparison they made for NULL alone.
 */
#define KLIST_ITER_EXITED	((struct klist *)KNODE_DEAD)

static struct klist *knode_klist(struct klist_node *knode)
{
	return (struct klist *)
		((unsigned long)READ_ONCE(knode->n_klist) & KNODE_KLIST_MASK);
}

static bool knode_dead(struct klist_node *knode)
{
	return (unsigned long)READ_ONCE(knode->n_klist) & KNODE_DEAD;
}

static void knode_set_klist(struct klist_node *knode, struct klist *klist)
{
	/*
	 * Pairs with the READ_ONCE()s in knode_klist(), knode_dead() and
	 * klist_node_attached().  M1: a release, so that a late
	 * klist_remove() that sees a node detached (its smp_load_acquire())
	 * also sees the links list_del() poisoned before, never NULL, and
	 * tells the node from one never added.
	 */
	smp_store_release(&knode->n_klist, klist);
}

static void knode_kill(struct klist_node *knode)
{
	/* Under k_lock; pairs with the lockless READ_ONCE() in knode_dead(). */
	WRITE_ONCE(knode->n_klist,
		   (void *)((unsigned long)knode->n_klist | KNODE_DEAD));
}

static struct klist_node *to_klist_node(struct list_head *n)
{
	return container_of(n, struct klist_node, n_node);
}

/**
 * klist_init - Initialize a klist structure.
 * @k: The klist we're initializing.
 * @get: The get function for the embedding object (NULL if none)
 * @put: The put function for the embedding object (NULL if none)
 *
 * @get is called when a node is added, @put once a node has been taken
 * off the list, without the list lock held (K5).
 */
void klist_init(struct klist *k, void (*get)(struct klist_node *),
		void (*put)(struct klist_node *))
{
	if (WARN_ON(!k))
		return;
	INIT_LIST_HEAD(&k->k_list);
	spin_lock_init(&k->k_lock);
	k->get = get;
	k->put = put;
}
EXPORT_SYMBOL_GPL(klist_init);

static void klist_node_init(struct klist *k, struct klist_node *n)
{
	INIT_LIST_HEAD(&n->n_node);
	kref_init(&n->n_ref);
	knode_set_klist(n, k);
	/* K5: the list pins the object around the node while it is on it. */
	if (k->get)
		k->get(n);
}

/*
 * Link @n next to @at, the list head or a node on @k: after it, or
 * before it.  X1: only @at is named, never a neighbour read before the
 * lock is held: until then a neighbour may be released and freed.
 * K7: like every k_lock section, with interrupts disabled.
 */
static void klist_link(struct klist *k, struct klist_node *n,
		       struct list_head *at, bool before)
{
	unsigned long flags;

	/*
	 * X2: not in 6.1, where re-linking a node that is still on a list
	 * (live, or dead and held by a walk) cuts the nodes after it off
	 * that list and calls get() again.  A node is added zeroed, or once
	 * unlinked (klist_remove() returned, or its last walk moved on).
	 */
	if (WARN(READ_ONCE(n->n_klist),
		 "klist: adding node %p that is still on a list\n", n))
		return;
	klist_node_init(k, n);
	spin_lock_irqsave(&k->k_lock, flags);
	/*
	 * M2: a list never passed to klist_init() (zeroed: its head links
	 * nowhere) is reported, not written through.  Read under the lock,
	 * where the add reads the head anyway.  The node is given back as
	 * it came: not on a list, get() undone by put().
	 */
	if (unlikely(!k->k_list.next)) {
		spin_unlock_irqrestore(&k->k_lock, flags);
		knode_set_klist(n, NULL);
		WARN(1, "klist: adding node %p to %p, a list not initialised (or finished)\n",
		     n, k);
		if (k->put)
			k->put(n);
		return;
	}
	if (before)
		list_add_tail(&n->n_node, at);
	else
		list_add(&n->n_node, at);
	spin_unlock_irqrestore(&k->k_lock, flags);
}

/**
 * klist_add_head - Initialize a klist_node and add it to front.
 * @n: node we're adding.
 * @k: klist it's going on.
 */
void klist_add_head(struct klist_node *n, struct klist *k)
{
	if (WARN_ON(!n || !k))
		return;
	klist_link(k, n, &k->k_list, false);
}
EXPORT_SYMBOL_GPL(klist_add_head);

/**
 * klist_add_tail - Initialize a klist_node and add it to back.
 * @n: node we're adding.
 * @k: klist it's going on.
 */
void klist_add_tail(struct klist_node *n, struct klist *k)
{
	if (WARN_ON(!n || !k))
		return;
	klist_link(k, n, &k->k_list, true);
}
EXPORT_SYMBOL_GPL(klist_add_tail);

/**
 * klist_add_behind - Init a klist_node and add it after an existing node
 * @n: node we're adding.
 * @pos: node to put @n after; the caller keeps it linked meanwhile.
 */
void klist_add_behind(struct klist_node *n, struct klist_node *pos)
{
	struct klist *k;

	if (WARN_ON(!n || !pos))
		return;
	k = knode_klist(pos);
	if (WARN(!k, "klist: adding behind a node that is on no list\n"))
		return;
	klist_link(k, n, &pos->n_node, false);
}
EXPORT_SYMBOL_GPL(klist_add_behind);

/**
 * klist_add_before - Init a klist_node and add it before an existing node
 * @n: node we're adding.
 * @pos: node to put @n before; the caller keeps it linked meanwhile.
 */
void klist_add_before(struct klist_node *n, struct klist_node *pos)
{
	struct klist *k;

	if (WARN_ON(!n || !pos))
		return;
	k = knode_klist(pos);
	if (WARN(!k, "klist: adding before a node that is on no list\n"))
		return;
	klist_link(k, n, &pos->n_node, true);
}
EXPORT_SYMBOL_GPL(klist_add_before);

/*
 * A task sleeping in klist_remove(), on its own stack.  K3: one waiter per
 * remover, not one completion per node, so every remover of a node is
 * woken and nothing in the node needs re-initialising when it is re-added.
 */
struct klist_waiter {
	struct list_head list;
	struct klist_node *node;
	struct task_struct *process;
	int woken;
};

/* Nests inside k_lock; always taken with interrupts disabled. */
static DEFINE_SPINLOCK(klist_remove_lock);
static LIST_HEAD(klist_remove_waiters);

/* The last reference is gone: unlink the node and wake its removers (K3). */
static void klist_release(struct kref *kref)
{
	struct klist_node *n = container_of(kref, struct klist_node, n_ref);
	struct klist_waiter *waiter, *tmp;

	WARN_ON(!knode_dead(n));
	list_del(&n->n_node);
	/*
	 * K6: a remover may return, and free the node and its waiter, as soon
	 * as it sees woken set.  So everything that touches either is done
	 * before that store: the node is detached first, the task read
	 * first, and woken is the last write to the waiter.
	 */
	knode_set_klist(n, NULL);
	spin_lock(&klist_remove_lock);
	list_for_each_entry_safe(waiter, tmp, &klist_remove_waiters, list) {
		struct task_struct *p;

		if (waiter->node != n)
			continue;
		list_del(&waiter->list);
		p = waiter->process;
		/*
		 * Pairs with smp_load_acquire() in klist_remove(): the unlink,
		 * the cleared n_klist and the read of the task are done before
		 * the remover can see woken.
		 */
		smp_store_release(&waiter->woken, 1);
		/*
		 * Now the remover may return, and its task exit, without
		 * ever sleeping: it polls woken.  We hold no reference on
		 * @p; RCU keeps it.  k_lock and klist_remove_lock make this
		 * an RCU read-side section (interrupts off, or the
		 * rcu_read_lock() of a PREEMPT_RT spinlock) that began
		 * before the store, so before the task could exit, and a
		 * task_struct is freed only a grace period after its
		 * release_task().  If @p is running or in a later sleep,
		 * the wake-up is spurious, which every sleeper tolerates.
		 */
		wake_up_process(p);
	}
	spin_unlock(&klist_remove_lock);
}

/* Drop one reference, with k_lock held; true if it was the last. */
static bool klist_dec_and_del(struct klist_node *n)
{
	return kref_put(&n->n_ref, klist_release);
}

/* Drop an iterator's reference on @n; K5: put() runs after the unlock. */
static void klist_put(struct klist_node *n)
{
	/* K4: read the list before the put: the release clears n_klist. */
	struct klist *k = knode_klist(n);
	void (*put)(struct klist_node *) = k->put;
	unsigned long flags;

	spin_lock_irqsave(&k->k_lock, flags);
	if (!klist_dec_and_del(n))
		put = NULL;
	spin_unlock_irqrestore(&k->k_lock, flags);
	if (put)
		put(n);
}

/*
 * Mark @n dead and drop the list's reference on it.  With @waiter, the
 * waiter is queued under the same lock, so the release cannot slip in
 * between, and a node that is already dead is fine: several tasks may
 * remove one node (K3).  Returns -ENOENT if @n is on no list, -EALREADY
 * if a plain delete finds it dead already.  K4: the list is read before
 * any put; K5: put() runs after the unlock.
 */
static int klist_kill(struct klist_node *n, struct klist_waiter *waiter)
{
	struct klist *k = knode_klist(n);
	void (*put)(struct klist_node *);
	unsigned long flags;
	bool last = false;

	if (!k)
		return -ENOENT;
	put = k->put;
	spin_lock_irqsave(&k->k_lock, flags);
	if (knode_klist(n) != k) {
		/* Released while we took the lock. */
		spin_unlock_irqrestore(&k->k_lock, flags);
		return -ENOENT;
	}
	if (waiter) {
		spin_lock(&klist_remove_lock);
		list_add_tail(&waiter->list, &klist_remove_waiters);
		spin_unlock(&klist_remove_lock);
	} else if (knode_dead(n)) {
		spin_unlock_irqrestore(&k->k_lock, flags);
		return -EALREADY;
	}
	if (!knode_dead(n)) {
		/* K2: from now on no walk returns @n. */
		knode_kill(n);
		last = klist_dec_and_del(n);
	}
	spin_unlock_irqrestore(&k->k_lock, flags);
	if (last && put)
		put(n);
	return 0;
}

/**
 * klist_del - Decrement the reference count of node and try to remove.
 * @n: node we're deleting.
 *
 * The node is unlinked at once unless an iterator stands on it; no walk
 * returns it again either way.  Deleting a node twice is reported and
 * otherwise ignored.
 */
void klist_del(struct klist_node *n)
{
	int err;

	if (WARN_ON(!n))
		return;
	err = klist_kill(n, NULL);
	WARN(err == -EALREADY, "klist: node %p deleted twice\n", n);
	WARN(err == -ENOENT, "klist: deleting node %p that is on no list\n", n);
}
EXPORT_SYMBOL_GPL(klist_del);

/**
 * klist_remove - Decrement the refcount of node and wait for it to go away.
 * @n: node we're removing.
 *
 * Sleeps until no iterator holds @n.  Never call it on the node that
 * your own walk stands on: the walk would wait for itself.
 */
void klist_remove(struct klist_node *n)
{
	struct klist_waiter waiter;

	might_sleep();
	if (WARN_ON(!n))
		return;
	waiter.node = n;
	waiter.process = current;
	waiter.woken = 0;
	if (klist_kill(n, &waiter)) {
		/*
		 * Already off its list: nothing to wait for.  K3: that is
		 * the late one of several removers, or a remove after a
		 * delete, and no misuse.  M1: but a node never added (zeroed,
		 * or initialised since) has never been linked: its links
		 * are NULL, where a release leaves them poisoned.  The
		 * acquire pairs with the release store in klist_release().
		 */
		WARN(!smp_load_acquire(&n->n_klist) && !n->n_node.next,
		     "klist: removing node %p that was never added\n", n);
		return;
	}

	/*
	 * K9: set_current_state() before the test pairs with
	 * wake_up_process() in klist_release(): a wake-up between the test
	 * and schedule() is not lost.
	 */
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		/* K6: pairs with smp_store_release() in klist_release(). */
		if (smp_load_acquire(&waiter.woken))
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}
EXPORT_SYMBOL_GPL(klist_remove);

/**
 * klist_node_attached - Say whether a node is bound to a list or not.
 * @n: Node that we're testing.
 *
 * True from the add until the node is unlinked, dead or not (K4).
 */
int klist_node_attached(struct klist_node *n)
{
	if (WARN_ON(!n))
		return 0;
	/* Lockless: pairs with WRITE_ONCE() in knode_set_klist(). */
	return READ_ONCE(n->n_klist) != NULL;
}
EXPORT_SYMBOL_GPL(klist_node_attached);

/**
 * klist_iter_init_node - Initialize a klist_iter structure.
 * @k: klist we're iterating.
 * @i: klist_iter we're filling.
 * @n: node to start with.
 *
 * The walk starts after @n and holds a reference on it meanwhile (K1).
 * That holds for a node deleted but still linked because another walk
 * stands on it, as in 6.1: its links are valid while it is counted, and
 * a loop that resumes after the last node it returned must not start
 * over.  If @n is NULL or already unlinked (its count is zero), the
 * walk starts at the head.
 */
void klist_iter_init_node(struct klist *k, struct klist_iter *i,
			  struct klist_node *n)
{
	struct klist *nk;

	if (WARN_ON(!i))
		return;
	i->i_klist = k;
	i->i_cur = NULL;
	/* A walk of no list returns nothing (klist_step()). */
	if (WARN_ON(!k) || !n)
		return;
	/*
	 * X3: the list pointer read once.  A release may clear it at any
	 * moment; read twice, a node of this list could look like one of
	 * another list in between.
	 */
	nk = knode_klist(n);
	if (WARN(nk && nk != k,
		 "klist: walk of %p starts from a node of another list\n", k))
		return;
	/*
	 * K1: the walk's own reference, which its first step drops; taken
	 * whenever @n is still counted, dead or not.  A count of zero means
	 * the release has unlinked @n, or is about to under k_lock.
	 */
	if (kref_get_unless_zero(&n->n_ref))
		i->i_cur = n;
}
EXPORT_SYMBOL_GPL(klist_iter_init_node);

/**
 * klist_iter_init - Initialize a klist_iter structure.
 * @k: klist we're iterating.
 * @i: klist_iter structure we're filling.
 */
void klist_iter_init(struct klist *k, struct klist_iter *i)
{
	klist_iter_init_node(k, i, NULL);
}
EXPORT_SYMBOL_GPL(klist_iter_init);

/**
 * klist_iter_exit - Finish a list iteration.
 * @i: Iterator structure.
 *
 * Must be called when stopping iteration, even if we've walked the
 * whole list: it drops the reference on the current node.
 */
void klist_iter_exit(struct klist_iter *i)
{
	if (WARN_ON(!i))
		return;
	if (i->i_cur) {
		klist_put(i->i_cur);
		i->i_cur = NULL;
	}
	/* M3: a step from here on is reported; an exit again is harmless. */
	i->i_klist = KLIST_ITER_EXITED;
}
EXPORT_SYMBOL_GPL(klist_iter_exit);

/*
 * One step of a walk, either way: take the next live node, drop the old.
 * K7: under k_lock with interrupts disabled, so an interrupt that walks
 * the list cannot spin on a lock its own CPU holds.  K5: put() runs
 * after the unlock.  Inlined into klist_next() and klist_prev(), so each
 * is a straight walk in one direction, as 6.1's two functions are.
 */
static __always_inline struct klist_node *klist_step(struct klist_iter *i,
						     bool forward)
{
	struct klist *k = i->i_klist;
	void (*put)(struct klist_node *) = k->put;
	struct klist_node *last = i->i_cur;
	struct list_head *head = &k->k_list;
	struct list_head *pos = last ? &last->n_node : head;
	unsigned long flags;

	spin_lock_irqsave(&k->k_lock, flags);
	pos = forward ? pos->next : pos->prev;
	/*
	 * M2: a list never initialised (or finished with klist_fini()) has
	 * a head linked nowhere.  A linked node never has, so this costs a
	 * test of the link the step loads anyway.
	 */
	if (unlikely(!pos)) {
		spin_unlock_irqrestore(&k->k_lock, flags);
		WARN(1, "klist: walk of %p, a list not initialised (or finished)\n", k);
		return NULL;
	}
	i->i_cur = NULL;
	for (; pos != head; pos = forward ? pos->next : pos->prev) {
		struct klist_node *n = to_klist_node(pos);

		/* K2: step past dead nodes, never return them. */
		if (knode_dead(n))
			continue;
		kref_get(&n->n_ref);
		i->i_cur = n;
		break;
	}
	/* Only now: the old node's links were needed to take the step. */
	if (!last || !klist_dec_and_del(last))
		put = NULL;
	spin_unlock_irqrestore(&k->k_lock, flags);

	if (put)
		put(last);
	return i->i_cur;
}

/*
 * A walk that returns nothing: one of no list (klist_iter_init_node()
 * warned), or one already finished, which M3 reports.  One comparison on
 * the way in, as the test for NULL alone was.
 */
static __always_inline bool klist_iter_done(struct klist_iter *i)
{
	if (likely((unsigned long)i->i_klist > (unsigned long)KLIST_ITER_EXITED))
		return false;
	WARN(i->i_klist == KLIST_ITER_EXITED,
	     "klist: walk %p stepped after klist_iter_exit()\n", i);
	return true;
}

/**
 * klist_prev - Ante up prev node in list.
 * @i: Iterator structure.
 *
 * Drops the reference on the node we were on and takes one on the
 * previous live node, which is returned (NULL at the head).  Safe with
 * interrupts disabled.
 */
struct klist_node *klist_prev(struct klist_iter *i)
{
	if (WARN_ON(!i) || klist_iter_done(i))
		return NULL;
	return klist_step(i, false);
}
EXPORT_SYMBOL_GPL(klist_prev);

/**
 * klist_next - Ante up next node in list.
 * @i: Iterator structure.
 *
 * Drops the reference on the node we were on and takes one on the next
 * live node, which is returned (NULL at the end).  Safe with interrupts
 * disabled.
 */
struct klist_node *klist_next(struct klist_iter *i)
{
	if (WARN_ON(!i) || klist_iter_done(i))
		return NULL;
	return klist_step(i, true);
}
EXPORT_SYMBOL_GPL(klist_next);
