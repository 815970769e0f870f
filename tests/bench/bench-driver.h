/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the driver's files share: the limits, the configuration, the
 * lists under test, and the results the workloads leave for the
 * outputs.  The lists themselves see only bench.h.
 */
#ifndef _BENCH_DRIVER_H
#define _BENCH_DRIVER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

#ifndef BENCH_BUILD_INFO
#define BENCH_BUILD_INFO "unknown"
#endif

#define MAX_IMPLS	8
#define MAX_SIZES	4
#define MAX_THREADS	16
#define MAX_ROUNDS	64
#define MAX_STEP_ROUNDS	10000

/* --- bench-main.c: configuration and the lists under test ---------------- */

struct config {
	unsigned int sizes[MAX_SIZES];
	int nsizes;
	unsigned int rounds;		/* per-step: interleaved rounds */
	unsigned int step_us;		/* per-step: per impl per round */
	unsigned int max_threads;
	unsigned int tput_size;
	unsigned int tput_ms;
	unsigned int tput_rounds;
	unsigned int walkers;		/* writer latency: walkers (0: CPUs - 1) */
	unsigned int lat_ms;
	unsigned int gap_us;		/* writer: mean pause between ops */
	unsigned int work_ns;		/* per node, in walks with work */
	unsigned int chunks;		/* writer latency: interleaved chunks */
	unsigned int remove_rounds;
	unsigned int hold_us;		/* remove wait: walker holds the node */
	unsigned int sleep_ms;		/* sleeper: ms per list */
	unsigned int sleep_us;		/* sleeper: the walker sleeps on a node */
	unsigned long long seed;
	const char *out_dir;
	bool plot;
	unsigned int parts;		/* PART_* to run */
};

#define PART_STEP	1u
#define PART_TPUT	2u
#define PART_LAT	4u
#define PART_REMOVE	8u
#define PART_SLEEP	16u
#define PART_ALL	31u

extern struct config cfg;

static inline bool ran(unsigned int part)
{
	return cfg.parts & part;
}

extern const struct bench_ops *impls[MAX_IMPLS];
extern int nimpls;
/*
 * Indices into impls[] the ratios and targets are about; -1 if not
 * built.  i_ours and i_kernel are the checked shim's, as before the
 * fast runtime came.
 */
extern int i_ours_fast, i_ours, i_kernel, i_kernel_fast;
extern int i_lower, i_rwlock, i_mutex, i_rcu;

/* @name in --out-dir, open for writing; exits if it cannot be. */
FILE *out_file(const char *name);

/* --- bench-workloads.c: what is measured, and the raw results ------------- */

extern unsigned int work_iters;	/* bench_work() rounds for cfg.work_ns */
extern double work_ns_measured;

void calibrate_work(void);
void run_step(void);
void run_tput(void);
void run_lat(void);
void run_rm(void);
void run_sleep(void);

/* 1. per-step cost, and an add + delete pair, per size, list and round */
extern double step_ns[MAX_SIZES][MAX_IMPLS][MAX_STEP_ROUNDS];
extern double pair_ns[MAX_SIZES][MAX_IMPLS][MAX_STEP_ROUNDS];

/* 2. walk throughput per walker count and list */
extern double tput[MAX_THREADS + 1][MAX_IMPLS];	/* Mnodes/s, median */

/* 3. writer latency under walkers */
struct lat_result {
	uint64_t *adds, *dels;	/* raw samples (ns), appended chunk by chunk */
	size_t na, nd, cap;
	unsigned long nodes;	/* walkers' nodes meanwhile ... */
	uint64_t ns;		/* ... in this much time */
	uint64_t *s;		/* adds and dels together, sorted */
	size_t n;
	uint64_t add_p99, del_p99;
	double walk_mnodes;
};

extern struct lat_result lat[MAX_SIZES][MAX_IMPLS];

/* 4. klist_remove wait */
struct rm_result {
	uint64_t *wait, *wake;	/* per round (ns) */
	size_t n;
	uint64_t wait_p50, wake_p50, wake_p99, wake_max;
};

extern struct rm_result rmres[MAX_IMPLS];

/* 5. a writer beside a walker asleep on a node (lists that can hold one) */
struct sleep_result {
	uint64_t *s;		/* add latencies (ns), sorted */
	uint64_t *rm;		/* synchronous remove latencies (ns), sorted */
	size_t n, nrm, cap;
	unsigned long holds;	/* the walker's sleeps meanwhile */
};

extern struct sleep_result sleepres[MAX_IMPLS];

/* Chunks of a few rounds: a load burst must not land on one list only. */
#define RM_CHUNK	5

/* --- bench-stats.c: order statistics over the samples -------------------- */

int cmp_u64(const void *a, const void *b);
uint64_t pct(const uint64_t *s, size_t n, double p);
double quantile_d(const double *v, int n, double q);
double median_d(const double *v, int n);
double min_d(const double *v, int n);
double paired_ratio(double (*m)[MAX_IMPLS][MAX_STEP_ROUNDS], int s,
		    int a, int b, double q);

/* --- bench-targets.c: the ratios and goals, judged from the results ------- */

/* A per-step cost ratio a/b, per size, from the paired rounds. */
struct step_ratio {
	const char *label;	/* for the table: "fast/lower-bound" */
	const char *key;	/* for the JSON */
	int a, b;		/* indices into impls[] */
	double target;		/* at most this; 0: reported, no target */
	bool have;		/* both lists ran the per-step part */
	bool met;		/* have, target, and every size within it */
	/*
	 * Missed, but at every size the target lies inside the quartiles
	 * of the paired ratios: this run cannot tell the two apart.
	 */
	bool within_noise;
	double med[MAX_SIZES], q1[MAX_SIZES], q3[MAX_SIZES];
	double best[MAX_SIZES];	/* the best rounds' ratio */
};

enum {
	SR_FAST_LOWER,		/* ours-fast / lower-bound */
	SR_CHECKED_FAST,	/* ours-checked / ours-fast */
	SR_OURS_KERNEL,		/* on the checked shim */
	SR_OURS_KERNEL_FAST,	/* on the fast runtime */
	SR_FAST_MUTEX,		/* ours-fast / mutex-list: what a walk costs */
	SR_FAST_RCU,		/* ours-fast / rculist */
	NR_STEP_RATIOS
};

struct targets {
	struct step_ratio step[NR_STEP_RATIOS];
	/* rwlock-list writer p99 / each list's, at the largest size */
	double p99_gain[MAX_IMPLS];
	bool p99_judged[MAX_IMPLS];	/* ours-checked and ours-fast */
	bool p99_met[MAX_IMPLS];
	bool bytes_met, bytes_fast_met;	/* our node <= the kernel's */
};

extern struct targets tg;
extern int big;			/* index of the largest size */

void compute_targets(void);
/* The add + delete pair's paired ratio a/b at size @s, quantile @q. */
double pair_ratio(int s, int a, int b, double q);

/* --- the outputs: bench-table.c, bench-json.c, bench-plot.c -------------- */

static inline double us(uint64_t ns)
{
	return ns / 1000.0;
}

void print_config(FILE *f, const char *pre);
void print_sizes(FILE *f, const char *first, const char *sep);
void print_table(void);
void write_json(void);
bool write_plots(void);
void render_plots(void);

#endif
