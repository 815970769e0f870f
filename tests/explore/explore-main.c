// SPDX-License-Identifier: GPL-2.0
/*
 * explore: run scenarios by name under a strategy and a budget, outside
 * the KUnit runner.  scripts/time-to-detect.sh builds it against each
 * defect patch and hunts the defect with it.
 *
 *   explore [-s dfs|pct|random] [-k BOUND] [-d DEPTH] [-S SEED]
 *           [-n SCHEDULES] [-t MS] [-r SCHEDULE] [-a] [-I] [-x N] [-q] [-l]
 *           NAME...
 *
 * -a keeps going after a failure; -I runs only the bound given, not
 * every bound up to it; -x N replays the failure found N times and
 * fails unless every replay fails with the same report and the same
 * steps; -l lists the scenarios.  For each
 * scenario one line "RESULT name strategy schedules first_failure
 * first_ms total_ms bound_done covered failures schedule" follows the
 * explorer's own output.  Exit status 1 if any scenario failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "explore-scenarios.h"

#define ENTRY(name)	&name,
static const struct shim_scenario *all[] = {
	EXPLORE_SELF_SCENARIOS(ENTRY)
	EXPLORE_KLIST_SCENARIOS(ENTRY)
	EXPLORE_DDM_SCENARIOS(ENTRY)
	NULL
};

static const struct shim_scenario *find(const char *name)
{
	int i;

	for (i = 0; all[i]; i++)
		if (!strcmp(all[i]->name, name))
			return all[i];
	return NULL;
}

/* Every replay of @r's schedule fails the same way, step for step: 0. */
static int replay_check(const struct shim_scenario *sc,
			const struct shim_explore_result *r, int n)
{
	struct shim_explore_opts again = {
		.strategy = SHIM_EXPLORE_REPLAY, .replay = r->schedule, .quiet = true,
	};
	struct shim_explore_result r2;
	int i, bad = 0;

	if (!r->first_failure) {
		printf("REPLAY %s: nothing failed, nothing to replay\n", sc->name);
		return 1;
	}
	for (i = 0; i < n; i++) {
		shim_explore(sc, &again, &r2);
		bad += !r2.failures || strcmp(r2.title, r->title) ||
		       r2.trace_hash != r->trace_hash;
	}
	printf("REPLAY %s %s: %d of %d replays identical (steps hash %#lx)\n",
	       sc->name, r->schedule, n - bad, n, r->trace_hash);
	return bad != 0;
}

int main(int argc, char **argv)
{
	struct shim_explore_opts o = {
		.strategy = SHIM_EXPLORE_DFS, .bound = 2, .iterate = true,
		.stop_on_failure = true, .max_ms = 10000,
	};
	const char *strategy = "dfs";
	int opt, i, failed = 0, replays = 0;

	while ((opt = getopt(argc, argv, "s:k:d:S:n:t:r:aqlIx:")) != -1) {
		switch (opt) {
		case 's':
			strategy = optarg;
			if (!strcmp(optarg, "pct"))
				o.strategy = SHIM_EXPLORE_PCT;
			else if (!strcmp(optarg, "random"))
				o.strategy = SHIM_EXPLORE_RANDOM;
			else if (strcmp(optarg, "dfs"))
				goto usage;
			break;
		case 'k':
			o.bound = (unsigned int)atoi(optarg);
			break;
		case 'd':
			o.depth = (unsigned int)atoi(optarg);
			break;
		case 'S':
			o.seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			o.max_schedules = strtoul(optarg, NULL, 0);
			break;
		case 't':
			o.max_ms = (unsigned int)atoi(optarg);
			break;
		case 'r':
			o.strategy = SHIM_EXPLORE_REPLAY;
			o.replay = optarg;
			strategy = "replay";
			break;
		case 'a':
			o.stop_on_failure = false;
			break;
		case 'I':
			o.iterate = false;
			break;
		case 'x':
			replays = atoi(optarg);
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'l':
			for (i = 0; all[i]; i++)
				printf("%s\n", all[i]->name);
			return 0;
		default:
			goto usage;
		}
	}
	for (i = optind; i < argc; i++) {
		const struct shim_scenario *sc = find(argv[i]);
		struct shim_explore_result r;

		if (!sc) {
			fprintf(stderr, "explore: no scenario %s\n", argv[i]);
			return 2;
		}
		shim_explore(sc, &o, &r);
		printf("RESULT %s %s %lu %lu %.1f %.1f %d %d %lu %s\n", sc->name,
		       strategy, r.schedules, r.first_failure, r.first_failure_ms,
		       r.ms, r.bound_done, r.covered, r.failures,
		       r.first_failure ? r.schedule : "-");
		if (r.first_failure)
			printf("REPORT %s: %s\n", sc->name, r.title);
		fflush(stdout);
		failed |= r.failures > 0;
		if (replays)
			failed = replay_check(sc, &r, replays);
	}
	return failed;
usage:
	fprintf(stderr, "usage: explore [-s dfs|pct|random] [-k BOUND] [-d DEPTH] [-S SEED] [-n SCHEDULES] [-t MS] [-r SCHEDULE] [-a] [-I] [-x N] [-q] [-l] NAME...\n");
	return 2;
}
