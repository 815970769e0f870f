// SPDX-License-Identifier: GPL-2.0
/*
 * The execution-graph explorer (graph.h): TruSt's exploration with
 * HMC's revisits (Kokologiannakis, Vafeiadis, "HMC: Model checking for
 * hardware memory models", ASPLOS 2020), from the papers' description.
 *
 * visit(G), G consistent: a = the event at the first thread's hole (a
 * place in po whose event a revisit deleted), or else the next event of
 * the first thread that has one (none: G is an end, an execution or a
 * blocked graph).
 *  - a read: one branch per write w of its location, a reading w;
 *  - a write: one branch per place in co (a just after w, for each
 *    write w of the location), and one per read r of the location that
 *    is not in a's prefix, if revisiting r is maximal: r made to read
 *    a, the events added after r that are not in a's prefix deleted,
 *    then a placed in co every way;
 *  - anything else: one branch.
 * Each branch is checked by the model and visited if consistent.
 *
 * a's prefix is its dependency prefix: a, the events of its thread it
 * depends on (graph_event.deps: what decides its location, value or
 * place, and what the model orders before it), the writes they read,
 * and so on.  With no dependencies reported every event depends on all
 * before it, the prefix is the po-rf one and this is TruSt.  With them,
 * r may be po-before a (load buffering: r's new value changes nothing
 * kept, nothing kept depending on r), and a deletion may leave holes:
 * events kept after an event deleted, none depending on it.
 *
 * Maximality makes each graph reached once: the revisit is taken only
 * if r and every deleted event were added "maximally", each read
 * reading, and each write placed, co-last among the events added
 * before it or in a's prefix -- the one state of the deleted events
 * that leads there; any other would rebuild the same graph again.
 * The order of addition keeps each event after its prefix (a revisited
 * read moves after the write it now reads), so a deletion never takes a
 * write some kept read reads, nor an event a kept one depends on.
 */
#include <stdio.h>
#include <string.h>

#include "graph.h"

struct explorer {
	const struct graph_ops *ops;
	void *ctx;
	struct graph_stats *st;
	bool stop;
};

static uint64_t bit(int i)
{
	return (uint64_t)1 << i;
}

/* The events 0..n-1. */
static uint64_t below(int n)
{
	return n >= 64 ? ~(uint64_t)0 : bit(n) - 1;
}

static void visit(struct explorer *x, const struct graph *g);

/* Check a branch with the model, and go on if it holds. */
static void branch(struct explorer *x, const struct graph *g)
{
	if (x->stop)
		return;
	if (!x->ops->consistent(x->ctx, g)) {
		x->st->pruned++;
		return;
	}
	visit(x, g);
}

/* Write @a of @g, not in co yet: every place for it. */
static void place(struct explorer *x, const struct graph *g, int a)
{
	int loc = g->ev[a].loc;

	for (int i = 0; i < g->nco[loc]; i++) {
		struct graph c = *g;

		memmove(&c.co[loc][i + 2], &c.co[loc][i + 1], c.nco[loc] - i - 1);
		c.co[loc][i + 1] = (signed char)a;
		c.nco[loc]++;
		c.ev[a].placed = true;
		branch(x, &c);
		if (x->stop)
			return;
	}
}

/* Is @w the co-last placed write of its location among @among? */
static bool co_last(const struct graph *g, int w, uint64_t among)
{
	int loc = g->ev[w].loc;

	for (int i = g->nco[loc] - 1; i >= 0; i--)
		if (among & bit(g->co[loc][i]))
			return g->co[loc][i] == w;
	return false;
}

/*
 * Was @e added maximally, with @prefix (a's) kept?  The events before
 * it and the prefix are what the forward exploration would have had
 * when it added e: e must read, or be placed, co-last among them.  A
 * read an earlier revisit set counts only if its write is in the
 * prefix (the forward exploration could not have given it any other:
 * without this, the same graph is reached from it and from its
 * forward twin; with no revisited read at all, graphs are missed).
 */
static bool maximal(const struct graph *g, int e, uint64_t prefix)
{
	uint64_t previous = (bit(e) | (bit(e) - 1)) | prefix;
	const struct graph_event *ev = &g->ev[e];

	if (ev->kind == GRAPH_READ)
		return (!ev->revisited || (prefix & bit(ev->rf))) &&
		       co_last(g, ev->rf, previous);
	if (ev->kind == GRAPH_WRITE && ev->placed)
		return co_last(g, e, previous);
	return true;
}

