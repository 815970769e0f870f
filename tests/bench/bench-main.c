// SPDX-License-Identifier: GPL-2.0
/*
 * klist-bench: the same workloads, in one run, on our klist, on the
 * kernel's own lib/klist.c (6.1, unchanged, same shim), and on the
 * RFC's "before": a list_head whose lock is held for the whole walk
 * (reader-writer lock, and plain mutex).
 *
 * The machine is shared and noisy, so implementations are interleaved
 * round by round and compared by ratios taken inside one run.
 *
 * Output: a table on stdout, bench.json, and PNG plots rendered by
 * gnuplot, all in --out-dir.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "bench.h"

#ifndef BENCH_BUILD_INFO
#define BENCH_BUILD_INFO "unknown"
#endif

#define MAX_IMPLS	4
#define MAX_SIZES	4
#define MAX_THREADS	16
#define MAX_ROUNDS	64
#define MAX_STEP_ROUNDS	10000
#define SPARE_SLOTS	64

static const struct bench_ops *impls[MAX_IMPLS] = {
	&bench_ours_ops,
#ifndef BENCH_NO_KERNEL
	&bench_kernel_ops,
#endif
	&bench_rwlock_ops,
	&bench_mutex_ops,
};
static int nimpls;

/* Indices into impls[] the targets are about; -1 if not built. */
static int i_ours, i_kernel = -1, i_rwlock;

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
	unsigned long long seed;
	const char *out_dir;
	bool plot;
	unsigned int parts;		/* PART_* to run */
};

#define PART_STEP	1u
#define PART_TPUT	2u
#define PART_LAT	4u
#define PART_REMOVE	8u
#define PART_ALL	15u

static struct config cfg = {
	.sizes		= { 1000, 10000 },
	.nsizes		= 2,
	.rounds		= 300,
	.step_us	= 1000,
	.max_threads	= 4,
	.tput_size	= 1000,
	.tput_ms	= 200,
	.tput_rounds	= 3,
	.walkers	= 0,
	.lat_ms		= 1500,
	.gap_us		= 50,
	.work_ns	= 100,
	.chunks		= 15,
	.remove_rounds	= 300,
	.hold_us	= 100,
	.seed		= 20050322,	/* the day LWN covered the klist RFC */
	.out_dir	= ".",
	.plot		= true,
	.parts		= PART_ALL,
};

static unsigned int work_iters;	/* bench_work() rounds for cfg.work_ns */
static double work_ns_measured;

/* --- helpers ------------------------------------------------------------- */

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax()	__builtin_ia32_pause()
#elif defined(__aarch64__)
#define cpu_relax()	do { __asm__ volatile("yield" ::: "memory"); } while (0)
#else
#define cpu_relax()	do { __asm__ volatile("" ::: "memory"); } while (0)
#endif

/*
 * Wait for another thread to set *@flag.  On a loaded machine the other
 * thread may be waiting for our CPU, so after a short spin, yield.
 */
static void wait_flag(const int *flag, int val)
{
	unsigned int spins = 0;

	while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) != val)
		if (++spins < 1000)
			cpu_relax();
		else
			sched_yield();
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { ns / 1000000000ull, ns % 1000000000ull };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p) {
		perror("calloc");
		exit(1);
	}
	return p;
}

