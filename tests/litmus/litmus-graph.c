// SPDX-License-Identifier: GPL-2.0
/*
 * klist-litmus --engine graph: a test's processes run through the
 * execution-graph explorer (shim/explore/graph.h), the model being the
 * LKMM checker of cat/ (lkmm_check()) or, with --model sc, the sc axiom.
 *
 * The front end re-executes: a process is replayed by the interpreter
 * (lit_replay(), litmus-cat.c) with each read returning the value of
 * the write the graph says it reads, and what it does next is the
 * graph's next event.  Only reads and writes are graph events: the
 * fences and SRCU events between them come from the replay when the
 * graph is checked (a fully ordered RMW's leading smp_mb() exists only
 * if the RMW succeeds, so it is not known before its read's value).
 * Lock words are locations of their own: 0 unlocked, 1 held;
 * spin_lock() is a read that must see 0 (else the process waits) and
 * the write of 1, spin_unlock() the write of 0.
 * lock.cat has no lock-word co of its own (it derives the lock reads'
 * rf from the order of the LKW events, each unlock just after its
 * lock): a graph is kept only if its lock co is that chain, so each
 * graph is one candidate of the checker.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "litmus.h"
#include "litmus-interp.h"
#include "cat/lkmm.h"
#include "graph.h"

struct front {
	const struct lit_prog *p;
	bool sc;
	struct trace tr[LIT_MAX_PROCS];		/* the last replay of each */
	enum lit_replay_end end[LIT_MAX_PROCS];
	int nmem[LIT_MAX_PROCS];		/* its reads and writes */
	signed char mem[LIT_MAX_PROCS][LIT_MAX_TEV];	/* ... at these places */
	unsigned long long yes, no, filtered;
	unsigned int flags;
	long long init[LIT_MAX_VARS];		/* a hole's read returns it */
	/* each execution's fingerprint: one visit each, checked */
	unsigned long long *seen;
	size_t nseen, cap;
	unsigned long long duplicates;
	const char *error;
};

static uint64_t bit(int i)
{
	return (uint64_t)1 << i;
}

/* A graph event: a read or a write (fences order, they are not read). */
static bool memory(const struct tev *e)
{
	return lit_tev_reads(e) || (e->tags & (LKMM_W | LKMM_LKW | LKMM_UL));
}

/* The places of thread @t's replayed events that are graph events. */
static void places(struct front *f, int t)
{
	f->nmem[t] = 0;
	for (int i = 0; i < f->tr[t].nev; i++)
		if (memory(&f->tr[t].ev[i]))
			f->mem[t][f->nmem[t]++] = (signed char)i;
}

/*
 * Replay thread @t with the values its reads have in @g, as far as its
 * graph events go.  A hole (an event a revisit deleted, see graph.h)
 * that reads gets the location's initial value: no event kept after it
 * depends on it, its place in po included (dependencies, deps()).
 */
static enum lit_replay_end replay(struct front *f, const struct graph *g, int t)
{
	long long vals[LIT_MAX_TEV];
	enum lit_replay_end end;
	int n = 0;

	for (;;) {
		const struct tev *te;
		int k, e;

		end = lit_replay(f->p, t, vals, n, &f->tr[t], &f->error);
		places(f, t);
		if (end != LIT_REPLAY_READ || !f->nmem[t])
			break;
		/* it stopped at a read: its value, if the graph has it */
		k = f->nmem[t] - 1;
		te = &f->tr[t].ev[f->mem[t][k]];
		if (k >= g->tlen[t] || n == LIT_MAX_TEV)
			break;
		e = g->tev[t][k];
		if (e >= 0 && g->ev[e].kind != GRAPH_READ)
			break;		/* the check below says so */
		vals[n++] = e >= 0 ? g->ev[e].val : te->loc >= 0 ? f->init[te->loc] : 0;
	}
	f->end[t] = end;
	if (end == LIT_REPLAY_ERROR)
		return end;
	/* the same values, the same accesses: else an event kept by a
	 * revisit depended on what it changed, or the interpreter errs */
	for (int k = 0; k < g->tlen[t]; k++) {
		const struct graph_event *e;
		const struct tev *te;

		if (g->tev[t][k] < 0)
			continue;
		e = &g->ev[g->tev[t][k]];
		te = k < f->nmem[t] ? &f->tr[t].ev[f->mem[t][k]] : NULL;
		if (!te || te->loc != e->loc || lit_tev_reads(te) != (e->kind == GRAPH_READ) ||
		    (e->kind == GRAPH_WRITE && te->val != e->val)) {
			f->error = "a replay that does not give the graph's events (a dependency missed, or an interpreter bug)";
			return LIT_REPLAY_ERROR;
		}
	}
	return end;
}

