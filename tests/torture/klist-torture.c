// SPDX-License-Identifier: GPL-2.0
/*
 * klist-torture: walkers and mutators hammer two klists for a bounded
 * time, in the style of the kernel's locktorture, and check invariants
 * as they go.
 *
 * List "plain" has no get/put hooks: a node is removed with
 * klist_remove() and freed (poisoned) the moment it returns.  List
 * "pinned" has hooks that pin a refcounted object: a node is deleted
 * with klist_del() and the object freed when its last user lets go.
 * Each list also has anchor nodes that are never removed.
 *
 * Some plain-list nodes are removed by two tasks at once, and walkers
 * raise simulated interrupts whose handlers walk the plain list.
 *
 * Invariants, checked continuously and counted:
 *  - no walk reads a freed (poisoned) node: its magic must be intact;
 *  - no node is returned twice in one walk;
 *  - no step returns a node whose klist_del() returned before the step;
 *  - every anchor (linked for the whole walk) is visited by a full walk;
 *  - at the end every reference balances: gets == puts, all freed.
 *
 * The shim adds its own checks (lock order, refcounts, list corruption,
 * freed-memory writes); any of its reports ends the run as an error.
 *
 *   klist-torture [--duration-ms N] [--walkers N] [--mutators N]
 *                 [--slots N] [--seed N] [--sched-permille N] [--keep-going]
 *                 [--kernel-contract]
 *
 * --kernel-contract keeps to what 6.1's klist promises, for the
 * conformance run against a kernel's klist.c (tests/conformance/): one
 * remover per node, and no walks in interrupts (6.1 adds and deletes
 * with interrupts on).
 *
 * The first error ends the run (so the run time is the time to detect);
 * --keep-going counts them all instead.
 *
 * The last line is "SUMMARY: ...", with the seed; --seed replays it (see
 * docs/race-hunting.md for how far a seed fixes a run).
 *
 * Lesson X1 is this program's: it is the regression test of a bug of the
 * port's own first draft, which it found in its first second.  The
 * draft's klist_add_tail() and klist_add_before() read the neighbour to
 * insert after (the tail, or @pos's prev) before taking k_lock; by the
 * time the lock was held, a release could have unlinked that neighbour
 * and its remover freed it, and the new node was linked next to freed
 * memory ("list_add corruption", or SIGSEGV).  The fix names only the
 * anchor (the head, or @pos, which the caller keeps linked) and finds
 * its neighbour under the lock.  tests/defects/klist/
 * X1-add-reads-neighbour-unlocked.patch puts the draft back; run this
 * program against it (scripts/time-to-detect.sh does) and it fails
 * within a second.  docs/lessons.md tells the whole story.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/delay.h>
#include <linux/klist.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "torture.h"

#define NODE_MAGIC	0x4b4c4e44u	/* "KLND" */
#define ANCHORS		4
#define MAX_SLOTS	4096

struct tnode {
	unsigned int magic;
	unsigned int id;
	bool anchor;
	struct kref ref;		/* pinned list only */
	int deleted_seq;		/* pinned: del_clock once klist_del returned */
	atomic_t removers;		/* plain: tasks in klist_remove on it */
	struct klist_node kn;
};

struct tlist {
	const char *name;
	struct klist k;
	bool pinned;
	spinlock_t slot_lock;		/* guards slots[] */
	struct tnode *slots[MAX_SLOTS];
	struct tnode *anchors[ANCHORS];
};

static struct {
	unsigned int duration_ms, walkers, mutators, slots, permille;
	unsigned long long seed;
	bool kernel_contract;
} cfg = { 3000, 3, 2, 64, 100, 0, false };

static struct tlist lists[2];
static atomic_long_t ops, walks, n_gets, n_puts, objects;
static atomic_t next_id = ATOMIC_INIT(1);
static atomic_t stop = ATOMIC_INIT(0);
static atomic_t del_clock = ATOMIC_INIT(0);
static DEFINE_SPINLOCK(handoff_lock);
static struct tnode *handoff;		/* a plain node for a second remover */