__attribute__((noinline))
unsigned long bench_work(unsigned long x, unsigned int iters)
{
	while (iters--) {
		x = x * 6364136223846793005ul + 1442695040888963407ul;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

/* Once, before anything runs, so every implementation gets the same work. */
static void calibrate_work(void)
{
	const unsigned int probe = 2000000;
	double best = 1e30;
	int i;

	for (i = 0; i < 5; i++) {
		uint64_t t0 = now_ns();
		double t;

		bench_work(i, probe);
		t = (double)(now_ns() - t0);
		if (t < best)
			best = t;
	}
	work_iters = cfg.work_ns ? (unsigned int)(cfg.work_ns * probe / best + 0.5) : 0;
	if (cfg.work_ns && !work_iters)
		work_iters = 1;
	work_ns_measured = work_iters * best / probe;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of a sorted array. */
static uint64_t pct(const uint64_t *s, size_t n, double p)
{
	size_t i;

	if (!n)
		return 0;
	i = (size_t)(p / 100.0 * (double)n + 0.999999);
	if (i < 1)
		i = 1;
	if (i > n)
		i = n;
	return s[i - 1];
}

/* Quantile @q (0..1) of @n values, interpolated; @v is left alone. */
static double quantile_d(const double *v, int n, double q)
{
	double *tmp, pos, r;
	int i;

	if (!n)
		return 0;
	tmp = xcalloc(n, sizeof(*tmp));
	memcpy(tmp, v, n * sizeof(*v));
	qsort(tmp, n, sizeof(*tmp), cmp_double);
	pos = q * (n - 1);
	i = (int)pos;
	r = i + 1 < n ? tmp[i] + (pos - i) * (tmp[i + 1] - tmp[i]) : tmp[i];
	free(tmp);
	return r;
}

static double median_d(const double *v, int n)
{
	return quantile_d(v, n, 0.5);
}

static double min_d(const double *v, int n)
{
	double m = n ? v[0] : 0;
	int i;

	for (i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

/* --- walker threads -------------------------------------------------------- */

struct walker {
	pthread_t th;
	const struct bench_ops *ops;
	struct bench_list *l;
	unsigned int work;
	const int *go, *stop;
	unsigned long nodes;
};

static void *walker_fn(void *arg)
{
	struct walker *w = arg;
	unsigned long nodes = 0;

	wait_flag(w->go, 1);
	while (!__atomic_load_n(w->stop, __ATOMIC_RELAXED))
		nodes += w->ops->walk(w->l, w->work);
	w->nodes = nodes;
	return NULL;
}

static void start_walkers(struct walker *w, unsigned int n,
			  const struct bench_ops *ops, struct bench_list *l,
			  unsigned int work, const int *go, const int *stop)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		w[i] = (struct walker){ .ops = ops, .l = l, .work = work,
					.go = go, .stop = stop };
		if (pthread_create(&w[i].th, NULL, walker_fn, &w[i])) {
			perror("pthread_create");
			exit(1);
		}
	}
}

static unsigned long join_walkers(struct walker *w, unsigned int n)
{
	unsigned long total = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		pthread_join(w[i].th, NULL);
		total += w[i].nodes;
	}
	return total;
}

/* --- 1. per-step cost ----------------------------------------------------- */

static double step_ns[MAX_SIZES][MAX_IMPLS][MAX_STEP_ROUNDS];
static double pair_ns[MAX_SIZES][MAX_IMPLS][MAX_STEP_ROUNDS];

/*
 * Short bursts, many rounds: a noisy neighbour then hits every
 * implementation about equally, and paired ratios cancel the drift.
 */
static double one_step_run(const struct bench_ops *ops, struct bench_list *l)
{
	uint64_t t0, t, budget = cfg.step_us * 1000ull;
	unsigned long nodes = 0;

	ops->walk(l, 0);	/* the other lists evicted this one's cache */
	t0 = now_ns();
	do {
		nodes += ops->walk(l, 0);
		t = now_ns();
	} while (t - t0 < budget);
	return (double)(t - t0) / nodes;
}

/* An add and a delete with nobody else around: the writer's own cost. */
static double one_pair_run(const struct bench_ops *ops, struct bench_list *l)
{
	uint64_t t0, t, budget = cfg.step_us * 1000ull / 4;
	unsigned long pairs = 0;

	t0 = now_ns();
	do {
		ops->add(l, 0);
		ops->del(l, 0);
		pairs++;
		t = now_ns();
	} while (t - t0 < budget);
	return (double)(t - t0) / pairs;
}

static void run_step(void)
{
	int s, i, r;

	for (s = 0; s < cfg.nsizes; s++) {
		struct bench_list *l[MAX_IMPLS];

		for (i = 0; i < nimpls; i++)
			l[i] = impls[i]->create(cfg.sizes[s], 1);
		/* Rotate the order each round: no one always runs first. */
		for (r = 0; r < (int)cfg.rounds; r++)
			for (i = 0; i < nimpls; i++) {
				int k = (i + r) % nimpls;

				step_ns[s][k][r] = one_step_run(impls[k], l[k]);
				pair_ns[s][k][r] = one_pair_run(impls[k], l[k]);
			}
		for (i = 0; i < nimpls; i++)
			impls[i]->destroy(l[i]);
	}
}

/* Quantile over rounds of the paired ratio a/b: drift hits both alike. */
static double paired_ratio(double (*m)[MAX_IMPLS][MAX_STEP_ROUNDS], int s,
			   int a, int b, double q)
{
	static double v[MAX_STEP_ROUNDS];
	int r;

	for (r = 0; r < (int)cfg.rounds; r++)
		v[r] = m[s][a][r] / m[s][b][r];
	return quantile_d(v, cfg.rounds, q);
}

static double step_ratio(int s, int a, int b, double q)
{
	return paired_ratio(step_ns, s, a, b, q);
}

/* --- 2. walk throughput ----------------------------------------------------- */

static double tput[MAX_THREADS + 1][MAX_IMPLS];	/* Mnodes/s, median */

static double one_tput_run(const struct bench_ops *ops, unsigned int threads)
{
	struct walker w[MAX_THREADS];
	struct bench_list *l = ops->create(cfg.tput_size, 0);
	int go = 0, stop = 0;
	unsigned long nodes;
	uint64_t t0, t1;

	start_walkers(w, threads, ops, l, work_iters, &go, &stop);
	t0 = now_ns();
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	sleep_ns(cfg.tput_ms * 1000000ull);
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	nodes = join_walkers(w, threads);
	t1 = now_ns();
	ops->destroy(l);
	return nodes / ((t1 - t0) / 1e3);
}

static void run_tput(void)
{
	double v[MAX_IMPLS][MAX_ROUNDS];
	unsigned int t;
	int i, r;

	for (t = 1; t <= cfg.max_threads; t++) {
		for (r = 0; r < (int)cfg.tput_rounds; r++)
			for (i = 0; i < nimpls; i++) {
				int k = (i + r) % nimpls;

				v[k][r] = one_tput_run(impls[k], t);
			}
		for (i = 0; i < nimpls; i++)
			tput[t][i] = median_d(v[i], cfg.tput_rounds);
	}
}

/* --- 3. writer latency under walkers ------------------------------------------ */

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

static struct lat_result lat[MAX_SIZES][MAX_IMPLS];

/* Jittered pauses, so the writer does not phase-lock to the walks. */
static void writer_pause(uint64_t *rng)
{
	sleep_ns(cfg.gap_us * 500ull + splitmix64(rng) % (cfg.gap_us * 1000ull + 1));
}

static void one_lat_run(const struct bench_ops *ops, unsigned int size,
			uint64_t ms, struct lat_result *res, uint64_t *rng)
{
	struct walker w[MAX_THREADS];
	struct bench_list *l = ops->create(size, SPARE_SLOTS);
	unsigned int slot = 0;
	int go = 0, stop = 0;
	uint64_t t0, end;

	start_walkers(w, cfg.walkers, ops, l, work_iters, &go, &stop);
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	sleep_ns(2 * 1000000ull);	/* let the walkers get going */
	t0 = now_ns();
	end = t0 + ms * 1000000ull;
	while (now_ns() < end && res->na < res->cap && res->nd < res->cap) {
		uint64_t a, b;
		unsigned int tries;

		/* A deleted klist node stays linked while a walker holds it. */
		for (tries = 0; ops->slot_linked(l, slot) && tries < SPARE_SLOTS; tries++)
			slot = (slot + 1) % SPARE_SLOTS;
		if (tries == SPARE_SLOTS) {
			sleep_ns(10000);
			continue;
		}
		writer_pause(rng);
		a = now_ns();
		ops->add(l, slot);
		b = now_ns();
		res->adds[res->na++] = b - a;
		writer_pause(rng);
		a = now_ns();
		ops->del(l, slot);
		b = now_ns();
		res->dels[res->nd++] = b - a;
		slot = (slot + 1) % SPARE_SLOTS;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	res->ns += now_ns() - t0;
	res->nodes += join_walkers(w, cfg.walkers);
	ops->destroy(l);
}

static void finish_lat(struct lat_result *res)
{
	qsort(res->adds, res->na, sizeof(*res->adds), cmp_u64);
	qsort(res->dels, res->nd, sizeof(*res->dels), cmp_u64);
	res->add_p99 = pct(res->adds, res->na, 99);
	res->del_p99 = pct(res->dels, res->nd, 99);
	res->n = res->na + res->nd;
	res->s = xcalloc(res->n + 1, sizeof(*res->s));
	memcpy(res->s, res->adds, res->na * sizeof(*res->adds));
	memcpy(res->s + res->na, res->dels, res->nd * sizeof(*res->dels));
	qsort(res->s, res->n, sizeof(*res->s), cmp_u64);
	res->walk_mnodes = res->ns ? res->nodes / (res->ns / 1e3) : 0;
	free(res->adds);
	free(res->dels);
	res->adds = res->dels = NULL;
}

static void run_lat(void)
{
	uint64_t rng = cfg.seed;
	/* Each pause is at least gap/2: an upper bound on operations. */
	size_t cap = (size_t)cfg.lat_ms * 2000 / cfg.gap_us + 1024;
	unsigned int c;
	int s, i;

	/* Short sleeps between writes must be short, not 50 us of slack. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	for (s = 0; s < cfg.nsizes; s++) {
		for (i = 0; i < nimpls; i++) {
			lat[s][i].cap = cap;
			lat[s][i].adds = xcalloc(cap, sizeof(uint64_t));
			lat[s][i].dels = xcalloc(cap, sizeof(uint64_t));
		}
		/* In chunks, rotating: a burst of outside load hits everyone. */
		for (c = 0; c < cfg.chunks; c++)
			for (i = 0; i < nimpls; i++) {
				int k = (i + c) % nimpls;

				one_lat_run(impls[k], cfg.sizes[s],
					    cfg.lat_ms / cfg.chunks, &lat[s][k], &rng);
			}
		for (i = 0; i < nimpls; i++)
			finish_lat(&lat[s][i]);
	}
}

/* --- 4. klist_remove wait --------------------------------------------------- */

struct rm_shared {
	const struct bench_ops *ops;
	struct bench_list *l;
	unsigned int rounds;
	int phase;		/* round number the walker should hold for */
	int held;		/* walker stands on the first node */
	int removing;		/* remover is about to call klist_remove */
	int released;		/* walker's step off the node has returned */
	uint64_t t_release;
};

static void *rm_walker_fn(void *arg)
{
	struct rm_shared *sh = arg;
	unsigned int r;

	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	for (r = 1; r <= sh->rounds; r++) {
		wait_flag(&sh->phase, r);
		sh->ops->hold_first(sh->l);
		__atomic_store_n(&sh->held, 1, __ATOMIC_RELEASE);
		wait_flag(&sh->removing, 1);
		sleep_ns(cfg.hold_us * 1000ull);
		sh->t_release = now_ns();
		sh->ops->release_first(sh->l);
		__atomic_store_n(&sh->released, 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

struct rm_result {
	uint64_t *wait, *wake;	/* per round (ns) */
	size_t n;
	uint64_t wait_p50, wake_p50, wake_p99, wake_max;
};

static struct rm_result rmres[MAX_IMPLS];

/*
 * 6.1's klist_release still reads the waiter, which lives on
 * klist_remove()'s stack, after it has let the remover return (lesson
 * K6).  So klist_remove() runs 16 KiB below the caller's frame: the few
 * shallow calls the caller makes until the releaser is done (clock,
 * sched_yield) cannot overwrite the waiter.
 */
static __attribute__((noinline)) void remove_deep(const struct bench_ops *ops,
						  struct bench_list *l)
{
	void *pad = __builtin_alloca(16384);

	__asm__ volatile("" : : "r"(pad) : "memory");
	ops->remove_first(l);
	__asm__ volatile("" : : "r"(pad) : "memory");
}

static void one_rm_run(const struct bench_ops *ops, unsigned int rounds,
		       struct rm_result *res)
{
	struct rm_shared sh = { .ops = ops, .rounds = rounds };
	pthread_t th;
	unsigned int r;

	sh.l = ops->create(16, 0);
	if (pthread_create(&th, NULL, rm_walker_fn, &sh)) {
		perror("pthread_create");
		exit(1);
	}
	for (r = 1; r <= rounds; r++) {
		uint64_t t0, t1;

		__atomic_store_n(&sh.held, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&sh.released, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&sh.removing, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&sh.phase, (int)r, __ATOMIC_RELEASE);
		wait_flag(&sh.held, 1);
		t0 = now_ns();
		__atomic_store_n(&sh.removing, 1, __ATOMIC_RELEASE);
		remove_deep(ops, sh.l);
		t1 = now_ns();
		/*
		 * Yield, do not just spin: the releaser may have woken us on
		 * its own CPU and be waiting for it.
		 */
		wait_flag(&sh.released, 1);
		res->wait[res->n] = t1 - t0;
		res->wake[res->n++] = t1 > sh.t_release ? t1 - sh.t_release : 0;
		ops->readd_first(sh.l);
	}
	pthread_join(th, NULL);
	ops->destroy(sh.l);
}

/* Chunks of a few rounds: a load burst must not land on one list only. */
#define RM_CHUNK	5

static void run_rm(void)
{
	unsigned int c, chunks = (cfg.remove_rounds + RM_CHUNK - 1) / RM_CHUNK;
	int i;

	if (!chunks)
		return;
	for (i = 0; i < nimpls; i++) {
		rmres[i].wait = xcalloc(chunks * RM_CHUNK, sizeof(uint64_t));
		rmres[i].wake = xcalloc(chunks * RM_CHUNK, sizeof(uint64_t));
	}
	for (c = 0; c < chunks; c++)
		for (i = 0; i < nimpls; i++) {
			int k = (i + c) % nimpls;

			if (impls[k]->has_remove)
				one_rm_run(impls[k], RM_CHUNK, &rmres[k]);
		}
	for (i = 0; i < nimpls; i++) {
		struct rm_result *res = &rmres[i];

		if (!res->n)
			continue;
		qsort(res->wait, res->n, sizeof(*res->wait), cmp_u64);
		qsort(res->wake, res->n, sizeof(*res->wake), cmp_u64);
		res->wait_p50 = pct(res->wait, res->n, 50);
		res->wake_p50 = pct(res->wake, res->n, 50);
		res->wake_p99 = pct(res->wake, res->n, 99);
		res->wake_max = res->wake[res->n - 1];
	}
}

/* --- output ------------------------------------------------------------------ */

static FILE *out_file(const char *name)
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

static void print_config(FILE *f, const char *pre)
{
	int s;

	fprintf(f, "%sseed %llu, build %s, %ld online cpus\n", pre, cfg.seed,
		BENCH_BUILD_INFO, sysconf(_SC_NPROCESSORS_ONLN));
	fprintf(f, "%ssizes", pre);
	for (s = 0; s < cfg.nsizes; s++)
		fprintf(f, "%s%u", s ? "," : " ", cfg.sizes[s]);
	fprintf(f, "; per-step %u rounds x %u us; throughput %u nodes, 1..%u threads, %u x %u ms\n",
		cfg.rounds, cfg.step_us, cfg.tput_size, cfg.max_threads,
		cfg.tput_rounds, cfg.tput_ms);
	fprintf(f, "%swork %u ns/node (%u iterations, %.0f ns measured); writer: %u walkers, %u ms, pause %u us mean\n",
		pre, cfg.work_ns, work_iters, work_ns_measured, cfg.walkers,
		cfg.lat_ms, cfg.gap_us);
	fprintf(f, "%swriter latency in %u interleaved chunks; remove wait: %u rounds in chunks of %d, walker holds the node %u us\n",
		pre, cfg.chunks, cfg.remove_rounds, RM_CHUNK, cfg.hold_us);
}

static double us(uint64_t ns)
{
	return ns / 1000.0;
}

struct targets {
	double step_ratio[MAX_SIZES];	/* ours / kernel per-step, paired median */
	double step_q1[MAX_SIZES], step_q3[MAX_SIZES];	/* its quartiles */
	double step_min_ratio[MAX_SIZES];	/* ratio of the best rounds */
	bool step_met;
	double p99_gain;		/* rwlock p99 / ours p99 at the largest size */
	bool p99_met;
	bool bytes_met;
};

static struct targets tg;
static int big;			/* index of the largest size */

static bool ran(unsigned int part)
{
	return cfg.parts & part;
}

static void compute_targets(void)
{
	int s;

	for (s = 0; s < cfg.nsizes; s++)
		if (cfg.sizes[s] > cfg.sizes[big])
			big = s;
	tg.step_met = i_kernel >= 0 && ran(PART_STEP);
	for (s = 0; tg.step_met && s < cfg.nsizes; s++) {
		tg.step_ratio[s] = step_ratio(s, i_ours, i_kernel, 0.5);
		tg.step_q1[s] = step_ratio(s, i_ours, i_kernel, 0.25);
		tg.step_q3[s] = step_ratio(s, i_ours, i_kernel, 0.75);
		tg.step_min_ratio[s] = min_d(step_ns[s][i_ours], cfg.rounds) /
			min_d(step_ns[s][i_kernel], cfg.rounds);
	}
	for (s = 0; tg.step_met && s < cfg.nsizes; s++)
		if (tg.step_ratio[s] > 1.0)
			tg.step_met = false;
	if (ran(PART_LAT)) {
		uint64_t o = pct(lat[big][i_ours].s, lat[big][i_ours].n, 99);
		uint64_t w = pct(lat[big][i_rwlock].s, lat[big][i_rwlock].n, 99);

		tg.p99_gain = o ? (double)w / o : 0;
		tg.p99_met = tg.p99_gain >= 100;
	}
	tg.bytes_met = i_kernel >= 0 &&
		impls[i_ours]->node_bytes <= impls[i_kernel]->node_bytes;
}

static void print_table(void)
{
	int s, i;
	unsigned int t;

	printf("\nklist-bench\n");
	print_config(stdout, "  ");
	for (i = 0; i < nimpls; i++)
		printf("  %-12s %s\n", impls[i]->name, impls[i]->what);

	if (ran(PART_STEP)) {
		printf("\n1. per-step cost, one thread, no work: ns per klist_next (locked lists: per node, lock amortised)\n");
		printf("   median of %u interleaved rounds of %u us [min]; ours/kernel: median of the paired ratios [quartiles]\n",
		       cfg.rounds, cfg.step_us);
		printf("   %-8s", "nodes");
		for (i = 0; i < nimpls; i++)
			printf(" %17s", impls[i]->name);
		if (i_kernel >= 0)
			printf("  %s", "ours/kernel");
		printf("\n");
		for (s = 0; s < cfg.nsizes; s++) {
			printf("   %-8u", cfg.sizes[s]);
			for (i = 0; i < nimpls; i++)
				printf("  %6.1f [%6.1f]",
				       median_d(step_ns[s][i], cfg.rounds),
				       min_d(step_ns[s][i], cfg.rounds));
			if (i_kernel >= 0)
				printf("  %.3fx [%.3f-%.3f]", tg.step_ratio[s],
				       tg.step_q1[s], tg.step_q3[s]);
			printf("\n");
		}
		printf("\n1b. writer's own cost, one thread, nobody walking: ns per add + delete pair (median [min])\n");
		printf("   %-8s", "nodes");
		for (i = 0; i < nimpls; i++)
			printf(" %17s", impls[i]->name);
		if (i_kernel >= 0)
			printf("  %s", "ours/kernel");
		printf("\n");
		for (s = 0; s < cfg.nsizes; s++) {
			printf("   %-8u", cfg.sizes[s]);
			for (i = 0; i < nimpls; i++)
				printf("  %6.1f [%6.1f]",
				       median_d(pair_ns[s][i], cfg.rounds),
				       min_d(pair_ns[s][i], cfg.rounds));
			if (i_kernel >= 0)
				printf("  %.3fx [%.3f-%.3f]",
				       paired_ratio(pair_ns, s, i_ours, i_kernel, 0.5),
				       paired_ratio(pair_ns, s, i_ours, i_kernel, 0.25),
				       paired_ratio(pair_ns, s, i_ours, i_kernel, 0.75));
			printf("\n");
		}
	}

	if (ran(PART_TPUT)) {
		printf("\n2. walk throughput, %u nodes, %u ns work/node: Mnodes/s, all walkers together (median of %u)\n",
		       cfg.tput_size, cfg.work_ns, cfg.tput_rounds);
		printf("   %-8s", "threads");
		for (i = 0; i < nimpls; i++)
			printf(" %12s", impls[i]->name);
		printf("\n");
		for (t = 1; t <= cfg.max_threads; t++) {
			printf("   %-8u", t);
			for (i = 0; i < nimpls; i++)
				printf(" %12.2f", tput[t][i]);
			printf("\n");
		}
	}

	if (ran(PART_LAT)) {
		printf("\n3. writer latency, us: klist_add_tail and klist_del (locked lists: list_add_tail, list_del under the\n");
		printf("   write lock) while %u walker%s walk%s with %u ns work/node\n", cfg.walkers,
		       cfg.walkers == 1 ? "" : "s", cfg.walkers == 1 ? "s" : "", cfg.work_ns);
		printf("   %-8s %-12s %9s %9s %10s %9s %9s %8s %10s\n", "nodes", "impl",
		       "p50", "p99", "max", "add p99", "del p99", "samples", "walk Mn/s");
		for (s = 0; s < cfg.nsizes; s++)
			for (i = 0; i < nimpls; i++) {
				struct lat_result *r = &lat[s][i];

				printf("   %-8u %-12s %9.2f %9.2f %10.1f %9.2f %9.2f %8zu %10.2f\n",
				       cfg.sizes[s], impls[i]->name, us(pct(r->s, r->n, 50)),
				       us(pct(r->s, r->n, 99)), us(r->n ? r->s[r->n - 1] : 0),
				       us(r->add_p99), us(r->del_p99), r->n, r->walk_mnodes);
			}
	}

	if (ran(PART_REMOVE) && cfg.remove_rounds) {
		printf("\n4. klist_remove wait, us: a walker holds the node %u us; wake = return - the walker's step off it\n",
		       cfg.hold_us);
		printf("   %-12s %9s %9s %9s %9s %7s\n", "impl", "wait p50", "wake p50",
		       "wake p99", "wake max", "rounds");
		for (i = 0; i < nimpls; i++) {
			if (!rmres[i].n)
				continue;
			printf("   %-12s %9.1f %9.1f %9.1f %9.1f %7zu\n", impls[i]->name,
			       us(rmres[i].wait_p50), us(rmres[i].wake_p50),
			       us(rmres[i].wake_p99), us(rmres[i].wake_max), rmres[i].n);
		}
	}

	printf("\n5. bytes per node (sizeof what each element embeds; the iterator lives on the walker's stack)\n");
	for (i = 0; i < nimpls; i++)
		printf("   %-12s node %3zu  iterator %3zu\n", impls[i]->name,
		       impls[i]->node_bytes, impls[i]->iter_bytes);

	printf("\ntargets\n");
	if (tg.step_met || (i_kernel >= 0 && ran(PART_STEP))) {
		for (s = 0; s < cfg.nsizes; s++)
			printf("   per-step ours/kernel at %u nodes: %.3fx, quartiles %.3f-%.3f, best rounds %.3fx (target <= 1.00x)\n",
			       cfg.sizes[s], tg.step_ratio[s], tg.step_q1[s],
			       tg.step_q3[s], tg.step_min_ratio[s]);
		printf("   per-step: %s\n", tg.step_met ? "MET" : "MISSED");
	}
	if (ran(PART_LAT))
		printf("   writer p99 at %u nodes, rwlock-list/ours: %.0fx (target >= 100x): %s\n",
		       cfg.sizes[big], tg.p99_gain, tg.p99_met ? "MET" : "MISSED");
	if (i_kernel >= 0)
		printf("   node bytes ours %zu <= kernel %zu: %s\n",
		       impls[i_ours]->node_bytes, impls[i_kernel]->node_bytes,
		       tg.bytes_met ? "MET" : "MISSED");
}

/* Sections that did not run are left out; each one starts with a comma. */
static void write_json(void)
{
	FILE *f = out_file("bench.json");
	int s, i;
	unsigned int t;

	fprintf(f, "{\n  \"config\": {\"seed\": %llu, \"build\": \"%s\", \"cpus\": %ld, \"sizes\": [",
		cfg.seed, BENCH_BUILD_INFO, sysconf(_SC_NPROCESSORS_ONLN));
	for (s = 0; s < cfg.nsizes; s++)
		fprintf(f, "%s%u", s ? ", " : "", cfg.sizes[s]);
	fprintf(f, "], \"rounds\": %u, \"step_us\": %u, \"max_threads\": %u, \"tput_size\": %u, \"tput_ms\": %u, \"tput_rounds\": %u,\n",
		cfg.rounds, cfg.step_us, cfg.max_threads, cfg.tput_size,
		cfg.tput_ms, cfg.tput_rounds);
	fprintf(f, "    \"walkers\": %u, \"lat_ms\": %u, \"gap_us\": %u, \"work_ns\": %u, \"work_iters\": %u, \"work_ns_measured\": %.1f, \"remove_rounds\": %u, \"hold_us\": %u, \"chunks\": %u},\n",
		cfg.walkers, cfg.lat_ms, cfg.gap_us, cfg.work_ns, work_iters,
		work_ns_measured, cfg.remove_rounds, cfg.hold_us, cfg.chunks);

	fprintf(f, "  \"implementations\": [");
	for (i = 0; i < nimpls; i++)
		fprintf(f, "%s\n    {\"name\": \"%s\", \"what\": \"%s\", \"node_bytes\": %zu, \"iter_bytes\": %zu}",
			i ? "," : "", impls[i]->name, impls[i]->what,
			impls[i]->node_bytes, impls[i]->iter_bytes);
	fprintf(f, "\n  ]");

	if (ran(PART_STEP)) {
		fprintf(f, ",\n  \"step_ns\": {");
		for (s = 0; s < cfg.nsizes; s++) {
			fprintf(f, "%s\n    \"%u\": {", s ? "," : "", cfg.sizes[s]);
			for (i = 0; i < nimpls; i++)
				fprintf(f, "%s\"%s\": {\"median\": %.2f, \"min\": %.2f, \"q1\": %.2f, \"q3\": %.2f}",
					i ? ", " : "", impls[i]->name,
					median_d(step_ns[s][i], cfg.rounds),
					min_d(step_ns[s][i], cfg.rounds),
					quantile_d(step_ns[s][i], cfg.rounds, 0.25),
					quantile_d(step_ns[s][i], cfg.rounds, 0.75));
			fprintf(f, "}");
		}
		fprintf(f, "\n  },\n  \"add_del_pair_ns\": {");
		for (s = 0; s < cfg.nsizes; s++) {
			fprintf(f, "%s\n    \"%u\": {", s ? "," : "", cfg.sizes[s]);
			for (i = 0; i < nimpls; i++)
				fprintf(f, "%s\"%s\": {\"median\": %.2f, \"min\": %.2f}",
					i ? ", " : "", impls[i]->name,
					median_d(pair_ns[s][i], cfg.rounds),
					min_d(pair_ns[s][i], cfg.rounds));
			if (i_kernel >= 0)
				fprintf(f, ", \"ratio_ours_over_kernel\": %.4f",
					paired_ratio(pair_ns, s, i_ours, i_kernel, 0.5));
			fprintf(f, "}");
		}
		fprintf(f, "\n  }");
	}

	if (ran(PART_TPUT)) {
		fprintf(f, ",\n  \"throughput_mnodes_per_s\": {");
		for (i = 0; i < nimpls; i++) {
			fprintf(f, "%s\n    \"%s\": [", i ? "," : "", impls[i]->name);
			for (t = 1; t <= cfg.max_threads; t++)
				fprintf(f, "%s%.3f", t > 1 ? ", " : "", tput[t][i]);
			fprintf(f, "]");
		}
		fprintf(f, "\n  }");
	}

	if (ran(PART_LAT)) {
		fprintf(f, ",\n  \"writer_latency_us\": {");
		for (s = 0; s < cfg.nsizes; s++) {
			fprintf(f, "%s\n    \"%u\": {", s ? "," : "", cfg.sizes[s]);
			for (i = 0; i < nimpls; i++) {
				struct lat_result *r = &lat[s][i];

				fprintf(f, "%s\n      \"%s\": {\"p50\": %.3f, \"p90\": %.3f, \"p99\": %.3f, \"p999\": %.3f, \"max\": %.3f, \"add_p99\": %.3f, \"del_p99\": %.3f, \"samples\": %zu, \"walk_mnodes_per_s\": %.3f}",
					i ? "," : "", impls[i]->name,
					us(pct(r->s, r->n, 50)), us(pct(r->s, r->n, 90)),
					us(pct(r->s, r->n, 99)), us(pct(r->s, r->n, 99.9)),
					us(r->n ? r->s[r->n - 1] : 0), us(r->add_p99),
					us(r->del_p99), r->n, r->walk_mnodes);
			}
			fprintf(f, "}");
		}
		fprintf(f, "\n  }");
	}

	if (ran(PART_REMOVE) && cfg.remove_rounds) {
		fprintf(f, ",\n  \"remove_wait_us\": {");
		for (i = 0, t = 0; i < nimpls; i++) {
			if (!rmres[i].n)
				continue;
			fprintf(f, "%s\n    \"%s\": {\"wait_p50\": %.2f, \"wake_p50\": %.2f, \"wake_p99\": %.2f, \"wake_max\": %.2f, \"rounds\": %zu}",
				t++ ? "," : "", impls[i]->name, us(rmres[i].wait_p50),
				us(rmres[i].wake_p50), us(rmres[i].wake_p99),
				us(rmres[i].wake_max), rmres[i].n);
		}
		fprintf(f, "\n  }");
	}

	fprintf(f, ",\n  \"targets\": {");
	if (i_kernel >= 0 && ran(PART_STEP)) {
		fprintf(f, "\"step_ratio_ours_over_kernel\": {");
		for (s = 0; s < cfg.nsizes; s++)
			fprintf(f, "%s\"%u\": {\"median\": %.4f, \"q1\": %.4f, \"q3\": %.4f, \"best_rounds\": %.4f}",
				s ? ", " : "", cfg.sizes[s], tg.step_ratio[s],
				tg.step_q1[s], tg.step_q3[s], tg.step_min_ratio[s]);
		fprintf(f, "}, \"step_met\": %s, ", tg.step_met ? "true" : "false");
	}
	if (ran(PART_LAT))
		fprintf(f, "\"writer_p99_rwlock_over_ours\": %.1f, \"p99_met\": %s, ",
			tg.p99_gain, tg.p99_met ? "true" : "false");
	fprintf(f, "\"node_bytes_met\": %s}\n}\n", tg.bytes_met ? "true" : "false");
	fclose(f);
}

/*
 * Data files and one gnuplot script, for the parts that ran; gnuplot is
 * run from --out-dir.  The .dat files have no header lines: gnuplot's
 * $0 and histogram slots would count them.
 */
static void plot_step(FILE *gp)
{
	FILE *f = out_file("bench-step.dat");
	int s, i;

	fprintf(f, "# impl");
	for (s = 0; s < cfg.nsizes; s++)
		fprintf(f, " ns@%u", cfg.sizes[s]);
	fprintf(f, "\n");
	for (i = 0; i < nimpls; i++) {
		fprintf(f, "%s", impls[i]->name);
		for (s = 0; s < cfg.nsizes; s++)
			fprintf(f, " %.2f", median_d(step_ns[s][i], cfg.rounds));
		fprintf(f, "\n");
	}
	fclose(f);

	/* Log scale: the locked lists' per-node cost is ~50x below a step. */
	fprintf(gp, "\nreset\nload 'bench-style.gp'\nset output 'bench-step.png'\n");
	fprintf(gp, "set title 'Per-step cost of a walk, one thread, no work (median of %u rounds; lower is better)'\n",
		cfg.rounds);
	fprintf(gp, "set ylabel 'ns per node, log (klists: per klist_next)'\n");
	fprintf(gp, "set logscale y\nset format y '%%g'\nset yrange [0.5:*]\n");
	fprintf(gp, "set xrange [-0.6:%d.4]\n", nimpls - 1);
	fprintf(gp, "set style data histograms\nset style histogram clustered gap 1\n");
	fprintf(gp, "plot 'bench-step.dat' using 2:xtic(1) title '%u nodes'", cfg.sizes[0]);
	for (s = 1; s < cfg.nsizes; s++)
		fprintf(gp, ", '' using %d title '%u nodes'", s + 2, cfg.sizes[s]);
	for (s = 0; s < cfg.nsizes; s++)
		fprintf(gp, ", '' using ($0%+.3f):%d:(sprintf('%%.1f', $%d)) with labels offset 0,0.7 notitle",
			(s - (cfg.nsizes - 1) / 2.0) / (cfg.nsizes + 1), s + 2, s + 2);
	fprintf(gp, "\n");
}

static void plot_tput(FILE *gp)
{
	FILE *f = out_file("bench-throughput.dat");
	unsigned int t;
	int i;

	fprintf(f, "threads");
	for (i = 0; i < nimpls; i++)
		fprintf(f, " %s", impls[i]->name);
	fprintf(f, "\n");
	for (t = 1; t <= cfg.max_threads; t++) {
		fprintf(f, "%u", t);
		for (i = 0; i < nimpls; i++)
			fprintf(f, " %.3f", tput[t][i]);
		fprintf(f, "\n");
	}
	fclose(f);

	fprintf(gp, "\nreset\nload 'bench-style.gp'\nset output 'bench-throughput.png'\n");
	fprintf(gp, "set title 'Walk throughput, %u nodes, %u ns work per node (higher is better; %ld CPUs)'\n",
		cfg.tput_size, cfg.work_ns, sysconf(_SC_NPROCESSORS_ONLN));
	fprintf(gp, "set xlabel 'walker threads'\nset ylabel 'million nodes/s, all walkers together'\n");
	fprintf(gp, "set key outside right top vertical\n");
	fprintf(gp, "set xtics 1\nset xrange [0.8:%u.2]\nset yrange [0:*]\n",
		cfg.max_threads);
	fprintf(gp, "plot for [c=2:%d] 'bench-throughput.dat' using 1:c with linespoints title columnheader(c) lw 2 pt 7\n",
		nimpls + 1);
}

static void plot_lat(FILE *gp)
{
	FILE *f = out_file("bench-writer-latency.dat");
	int s, i;

	for (s = 0; s < cfg.nsizes; s++) {
		fprintf(f, "# %u nodes: impl p50 p99 max (us)\n", cfg.sizes[s]);
		for (i = 0; i < nimpls; i++) {
			struct lat_result *r = &lat[s][i];

			fprintf(f, "%s %.3f %.3f %.3f\n", impls[i]->name,
				us(pct(r->s, r->n, 50)), us(pct(r->s, r->n, 99)),
				us(r->n ? r->s[r->n - 1] : 0));
		}
		fprintf(f, "\n\n");
	}
	fclose(f);

	/* Tail of the largest size: fraction of operations slower than x. */
	f = out_file("bench-writer-ccdf.dat");
	for (i = 0; i < nimpls; i++) {
		struct lat_result *r = &lat[big][i];
		size_t k;

		fprintf(f, "# %s: us, fraction slower\n", impls[i]->name);
		for (k = 0; k < r->n; k++) {
			/* Thin the body, keep every point of the tail. */
			if (k + 1 < r->n && r->n - k > 200 && k % (r->n / 400 + 1))
				continue;
			fprintf(f, "%.3f %.6g\n", us(r->s[k]),
				(double)(r->n - k) / r->n);
		}
		fprintf(f, "\n\n");
	}
	fclose(f);

	fprintf(gp, "\nreset\nload 'bench-style.gp'\nset output 'bench-writer-latency.png'\n");
	fprintf(gp, "set terminal pngcairo size 1100,560 font ',11' noenhanced\n");
	fprintf(gp, "set multiplot layout 1,%d title 'Writer add/delete latency while %u walker%s walk%s (%u ns work/node); lower is better'\n",
		cfg.nsizes, cfg.walkers, cfg.walkers == 1 ? "" : "s",
		cfg.walkers == 1 ? "s" : "", cfg.work_ns);
	fprintf(gp, "set logscale y\nset format y '%%g'\nset ylabel 'microseconds (log)'\n");
	fprintf(gp, "set xrange [-0.6:%d.4]\n", nimpls - 1);
	fprintf(gp, "set style data histograms\nset style histogram clustered gap 1\n");
	for (s = 0; s < cfg.nsizes; s++)
		fprintf(gp, "set title '%u nodes'\nplot 'bench-writer-latency.dat' index %d using 2:xtic(1) title 'p50', '' index %d using 3 title 'p99', '' index %d using 4 title 'max'\n",
			cfg.sizes[s], s, s, s);
	fprintf(gp, "unset multiplot\n");

	fprintf(gp, "\nreset\nload 'bench-style.gp'\nset output 'bench-writer-ccdf.png'\n");
	fprintf(gp, "set title 'Writer latency tail, %u nodes: fraction of adds/deletes slower than x'\n",
		cfg.sizes[big]);
	fprintf(gp, "set logscale xy\nset format x '%%g'\nset format y '%%g'\n");
	fprintf(gp, "set xlabel 'latency, microseconds (log)'\n");
	fprintf(gp, "set ylabel 'fraction of operations (log)'\nset key inside top right vertical\n");
	fprintf(gp, "set grid xtics ytics\nset yrange [*:1.1]\n");
	fprintf(gp, "plot");
	for (i = 0; i < nimpls; i++)
		fprintf(gp, "%s 'bench-writer-ccdf.dat' index %d using 1:2 with lines title '%s' lw 2",
			i ? "," : "", i, impls[i]->name);
	fprintf(gp, "\n");
}

static bool write_plots(void)
{
	FILE *gp;

	if (!ran(PART_STEP | PART_TPUT | PART_LAT))
		return false;
	gp = out_file("bench-style.gp");
	fprintf(gp, "set terminal pngcairo size 900,560 font ',11' noenhanced\n");
	fprintf(gp, "set grid ytics\nset border 3\nset tics nomirror\n");
	fprintf(gp, "set key outside bottom center horizontal Left reverse samplen 2\n");
	fprintf(gp, "set style fill solid 0.8 border -1\nset boxwidth 0.9\n");
	fclose(gp);

	gp = out_file("bench.gp");
	fprintf(gp, "# Generated by klist-bench; run from this directory: gnuplot bench.gp\n");
	if (ran(PART_STEP))
		plot_step(gp);
	if (ran(PART_TPUT))
		plot_tput(gp);
	if (ran(PART_LAT))
		plot_lat(gp);
	fclose(gp);
	return true;
}

static void render_plots(void)
{
	pid_t pid = fork();
	int status;

	if (pid < 0) {
		perror("fork");
		return;
	}
	if (!pid) {
		if (chdir(cfg.out_dir))
			_exit(127);
		execlp("gnuplot", "gnuplot", "bench.gp", (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		printf("plots: %s/bench-*.png\n",
		       cfg.out_dir);
	else
		printf("plots: gnuplot failed or is missing; data and bench.gp are in %s\n",
		       cfg.out_dir);
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
		"  --remove-rounds=N  klist_remove wait: rounds, 0 to skip (%u)\n"
		"  --hold-us=N        klist_remove wait: walker holds the node (%u)\n"
		"  --seed=N           writer pause jitter (%llu)\n"
		"  --out-dir=DIR      bench.json, *.dat, bench.gp, *.png (.)\n"
		"  --only=LIST        parts to run: step,tput,lat,remove (all)\n"
		"  --no-plot          do not run gnuplot\n"
		"  --quick            short durations, for a smoke test\n",
		cfg.sizes[0], cfg.sizes[1], cfg.rounds, cfg.step_us,
		cfg.max_threads, cfg.tput_size, cfg.tput_ms, cfg.tput_rounds,
		cfg.lat_ms, cfg.gap_us, cfg.work_ns,
		cfg.chunks, cfg.remove_rounds, cfg.hold_us, cfg.seed);
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
			     (strstr(arg, "remove") ? PART_REMOVE : 0);

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

int main(int argc, char **argv)
{
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

	for (nimpls = 0; nimpls < MAX_IMPLS && impls[nimpls]; nimpls++) {
		if (impls[nimpls] == &bench_rwlock_ops)
			i_rwlock = nimpls;
#ifndef BENCH_NO_KERNEL
		if (impls[nimpls] == &bench_kernel_ops)
			i_kernel = nimpls;
#endif
	}
	i_ours = 0;

	calibrate_work();
	printf("klist-bench: ");
	print_config(stdout, "");
	fflush(stdout);

	if (cfg.parts & PART_STEP) {
		printf("[1/4] per-step cost...\n");
		run_step();
	}
	if (cfg.parts & PART_TPUT) {
		printf("[2/4] walk throughput...\n");
		run_tput();
	}
	if (cfg.parts & PART_LAT) {
		printf("[3/4] writer latency...\n");
		run_lat();
	}
	if (cfg.parts & PART_REMOVE) {
		printf("[4/4] klist_remove wait...\n");
		run_rm();
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
