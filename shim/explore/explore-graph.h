/* SPDX-License-Identifier: GPL-2.0 */
/*
 * explore-graph: the explorer's native-C runs driven by the graph
 * engine (#38, graph.h; docs/explore-graph-native.md).
 *
 * The graph engine runs in the parent; each time it asks what a thread
 * does next, a forked child runs the scenario's set-up and that one
 * body, every marked access an event: a read returns the value of the
 * write the graph says it reads (explore-wmm.c hands the access to the
 * hook below), a write is checked against the graph, and the thread's
 * first access past the graph is sent back in shared memory.  A
 * complete graph is run by one child: every body in turn with the
 * graph's values, each location then given its co-last value, and the
 * scenario's fingerprint and check.  The model is sc
 * (graph_sc_consistent()).
 */
#ifndef _SHIM_EXPLORE_GRAPH_NATIVE_H
#define _SHIM_EXPLORE_GRAPH_NATIVE_H

#include <stdbool.h>
#include <shim/explore.h>
#include <shim/ctl-wmm.h>

/* Set in the graph driver's children only: the marked accesses go here. */
struct shim_graph_hook {
	void (*load)(const volatile void *p, unsigned int size, void *val,
		     enum shim_mo mo);
	void (*store)(volatile void *p, unsigned int size, const void *val,
		      enum shim_mo mo);
	void (*rmw)(volatile void *p, unsigned int size, enum shim_rmw op,
		    unsigned long long a, unsigned long long b, void *old,
		    enum shim_mo mo);
	void (*fence)(enum shim_fence f);
	bool (*is_locked)(const void *lock);
	void (*rcu)(int what);		/* 0 read_lock, 1 read_unlock, 2 sync */
};
extern const struct shim_graph_hook *shim_graph_hook;
/* ... and every plain access (the access hooks, explore-race.c) here */
extern void (*shim_graph_plain)(const volatile void *p, unsigned int size, bool write);

#define SHIM_GRAPH_MAX_OUTCOMES	64
#define SHIM_GRAPH_STRING_MAX	4096

struct shim_graph_opts {
	unsigned int max_ms;		/* 0: 60000 */
	bool quiet;			/* no result line */
	/*
	 * The caller vouches that no two bodies share a plain access (the
	 * litmus front end: its plain accesses are refused before).  Else
	 * a build without the access hooks (the sanitizer presets) refuses
	 * every scenario: a plain race it cannot see would be explored as
	 * if there were none (zoo_atomicity's lost update, missed).
	 */
	bool no_plain_sharing;
};

struct shim_graph_result {
	unsigned long long executions;	/* complete consistent graphs */
	unsigned long long explored, blocked, pruned, revisits;
	unsigned long long children;	/* forked runs */
	unsigned int restarts;		/* a new location: explored again */
	int nlocs, max_events;
	unsigned int noutcomes;		/* distinct fingerprints */
	unsigned long outcome[SHIM_GRAPH_MAX_OUTCOMES];
	unsigned long long outcome_count[SHIM_GRAPH_MAX_OUTCOMES];
	bool outcomes_overflow;
	unsigned long long failures;	/* complete graphs whose check failed */
	char title[256];		/* the first failure's report */
	char string[SHIM_GRAPH_STRING_MAX];	/* ... its graph, replayable */
	bool fault;			/* its replay did not give it again */
	double seconds;
	char error[256];		/* not explored: why (unsupported ...) */
};

/* Every sc-consistent execution of @sc, each once; 0, or -1 (r->error). */
int shim_explore_graph(const struct shim_scenario *sc,
		       const struct shim_graph_opts *o, struct shim_graph_result *r);

/*
 * Run the graph @s (a failure's string) in a fresh child, after
 * shim_explore_graph() of the same @sc in this process (its locations);
 * 0 with its report in @title (empty: passed), -1 if @s does not decode.
 */
int shim_explore_graph_replay(const struct shim_scenario *sc, const char *s,
			      char *title, size_t len);

#endif
