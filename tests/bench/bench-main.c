// SPDX-License-Identifier: GPL-2.0
/*
 * klist-bench: the same workloads, in one run, on our klist and on the
 * kernel's own lib/klist.c (6.1, unchanged), each on the fast runtime
 * and on the checked shim; on a hand-written lower bound for any
 * refcounted walk; and on the RFC's "before": a list_head whose lock
 * is held for the whole walk (reader-writer lock, and plain mutex).
 *
 * The machine is shared and noisy, so implementations are interleaved
 * round by round and compared by ratios taken inside one run.
 *
 * Output: a table on stdout, bench.json, and PNG plots rendered by
 * gnuplot, all in --out-dir.
 *
 * This file holds the options and the run order.  The workloads are in
 * bench-workloads.c, the statistics in bench-stats.c, the targets in
 * bench-targets.c, and the outputs in bench-table.c, bench-json.c and
 * bench-plot.c.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench-driver.h"

const struct bench_ops *impls[MAX_IMPLS] = {
	&bench_ours_fast_ops,
	&bench_ours_ops,
#ifndef BENCH_NO_KERNEL
	&bench_kernel_ops,
	&bench_kernel_fast_ops,
#endif
	&bench_lower_ops,
	&bench_rwlock_ops,
	&bench_mutex_ops,
#ifdef BENCH_HAVE_URCU
	&bench_rcu_ops,
#endif
};
int nimpls;
int i_ours_fast = -1, i_ours = -1, i_kernel = -1, i_kernel_fast = -1;
int i_lower = -1, i_rwlock = -1, i_mutex = -1, i_rcu = -1;

/* Which index each list the ratios and targets are about has. */
static void find_impls(void)
{
	const struct {
		const struct bench_ops *ops;
		int *idx;
	} named[] = {
		{ &bench_ours_fast_ops, &i_ours_fast },
		{ &bench_ours_ops, &i_ours },
#ifndef BENCH_NO_KERNEL
		{ &bench_kernel_ops, &i_kernel },
		{ &bench_kernel_fast_ops, &i_kernel_fast },
#endif
		{ &bench_lower_ops, &i_lower },
		{ &bench_rwlock_ops, &i_rwlock },
		{ &bench_mutex_ops, &i_mutex },
#ifdef BENCH_HAVE_URCU
		{ &bench_rcu_ops, &i_rcu },
#endif
	};
	unsigned int k;

	for (nimpls = 0; nimpls < MAX_IMPLS && impls[nimpls]; nimpls++)
		for (k = 0; k < sizeof(named) / sizeof(named[0]); k++)
			if (impls[nimpls] == named[k].ops)
				*named[k].idx = nimpls;
}

/* The defaults, which usage() shows and the options override. */
struct config cfg = {
	.sizes		= { 1000, 10000 },
	.nsizes		= 2,
	.rounds		= 300,
	.step_us	= 1000,
	.max_threads	= 4,
	.tput_size	= 1000,
	.tput_ms	= 200,
	.tput_rounds	= 3,
	.walkers	= 0,
	.lat_ms		= 1000,
	.gap_us		= 50,
	.work_ns	= 100,
	.chunks		= 10,
	.remove_rounds	= 300,
	.hold_us	= 100,
	.sleep_ms	= 300,
	.sleep_us	= 1000,
	.seed		= 20050322,	/* the day LWN covered the klist RFC */
	.out_dir	= ".",
	.plot		= true,
	.parts		= PART_ALL,
};

FILE *out_file(const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", cfg.out_dir, name);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	return f;
}

