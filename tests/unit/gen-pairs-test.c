// SPDX-License-Identifier: GPL-2.0
/*
 * The generated pairs on real threads: every pair of operations of the
 * klist, ddm and hotplug families (tests/explore/gen/) on every small initial
 * state, each run for many rounds by two kthreads released together, and
 * every round's outcome checked against the family's sequential model.
 *
 * The explorer proves the interleavings in userspace, every schedule to
 * a bound; this runs the same operations and the same check on real
 * CPUs: in the kernel, on both vCPUs under KASAN, lockdep and (the KCSAN
 * variant) KCSAN, with the real scheduler and the hardware's barriers.
 *
 * Real time: an operation's stamps come from one atomic counter, taken
 * just before it starts and just after it returns, both full barriers,
 * so an operation stamped as ended before another began did end first.
 *
 * Not run here: the scenarios where one operation may lose its claim
 * (the family's misuse(): a double delete, an unregister of what is not
 * registered).  Their loser is reported with a WARN by design, which the
 * kernel run would count as a failure; the explorer checks them, with
 * the reports counted.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/kthread.h>
#include <linux/processor.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "gen.h"

#define GP_ROUNDS	20	/* rounds of each scenario */
#define GP_CHUNK	48	/* scenarios a parameter: seconds, not minutes, under TCG */
#define GP_OUTCOMES	32	/* distinct outcomes counted per scenario */
#define GP_SPIN		20000	/* bounded wait for the other worker to arrive */
#define GP_FAILS	5	/* failures reported before a family gives up */
#define GP_NCHUNKS	32	/* parameters a family: GP_NCHUNKS * GP_CHUNK scenarios */

/* The parameters' values, which must outlive the case. */
static const int gp_chunks[GP_NCHUNKS] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
};

/* The explorer's runner counts misuse reports; no scenario here makes one. */
void gen_misuse_expect(const char *kind)
{
}

int gen_misuse_reported(const char *kind)
{
	return 0;
}

bool gen_mutant(const char *name)
{
	return false;
}

struct gp_worker {
	struct task_struct *task;
	struct completion start, done;
	struct gp_run *run;
	int op;
	bool quit;
};

struct gp_run {
	struct kunit *test;
	struct gen_run r;
	struct gp_worker w[2];
	atomic_t clock;
	atomic_t arrived;
	int chunk;		/* the case's parameter: scenarios chunk*GP_CHUNK.. */
	int index;		/* of the scenario being enumerated */
	unsigned long scenarios, rounds, outcomes, skipped, failed;
	unsigned long seen[GP_OUTCOMES];
	int nseen;
};

static int gp_worker_fn(void *data)
{
	struct gp_worker *w = data;

	for (;;) {
		struct gp_run *g;
		struct gen_rec *rec;
		int spin = 0;

		wait_for_completion(&w->start);
		if (READ_ONCE(w->quit))
			break;
		g = w->run;
		rec = &g->r.rec[w->op];
		/* Start together when on two CPUs; go alone after a while. */
		atomic_inc(&g->arrived);
		while (atomic_read(&g->arrived) < 2 && spin++ < GP_SPIN)
			cpu_relax();
		rec->start = atomic_inc_return(&g->clock);
		g->r.spec.fam->run(&g->r, w->op);
		rec->end = atomic_inc_return(&g->clock);
		complete(&w->done);
	}
	return 0;
}

static void gp_count_outcome(struct gp_run *g, unsigned long h)
{
	int i;

	for (i = 0; i < g->nseen; i++)
		if (g->seen[i] == h)
			return;
	if (g->nseen < GP_OUTCOMES)
		g->seen[g->nseen++] = h;
}

/* One round of @s: set up, both operations at once, the check, tear down. */
static bool gp_round(struct gp_run *g, const struct gen_spec *s)
{
	struct gen_run *r = &g->r;
	bool ok;
	int i;

	memset(r, 0, sizeof(*r));
	r->spec = *s;
	r->fctx = s->fam->setup(s);
	atomic_set(&g->clock, 0);
	atomic_set(&g->arrived, 0);
	for (i = 0; i < 2; i++) {
		g->w[i].run = g;
		g->w[i].op = i;
		complete(&g->w[i].start);
	}
	for (i = 0; i < 2; i++)
		wait_for_completion(&g->w[i].done);
	s->fam->final(r, &r->fin);
	ok = gen_linearizable(r, &r->fin);
	if (ok) {
		gp_count_outcome(g, gen_outcome(r, &r->fin));
	} else {
		char name[GEN_NAME_MAX], what[400];

		gen_name(s, name, sizeof(name));
		gen_describe(r, &r->fin, what, sizeof(what));
		KUNIT_FAIL(g->test, "%s: no order of the operations explains: %s",
			   name, what);
	}
	s->fam->teardown(r);
	return ok;
}

