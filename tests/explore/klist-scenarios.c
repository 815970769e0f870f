// SPDX-License-Identifier: GPL-2.0
/*
 * klist scenarios for the explorer: walkers (forward, backward, from a
 * node, stopping early, in a simulated interrupt) against del, remove,
 * add_behind/add_before/add_tail, re-adding after a remove, and several
 * removers of one node.  Nodes live in kmalloc()ed objects, freed the
 * moment klist_remove() returns, so the guarded allocator reports any
 * later access; each walk checks what it is handed.
 *
 * The defects these find (tests/defects/klist/): K1 K1b K2 K3 K3b K4
 * K5 (both) K6 K7 K7b R1 X1, and under the wmm model W1; see
 * docs/explore.md.
 */
#include <linux/klist.h>
#include <linux/kref.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <shim/shim.h>

#include "explore-scenarios.h"

#define NOBJ	4	/* A B C D; D starts unlinked */

struct kobj {
	struct klist_node n;
	struct kref ref;	/* the owner's, plus the list's (hooks only) */
	int id;
};

struct kctx {
	struct klist k;
	struct kobj *o[NOBJ];
	struct kobj *extra[2];
	int b_deleted;		/* B's del/remove has returned */
	struct klist_iter held;	/* a walk the set-up leaves standing */
	bool holding;
	bool readds;		/* B goes and comes back: a walk may meet it twice */
};

#define A	0
#define B	1
#define C	2
#define D	3

static struct kobj *to_kobj(struct klist_node *n)
{
	return container_of(n, struct kobj, n);
}

static void kobj_release(struct kref *ref)
{
	kfree(container_of(ref, struct kobj, ref));
}

/* The get/put hooks: the list pins the object around the node (K5). */
static void kobj_get(struct klist_node *n)
{
	kref_get(&to_kobj(n)->ref);
}

static void kobj_put(struct klist_node *n)
{
	might_sleep();	/* put may sleep: it must run unlocked */
	kref_put(&to_kobj(n)->ref, kobj_release);
}

static struct kobj *new_obj(int id)
{
	struct kobj *o = kzalloc(sizeof(*o), GFP_KERNEL);

	kref_init(&o->ref);
	o->id = id;
	return o;
}

static struct kctx *make(bool hooks)
{
	struct kctx *c = kzalloc(sizeof(*c), GFP_KERNEL);
	int i;

	klist_init(&c->k, hooks ? kobj_get : NULL, hooks ? kobj_put : NULL);
	for (i = 0; i < NOBJ; i++) {
		c->o[i] = new_obj(i);
		if (i != D)
			klist_add_tail(&c->o[i]->n, &c->k);
	}
	return c;
}

static void *setup_plain(void)
{
	return make(false);
}

static void *setup_hooks(void)
{
	return make(true);
}

/* Every node on the list, in order, as a bitmask of ids; the walk's own checks. */
static unsigned int walk(struct kctx *c, bool forward, struct klist_node *from,
			 int stop_at)
{
	struct klist_iter i;
	struct klist_node *n;
	unsigned int seen = 0;
	int before;

	klist_iter_init_node(&c->k, &i, from);
	for (;;) {
		before = READ_ONCE(c->b_deleted);
		n = forward ? klist_next(&i) : klist_prev(&i);
		if (!n)
			break;
		/* K2: a step that began after B's delete never returns B. */
		/* By id: o[B] may be NULL, B freed, while a walk runs. */
		SHIM_EXPLORE_CHECK(!(before && to_kobj(n)->id == B),
				   "a walk returned B after its delete had returned");
		SHIM_EXPLORE_CHECK(!(seen & (1u << to_kobj(n)->id)) ||
				   (c->readds && to_kobj(n)->id == B),
				   "a walk returned node %d twice", to_kobj(n)->id);
		seen |= 1u << to_kobj(n)->id;
		if (to_kobj(n)->id == stop_at)
			break;
	}
	klist_iter_exit(&i);
	return seen;
}

/* The list as a bitmask, with no task left running. */
static unsigned int final_walk(struct kctx *c)
{
	return walk(c, true, NULL, -1);
}

/* Delete what is still linked (the list's references go). */
static void del_all(struct kctx *c)
{
	struct klist_iter i;
	struct klist_node *n;

	klist_iter_init(&c->k, &i);
	while ((n = klist_next(&i)))
		klist_del(n);
	klist_iter_exit(&i);
}

