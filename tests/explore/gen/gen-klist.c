// SPDX-License-Identifier: GPL-2.0
/*
 * The klist family of generated scenarios: its operations on the real
 * lib/klist.c, and its sequential model.
 *
 * Objects: the initial nodes n0..n2 (ids 0-2, on the list in that order)
 * and one spare node per add (ids 3-5, the scenario's first add takes
 * id 3).  Nodes are never freed while a body runs: what a walk is handed
 * stays readable, and a use of a node after the list let go of it shows
 * in the final state, in the guarded allocator or in a refcount report.
 *
 * The model (klist_explain()) is a list of ids in order in which a
 * deleted node keeps its place, as a dead node does while a walk stands
 * on it: the order two nodes are in never changes.  Adds insert, del and
 * remove kill; attached says whether the node is live; walks are checked
 * by gen_walk_ok().  Reviewed against 6.1's lib/klist.c and
 * docs/lessons.md: K1 (a walk from a live node starts after it), K2 (a
 * dead node is never returned), K3 (several removers, each returns), K4
 * (attached means linked: true for a dead node a walk still stands on),
 * X2 (misuse: a node deleted twice is reported and nothing changes).
 *
 * Outside klist's contract, so never generated: an add before or behind
 * a node that another operation deletes (the caller keeps @pos linked,
 * X1), two adds of one node, a delete of a node being added (the caller
 * owns a node's add and delete; klist has no claim, unlike ddm's D9).
 */
#include <linux/klist.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "gen.h"

enum {
	K_ADD_HEAD, K_ADD_TAIL, K_ADD_BEFORE, K_ADD_BEHIND, K_DEL, K_REMOVE,
	K_WALK_FWD, K_WALK_BACK, K_WALK_STOP1, K_WALK_FROM, K_ATTACHED,
	K_NR
};

static const struct gen_opdef klist_ops[K_NR] = {
	[K_ADD_HEAD]	= { "add_head", GEN_ARG_NONE },
	[K_ADD_TAIL]	= { "add_tail", GEN_ARG_NONE },
	[K_ADD_BEFORE]	= { "add_before", GEN_ARG_NODE },
	[K_ADD_BEHIND]	= { "add_behind", GEN_ARG_NODE },
	[K_DEL]		= { "del", GEN_ARG_NODE },
	[K_REMOVE]	= { "remove", GEN_ARG_NODE },
	[K_WALK_FWD]	= { "walk", GEN_ARG_NONE, true },
	[K_WALK_BACK]	= { "walk_back", GEN_ARG_NONE, true },
	[K_WALK_STOP1]	= { "walk_one", GEN_ARG_NONE, true },
	[K_WALK_FROM]	= { "walk_from", GEN_ARG_NODE, true },
	[K_ATTACHED]	= { "attached", GEN_ARG_NODE },
};

static const char *const klist_states[] = { "0nodes", "1node", "2nodes", "3nodes" };

/* A delete of a node that is dead (a walk holds it) or gone: either report. */
enum { KW_TWICE, KW_NO_LIST, KW_NR };
static const char *const klist_kinds[KW_NR] = {
	[KW_TWICE]	= "deleted twice",
	[KW_NO_LIST]	= "that is on no list",
};

#define NINIT	3
#define NIDS	(NINIT + GEN_MAX_OPS)

struct gnode {
	struct klist_node n;
	int id;
};

struct kgen {
	struct klist k;
	struct gnode *node[NIDS];
	int spare[GEN_MAX_OPS];	/* the id each op adds, or -1 */
};

static bool is_add(int kind)
{
	return kind <= K_ADD_BEHIND;
}

static int klist_targets(int state, enum gen_arg arg)
{
	return arg == GEN_ARG_NODE ? state : 0;
}

static bool deletes(const struct gen_op *op, int node)
{
	return (op->kind == K_DEL || op->kind == K_REMOVE) && op->arg == node;
}

static bool klist_allowed(const struct gen_spec *s)
{
	int i, j;

	for (i = 0; i < s->nops; i++) {
		if (s->op[i].kind != K_ADD_BEFORE && s->op[i].kind != K_ADD_BEHIND)
			continue;
		for (j = 0; j < s->nops; j++)
			if (deletes(&s->op[j], s->op[i].arg))
				return false;
	}
	return true;
}

/* Two deletes of one node, one a klist_del(): the loser reports (X2). */
static bool klist_misuse(const struct gen_spec *s)
{
	int i, j;

	for (i = 0; i < s->nops; i++)
		for (j = 0; j < s->nops; j++)
			if (i != j && s->op[i].kind == K_DEL &&
			    deletes(&s->op[j], s->op[i].arg))
				return true;
	return false;
}

