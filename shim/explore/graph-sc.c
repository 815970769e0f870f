// SPDX-License-Identifier: GPL-2.0
/*
 * Sequential consistency as a graph's model (graph.h): some interleaving
 * gives the graph exactly when po | rf | co | fr is acyclic and no
 * write of the location falls between an RMW's read and its write.
 */
#include "graph.h"

static uint64_t bit(int i)
{
	return (uint64_t)1 << i;
}

/* Acyclic: some event with no edge in left, forever (Kahn, by bits). */
static bool acyclic(const uint64_t *succ, uint64_t live)
{
	bool changed = true;

	while (live && changed) {
		changed = false;
		for (uint64_t l = live; l; l &= l - 1) {
			int e = __builtin_ctzll(l);

			if (!(succ[e] & live)) {
				live &= ~bit(e);
				changed = true;
			}
		}
	}
	return !live;
}

bool graph_sc_consistent(const struct graph *g, uint64_t rmw, uint64_t ignore)
{
	uint64_t succ[GRAPH_MAX_EVENTS] = { 0 }, live = 0;

	for (int e = 0; e < g->n; e++)
		if (!(ignore & bit(e)))
			live |= bit(e);
	/* po: each event to the next of its thread */
	for (int t = 0; t < g->nthreads; t++)
		for (int k = 1; k < g->tlen[t]; k++)
			succ[g->tev[t][k - 1]] |= bit(g->tev[t][k]);
	for (int l = 0; l < g->nlocs; l++) {
		int pos[GRAPH_MAX_EVENTS];

		/* co: each write to the next in co */
		for (int i = 0; i < g->nco[l]; i++) {
			pos[g->co[l][i]] = i;
			if (i)
				succ[g->co[l][i - 1]] |= bit(g->co[l][i]);
		}
		for (int r = 0; r < g->n; r++) {
			const struct graph_event *ev = &g->ev[r];
			int w;

			if (ev->kind != GRAPH_READ || ev->loc != l || (ignore & bit(r)))
				continue;
			w = ev->rf;
			/* rf, and fr: to the write just after the one read */
			succ[w] |= bit(r);
			if (pos[w] + 1 < g->nco[l])
				succ[r] |= bit(g->co[l][pos[w] + 1]);
			/* atomicity: the RMW's write just after what it read */
			if (ev->thread >= 0 && ev->po + 1 < g->tlen[ev->thread]) {
				int wr = g->tev[ev->thread][ev->po + 1];

				if ((rmw & bit(wr)) && g->ev[wr].placed &&
				    pos[wr] != pos[w] + 1)
					return false;
			}
		}
	}
	return acyclic(succ, live);
}