/*
 * The po places of the graph events that graph event @k of thread @t
 * (replayed) depends on: herd7's addr, data and ctrl, an RMW's write
 * on its read, and what the value of a read decides otherwise: the
 * place of every event after an if on it (the cond of litmus-interp.h),
 * every event after an RMW's read with no write (cmpxchg() that failed:
 * another value may give it one, and every later event a new place),
 * and every event after a lock primitive's event: after its read
 * (spin_lock() waits on 1, spin_trylock() takes the lock on 0), and
 * after its writes, so that a kept unlock keeps the lock it releases
 * and a kept event the lock it was taken under (lock.cat's chain,
 * lock_chain()).  The LKMM orders a lock's read before the events after
 * it and an unlock after the lock: no load buffering is lost by these.
 *
 * And what the LKMM orders (its ppo, as far as a thread's own events
 * say): an acquire before every later event, a release after every
 * earlier one, a full fence (smp_mb(), a grace period; the
 * smp_mb__*() ones taken as full) between any two, smp_rmb() between
 * reads, smp_wmb() between writes.  Not for re-execution: so that a
 * hole is never ordered before a kept event, and the write a hole's
 * read takes when it is added again (the co-last, maximality's) is
 * one it may read (with an event po-after it kept and ordered after
 * it, that write could close a cycle).
 */
#define LOCK_TAGS (LKMM_LKR | LKMM_LKW | LKMM_UL | LKMM_LF | LKMM_RL | LKMM_RU)
#define FULL_FENCE (LKMM_MB | LKMM_SYNC_RCU | LKMM_SYNC_SRCU | LKMM_BEFORE_ATOMIC | \
		    LKMM_AFTER_ATOMIC | LKMM_AFTER_SPINLOCK | LKMM_AFTER_UNLOCK_LOCK)

/* Does the LKMM order trace event @i before @e (@i < @e, one thread)? */
static bool ordered(const struct trace *tr, int i, int e)
{
	const struct tev *o = &tr->ev[i], *te = &tr->ev[e];
	unsigned int fences = 0;

	if ((o->tags & LKMM_ACQUIRE) && lit_tev_reads(o))
		return true;
	if ((te->tags & LKMM_RELEASE) && !lit_tev_reads(te))
		return true;
	for (int m = i + 1; m < e; m++)
		if (tr->ev[m].tags & LKMM_F)
			fences |= tr->ev[m].tags;
	if (fences & FULL_FENCE)
		return true;
	if ((fences & LKMM_RMB) && lit_tev_reads(o) && lit_tev_reads(te))
		return true;
	return (fences & LKMM_WMB) && !lit_tev_reads(o) && !lit_tev_reads(te);
}

static uint64_t deps(const struct front *f, int t, int k)
{
	const struct trace *tr = &f->tr[t];
	const struct tev *te = &tr->ev[f->mem[t][k]];
	uint64_t d = 0;

	for (int j = 0; j < k; j++) {
		int i = f->mem[t][j];
		const struct tev *o = &tr->ev[i];

		if ((te->addr | te->data | te->ctrl | te->cond) & bit(i))
			d |= bit(j);
		if (te->rmw_with == i)
			d |= bit(j);
		if (o->tags & LOCK_TAGS)
			d |= bit(j);
		if ((o->tags & LKMM_RMW) && lit_tev_reads(o) && o->rmw_with < 0)
			d |= bit(j);
		if (ordered(tr, i, f->mem[t][k]))
			d |= bit(j);
	}
	return d;
}