/* @g without the events not in @keep (ids renumbered, order kept). */
static void restrict_to(struct graph *out, const struct graph *g, uint64_t keep)
{
	int map[GRAPH_MAX_EVENTS];

	memset(out, 0, sizeof(*out));
	memset(out->tev, -1, sizeof(out->tev));
	out->nthreads = g->nthreads;
	out->nlocs = g->nlocs;
	for (int e = 0; e < g->n; e++)
		map[e] = keep & bit(e) ? out->n++ : -1;
	for (int e = 0; e < g->n; e++) {
		struct graph_event *ev;

		if (map[e] < 0)
			continue;
		ev = &out->ev[map[e]];
		*ev = g->ev[e];
		if (ev->kind == GRAPH_READ)
			ev->rf = map[ev->rf];
		/* by po: holes where events were deleted, and a read
		 * that load buffering revisited comes after events
		 * po-after it */
		if (ev->thread >= 0) {
			out->tev[ev->thread][ev->po] = (signed char)map[e];
			if (out->tlen[ev->thread] <= ev->po)
				out->tlen[ev->thread] = ev->po + 1;
		}
	}
	for (int l = 0; l < g->nlocs; l++)
		for (int i = 0; i < g->nco[l]; i++)
			if (map[g->co[l][i]] >= 0)
				out->co[l][out->nco[l]++] = (signed char)map[g->co[l][i]];
}

/*
 * Event @r moved to the end of the order of addition: a revisited read
 * comes after the write it now reads, so that each event's po-rf
 * prefix is always added before it (what makes a deletion leave every
 * kept read's write in the graph).
 */
static void move_to_end(struct graph *g, int r)
{
	int map[GRAPH_MAX_EVENTS];
	struct graph_event ev = g->ev[r];

	for (int e = 0; e < g->n; e++)
		map[e] = e < r ? e : e == r ? g->n - 1 : e - 1;
	memmove(&g->ev[r], &g->ev[r + 1], sizeof(g->ev[0]) * (size_t)(g->n - r - 1));
	g->ev[g->n - 1] = ev;
	for (int e = 0; e < g->n; e++)
		if (g->ev[e].kind == GRAPH_READ)
			g->ev[e].rf = map[g->ev[e].rf];
	for (int t = 0; t < g->nthreads; t++)
		for (int k = 0; k < g->tlen[t]; k++)
			if (g->tev[t][k] >= 0)
				g->tev[t][k] = (signed char)map[g->tev[t][k]];
	for (int l = 0; l < g->nlocs; l++)
		for (int i = 0; i < g->nco[l]; i++)
			g->co[l][i] = (signed char)map[g->co[l][i]];
}

/*
 * a's prefix: a, the events of its thread before it (@by_deps: only
 * those it depends on, graph_event.deps), the writes they read, and so
 * on.  By dependencies, what decides a's location and value (without
 * dependencies reported, deps is all ones: the po-rf prefix); else
 * the po-rf prefix itself.
 */
static uint64_t prefix_of(const struct graph *g, int a, bool by_deps)
{
	uint64_t set = bit(a), todo = bit(a);

	while (todo) {
		int e = __builtin_ctzll(todo);
		const struct graph_event *ev = &g->ev[e];

		todo &= todo - 1;
		if (ev->thread >= 0)
			for (int k = 0; k < ev->po && k < 64; k++) {
				int p = g->tev[ev->thread][k];

				if (p >= 0 && (!by_deps || (ev->deps & bit(k))) &&
				    !(set & bit(p))) {
					set |= bit(p);
					todo |= bit(p);
				}
			}
		if (ev->kind == GRAPH_READ && !(set & bit(ev->rf))) {
			set |= bit(ev->rf);
			todo |= bit(ev->rf);
		}
	}
	return set;
}

/*
 * Write @a (the last event of @g, not placed) revisits earlier reads:
 * each read r of its location not in a's dependency prefix (HMC).  The
 * events added after r that are not in that prefix are deleted, r reads
 * a, then a is placed in co every way.  Without dependencies the prefix
 * is the po-rf one, and this is TruSt's revisit; with them, r may be
 * po-before a (load buffering), and the events deleted may leave holes
 * in po, each thread's first hole then being its next event.
 */
static void revisits(struct explorer *x, const struct graph *g)
{
	int a = g->n - 1, loc = g->ev[a].loc;
	uint64_t prefix = prefix_of(g, a, true), lb = prefix_of(g, a, false);

	for (int r = 0; r < a && !x->stop; r++) {
		struct graph c;
		uint64_t deleted, keep;
		bool ok;

		if (g->ev[r].kind != GRAPH_READ || g->ev[r].loc != loc ||
		    (prefix & bit(r)))
			continue;
		/* everything added after r but a's prefix */
		deleted = ~(bit(r) | (bit(r) - 1)) & ~prefix & (bit(a) - 1);
		keep = ~deleted & below(g->n);
		ok = maximal(g, r, prefix);
		for (uint64_t d = deleted; d && ok; d &= d - 1)
			ok = maximal(g, __builtin_ctzll(d), prefix);
		if (!ok) {
			x->st->not_maximal++;
			continue;
		}
		x->st->revisits++;
		if (lb & bit(r))
			x->st->lb_revisits++;
		restrict_to(&c, g, keep);
		/* r keeps its id (every event before it stays), a is last;
		 * then r reads a, and comes after it */
		c.ev[r].rf = c.n - 1;
		c.ev[r].val = c.ev[c.n - 1].val;
		c.ev[r].revisited = true;
		move_to_end(&c, r);
		for (int t = 0; t < c.nthreads; t++)
			if (graph_next_place(&c, t) < c.tlen[t]) {
				x->st->holes++;
				break;
			}
		place(x, &c, c.n - 2);
	}
}

