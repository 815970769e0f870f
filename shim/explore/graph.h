/* SPDX-License-Identifier: GPL-2.0 */
/*
 * graph: an explorer of execution graphs (#38), after TruSt
 * (Kokologiannakis, Marmanis, Gladstein, Vafeiadis, "Truly stateless,
 * optimal dynamic partial order reduction", POPL 2022).
 *
 * An execution graph is its events, each thread's in program order,
 * the write each read reads (rf), a total order of each location's
 * writes (co, the initial write first), and the order the events were
 * added in.  The engine adds one event at a time, the next event of
 * the first thread that has one; a read branches on every write of its
 * location, a write on every place in co and on every earlier read it
 * may revisit (made to read it, the events added after that read and
 * not in the write's prefix deleted).  Each consistent complete graph
 * is reached once.  The prefix is the po-rf one (TruSt), or, when the
 * front end reports each event's dependencies, the dependency one
 * (HMC, Kokologiannakis and Vafeiadis, ASPLOS 2020): a write may then
 * revisit a read po-before it that it does not depend on (load
 * buffering), and the graphs may have holes in po (graph_ops.next).
 *
 * The engine knows no program and no memory model: the front end
 * re-executes a thread with its reads returning the values the graph
 * gives them and says what the thread does next (graph_ops.next); the
 * model is graph_ops.consistent.  It must hold of every prefix of a
 * consistent graph (the axioms of the LKMM and of sc do, when the ones
 * a later unlock can satisfy are left to complete graphs).
 */
#ifndef _SHIM_EXPLORE_GRAPH_H
#define _SHIM_EXPLORE_GRAPH_H

#include <stdbool.h>
#include <stdint.h>

#define GRAPH_MAX_EVENTS	64	/* the LKMM checker's bound */
#define GRAPH_MAX_THREADS	16
#define GRAPH_MAX_LOCS		16

enum graph_kind { GRAPH_READ, GRAPH_WRITE, GRAPH_OTHER };

struct graph_event {
	int thread;		/* -1: an initial write */
	int po;			/* its place in its thread */
	enum graph_kind kind;
	int loc;		/* GRAPH_OTHER: the front end's, or -1 */
	long long val;		/* a write's; a read's is its rf's */
	int rf;			/* a read: the event it reads */
	bool placed;		/* a write: in co yet */
	bool revisited;		/* a read: its write set by a revisit */
	unsigned short tags;	/* the front end's, kept with the event
				 * (explore-graph.c: the access's kind) */
	/*
	 * The po places (in its thread) of the events it depends on:
	 * addr, data, ctrl, or its existence otherwise decided by their
	 * values (an RMW's write on its read).  The engine sets all ones
	 * before graph_ops.next(): a front end that does not report
	 * dependencies makes every event depend on all before it, and no
	 * write revisits a read po-before it (no load buffering).
	 */
	uint64_t deps;
};

/* Events by id; an id is the order of addition (revisits keep it). */
struct graph {
	int n, nthreads, nlocs;
	struct graph_event ev[GRAPH_MAX_EVENTS];
	int tlen[GRAPH_MAX_THREADS];
	/* each thread's events by place in po; -1: a hole (see next()) */
	signed char tev[GRAPH_MAX_THREADS][GRAPH_MAX_EVENTS];
	int nco[GRAPH_MAX_LOCS];
	signed char co[GRAPH_MAX_LOCS][GRAPH_MAX_EVENTS];
};

enum graph_next {
	GRAPH_NEXT_EVENT,	/* *e is the thread's next event */
	GRAPH_NEXT_DONE,	/* the thread has finished */
	GRAPH_NEXT_BLOCKED,	/* it waits (a lock read "held"), or its
				 * values give no execution: not an end */
	GRAPH_NEXT_ERROR,	/* the front end cannot go on: stop */
};

struct graph_ops {
	/*
	 * Thread @t re-executed with the graph's values for its events:
	 * the one at place graph_next_place(g, t) in *@e (kind, loc, a
	 * write's value, and deps if the front end knows them; the
	 * engine sets the rest).  That place is g->tlen[t], the next
	 * event, unless a revisit left a hole (only with dependencies
	 * reported): events after it stay, none of them depending on it.
	 */
	enum graph_next (*next)(void *ctx, const struct graph *g, int t,
				struct graph_event *e);
	/* Is @g (every write placed) allowed by the model? */
	bool (*consistent)(void *ctx, const struct graph *g);
	/* A consistent graph where every thread has finished. */
	void (*complete)(void *ctx, const struct graph *g);
};

/* The place in po of thread @t's next event: its first hole, or tlen. */
static inline int graph_next_place(const struct graph *g, int t)
{
	int k = 0;

	while (k < g->tlen[t] && g->tev[t][k] >= 0)
		k++;
	return k;
}

struct graph_stats {
	unsigned long long explored;	/* graphs where no thread goes on */
	unsigned long long executions;	/* ... every thread finished */
	unsigned long long blocked;	/* ... some thread waits */
	unsigned long long pruned;	/* inconsistent graphs cut */
	unsigned long long revisits;	/* backward revisits made */
	unsigned long long not_maximal;	/* ... refused: not maximal */
	unsigned long long lb_revisits;	/* ... of a read in the write's
					 * po-rf prefix (load buffering) */
	unsigned long long holes;	/* ... that left a hole in po */
	int max_events;
	char error[128];
};

/*
 * Explore every consistent graph of @nthreads threads over @nlocs
 * locations whose initial values are @init; 0, or -1 with st->error.
 */
int graph_explore(int nthreads, int nlocs, const long long *init,
		  const struct graph_ops *ops, void *ctx, struct graph_stats *st);

/*
 * The sc axiom: po | rf | co | fr acyclic, and no write between an
 * RMW's read and its write in co (@rmw: the events that are the write
 * of an RMW whose read is the thread's event before); events in
 * @ignore take no part (a lock read that waits).
 */
bool graph_sc_consistent(const struct graph *g, uint64_t rmw, uint64_t ignore);

#endif