static enum graph_next next(void *ctx, const struct graph *g, int t, struct graph_event *e)
{
	struct front *f = ctx;
	enum lit_replay_end end = replay(f, g, t);
	const struct tev *te;

	int k = graph_next_place(g, t);

	if (end == LIT_REPLAY_ERROR)
		return GRAPH_NEXT_ERROR;
	if (f->nmem[t] <= k) {
		if (k < g->tlen[t]) {
			f->error = "a hole with no event (the graph engine)";
			return GRAPH_NEXT_ERROR;
		}
		return end == LIT_REPLAY_DONE ? GRAPH_NEXT_DONE : GRAPH_NEXT_BLOCKED;
	}
	te = &f->tr[t].ev[f->mem[t][k]];
	e->loc = te->loc;
	e->val = te->val;
	e->kind = lit_tev_reads(te) ? GRAPH_READ : GRAPH_WRITE;
	/* sc has no load buffering: no dependencies, no holes */
	if (!f->sc)
		e->deps = deps(f, t, k);
	return GRAPH_NEXT_EVENT;
}

/* The interpreter's record of graph event @e (its thread replayed). */
static const struct tev *tev_of(const struct front *f, const struct graph *g, int e)
{
	return &f->tr[g->ev[e].thread].ev[f->mem[g->ev[e].thread][g->ev[e].po]];
}

static unsigned int tags_of(const struct front *f, const struct graph *g, int e)
{
	return g->ev[e].thread < 0 ? LKMM_W | LKMM_IW : tev_of(f, g, e)->tags;
}

/* spin_lock()'s read of a held lock: the thread waits, no event yet. */
static bool waits(const struct front *f, const struct graph *g, int e)
{
	return g->ev[e].thread >= 0 && (tags_of(f, g, e) & LKMM_LKR) && g->ev[e].val;
}

/*
 * Each lock word's co is lock.cat's: a lock's LKW just after the write
 * its LKR read, an unlock just after the LKW it releases.
 */
static bool lock_chain(struct front *f, const struct graph *g)
{
	for (int l = 0; l < g->nlocs; l++) {
		if (f->p->var[l].kind != LIT_LOCK)
			continue;
		for (int i = 1; i < g->nco[l]; i++) {
			int e = g->co[l][i], prev = g->co[l][i - 1];
			const struct graph_event *ev = &g->ev[e];
			unsigned int tags = tags_of(f, g, e);
			int t = ev->thread, held = -1;

			if (tags & LKMM_LKW) {
				/* (its read: what it depends on, never a hole) */
				if (g->tev[t][ev->po - 1] >= 0 &&
				    g->ev[g->tev[t][ev->po - 1]].rf != prev)
					return false;
				continue;
			}
			for (int k = 0; k < ev->po; k++) {
				int o = g->tev[t][k];

				if (o < 0 || g->ev[o].loc != l || g->ev[o].kind != GRAPH_WRITE)
					continue;
				held = tags_of(f, g, o) & LKMM_LKW ? o : -1;
			}
			if (held < 0) {
				f->error = "a spin_unlock() of a lock not held (the graph engine)";
				return false;
			}
			if (held != prev)
				return false;
		}
	}
	return true;
}