static void visit(struct explorer *x, const struct graph *g)
{
	struct graph_event e = { .deps = ~(uint64_t)0 };
	bool blocked = false;
	int t, a, h;

	if (x->stop)
		return;
	/* a hole first (the first thread with one): an event deleted to
	 * be added again, before anything new */
	for (h = 0; h < g->nthreads; h++)
		if (graph_next_place(g, h) < g->tlen[h])
			break;
	if (h < g->nthreads) {
		t = h;
		if (x->ops->next(x->ctx, g, t, &e) != GRAPH_NEXT_EVENT) {
			snprintf(x->st->error, sizeof(x->st->error),
				 "the front end gives no event for thread %d's hole", t);
			x->stop = true;
			return;
		}
	} else {
		for (t = 0; t < g->nthreads; t++) {
			enum graph_next r = x->ops->next(x->ctx, g, t, &e);

			if (r == GRAPH_NEXT_EVENT)
				break;
			if (r == GRAPH_NEXT_BLOCKED)
				blocked = true;
			if (r == GRAPH_NEXT_ERROR) {
				snprintf(x->st->error, sizeof(x->st->error),
					 "the front end stopped at thread %d", t);
				x->stop = true;
				return;
			}
		}
	}
	if (t == g->nthreads) {
		x->st->explored++;
		if (blocked) {
			x->st->blocked++;
		} else {
			x->st->executions++;
			x->ops->complete(x->ctx, g);
		}
		return;
	}
	if (g->n == GRAPH_MAX_EVENTS) {
		snprintf(x->st->error, sizeof(x->st->error),
			 "more than %d events", GRAPH_MAX_EVENTS);
		x->stop = true;
		return;
	}
	if (e.kind != GRAPH_OTHER && (e.loc < 0 || e.loc >= g->nlocs)) {
		snprintf(x->st->error, sizeof(x->st->error),
			 "thread %d accesses location %d of %d", t, e.loc, g->nlocs);
		x->stop = true;
		return;
	}
	{
		struct graph c = *g;

		a = c.n++;
		e.thread = t;
		e.po = graph_next_place(&c, t);
		e.placed = false;
		e.rf = -1;
		e.revisited = false;
		c.ev[a] = e;
		c.tev[t][e.po] = (signed char)a;
		if (e.po == c.tlen[t])
			c.tlen[t]++;
		if (c.n > x->st->max_events)
			x->st->max_events = c.n;
		switch (e.kind) {
		case GRAPH_READ:
			for (int i = 0; i < c.nco[e.loc] && !x->stop; i++) {
				struct graph d = c;
				int w = c.co[e.loc][i];

				d.ev[a].rf = w;
				d.ev[a].val = c.ev[w].val;
				branch(x, &d);
			}
			break;
		case GRAPH_WRITE:
			place(x, &c, a);
			revisits(x, &c);
			break;
		default:
			branch(x, &c);
			break;
		}
	}
}

int graph_explore(int nthreads, int nlocs, const long long *init,
		  const struct graph_ops *ops, void *ctx, struct graph_stats *st)
{
	static struct graph g;
	struct explorer x = { .ops = ops, .ctx = ctx, .st = st };

	memset(st, 0, sizeof(*st));
	if (nthreads < 1 || nthreads > GRAPH_MAX_THREADS || nlocs < 0 ||
	    nlocs > GRAPH_MAX_LOCS || nlocs >= GRAPH_MAX_EVENTS) {
		snprintf(st->error, sizeof(st->error),
			 "%d threads and %d locations: at most %d and %d",
			 nthreads, nlocs, GRAPH_MAX_THREADS, GRAPH_MAX_LOCS);
		return -1;
	}
	memset(&g, 0, sizeof(g));
	g.nthreads = nthreads;
	g.nlocs = nlocs;
	/* the initial writes: events 0..nlocs-1, first in co */
	for (int l = 0; l < nlocs; l++) {
		g.ev[l] = (struct graph_event){ .thread = -1, .po = 0, .kind = GRAPH_WRITE,
						 .loc = l, .val = init[l], .rf = -1,
						 .placed = true };
		g.co[l][0] = (signed char)l;
		g.nco[l] = 1;
	}
	g.n = nlocs;
	st->max_events = g.n;
	if (ops->consistent(ctx, &g))
		visit(&x, &g);
	return st->error[0] ? -1 : 0;
}