static void free_ctx(struct kctx *c)
{
	int j;

	/* Free what was not freed by a body. */
	del_all(c);
	for (j = 0; j < NOBJ; j++)
		if (c->o[j])
			kfree(c->o[j]);
	for (j = 0; j < 2; j++)
		if (c->extra[j])
			kfree(c->extra[j]);
	kfree(c);
}

/* The list holds exactly the nodes in @want, with no task running; then free. */
static void expect_list(struct kctx *c, unsigned int want)
{
	unsigned int seen = final_walk(c);

	SHIM_EXPLORE_CHECK(seen == want, "list is %#x, wanted %#x", seen, want);
	free_ctx(c);
}

#define AC	((1u << A) | (1u << C))

static void remove_b_and_free(struct kctx *c)
{
	klist_remove(&c->o[B]->n);
	WRITE_ONCE(c->b_deleted, 1);
	kfree(c->o[B]);		/* legal: klist_remove() has returned */
	c->o[B] = NULL;
}

static void check_b_gone(void *ctx)
{
	expect_list(ctx, AC);
}

/* --- walkers against remove -------------------------------------------- */

static void walk_fwd(void *ctx)
{
	walk(ctx, true, NULL, -1);
}

static void walk_back(void *ctx)
{
	walk(ctx, false, NULL, -1);
}

static void remove_b(void *ctx)
{
	remove_b_and_free(ctx);
}

/* K6, R1: the last walker's step releases B while its remover returns. */
const struct shim_scenario klist_walk_fwd_vs_remove = {
	.name = "klist_walk_fwd_vs_remove",
	.setup = setup_plain,
	.body = { walk_fwd, remove_b },
	.check = check_b_gone,
};

const struct shim_scenario klist_walk_back_vs_remove = {
	.name = "klist_walk_back_vs_remove",
	.setup = setup_plain,
	.body = { walk_back, remove_b },
	.check = check_b_gone,
};

/* --- a walk that stops on the node being deleted (K4) -------------------- */

static void walk_stop_at_b(void *ctx)
{
	walk(ctx, true, NULL, B);
}

static void del_b(void *ctx)
{
	struct kctx *c = ctx;

	klist_del(&c->o[B]->n);
	WRITE_ONCE(c->b_deleted, 1);
}

static void check_b_unlinked(void *ctx)
{
	struct kctx *c = ctx;

	SHIM_EXPLORE_CHECK(!klist_node_attached(&c->o[B]->n),
			   "B still attached with no walk on it");
	expect_list(c, AC);
}

const struct shim_scenario klist_walk_stop_vs_del = {
	.name = "klist_walk_stop_vs_del",
	.setup = setup_plain,
	.body = { walk_stop_at_b, del_b },
	.check = check_b_unlinked,
};

/* --- a walk from a node, against its delete (K1) ------------------------- */

static void walk_from_b(void *ctx)
{
	struct kctx *c = ctx;
	unsigned int seen = walk(c, true, &c->o[B]->n, -1);

	/* B is live or just deleted: either way the walk starts after it or at the head. */
	SHIM_EXPLORE_CHECK(seen == (1u << C) || seen == ((1u << A) | (1u << C)),
			   "a walk from B saw %#x", seen);
}

static void del_c(void *ctx)
{
	struct kctx *c = ctx;

	klist_del(&c->o[C]->n);
}

static void walk_from_b_c_racing(void *ctx)
{
	struct kctx *c = ctx;
	unsigned int seen = walk(c, true, &c->o[B]->n, -1);

	SHIM_EXPLORE_CHECK(!(seen & ~(1u << C)), "a walk from B saw %#x", seen);
}

static void check_c_unlinked(void *ctx)
{
	expect_list(ctx, (1u << A) | (1u << B));
}

/* K1: the walk's reference on its start node; the next node deleted meanwhile. */
const struct shim_scenario klist_walk_from_node_vs_del = {
	.name = "klist_walk_from_node_vs_del",
	.setup = setup_plain,
	.body = { walk_from_b_c_racing, del_c },
	.check = check_c_unlinked,
};