/* @g as a candidate execution of the checker; false: too many events. */
static bool to_exec(const struct front *f, const struct graph *g, struct lkmm_exec *x)
{
	int map[GRAPH_MAX_EVENTS], n = 0, upto[GRAPH_MAX_THREADS], hole[GRAPH_MAX_THREADS];
	int tmap[GRAPH_MAX_THREADS][LIT_MAX_TEV];

	memset(x, 0, sizeof(*x));
	for (int e = 0; e < g->nlocs; e++) {
		x->ev[n] = (struct lkmm_event){ .thread = -1, .loc = g->ev[e].loc,
						.val = g->ev[e].val,
						.tags = LKMM_W | LKMM_IW };
		map[e] = n++;
	}
	/*
	 * each thread's events: up to its last graph event, and past it
	 * when it has finished (the fences after its last access); past
	 * a hole only its graph events (what is between may depend on
	 * the hole: fewer events, a weaker check, of a graph that is not
	 * an execution yet)
	 */
	for (int t = 0; t < g->nthreads; t++) {
		const struct trace *tr = &f->tr[t];
		int k = 0;

		hole[t] = graph_next_place(g, t);
		upto[t] = f->end[t] == LIT_REPLAY_DONE && f->nmem[t] == g->tlen[t] &&
			  hole[t] == g->tlen[t] ? tr->nev :
			  g->tlen[t] ? f->mem[t][g->tlen[t] - 1] + 1 : 0;
		for (int i = 0; i < upto[t]; i++) {
			const struct tev *te = &tr->ev[i];
			int e = memory(te) ? g->tev[t][k++] : -1;

			tmap[t][i] = -1;
			if (memory(te) ? e < 0 : k > hole[t])
				continue;
			if (e >= 0 && waits(f, g, e))
				continue;
			if (n == LKMM_MAX_EVENTS)
				return false;
			x->ev[n] = (struct lkmm_event){ .thread = t, .loc = te->loc,
							.val = e >= 0 ? g->ev[e].val : te->val,
							.tags = te->tags };
			tmap[t][i] = n;
			if (e >= 0)
				map[e] = n;
			n++;
		}
	}
	x->n = n;
	rel_n = n;
	for (int t = 0; t < g->nthreads; t++) {
		const struct trace *tr = &f->tr[t];
		int k = 0;

		for (int i = 0; i < upto[t]; i++) {
			const struct tev *te = &tr->ev[i];
			int e = memory(te) ? g->tev[t][k++] : -1, to = tmap[t][i];

			if (to < 0)
				continue;
			for (int j = 0; j < i; j++) {
				int from = tmap[t][j];

				if (from < 0)
					continue;
				if (te->addr & bit(j))
					rel_add(&x->addr, from, to);
				if (te->data & bit(j))
					rel_add(&x->data, from, to);
				if (te->ctrl & bit(j))
					rel_add(&x->ctrl, from, to);
			}
			if (te->rmw_with > i && te->rmw_with < upto[t] &&
			    tmap[t][te->rmw_with] >= 0)
				rel_add(&x->rmw, to, tmap[t][te->rmw_with]);
			/* rf: lock.cat derives an LKR's from co */
			if (e >= 0 && g->ev[e].kind == GRAPH_READ &&
			    (te->tags & (LKMM_R | LKMM_LF | LKMM_RL | LKMM_RU)))
				rel_add(&x->rf, map[g->ev[e].rf], to);
		}
	}
	/* co: each location's writes but unlocks, in the graph's order */
	for (int l = 0; l < g->nlocs; l++)
		for (int i = 0; i < g->nco[l]; i++) {
			int a = g->co[l][i];

			if (!(tags_of(f, g, a) & (LKMM_W | LKMM_LKW)))
				continue;
			for (int j = i + 1; j < g->nco[l]; j++) {
				int b = g->co[l][j];

				if (tags_of(f, g, b) & (LKMM_W | LKMM_LKW))
					rel_add(&x->co, map[a], map[b]);
			}
		}
	return true;
}

/* The model's verdict on @g; *@flags the LKMM's flags (0 under sc). */
static bool check(struct front *f, const struct graph *g, unsigned int *flags)
{
	static struct lkmm_exec x;
	uint64_t rmw = 0, wait = 0;

	*flags = 0;
	for (int t = 0; t < g->nthreads; t++)
		if (replay(f, g, t) == LIT_REPLAY_ERROR)
			return false;
	if (!lock_chain(f, g))
		return false;
	if (f->sc) {
		for (int e = 0; e < g->n; e++) {
			if (g->ev[e].thread < 0)
				continue;
			if (waits(f, g, e))
				wait |= bit(e);
			if (g->ev[e].kind == GRAPH_WRITE && (tags_of(f, g, e) & LKMM_RMW))
				rmw |= bit(e);
		}
		return graph_sc_consistent(g, rmw, wait);
	}
	if (!to_exec(f, g, &x)) {
		f->error = "more than 64 events";
		return false;
	}
	/* lock.cat's choices for the lock reads that do not take it */
	for (int r = 0; r < x.n; r++)
		if (x.ev[r].tags & (LKMM_LF | LKMM_RL | LKMM_RU))
			for (int w = 0; w < x.n; w++)
				if ((x.rf.r[w] & set_bit(r)) && !lkmm_lock_rf_allowed(&x, w, r))
					return false;
	return lkmm_check(&x, flags) == LKMM_OK;
}