/* --- options ----------------------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: klist-bench [options]\n"
		"  --sizes=N,N        list sizes for per-step and writer latency (%u,%u)\n"
		"  --rounds=N         per-step: interleaved rounds (%u)\n"
		"  --step-us=N        per-step: us per implementation per round (%u)\n"
		"  --threads=N        throughput: 1..N walker threads (%u)\n"
		"  --tput-size=N      throughput: list size (%u)\n"
		"  --tput-ms=N        throughput: ms per point (%u)\n"
		"  --tput-rounds=N    throughput: rounds per point, median kept (%u)\n"
		"  --walkers=N        writer latency: walker threads beside the writer\n"
		"                     (online CPUs - 1, at least 1: the writer keeps a CPU)\n"
		"  --lat-ms=N         writer latency: ms per implementation and size (%u)\n"
		"  --gap-us=N         writer latency: mean pause between operations (%u)\n"
		"  --work-ns=N        work per node in throughput and latency walks (%u)\n"
		"  --chunks=N         writer latency: interleaved chunks per list (%u)\n"
		"  --remove-rounds=N  synchronous remove: rounds, 0 to skip (%u)\n"
		"  --hold-us=N        synchronous remove: walker holds the node (%u)\n"
		"  --sleep-ms=N       sleeping walker: ms per list (%u)\n"
		"  --sleep-us=N       sleeping walker: it sleeps on a node this long (%u)\n"
		"  --seed=N           writer pause jitter (%llu)\n"
		"  --out-dir=DIR      bench.json, *.dat, bench.gp, *.png (.)\n"
		"  --only=LIST        parts to run: step,tput,lat,remove,sleep (all)\n"
		"  --no-plot          do not run gnuplot\n"
		"  --quick            short durations, for a smoke test\n",
		cfg.sizes[0], cfg.sizes[1], cfg.rounds, cfg.step_us,
		cfg.max_threads, cfg.tput_size, cfg.tput_ms, cfg.tput_rounds,
		cfg.lat_ms, cfg.gap_us, cfg.work_ns,
		cfg.chunks, cfg.remove_rounds, cfg.hold_us, cfg.sleep_ms,
		cfg.sleep_us, cfg.seed);
}

static unsigned int num(const char *opt, const char *s, unsigned int lo,
			unsigned int hi)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	if (!*s || *end || v < lo || v > hi) {
		fprintf(stderr, "klist-bench: --%s must be %u..%u\n", opt, lo, hi);
		exit(2);
	}
	return v;
}

struct num_opt {
	const char *name;
	unsigned int *val;
	unsigned int lo, hi;
};

/* hold-us stays well below the shim's hung-task bound (3 s by default). */
static const struct num_opt num_opts[] = {
	{ "rounds",		&cfg.rounds,		1, MAX_STEP_ROUNDS },
	{ "step-us",		&cfg.step_us,		1, 10000000 },
	{ "threads",		&cfg.max_threads,	1, MAX_THREADS },
	{ "tput-size",		&cfg.tput_size,		1, 10000000 },
	{ "tput-ms",		&cfg.tput_ms,		1, 60000 },
	{ "tput-rounds",	&cfg.tput_rounds,	1, MAX_ROUNDS },
	{ "walkers",		&cfg.walkers,		1, MAX_THREADS },
	{ "lat-ms",		&cfg.lat_ms,		1, 600000 },
	{ "gap-us",		&cfg.gap_us,		1, 1000000 },
	{ "work-ns",		&cfg.work_ns,		0, 1000000 },
	{ "chunks",		&cfg.chunks,		1, 1000 },
	{ "remove-rounds",	&cfg.remove_rounds,	0, 1000000 },
	{ "hold-us",		&cfg.hold_us,		0, 1000000 },
	{ "sleep-ms",		&cfg.sleep_ms,		0, 600000 },
	{ "sleep-us",		&cfg.sleep_us,		1, 1000000 },
};

#define NUM_OPTS	(sizeof(num_opts) / sizeof(num_opts[0]))
#define OPT_NUM		256	/* getopt values OPT_NUM + index */

enum { OPT_SIZES = 1, OPT_SEED, OPT_OUT, OPT_NOPLOT, OPT_ONLY, OPT_QUICK };

static void parse_sizes(const char *arg)
{
	char *tok, *save, *buf = strdup(arg);

	cfg.nsizes = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (cfg.nsizes == MAX_SIZES) {
			fprintf(stderr, "klist-bench: at most %d sizes\n", MAX_SIZES);
			exit(2);
		}
		cfg.sizes[cfg.nsizes++] = num("sizes", tok, 1, 10000000);
	}
	free(buf);
	if (!cfg.nsizes) {
		usage(stderr);
		exit(2);
	}
}