/*
 * The start node itself deleted meanwhile.  Fails on lib/klist.c as it
 * is: klist_iter_init_node() reads n_klist twice in its WARN(), and a
 * delete that unlinks the node between the reads makes it warn "starts
 * from a node of another list" (found by this scenario, one preemption;
 * explore-test.c expects that report until lib/ reads it once).
 */
const struct shim_scenario klist_walk_from_node_vs_its_del = {
	.name = "klist_walk_from_node_vs_its_del",
	.setup = setup_plain,
	.body = { walk_from_b, del_b },
	.check = check_b_unlinked,
};

/* --- a walk from a deleted node another walk still holds (K1b) ---------- */

static void *setup_held_dead_b(void)
{
	struct kctx *c = make(false);

	klist_iter_init(&c->k, &c->held);
	klist_next(&c->held);
	klist_next(&c->held);	/* stands on B */
	c->holding = true;
	klist_del(&c->o[B]->n);
	return c;
}

static void walk_from_dead_b(void *ctx)
{
	struct kctx *c = ctx;
	unsigned int seen = walk(c, true, &c->o[B]->n, -1);

	/* 6.1: B is counted, so the walk continues after it, never from A. */
	SHIM_EXPLORE_CHECK(!(seen & (1u << A)),
			   "a walk from dead but held B started over (saw %#x)", seen);
}

static void add_d_tail(void *ctx)
{
	struct kctx *c = ctx;

	klist_add_tail(&c->o[D]->n, &c->k);
}

static void check_held(void *ctx)
{
	struct kctx *c = ctx;

	klist_iter_exit(&c->held);
	SHIM_EXPLORE_CHECK(!klist_node_attached(&c->o[B]->n),
			   "B still attached once its last walk left");
	free_ctx(c);
}

const struct shim_scenario klist_walk_from_dead_node = {
	.name = "klist_walk_from_dead_node",
	.setup = setup_held_dead_b,
	.body = { walk_from_dead_b, add_d_tail },
	.check = check_held,
};

/* --- several removers of one node, a walk holding it (K3) --------------- */

static void remove_b_only(void *ctx)
{
	struct kctx *c = ctx;

	klist_remove(&c->o[B]->n);
	SHIM_EXPLORE_CHECK(!klist_node_attached(&c->o[B]->n),
			   "klist_remove() returned with B attached");
}

const struct shim_scenario klist_two_removers_vs_walk = {
	.name = "klist_two_removers_vs_walk",
	.setup = setup_plain,
	.body = { walk_fwd, remove_b_only, remove_b_only },
	.check = check_b_unlinked,
};

/* --- adds next to nodes being removed (X1) ------------------------------ */

static void remove_c_and_free(void *ctx)
{
	struct kctx *c = ctx;

	klist_remove(&c->o[C]->n);
	kfree(c->o[C]);
	c->o[C] = NULL;
}

static void check_d_last(void *ctx)
{
	expect_list(ctx, (1u << A) | (1u << B) | (1u << D));
}

const struct shim_scenario klist_add_tail_vs_remove_last = {
	.name = "klist_add_tail_vs_remove_last",
	.setup = setup_plain,
	.body = { add_d_tail, remove_c_and_free },
	.check = check_d_last,
};

/* add_before(C) reads nothing but C; add_behind(A) nothing but A. */
static void add_around(void *ctx)
{
	struct kctx *c = ctx;

	c->extra[0] = new_obj(4);
	c->extra[1] = new_obj(5);
	klist_add_before(&c->extra[0]->n, &c->o[C]->n);
	klist_add_behind(&c->extra[1]->n, &c->o[A]->n);
}

static void check_around(void *ctx)
{
	expect_list(ctx, AC | (1u << 4) | (1u << 5));	/* and the two added */
}

const struct shim_scenario klist_add_before_behind_vs_remove = {
	.name = "klist_add_before_behind_vs_remove",
	.setup = setup_plain,
	.body = { add_around, remove_b },
	.check = check_around,
};

/* --- re-adding a removed node while a walk runs (K3b) ------------------- */

static void remove_readd_remove(void *ctx)
{
	struct kctx *c = ctx;

	klist_remove(&c->o[B]->n);
	klist_add_tail(&c->o[B]->n, &c->k);
	klist_remove(&c->o[B]->n);
	WRITE_ONCE(c->b_deleted, 1);
}