static bool consistent(void *ctx, const struct graph *g)
{
	unsigned int flags;

	return check(ctx, g, &flags);
}

/* A fingerprint of @g: each read's write and each co, by (thread, po). */
static unsigned long long fingerprint(const struct graph *g)
{
	unsigned long long h = 1469598103934665603ULL;

#define MIX(v) (h = (h ^ (unsigned long long)(v)) * 1099511628211ULL)
	for (int t = 0; t < g->nthreads; t++)
		for (int k = 0; k < g->tlen[t]; k++) {
			const struct graph_event *e = &g->ev[g->tev[t][k]];

			MIX(1000 + t * 64 + k);
			if (e->kind == GRAPH_READ)
				MIX(g->ev[e->rf].thread * 64 + g->ev[e->rf].po);
		}
	for (int l = 0; l < g->nlocs; l++) {
		MIX(5000 + l);
		for (int i = 0; i < g->nco[l]; i++)
			MIX(g->ev[g->co[l][i]].thread * 64 + g->ev[g->co[l][i]].po);
	}
#undef MIX
	return h;
}

/* Has this fingerprint been seen?  (open addressing, grown at half) */
static bool seen_before(struct front *f, unsigned long long h)
{
	size_t i;

	h |= 1;		/* 0 marks a free slot */
	if (2 * (f->nseen + 1) > f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 1024;
		unsigned long long *s = calloc(cap, sizeof(*s));

		if (!s) {
			f->error = "out of memory";
			return false;
		}
		for (size_t j = 0; j < f->cap; j++)
			if (f->seen[j])
				for (i = f->seen[j] % cap; ; i = (i + 1) % cap)
					if (!s[i]) {
						s[i] = f->seen[j];
						break;
					}
		free(f->seen);
		f->seen = s;
		f->cap = cap;
	}
	for (i = h % f->cap; f->seen[i]; i = (i + 1) % f->cap)
		if (f->seen[i] == h)
			return true;
	f->seen[i] = h;
	f->nseen++;
	return false;
}

static void complete(void *ctx, const struct graph *g)
{
	struct front *f = ctx;
	const long long *regs[LIT_MAX_PROCS];
	long long final[LIT_MAX_VARS];
	unsigned int flags;

	if (seen_before(f, fingerprint(g)))
		f->duplicates++;
	/* (replays every thread: its registers are this graph's) */
	check(f, g, &flags);
	for (int t = 0; t < f->p->nprocs; t++)
		regs[t] = f->tr[t].reg;
	for (int l = 0; l < g->nlocs; l++)
		final[l] = g->ev[g->co[l][g->nco[l] - 1]].val;
	if (f->p->filter && !lit_holds(f->p->filter, regs, final)) {
		f->filtered++;
		return;
	}
	f->flags |= flags;
	if (lit_holds(f->p->cond, regs, final))
		f->yes++;
	else
		f->no++;
}

/*
 * Does @p wait for RCU or SRCU readers?  The sc axiom is about accesses
 * only: a grace period's guarantee is the LKMM's (its rcu axiom), so
 * the sc model says it cannot judge such a test.
 */
static bool uses_rcu(const struct lit_prog *p)
{
	for (const struct lit_node *n = p->nodes; n; n = n->alloc_next)
		if (n->kind == LN_CALL && n->prim &&
		    (n->prim->kind == LP_SYNC_RCU || n->prim->kind == LP_SYNC_SRCU))
			return true;
	return false;
}