static void print_summary(void)
{
	printf("SUMMARY: seed=%llu duration_ms=%u walkers=%u mutators=%u ops=%ld walks=%ld errors=%ld\n",
	       cfg.seed, cfg.duration_ms, cfg.walkers, cfg.mutators,
	       atomic_long_read(&ops), atomic_long_read(&walks),
	       atomic_long_read(&torture.errors));
	fflush(stdout);
}


static void tnode_release(struct kref *ref)
{
	struct tnode *t = container_of(ref, struct tnode, ref);

	atomic_long_dec(&objects);
	kfree(t);		/* poisons it */
}

static void pinned_get(struct klist_node *n)
{
	atomic_long_inc(&n_gets);
	kref_get(&container_of(n, struct tnode, kn)->ref);
}

static void pinned_put(struct klist_node *n)
{
	might_sleep();		/* the contract: put may sleep */
	atomic_long_inc(&n_puts);
	kref_put(&container_of(n, struct tnode, kn)->ref, tnode_release);
}

static struct tnode *tnode_new(bool anchor)
{
	struct tnode *t = kzalloc(sizeof(*t), GFP_KERNEL);

	if (!t)
		return NULL;
	t->magic = NODE_MAGIC;
	t->id = atomic_inc_return(&next_id);
	t->anchor = anchor;
	kref_init(&t->ref);
	atomic_long_inc(&objects);
	return t;
}

/* Drop the creator's hold on @t after it left @l. */
static void tnode_unlinked(struct tlist *l, struct tnode *t)
{
	if (l->pinned) {
		kref_put(&t->ref, tnode_release);
	} else {
		atomic_long_dec(&objects);
		kfree(t);	/* klist_remove() returned: nobody may touch it */
	}
}

/* Link @t by one of the four add calls, next to a node we hold in a slot. */
static void tlist_add(struct tlist *l, struct tnode *t, unsigned long long r)
{
	struct tnode *pos;

	switch (r % 4) {
	case 0:
		klist_add_head(&t->kn, &l->k);
		return;
	case 1:
		klist_add_tail(&t->kn, &l->k);
		return;
	}
	/* A neighbour that cannot be removed meanwhile: an anchor. */
	pos = l->anchors[(r >> 8) % ANCHORS];
	if (r % 4 == 2)
		klist_add_behind(&t->kn, &pos->kn);
	else
		klist_add_before(&t->kn, &pos->kn);
}

/* The last remover of a plain node frees it. */
static void plain_removed(struct tnode *t)
{
	if (atomic_dec_and_test(&t->removers)) {
		atomic_long_dec(&objects);
		kfree(t);	/* poisons it */
	}
}

/* Remove a plain node, now and then together with another mutator. */
static void plain_remove(struct tnode *t, bool share)
{
	atomic_set(&t->removers, 1);
	if (share && !cfg.kernel_contract) {
		spin_lock(&handoff_lock);
		if (!handoff) {
			atomic_set(&t->removers, 2);
			handoff = t;
		}
		spin_unlock(&handoff_lock);
	}
	klist_remove(&t->kn);
	plain_removed(t);
}

static void take_handoff(void)
{
	struct tnode *t;

	spin_lock(&handoff_lock);
	t = handoff;
	handoff = NULL;
	spin_unlock(&handoff_lock);
	if (t) {
		klist_remove(&t->kn);
		plain_removed(t);
	}
}