static void *klist_setup(const struct gen_spec *s)
{
	struct kgen *g = kzalloc(sizeof(*g), GFP_KERNEL);
	int i, nspare = NINIT;

	klist_init(&g->k, NULL, NULL);
	for (i = 0; i < NIDS; i++) {
		g->node[i] = kzalloc(sizeof(*g->node[i]), GFP_KERNEL);
		g->node[i]->id = i;
	}
	for (i = 0; i < s->state; i++)
		klist_add_tail(&g->node[i]->n, &g->k);
	for (i = 0; i < s->nops; i++)
		g->spare[i] = is_add(s->op[i].kind) ? nspare++ : -1;
	/* Every op could be a losing delete: how many came is counted. */
	for (i = 0; i < s->nops; i++) {
		gen_misuse_expect(klist_kinds[KW_TWICE]);
		gen_misuse_expect(klist_kinds[KW_NO_LIST]);
	}
	return g;
}

static int id_of(struct klist_node *n)
{
	return container_of(n, struct gnode, n)->id;
}

static void klist_walk(struct kgen *g, struct gen_rec *rec, bool forward,
		       struct klist_node *from, bool stop1)
{
	struct klist_iter it;
	struct klist_node *n;

	klist_iter_init_node(&g->k, &it, from);
	while ((n = forward ? klist_next(&it) : klist_prev(&it))) {
		if (rec->nseen < GEN_MAX_SEEN)
			rec->seen[rec->nseen++] = id_of(n);
		if (stop1) {
			rec->stopped = true;
			break;
		}
	}
	klist_iter_exit(&it);
}

static void klist_run(struct gen_run *r, int i)
{
	struct kgen *g = r->fctx;
	const struct gen_op *op = &r->spec.op[i];
	struct gen_rec *rec = &r->rec[i];
	struct klist_node *spare = g->spare[i] >= 0 ? &g->node[g->spare[i]]->n : NULL;
	struct klist_node *at = op->arg >= 0 ? &g->node[op->arg]->n : NULL;

	switch (op->kind) {
	case K_ADD_HEAD:
		klist_add_head(spare, &g->k);
		break;
	case K_ADD_TAIL:
		klist_add_tail(spare, &g->k);
		break;
	case K_ADD_BEFORE:
		klist_add_before(spare, at);
		break;
	case K_ADD_BEHIND:
		klist_add_behind(spare, at);
		break;
	case K_DEL:
		klist_del(at);
		break;
	case K_REMOVE:
		klist_remove(at);
		break;
	case K_WALK_FWD:
		klist_walk(g, rec, true, NULL, false);
		break;
	case K_WALK_BACK:
		klist_walk(g, rec, false, NULL, false);
		break;
	case K_WALK_STOP1:
		klist_walk(g, rec, true, NULL, true);
		break;
	case K_WALK_FROM:
		klist_walk(g, rec, true, at, false);
		break;
	case K_ATTACHED:
		rec->ret = klist_node_attached(at);
		break;
	}
}

static void klist_final(struct gen_run *r, struct gen_final *f)
{
	struct kgen *g = r->fctx;
	struct klist_iter it;
	struct klist_node *n;
	int i;

	klist_iter_init(&g->k, &it);
	while ((n = klist_next(&it)))
		if (f->nlist[0] < GEN_MAX_IDS)
			f->list[0][f->nlist[0]++] = id_of(n);
	klist_iter_exit(&it);
	for (i = 0; i < NIDS; i++)
		f->attr[i] = klist_node_attached(&g->node[i]->n);
	for (i = 0; i < KW_NR; i++)
		f->warned[i] = gen_misuse_reported(klist_kinds[i]);
}

static void klist_teardown(struct gen_run *r)
{
	struct kgen *g = r->fctx;
	int i;

	for (i = 0; i < NIDS; i++) {
		if (klist_node_attached(&g->node[i]->n))
			klist_del(&g->node[i]->n);
		kfree(g->node[i]);
	}
	kfree(g);
}

/* --- the sequential model ------------------------------------------------ */

struct kmodel {
	int ord[NIDS];		/* every node ever linked, in list order */
	int nord;
	bool live[NIDS];
	struct gen_life life[NIDS];
	int del_misuse;		/* deletes of a node not live */
};

static int index_of(const struct kmodel *m, int id)
{
	int i;

	for (i = 0; i < m->nord; i++)
		if (m->ord[i] == id)
			return i;
	return -1;
}