int lit_graph_check(struct lit_prog *p, bool sc, struct lit_graph_result *r)
{
	static const struct graph_ops ops = {
		.next = next, .consistent = consistent, .complete = complete,
	};
	static struct front f;
	struct graph_stats st;
	long long init[LIT_MAX_VARS];
	struct timespec t0, t1;
	int ret;

	memset(r, 0, sizeof(*r));
	if (p->unsupported[0]) {
		snprintf(r->error, sizeof(r->error), "%s", p->unsupported);
		return -1;
	}
	if (sc && uses_rcu(p)) {
		snprintf(r->error, sizeof(r->error),
			 "a grace period under --model sc (the sc axiom has no RCU)");
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	free(f.seen);
	memset(&f, 0, sizeof(f));
	f.p = p;
	f.sc = sc;
	for (int v = 0; v < p->nvars; v++)
		f.init[v] = init[v] = p->var[v].kind == LIT_LOCK ? 0 :
			  p->var[v].init_addr_of >= 0 ? lit_addr_of(p->var[v].init_addr_of) :
			  p->var[v].init;
	ret = graph_explore(p->nprocs, p->nvars, init, &ops, &f, &st);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	r->seconds = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (f.error || ret) {
		snprintf(r->error, sizeof(r->error), "%s", f.error ? f.error : st.error);
		return -1;
	}
	r->explored = st.explored;
	r->consistent = st.executions;
	r->blocked = st.blocked;
	r->pruned = st.pruned;
	r->revisits = st.revisits;
	r->not_maximal = st.not_maximal;
	r->lb_revisits = st.lb_revisits;
	r->duplicates = f.duplicates;
	r->yes = f.yes;
	r->no = f.no;
	r->filtered = f.filtered;
	r->flags = f.flags;
	return 0;
}

static const char *verdict(unsigned long long yes, unsigned long long no)
{
	return yes && no ? "Sometimes" : yes ? "Always" : "Never";
}

int lit_graph_run(struct lit_prog *p, const struct lit_opts *o)
{
	static struct lit_graph_result r;
	static struct lit_cat_result c;
	const char *v, *cv;
	bool race;
	int ret = 0;

	if (lit_graph_check(p, !o->wmm, &r)) {
		printf("%s Unsupported %s\n", p->name, r.error);
		return o->expect || o->compare;
	}
	v = verdict(r.yes, r.no);
	race = r.flags & LKMM_FLAG_DATA_RACE;
	printf("%s %s%s (%llu consistent executions of %llu explored", p->name, v,
	       race ? " DATARACE" : "", r.consistent, r.explored);
	for (int f = 1; f < LKMM_NFLAGS; f++)
		if (r.flags & 1u << f)
			printf(", flag %s", lkmm_flag_name[f]);
	if (o->verbose)
		printf(", %llu blocked, %llu pruned, %llu revisits (%llu load buffering), %llu not maximal, %.4f s",
		       r.blocked, r.pruned, r.revisits, r.lb_revisits, r.not_maximal, r.seconds);
	printf(")");
	if (r.duplicates) {
		printf(" DUPLICATES: %llu executions explored twice", r.duplicates);
		ret = 1;
	}
	if (o->expect && (strcmp(v, p->expected) || race != p->expected_race)) {
		printf(" MISMATCH: herd7 says %s%s", p->expected[0] ? p->expected : "nothing",
		       p->expected_race ? " DATARACE" : "");
		ret = 1;
	}
	if (o->compare) {
		if (lit_cat_check(p, &c)) {
			printf(" checker: Unsupported %s\n", c.error);
			return 1;
		}
		cv = lit_cat_verdict(&c);
		printf("; checker %s%s (%llu consistent, %llu with a po|rf cycle)", cv,
		       c.flags & LKMM_FLAG_DATA_RACE ? " DATARACE" : "", c.consistent,
		       c.consistent - c.consistent_porf);
		if (r.consistent != c.consistent || strcmp(v, cv) ||
		    race != !!(c.flags & LKMM_FLAG_DATA_RACE)) {
			printf(" WRONG: not the checker's executions (%s)",
			       r.consistent < c.consistent ? "executions missed" :
			       r.consistent > c.consistent ? "executions too many" :
			       "the same count, another verdict");
			ret = 1;
		} else {
			printf(" agrees");
		}
		if (r.explored > 2 * (c.consistent ? c.consistent : 1)) {
			printf(" OVER: more than twice the checker's executions explored");
			ret = 1;
		}
	}
	printf("\n");
	return ret;
}
