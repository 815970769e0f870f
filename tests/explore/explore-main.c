// SPDX-License-Identifier: GPL-2.0
/*
 * explore: run scenarios by name under a strategy and a budget, outside
 * the KUnit runner.  scripts/time-to-detect.sh builds it against each
 * defect patch and hunts the defect with it.
 *
 *   explore [-s dfs|pct|random|dpor] [-k BOUND] [-d DEPTH] [-S SEED]
 *           [-n SCHEDULES] [-t MS] [-r SCHEDULE] [-a] [-I] [-x N] [-q] [-l]
 *           NAME...
 *
 * A NAME may be a generated scenario, gen:FAMILY:OP+OP@STATE (gen/...
 * too; tests/explore/gen/), made from its name.
 * -a keeps going after a failure; -I runs only the bound given, not
 * every bound up to it; -x N replays the failure found N times and
 * exits 0 only if there was one and every replay fails with the same
 * report and the same steps; -l lists the scenarios; -h (--help) prints the usage.  With
 * -r and no NAME, the schedule string names its scenario.  For each
 * scenario one line "RESULT name strategy schedules first_failure
 * first_ms total_ms bound_done covered failures schedule" follows the
 * explorer's own output.  Exit status 1 if any scenario failed, 2 on
 * bad arguments (an unknown option, scenario or number, a malformed
 * schedule string or another scenario's), checked before anything runs.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "explore-scenarios.h"
#include "gen/gen.h"

#define ENTRY(name)	&name,
#define ENTRY_FIXED(name)	&name##_fixed,
static const struct shim_scenario *all[] = {
	EXPLORE_ALL_SCENARIOS(ENTRY, ENTRY_FIXED)
	NULL
};

/* A hand-written scenario, or a generated one (gen:FAMILY:OP+OP@STATE). */
static const struct shim_scenario *find(const char *name)
{
	int i;

	for (i = 0; all[i]; i++)
		if (!strcmp(all[i]->name, name))
			return all[i];
	if (!strncmp(name, "gen", 3))
		return gen_find(name);
	return NULL;
}

/* Why @name is no scenario, for the message. */
static const char *why_not(const char *name)
{
	static char err[128];
	struct gen_spec s;

	if (strncmp(name, "gen", 3) || gen_parse(name, &s, err, sizeof(err)))
		return "explore -l lists them";
	return err;
}

static void list_generated(const struct gen_spec *s, void *arg)
{
	char name[GEN_NAME_MAX];

	gen_name(s, name, sizeof(name));
	printf("%s\n", name);
}