static void gp_scenario(const struct gen_spec *s, void *arg)
{
	struct gp_run *g = arg;
	int round;

	if (g->index++ / GP_CHUNK != g->chunk || g->failed >= GP_FAILS)
		return;
	if (s->fam->misuse(s)) {
		g->skipped++;
		return;
	}
	g->scenarios++;
	g->nseen = 0;
	for (round = 0; round < GP_ROUNDS; round++) {
		g->rounds++;
		if (!gp_round(g, s)) {
			g->failed++;
			break;
		}
	}
	g->outcomes += g->nseen;
}

static void gp_family(struct kunit *test, const struct gen_family *fam)
{
	const int *chunk = test->param_value;
	struct gp_run *g;
	int i;

	g = kunit_kzalloc(test, sizeof(*g), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, g);
	g->test = test;
	g->chunk = *chunk;
	for (i = 0; i < 2; i++) {
		init_completion(&g->w[i].start);
		init_completion(&g->w[i].done);
		g->w[i].task = kthread_run(gp_worker_fn, &g->w[i], "gen-%s-%d",
					   fam->name, i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(g->w[i].task));
		get_task_struct(g->w[i].task);
	}
	gen_enumerate(fam, 2, gp_scenario, g);
	for (i = 0; i < 2; i++) {
		WRITE_ONCE(g->w[i].quit, true);
		complete(&g->w[i].start);
		kthread_stop(g->w[i].task);
		put_task_struct(g->w[i].task);
	}
	kunit_info(test, "%s pairs %d-%d: %lu scenarios, %lu rounds, %lu distinct outcomes, %lu failed; %lu misuse scenarios left to the explorer",
		   fam->name, g->chunk * GP_CHUNK, g->index < (g->chunk + 1) * GP_CHUNK ?
		   g->index - 1 : (g->chunk + 1) * GP_CHUNK - 1, g->scenarios,
		   g->rounds, g->outcomes, g->failed, g->skipped);
	KUNIT_EXPECT_GT(test, g->scenarios + g->skipped, 0UL);
	/* The last parameter: no scenario left beyond it unrun. */
	if (g->chunk == GP_NCHUNKS - 1)
		KUNIT_EXPECT_LE_MSG(test, g->index, GP_NCHUNKS * GP_CHUNK,
				    "%s has more scenarios than parameters: raise GP_NCHUNKS",
				    fam->name);
}

/*
 * A case per family, a parameter per GP_CHUNK scenarios in the
 * generator's order (initial state by state): each parameter is one wait
 * of the KUnit runner, kept well under the hung-task timeout.
 */

static const void *gp_chunk_params(const struct gen_family *fam,
				   const void *prev, char *desc)
{
	const int *p = prev ? (const int *)prev + 1 : gp_chunks;
	unsigned long n = gen_enumerate(fam, 2, NULL, NULL);

	if ((size_t)(p - gp_chunks) >= ARRAY_SIZE(gp_chunks) ||
	    (unsigned long)*p * GP_CHUNK >= n)
		return NULL;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "scenarios %d-%lu", *p * GP_CHUNK,
		 min_t(unsigned long, n, (*p + 1) * GP_CHUNK) - 1);
	return p;
}

static const void *gp_klist_chunks(const void *prev, char *desc)
{
	return gp_chunk_params(&gen_klist_family, prev, desc);
}

static const void *gp_ddm_chunks(const void *prev, char *desc)
{
	return gp_chunk_params(&gen_ddm_family, prev, desc);
}

static const void *gp_hotplug_chunks(const void *prev, char *desc)
{
	return gp_chunk_params(&gen_hotplug_family, prev, desc);
}

static void gen_klist_pairs(struct kunit *test)
{
	gp_family(test, &gen_klist_family);
}

static void gen_ddm_pairs(struct kunit *test)
{
	gp_family(test, &gen_ddm_family);
}

static void gen_hotplug_pairs(struct kunit *test)
{
	gp_family(test, &gen_hotplug_family);
}

static struct kunit_case gen_pairs_cases[] = {
	KUNIT_CASE_PARAM(gen_klist_pairs, gp_klist_chunks),
	KUNIT_CASE_PARAM(gen_ddm_pairs, gp_ddm_chunks),
	KUNIT_CASE_PARAM(gen_hotplug_pairs, gp_hotplug_chunks),
	{}
};

static struct kunit_suite gen_pairs_suite = {
	.name = "gen_pairs",
	.test_cases = gen_pairs_cases,
};

kunit_test_suite(gen_pairs_suite);

MODULE_LICENSE("GPL");