static void mutate(struct tlist *l, unsigned long long *seed)
{
	unsigned long long r = torture_rnd(seed);
	unsigned int slot = r % cfg.slots;
	struct tnode *t;

	spin_lock(&l->slot_lock);
	t = l->slots[slot];
	l->slots[slot] = NULL;
	spin_unlock(&l->slot_lock);

	if (!t) {
		t = tnode_new(false);
		if (!t)
			return;
		tlist_add(l, t, r >> 16);
		spin_lock(&l->slot_lock);
		if (!l->slots[slot]) {
			l->slots[slot] = t;
			t = NULL;
		}
		spin_unlock(&l->slot_lock);
		if (!t)
			return;
		/* Someone filled the slot meanwhile: take ours out again. */
	}
	if (l->pinned) {
		klist_del(&t->kn);
		WRITE_ONCE(t->deleted_seq, atomic_inc_return(&del_clock));
		tnode_unlinked(l, t);
	} else {
		plain_remove(t, (r >> 40) % 4 == 0);
	}
}

static int mutator_fn(void *data)
{
	unsigned long long seed = cfg.seed * 31 + (unsigned long)data;

	while (!atomic_read(&stop)) {
		take_handoff();
		mutate(&lists[torture_rnd(&seed) & 1], &seed);
		atomic_long_inc(&ops);
	}
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

/* Open-addressing set of node ids seen in one walk. */
struct seen_set {
	unsigned int ids[2 * (MAX_SLOTS + ANCHORS)];
	unsigned int cap;
};

static bool seen_add(struct seen_set *s, unsigned int id)
{
	unsigned int h = (id * 2654435761u) % s->cap;

	while (s->ids[h]) {
		if (s->ids[h] == id)
			return false;
		h = (h + 1) % s->cap;
	}
	s->ids[h] = id;
	return true;
}

/* A short walk from a simulated interrupt (hardirq, interrupts off). */
static void irq_walk(void *data)
{
	struct tlist *l = data;
	struct klist_iter iter;
	struct klist_node *n;
	int steps = 0;

	klist_iter_init(&l->k, &iter);
	while (steps++ < 4 && (n = klist_next(&iter)))
		if (READ_ONCE(container_of(n, struct tnode, kn)->magic) != NODE_MAGIC)
			error("%s walk in an interrupt read a freed node", l->name);
	klist_iter_exit(&iter);
}

static void walk(struct tlist *l, unsigned long long r, struct seen_set *seen)
{
	bool forward = r & 1, from_anchor = r & 2, early = (r & 12) == 12;
	unsigned int limit = early ? (r >> 8) % 8 + 1 : ~0u;
	unsigned int anchors_seen = 0, count = 0, want;
	struct tnode *start = from_anchor ? l->anchors[0] : NULL;
	struct klist_iter iter;
	struct klist_node *n;

	memset(seen->ids, 0, sizeof(seen->ids));
	seen->cap = ARRAY_SIZE(seen->ids);
	if (!l->pinned && !cfg.kernel_contract && (r >> 20) % 8 == 0)
		torture_raise_irq(irq_walk, l);	/* arrives during this walk */
	klist_iter_init_node(&l->k, &iter, start ? &start->kn : NULL);
	while (count < limit) {
		int before = atomic_read(&del_clock);
		struct tnode *t;
		int deleted;

		n = forward ? klist_next(&iter) : klist_prev(&iter);
		if (!n)
			break;
		t = container_of(n, struct tnode, kn);
		if (READ_ONCE(t->magic) != NODE_MAGIC) {
			error("%s walk read a freed node (id %u)", l->name, t->id);
			break;
		}
		deleted = l->pinned ? READ_ONCE(t->deleted_seq) : 0;
		if (deleted && deleted <= before)
			error("%s walk returned node %u, deleted before the step",
			      l->name, t->id);
		if (!seen_add(seen, t->id))
			error("%s walk returned node %u twice", l->name, t->id);
		anchors_seen += t->anchor;
		count++;
	}
	klist_iter_exit(&iter);
	/*
	 * Anchors keep their order (0..3), so a full walk sees all of them,
	 * and one from anchor 0 sees the three after it going forward and
	 * none going back.
	 */
	want = !start ? ANCHORS : forward ? ANCHORS - 1 : 0;
	if (!early && anchors_seen != want)
		error("%s %s walk%s saw %u anchors, not %u", l->name,
		      forward ? "forward" : "backward",
		      start ? " from anchor 0" : "", anchors_seen, want);
	atomic_long_inc(&walks);
}

static int walker_fn(void *data)
{
	unsigned long long seed = cfg.seed * 17 + (unsigned long)data;
	struct seen_set *seen = kmalloc(sizeof(*seen), GFP_KERNEL);

	if (!seen)
		return -ENOMEM;
	while (!atomic_read(&stop)) {
		unsigned long long r = torture_rnd(&seed);

		walk(&lists[r & 1], r >> 1, seen);
	}
	kfree(seen);
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

static void tlist_init(struct tlist *l, const char *name, bool pinned)
{
	int i;

	l->name = name;
	l->pinned = pinned;
	spin_lock_init(&l->slot_lock);
	klist_init(&l->k, pinned ? pinned_get : NULL, pinned ? pinned_put : NULL);
	for (i = 0; i < ANCHORS; i++) {
		l->anchors[i] = tnode_new(true);
		klist_add_tail(&l->anchors[i]->kn, &l->k);
	}
}

static void tlist_drain(struct tlist *l)
{
	unsigned int i;

	if (!l->pinned)
		take_handoff();
	for (i = 0; i < cfg.slots; i++) {
		if (!l->slots[i])
			continue;
		klist_remove(&l->slots[i]->kn);
		tnode_unlinked(l, l->slots[i]);
		l->slots[i] = NULL;
	}
	for (i = 0; i < ANCHORS; i++) {
		klist_remove(&l->anchors[i]->kn);
		tnode_unlinked(l, l->anchors[i]);
	}
	if (!list_empty(&l->k.k_list))
		error("%s list not empty after drain", l->name);
}

static void parse_args(int argc, char **argv)
{
	const struct torture_opt opts[] = {
		TORTURE_TIMED_RUN_OPTS(cfg),
		{ "walkers", TORTURE_UINT, &cfg.walkers },
		{ "mutators", TORTURE_UINT, &cfg.mutators },
		{ "slots", TORTURE_UINT, &cfg.slots },
		{ "kernel-contract", TORTURE_FLAG, &cfg.kernel_contract },
		{ }
	};

	torture_parse_args(argc, argv, opts);
	if (!cfg.slots || cfg.slots > MAX_SLOTS || cfg.walkers > 64 || cfg.mutators > 64)
		torture_usage();
	if (!cfg.seed)
		cfg.seed = torture_default_seed();
}

int main(int argc, char **argv)
{
	struct task_struct *threads[128];
	unsigned int i, n = 0;

	parse_args(argc, argv);
	torture_begin("klist-torture", print_summary, cfg.seed, cfg.permille);

	tlist_init(&lists[0], "plain", false);
	tlist_init(&lists[1], "pinned", true);
	for (i = 0; i < cfg.walkers; i++)
		threads[n++] = kthread_run(walker_fn, (void *)(unsigned long)i, "walker-%u", i);
	for (i = 0; i < cfg.mutators; i++)
		threads[n++] = kthread_run(mutator_fn, (void *)(unsigned long)i, "mutator-%u", i);
	torture_run_threads(cfg.duration_ms, &stop, threads, n);
	tlist_drain(&lists[0]);
	tlist_drain(&lists[1]);
	if (atomic_long_read(&n_gets) != atomic_long_read(&n_puts)) {
		atomic_long_inc(&torture.errors);
		fprintf(stderr, "klist-torture: ERROR: n_gets %ld != n_puts %ld\n",
			atomic_long_read(&n_gets), atomic_long_read(&n_puts));
	}
	if (atomic_long_read(&objects)) {
		atomic_long_inc(&torture.errors);
		fprintf(stderr, "klist-torture: ERROR: %ld objects never freed\n",
			atomic_long_read(&objects));
	}
	if (torture_runtime_end())
		atomic_long_inc(&torture.errors);
	print_summary();
	return atomic_long_read(&torture.errors) ? 1 : 0;
}