/* Every replay of @r's schedule fails the same way, step for step: 0. */
static int replay_check(const struct shim_scenario *sc,
			const struct shim_explore_result *r, int n)
{
	struct shim_explore_opts again = {
		.strategy = SHIM_EXPLORE_REPLAY, .replay = r->schedule, .quiet = true,
	};
	static struct shim_explore_result r2;
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

/*
 * -T: one markdown row per scenario, DFS k<=2 (today's claim) beside
 * DPOR (every trace), in one run: schedules, traces, time, rates.
 */
static void table_row(const struct shim_scenario *sc,
		      const struct shim_explore_opts *base)
{
	struct shim_explore_opts o = *base;
	static struct shim_explore_result dfs, dpor;
	char state[64] = "complete";

	o.quiet = true;
	o.stop_on_failure = false;
	o.strategy = SHIM_EXPLORE_DFS;
	o.bound = 2;
	o.iterate = true;
	shim_explore(sc, &o, &dfs);
	o.strategy = SHIM_EXPLORE_DPOR;
	shim_explore(sc, &o, &dpor);
	if (!dpor.covered)
		snprintf(state, sizeof(state), "budget spent: about %.2g schedules in all",
			 dpor.estimate);
	printf("| %s | %lu%s | %.2f s | %.0f | %lu%s | %lu | %lu | %.2f s | %.0f | %s | %lu |\n",
	       sc->name, dfs.schedules, dfs.covered ? "" : " (not covered)",
	       dfs.ms / 1e3, dfs.schedules / (dfs.ms / 1e3 + 1e-9),
	       dpor.traces, dpor.traces_overflow ? "+" : "", dpor.schedules,
	       dpor.sleep_blocked, dpor.ms / 1e3,
	       dpor.schedules / (dpor.ms / 1e3 + 1e-9),
	       state, dpor.failures);
	fflush(stdout);
}

/*
 * -M: one markdown row per scenario, DFS k<=2 under sc beside the same
 * under wmm, in one run: what the weak-memory model costs in schedules
 * to cover a bound and in schedules a second.
 */
static void model_row(const struct shim_scenario *sc,
		      const struct shim_explore_opts *base)
{
	struct shim_explore_opts o = *base;
	static struct shim_explore_result r[2];
	int i;

	o.quiet = true;
	o.stop_on_failure = false;
	o.strategy = SHIM_EXPLORE_DFS;
	o.bound = 2;
	o.iterate = true;
	printf("| %s", sc->name);
	for (i = 0; i < 2; i++) {
		o.model = i ? SHIM_EXPLORE_MODEL_WMM : SHIM_EXPLORE_MODEL_SC;
		shim_explore(sc, &o, &r[i]);
		printf(" | %lu | k<=%d%s | %.2f s | %.0f | %lu", r[i].schedules,
		       r[i].bound_done, r[i].covered ? " (covered)" : "",
		       r[i].ms / 1e3, r[i].schedules / (r[i].ms / 1e3 + 1e-9),
		       r[i].failures);
	}
	printf(" | %.2f |\n", (r[1].ms / (r[1].schedules + 1e-9)) /
				(r[0].ms / (r[0].schedules + 1e-9) + 1e-9));
	fflush(stdout);
}

/* The tables -T and -M print: a markdown header, then a row a scenario. */
struct table_kind {
	const char *head;
	void (*row)(const struct shim_scenario *sc,
		    const struct shim_explore_opts *base);
};

static const struct table_kind dpor_table = {
	"| scenario | DFS k<=2: schedules | DFS time | DFS schedules/s | DPOR: traces | DPOR: schedules | of them sleep-set blocked | DPOR time | DPOR schedules/s | DPOR | failing DPOR schedules |",
	table_row,
};

static const struct table_kind model_table = {
	"| scenario | sc: schedules | sc: bound done | sc: time | sc: schedules/s | sc: failing | wmm: schedules | wmm: bound done | wmm: time | wmm: schedules/s | wmm: failing | wmm/sc time a schedule |",
	model_row,
};

static void print_table(const struct table_kind *t,
			const struct shim_scenario *const *named, int n,
			const struct shim_explore_opts *o)
{
	const char *c;
	int i;

	printf("%s\n|", t->head);
	for (c = t->head + 1; *c; c++)
		if (*c == '|')
			printf("---|");
	printf("\n");
	for (i = 0; i < n; i++)
		t->row(named[i], o);
}

static const char usage_text[] =
"usage: explore [options] NAME...\n"
"       explore -r SCHEDULE [options] [NAME]\n"
"       explore -l | -h\n"
"Explore each scenario NAME under a controlled, deterministic scheduler.\n"
"A NAME is one that -l lists, or a generated one: gen:FAMILY:OP+OP[+OP]@STATE\n"
"(docs/explore.md, tests/explore/gen/).\n"
"  -s dfs|pct|random|dpor  strategy (default dfs; dpor: every trace, no bound)\n"
"  -k BOUND           dfs: at most BOUND preemptions (default 2)\n"
"  -I                 dfs: only the bound given, not 0..BOUND in turn\n"
"  -d DEPTH           pct: depth d (default 3)\n"
"  -S SEED            pct, random: first seed (default 1)\n"
"  -n SCHEDULES       at most this many runs (default 100000)\n"
"  -t MS              wall-clock budget (default 10000)\n"
"  -r SCHEDULE        replay one schedule string (SCENARIO/CHOICE.TASK,...)\n"
"  -a                 keep going after the first failure\n"
"  -x N               replay the failure found N times; fail unless identical\n"
"  -q                 no interleaving, only the RESULT lines\n"
"  -T                 table: DFS k<=2 beside DPOR, a markdown row a scenario\n"
"                     (-n, -t: each strategy's budget per scenario)\n"
"  -M                 table: DFS k<=2 under sc beside the same under wmm\n"
"                     (-n, -t: each model's budget per scenario)\n"
"  -m sc|wmm          the memory model (default: SHIM_EXPLORE_MODEL, else sc)\n"
"  -l                 list the scenarios (the generated pairs too)\n"
"  -h, --help         this text\n"
"Exit status: 0 all passed, 1 a scenario failed, 2 bad arguments.\n";

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "explore: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s", usage_text);
	return 2;
}

/* A whole decimal (or 0x) number no larger than @max, else -1. */
static long long number(const char *arg, unsigned long long max)
{
	unsigned long long v;
	char *end;

	if (!*arg || *arg == '-')
		return -1;
	v = strtoull(arg, &end, 0);
	if (*end || v > max)
		return -1;
	return (long long)v;
}

