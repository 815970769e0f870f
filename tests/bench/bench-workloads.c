// SPDX-License-Identifier: GPL-2.0
/*
 * The measured workloads: per-step cost, walk throughput, writer
 * latency under walkers, and the klist_remove wait.  Each runs every
 * list in turn, rotating the order, and leaves its raw results in the
 * arrays bench-driver.h declares.  The timed loops and the helpers they
 * call stay in this one file, so they inline as they did before the
 * split.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>

#include "bench-driver.h"

#define SPARE_SLOTS	64

unsigned int work_iters;
double work_ns_measured;

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
void calibrate_work(void)
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

double step_ns[MAX_SIZES][MAX_IMPLS][MAX_STEP_ROUNDS];
double pair_ns[MAX_SIZES][MAX_IMPLS][MAX_STEP_ROUNDS];

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

void run_step(void)
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

/* --- 2. walk throughput ----------------------------------------------------- */

double tput[MAX_THREADS + 1][MAX_IMPLS];

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

void run_tput(void)
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

struct lat_result lat[MAX_SIZES][MAX_IMPLS];

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

void run_lat(void)
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

struct rm_result rmres[MAX_IMPLS];

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

void run_rm(void)
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

/* --- 5. a writer beside a walker asleep on a node --------------------------- */

struct sleep_result sleepres[MAX_IMPLS];

struct sleeper {
	const struct bench_ops *ops;
	struct bench_list *l;
	int stop;
	unsigned long holds;
};

/*
 * The walker: stands on the first node, sleeps there (a walk that waits
 * for I/O, or takes a mutex, on each node), steps off, briefly pauses.
 * A klist walker holds only that node; a locked list's holds its lock;
 * an RCU walker is inside its read-side section, where it may not sleep
 * without holding up every grace period.
 */
static void *sleeper_fn(void *arg)
{
	struct sleeper *sl = arg;

	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	while (!__atomic_load_n(&sl->stop, __ATOMIC_ACQUIRE)) {
		sl->ops->hold_first(sl->l);
		sleep_ns(cfg.sleep_us * 1000ull);
		sl->ops->release_first(sl->l);
		sl->holds++;
		sleep_ns(20000);
	}
	return NULL;
}

static void one_sleep_run(const struct bench_ops *ops, uint64_t ms,
			  struct sleep_result *res, uint64_t *rng)
{
	struct sleeper sl = { .ops = ops };
	unsigned int slot = 0;
	uint64_t end;
	pthread_t th;

	sl.l = ops->create(cfg.sizes[0], SPARE_SLOTS);
	if (pthread_create(&th, NULL, sleeper_fn, &sl)) {
		perror("pthread_create");
		exit(1);
	}
	sleep_ns(2 * 1000000ull);
	end = now_ns() + ms * 1000000ull;
	while (now_ns() < end && res->n < res->cap && res->nrm < res->cap) {
		uint64_t a, b;
		unsigned int tries;

		for (tries = 0; ops->slot_linked(sl.l, slot) && tries < SPARE_SLOTS; tries++)
			slot = (slot + 1) % SPARE_SLOTS;
		if (tries == SPARE_SLOTS) {
			sleep_ns(10000);
			continue;
		}
		writer_pause(rng);
		a = now_ns();
		ops->add(sl.l, slot);
		b = now_ns();
		res->s[res->n++] = b - a;
		writer_pause(rng);
		a = now_ns();
		ops->remove(sl.l, slot);	/* the slot may be reused now */
		b = now_ns();
		res->rm[res->nrm++] = b - a;
		slot = (slot + 1) % SPARE_SLOTS;
	}
	__atomic_store_n(&sl.stop, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	res->holds += sl.holds;
	ops->destroy(sl.l);
}

void run_sleep(void)
{
	uint64_t rng = cfg.seed;
	size_t cap = (size_t)cfg.sleep_ms * 4000 / cfg.gap_us + 1024;
	unsigned int c;
	int i;

	if (!cfg.sleep_ms)
		return;
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	for (i = 0; i < nimpls; i++) {
		if (!impls[i]->hold_first || !impls[i]->remove)
			continue;
		sleepres[i].cap = cap;
		sleepres[i].s = xcalloc(cap, sizeof(uint64_t));
		sleepres[i].rm = xcalloc(cap, sizeof(uint64_t));
	}
	for (c = 0; c < cfg.chunks; c++)
		for (i = 0; i < nimpls; i++) {
			int k = (i + c) % nimpls;

			if (sleepres[k].cap)
				one_sleep_run(impls[k], cfg.sleep_ms / cfg.chunks,
					      &sleepres[k], &rng);
		}
	for (i = 0; i < nimpls; i++) {
		if (sleepres[i].n)
			qsort(sleepres[i].s, sleepres[i].n, sizeof(uint64_t), cmp_u64);
		if (sleepres[i].nrm)
			qsort(sleepres[i].rm, sleepres[i].nrm, sizeof(uint64_t), cmp_u64);
	}
}
