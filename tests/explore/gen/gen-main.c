// SPDX-License-Identifier: GPL-2.0
/*
 * explore-gen: every generated scenario of a family (pairs, or triples)
 * under the explorer, each outcome checked against the sequential model.
 *
 *   explore-gen [-f klist|ddm|hotplug|all] [-n 2|3] [-s dfs|pct|random] [-k BOUND]
 *               [-t MS] [-N SCHEDULES] [-m TEXT] [-c] [-l] [-x]
 *
 * -c only counts the scenarios; -l lists their names; -x expects a
 * failure (a defect build): exit 0 only if some scenario failed.  Prints
 * one line per failure (its name, report and schedule string, which the
 * `explore` command replays) and a summary: scenarios, schedules,
 * distinct outcomes checked, scenarios not covered within the budget,
 * wall time.  Exit 1 if any scenario failed, 2 on bad arguments.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <shim/explore.h>

#include "gen.h"

struct totals {
	struct shim_explore_opts o;
	bool list;
	const char *match;		/* -m: only names containing this */
	/* -P I/N: only every Nth scenario, from the Ith (round robin, so
	 * the N parts of a family take about the same time) */
	unsigned long index, part, nparts;
	unsigned long scenarios, schedules, outcomes, failed, uncovered, overflow;
	unsigned long fail_budget;	/* after this many failures, stop exploring */
};