static void *setup_readd(void)
{
	struct kctx *c = make(false);

	c->readds = true;
	return c;
}

const struct shim_scenario klist_readd_after_remove = {
	.name = "klist_readd_after_remove",
	.setup = setup_readd,
	.body = { remove_readd_remove, walk_fwd },
	.check = check_b_unlinked,
};

/* --- a walk in a simulated interrupt (K7, K7b) --------------------------- */

static void irq_walk(void *ctx)
{
	walk(ctx, true, NULL, -1);
}

static void walk_with_irq(void *ctx)
{
	shim_raise_irq(irq_walk, ctx);	/* lands at the first irq window */
	walk(ctx, true, NULL, -1);
}

static void add_then_del(void *ctx)
{
	struct kctx *c = ctx;

	klist_add_tail(&c->o[D]->n, &c->k);
	klist_del(&c->o[B]->n);
	WRITE_ONCE(c->b_deleted, 1);
}

static void check_irq(void *ctx)
{
	expect_list(ctx, AC | (1u << D));
}

const struct shim_scenario klist_walk_in_irq_vs_add_del = {
	.name = "klist_walk_in_irq_vs_add_del",
	.setup = setup_plain,
	.body = { walk_with_irq, add_then_del },
	.check = check_irq,
};

/* --- get/put hooks: a walk pins the object, not just the node (K5) ------- */

static void del_b_drop_owner(void *ctx)
{
	struct kctx *c = ctx;
	struct kobj *b = c->o[B];

	c->o[B] = NULL;
	klist_del(&b->n);
	WRITE_ONCE(c->b_deleted, 1);
	kref_put(&b->ref, kobj_release);	/* the list's put frees it, or we do */
}

static void check_hooks(void *ctx)
{
	struct kctx *c = ctx;
	unsigned int seen = final_walk(c);
	int j;

	SHIM_EXPLORE_CHECK(seen == AC, "list is %#x, wanted A and C", seen);
	/* The list's references go with the deletes; then the owners'. */
	del_all(c);
	for (j = 0; j < NOBJ; j++)
		if (c->o[j])
			kref_put(&c->o[j]->ref, kobj_release);
	kfree(c);
}

const struct shim_scenario klist_hooks_walk_vs_del = {
	.name = "klist_hooks_walk_vs_del",
	.setup = setup_hooks,
	.body = { walk_fwd, del_b_drop_owner },
	.check = check_hooks,
};

/* --- two walkers, one holding B, against its delete (K2) ---------------- */

static void walk_stop_at_c(void *ctx)
{
	walk(ctx, true, NULL, C);
}

const struct shim_scenario klist_walks_vs_del = {
	.name = "klist_walks_vs_del",
	.setup = setup_plain,
	.body = { walk_stop_at_b, del_b, walk_stop_at_c },
	.check = check_b_unlinked,
};

/* --- the remover sees the release it waited for (K6's pair, #27) -------- */

/*
 * A walk the set-up leaves on B; the remover kills B and waits while the
 * walk's exit drops the last reference.  The remover that sees woken
 * must see B unlinked as well: the release store in klist_release() and
 * the acquire load in klist_remove() order it.  Under sc that holds of
 * any interleaving; under wmm only through that pair, so this is the
 * scenario that needs the model.  The remover then re-adds B.
 */
static void *setup_held_b(void)
{
	struct kctx *c = make(false);

	klist_iter_init(&c->k, &c->held);
	klist_next(&c->held);
	klist_next(&c->held);	/* stands on B */
	return c;
}

static void exit_held_walk(void *ctx)
{
	struct kctx *c = ctx;

	klist_iter_exit(&c->held);
}

static void remove_b_readd(void *ctx)
{
	struct kctx *c = ctx;

	klist_remove(&c->o[B]->n);
	SHIM_EXPLORE_CHECK(!klist_node_attached(&c->o[B]->n),
			   "klist_remove() returned with B attached");
	klist_add_tail(&c->o[B]->n, &c->k);
}

static void check_b_readded(void *ctx)
{
	expect_list(ctx, AC | (1u << B));
}

const struct shim_scenario klist_remove_vs_last_put = {
	.name = "klist_remove_vs_last_put",
	.setup = setup_held_b,
	.body = { remove_b_readd, exit_held_walk },
	.check = check_b_readded,
};
