// SPDX-License-Identifier: GPL-2.0
/*
 * explore-graph-native (#38): the explorer's hand-written scenarios
 * through the graph engine under sc (shim/explore/explore-graph.c),
 * each beside source-DPOR under sc (shim_explore()): executions against
 * traces, and the final states (fingerprints) each reached.
 *
 *   explore-graph-native [--no-dpor] [--ms N] [--expect-same] NAME... | -a
 *
 * -a: every hand-written scenario.  A scenario the graph front end
 * cannot run is printed as "not run: why" (an unsupported operation,
 * more than the engine's events or locations).  --expect-same: exit 1
 * unless every scenario named ran, DPOR covered it, and both reached the
 * same final states with the same reports (the sc verdicts agree).
 * Exit 77 (skipped) in a build without the access hooks.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shim/explore.h>
#include "explore-scenarios.h"
#include "explore-graph.h"

#define ENTRY(name)	&name,
#define ENTRY_FIXED(name)	&name##_fixed,
static const struct shim_scenario *all[] = {
	EXPLORE_ALL_SCENARIOS(ENTRY, ENTRY_FIXED)
	NULL
};

static bool in(unsigned long f, const struct shim_graph_result *g)
{
	for (unsigned int i = 0; i < g->noutcomes; i++)
		if (g->outcome[i] == f)
			return true;
	return false;
}

static int one(const struct shim_scenario *sc, bool dpor, unsigned int ms, bool expect)
{
	static struct shim_graph_result g;
	static struct shim_explore_result d;
	struct shim_graph_opts go = { .quiet = true, .max_ms = ms };
	struct shim_explore_opts o = {
		.strategy = SHIM_EXPLORE_DPOR, .model = SHIM_EXPLORE_MODEL_SC,
		.max_schedules = 2000000, .max_ms = ms, .quiet = true, .outcomes = true,
	};
	bool same = true;

	fflush(stdout);
	if (shim_explore_graph(sc, &go, &g)) {
		printf("%s: not run: %s (%u locations known, %.3f s)\n", sc->name, g.error,
		       g.nlocs, g.seconds);
		return expect;
	}
	printf("%s: graph (sc): %llu executions, %llu explored, %llu blocked, %u locations, %d events at most, %u final states, %llu runs, %.3f s",
	       sc->name, g.executions, g.explored, g.blocked, g.nlocs, g.max_events,
	       g.noutcomes, g.children, g.seconds);
	if (g.failures)
		printf(", %llu failing: %s%s [graph %s]", g.failures, g.title,
		       g.fault ? " EXPLORER FAULT" : "", g.string);
	if (!dpor) {
		printf("\n");
		return 0;
	}
	fflush(stdout);
	shim_explore(sc, &o, &d);
	printf("; DPOR (sc): %lu traces, %lu schedules, %u final states, %s, %.3f s",
	       d.traces, d.schedules, d.noutcomes, d.covered ? "covered" : "not covered",
	       d.ms / 1e3);
	/* the graph's outcomes carry no report: compare the passing ones */
	for (unsigned int i = 0; i < d.noutcomes; i++)
		if (!d.outcomes[i].report && !in(d.outcomes[i].fingerprint, &g))
			same = false;
	/* and every final state of the graph's is one DPOR reached */
	for (unsigned int i = 0; i < g.noutcomes; i++) {
		bool found = false;

		for (unsigned int j = 0; j < d.noutcomes; j++)
			found |= d.outcomes[j].fingerprint == g.outcome[i];
		same &= found;
	}
	if (!!g.failures != !!d.failures || g.fault)
		same = false;
	printf("%s\n", same ? "; same final states and verdict" :
			      "; DIFFERENT final states or verdict");
	return expect && (!same || !d.covered);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "no-dpor", no_argument, NULL, 'n' },
		{ "ms", required_argument, NULL, 'm' },
		{ "expect-same", no_argument, NULL, 'e' },
		{ NULL, 0, NULL, 0 },
	};
	bool dpor = true, every = false, expect = false;
	unsigned int ms = 20000;
	int opt, status = 0;

	while ((opt = getopt_long(argc, argv, "anm:e", longopts, NULL)) != -1) {
		switch (opt) {
		case 'a':
			every = true;
			break;
		case 'n':
			dpor = false;
			break;
		case 'm':
			ms = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'e':
			expect = true;
			break;
		default:
			fprintf(stderr, "usage: explore-graph-native [--no-dpor] [--ms N] [--expect-same] NAME... | -a\n");
			return 2;
		}
	}
	/* 77, ctest's skip: shim_explore_graph() would refuse every one */
	if (!shim_explore_sees_accesses()) {
		printf("explore-graph-native: skipped: no access hooks in this build (a sanitizer preset), plain accesses unseen\n");
		return 77;
	}
	for (int i = 0; every && all[i]; i++)
		status |= one(all[i], dpor, ms, expect);
	for (int i = optind; i < argc; i++) {
		const struct shim_scenario *sc = NULL;

		for (int j = 0; all[j]; j++)
			if (!strcmp(all[j]->name, argv[i]))
				sc = all[j];
		if (!sc) {
			fprintf(stderr, "explore-graph-native: no scenario %s\n", argv[i]);
			return 2;
		}
		status |= one(sc, dpor, ms, expect);
	}
	return status;
}