#define NUMBER(var, max) do {						\
	long long __v = number(optarg, (max));				\
	if (__v < 0)							\
		return usage_error("bad number for -%s", (char[]){ (char)opt, 0 }); \
	var = (__typeof__(var))__v;					\
} while (0)

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct shim_explore_opts o = {
		.strategy = SHIM_EXPLORE_DFS, .bound = 2, .iterate = true,
		.stop_on_failure = true, .max_ms = 10000,
	};
	const struct shim_scenario *named[64];
	const char *strategy = "dfs";
	int opt, i, n = 0, failed = 0, replays = 0;
	const struct table_kind *table = NULL;

	while ((opt = getopt_long(argc, argv, "s:k:d:S:n:t:r:aqlIx:hTMm:", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 's':
			strategy = optarg;
			if (!strcmp(optarg, "pct"))
				o.strategy = SHIM_EXPLORE_PCT;
			else if (!strcmp(optarg, "random"))
				o.strategy = SHIM_EXPLORE_RANDOM;
			else if (!strcmp(optarg, "dpor"))
				o.strategy = SHIM_EXPLORE_DPOR;
			else if (strcmp(optarg, "dfs"))
				return usage_error("no strategy %s", optarg);
			break;
		case 'k':
			NUMBER(o.bound, 1000);
			break;
		case 'd':
			NUMBER(o.depth, 1000);
			break;
		case 'S':
			NUMBER(o.seed, ~0ULL >> 1);
			break;
		case 'n':
			NUMBER(o.max_schedules, ~0UL >> 1);
			break;
		case 't':
			NUMBER(o.max_ms, 1U << 30);
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
			NUMBER(replays, 1000);
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'T':
		case 'M':
			if (table)
				return usage_error("%s", "-T and -M do not go together");
			table = opt == 'T' ? &dpor_table : &model_table;
			break;
		case 'm':
			if (!strcmp(optarg, "sc"))
				o.model = SHIM_EXPLORE_MODEL_SC;
			else if (!strcmp(optarg, "wmm"))
				o.model = SHIM_EXPLORE_MODEL_WMM;
			else
				return usage_error("no memory model %s (sc or wmm)", optarg);
			break;
		case 'l':
			for (i = 0; all[i]; i++)
				printf("%s\n", all[i]->name);
			for (i = 0; gen_families[i]; i++)
				gen_enumerate(gen_families[i], 2, list_generated, NULL);
			return 0;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			fputs(usage_text, stderr);
			return 2;
		}
	}
	/* Every argument checked before anything runs. */
	for (i = optind; i < argc; i++) {
		if (n == (int)(sizeof(named) / sizeof(named[0])))
			return usage_error("too many scenarios (%s)", argv[i]);
		named[n] = find(argv[i]);
		if (!named[n]) {
			fprintf(stderr, "explore: no scenario %s (%s)\n%s", argv[i],
				why_not(argv[i]), usage_text);
			return 2;
		}
		n++;
	}
	if (o.replay && !n) {
		const char *slash = strchr(o.replay, '/');
		char name[128];

		if (!slash || (size_t)(slash - o.replay) >= sizeof(name))
			return usage_error("malformed schedule string '%s' (SCENARIO/CHOICE.TASK,...)",
					   o.replay);
		snprintf(name, sizeof(name), "%.*s", (int)(slash - o.replay), o.replay);
		named[n] = find(name);
		if (!named[n])
			return usage_error("the schedule names no scenario: %s", name);
		n++;
	}
	if (!n)
		return usage_error("%s", "no scenario named");
	for (i = 0; o.replay && i < n; i++) {
		const char *err = shim_explore_schedule_error(named[i], o.replay);

		if (err) {
			fprintf(stderr, "explore: cannot replay '%s' on %s: %s\n",
				o.replay, named[i]->name, err);
			return 2;
		}
	}
	if (table) {
		if (o.replay)
			return usage_error("%s", "-T and -M do not go with -r");
		print_table(table, named, n, &o);
		return 0;
	}
	for (i = 0; i < n; i++) {
		const struct shim_scenario *sc = named[i];
		static struct shim_explore_result r;

		shim_explore(sc, &o, &r);
		printf("RESULT %s %s %lu %lu %.1f %.1f %d %d %lu %s\n", sc->name,
		       strategy, r.schedules, r.first_failure, r.first_failure_ms,
		       r.ms, r.bound_done, r.covered, r.failures,
		       r.first_failure ? r.schedule : "-");
		if (r.first_failure)
			printf("REPORT %s: %s\n", sc->name, r.title);
		fflush(stdout);
		if (r.diverged) {
			fprintf(stderr, "explore: %s: the schedule %s does not fit this scenario\n",
				sc->name, o.replay);
			return 2;
		}
		/* With -x a failure is expected: the replays decide. */
		if (replays)
			failed |= replay_check(sc, &r, replays);
		else
			failed |= r.failures > 0;
	}
	return failed;
}