static void run_one(const struct gen_spec *s, void *arg)
{
	struct totals *t = arg;
	const struct shim_scenario *sc;
	static struct shim_explore_result r;
	char name[GEN_NAME_MAX];

	gen_name(s, name, sizeof(name));
	if (t->match && !strstr(name, t->match))
		return;
	if (t->nparts && t->index++ % t->nparts != t->part)
		return;
	if (t->list) {
		printf("%s\n", name);
		return;
	}
	if (t->failed >= t->fail_budget)
		return;
	sc = gen_scenario(s);
	shim_explore(sc, &t->o, &r);
	t->scenarios++;
	t->schedules += r.schedules;
	t->outcomes += r.noutcomes;
	t->overflow += r.outcomes_overflow;
	if (t->o.strategy == SHIM_EXPLORE_DFS && !r.covered && !r.failures)
		t->uncovered++;
	if (r.failures) {
		t->failed++;
		printf("FAIL %s: %s\n  schedule %s\n  replay: explore -r '%s'\n",
		       sc->name, r.title, r.schedule, r.schedule);
	}
	/* A long run (the triples) says how far it got. */
	if (t->scenarios % 200 == 0)
		printf("PROGRESS %lu scenarios, %lu schedules, %lu outcomes, %lu failed, %lu not covered\n",
		       t->scenarios, t->schedules, t->outcomes, t->failed,
		       t->uncovered);
	fflush(stdout);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static const char usage[] =
"usage: explore-gen [-f klist|ddm|hotplug|all] [-n 2|3] [-s dfs|pct|random] [-k BOUND]\n"
"                   [-t MS] [-N SCHEDULES] [-m TEXT] [-P I/N] [-c] [-l] [-x]\n"
"Every generated scenario (pairs: -n 2, triples: -n 3) under the explorer,\n"
"every outcome checked against the sequential model.\n"
"  -k BOUND     dfs: at most BOUND preemptions (default 1)\n"
"  -t MS        wall-clock budget per scenario (default 5000)\n"
"  -N N         at most N schedules per scenario (default 20000)\n"
"  -S SEED      pct, random: first seed; -d DEPTH pct depth\n"
"  -m TEXT      only the scenarios whose name contains TEXT\n"
"  -P I/N       part I of N (0 <= I < N): every Nth of those scenarios from\n"
"               the Ith; the N parts together are the whole run, each once\n"
"               (run them on every core: docs/explore.md)\n"
"  -c           count the scenarios only\n"
"  -l           list their names\n"
"  -x           expect a failure: exit 0 only if one was found\n"
"Exit status: 0 all passed, 1 a scenario failed, 2 bad arguments.\n";

int main(int argc, char **argv)
{
	struct totals t = {
		.o = { .strategy = SHIM_EXPLORE_DFS, .bound = 1, .iterate = false,
		       .max_ms = 5000, .max_schedules = 20000, .quiet = true,
		       .stop_on_failure = true, .outcomes = true },
		.fail_budget = ~0UL,
	};
	const struct gen_family *const *fams = gen_families;
	const char *family = "all", *strategy = "dfs";
	bool count = false, expect_fail = false;
	int opt, nops = 2, i;
	double start;
	char *end;

	while ((opt = getopt(argc, argv, "f:n:s:k:t:N:S:d:m:P:clxh")) != -1) {
		switch (opt) {
		case 'f':
			family = optarg;
			for (i = 0; fams[i] && strcmp(family, fams[i]->name); i++)
				;
			if (!fams[i] && strcmp(family, "all"))
				goto bad;
			break;
		case 'n':
			nops = (int)strtol(optarg, &end, 10);
			if (*end || nops < 2 || nops > GEN_MAX_OPS)
				goto bad;
			break;
		case 's':
			strategy = optarg;
			if (!strcmp(optarg, "dfs"))
				t.o.strategy = SHIM_EXPLORE_DFS;
			else if (!strcmp(optarg, "pct"))
				t.o.strategy = SHIM_EXPLORE_PCT;
			else if (!strcmp(optarg, "random"))
				t.o.strategy = SHIM_EXPLORE_RANDOM;
			else
				goto bad;
			break;
		case 'k':
			t.o.bound = (unsigned int)strtoul(optarg, &end, 10);
			if (*end || !*optarg || t.o.bound > 100)
				goto bad;
			break;
		case 't':
			t.o.max_ms = (unsigned int)strtoul(optarg, &end, 10);
			if (*end || !*optarg)
				goto bad;
			break;
		case 'N':
			t.o.max_schedules = strtoul(optarg, &end, 10);
			if (*end || !*optarg)
				goto bad;
			break;
		case 'S':
			t.o.seed = strtoull(optarg, &end, 10);
			if (*end || !*optarg)
				goto bad;
			break;
		case 'd':
			t.o.depth = (unsigned int)strtoul(optarg, &end, 10);
			if (*end || !*optarg)
				goto bad;
			break;
		case 'm':
			t.match = optarg;
			break;
		case 'P':
			errno = 0;
			t.part = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end != '/')
				goto bad_part;
			t.nparts = strtoul(end + 1, &end, 10);
			if (errno || *end || t.nparts == 0 || t.part >= t.nparts)
				goto bad_part;
			break;
		case 'c':
			count = true;
			break;
		case 'l':
			t.list = true;
			break;
		case 'x':
			expect_fail = true;
			t.fail_budget = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			goto bad;
		}
	}
	if (optind != argc)
		goto bad;
	start = now_ms();
	for (i = 0; fams[i]; i++) {
		unsigned long before = t.scenarios;

		if (strcmp(family, "all") && strcmp(family, fams[i]->name))
			continue;
		if (count) {
			printf("%s: %lu scenarios of %d operations\n", fams[i]->name,
			       gen_enumerate(fams[i], nops, NULL, NULL), nops);
			continue;
		}
		gen_enumerate(fams[i], nops, run_one, &t);
		if (!t.list)
			printf("GEN %s: %lu scenarios of %d operations\n", fams[i]->name,
			       t.scenarios - before, nops);
	}
	if (count || t.list)
		return 0;
	if (t.nparts)
		printf("GEN PART %lu/%lu\n", t.part, t.nparts);
	printf("GEN TOTAL %s k<=%u (%s, per scenario at most %lu schedules, %u ms): "
	       "%lu scenarios, %lu schedules, %lu distinct outcomes checked against the model, "
	       "%lu failed, %lu not covered within the budget%s, %.1f s\n",
	       strategy, t.o.bound, t.o.iterate ? "iterated" : "bound only",
	       t.o.max_schedules, t.o.max_ms, t.scenarios, t.schedules, t.outcomes,
	       t.failed, t.uncovered,
	       t.overflow ? " (some outcome sets overflowed: counted to 64)" : "",
	       (now_ms() - start) / 1e3);
	if (expect_fail)
		return t.failed ? 0 : 1;
	return t.failed ? 1 : 0;
bad_part:
	fprintf(stderr, "explore-gen: -P %s: a part I/N, 0 <= I < N\n", optarg);
	return 2;
bad:
	fputs(usage, stderr);
	return 2;
}