static void insert_at(struct kmodel *m, int at, int id, int t)
{
	memmove(&m->ord[at + 1], &m->ord[at], (size_t)(m->nord - at) * sizeof(int));
	m->ord[at] = id;
	m->nord++;
	m->live[id] = true;
	m->life[id].added = t;
}

/* True if op @i's result agrees with the model at its event @t. */
static bool klist_apply(struct kmodel *m, const struct gen_run *r, int i, int t,
			int spare)
{
	const struct gen_op *op = &r->spec.op[i];
	int j, at = op->arg;

	switch (op->kind) {
	case K_ADD_HEAD:
		/* The planted mistake: add_head modelled as add_tail. */
		insert_at(m, gen_mutant("add_head_at_tail") ? m->nord : 0, spare, t);
		return true;
	case K_ADD_TAIL:
		insert_at(m, m->nord, spare, t);
		return true;
	case K_ADD_BEFORE:
		insert_at(m, index_of(m, at), spare, t);
		return true;
	case K_ADD_BEHIND:
		insert_at(m, index_of(m, at) + 1, spare, t);
		return true;
	case K_DEL:
	case K_REMOVE:
		if (!m->live[at]) {
			/* The loser of a delete says so; a remove just returns (K3). */
			m->del_misuse += op->kind == K_DEL;
			return true;
		}
		m->live[at] = false;
		m->life[at].deleted = t;
		return true;
	case K_ATTACHED:
		if (m->live[at])
			return r->rec[i].ret == 1;
		/* Dead: unlinked, unless a walk may still stand on it (K4). */
		for (j = 0; j < r->spec.nops; j++) {
			const struct gen_op *o = &r->spec.op[j];

			if (o->kind == K_REMOVE && o->arg == at &&
			    r->rec[j].end < r->rec[i].start)
				return r->rec[i].ret == 0;
		}
		for (j = 0; j < r->spec.nops; j++)
			if (klist_ops[r->spec.op[j].kind].walk)
				return true;
		return r->rec[i].ret == 0;
	}
	return true;
}

static bool klist_explain(const struct gen_run *r, const struct gen_final *f,
			  const int *ev, int nev)
{
	const struct kgen *g = r->fctx;
	struct kmodel m = { .nord = 0 };
	int tb[GEN_MAX_OPS], te[GEN_MAX_OPS];
	int t, i, n;

	for (i = 0; i < NIDS; i++)
		m.life[i] = (struct gen_life){ .added = GEN_NEVER, .deleted = GEN_NEVER };
	for (i = 0; i < r->spec.state; i++)
		insert_at(&m, m.nord, i, -1);
	for (i = 0; i < GEN_MAX_OPS; i++)
		tb[i] = -1;
	for (t = 0; t < nev; t++) {
		i = ev[t];
		if (klist_ops[r->spec.op[i].kind].walk) {
			if (tb[i] < 0)
				tb[i] = t;
			else
				te[i] = t;
			continue;
		}
		if (!klist_apply(&m, r, i, t, g->spare[i]))
			return false;
	}
	for (i = 0; i < m.nord; i++)
		m.life[m.ord[i]].pos = i;
	for (i = 0; i < r->spec.nops; i++) {
		int kind = r->spec.op[i].kind;

		if (!klist_ops[kind].walk)
			continue;
		if (!gen_walk_ok(&r->rec[i], m.life, NIDS, tb[i], te[i],
				 kind != K_WALK_BACK,
				 kind == K_WALK_FROM ? r->spec.op[i].arg : -1))
			return false;
	}
	/* The final list: the live nodes in order; attached exactly those. */
	for (i = 0, n = 0; i < m.nord; i++) {
		if (!m.live[m.ord[i]])
			continue;
		if (n >= f->nlist[0] || f->list[0][n] != m.ord[i])
			return false;
		n++;
	}
	if (n != f->nlist[0])
		return false;
	for (i = 0; i < NIDS; i++)
		if (f->attr[i] != (int)m.live[i])
			return false;
	return m.del_misuse == f->warned[KW_TWICE] + f->warned[KW_NO_LIST];
}

const struct gen_family gen_klist_family = {
	.name = "klist",
	.ops = klist_ops,
	.nops = K_NR,
	.states = klist_states,
	.nstates = 4,
	.kinds = klist_kinds,
	.nkinds = KW_NR,
	.targets = klist_targets,
	.allowed = klist_allowed,
	.misuse = klist_misuse,
	.setup = klist_setup,
	.run = klist_run,
	.final = klist_final,
	.teardown = klist_teardown,
	.explain = klist_explain,
};