static unsigned int parse_parts(const char *arg)
{
	unsigned int parts = (strstr(arg, "step") ? PART_STEP : 0) |
			     (strstr(arg, "tput") ? PART_TPUT : 0) |
			     (strstr(arg, "lat") ? PART_LAT : 0) |
			     (strstr(arg, "remove") ? PART_REMOVE : 0) |
			     (strstr(arg, "sleep") ? PART_SLEEP : 0);

	if (!parts) {
		usage(stderr);
		exit(2);
	}
	return parts;
}

static void parse_args(int argc, char **argv)
{
	struct option opts[NUM_OPTS + 8] = {
		{ "sizes", required_argument, NULL, OPT_SIZES },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "out-dir", required_argument, NULL, OPT_OUT },
		{ "no-plot", no_argument, NULL, OPT_NOPLOT },
		{ "only", required_argument, NULL, OPT_ONLY },
		{ "quick", no_argument, NULL, OPT_QUICK },
		{ "help", no_argument, NULL, 'h' },
	};
	unsigned int i;
	int c;

	for (i = 0; i < NUM_OPTS; i++)
		opts[7 + i] = (struct option){ num_opts[i].name,
					       required_argument, NULL,
					       OPT_NUM + i };

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c >= OPT_NUM && c < OPT_NUM + (int)NUM_OPTS) {
			const struct num_opt *o = &num_opts[c - OPT_NUM];

			*o->val = num(o->name, optarg, o->lo, o->hi);
			continue;
		}
		switch (c) {
		case OPT_SIZES:
			parse_sizes(optarg);
			break;
		case OPT_SEED:
			cfg.seed = strtoull(optarg, NULL, 0);
			break;
		case OPT_OUT:
			cfg.out_dir = optarg;
			break;
		case OPT_NOPLOT:
			cfg.plot = false;
			break;
		case OPT_ONLY:
			cfg.parts = parse_parts(optarg);
			break;
		case OPT_QUICK:
			cfg.rounds = 30;
			cfg.tput_ms = 50;
			cfg.tput_rounds = 1;
			cfg.lat_ms = 200;
			cfg.remove_rounds = 50;
			cfg.sleep_ms = 60;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(2);
		}
	}
	if (optind < argc) {
		usage(stderr);
		exit(2);
	}
}

/* The workloads, in the order they run. */
static const struct {
	unsigned int part;
	const char *what;
	void (*run)(void);
} parts[] = {
	{ PART_STEP, "per-step cost", run_step },
	{ PART_TPUT, "walk throughput", run_tput },
	{ PART_LAT, "writer latency", run_lat },
	{ PART_REMOVE, "synchronous remove", run_rm },
	{ PART_SLEEP, "writer beside a sleeping walker", run_sleep },
};

int main(int argc, char **argv)
{
	size_t p;
	int i;

	/* The shim's seeded schedule points would perturb every number. */
	unsetenv("SHIM_SCHED_SEED");
	parse_args(argc, argv);
	if (!cfg.walkers) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		/*
		 * More runnable threads than CPUs would let the scheduler
		 * preempt a walker inside k_lock, which a kernel spinlock
		 * never allows, and the writer would measure that instead.
		 */
		cfg.walkers = cpus > 2 ? (cpus - 1 < MAX_THREADS ? cpus - 1 : MAX_THREADS) : 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	find_impls();

	calibrate_work();
	printf("klist-bench: ");
	print_config(stdout, "");
	fflush(stdout);

	for (p = 0; p < sizeof(parts) / sizeof(parts[0]); p++) {
		if (cfg.parts & parts[p].part) {
			printf("[%zu/%zu] %s...\n", p + 1,
			       sizeof(parts) / sizeof(parts[0]), parts[p].what);
			parts[p].run();
		}
	}

	compute_targets();
	print_table();
	write_json();
	printf("\njson: %s/bench.json\n", cfg.out_dir);
	if (write_plots() && cfg.plot)
		render_plots();

	for (i = 0; i < cfg.nsizes; i++) {
		int k;

		for (k = 0; k < nimpls; k++)
			free(lat[i][k].s);
	}
	return 0;
}
